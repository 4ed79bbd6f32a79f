package satcheck_test

import (
	"context"
	"fmt"
	"os"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// lineGame builds a one-role game by hand: propositions (cell i x), actions
// (mark i), next(cell i x) = (cell i x) ∨ (does x (mark i)), terminal = the
// line. The circuit is AND gates with negatable edges, built literally.
func lineGame() *grounding.Program {
	// Inputs: 0..2 = (true (cell i x)), 3..5 = (does x (mark i)).
	in := func(i int) grounding.Lit { return grounding.InputLit(i) }
	c := grounding.Circuit{NumInputs: 6, Start: make([]int32, 8)}
	gate := func(fs ...grounding.Lit) grounding.Lit {
		c.Fanin = append(c.Fanin, fs...)
		c.Start = append(c.Start, int32(len(c.Fanin)))
		return grounding.Lit(c.NumNodes()-1) << 1
	}
	line := gate(in(0), in(1), in(2))
	var next []grounding.Lit
	for i := range 3 {
		next = append(next, gate(in(i).Not(), in(3+i).Not()).Not()) // OR as NOT AND NOT
	}
	return &grounding.Program{
		Name:     "line",
		Roles:    []string{"x"},
		Props:    []string{"(cell 1 x)", "(cell 2 x)", "(cell 3 x)"},
		Actions:  [][]string{{"(mark 1)", "(mark 2)", "(mark 3)"}},
		Circuit:  c,
		Legal:    [][]grounding.Lit{{grounding.True, grounding.True, grounding.True}},
		Next:     next,
		Goals:    [][]grounding.Goal{{{Value: 100, Lit: line}}},
		Terminal: line,
	}
}

// disguisedLineGame is lineGame under other names, with its cells listed in
// another order and its rules written differently: the line as a nested
// conjunction, and next(square i) = (square i) ∨ ¬(put j) ∧ ¬(put k) for the
// two other squares, which equals the original only because the role does
// exactly one action.
func disguisedLineGame() *grounding.Program {
	// Squares a, b, c are cells 3, 1, 2; inputs 0..2 = squares, 3..5 = (put a..c).
	in := func(i int) grounding.Lit { return grounding.InputLit(i) }
	c := grounding.Circuit{NumInputs: 6, Start: make([]int32, 8)}
	gate := func(fs ...grounding.Lit) grounding.Lit {
		c.Fanin = append(c.Fanin, fs...)
		c.Start = append(c.Start, int32(len(c.Fanin)))
		return grounding.Lit(c.NumNodes()-1) << 1
	}
	bc := gate(in(1), in(2))
	line := gate(in(0), bc)
	var next []grounding.Lit
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		others := gate(min(in(3+j), in(3+k)).Not(), max(in(3+j), in(3+k)).Not())
		next = append(next, gate(in(i).Not(), others.Not()).Not())
	}
	return &grounding.Program{
		Name:     "squares",
		Roles:    []string{"white"},
		Props:    []string{"(square a)", "(square b)", "(square c)"},
		Actions:  [][]string{{"(put a)", "(put b)", "(put c)"}},
		Circuit:  c,
		Legal:    [][]grounding.Lit{{grounding.True, grounding.True, grounding.True}},
		Next:     next,
		Goals:    [][]grounding.Goal{{{Value: 100, Lit: line}}},
		Terminal: line,
	}
}

func Example() {
	a, b := lineGame(), disguisedLineGame()
	// Cell 1 is square b, cell 2 square c, cell 3 square a.
	m := satcheck.Mapping{
		Roles:   []int{0},
		Props:   []int{1, 2, 0},
		Actions: [][]int{{1, 2, 0}},
	}
	res, err := satcheck.Verify(context.Background(), a, b, m, satcheck.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res)

	// Swapping the images of two actions breaks the next functions.
	m.Actions = [][]int{{2, 1, 0}}
	res, err = satcheck.Verify(context.Background(), a, b, m, satcheck.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res)
	// Output:
	// equivalent
	// different: (next (cell 1 x)) vs (next (square b)): (next (cell 1 x)) is true in line but its image is false in squares, in state {} with moves {(does x (mark 1))}
}

func ExampleChecker_CheckFunc() {
	a, b := lineGame(), disguisedLineGame()
	c, err := satcheck.NewChecker(a, b, satcheck.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// During a search only the inputs that next(cell 1 x) reads need images:
	// (cell 1 x) -> (square b) and (mark 1) -> (put b).
	im := []int32{1, -1, -1, 4, -1, -1}
	eq, err := c.CheckFunc(context.Background(), grounding.FuncNext, a.Next[0], b.Next[1], im)
	fmt.Println(eq, err)
	// Output:
	// true <nil>
}

func ExampleChecker_WriteDIMACS() {
	a, b := lineGame(), disguisedLineGame()
	c, err := satcheck.NewChecker(a, b, satcheck.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	im := satcheck.Mapping{Roles: []int{0}, Props: []int{1, 2, 0}, Actions: [][]int{{1, 2, 0}}}.InputMap(a, b)
	if err := c.WriteDIMACS(os.Stdout, grounding.FuncNext, a.Next[0], b.Next[1], im); err != nil {
		fmt.Println(err)
	}
	// Output:
	// c gamequiv satcheck miter: next function, "line" literal 17 XOR "squares" literal 25 (SAT = different)
	// c var 1 = constant false
	// c var 2 = (true (cell 1 x)) = (true (square b))
	// c var 3 = (does x (mark 1)) = (does white (put b))
	// c var 4 = (does white (put a))
	// c var 5 = (does white (put c))
	// p cnf 8 16
	// -1 0
	// -6 -2 0
	// -6 -3 0
	// 6 2 3 0
	// -7 -4 0
	// -7 -5 0
	// 7 4 5 0
	// -8 -2 0
	// -8 -7 0
	// 8 2 7 0
	// -6 -8 0
	// 6 8 0
	// 4 3 5 0
	// -4 -3 0
	// -4 -5 0
	// -3 -5 0
}

func ExampleSemanticSupport() {
	p := disguisedLineGame()
	// next(square a) reads (square a), (put b) and (put c); under one-hot
	// moves it depends on every action of the role, (put a) included.
	s, err := satcheck.SemanticSupport(context.Background(), p, p.Next[0])
	fmt.Println(s, err)
	// Output:
	// [0 3 4 5] <nil>
}
