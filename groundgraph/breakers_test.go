package groundgraph_test

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

// autOrder returns the order of the graph's automorphism group.
func autOrder(t *testing.T, g *groundgraph.Graph) *big.Int {
	t.Helper()
	gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return gr.Order
}

// TestBreakersPairWalls checks the breakers of ghostMaze2p's "the explorer
// may move east": its corners from the empty state are {control, explorer
// on (x, y)}, and the wall east of (x, y), when the maze has one, is the
// only breaker. Without breakers and cofactor corners the walls could be
// permuted among the cells; with them the graph has no automorphism but
// the identity, like the game.
func TestBreakersPairWalls(t *testing.T) {
	const game = "ggp-base/ghostMaze2p.kif"
	g := mustBuild(t, game, groundgraph.Options{})
	p := g.Program()
	var east *groundgraph.FuncFeatures
	for i, ff := range g.Functions() {
		if p.FunctionName(ff.Function) == "(legal explorer (move east))" {
			east = &g.Functions()[i]
		}
	}
	if east == nil {
		t.Fatal("no function (legal explorer (move east))")
	}
	at := regexp.MustCompile(`^\(location explorer (\d+) (\d+)\)$`)
	checked := 0
	for _, c := range east.Corners {
		if c.FromTrue {
			continue
		}
		var x, y string
		for _, q := range c.Props {
			if m := at.FindStringSubmatch(p.Props[q]); m != nil {
				x, y = m[1], m[2]
			}
		}
		if x == "" {
			continue
		}
		var want []string
		if wall := fmt.Sprintf("(blockedeast %s %s)", x, y); slices.Contains(p.Props, wall) {
			want = []string{wall}
		}
		var got []string
		for _, q := range c.Breakers {
			got = append(got, p.Props[q])
		}
		if !slices.Equal(got, want) {
			t.Errorf("breakers of the corner at (%s, %s) = %v, want %v", x, y, got, want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no corner {control, explorer on a cell}")
	}
	if got := autOrder(t, g); got.Cmp(big.NewInt(1)) != 0 {
		t.Errorf("automorphism group order = %v, want 1", got)
	}
	bare := mustBuild(t, game, groundgraph.Options{MaxBreakerArcs: -1})
	if got := autOrder(t, bare); got.Cmp(big.NewInt(1)) <= 0 {
		t.Errorf("without breakers: automorphism group order = %v, want more than 1 (the test would not show what breakers do)", got)
	}
}

// TestCofactorCorners checks coloredtrails: a spot's colour next reads the
// accept move, the offers and every spot's colour, and only its cofactor
// under "accept" pairs each offered spot with its colour. With cofactor
// corners the graph's group is the game's 16 (the spots of one owner that
// start with one colour can be swapped, with their offers); without them
// it is far larger.
func TestCofactorCorners(t *testing.T) {
	const game = "ggp-base/coloredtrails.kif"
	g := mustBuild(t, game, groundgraph.Options{})
	cofactor := 0
	for _, ff := range g.Functions() {
		if ff.Function.Kind != grounding.FuncNext {
			continue
		}
		for _, c := range ff.Corners {
			if c.Classes != nil {
				cofactor++
			}
		}
	}
	if cofactor == 0 {
		t.Fatal("no cofactor corners")
	}
	if got := autOrder(t, g); got.Cmp(big.NewInt(16)) != 0 {
		t.Errorf("automorphism group order = %v, want 16", got)
	}
	bare := mustBuild(t, game, groundgraph.Options{MaxCornerCofactors: -1})
	if got := autOrder(t, bare); got.Cmp(big.NewInt(16)) <= 0 {
		t.Errorf("without cofactor corners: automorphism group order = %v, want more than 16", got)
	}
}

// TestMaxBreakerArcs checks the limit at and one below the breakers of one
// function and anchor: at the count they are kept, below it all dropped.
func TestMaxBreakerArcs(t *testing.T) {
	const game, name = "ggp-base/ghostMaze2p.kif", "(legal explorer (move east))"
	breakers := func(g *groundgraph.Graph) int {
		n := 0
		for _, ff := range g.Functions() {
			if g.Program().FunctionName(ff.Function) != name {
				continue
			}
			for _, c := range ff.Corners {
				if !c.FromTrue {
					n += len(c.Breakers)
				}
			}
		}
		return n
	}
	all := breakers(mustBuild(t, game, groundgraph.Options{}))
	if all == 0 {
		t.Fatalf("%s has no breakers", name)
	}
	if got := breakers(mustBuild(t, game, groundgraph.Options{MaxBreakerArcs: all})); got != all {
		t.Errorf("MaxBreakerArcs %d: %d breakers, want all %d", all, got, all)
	}
	if got := breakers(mustBuild(t, game, groundgraph.Options{MaxBreakerArcs: all - 1})); got != 0 {
		t.Errorf("MaxBreakerArcs %d: %d breakers, want none", all-1, got)
	}
}
