package groundgraph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/isomorph"
)

// TestRoleArcsKeepGroupAndPartition checks uniformRole's claim: the graph
// with one arc from a role, where all its actions would have the same arc,
// has the vertices, the stable colour partition and the automorphism group
// of the graph with one arc per action, and fewer arcs.
func TestRoleArcsKeepGroupAndPartition(t *testing.T) {
	corpus := func(name string) string { return filepath.Join(testgames.Root(), name) }
	// Without truth tables and action classes (negative bounds) nothing
	// tells a role's actions apart, so small games get role arcs too.
	type game struct {
		path         string
		tableBits    int
		classActions int
		roleArcs     bool // whether some role arc must be drawn
	}
	games := []game{
		{corpus("ggp-base-repo/ticTacToe.kif"), -1, -1, true},
		{corpus("ggp-base-repo/connectFour.kif"), -1, -1, true},
		{corpus("ggp-base/breakthroughSmall.kif"), -1, -1, true},
		{corpus("ggp-base/3pConnectFour.kif"), -1, -1, true},
		// With the default bounds their actions differ in influence or
		// class: no role arc may stand for them.
		{corpus("ggp-base-repo/ticTacToe.kif"), 0, 0, false},
		{corpus("ggp-base-repo/connectFour.kif"), 0, 0, false},
	}
	if !testing.Short() {
		games = append(games, game{"testdata/amazons5.kif", 0, 0, true}, game{corpus("ggp-base/skirmish.kif"), 0, 0, true})
	}
	for _, gm := range games {
		path := gm.path
		t.Run(fmt.Sprintf("%s/bounds=%d", filepath.Base(path), gm.tableBits), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Skipf("game not available: %v", err)
			}
			ctx := context.Background()
			p, err := grounding.Load(ctx, filepath.Base(path), src, grounding.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var ca, cb []uint64
			perAction, err := Build(ctx, p, Options{MaxTableBits: gm.tableBits, MaxClassActions: gm.classActions, perActionArcs: true, fullColors: &ca})
			if err != nil {
				t.Fatal(err)
			}
			roleArcs, err := Build(ctx, p, Options{MaxTableBits: gm.tableBits, MaxClassActions: gm.classActions, fullColors: &cb})
			if err != nil {
				t.Fatal(err)
			}
			if perAction.Order() != roleArcs.Order() {
				t.Fatalf("vertices: %d per action, %d with role arcs", perAction.Order(), roleArcs.Order())
			}
			ea, eb := perAction.Stats().Edges, roleArcs.Stats().Edges
			if gm.roleArcs && eb >= ea {
				t.Fatalf("arcs: %d with role arcs, not fewer than %d per action: no role arc drawn", eb, ea)
			}
			if !gm.roleArcs && eb != ea {
				t.Fatalf("arcs: %d with role arcs, %d per action: a role arc stands for actions that differ", eb, ea)
			}
			// The same partition: the refinement's (64-bit) colours correspond
			// one to one.
			fwd, back := map[uint64]uint64{}, map[uint64]uint64{}
			for v := range perAction.Order() {
				a, b := ca[v], cb[v]
				if x, ok := fwd[a]; ok && x != b {
					t.Fatalf("vertex %s: per-action class %d is split by role arcs", perAction.Label(v), a)
				}
				if x, ok := back[b]; ok && x != a {
					t.Fatalf("vertex %s: role arcs merge per-action classes %d and %d", perAction.Label(v), x, a)
				}
				fwd[a], back[b] = b, a
			}
			ga, err := isomorph.Automorphisms(ctx, perAction, isomorph.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			gb, err := isomorph.Automorphisms(ctx, roleArcs, isomorph.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if ga.Order.Cmp(gb.Order) != 0 {
				t.Errorf("automorphism group order: %v per action, %v with role arcs", ga.Order, gb.Order)
			}
			t.Logf("%d vertices, %d colours; arcs %d -> %d; |Aut| = %v", perAction.Order(), len(fwd), perAction.Stats().Edges, roleArcs.Stats().Edges, gb.Order)
		})
	}
}
