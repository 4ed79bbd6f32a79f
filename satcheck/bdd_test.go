package satcheck_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestBDDKeptGatesFollowTheMapping: one Checker keeps B's gate BDDs
// between checks only while the mapping gives B's inputs the same
// variables. Many mappings of one function, some its symmetries and most
// not, in managers so small that they fill, are freed (Collect) and reset
// between checks: every answer must match brute force.
func TestBDDKeptGatesFollowTheMapping(t *testing.T) {
	const n = 10
	build := func(name string) (*grounding.Program, grounding.Lit) {
		q, _ := randomCircuitProgram(rand.New(rand.NewPCG(1, 1)), name, n, nil, 0)
		x := func(i int) grounding.Lit { return grounding.InputLit(i) }
		par := x(0)
		for i := 1; i < 5; i++ {
			par = q.xor(par, x(i))
		}
		pairs := q.or(q.and(x(5), x(6)), q.and(x(7), x(8)))
		f := q.xor(q.xor(par, pairs), x(9))
		return q.done(), f
	}
	a, fa := build("a")
	b, fb := build("b")
	rng := rand.New(rand.NewPCG(3, 5))
	var equal, different int
	for _, maxNodes := range []int{128, 160, 192, 224, 256, 320, 384, 1 << 12} {
		opt := satcheck.Options{
			Mode:          satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoCache | satcheck.NoSimulation | satcheck.NoSweep,
			SweepMinGates: 1,
			MaxBDDNodes:   maxNodes,
		}
		c := mustChecker(t, a, b, opt)
		for range 60 {
			im := make([]int32, n)
			if rng.IntN(2) == 0 {
				// A symmetry: the parity's inputs, the pairs and their order.
				for i, j := range rng.Perm(5) {
					im[i] = int32(j)
				}
				p := [][2]int32{{5, 6}, {7, 8}}
				if rng.IntN(2) == 0 {
					p[0], p[1] = p[1], p[0]
				}
				for k := range p {
					if rng.IntN(2) == 0 {
						p[k][0], p[k][1] = p[k][1], p[k][0]
					}
				}
				im[5], im[6], im[7], im[8], im[9] = p[0][0], p[0][1], p[1][0], p[1][1], 9
			} else {
				for i, j := range rng.Perm(n) {
					im[i] = int32(j)
				}
			}
			want := bruteEqualNoMoves(a, b, fa, fb, im)
			got, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, fa, fb, im)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("MaxBDDNodes %d, mapping %v: CheckFunc says equal=%v, brute force %v (stats %+v)", maxNodes, im, got, want, c.Stats())
			}
			if want {
				equal++
			} else {
				different++
			}
		}
		t.Logf("MaxBDDNodes %d: stats %+v", maxNodes, c.Stats())
	}
	if equal < 50 || different < 50 {
		t.Errorf("too few cases: %d equal, %d different", equal, different)
	}
}
