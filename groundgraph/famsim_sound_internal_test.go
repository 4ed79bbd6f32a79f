package groundgraph

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// wideFamCircuit: many inputs (several bitset words), gates reading a
// window of inputs and earlier gates, sometimes the constant node 0;
// roots sometimes plain inputs, sometimes repeated.
func wideFamCircuit(rng *rand.Rand) (*grounding.Circuit, []grounding.Lit) {
	n := 65 + rng.IntN(140)
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	var gates []grounding.Lit
	for range 20 + rng.IntN(200) {
		var fs []grounding.Lit
		lo := rng.IntN(n - 6)
		for range 1 + rng.IntN(4) {
			var l grounding.Lit
			switch x := rng.IntN(10); {
			case x == 0:
				l = 0 // constant
			case x < 4 && len(gates) > 0:
				l = gates[len(gates)-1-rng.IntN(min(len(gates), 4))] &^ 1
			default:
				l = grounding.Lit(1+lo+rng.IntN(6)) << 1
			}
			fs = append(fs, l|grounding.Lit(rng.IntN(2)))
		}
		gates = append(gates, addGate(c, fs))
	}
	var roots []grounding.Lit
	for range 4 + rng.IntN(30) {
		switch rng.IntN(8) {
		case 0:
			roots = append(roots, grounding.Lit(1+rng.IntN(n))<<1)
		case 1:
			if len(roots) > 0 {
				roots = append(roots, roots[rng.IntN(len(roots))]^1)
				continue
			}
			fallthrough
		default:
			roots = append(roots, gates[rng.IntN(len(gates))]|grounding.Lit(rng.IntN(2)))
		}
	}
	return c, roots
}

// TestFamSupportSoundWide: every dependence famSupport claims is a
// true dependence, on multi-word unions with constants and input roots,
// and the result does not depend on the number of workers.
func TestFamSupportSoundWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 16))
	checked, missed := 0, 0
	for it := range 60 {
		c, roots := wideFamCircuit(rng)
		var first []uint64
		for _, workers := range []int{1, 2, 3} {
			dep, words, err := famSupport(context.Background(), c, roots, 1<<30, workers, uint64(it), syntacticCones(c, roots, 3))
			if err != nil || dep == nil {
				t.Fatalf("circuit %d: famSupport = nil, %v", it, err)
			}
			if first == nil {
				first = dep
			} else if !slices.Equal(first, dep) {
				t.Fatalf("circuit %d: famSupport differs with %d workers", it, workers)
			}
			if workers != 1 {
				continue
			}
			for j, r := range roots {
				want, ok := exactSupport(c, r)
				if !ok {
					continue
				}
				checked++
				got := shown(dep, words, j, c.NumInputs)
				for _, i := range got {
					if !slices.Contains(want, i) {
						t.Fatalf("circuit %d, root %d (%v): famSupport claims input %d, exact support %v", it, j, r, i, want)
					}
				}
				if len(got) < len(want) {
					missed++
				}
			}
		}
	}
	t.Logf("%d roots checked, %d with inputs left to simSupport", checked, missed)
}
