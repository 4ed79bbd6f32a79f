package equiv_test

import (
	"context"
	"testing"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestBoundedPassNodeBound: Tic-tac-toe and pentago against an equivalent
// variant with every SAT-stage check bounded to one proof, so that the
// first pass sets aside candidate after candidate (8 and 8 for the first
// such variants, seeds 4 and 1). With no bound on what it sets aside, the
// first pass searches the whole tree; with AsideSlackNodes it ends that
// many nodes after its first set-aside, and the unbounded pass gives the
// same verdict.
func TestBoundedPassNodeBound(t *testing.T) {
	for _, g := range []string{"ggp-base/tictactoe.kif", "ggp-base/pentago.kif"} {
		t.Run(g, func(t *testing.T) { boundedPassNodeBound(t, g) })
	}
}

func boundedPassNodeBound(t *testing.T, path string) {
	src := source(t, path)
	f, err := grounding.Parse(src.Name, src.GDL)
	if err != nil {
		t.Fatal(err)
	}
	lim := equiv.Limits{SAT: satcheck.Options{Mode: satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoBDD, SweepMinGates: 1, TableWork: -1}}
	lim.BoundedEffort = 1
	lim.MaxSetAside = 1 << 30
	// The first variant whose checks the bound sets aside more than once:
	// as the grounder improves, some variants ground to circuits whose
	// checks need no proof at all, which leaves nothing to bound.
	for seed := int64(1); seed <= 8; seed++ {
		v, err := mutate.Equivalent(f, seed, mutate.Options{Ops: mutate.AllOps &^ mutate.RenameSymbols})
		if err != nil {
			t.Fatal(err)
		}
		b := equiv.Source{Name: "variant", GDL: []byte(v.File.String())}
		var reps []*equiv.Report
		for _, slack := range []int64{1 << 30, 1} {
			lim.AsideSlackNodes = slack
			rep, err := equiv.Compare(context.Background(), src, b, lim)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("seed %d, slack %d: %s, %+v", seed, slack, rep.Verdict, rep.Stats)
			if rep.Verdict != equiv.Equivalent {
				t.Fatalf("seed %d, slack %d: %s (%s), want equivalent", seed, slack, rep.Verdict, rep.Reason)
			}
			reps = append(reps, rep)
			if reps[0].Stats.SetAside < 2 {
				break
			}
		}
		if len(reps) < 2 {
			continue
		}
		if reps[1].Stats.SetAside >= reps[0].Stats.SetAside {
			t.Errorf("seed %d: set aside %d with a slack of one node, %d without a bound: the bound did not end the first pass early", seed, reps[1].Stats.SetAside, reps[0].Stats.SetAside)
		}
		return
	}
	t.Fatal("no variant of seeds 1-8 has checks the bound sets aside twice")
}
