package isomorph

import "testing"

// TestNodeAutomorphismChecksArcs checks that the shortcut below the first
// path keeps its candidate only when the arcs confirm it: with the arcs
// 0->1 and 2->3, the partitions (0 | 1 | 2 3) and (1 | 0 | 2 3) have the
// same non-singleton cell, but swapping 0 and 1 reverses an arc; swapping
// 2 and 3 as well is not tried (the shortcut fixes non-singleton cells),
// while with the arcs 0->2 and 1->2 the swap of 0 and 1 is kept.
func TestNodeAutomorphismChecksArcs(t *testing.T) {
	for _, tc := range []struct {
		name string
		arcs [][2]int32
		want bool
	}{
		{"reversed arc", [][2]int32{{0, 1}, {2, 3}}, false},
		{"swap", [][2]int32{{0, 2}, {1, 2}}, true},
	} {
		g, err := New(4, nil, tc.arcs)
		if err != nil {
			t.Fatal(err)
		}
		s := newSearcher(g, modeAut, Limits{})
		s.firstElems = []int32{0, 1, 2, 3}
		s.p.setCells([]int32{1, 0, 2, 3}, []int32{0, 1, 2})
		got, err := s.nodeAutomorphism()
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want || len(s.gens) != map[bool]int{false: 0, true: 1}[tc.want] {
			t.Errorf("%s: nodeAutomorphism = %v with %d generators, want %v", tc.name, got, len(s.gens), tc.want)
		}
	}
}
