package satcheck_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// atLeast is "at least k of items" as a chain that reads the items in the
// given order (a partial count per step, as GDL counting rules ground).
func atLeast(q *prog, items []grounding.Lit, k int) grounding.Lit {
	var c []grounding.Lit // c[j-1]: at least j of the items so far
	for _, x := range items {
		nc := make([]grounding.Lit, min(len(c)+1, k))
		for j := 1; j <= len(nc); j++ {
			switch {
			case j == 1 && len(c) >= 1:
				nc[0] = q.or(c[0], x)
			case j == 1:
				nc[0] = x
			case j <= len(c):
				nc[j-1] = q.or(c[j-1], q.and(x, c[j-2]))
			default:
				nc[j-1] = q.and(x, c[j-2])
			}
		}
		c = nc
	}
	return c[k-1]
}

// countProgram is a program of n propositions whose terminal is "at least
// k of them" walked in the order walk (nil: by index), its goal 0 "at
// least k" of the propositions of walk with the last one left out.
func countProgram(name string, n, k int, walk []int) (*grounding.Program, grounding.Lit, grounding.Lit) {
	props := make([]string, n)
	for i := range props {
		props[i] = fmt.Sprintf("(p %02d)", i)
	}
	q := newProg(name, []string{"r"}, props, [][]string{{"noop"}})
	if walk == nil {
		walk = make([]int, n)
		for i := range walk {
			walk[i] = i
		}
	}
	items := make([]grounding.Lit, n)
	for i, p := range walk {
		items[i] = q.t(props[p])
	}
	q.p.Terminal = atLeast(q, items, k)
	short := atLeast(q, items[:n-1], k)
	q.p.Goals[0] = []grounding.Goal{{Value: 0, Lit: short}}
	return q.done(), q.p.Terminal, short
}

// bddOnly decides large pairs by BDDs alone, within maxNodes.
func bddOnly(maxNodes int) satcheck.Options {
	return satcheck.Options{
		Mode:                    satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoCache | satcheck.NoSimulation | satcheck.NoSweep,
		SweepMinGates:           1,
		SweepConflictsBeforeBDD: -1,
		MaxBDDNodes:             maxNodes,
	}
}

// TestBDDCountUnderPermutation: a count of 48 items, compared with itself
// under random permutations of the items (a symmetry's question) and with
// another program's count that walks them in another order, is decided by
// BDDs with no SAT call, every image's root built in its own program's
// order and composed into the joint order (grounding.BDD.Compose), and
// the different pairs (an item left out of the count) are found so. On
// this small count the image built over the joint levels fits too (the
// gain is merrills', BENCHMARKS.md session 22); the test pins the path
// and its answers.
func TestBDDCountUnderPermutation(t *testing.T) {
	const n, k, mx = 48, 16, 1 << 16
	rng := rand.New(rand.NewPCG(22, 48))
	ctx := context.Background()
	a, term, short := countProgram("a", n, k, nil)
	c := mustChecker(t, a, a, bddOnly(mx))
	for trial := range 4 {
		im := randomInputMap(rng, a.Circuit.NumInputs, n, []int{1})
		eq, err := c.CheckFunc(ctx, grounding.FuncTerminal, term, term, im)
		if err != nil || !eq {
			t.Fatalf("trial %d: terminal against itself under a permutation: equal=%v, %v, want equal (stats %+v)", trial, eq, err, c.Stats())
		}
		// The count of all items against the count of 47 of them.
		eq, err = c.CheckFunc(ctx, grounding.FuncTerminal, term, short, im)
		if err != nil || eq {
			t.Fatalf("trial %d: at least %d of %d against of %d: equal=%v, %v, want different", trial, k, n, n-1, eq, err)
		}
	}
	walk := rng.Perm(n)
	b, termB, shortB := countProgram("b", n, k, walk)
	cb := mustChecker(t, a, b, bddOnly(mx))
	im := identity(a).InputMap(a, b)
	if eq, err := cb.CheckFunc(ctx, grounding.FuncTerminal, term, termB, im); err != nil || !eq {
		t.Fatalf("the count walked in another order: equal=%v, %v, want equal (stats %+v)", eq, err, cb.Stats())
	}
	if eq, err := cb.CheckFunc(ctx, grounding.FuncTerminal, term, shortB, im); err != nil || eq {
		t.Fatalf("the count walked in another order, an item left out: equal=%v, %v, want different", eq, err)
	}
	for _, st := range []satcheck.Stats{c.Stats(), cb.Stats()} {
		if st.SATCalls != 0 || st.BDDs != st.Checks || st.BDDComposed != st.Checks {
			t.Errorf("%d of %d pairs decided by BDDs, %d of them composed, %d SAT calls: want all by composed BDDs (stats %+v)", st.BDDs, st.Checks, st.BDDComposed, st.SATCalls, st)
		}
	}
}
