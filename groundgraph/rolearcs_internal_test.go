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

// roleArcsFiner is a game whose role arcs give a finer stable partition
// than one arc per action (found by review): three roles of four actions;
// next(pf) reads p1 with influence 8 on every action, p2 with 16 on every
// action and q with 8, 8, 16, 16, and next(ph) is its mirror image (p1 and
// p2 swapped, q's m1/m3 and m2/m4). p1 and p2 get role arcs, q does not.
// With one arc per action every action of the three roles points to pf, ph
// and one influence vertex of value 8, and refinement cannot tell q from p1
// and p2; with role arcs it can. The group is the same.
const roleArcsFiner = `
(role p1) (role p2) (role q)
(move m1) (move m2) (move m3) (move m4)
(<= (legal ?r (m ?x)) (role ?r) (move ?x))
(<= p1hi (does p1 (m m3)))
(<= p1hi (does p1 (m m4)))
(<= p2hi (does p2 (m m3)))
(<= p2hi (does p2 (m m4)))
(<= qlo (does q (m m1)))
(<= qlo (does q (m m2)))
(<= qhi (does q (m m3)))
(<= qhi (does q (m m4)))
(<= (next pf) p2hi (does q (m m3)))
(<= (next pf) p2hi p1hi qlo)
(<= (next ph) p1hi (does q (m m1)))
(<= (next ph) p1hi p2hi qhi)
(<= terminal (true pf) (true ph))
(<= (goal ?r 100) (role ?r))
`

// TestRoleArcsKeepGroupAndPartition checks Support.roleAt's claim: the graph
// with one arc from a role, where all its actions would have the same arc,
// has the vertices and the automorphism group of the graph with one arc
// per action, fewer arcs, and a stable colour partition at least as fine
// (equal on every corpus game tried, finer on roleArcsFiner).
func TestRoleArcsKeepGroupAndPartition(t *testing.T) {
	corpus := func(name string) string { return filepath.Join(testgames.Root(), name) }
	// Without truth tables and action classes (negative bounds) nothing
	// tells a role's actions apart, so small games get role arcs too.
	type game struct {
		path         string
		tableBits    int
		classActions int
		roleArcs     bool // whether some role arc must be drawn
		finer        bool // whether role arcs split some class
	}
	games := []game{
		{corpus("ggp-base-repo/ticTacToe.kif"), -1, -1, true, false},
		{corpus("ggp-base-repo/connectFour.kif"), -1, -1, true, false},
		{corpus("ggp-base/breakthroughSmall.kif"), -1, -1, true, false},
		{corpus("ggp-base/3pConnectFour.kif"), -1, -1, true, false},
		// With the default bounds their actions differ in influence or
		// class: no role arc may stand for them.
		{corpus("ggp-base-repo/ticTacToe.kif"), 0, 0, false, false},
		{corpus("ggp-base-repo/connectFour.kif"), 0, 0, false, false},
	}
	// Inline, so that it runs without the corpus; no action classes,
	// which would tell q apart in both graphs.
	games = append(games, game{"roleArcsFiner", 0, -1, true, true})
	if !testing.Short() {
		games = append(games, game{"testdata/amazons5.kif", 0, 0, true, false}, game{corpus("ggp-base/skirmish.kif"), 0, 0, true, false})
	}
	for _, gm := range games {
		path := gm.path
		t.Run(fmt.Sprintf("%s/bounds=%d", filepath.Base(path), gm.tableBits), func(t *testing.T) {
			src := []byte(roleArcsFiner)
			if path != "roleArcsFiner" {
				var err error
				if src, err = os.ReadFile(path); err != nil {
					t.Skipf("game not available: %v", err)
				}
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
			// The refinement's (64-bit) colours: a role-arc class never
			// merges per-action classes; it splits one only where expected.
			fwd, back := map[uint64]uint64{}, map[uint64]uint64{}
			split := false
			for v := range perAction.Order() {
				a, b := ca[v], cb[v]
				if x, ok := back[b]; ok && x != a {
					t.Fatalf("vertex %s: role arcs merge per-action classes %d and %d", perAction.Label(v), x, a)
				}
				if x, ok := fwd[a]; ok && x != b {
					split = true
				}
				fwd[a], back[b] = b, a
			}
			if split != gm.finer {
				t.Errorf("role arcs split a per-action class: %v, want %v", split, gm.finer)
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
			t.Logf("%d vertices, %d -> %d colours; arcs %d -> %d; |Aut| = %v", perAction.Order(), len(fwd), len(back), perAction.Stats().Edges, roleArcs.Stats().Edges, gb.Order)
		})
	}
}
