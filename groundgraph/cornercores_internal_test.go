package groundgraph

import (
	"cmp"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMinimalSets compares minimalSets with its definition on random
// families of small sets over few members (many duplicates and subsets).
func TestMinimalSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		sets := make([]uint64, rng.IntN(40))
		for i := range sets {
			sets[i] = rng.Uint64() & rng.Uint64() & rng.Uint64() & 0xff
		}
		var want []uint64
		for _, s := range sets {
			minimal := true
			for _, t := range sets {
				if t&^s == 0 && t != s {
					minimal = false
				}
			}
			if minimal && !slices.Contains(want, s) {
				want = append(want, s)
			}
		}
		slices.SortFunc(want, func(a, b uint64) int {
			return cmp.Or(cmp.Compare(bits.OnesCount64(a), bits.OnesCount64(b)), cmp.Compare(a, b))
		})
		in := slices.Clone(sets)
		if got := minimalSets(in); !slices.Equal(got, want) {
			t.Fatalf("trial %d: minimalSets(%x) = %x, want %x", trial, sets, got, want)
		}
	}
}
