package groundgraph

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestMinimalSets compares minimalSets with its definition on random
// families of small sets over few members (many duplicates and subsets),
// one to three words wide (members spread over the words' low bytes).
func TestMinimalSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		w := 1 + trial%3
		sets := make([][]uint64, rng.IntN(40))
		for i := range sets {
			sets[i] = make([]uint64, w)
			for k := range w {
				sets[i][k] = rng.Uint64() & rng.Uint64() & rng.Uint64() & rng.Uint64() & 0xff
			}
		}
		want := bruteMinimalSets(sets)
		slices.SortFunc(want, func(a, b []uint64) int {
			return cmp.Or(cmp.Compare(setSize(a), setSize(b)), slices.Compare(reversed(a), reversed(b)))
		})
		in := slices.Concat(sets...)
		if got := minimalSets(slices.Clone(in), w); !slices.Equal(got, slices.Concat(want...)) {
			t.Fatalf("trial %d: minimalSets(%x, %d) = %x, want %x", trial, in, w, got, want)
		}
	}
}

// bruteMinimalSets returns the distinct sets of sets that hold no other
// set of sets, by the definition.
func bruteMinimalSets(sets [][]uint64) [][]uint64 {
	var want [][]uint64
	for _, s := range sets {
		minimal := true
		for _, t := range sets {
			if !slices.Equal(t, s) && wordsSubset(t, s) {
				minimal = false
			}
		}
		if minimal && !slices.ContainsFunc(want, func(x []uint64) bool { return slices.Equal(x, s) }) {
			want = append(want, s)
		}
	}
	return want
}

// wordsSubset reports t ⊆ s by members.
func wordsSubset(t, s []uint64) bool {
	for k := range t {
		for j := range 64 {
			if t[k]>>j&1 == 1 && s[k]>>j&1 == 0 {
				return false
			}
		}
	}
	return true
}

func reversed(a []uint64) []uint64 {
	r := slices.Clone(a)
	slices.Reverse(r)
	return r
}

// TestWideCores checks corner searches whose flip cores take more than
// one word (more than 64 semantic propositions) against runReference on
// random lines circuits, and that the cores were computed and used.
func TestWideCores(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	wide, used, levels := 0, 0, 0
	for trial := range 20 {
		c, root := wideLinesCircuit(rng)
		cn, err := newCone(c, root)
		if err != nil {
			t.Fatal(err)
		}
		cw, cu, cl := checkWideRuns(t, cn, 3, trial)
		wide, used, levels = wide+cw, used+cu, levels+cl
	}
	if wide < 35 || used < 12 || levels == 0 {
		t.Errorf("wide cores computed %d times, %d of them few, %d levels evaluated on them: the test no longer exercises them", wide, used, levels)
	}
	t.Logf("%d levels evaluated on wide cores", levels)
}

// checkWideRuns runs the corner search on cn at depth d from both anchors
// and fails unless run and runReference agree. It returns how often flip
// cores wider than a word were computed, how often some were found, and how
// many levels run evaluated on them.
func checkWideRuns(t *testing.T, cn *cone, d, trial int) (wide, used, levels int) {
	t.Helper()
	w := &cornersWork{cn: cn, d: d, max: DefaultMaxCorners}
	w.props = slices.Clone(cn.Inputs)
	for _, anchor := range []bool{false, true} {
		pos, s, _, _, _ := w.atAnchor(anchor)
		bd := flipBounds(cn, s, pos, w.d+1, maxBoundWords)
		if cores, ok := flipCores(cn, bd.val, pos, w.d); ok && cores.w > 1 {
			wide++
			if cores.count() > 0 {
				used++
			}
		}
		before := w.wideLevels
		c1, t1, e1 := w.run(context.Background(), anchor)
		levels += w.wideLevels - before
		c2, t2, e2 := w.runReference(context.Background(), anchor)
		if e1 != nil || e2 != nil || t1 != t2 || !slices.EqualFunc(c1, c2, slices.Equal) {
			t.Fatalf("trial %d (%d propositions, d = %d) anchor %v: run = %d corners %v %v, reference %d %v %v",
				trial, len(w.props), w.d, anchor, len(c1), t1, e1, len(c2), t2, e2)
		}
	}
	return wide, used, levels
}

// wideLinesCircuit returns a circuit over 92..125 inputs (level 3 is
// the first whose bases fill a batch, where run takes the cores): for each of two
// halves of the inputs, whether no line holds (a line is an AND of 2 to 4
// of the half's inputs, mostly positive; the lines cover the half, and a
// few more are random), then the AND of both, of random sign.
func wideLinesCircuit(rng *rand.Rand) (*grounding.Circuit, grounding.Lit) {
	n := 92 + rng.IntN(34)
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	in := rng.Perm(n)
	lit := func(x int) grounding.Lit {
		if rng.IntN(8) == 0 {
			return grounding.Lit(1+x)<<1 | 1
		}
		return grounding.Lit(1+x) << 1
	}
	var top []grounding.Lit
	for g := range 2 {
		members := in[g*n/2 : (g+1)*n/2]
		var noLine []grounding.Lit
		for i := 0; i < len(members); {
			var fs []grounding.Lit
			for range 2 + rng.IntN(3) {
				fs = append(fs, lit(members[i%len(members)]))
				i++
			}
			noLine = append(noLine, addGate(c, fs)|1)
		}
		for range rng.IntN(8) {
			var fs []grounding.Lit
			for range 2 + rng.IntN(3) {
				fs = append(fs, lit(members[rng.IntN(len(members))]))
			}
			noLine = append(noLine, addGate(c, fs)|1)
		}
		top = append(top, addGate(c, noLine))
	}
	return c, addGate(c, top) | grounding.Lit(rng.IntN(2))
}
