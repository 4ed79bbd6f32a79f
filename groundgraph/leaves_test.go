package groundgraph_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/isomorph"
)

// paperLeaves is the number of search-tree leaves the paper's heuristic
// grouping leaves for Tic-tac-toe's self-isomorphisms: 4!·4!·1!.
const paperLeaves = 576

// TestTicTacToeSelfIsomorphismLeaves counts the search-tree leaves that
// isomorph visits to enumerate every self-isomorphism of Tic-tac-toe's
// ground graph, with automorphism pruning (Automorphisms, which All
// enumerates the group from) and without (Search of the graph against
// itself, whose leaves are the nodes with a complete mapping). Both counts
// are deterministic and must stay below the paper's 576.
func TestTicTacToeSelfIsomorphismLeaves(t *testing.T) {
	ctx := context.Background()
	g := mustBuild(t, ticTacToe, groundgraph.Options{})
	gr, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if gr.Stats.Leaves >= paperLeaves {
		t.Errorf("Automorphisms visited %d leaves, want fewer than the paper's %d", gr.Stats.Leaves, paperLeaves)
	}

	ig := toGraph(t, g)
	leaves, nodes, found := 0, 0, 0
	count := func(partial isomorph.Mapping, _ []int32) bool {
		nodes++
		if !slices.Contains(partial, -1) {
			leaves++
		}
		return false
	}
	for m, err := range isomorph.Search(ctx, g, g, isomorph.Limits{}, count) {
		if err != nil {
			t.Fatal(err)
		}
		if !isomorph.IsAutomorphism(ig, isomorph.Perm(m)) {
			t.Fatalf("Search yielded %v, not an automorphism", m)
		}
		found++
	}
	if int64(found) != gr.Order.Int64() {
		t.Errorf("Search found %d self-isomorphisms, Automorphisms says |Aut| = %v", found, gr.Order)
	}
	if leaves >= paperLeaves {
		t.Errorf("Search visited %d leaves, want fewer than the paper's %d", leaves, paperLeaves)
	}
	t.Logf("Tic-tac-toe (%d vertices): |Aut| = %v; Automorphisms %d leaves (%d nodes); Search %d leaves (%d nodes kept), %d self-isomorphisms; paper %d",
		g.Order(), gr.Order, gr.Stats.Leaves, gr.Stats.Nodes, leaves, nodes, found, paperLeaves)
}

func toGraph(tb testing.TB, g *groundgraph.Graph) *isomorph.Graph {
	tb.Helper()
	ig, err := isomorph.Convert(g)
	if err != nil {
		tb.Fatal(err)
	}
	return ig
}
