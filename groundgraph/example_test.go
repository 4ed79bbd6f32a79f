package groundgraph_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// load grounds a corpus game for the examples.
func load(name string) *grounding.Program {
	src, err := os.ReadFile(filepath.Join(testgames.Root(), name))
	if err != nil {
		panic(err)
	}
	p, err := grounding.Load(context.Background(), name, src, grounding.Limits{})
	if err != nil {
		panic(err)
	}
	return p
}

// Build the ground graph of Tic-tac-toe and compute its symmetries: the
// colouring leaves exactly the board's eight symmetries.
func Example() {
	ctx := context.Background()
	g, err := groundgraph.Build(ctx, load("ggp-base-repo/ticTacToe.kif"), groundgraph.Options{})
	if err != nil {
		panic(err)
	}
	s := g.Stats()
	fmt.Printf("%d vertices, %d edges, %d colour classes\n", s.Vertices, s.Edges, s.Colors)
	gr, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Println("automorphisms:", gr.Order)
	// The influence of a cell on "a line of x" tells centre, corner and edge
	// cells apart.
	p := g.Program()
	for _, ff := range g.Functions() {
		if p.FunctionName(ff.Function) != "(goal xplayer 100)" {
			continue
		}
		for k, in := range ff.Support.Inputs() {
			if c := p.Props[in]; c == "(cell 2 2 x)" || c == "(cell 1 1 x)" || c == "(cell 1 2 x)" {
				fmt.Printf("influence of %s on (goal xplayer 100): %d\n", c, ff.Influence[k])
			}
		}
	}
	// Output:
	// 655 vertices, 2627 edges, 200 colour classes
	// automorphisms: 8
	// influence of (cell 1 1 x) on (goal xplayer 100): 132
	// influence of (cell 1 2 x) on (goal xplayer 100): 84
	// influence of (cell 2 2 x) on (goal xplayer 100): 184
}

// Compare Tic-tac-toe with Number Scrabble: an isomorphism of their graphs
// is a candidate equivalence, which satcheck verifies.
func ExampleGraph_Mapping() {
	ctx := context.Background()
	a, b := load("ggp-base-repo/ticTacToe.kif"), load("ggp-base/sum15.kif")
	ga, err := groundgraph.Build(ctx, a, groundgraph.Options{})
	if err != nil {
		panic(err)
	}
	gb, err := groundgraph.Build(ctx, b, groundgraph.Options{})
	if err != nil {
		panic(err)
	}
	m, err := isomorph.Find(ctx, ga, gb, isomorph.Limits{})
	if err != nil {
		panic(err)
	}
	sm, err := ga.Mapping(gb, m)
	if err != nil {
		panic(err)
	}
	centre, _ := a.PropID("(cell 2 2 x)")
	fmt.Println(a.Roles[0], "->", b.Roles[sm.Roles[0]])
	fmt.Println("(cell 2 2 x) ->", b.Props[sm.Props[centre]])
	res, err := satcheck.Verify(ctx, a, b, sm, satcheck.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Verdict)
	// Output:
	// xplayer -> white
	// (cell 2 2 x) -> (num 5 white)
	// equivalent
}
