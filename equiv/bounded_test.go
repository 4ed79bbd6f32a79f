package equiv_test

import (
	"context"
	"testing"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
	"github.com/gamequiv/gamequiv/satcheck"
)

// boundedTests: Connect Four against an equivalent variant (its circuits
// written differently, so that verification needs SAT sweeping) and
// against a different one (mutate.Different), with every SAT-stage check
// bounded to one proof in the first pass and no shortcut before SAT. The
// first pass sets aside what it cannot decide; the unbounded pass then
// decides, as one unbounded pass would.
var boundedTests = []struct {
	name string
	want equiv.Verdict
}{
	{"equivalent", equiv.Equivalent},
	{"different", equiv.NotEquivalent},
}

func TestCompareBoundedPassSetsAside(t *testing.T) {
	src := source(t, "ggp-base-repo/connectFour.kif")
	f, err := grounding.Parse(src.Name, src.GDL)
	if err != nil {
		t.Fatal(err)
	}
	v, err := mutate.Equivalent(f, 1, mutate.Options{Ops: mutate.AllOps &^ mutate.RenameSymbols})
	if err != nil {
		t.Fatal(err)
	}
	variant := []byte(v.File.String())
	d, _, err := mutate.Different(context.Background(), f, 1)
	if err != nil {
		t.Fatal(err)
	}
	different := []byte(d.String())
	for _, tc := range boundedTests {
		t.Run(tc.name, func(t *testing.T) {
			b := equiv.Source{Name: "variant", GDL: variant}
			if tc.want == equiv.NotEquivalent {
				b.GDL = different
			}
			lim := equiv.Limits{SAT: satcheck.Options{Mode: satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoBDD, SweepMinGates: 1, TableWork: -1}}
			lim.BoundedEffort = -1
			one, err := equiv.Compare(context.Background(), src, b, lim)
			if err != nil {
				t.Fatal(err)
			}
			lim.BoundedEffort = 1
			two, err := equiv.Compare(context.Background(), src, b, lim)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("one pass: %s, %+v; bounded first: %s, %+v", one.Verdict, one.Stats, two.Verdict, two.Stats)
			if one.Verdict != tc.want || two.Verdict != tc.want {
				t.Fatalf("verdicts %s (one pass) and %s (bounded first), want %s: %s", one.Verdict, two.Verdict, tc.want, two.Reason)
			}
			if tc.want == equiv.Equivalent && two.Stats.SetAside == 0 {
				t.Errorf("the bounded pass set nothing aside under a bound of one proof")
			}
		})
	}
}
