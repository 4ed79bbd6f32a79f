package equiv_test

import (
	"context"
	"fmt"

	"github.com/gamequiv/gamequiv/equiv"
)

// Two descriptions of one game: a token moves right along three cells, in
// different words and with the cells in the other order.
const (
	lineGame = `
(role mover)
(init (at c1))
(succ c1 c2) (succ c2 c3)
(<= (legal mover step) (true (at ?x)) (succ ?x ?y))
(<= (legal mover wait) (true (at ?x)))
(<= (next (at ?y)) (does mover step) (true (at ?x)) (succ ?x ?y))
(<= (next (at ?x)) (does mover wait) (true (at ?x)))
(<= terminal (true (at c3)))
(<= (goal mover 100) (true (at c3)))
(<= (goal mover 0) (not (true (at c3))))
`
	disguised = `
(role walker)
(init (pos z))
(before z y) (before y x)
(<= (legal walker advance) (true (pos ?a)) (before ?a ?b))
(<= (legal walker rest) (true (pos ?a)))
(<= (next (pos ?a)) (true (pos ?a)) (does walker rest))
(<= (next (pos ?b)) (true (pos ?a)) (before ?a ?b) (does walker advance))
(<= (goal walker 0) (not (true (pos x))))
(<= (goal walker 100) (true (pos x)))
(<= terminal (true (pos x)))
`
)

func ExampleCompare() {
	rep, err := equiv.Compare(context.Background(),
		equiv.Source{Name: "line.kif", GDL: []byte(lineGame)},
		equiv.Source{Name: "disguised.kif", GDL: []byte(disguised)},
		equiv.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict)
	fmt.Println(rep.Mapping.Roles["mover"], rep.Mapping.Actions["mover"]["step"], rep.Mapping.Propositions["(at c2)"])
	// Output:
	// equivalent
	// walker advance (pos y)
}
