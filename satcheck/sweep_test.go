package satcheck_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// sweepOnly makes every SAT-stage question go through sweeping, with tiny
// proof windows so that cut windows and whole-cone retries both happen, and
// with one word of simulation so that many internal pairs look equal
// without being so (wide ANDs look constant false, for one).
var sweepOnly = satcheck.Options{
	Mode:          satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoCache | satcheck.NoSimulation | satcheck.NoBDD,
	SimWords:      1,
	SweepMinGates: 1,
	SweepWindow:   2,
}

// restructure copies the cone of l from src into q through im like rebuild,
// but writes every gate differently (split into nested ANDs, a fanin padded
// with a redundant case split), so that the copy's internal nodes are equal to
// the original's without being structurally the same. When mutate is the
// src node being copied, one of its fanins is complemented: the copy then
// differs from the original unless the change is masked.
func restructure(q *prog, src *grounding.Circuit, l grounding.Lit, im []int32, memo map[int]grounding.Lit, rng *rand.Rand, mutate int) grounding.Lit {
	return copyCone(src, l, im, memo, func(n int, cp func(grounding.Lit) grounding.Lit) grounding.Lit {
		var fs []grounding.Lit
		for _, f := range src.Fanins(n) {
			fs = append(fs, cp(f))
		}
		if n == mutate {
			fs[rng.IntN(len(fs))] ^= 1
		}
		rng.Shuffle(len(fs), func(i, j int) { fs[i], fs[j] = fs[j], fs[i] })
		if len(fs) >= 3 {
			fs = []grounding.Lit{fs[0], q.and(fs[1:]...)}
		}
		if z := grounding.InputLit(rng.IntN(src.NumInputs)); rng.IntN(2) == 0 {
			// x = (x ∧ z) ∨ (x ∧ ¬z)
			fs[0] = q.or(q.and(fs[0], z), q.and(fs[0], z.Not()))
		}
		return q.and(fs...)
	})
}

// TestSweepNeverMergesDifferent compares random circuits with restructured
// copies of themselves, one node mutated or none, through sweeping only, and
// checks every answer against brute force: a mutated circuit must never be
// found equal to its original (unless brute force finds the mutation masked),
// however many of its internal nodes simulation pairs up wrongly.
func TestSweepNeverMergesDifferent(t *testing.T) {
	equal, different, st := againstBruteForce(t, sweepOnly)
	t.Logf("%d equal and %d different pairs agree with brute force; %d internal merges", equal, different, st.SweepMerged)
	if st.SweepMerged == 0 {
		t.Errorf("no internal merges")
	}
}

// TestBDDAgreesWithBruteForce: the same pairs decided by BDDs only (the
// stages before them off, sweeping off so that a BDD over its bound
// would show as a SAT call): every answer matches brute force, the
// one-hot groups of the next functions included.
func TestBDDAgreesWithBruteForce(t *testing.T) {
	opt := sweepOnly
	opt.Mode = opt.Mode&^satcheck.NoBDD | satcheck.NoSweep
	opt.SweepConflictsBeforeBDD = -1
	equal, different, st := againstBruteForce(t, opt)
	t.Logf("%d equal and %d different pairs agree with brute force; stats %+v", equal, different, st)
	if st.BDDs != int64(equal+different) || st.SATCalls != 0 {
		t.Errorf("%d BDD answers and %d SAT calls for %d pairs, want BDDs only", st.BDDs, st.SATCalls, equal+different)
	}
	// Soundness of composed images (bdd.go's composedRoot): they answer
	// most of these pairs, each against brute force above.
	if 2*st.BDDComposed < st.BDDs {
		t.Errorf("%d of %d BDD answers composed B's root: want most", st.BDDComposed, st.BDDs)
	}
}

// TestSweepBudgetThenBDD: with BDDs on, sweeping first gets a budget of
// one conflict; the pairs it cannot decide within it go to BDDs, and every
// answer matches brute force.
func TestSweepBudgetThenBDD(t *testing.T) {
	opt := sweepOnly
	opt.Mode &^= satcheck.NoBDD
	opt.SweepConflictsBeforeBDD = 1
	equal, different, st := againstBruteForce(t, opt)
	t.Logf("%d equal and %d different pairs agree with brute force; stats %+v", equal, different, st)
	if st.SweepOverBudget == 0 || st.BDDs != st.SweepOverBudget {
		t.Errorf("%d pairs over the sweep's budget, %d BDD answers: want some, all decided by BDDs", st.SweepOverBudget, st.BDDs)
	}
	if st.BDDs == int64(equal+different) {
		t.Errorf("every pair went to BDDs: the budgeted sweep decided none")
	}
}

// againstBruteForce compares random circuits with restructured copies of
// themselves, one node mutated or none, under opt, checks every answer
// against brute force and returns the counts and the summed stats.
func againstBruteForce(t *testing.T, opt satcheck.Options) (equal, different int, sum satcheck.Stats) {
	t.Helper()
	trials := 160
	if testing.Short() {
		trials = 40
	}
	rng := rand.New(rand.NewPCG(7, 11))
	shapes := [][]int{{3}, {2, 2}, {}, {4}}
	for trial := range trials {
		shape := shapes[trial%len(shapes)]
		nActs := 0
		for _, k := range shape {
			nActs += k
		}
		nProps := 11 - nActs
		qa, pool := randomCircuitProgram(rng, "a", nProps, shape, 60)
		// Wide gates: near-constant under simulation.
		for range 6 {
			var fs []grounding.Lit
			for range 6 {
				fs = append(fs, pool[rng.IntN(len(pool))]^grounding.Lit(rng.IntN(2)))
			}
			if l := qa.and(fs...); l.Node() > 0 {
				pool = append(pool, l)
			}
		}
		// XORs keep most mutations observable.
		k := len(pool)
		fa := qa.xor(qa.xor(pool[k-8], pool[k-9]), qa.or(pool[k-1], qa.and(pool[k-10], pool[k-2])))
		qb, _ := randomCircuitProgram(rng, "b", nProps, shape, 0)
		im := randomInputMap(rng, qa.c.NumInputs, nProps, shape)
		mutate := -1
		if trial%4 != 0 {
			_, gates, err := grounding.CollectCone(&qa.c, fa)
			if err != nil {
				t.Fatal(err)
			}
			mutate = int(gates[rng.IntN(len(gates))])
		}
		fb := restructure(qb, &qa.c, fa, im, map[int]grounding.Lit{}, rng, mutate)
		a, b := qa.done(), qb.done()
		for _, kind := range []grounding.FuncKind{grounding.FuncNext, grounding.FuncTerminal} {
			want := bruteEqual(a, b, fa, fb, im, kind == grounding.FuncNext)
			if kind == grounding.FuncTerminal {
				want = bruteEqualNoMoves(a, b, fa, fb, im)
			}
			c := mustChecker(t, a, b, opt)
			got, err := c.CheckFunc(context.Background(), kind, fa, fb, im)
			if opt.BoundedEffort > 0 && errors.Is(err, satcheck.ErrLimit) {
				sum.BoundedOut++ // undecided within the bound: no answer to check
				continue
			}
			if err != nil {
				t.Fatalf("trial %d %v: %v", trial, kind, err)
			}
			if got != want {
				t.Fatalf("trial %d %v (mutated node %d, shape %v): CheckFunc says equal=%v, brute force %v (stats %+v)",
					trial, kind, mutate, shape, got, want, c.Stats())
			}
			if want {
				equal++
			} else {
				different++
			}
			st := c.Stats()
			sum.SweepMerged += st.SweepMerged
			sum.BDDs += st.BDDs
			sum.SATCalls += st.SATCalls
			sum.SweepOverBudget += st.SweepOverBudget
			sum.BDDComposed += st.BDDComposed
		}
	}
	if opt.BoundedEffort == 0 && (equal < trials/4 || different < trials/4) {
		t.Errorf("too few cases: %d equal, %d different", equal, different)
	}
	return equal, different, sum
}

// bruteEqualNoMoves decides fa == fb over every state with every does-input
// false (the reading of legal, goal and terminal functions).
func bruteEqualNoMoves(a, b *grounding.Program, fa, fb grounding.Lit, im []int32) bool {
	inA := make([]bool, a.Circuit.NumInputs)
	inB := make([]bool, b.Circuit.NumInputs)
	for s := range 1 << len(a.Props) {
		clear(inA)
		for i := range a.Props {
			inA[i] = s>>i&1 == 1
		}
		clear(inB)
		for i, v := range inA {
			inB[im[i]] = v
		}
		if grounding.Value(a.Circuit.Eval(inA, nil), fa) != grounding.Value(b.Circuit.Eval(inB, nil), fb) {
			return false
		}
	}
	return true
}

// TestSweepMultiplier: the commuted multiplier output bit, hard for one
// miter, is proven equal by sweeping, which merges the partial products
// and adders one by one; a bit of a different product position is refuted.
func TestSweepMultiplier(t *testing.T) {
	a, b, fa, fb := multipliers(6, 6)
	im := identity(a).InputMap(a, b)
	opt := satcheck.Options{SweepMinGates: 1, Mode: satcheck.NoExhaustive | satcheck.NoBDD}
	c := mustChecker(t, a, b, opt)
	eq, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, fa, fb, im)
	if err != nil {
		t.Fatal(err)
	}
	if !eq {
		t.Fatalf("x·y and y·x differ at bit 6 according to sweeping (stats %+v)", c.Stats())
	}
	if c.Stats().SweepMerged == 0 {
		t.Errorf("no internal merges: %+v", c.Stats())
	}
	_, b5, _, fb5 := multipliers(6, 5)
	c = mustChecker(t, a, b5, opt)
	eq, err = c.CheckFunc(context.Background(), grounding.FuncTerminal, fa, fb5, im)
	if err != nil {
		t.Fatal(err)
	}
	if eq {
		t.Fatalf("bits 6 and 5 of the product found equal (stats %+v)", c.Stats())
	}
}

// TestSweepCancel: bit 7 of an 8×8 multiplier, x·y against y·x, is hard
// for sweeping too (the partial sums of the two orders are different
// functions, so little merges and the final miter is hard); a deadline stops
// the sweep at once, and a cancelled context starts nothing.
func TestSweepCancel(t *testing.T) {
	a, b, fa, fb := multipliers(8, 7)
	im := identity(a).InputMap(a, b)
	// No chunked truth table nor BDDs: either would decide the pair at once.
	opt := satcheck.Options{SweepMinGates: 1, TableWork: -1, Mode: satcheck.NoBDD}
	c := mustChecker(t, a, b, opt)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := c.CheckFunc(ctx, grounding.FuncTerminal, fa, fb, im); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("CheckFunc = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("CheckFunc returned after %v, want at once", d)
	}
	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	c = mustChecker(t, a, b, opt)
	if _, err := c.CheckFunc(done, grounding.FuncTerminal, fa, fb, im); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled CheckFunc = %v, want context.Canceled", err)
	}
	if st := c.Stats(); st.SATCalls != 0 {
		t.Errorf("a cancelled context started %d solves", st.SATCalls)
	}
}

// TestSweepUnboundedOnceBDDsGiveUp: BDDs of 64 nodes at most fail on every
// product bit of x·y against y·x, so after bddFailSlack failures they are
// given up; from then on the pairs are swept without the budget that only
// led to them (a sweep that ran out would start its last proof over).
func TestSweepUnboundedOnceBDDsGiveUp(t *testing.T) {
	a, b, fas, fbs := allMultiplierBits(5)
	im := identity(a).InputMap(a, b)
	opt := satcheck.Options{SweepMinGates: 1, Mode: satcheck.NoExhaustive | satcheck.NoStructure, MaxBDDNodes: 64, SweepConflictsBeforeBDD: 1}
	c := mustChecker(t, a, b, opt)
	for k := range fas {
		eq, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, fas[k], fbs[k], im)
		if err != nil {
			t.Fatal(err)
		}
		if !eq {
			t.Fatalf("bit %d of x·y and y·x found different", k)
		}
	}
	st := c.Stats()
	t.Logf("stats %+v", st)
	if st.BDDOverBound != 2 || st.SweepOverBudget != st.BDDOverBound {
		t.Errorf("%d budgeted sweeps ran out and %d BDDs over their bound for %d pairs; want 2 of each, then sweeping alone",
			st.SweepOverBudget, st.BDDOverBound, len(fas))
	}
}
