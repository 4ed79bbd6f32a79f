package satcheck_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestLemmasAcrossPairs: functions of a random circuit against those of
// a copy written differently (restructure) share their sub-circuits, so the
// sweeps of the later pairs find what the earlier ones proved: with lemmas
// they merge nodes without a proof and ask fewer SAT questions than
// without, for the same answers.
func TestLemmasAcrossPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	qa, pool := randomCircuitProgram(rng, "a", 12, []int{3}, 200)
	k := len(pool)
	var fas []grounding.Lit
	for i := range 6 {
		fas = append(fas, qa.xor(qa.xor(pool[k-1-i], pool[k-9-i]), qa.or(pool[k-15-i], pool[k-2-i])))
	}
	qb, _ := randomCircuitProgram(rng, "b", 12, []int{3}, 0)
	im := []int32{12: 12, 13: 13, 14: 14} // the actions map to themselves
	for i, j := range rng.Perm(12) {
		im[i] = int32(j)
	}
	memo := map[int]grounding.Lit{}
	var fbs []grounding.Lit
	for _, fa := range fas {
		fbs = append(fbs, restructure(qb, &qa.c, fa, im, memo, rng, -1))
	}
	a, b := qa.done(), qb.done()
	run := func(mode satcheck.Mode) satcheck.Stats {
		opt := satcheck.Options{SweepMinGates: 1, Mode: satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoBDD | satcheck.NoCache | mode}
		c := mustChecker(t, a, b, opt)
		for x := range fas {
			for _, kind := range []grounding.FuncKind{grounding.FuncNext, grounding.FuncTerminal} {
				eq, err := c.CheckFunc(context.Background(), kind, fas[x], fbs[x], im)
				if err != nil {
					t.Fatal(err)
				}
				if !eq {
					t.Fatalf("function %d (%v) and its restructured copy found different (mode %v)", x, kind, mode)
				}
			}
		}
		return c.Stats()
	}
	with, without := run(0), run(satcheck.NoLemmas)
	t.Logf("with lemmas: %d SAT calls, %d merged by proofs, %d by lemmas; without: %d SAT calls, %d merged",
		with.SATCalls, with.SweepMerged, with.LemmaMerged, without.SATCalls, without.SweepMerged)
	if with.LemmaMerged == 0 || without.LemmaMerged != 0 {
		t.Errorf("lemma merges: %d with lemmas, %d without; want some, none", with.LemmaMerged, without.LemmaMerged)
	}
	if 2*with.SATCalls >= without.SATCalls {
		t.Errorf("%d SAT calls with lemmas, %d without: want under half", with.SATCalls, without.SATCalls)
	}
}

// TestLemmasNotAcrossMaps: a wide conjunction against a copy written
// differently, first through the copy's mapping, then with two of its
// inputs swapped: the two then differ on so few states that simulation
// misses them, so only a proof can tell, and a lemma of the first map
// (the conjunctions are equal) must not answer for the second.
func TestLemmasNotAcrossMaps(t *testing.T) {
	const n = 16
	rng := rand.New(rand.NewPCG(9, 9))
	qa, _ := randomCircuitProgram(rng, "a", n, nil, 0)
	var ls []grounding.Lit
	for i := range n {
		l := grounding.InputLit(i)
		if i == 1 || i > n/2 {
			l = l.Not()
		}
		ls = append(ls, l)
	}
	fa := qa.and(ls...)
	im := make([]int32, n)
	for i := range im {
		im[i] = int32(i)
	}
	qb, _ := randomCircuitProgram(rng, "b", n, nil, 0)
	fb := restructure(qb, &qa.c, fa, im, map[int]grounding.Lit{}, rng, -1)
	a, b := qa.done(), qb.done()
	swapped := append([]int32(nil), im...)
	swapped[0], swapped[1] = 1, 0
	c := mustChecker(t, a, b, satcheck.Options{SweepMinGates: 1, Mode: satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoBDD})
	for _, m := range [][]int32{im, swapped} {
		want := bruteEqualNoMoves(a, b, fa, fb, m)
		got, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, fa, fb, m)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("map %v: CheckFunc says equal=%v, brute force %v (stats %+v)", m[:2], got, want, c.Stats())
		}
	}
}

// TestLemmasSearchStyle drives one Checker like equiv's search: one
// shared input map whose entries are written only for the support of the
// function checked (stale entries stay from earlier candidates), candidate
// maps that agree with each other on many inputs, every answer against
// brute force.
func TestLemmasSearchStyle(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 17))
	merges := 0
	trials := 30
	if testing.Short() {
		trials = 12
	}
	for trial := range trials {
		shape := [][]int{{3}, {2, 2}, {}}[trial%3]
		nActs := 0
		for _, k := range shape {
			nActs += k
		}
		nProps := 9 - nActs
		qa, pool := randomCircuitProgram(rng, "a", nProps, shape, 70)
		k := len(pool)
		var fas []grounding.Lit
		for i := range 6 {
			fas = append(fas, qa.xor(qa.xor(pool[k-1-i], pool[k-9-i]), qa.or(pool[k-5-i], qa.and(pool[k-12-i], pool[k-2-i]))))
		}
		qb, _ := randomCircuitProgram(rng, "b", nProps, shape, 0)
		im := randomInputMap(rng, qa.c.NumInputs, nProps, shape)
		mutate := -1
		if trial%3 != 0 {
			_, gates, _ := grounding.CollectCone(&qa.c, fas[rng.IntN(len(fas))])
			mutate = int(gates[rng.IntN(len(gates))])
		}
		memo := map[int]grounding.Lit{}
		var fbs []grounding.Lit
		for _, fa := range fas {
			fbs = append(fbs, restructure(qb, &qa.c, fa, im, memo, rng, mutate))
		}
		a, b := qa.done(), qb.done()
		opt := sweepOnly
		opt.Mode &^= satcheck.NoCache
		opt.Mode |= satcheck.NoCache
		c := mustChecker(t, a, b, opt)
		shared := make([]int32, len(im))
		for i := range shared {
			shared[i] = -1
		}
		for step := range 40 {
			cand := append([]int32(nil), im...)
			// a wrong candidate: swap two props, or two actions of one role
			if step%2 == 1 {
				x, y := rng.IntN(nProps), rng.IntN(nProps)
				cand[x], cand[y] = cand[y], cand[x]
			}
			if step%5 == 2 && len(shape) > 0 && shape[0] >= 2 {
				cand[nProps], cand[nProps+1] = cand[nProps+1], cand[nProps]
			}
			for _, x := range rng.Perm(len(fas)) {
				supp, _, _ := grounding.CollectCone(&qa.c, fas[x])
				for _, in := range supp {
					shared[in] = cand[in]
				}
				for _, kind := range []grounding.FuncKind{grounding.FuncNext, grounding.FuncTerminal} {
					var want bool
					if kind == grounding.FuncNext {
						want = bruteEqual(a, b, fas[x], fbs[x], cand, true)
					} else {
						want = bruteEqualNoMoves(a, b, fas[x], fbs[x], cand)
					}
					got, err := c.CheckFunc(context.Background(), kind, fas[x], fbs[x], shared)
					if err != nil {
						t.Fatalf("trial %d step %d: %v", trial, step, err)
					}
					if got != want {
						t.Fatalf("trial %d step %d function %d %v: CheckFunc equal=%v, brute force %v (stats %+v)", trial, step, x, kind, got, want, c.Stats())
					}
				}
			}
		}
		merges += int(c.Stats().LemmaMerged)
	}
	t.Logf("lemma merges: %d", merges)
	if merges == 0 {
		t.Errorf("no lemma merges")
	}
}

// TestLemmaContradictedBySimulation: a wrong lemma in the store (A's input
// p00 is false) would merge that input into the constant and make an and
// of 20 literals, which simulation does not see true, equal to false. The
// sweep checks each lemma against its simulated signatures, so the check
// fails with an error instead of answering "equal".
func TestLemmaContradictedBySimulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 20
	qa, pool := randomCircuitProgram(rng, "a", n, []int{1}, 0)
	lits := slices.Clone(pool[:n])
	for i := 1; i < n; i += 2 {
		lits[i] = lits[i].Not() // not all true: biased vectors do not meet it either
	}
	fa := qa.and(lits...)
	qb, _ := randomCircuitProgram(rng, "b", n, []int{1}, 0)
	a, b := qa.done(), qb.done()
	im := make([]int32, len(pool))
	for i := range im {
		im[i] = int32(i)
	}
	opt := satcheck.Options{SweepMinGates: 1, Mode: satcheck.NoStructure | satcheck.NoSimulation | satcheck.NoExhaustive | satcheck.NoBDD | satcheck.NoCache}
	for _, wrong := range []bool{false, true} {
		c := mustChecker(t, a, b, opt)
		if wrong {
			satcheck.InjectLemma(c, grounding.FuncTerminal, im, 0)
		}
		eq, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, fa, grounding.False, im)
		switch {
		case !wrong && (err != nil || eq):
			t.Fatalf("without the wrong lemma: equal %v, error %v; want different", eq, err)
		case wrong && err == nil:
			t.Fatalf("with the wrong lemma: equal %v and no error; want the lemma caught", eq)
		case wrong && !strings.Contains(err.Error(), "contradicted by simulation"):
			t.Fatalf("with the wrong lemma: error %v, want the contradicted lemma", err)
		}
	}
}
