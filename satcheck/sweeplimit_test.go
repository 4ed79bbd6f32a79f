package satcheck_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

func limitOpt(maxClauses, budget int) satcheck.Options {
	return satcheck.Options{
		Mode:                    satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoCache | satcheck.NoSimulation,
		SimWords:                1,
		SweepMinGates:           1,
		TableWork:               -1,
		MaxClauses:              maxClauses,
		SweepConflictsBeforeBDD: budget,
	}
}

// TestLimitOfSweepingLeavesBDDs (found by review): a pair whose sweep
// passes the CNF size limits goes to BDDs, as one past the sweep's
// conflict budget does, so its answer does not depend on whether BDDs
// lead (on what the Checker checked before) and BDDs first decide it
// too.
func TestLimitOfSweepingLeavesBDDs(t *testing.T) {
	const n, hi = 6, 6
	a, b, fa, fb := allMultiplierBits(n)
	im := make([]int32, 2*n)
	for i := range im {
		im[i] = int32(i)
	}
	ctx := context.Background()
	for _, mc := range []int{20, 50, 100, 200, 400, 800} {
		for _, budget := range []int{1, 4} {
			// Fresh checker: the large pair alone.
			fresh := mustChecker(t, a, b, limitOpt(mc, budget))
			eqF, errF := fresh.CheckFunc(ctx, grounding.FuncTerminal, fa[hi], fb[hi], im)
			// BDDs first (the order before cebcde9).
			old := mustChecker(t, a, b, limitOpt(mc, -1))
			eqO, errO := old.CheckFunc(ctx, grounding.FuncTerminal, fa[hi], fb[hi], im)
			// Same options, two smaller pairs first.
			hist := mustChecker(t, a, b, limitOpt(mc, budget))
			var pre []string
			for k := 1; k < hi; k++ {
				eq, err := hist.CheckFunc(ctx, grounding.FuncTerminal, fa[k], fb[k], im)
				pre = append(pre, fmt.Sprintf("bit%d=%v/%v", k, eq, err))
			}
			eqH, errH := hist.CheckFunc(ctx, grounding.FuncTerminal, fa[hi], fb[hi], im)
			t.Logf("MaxClauses %d budget %d: fresh %v/%v; BDD-first %v/%v; after %v: %v/%v (stats %+v)",
				mc, budget, eqF, errF, eqO, errO, pre, eqH, errH, hist.Stats())
			if errors.Is(errF, satcheck.ErrLimit) && errH == nil && eqH {
				t.Errorf("MaxClauses %d budget %d: the same pair is ErrLimit on a fresh Checker and equal after other checks", mc, budget)
			}
			if errors.Is(errF, satcheck.ErrLimit) && errO == nil && eqO {
				t.Errorf("MaxClauses %d budget %d: ErrLimit with budgeted sweeping first, equal with BDDs first (da60a96's order)", mc, budget)
			}
		}
	}
}
