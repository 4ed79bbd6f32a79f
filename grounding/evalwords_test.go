package grounding_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestEvalWords checks the bit-parallel whole-circuit evaluation lane by
// lane against Eval on random circuits, for one and several words.
func TestEvalWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 100 {
		c := randomCircuit(rng, 1+rng.IntN(10), 1+rng.IntN(40))
		w := 1 + rng.IntN(3)
		vals := make([]uint64, c.NumNodes()*w)
		for i := range c.NumInputs * w {
			vals[w+i] = rng.Uint64()
		}
		c.EvalWords(vals, w)
		in := make([]bool, c.NumInputs)
		var one []bool
		for lane := range 64 * w {
			for i := range in {
				in[i] = vals[(i+1)*w+lane/64]>>(lane%64)&1 == 1
			}
			one = c.Eval(in, one)
			for n := range c.NumNodes() {
				for _, l := range []grounding.Lit{grounding.Lit(n) << 1, grounding.Lit(n)<<1 | 1} {
					got := grounding.WordsOf(nil, vals, w, l)[lane/64]>>(lane%64)&1 == 1
					if got != grounding.Value(one, l) {
						t.Fatalf("trial %d lane %d literal %d: EvalWords %v, Eval %v", trial, lane, l, got, grounding.Value(one, l))
					}
				}
			}
		}
	}
}
