package satcheck_test

import (
	"context"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestBDDMovedGatesNotKept (found by review): a gate of A that reads an
// action is built with the action false for a terminal (noMoves) check; a
// later next (oneHot) check on the same Checker reads that gate with the
// action as a variable. The kept-gate map must not serve the noMoves BDD
// there (grounding.BDD.EvalCone's moved rule). No current test fails when
// EvalCone keeps moved gates; this one does.
func TestBDDMovedGatesNotKept(t *testing.T) {
	build := func(name string, withGate bool) (*grounding.Program, grounding.Lit, grounding.Lit) {
		q := newProg(name, []string{"r"}, []string{"p0", "p1", "p2"}, [][]string{{"a0", "a1"}})
		var term, next grounding.Lit
		if withGate {
			g := q.and(q.t("p0"), q.d("r", "a0"))
			term = q.or(g, q.t("p1"))
			next = q.or(g, q.t("p2"))
		} else {
			term = q.t("p1")
			next = q.t("p2")
		}
		q.p.Terminal = term
		q.p.Next[q.propID("p0")] = next
		return q.done(), term, next
	}
	a, ta, na := build("a", true)
	b, tb, nb := build("b", false)
	im := identity(a).InputMap(a, b)
	opt := satcheck.Options{
		Mode:          satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoCache | satcheck.NoSimulation | satcheck.NoSweep,
		SweepMinGates: 1,
	}
	c := mustChecker(t, a, b, opt)
	ctx := context.Background()
	eqT, err := c.CheckFunc(ctx, grounding.FuncTerminal, ta, tb, im)
	if err != nil {
		t.Fatal(err)
	}
	if !eqT {
		t.Fatalf("terminal: p0∧does(a0) ∨ p1 reads no move: equal to p1, got different (stats %+v)", c.Stats())
	}
	eqN, err := c.CheckFunc(ctx, grounding.FuncNext, na, nb, im)
	if err != nil {
		t.Fatal(err)
	}
	if want := bruteEqual(a, b, na, nb, im, true); eqN != want {
		t.Fatalf("next: CheckFunc says equal=%v, brute force %v (stats %+v)", eqN, want, c.Stats())
	}
	if c.Stats().BDDs < 2 {
		t.Errorf("BDDs decided %d checks, want both (stats %+v)", c.Stats().BDDs, c.Stats())
	}
}
