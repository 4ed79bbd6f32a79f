package satcheck_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// findFunc is FindDependence or FindDependenceShared.
type findFunc func(ctx context.Context, p *grounding.Program, f grounding.Lit, cands []int) ([]satcheck.Witness, error)

// findModes are the two encodings of the dependence question.
var findModes = []struct {
	name string
	find findFunc
}{
	{"FindDependence", satcheck.FindDependence},
	{"FindDependenceShared", satcheck.FindDependenceShared},
	{"Dependence", dependenceFind()},
}

// dependenceFind returns a findFunc that asks one satcheck.Dependence per
// program and literal all its questions, as the ground graph does.
func dependenceFind() findFunc {
	type key struct {
		p *grounding.Program
		f grounding.Lit
	}
	deps := map[key]*satcheck.Dependence{}
	return func(ctx context.Context, p *grounding.Program, f grounding.Lit, cands []int) ([]satcheck.Witness, error) {
		d := deps[key{p, f}]
		if d == nil {
			var err error
			if d, err = satcheck.NewDependence(p, f); err != nil {
				return nil, err
			}
			deps[key{p, f}] = d
		}
		return d.Find(ctx, cands)
	}
}

// supportByFind computes the semantic support with FindDependence alone,
// checking every witness it returns by evaluating the circuit.
func supportByFind(t *testing.T, p *grounding.Program, f grounding.Lit) []int {
	return supportWith(t, satcheck.FindDependence, p, f)
}

// supportWith computes the semantic support with find alone, checking every
// witness it returns by evaluating the circuit.
func supportWith(t *testing.T, find findFunc, p *grounding.Program, f grounding.Lit) []int {
	t.Helper()
	nProps := len(p.Props)
	var cands []int
	for i := range p.Circuit.NumInputs {
		cands = append(cands, i)
	}
	var supp []int
	for calls := 0; len(cands) > 0; calls++ {
		if calls > p.Circuit.NumInputs {
			t.Fatalf("FindDependence did not finish after %d calls", calls)
		}
		ws, err := find(context.Background(), p, f, cands)
		if err != nil {
			t.Fatal(err)
		}
		if len(ws) == 0 {
			break
		}
		for _, wt := range ws {
			in, wit := wt.Input, wt.Point
			if !slices.Contains(cands, in) {
				t.Fatalf("FindDependence returned %d, not a candidate of %v", in, cands)
			}
			x := make([]bool, p.Circuit.NumInputs)
			for _, i := range wit {
				x[i] = true
			}
			v := grounding.Value(p.Circuit.Eval(x, nil), f)
			eval := func(y []bool) bool { return grounding.Value(p.Circuit.Eval(y, nil), f) }
			if in < nProps {
				y := slices.Clone(x)
				y[in] = !y[in]
				if eval(y) == v {
					t.Fatalf("witness %v of proposition %d: flipping it does not change f", wit, in)
				}
				if slices.Contains(cands, in) {
					supp = append(supp, in)
				}
				cands = slices.DeleteFunc(cands, func(i int) bool { return i == in })
				continue
			}
			// The role of the action (hand-built programs have no InputOf).
			r, base := 0, nProps
			for base+len(p.Actions[r]) <= in {
				base += len(p.Actions[r])
				r++
			}
			changed := false
			for a := range p.Actions[r] {
				y := slices.Clone(x)
				clear(y[base : base+len(p.Actions[r])])
				y[base+a] = true
				if eval(y) != v {
					changed = true
				}
			}
			if !changed {
				t.Fatalf("witness %v of role %d: no other action changes f", wit, r)
			}
			if !slices.Contains(supp, base) {
				for a := range p.Actions[r] {
					supp = append(supp, base+a)
				}
			}
			cands = slices.DeleteFunc(cands, func(i int) bool { return i >= base && i < base+len(p.Actions[r]) })
		}
	}
	slices.Sort(supp)
	return slices.Compact(supp)
}

func TestFindDependence(t *testing.T) {
	for _, tc := range supportTests {
		t.Run(tc.name, func(t *testing.T) {
			q := soloStd("p")
			f := tc.f(q)
			p := q.done()
			var want []int
			for _, n := range tc.want {
				want = append(want, inputID(q, n))
			}
			slices.Sort(want)
			if got := supportByFind(t, p, f); !slices.Equal(got, want) {
				t.Errorf("support by FindDependence = %v, want %v", got, want)
			}
		})
	}
}

// TestFindDependenceRandom checks both encodings' supports against brute
// force on random circuits with and without roles.
func TestFindDependenceRandom(t *testing.T) {
	for _, mode := range findModes {
		t.Run(mode.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			shapes := [][]int{{2, 3}, {1, 2}, {4}, {7}, {}}
			trials := 150
			if testing.Short() {
				trials = 30
			}
			for trial := range trials {
				q, pool, shape := shapedCircuitProgram(rng, shapes, trial, 10)
				f := pool[rng.IntN(len(pool))]
				g := pool[rng.IntN(len(pool))]
				fs := []grounding.Lit{f, q.or(f, q.and(f, g)), q.xor(f, g)}
				p := q.done()
				for _, f := range fs {
					want := bruteSupport(p, f)
					if got := supportWith(t, mode.find, p, f); !slices.Equal(got, want) {
						t.Fatalf("trial %d: support by %s = %v, brute force %v (shape %v)", trial, mode.name, got, want, shape)
					}
				}
			}
		})
	}
}

// TestFindDependenceNone: one call settles every candidate of a function
// that reads but does not depend on them.
func TestFindDependenceNone(t *testing.T) {
	q := newProg("none", nil, []string{"a", "b", "c"}, nil)
	f := q.or(q.t("a"), q.and(q.t("a"), q.t("b"), q.t("c")))
	p := q.done()
	ws, err := satcheck.FindDependence(context.Background(), p, f, []int{1, 2})
	if err != nil || ws != nil {
		t.Errorf("FindDependence(b, c) = %v, %v; want nil, nil", ws, err)
	}
	if _, err := satcheck.FindDependence(context.Background(), p, f, []int{3}); err == nil {
		t.Errorf("FindDependence(3) succeeded, want an out-of-range error")
	}
}

// TestDependenceSequences asks one Dependence a random sequence of
// candidate sets, mostly shrinking (the solver is reused with unit
// clauses) but also growing, or bringing back a dropped candidate (both
// encode afresh), and checks every answer against brute force: no
// witness exactly when f depends on no candidate, and every witness
// real. Reverting the unit clauses (every later question asked with the
// first one's selectors free) makes answers name dropped candidates.
func TestDependenceSequences(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	shapes := [][]int{{2, 3}, {1, 2}, {4}, {3}, {}}
	trials := 120
	if testing.Short() {
		trials = 30
	}
	reused, fresh := 0, 0
	for trial := range trials {
		q, pool, _ := shapedCircuitProgram(rng, shapes, trial, 9)
		f := pool[rng.IntN(len(pool))]
		g := pool[rng.IntN(len(pool))]
		f = q.xor(f, q.and(f, g))
		p := q.done()
		supp := bruteSupport(p, f)
		d, err := satcheck.NewDependence(p, f)
		if err != nil {
			t.Fatal(err)
		}
		all := make([]int, p.Circuit.NumInputs)
		for i := range all {
			all[i] = i
		}
		cands := slices.Clone(all)
		for step := range 8 {
			ws, err := d.Find(context.Background(), cands)
			if err != nil {
				t.Fatalf("trial %d step %d: %v", trial, step, err)
			}
			want := slices.ContainsFunc(cands, func(i int) bool { return slices.Contains(supp, i) })
			if (len(ws) > 0) != want {
				t.Fatalf("trial %d step %d: Find(%v) = %v, want a witness %v (support %v)", trial, step, cands, ws, want, supp)
			}
			for _, wt := range ws {
				if !slices.Contains(cands, wt.Input) || !slices.Contains(supp, wt.Input) {
					t.Fatalf("trial %d step %d: Find(%v) names %d, support %v", trial, step, cands, wt.Input, supp)
				}
				checkWitness(t, p, f, wt)
			}
			switch rng.IntN(4) {
			case 0: // a random superset or another set: encoded afresh
				fresh++
				cands = slices.DeleteFunc(slices.Clone(all), func(int) bool { return rng.IntN(3) == 0 })
			default: // drop the named inputs and a random one: reused
				reused++
				cands = slices.DeleteFunc(cands, func(i int) bool {
					return slices.ContainsFunc(ws, func(w satcheck.Witness) bool { return w.Input == i })
				})
				if len(cands) > 0 {
					i := rng.IntN(len(cands))
					cands = slices.Delete(cands, i, i+1)
				}
			}
			if len(cands) == 0 {
				break
			}
		}
	}
	if reused == 0 || fresh == 0 {
		t.Errorf("%d reused and %d fresh questions: the test needs both", reused, fresh)
	}
}

// checkWitness fails unless wt shows that f depends on wt.Input: flipping
// the proposition, or giving its role another action, changes f at
// wt.Point.
func checkWitness(t *testing.T, p *grounding.Program, f grounding.Lit, wt satcheck.Witness) {
	t.Helper()
	nProps := len(p.Props)
	x := make([]bool, p.Circuit.NumInputs)
	for _, i := range wt.Point {
		x[i] = true
	}
	eval := func(y []bool) bool { return grounding.Value(p.Circuit.Eval(y, nil), f) }
	v := eval(x)
	if wt.Input < nProps {
		y := slices.Clone(x)
		y[wt.Input] = !y[wt.Input]
		if eval(y) == v {
			t.Fatalf("witness %v of proposition %d: flipping it does not change f", wt.Point, wt.Input)
		}
		return
	}
	r, base := 0, nProps
	for base+len(p.Actions[r]) <= wt.Input {
		base += len(p.Actions[r])
		r++
	}
	for a := range p.Actions[r] {
		y := slices.Clone(x)
		clear(y[base : base+len(p.Actions[r])])
		y[base+a] = true
		if eval(y) != v {
			return
		}
	}
	t.Fatalf("witness %v of role %d: no other action changes f", wt.Point, r)
}
