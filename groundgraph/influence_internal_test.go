package groundgraph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// actionInfluenceDef is table.actionInfluence straight from its
// definition: for each action a, the weighted number of (row, choice c2)
// with f(row with a) ≠ f(row with c2), quadratic in the radix.
func actionInfluenceDef(t *table, ri, numActions int) []int64 {
	d := &t.roles[ri]
	byDigit := make([]int64, d.radix)
	span := d.stride * d.radix
	for base := 0; base < t.words; base += span {
		for off := range d.stride {
			w := base + off
			wo := t.wordWeight(w) / d.weight(0)
			for c := range d.radix {
				for c2 := range d.radix {
					x := t.bits[w+c*d.stride] ^ t.bits[w+c2*d.stride]
					for ; x != 0; x &= x - 1 {
						byDigit[c] += d.weight(c2) * wo
					}
				}
			}
		}
	}
	inf := make([]int64, numActions)
	for a := range inf {
		inf[a] = byDigit[d.digitOf(int32(a))] / t.scale
	}
	return inf
}

// randomTable returns a table of k propositions and the given roles (each
// reading read[i] of actions[i] actions), its bits set with probability
// density.
func randomTable(rng *rand.Rand, k int, read, actions []int, density float64) *table {
	t := &table{k: k, kk: max(k, 6)}
	t.scale = 1 << (t.kk - t.k)
	t.words = 1 << (t.kk - 6)
	for i := range read {
		var acts []int32
		for a := range read[i] {
			acts = append(acts, int32(2*a)) // every other action read
		}
		t.addRole(i, acts, actions[i])
	}
	t.setWeights()
	t.bits = make([]uint64, t.words)
	for i := range t.bits {
		for b := range 64 {
			if rng.Float64() < density {
				t.bits[i] |= 1 << b
			}
		}
	}
	return t
}

// TestActionInfluenceMatchesDefinition checks the bit-sliced action
// influences against the definition on random tables: roles with and
// without an "other" choice, inner and outer digits, sparse and dense words.
func TestActionInfluenceMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 12))
	for trial := range 200 {
		k := rng.IntN(9)
		nRoles := 1 + rng.IntN(2)
		read, actions := make([]int, nRoles), make([]int, nRoles)
		for i := range read {
			read[i] = 1 + rng.IntN(9)
			actions[i] = 2*read[i] + rng.IntN(3) - 1 // read actions are 0, 2, 4, ...
		}
		density := []float64{0.02, 0.5, 0.97}[trial%3]
		tb := randomTable(rng, k, read, actions, density)
		for ri := range tb.roles {
			got := tb.actionInfluence(ri, actions[ri])
			want := actionInfluenceDef(tb, ri, actions[ri])
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d role %d (read %v of %v): actionInfluence = %v, want %v", trial, ri, read, actions, got, want)
			}
		}
	}
}

// BenchmarkActionInfluence: a role of 300 read moves of 600 (two
// chinesecheckers-sized roles), 12 propositions, half the rows true.
func BenchmarkActionInfluence(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	tb := randomTable(rng, 12, []int{300}, []int{600}, 0.5)
	b.ResetTimer()
	for range b.N {
		tb.actionInfluence(0, 600)
	}
}
