package satcheck_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// supportBySharedFind computes the semantic support with
// FindDependenceShared alone, checking every witness by evaluation.
func supportBySharedFind(t *testing.T, p *grounding.Program, f grounding.Lit) []int {
	t.Helper()
	nProps := len(p.Props)
	var cands []int
	for i := range p.Circuit.NumInputs {
		cands = append(cands, i)
	}
	eval := func(y []bool) bool { return grounding.Value(p.Circuit.Eval(y, nil), f) }
	var supp []int
	for calls := 0; len(cands) > 0; calls++ {
		if calls > p.Circuit.NumInputs {
			t.Fatalf("FindDependenceShared did not finish after %d calls", calls)
		}
		ws, err := satcheck.FindDependenceShared(context.Background(), p, f, cands)
		if err != nil {
			t.Fatal(err)
		}
		if len(ws) == 0 {
			break
		}
		for _, wt := range ws {
			if !slices.Contains(cands, wt.Input) {
				t.Fatalf("FindDependenceShared returned %d, not a candidate of %v", wt.Input, cands)
			}
			x := make([]bool, p.Circuit.NumInputs)
			for _, i := range wt.Point {
				x[i] = true
			}
			v := eval(x)
			if in := wt.Input; in < nProps {
				y := slices.Clone(x)
				y[in] = !y[in]
				if eval(y) == v {
					t.Fatalf("witness %v of proposition %d: flipping it does not change f", wt.Point, in)
				}
				supp = append(supp, in)
				cands = slices.DeleteFunc(cands, func(i int) bool { return i == in })
				continue
			}
			r, base := 0, nProps
			for base+len(p.Actions[r]) <= wt.Input {
				base += len(p.Actions[r])
				r++
			}
			changed := false
			for a := range p.Actions[r] {
				y := slices.Clone(x)
				clear(y[base : base+len(p.Actions[r])])
				y[base+a] = true
				changed = changed || eval(y) != v
			}
			if !changed {
				t.Fatalf("witness %v of role %d: no other action changes f", wt.Point, r)
			}
			for a := range p.Actions[r] {
				supp = append(supp, base+a)
			}
			cands = slices.DeleteFunc(cands, func(i int) bool { return i >= base && i < base+len(p.Actions[r]) })
		}
	}
	slices.Sort(supp)
	return slices.Compact(supp)
}

// TestFindDependenceSharedRandom checks FindDependenceShared's supports
// against brute force on random circuits with and without roles.
func TestFindDependenceSharedRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 6))
	shapes := [][]int{{2, 3}, {1, 2}, {4}, {7}, {}}
	for trial := range 150 {
		shape := shapes[trial%len(shapes)]
		nActs := 0
		for _, k := range shape {
			nActs += k
		}
		q, pool := randomCircuitProgram(rng, "p", 2+rng.IntN(10-nActs), shape, 20)
		f := pool[rng.IntN(len(pool))]
		g := pool[rng.IntN(len(pool))]
		fs := []grounding.Lit{f, q.or(f, q.and(f, g)), q.xor(f, g)}
		p := q.done()
		for _, f := range fs {
			want := bruteSupport(p, f)
			if got := supportBySharedFind(t, p, f); !slices.Equal(got, want) {
				t.Fatalf("trial %d: support by FindDependenceShared = %v, brute force %v (shape %v)", trial, got, want, shape)
			}
		}
	}
}
