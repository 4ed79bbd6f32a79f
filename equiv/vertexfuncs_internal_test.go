package equiv

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestVertexFuncs: funcs lists what a list per vertex lists, in the same
// order, for needs with short and long runs (some shared, some
// overlapping, some repeated within one need), whatever the scratch held.
func TestVertexFuncs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 19))
	for trial := range 200 {
		n := 1 + rng.IntN(600)
		need := make([]grounding.Runs, rng.IntN(40))
		shared := [2]int32{int32(rng.IntN(n)), 0}
		shared[1] = min(int32(n)-shared[0], int32(wideRun+rng.IntN(300)))
		for f := range need {
			var r grounding.Runs
			for range rng.IntN(5) {
				switch rng.IntN(3) {
				case 0: // a scattered vertex
					r = r.Add(int32(rng.IntN(n)))
				case 1: // a run of any length
					first := int32(rng.IntN(n))
					for v := first; v < min(int32(n), first+int32(rng.IntN(3*wideRun))); v++ {
						r = r.Add(v)
					}
				default: // the run many functions share
					for v := shared[0]; v < shared[0]+shared[1]; v++ {
						r = r.Add(v)
					}
				}
			}
			need[f] = r
		}
		want := make([][]int32, n)
		for f, r := range need {
			for v := range r.All() {
				want[v] = append(want[v], int32(f))
			}
		}
		x := newVertexFuncs(n, need)
		var buf []int32
		for _, v := range rng.Perm(n) {
			if got := x.funcs(int32(v), &buf); !slices.Equal(got, want[v]) {
				t.Fatalf("trial %d: vertex %d: funcs %v, want %v", trial, v, got, want[v])
			}
		}
		for v := range n { // the index itself must not have changed
			if got := x.funcs(int32(v), &buf); !slices.Equal(got, want[v]) {
				t.Fatalf("trial %d, second pass: vertex %d: funcs %v, want %v", trial, v, got, want[v])
			}
		}
	}
}
