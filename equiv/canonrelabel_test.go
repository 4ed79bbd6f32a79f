package equiv_test

import (
	"context"
	"math/rand"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

// relabel renumbers g's vertices by a random permutation of seed (what
// renaming a game's symbols does to its ground graph).
func relabel(t *testing.T, g *isomorph.Graph, seed int64) *isomorph.Graph {
	t.Helper()
	to := make([]int32, g.Order())
	for i, v := range rand.New(rand.NewSource(seed)).Perm(g.Order()) {
		to[v] = int32(i)
	}
	h, err := isomorph.Renumbered(g, to)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestCanonizeRelabelledGroundGraph canonizes colonelBlotto's ground graph
// (2.3×10^55 automorphisms) under renumberings of its vertices: the same
// certificate and order each time, in at most 10 times the nodes of the
// original numbering. Until leaves were compared with a local leaf below
// the first path (isomorph's localAutomorphism), seeds 1 and 3 searched
// past the node limit (a renamed colonelBlotto timed out before its
// comparison's search began) while the others took 2,253 to 3,302 nodes.
func TestCanonizeRelabelledGroundGraph(t *testing.T) {
	const path = "ggp-base/colonelBlotto.kif"
	src := source(t, path)
	ctx := context.Background()
	p, err := grounding.Load(ctx, path, src.GDL, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	gg, err := groundgraph.Build(ctx, p, groundgraph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := isomorph.Convert(gg)
	if err != nil {
		t.Fatal(err)
	}
	lim := isomorph.Limits{MaxNodes: 50000}
	want, err := isomorph.Canonize(ctx, g, lim)
	if err != nil {
		t.Fatal(err)
	}
	for seed := int64(1); seed <= 5; seed++ {
		got, err := isomorph.Canonize(ctx, relabel(t, g, seed), lim)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !got.Certificate.Equal(want.Certificate) || got.Group.Order.Cmp(want.Group.Order) != 0 {
			t.Fatalf("seed %d: certificate or order (%v, want %v) differ", seed, got.Group.Order, want.Group.Order)
		}
		if got.Stats.Nodes > 10*want.Stats.Nodes {
			t.Errorf("seed %d: %d search nodes, original numbering %d", seed, got.Stats.Nodes, want.Stats.Nodes)
		}
		t.Logf("seed %d: %d nodes (original numbering %d)", seed, got.Stats.Nodes, want.Stats.Nodes)
	}
}
