package equiv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/mutate"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestCellCheckKeepsVerifiedMappings checks the soundness of the search's
// refutation on cell-constant states: on games whose ground graphs have
// more isomorphisms than the games have verified mappings, every complete
// mapping that Verify accepts among all graph isomorphisms must also be
// reached with the cell check pruning the search. Each game is compared
// with itself and with an equivalent mutant (renamed, reordered, rewritten,
// so that indices differ between the sides). The test also requires the
// check to prune somewhere, so that it cannot pass by never refuting.
func TestCellCheckKeepsVerifiedMappings(t *testing.T) {
	games := []string{"ggp-base-repo/ticTacToe.kif", "ggp-base/coins.kif", "ggp-base/pentago.kif",
		"ggp-base/buttons.kif", "ggp-base/sum15.kif", "ggp-base/tictactoe_3d_small_2player.kif"}
	ctx := context.Background()
	pruned := int64(0)
	for _, path := range games {
		src, err := os.ReadFile(filepath.Join(testgames.Root(), path))
		if err != nil {
			t.Skipf("game corpus not available: %v", err)
		}
		f, err := grounding.Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		pa, err := grounding.Ground(ctx, f, grounding.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		v, err := mutate.Equivalent(f, 1, mutate.Options{Ops: mutate.AllOps &^ mutate.PairArgs})
		if err != nil {
			t.Fatal(err)
		}
		pb, err := grounding.Ground(ctx, v.File, grounding.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, other := range []*grounding.Program{pa, pb} {
			name := path + " vs itself"
			if other != pa {
				name = path + " vs mutant"
			}
			ga, err := groundgraph.Build(ctx, pa, groundgraph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			gb, err := groundgraph.Build(ctx, other, groundgraph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			a, b := game{pa, ga}, game{other, gb}
			checker, err := satcheck.NewChecker(pa, other, satcheck.Options{})
			if err != nil {
				t.Fatal(err)
			}
			verified := map[string]bool{}
			all := 0
			for iso, err := range isomorph.Search(ctx, ga, gb, isomorph.Limits{MaxNodes: 1 << 20}, nil) {
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				all++
				m, err := ga.Mapping(gb, iso)
				if err != nil {
					t.Fatal(err)
				}
				res, err := checker.Verify(ctx, m)
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict == satcheck.Equivalent {
					verified[fmt.Sprint(iso)] = true
				}
			}
			if len(verified) == 0 {
				t.Fatalf("%s: none of %d graph isomorphisms verifies", name, all)
			}
			cc := newCellCheck(a, b)
			refuted := int64(0)
			kept := map[string]bool{}
			visit := func(n *isomorph.Node) bool {
				if cc.refutes(n) {
					refuted++
					return true
				}
				return false
			}
			for iso, err := range isomorph.SearchNodes(ctx, ga, gb, isomorph.Limits{MaxNodes: 1 << 20}, visit) {
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				kept[fmt.Sprint(iso)] = true
			}
			for m := range verified {
				if !kept[m] {
					t.Fatalf("%s: the cell check pruned a verified mapping (%d of %d isomorphisms verify, %d nodes refuted)", name, len(verified), all, refuted)
				}
			}
			t.Logf("%s: %d graph isomorphisms, %d verify, %d kept, %d nodes refuted of %d checked", name, all, len(verified), len(kept), refuted, cc.nodes)
			pruned += refuted
		}
	}
	if pruned == 0 {
		t.Error("the cell check refuted no node on any game")
	}
}
