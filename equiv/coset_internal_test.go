package equiv

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/mutate"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestCosetSearch forces Compare's coset search from the first node
// (CosetAfterNodes 1) on games whose graph groups are larger than their
// game groups: against an equivalent mutant it must find a verified
// mapping, and against a mutant with one goal value or body literal
// changed it must give the same verdict as the first strategy alone. The
// mapping found must verify on its own.
func TestCosetSearch(t *testing.T) {
	ctx := context.Background()
	ran := 0
	for _, path := range []string{"ggp-base/coins.kif", "ggp-base/pentago.kif", "ggp-base-repo/ticTacToe.kif",
		"ggp-base/buttons.kif", "ggp-base/roshambo2.kif", "ggp-base/nineBoardTicTacToe.kif"} {
		pa, pb, _ := gameAndMutant(t, path)
		forced := Limits{CosetAfterNodes: 1}
		rep, err := ComparePrograms(ctx, pa, pb, forced)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != Equivalent || rep.Stats.CosetNodes == 0 {
			t.Fatalf("%s vs an equivalent mutant: %s after %d coset nodes (%s)", path, rep.Verdict, rep.Stats.CosetNodes, rep.Reason)
		}
		// The mapping must verify on its own (pentago's graph has 2,048
		// isomorphisms, 8 of which verify).
		m, err := rep.Mapping.Indexes(pa, pb)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := satcheck.Verify(ctx, pa, pb, m, satcheck.Options{}); err != nil || res.Verdict != satcheck.Equivalent {
			t.Fatalf("%s: the coset search's mapping does not verify: %+v, %v", path, res, err)
		}
		src, err := os.ReadFile(filepath.Join(testgames.Root(), path))
		if err != nil {
			t.Fatal(err)
		}
		f, err := grounding.Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range int64(3) {
			g, _, err := mutate.Different(ctx, f, seed)
			if err != nil {
				continue // no different mutant for this seed
			}
			pd, err := grounding.Ground(ctx, g, grounding.Limits{})
			if err != nil {
				continue
			}
			want, err := ComparePrograms(ctx, pa, pd, Limits{CosetAfterNodes: 1 << 40})
			if err != nil {
				t.Fatal(err)
			}
			got, err := ComparePrograms(ctx, pa, pd, forced)
			if err != nil {
				t.Fatal(err)
			}
			if got.Verdict != want.Verdict {
				t.Errorf("%s vs different mutant %d: %s with the coset search (%s), %s without (%s)", path, seed, got.Verdict, got.Reason, want.Verdict, want.Reason)
			}
			ran++
		}
	}
	if ran == 0 {
		t.Error("no different mutant compared")
	}
}
