package equiv

import (
	"slices"
	"testing"
)

// TestInternLists: equal lists share one array, the contents stay.
func TestInternLists(t *testing.T) {
	ls := [][]int32{{1, 2, 3}, {1, 2}, nil, {1, 2, 3}, {3, 2, 1}, {1, 2}, {7}}
	want := make([][]int32, len(ls))
	for i, l := range ls {
		want[i] = slices.Clone(l)
	}
	internLists(ls)
	if !slices.EqualFunc(ls, want, slices.Equal) {
		t.Fatalf("contents changed: %v, want %v", ls, want)
	}
	if &ls[0][0] != &ls[3][0] || &ls[1][0] != &ls[5][0] {
		t.Error("equal lists do not share their array")
	}
	if &ls[0][0] == &ls[4][0] {
		t.Error("different lists share an array")
	}
	if cap(ls[0]) != len(ls[0]) {
		t.Error("a shared list has room to append into")
	}
}
