package isomorph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortByColor checks the radix sort of the colour partition against a
// comparison sort of (colour, vertex) keys.
func TestSortByColor(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	gens := []func(n int) int32{
		func(int) int32 { return 0 },
		func(int) int32 { return rng.Int32N(3) },
		func(int) int32 { return int32(rng.Uint32()) },
		func(int) int32 { return rng.Int32N(5000) - 2500 },
		func(int) int32 { return int32(rng.Uint32()) | 0x7ff },
		func(int) int32 { return int32(rng.Uint32() &^ 0x3fffff) },
	}
	for _, n := range []int{0, 1, 2, 5, 100, 3000} {
		for gi, gen := range gens {
			for _, presorted := range []bool{false, true} {
				colors := make([]int32, n)
				for v := range colors {
					colors[v] = gen(n)
				}
				if presorted {
					slices.Sort(colors)
				}
				want := make([]int32, n)
				for v := range want {
					want[v] = int32(v)
				}
				slices.SortStableFunc(want, func(a, b int32) int { return cmpInt32(colors[a], colors[b]) })
				got := make([]int32, n)
				sortByColor(colors, got, make([]int32, n))
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d gen=%d presorted=%v: got %v, want %v", n, gi, presorted, got[:min(n, 20)], want[:min(n, 20)])
				}
			}
		}
	}
}

func cmpInt32(a, b int32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
