package satcheck_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestWitnessReplay checks that an assignment SAT found to separate a
// function from one image is replayed against the next image: the goal is
// true only when 24 propositions all hold (random simulation never draws
// it), and each wrong mapping swaps one of them for a proposition outside
// the goal's support, so the all-true state separates every one of them.
// The first check needs SAT; the later ones must not, and must still be
// answered different (with replay off, through NoSimulation, each needs a
// SAT call). A mapping that only permutes the support stays equal.
func TestWitnessReplay(t *testing.T) {
	const n = 24
	props := make([]string, 2*n)
	for i := range props {
		props[i] = fmt.Sprintf("p%d", i)
	}
	build := func(name string) (*grounding.Program, grounding.Lit) {
		q := newProg(name, []string{"r"}, props, [][]string{{"noop"}})
		var xs []grounding.Lit
		for i := range n {
			xs = append(xs, q.t(props[i]))
		}
		g := q.and(xs...)
		q.p.Goals[0] = []grounding.Goal{{Value: 100, Lit: g}}
		return q.done(), g
	}
	a, fa := build("a")
	b, fb := build("b")
	inputMap := func(swap int) []int32 {
		m := make([]int32, a.NumInputs())
		for i := range m {
			m[i] = int32(i)
		}
		if swap >= 0 { // input swap of the support trades places with one outside it
			m[swap], m[n+swap] = int32(n+swap), int32(swap)
		}
		return m
	}
	for _, mode := range []satcheck.Mode{0, satcheck.NoSimulation} {
		// No chunked table: its 2^25 rows would find the all-true state in
		// place of SAT; the test is about what SAT found being replayed.
		c := mustChecker(t, a, b, satcheck.Options{Mode: mode | satcheck.NoCache, TableWork: -1})
		for swap := range 6 {
			eq, err := c.CheckFunc(context.Background(), grounding.FuncGoal, fa, fb, inputMap(swap))
			if err != nil {
				t.Fatal(err)
			}
			if eq {
				t.Fatalf("mode %v, swap %d: a wrong mapping checks equal", mode, swap)
			}
		}
		eq, err := c.CheckFunc(context.Background(), grounding.FuncGoal, fa, fb, inputMap(-1))
		if err != nil || !eq {
			t.Fatalf("mode %v: the identity checks %v, %v", mode, eq, err)
		}
		st := c.Stats()
		wantSAT := int64(1) // the first wrong mapping (the identity is structural)
		if mode != 0 {
			wantSAT = 6
		}
		if st.SATCalls != wantSAT {
			t.Errorf("mode %v: %d SAT calls, want %d (%d refuted by replay)", mode, st.SATCalls, wantSAT, st.WitnessRefuted)
		}
		if mode == 0 && st.WitnessRefuted != 5 {
			t.Errorf("%d pairs refuted by replay, want 5", st.WitnessRefuted)
		}
	}
}

// TestWitnessReplayRandom checks that replay never shows an equal pair
// different: rare functions (ORs of ANDs of 5-10 literals over 14
// propositions), checked with CheckFunc and Refutes under random and
// near-identity mappings against brute force, with truth tables, the cache
// and structural hashing off and one simulation word, so that SAT and
// replay decide. A Refutes that answers true must hold for every
// completion of the three unmapped inputs.
func TestWitnessReplayRandom(t *testing.T) {
	const n = 14
	props := make([]string, n)
	for i := range props {
		props[i] = fmt.Sprintf("p%d", i)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	ctx := context.Background()
	replayed := int64(0)
	for round := range 30 {
		hidden := rng.Perm(n)
		build := func(seed uint64, relabel bool) (*grounding.Program, []grounding.Lit) {
			r := rand.New(rand.NewPCG(seed, 9))
			q := newProg(fmt.Sprint("g", seed), []string{"r"}, props, [][]string{{"noop", "a"}})
			var fs []grounding.Lit
			for range 4 {
				var terms []grounding.Lit
				for range 1 + r.IntN(3) {
					var xs []grounding.Lit
					for _, i := range r.Perm(n)[:5+r.IntN(6)] {
						if relabel {
							i = hidden[i]
						}
						l := q.t(props[i])
						if r.IntN(4) == 0 {
							l = l.Not()
						}
						xs = append(xs, l)
					}
					terms = append(terms, q.and(xs...))
				}
				fs = append(fs, q.or(terms...))
			}
			q.p.Goals[0] = []grounding.Goal{{Value: 0, Lit: fs[0]}, {Value: 50, Lit: fs[1]}, {Value: 100, Lit: fs[2]}}
			q.p.Terminal = fs[3]
			return q.done(), fs
		}
		seed := rng.Uint64()
		a, fa := build(seed, false)
		b, fb := build(seed, true)
		if rng.IntN(3) == 0 {
			b, fb = build(seed+1, true)
		}
		c := mustChecker(t, a, b, satcheck.Options{ExhaustiveBits: -1, SimWords: 1, Mode: satcheck.NoCache | satcheck.NoStructure})
		for step := range 60 {
			perm := rng.Perm(n)
			if rng.IntN(2) == 0 { // near-identity: a few swaps
				copy(perm, hidden)
				for k := rng.IntN(3); k >= 0; k-- {
					x, y := rng.IntN(n), rng.IntN(n)
					perm[x], perm[y] = perm[y], perm[x]
				}
			}
			im := make([]int32, a.NumInputs())
			for i := range im {
				im[i] = int32(i)
			}
			for i, v := range perm {
				im[i] = int32(v)
			}
			k := rng.IntN(3)
			eq, err := c.CheckFunc(ctx, grounding.FuncGoal, fa[k], fb[k], im)
			if err != nil {
				t.Fatal(err)
			}
			if want := bruteEqual(a, b, fa[k], fb[k], im, false); eq != want {
				t.Fatalf("round %d step %d: CheckFunc %v, brute %v", round, step, eq, want)
			}
			// Refutes with 3 unmapped inputs: refuted must mean no completion is equal.
			pim := append([]int32(nil), im...)
			bm := make([]bool, b.NumInputs())
			for i := range bm {
				bm[i] = true
			}
			un := rng.Perm(n)[:3]
			for _, i := range un {
				bm[pim[i]] = false
				pim[i] = -1
			}
			ref, err := c.Refutes(ctx, grounding.FuncGoal, fa[k], fb[k], pim, bm)
			if err != nil {
				t.Fatal(err)
			}
			if ref {
				imgs := []int32{im[un[0]], im[un[1]], im[un[2]]}
				for _, pp := range [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
					cm := append([]int32(nil), im...)
					for x := range 3 {
						cm[un[x]] = imgs[pp[x]]
					}
					if bruteEqual(a, b, fa[k], fb[k], cm, false) {
						t.Fatalf("round %d step %d: Refutes true but a completion is equal", round, step)
					}
				}
			}
		}
		replayed += c.Stats().WitnessRefuted
	}
	if replayed == 0 {
		t.Error("replay refuted no pair: the test does not exercise it")
	}
	t.Logf("%d pairs refuted by replay", replayed)
}
