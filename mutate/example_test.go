package mutate_test

import (
	"context"
	"fmt"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
)

// A one-player game: mark cells of a 2x1 board, win when both are marked.
const exampleGame = `
(role robot)
(index 1) (index 2)
(<= (init (cell ?x b)) (index ?x))
(<= (legal robot (mark ?x)) (true (cell ?x b)))
(<= (next (cell ?x x)) (does robot (mark ?x)))
(<= (next (cell ?x ?m)) (true (cell ?x ?m)) (not (does robot (mark ?x))))
(<= terminal (not open))
(<= open (true (cell ?x b)))
(<= (goal robot 100) (not open))
(<= (goal robot 0) open)
`

func ExampleEquivalent() {
	f, err := grounding.Parse("robot.kif", []byte(exampleGame))
	if err != nil {
		panic(err)
	}
	opt := mutate.Options{Ops: mutate.RenameSymbols | mutate.PairArgs | mutate.ReorderBody}
	v, err := mutate.Equivalent(f, 1, opt)
	if err != nil {
		panic(err)
	}
	fmt.Print(v.File)
	fmt.Println(v.Applied)
	for _, t := range []string{"robot", "(cell 1 b)", "(mark 2)"} {
		u, _ := v.TranslateTerm(t)
		fmt.Println(t, "->", u)
	}
	// The variant is the same game: random playouts agree move for move.
	a, _ := grounding.Ground(context.Background(), f, grounding.Limits{})
	b, _ := grounding.Ground(context.Background(), v.File, grounding.Limits{})
	fmt.Println("agree:", mutate.Agree(a, b, v.TranslateTerm, 1, 10, 10))
	// Output:
	// (role regou)
	// (chaishi glaibi)
	// (chaishi lisa)
	// (<= (init (raifou (ropi ?x kogla))) (chaishi ?x))
	// (<= (legal regou (tago ?x)) (true (raifou (ropi ?x kogla))))
	// (<= (next (raifou (ropi ?x subo))) (does regou (tago ?x)))
	// (<= (next (raifou (ropi ?x ?m))) (not (does regou (tago ?x))) (true (raifou (ropi ?x ?m))))
	// (<= terminal (not vouzu))
	// (<= vouzu (true (raifou (ropi ?x kogla))))
	// (<= (goal regou 100) (not vouzu))
	// (<= (goal regou 0) vouzu)
	// [pair-args reorder-body rename-symbols rename-symbols rename-symbols]
	// robot -> regou
	// (cell 1 b) -> (raifou (ropi glaibi kogla))
	// (mark 2) -> (tago lisa)
	// agree: <nil>
}

func ExampleDifferent() {
	f, err := grounding.Parse("robot.kif", []byte(exampleGame))
	if err != nil {
		panic(err)
	}
	g, change, err := mutate.Different(context.Background(), f, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println(change)
	fmt.Println(len(g.Rules) == len(f.Rules))
	// Output:
	// goal value 100 changed to 95 (a value the original never gives) in the rule at robot.kif:10:1 (<= (goal robot 100) (not open)); first difference: playout 0, step 2: goal differs: role robot: [100] against [95]
	// true
}
