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

// exactSupportSmall: the exact support of root, by enumeration over its
// syntactic support only (or nil, false when that is too big).
func exactSupportSmall(c *grounding.Circuit, root grounding.Lit) ([]int, bool) {
	syn := c.Support(root)
	if len(syn) > 10 {
		return nil, false
	}
	x := make([]bool, c.NumInputs)
	var supp []int
	for _, i := range syn {
		for m := range 1 << len(syn) {
			for b, k := range syn {
				x[k] = m>>b&1 == 1
			}
			if x[i] {
				continue
			}
			before := grounding.Value(c.Eval(x, nil), root)
			x[i] = true
			after := grounding.Value(c.Eval(x, nil), root)
			x[i] = false
			if after != before {
				supp = append(supp, i)
				break
			}
		}
	}
	return supp, true
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
			coneInputs := func(j int) ([]int32, bool) {
				if j%3 == 0 {
					return nil, false
				}
				var ins []int32
				for _, i := range c.Support(roots[j]) {
					ins = append(ins, int32(i))
				}
				return ins, true
			}
			dep, words, err := famSupport(context.Background(), c, roots, 1<<30, workers, uint64(it), coneInputs)
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
				want, ok := exactSupportSmall(c, r)
				if !ok {
					continue
				}
				checked++
				var got []int
				for i := range c.NumInputs {
					if dep[j*words+i/64]>>(i%64)&1 == 1 {
						got = append(got, i)
					}
				}
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
