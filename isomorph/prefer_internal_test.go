package isomorph

import "testing"

// byParity prefers the vertices whose colour has the given parity.
type byParity struct {
	*Graph
	odd bool
}

func (p byParity) Preferred(v int) bool { return p.Graph.colors[v]%2 == 1 == p.odd }

// TestSamePreference: two graphs are compared with their preferences only
// if they prefer the same colours; otherwise find drops both, since
// canonical forms taken under different target-cell rules are not
// comparable.
func TestSamePreference(t *testing.T) {
	g, err := New(4, []int32{0, 0, 1, 1}, [][2]int32{{0, 1}, {2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	conv := func(d Digraph) *Graph {
		c, err := Convert(d)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	even, odd := conv(byParity{g, false}), conv(byParity{g, true})
	for _, tc := range []struct {
		name string
		g, h *Graph
		want bool
	}{
		{"same", even, conv(byParity{g, false}), true},
		{"different colours", even, odd, false},
		{"one without", even, g, false},
		{"both without", g, g, true},
	} {
		if got := samePreference(tc.g, tc.h); got != tc.want {
			t.Errorf("%s: samePreference = %v, want %v", tc.name, got, tc.want)
		}
	}
	if even.withoutPreference().prefer != nil || even.prefer == nil {
		t.Error("withoutPreference must drop the preference of a copy only")
	}
}
