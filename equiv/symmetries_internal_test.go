package equiv

import (
	"testing"

	"github.com/gamequiv/gamequiv/satcheck"
)

// The rotations of a 4-cycle of propositions: generatorsOf must pick one
// generator (a quarter turn) and not a redundant second one.
func TestGeneratorsOf(t *testing.T) {
	rot := func(k int) satcheck.Mapping {
		m := satcheck.Mapping{Roles: []int{0}, Actions: [][]int{{0}}, Props: make([]int, 4)}
		for i := range m.Props {
			m.Props[i] = (i + k) % 4
		}
		return m
	}
	elems := []satcheck.Mapping{rot(0), rot(1), rot(2), rot(3)}
	if got := generatorsOf(elems, 4); len(got) != 1 {
		t.Fatalf("generatorsOf(C4) = %d generators, want 1", len(got))
	}
	// Starting with the half turn, a quarter turn is still needed: 2 generators.
	elems = []satcheck.Mapping{rot(2), rot(0), rot(1), rot(3)}
	if got := generatorsOf(elems, 4); len(got) != 2 {
		t.Fatalf("generatorsOf(C4 from half turn) = %d generators, want 2", len(got))
	}
}
