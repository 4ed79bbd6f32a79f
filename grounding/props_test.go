package grounding_test

import (
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

var splitPropTests = []struct {
	in   string
	rel  string
	args []string
	ok   bool
}{
	{"(cell 1 1 x)", "cell", []string{"1", "1", "x"}, true},
	{"(cell (pos a b) x)", "cell", []string{"(pos a b)", "x"}, true},
	{"p", "p", nil, true},
	{"(p)", "p", []string{}, true},
	{"(cell 1", "", nil, false},
	{"((a) b)", "", nil, false},
	{"(a b))", "", nil, false},
	{"", "", nil, false},
}

func TestSplitProp(t *testing.T) {
	for _, tc := range splitPropTests {
		rel, args, ok := grounding.SplitProp(tc.in)
		if ok != tc.ok || (ok && (rel != tc.rel || !slices.Equal(args, tc.args))) {
			t.Errorf("SplitProp(%q) = %q %q %v, want %q %q %v", tc.in, rel, args, ok, tc.rel, tc.args, tc.ok)
		}
	}
}
