package satcheck_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestBDDNotRepeatedAtTheSameBudget: a pair whose BDDs reached the node
// bound is not built again with no larger budget (the bounded and the
// unbounded pass of one comparison asked golden_rectangle's hard pairs
// twice, 9 s of BDDs that could only fail again); the answers still match
// brute force, decided by SAT.
func TestBDDNotRepeatedAtTheSameBudget(t *testing.T) {
	const n = 12
	build := func(name string) (*grounding.Program, grounding.Lit) {
		q, _ := randomCircuitProgram(rand.New(rand.NewPCG(1, 1)), name, n, nil, 0)
		x := func(i int) grounding.Lit { return grounding.InputLit(i) }
		// x0 x6 + x1 x7 + ... parity: a bad order for BDDs needs many
		// nodes; a manager of 64 nodes cannot hold it.
		f := q.and(x(0), x(6))
		for i := 1; i < 6; i++ {
			f = q.xor(f, q.and(x(i), x(6+i)))
		}
		return q.done(), f
	}
	a, fa := build("a")
	b, fb := build("b")
	opt := satcheck.Options{
		Mode:          satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoCache | satcheck.NoSimulation | satcheck.NoSweep,
		SweepMinGates: 1,
		MaxBDDNodes:   64,
	}
	im := make([]int32, n)
	for i := range im {
		im[i] = int32(i)
	}
	other := []int32{1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11} // not a symmetry: another pair
	for _, tc := range []struct {
		name    string
		maps    [][]int32
		repeats []int64
	}{
		{"same pair twice", [][]int32{im, im}, []int64{0, 1}},
		{"two pairs", [][]int32{im, other}, []int64{0, 0}},
	} {
		// A second failure gives BDDs up (bddFailSlack): two checks each.
		c := mustChecker(t, a, b, opt)
		for k, m := range tc.maps {
			want := bruteEqualNoMoves(a, b, fa, fb, m)
			got, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, fa, fb, m)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%s, check %d: CheckFunc says equal=%v, brute force %v", tc.name, k, got, want)
			}
			st := c.Stats()
			if st.BDDs != 0 || st.BDDOverBound != int64(k+1) {
				t.Fatalf("%s, check %d: %d BDD answers, %d over the bound: want 0 and %d (the test's BDDs no longer reach the bound)", tc.name, k, st.BDDs, st.BDDOverBound, k+1)
			}
			if st.BDDRepeats != tc.repeats[k] {
				t.Errorf("%s, check %d: BDDRepeats = %d, want %d", tc.name, k, st.BDDRepeats, tc.repeats[k])
			}
		}
	}
}
