package grounding_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestFlipWideGatesManyChanged is TestFlipWideGates where a flip changes
// more fanins of one wide gate than wideFlip handles (zeroLevels-1): the
// wide gates read many narrow gates over a few shared inputs, so flipping
// one input changes several of their fanins at once, and Flip must fall
// back to reading the whole fanin. (TestFlipWideGates' wide gates read at
// most two gates besides inputs, so at most three fanins change.)
func TestFlipWideGatesManyChanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 23))
	for trial := range 200 {
		n := 2 + rng.IntN(4) // few inputs, each read by many narrow gates; all positive, so that the wide ANDs are often true
		c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
		node := n + 1
		var narrow []int
		for range 30 + rng.IntN(40) {
			var fs []grounding.Lit
			for range 1 + rng.IntN(2) {
				fs = append(fs, grounding.Lit(1+rng.IntN(n))<<1)
			}
			addGate(c, fs)
			narrow = append(narrow, node)
			node++
		}
		for range 1 + rng.IntN(4) {
			var fs []grounding.Lit
			for range 24 + rng.IntN(30) {
				fs = append(fs, grounding.Lit(narrow[rng.IntN(len(narrow))])<<1)
			}
			addGate(c, fs)
			node++
		}
		var top []grounding.Lit
		for m := node - 1; m > n && len(top) < 3; m-- {
			top = append(top, grounding.Lit(m)<<1|grounding.Lit(rng.IntN(2)))
		}
		addGate(c, top)
		cn, s, w := lastGateSim(t, rng, c)
		s.FewFlips = trial%2 == 1
		ins := make([][]uint64, len(cn.Inputs))
		for k := range ins {
			ins[k] = make([]uint64, w)
			for i := range w {
				ins[k][i] = rng.Uint64() | rng.Uint64() | rng.Uint64() | rng.Uint64() | rng.Uint64()
			}
			copy(s.In(k), ins[k])
		}
		base := make([]uint64, w)
		s.Eval(base)
		for range 3 * len(cn.Inputs) {
			checkFlip(t, trial, cn, s, ins, rng.IntN(len(cn.Inputs)), 1+rng.IntN(w))
		}
	}
}
