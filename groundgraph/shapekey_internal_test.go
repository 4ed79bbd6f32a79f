package groundgraph

import (
	"context"
	"hash/maphash"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestGroupByKey checks that groupByKey groups exactly by key, short and
// long keys alike, also when every long key's hash collides (the
// confirmation then tells them apart), and that it computes a long key a
// second time only when another key shares its hash and length.
func TestGroupByKey(t *testing.T) {
	long := func(c byte, n int) string {
		return strings.Repeat(string(c), maxShapeKeyBytes) + strings.Repeat("x", n)
	}
	keys := []string{
		"a", long('p', 1), "b", long('q', 1), long('p', 1), "a",
		long('p', 2), long('q', 1), long('r', 1), "b", long('p', 1), long('r', 2),
	}
	var want []int
	firstOf := map[string]int{}
	for k, key := range keys {
		if _, ok := firstOf[key]; !ok {
			firstOf[key] = k
		}
		want = append(want, firstOf[key])
	}
	var wantReps []int
	for k, r := range want {
		if r == k {
			wantReps = append(wantReps, k)
		}
	}
	for _, collide := range []bool{false, true} {
		if collide {
			defer func(old func(maphash.Seed, string) uint64) { shapeSum = old }(shapeSum)
			shapeSum = func(maphash.Seed, string) uint64 { return 7 }
		}
		var mu sync.Mutex
		calls := make([]int, len(keys))
		repOf, reps, err := groupByKey(context.Background(), len(keys), 2, func(k int) (string, error) {
			mu.Lock()
			calls[k]++
			mu.Unlock()
			return keys[k], nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(repOf, want) || !slices.Equal(reps, wantReps) {
			t.Errorf("collide=%v: groupByKey = %v, %v, want %v, %v", collide, repOf, reps, want, wantReps)
		}
		if !collide {
			// Keys 1, 4 and 10 share one long key, 3 and 7 another: their
			// groups are confirmed; short keys and unshared long ones are
			// computed once.
			wantCalls := []int{1, 2, 1, 2, 2, 1, 1, 2, 1, 1, 2, 1}
			if !slices.Equal(calls, wantCalls) {
				t.Errorf("keyOf calls = %v, want %v", calls, wantCalls)
			}
		}
	}
}
