package grounding_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestFlipWideGates checks Flip against a full evaluation with the input
// negated on circuits with wide gates (whose fanins Flip does not re-read
// but updates from zero levels), where one input reaches a gate through
// one or several fanins, and with biased inputs so that gates are true
// often enough to matter; with and without FewFlips.
func TestFlipWideGates(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 150 {
		n := 3 + rng.IntN(40)
		c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
		for node := n + 1; node < n+1+2+rng.IntN(30); node++ {
			width := 1 + rng.IntN(4)
			if rng.IntN(2) == 0 {
				width = 20 + rng.IntN(40) // wide: from 24 fanins Flip uses zero levels
			}
			var fs []grounding.Lit
			for x := range width {
				m := 1 + rng.IntN(node-1)
				neg := grounding.Lit(rng.IntN(2))
				if width >= 20 && x > 1 {
					// Mostly positive inputs (true 31/32 of the time), so
					// that the wide AND is often true.
					m, neg = 1+rng.IntN(n), 0
				}
				fs = append(fs, grounding.Lit(m)<<1|neg)
			}
			addGate(c, fs)
		}
		cn, s, w := lastGateSim(t, rng, c)
		s.FewFlips = trial%2 == 1 // wide gates re-read on their first flip
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
		for k := range cn.Inputs {
			checkFlip(t, trial, cn, s, ins, k, 1+rng.IntN(w))
		}
	}
}

// TestFlipEventDriven checks Flip against a full evaluation on deep
// circuits of narrow gates, where a flip's change dies out at some gates
// and goes on through others (Flip evaluates only gates with a changed
// fanin), with flips in sequence (each must leave no trace for the next)
// and on fewer words than the simulator holds.
func TestFlipEventDriven(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := range 300 {
		n := 2 + rng.IntN(12)
		c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
		for node := n + 1; node < n+1+5+rng.IntN(60); node++ {
			var fs []grounding.Lit
			for range 1 + rng.IntN(3) {
				// Mostly recent nodes: deep chains, with inputs now and then.
				m := node - 1 - rng.IntN(min(node-1, 6))
				if rng.IntN(4) == 0 {
					m = 1 + rng.IntN(n)
				}
				fs = append(fs, grounding.Lit(m)<<1|grounding.Lit(rng.IntN(2)))
			}
			addGate(c, fs)
		}
		cn, s, w := lastGateSim(t, rng, c)
		ins := make([][]uint64, len(cn.Inputs))
		for k := range ins {
			ins[k] = make([]uint64, w)
			for i := range w {
				// Few samples differ from each other: changes die out often.
				ins[k][i] = -uint64(rng.IntN(2)) ^ rng.Uint64()&rng.Uint64()&rng.Uint64()
			}
			copy(s.In(k), ins[k])
		}
		base := make([]uint64, w)
		s.Eval(base)
		for range 2 * len(cn.Inputs) {
			checkFlip(t, trial, cn, s, ins, rng.IntN(len(cn.Inputs)), 1+rng.IntN(w))
		}
	}
}

// checkFlip compares s.Flip(k) on the first wn words with a full
// evaluation of cn on ins with input k negated.
func checkFlip(t *testing.T, trial int, cn *grounding.Cone, s *grounding.ConeSim, ins [][]uint64, k, wn int) {
	t.Helper()
	w := len(ins[k])
	got := make([]uint64, w)
	s.Flip(k, wn, got)
	want, _ := cn.Simulate(w, func(j int) []uint64 {
		if j == k {
			neg := make([]uint64, w)
			for i := range neg {
				neg[i] = ^ins[j][i]
			}
			return neg
		}
		return ins[j]
	}, nil, nil)
	if !slices.Equal(got[:wn], want[:wn]) {
		t.Fatalf("trial %d: Flip(%d) = %x, full evaluation %x", trial, k, got[:wn], want[:wn])
	}
}

// addGate adds a gate over fs to c, its fanins sorted, one per node.
func addGate(c *grounding.Circuit, fs []grounding.Lit) {
	slices.Sort(fs)
	fs = slices.CompactFunc(fs, func(a, b grounding.Lit) bool { return a.Node() == b.Node() })
	c.Fanin = append(c.Fanin, fs...)
	c.Start = append(c.Start, int32(len(c.Fanin)))
}

// lastGateSim returns the cone of c's last gate (either polarity) and a
// simulator of it over 1-3 words.
func lastGateSim(t *testing.T, rng *rand.Rand, c *grounding.Circuit) (*grounding.Cone, *grounding.ConeSim, int) {
	t.Helper()
	root := grounding.Lit(c.NumNodes()-1)<<1 | grounding.Lit(rng.IntN(2))
	cn, err := grounding.NewCone(c, root)
	if err != nil {
		t.Fatal(err)
	}
	w := 1 + rng.IntN(3)
	return cn, grounding.NewConeSim(cn, w), w
}
