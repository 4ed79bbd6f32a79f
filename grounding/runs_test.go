package grounding_test

import (
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestRuns: the values come back in the order they were added, runs
// of consecutive values in one pair each.
func TestRuns(t *testing.T) {
	for _, tc := range []struct {
		in   []int32
		runs int
	}{
		{nil, 0},
		{[]int32{5}, 1},
		{[]int32{1, 2, 3, 4}, 1},
		{[]int32{4, 3, 2}, 3},
		{[]int32{7, 1, 2, 3, 9, 10, 2, 3}, 4},
		{[]int32{0, 0, 1}, 2},
	} {
		var r grounding.Runs
		for _, x := range tc.in {
			r = r.Add(x)
		}
		if got := r.AppendTo(nil); !slices.Equal(got, tc.in) {
			t.Errorf("%v: appendTo gives %v", tc.in, got)
		}
		if got := slices.Collect(r.All()); !slices.Equal(got, tc.in) {
			t.Errorf("%v: all gives %v", tc.in, got)
		}
		if r.Len() != len(tc.in) {
			t.Errorf("%v: Len %d", tc.in, r.Len())
		}
		if len(r) != 2*tc.runs {
			t.Errorf("%v: %d runs, want %d", tc.in, len(r)/2, tc.runs)
		}
	}
}
