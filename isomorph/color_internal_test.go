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

// TestSortPositions checks the radix sort of touched cell positions against
// slices.Sort, on both sides of its comparison-sort cut-off and for
// partitions that need one, two and three digits.
func TestSortPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var scratch []int32
	for _, n := range []int32{1, 2, 300, 2048, 2049, 70000, 1 << 23} {
		for _, l := range []int{0, 1, 2, 256, 257, 5000} {
			a := make([]int32, l)
			for i := range a {
				a[i] = rng.Int32N(n)
			}
			want := slices.Sorted(slices.Values(a))
			scratch = sortPositions(a, scratch, n)
			if !slices.Equal(a, want) {
				t.Fatalf("n=%d len=%d: sortPositions gave %v..., want %v...", n, l, a[:min(l, 8)], want[:min(l, 8)])
			}
		}
	}
}
