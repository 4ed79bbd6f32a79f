package groundgraph

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gamequiv/gamequiv/gamegen"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// cornerPathResult is everything run reports for one anchor.
type cornerPathResult struct {
	Corners  [][]int
	TooMany  bool
	Counts   *cornerCounts
	WantMore bool
}

// cornerPaths runs the corner search of one function from both anchors
// (as searchCorners does, one cornersWork for both) on the circuit alone,
// with the BDD, and with a BDD bound of bddSmall nodes (which may make it
// fall back), and reports how they differ ("" when they agree) and
// whether the BDD path was taken.
func cornerPaths(cn *cone, props []int32, on []int, d, max, countProps, bddSmall int) (string, bool) {
	ctx := context.Background()
	mk := func(bddNodes int) *cornersWork {
		return &cornersWork{cn: cn.Clone(), props: props, d: d, max: max, on: on, countProps: countProps, bddNodes: bddNodes}
	}
	circ, bdd, small := mk(0), mk(1<<20), mk(bddSmall)
	usedBDD := false
	for _, anchor := range []bool{false, true} {
		var got [3]cornerPathResult
		for i, w := range []*cornersWork{circ, bdd, small} {
			cs, tm, err := w.run(ctx, anchor)
			if err != nil {
				return fmt.Sprintf("path %d anchor %v: %v", i, anchor, err), false
			}
			got[i] = cornerPathResult{cs, tm, w.counts, w.wantMore}
		}
		if circ.bdd != nil {
			return "the circuit path built a BDD", false
		}
		usedBDD = usedBDD || bdd.bdd != nil
		for i := 1; i < 3; i++ {
			if !reflect.DeepEqual(got[0], got[i]) {
				return fmt.Sprintf("anchor %v d %d max %d countProps %d: circuit %+v, BDD (path %d, bound %d) %+v",
					anchor, d, max, countProps, got[0], i, []int{0, 1 << 20, bddSmall}[i], got[i]), usedBDD
			}
		}
	}
	return "", usedBDD
}

// TestCornerBDDMatchesCircuit compares the BDD path of run with the
// circuit path on every function of small games (next functions with each
// role doing its first action), at several radii, corner caps and count
// settings: the corners, tooMany, counts and wantMore must be identical.
func TestCornerBDDMatchesCircuit(t *testing.T) {
	srcs := map[string][]byte{
		"connect3-4x4": gamegen.ConnectK(3, 4, 4),
		"connect4-5x4": gamegen.ConnectK(4, 5, 4),
	}
	for _, name := range []string{"ggp-base/tictactoe.kif", "ggp-base/checkLines.kif", "ggp-base/nim1.kif", "ggp-base/blocks.kif"} {
		if b, err := os.ReadFile(filepath.Join(testgames.Root(), name)); err == nil {
			srcs[name] = b
		}
	}
	rng := rand.New(rand.NewPCG(12, 9))
	funcs, viaBDD := 0, 0
	for name, src := range srcs {
		p, err := grounding.Load(context.Background(), name, src, grounding.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		g, err := Build(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ff := range g.Functions() {
			if ff.nProps == 0 {
				continue
			}
			cn, err := newCone(&p.Circuit, ff.Function.Lit)
			if err != nil {
				t.Fatal(err)
			}
			var props []int32
			for _, in := range ff.Support[:ff.nProps] {
				props = append(props, int32(in))
			}
			var on []int
			if ff.Function.Kind == grounding.FuncNext {
				for k, in := range cn.Inputs {
					if int(in) >= len(p.Props) {
						if _, a := p.InputOf(int(in)); a == 0 {
							on = append(on, k)
						}
					}
				}
			}
			dMax := 1
			for dMax < min(4, ff.nProps) && ballPoints(ff.nProps, dMax+1) <= 1<<14 {
				dMax++
			}
			for _, d := range []int{1 + rng.IntN(dMax), dMax} {
				caps := [][2]int{{2, 0}, {3, 256}, {DefaultMaxCorners, 256}}
				for _, mc := range [][2]int{caps[rng.IntN(3)]} {
					diff, used := cornerPaths(cn, props, on, d, mc[0], mc[1], 1+rng.IntN(64))
					if diff != "" {
						t.Fatalf("%s %s: %s", name, p.FunctionName(ff.Function), diff)
					}
					funcs++
					if used {
						viaBDD++
					}
				}
			}
		}
	}
	if viaBDD == 0 || viaBDD < funcs/2 {
		t.Fatalf("the BDD path ran on %d of %d searches", viaBDD, funcs)
	}
	t.Logf("%d searches, %d on the BDD", funcs, viaBDD)
}

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

// TestCornerBDDRandom compares the two paths of run on random functions.
func TestCornerBDDRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 77))
	trials := 3000
	if testing.Short() {
		trials = 600
	}
	viaBDD := 0
	for trial := range trials {
		c, root := randomCornerFunc(rng)
		if diff, used := randomCornerTrial(t, rng, c, root); diff != "" {
			t.Fatalf("trial %d: %s", trial, diff)
		} else if used {
			viaBDD++
		}
	}
	if viaBDD < trials/2 {
		t.Fatalf("the BDD path ran on %d of %d trials", viaBDD, trials)
	}
}

// randomCornerTrial runs both paths on the root of c with random
// semantic propositions, fixed inputs, radius and caps.
func randomCornerTrial(t testing.TB, rng *rand.Rand, c *grounding.Circuit, root grounding.Lit) (string, bool) {
	cn, err := newCone(c, root)
	if err != nil {
		t.Fatal(err)
	}
	var props []int32
	var on []int
	for k, in := range cn.Inputs {
		switch rng.IntN(8) {
		case 0:
		case 1:
			on = append(on, k)
		default:
			props = append(props, in)
		}
	}
	if len(props) == 0 {
		return "", false
	}
	d := 1 + rng.IntN(min(6, len(props)+1))
	for d > 1 && ballPoints(len(props), d) > 1<<16 {
		d--
	}
	maxC := []int{1, 3, 20, DefaultMaxCorners}[rng.IntN(4)]
	countProps := []int{0, 256}[rng.IntN(2)]
	return cornerPaths(cn, props, on, d, maxC, countProps, 1+rng.IntN(40))
}

// FuzzCornerBDD compares the two paths of run on random functions drawn
// from the fuzzer's seed.
func FuzzCornerBDD(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42} {
		f.Add(s, s*7)
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		rng := rand.New(rand.NewPCG(a, b))
		c, root := randomCornerFunc(rng)
		if diff, _ := randomCornerTrial(t, rng, c, root); diff != "" {
			t.Fatal(diff)
		}
	})
}
