package groundgraph

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// wideRandomCircuit: three layers of random ANDs over 65..200 inputs, random signs.
func wideRandomCircuit(rng *rand.Rand) (*grounding.Circuit, grounding.Lit) {
	n := 65 + rng.IntN(136)
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	sign := func(p int) grounding.Lit {
		if rng.IntN(p) == 0 {
			return 1
		}
		return 0
	}
	var l1, l2 []grounding.Lit
	for range n / 2 {
		var fs []grounding.Lit
		for range 1 + rng.IntN(4) {
			fs = append(fs, grounding.Lit(1+rng.IntN(n))<<1|sign(5))
		}
		l1 = append(l1, addGate(c, fs))
	}
	for range 2 + rng.IntN(6) {
		var fs []grounding.Lit
		for range 2 + rng.IntN(8) {
			fs = append(fs, l1[rng.IntN(len(l1))]|sign(2))
		}
		l2 = append(l2, addGate(c, fs))
	}
	var fs []grounding.Lit
	for _, g := range l2 {
		fs = append(fs, g|sign(2))
	}
	return c, addGate(c, fs) | sign(2)
}

// TestWideCoresSoundBruteForce: every set of at most 3 flips that changes the
// root holds one of flipCores' sets, for cores wider than one word.
func TestWideCoresSoundBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 71))
	checked, wide := 0, 0
	for trial := range 60 {
		c, root := wideRandomCircuit(rng)
		if trial%2 == 1 {
			c, root = wideLinesCircuit(rng)
		}
		cn, err := newCone(c, root)
		if err != nil {
			t.Fatal(err)
		}
		w := &cornersWork{cn: cn}
		for k, in := range cn.Inputs {
			if rng.IntN(20) == 0 {
				w.on = append(w.on, k)
			} else {
				w.props = append(w.props, in)
			}
		}
		anchor := rng.IntN(2) == 1
		pos, s, _, _, f0 := w.atAnchor(anchor)
		if len(pos) <= 64 {
			continue
		}
		bd := flipBounds(cn, s, pos, 4+1, maxBoundWords)
		for _, d := range []int{2, 3} {
			cores, ok := flipCores(cn, bd.val, pos, d)
			if !ok {
				continue
			}
			wide++
			// All sets of 1..d positions, 64*W lanes per simulation.
			const W = 16
			var batch [][]int
			flush := func() {
				if len(batch) == 0 {
					return
				}
				inputs := make([][]uint64, len(cn.Inputs))
				for k := range inputs {
					inputs[k] = make([]uint64, W)
					if slices.Contains(w.on, k) {
						fill(inputs[k], ^uint64(0))
					}
				}
				for _, k := range pos {
					if anchor {
						fill(inputs[k], ^uint64(0))
					}
				}
				for b, set := range batch {
					for _, j := range set {
						inputs[pos[j]][b/64] ^= 1 << (b % 64)
					}
				}
				out, _ := cn.Simulate(W, func(k int) []uint64 { return inputs[k] }, nil, nil)
				for b, set := range batch {
					if (out[b/64]>>(b%64)&1 == 1) == f0 {
						continue
					}
					m := make([]uint64, cores.w)
					for _, j := range set {
						m[j/64] |= 1 << (j % 64)
					}
					held := false
					for i := range cores.count() {
						held = held || subset(cores.at(i), m)
					}
					if !held {
						t.Fatalf("trial %d (n=%d, d=%d, anchor %v): changing set %v holds no core of %x", trial, len(pos), d, anchor, set, cores.sets)
					}
					checked++
				}
				batch = batch[:0]
			}
			for k := 1; k <= d; k++ {
				comb := firstComb(k)
				for {
					batch = append(batch, slices.Clone(comb))
					if len(batch) == 64*W {
						flush()
					}
					if !nextComb(comb, len(pos)) {
						break
					}
				}
			}
			flush()
		}
	}
	t.Logf("wide core families %d, changing sets checked %d", wide, checked)
	if wide < 20 || checked < 1000 {
		t.Errorf("too little exercised: %d families, %d sets", wide, checked)
	}
}

// TestWideCoresRunMatchesReference: run against runReference at d = 4 on wide circuits
// of 65..100 propositions (cores taken at level 4).
func TestWideCoresRunMatchesReference(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 12 {
		c, root := wideLinesCircuit(rng)
		if trial%2 == 1 {
			c, root = wideRandomCircuit(rng)
		}
		cn, err := newCone(c, root)
		if err != nil {
			t.Fatal(err)
		}
		if len(cn.Inputs) > 110 {
			continue
		}
		checkWideRuns(t, cn, 4, trial)
	}
}

// TestMinimalSetsHighBits: minimalSets on sets using all 64 bits of each word.
func TestMinimalSetsHighBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := range 3000 {
		w := 1 + trial%4
		sets := make([][]uint64, rng.IntN(60))
		for i := range sets {
			sets[i] = make([]uint64, w)
			for k := range w {
				// few members, anywhere in the word (bits 56..63 often)
				for range rng.IntN(3) {
					sets[i][k] |= 1 << (56 + rng.IntN(8))
				}
				if rng.IntN(4) == 0 {
					sets[i][k] |= 1 << rng.IntN(64)
				}
			}
		}
		want := bruteMinimalSets(sets)
		got := minimalSets(slices.Concat(sets...), w)
		if len(got) != len(want)*w {
			t.Fatalf("trial %d: %d sets, want %d", trial, len(got)/w, len(want))
		}
		for i := 0; i < len(got); i += w {
			if !slices.ContainsFunc(want, func(x []uint64) bool { return slices.Equal(x, got[i:i+w]) }) {
				t.Fatalf("trial %d: %x not minimal", trial, got[i:i+w])
			}
		}
	}
}
