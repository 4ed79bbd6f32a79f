package grounding_test

import (
	"fmt"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

func TestGroupBy(t *testing.T) {
	for _, tc := range []struct {
		xs   []int
		mod  int
		want string
	}{
		{nil, 2, "[]"},
		{[]int{0, 1, 2, 3, 4}, 2, "[[0 2 4] [1 3]]"},
		{[]int{5, 3, 4, 6}, 3, "[[5] [3 6] [4]]"},
	} {
		got := grounding.GroupBy(tc.xs, func(x int) int { return x % tc.mod })
		if s := fmt.Sprint(got); s != tc.want {
			t.Errorf("GroupBy(%v, mod %d) = %s, want %s", tc.xs, tc.mod, s, tc.want)
		}
	}
}
