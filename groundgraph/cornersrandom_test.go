package groundgraph

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// thresholdCircuit returns a circuit that is true when at least th of the
// inputs sel (with signs) hold: a running count, like Othello's piece
// counts, so that most points near an anchor change it or none does.
func thresholdCircuit(c *grounding.Circuit, sel []grounding.Lit, th int) grounding.Lit {
	// at[j]: at least j of the inputs so far hold; at[0] is true.
	tru := grounding.Lit(1) // node 0 negated
	at := []grounding.Lit{tru}
	for _, x := range sel {
		next := []grounding.Lit{tru}
		for j := 1; j <= min(len(at), th); j++ {
			// at[j] or (x and at[j-1]), as an AND of negations.
			carry := addGate(c, []grounding.Lit{x, at[j-1]})
			if j < len(at) {
				next = append(next, addGate(c, []grounding.Lit{at[j] ^ 1, carry ^ 1})^1)
			} else {
				next = append(next, carry)
			}
		}
		at = next
	}
	if th < len(at) {
		return at[th]
	}
	return tru ^ 1
}

// randomCornerFunc returns a random circuit of 2..40 inputs of one of
// several kinds: random gates, lines, thresholds, and combinations.
// randomCornersWork returns a cornersWork on a random function
// (randomCornerFunc) whose cone inputs are each left out (1 in 8), fixed
// on (1 in 8) or a proposition.
func randomCornersWork(t *testing.T, rng *rand.Rand) *cornersWork {
	t.Helper()
	c, root := randomCornerFunc(rng)
	cn, err := newCone(c, root)
	if err != nil {
		t.Fatal(err)
	}
	w := &cornersWork{cn: cn}
	for k, in := range cn.Inputs {
		switch rng.IntN(8) {
		case 0:
		case 1:
			w.on = append(w.on, k)
		default:
			w.props = append(w.props, in)
		}
	}
	return w
}

func randomCornerFunc(rng *rand.Rand) (*grounding.Circuit, grounding.Lit) {
	kind := rng.IntN(4)
	if kind == 0 {
		return randomCircuit(rng)
	}
	if kind == 1 {
		return linesCircuit(rng)
	}
	n := 2 + rng.IntN(39)
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	lit := func(i int) grounding.Lit { return grounding.Lit(1+i)<<1 | grounding.Lit(rng.IntN(4)/3) }
	var parts []grounding.Lit
	for range 1 + rng.IntN(3) {
		var sel []grounding.Lit
		for _, i := range rng.Perm(n)[:1+rng.IntN(n)] {
			sel = append(sel, lit(i))
		}
		switch rng.IntN(3) {
		case 0:
			parts = append(parts, thresholdCircuit(c, sel, rng.IntN(len(sel)+2)))
		case 1:
			// A line: an AND of a few inputs.
			parts = append(parts, addGate(c, sel[:min(len(sel), 1+rng.IntN(5))]))
		default:
			// A random gate over inputs and earlier parts.
			fs := sel[:min(len(sel), 1+rng.IntN(4))]
			for _, q := range parts {
				if rng.IntN(2) == 0 {
					fs = append(fs, q^grounding.Lit(rng.IntN(2)))
				}
			}
			parts = append(parts, addGate(c, fs))
		}
	}
	for i := range parts {
		parts[i] ^= grounding.Lit(rng.IntN(2))
	}
	return c, addGate(c, parts) ^ grounding.Lit(rng.IntN(2))
}

// TestCornersReferenceRandom compares run with runReference on random
// functions (random gates, lines, running-count thresholds) with random
// semantic propositions, fixed inputs, radii and corner caps: the flip
// bounds, cores and families that run skips work with must never change
// its corners.
func TestCornersReferenceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 77))
	trials := 3000
	if testing.Short() {
		trials = 600
	}
	for trial := range trials {
		w := randomCornersWork(t, rng)
		if len(w.props) == 0 {
			continue
		}
		// Up to fullCornerWeight: runReference searches every level.
		w.d = 1 + rng.IntN(min(fullCornerWeight, len(w.props)+1))
		for w.d > 1 && ballPoints(len(w.props), w.d) > 1<<16 {
			w.d--
		}
		w.max = []int{1, 3, 20, DefaultMaxCorners}[rng.IntN(4)]
		for _, anchor := range []bool{false, true} {
			c1, t1, e1 := w.run(context.Background(), anchor)
			c2, t2, e2 := w.runReference(context.Background(), anchor)
			if e1 != nil || e2 != nil || t1 != t2 || !reflect.DeepEqual(c1, c2) {
				t.Fatalf("trial %d anchor %v d %d max %d: run = %v %v %v, reference %v %v %v",
					trial, anchor, w.d, w.max, c1, t1, e1, c2, t2, e2)
			}
		}
	}
}
