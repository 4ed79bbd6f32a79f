package satcheck

import "testing"

// TestLemmaStoreExtends: lemmas stay while the input maps extend the
// store's, and go when one changes or unmaps an input it maps.
func TestLemmaStoreExtends(t *testing.T) {
	var s lemmaStore
	x, y, z := originOf(0, 7), originOf(1, 9), originOf(1, 12)
	g := s.begin([]int32{-1, 1, -1})
	s.union(g, x, y, 1) // x == ¬y
	s.union(g, z, y, 0) // z == y
	if r1, q1, _ := s.root(g, x); true {
		r2, q2, _ := s.root(g, z)
		if r1 != r2 || q1^q2 != 1 {
			t.Fatalf("x and z: roots %d, %d, parities %d, %d; want one root, x == ¬z", r1, r2, q1, q2)
		}
	}
	if g2 := s.begin([]int32{0, 1, 2}); g2 != g {
		t.Fatalf("a map that extends the store's emptied it")
	}
	for _, im := range [][]int32{{0, 2, 1}, {0, -1, 2}} {
		g = s.begin([]int32{0, 1, 2})
		if g2 := s.begin(im); g2 == g {
			t.Errorf("map %v after [0 1 2] kept the lemmas", im)
		}
		if r, _, _ := s.root(s.gen, x); r != x {
			t.Errorf("map %v: x still has a lemma", im)
		}
	}
	// The constant stays a root, and a stale generation changes nothing.
	g = s.begin([]int32{0, 1, 2})
	s.union(g, originFalse, x, 1)
	if r, q, _ := s.root(g, x); r != originFalse || q != 1 {
		t.Errorf("x after x == ¬false: root %d parity %d, want the constant, 1", r, q)
	}
	s.union(g-1, y, x, 0)
	if r, _, _ := s.root(g, y); r != y {
		t.Errorf("a union of an old generation was kept")
	}
}
