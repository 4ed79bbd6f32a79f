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
	r1, q1, _ := s.root(g, x)
	r2, q2, _ := s.root(g, z)
	if r1 != r2 || q1^q2 != 1 {
		t.Fatalf("x and z: roots %d, %d, parities %d, %d; want one root, x == ¬z", r1, r2, q1, q2)
	}
	s.end()
	if g2 := s.begin([]int32{0, 1, 2}); g2 != g {
		t.Fatalf("a map that extends the store's emptied it")
	}
	s.end()
	for _, im := range [][]int32{{0, 2, 1}, {0, -1, 2}} {
		g = s.begin([]int32{0, 1, 2})
		s.end()
		if g2 := s.begin(im); g2 == g {
			t.Errorf("map %v after [0 1 2] kept the lemmas", im)
		}
		s.end()
		if r, _, _ := s.root(s.gen, x); r != x {
			t.Errorf("map %v: x still has a lemma", im)
		}
	}
	// The constant stays a root, and a stale generation changes nothing.
	g = s.begin([]int32{0, 1, 2})
	defer s.end()
	s.union(g, originFalse, x, 1)
	if r, q, _ := s.root(g, x); r != originFalse || q != 1 {
		t.Errorf("x after x == ¬false: root %d parity %d, want the constant, 1", r, q)
	}
	s.union(g-1, y, x, 0)
	if r, _, _ := s.root(g, y); r != y {
		t.Errorf("a union of an old generation was kept")
	}
}

// TestLemmaStoreConcurrentMaps: a sweep that begins under a larger map
// while another is active under a smaller one empties the store, so the
// active sweep reads no lemma the larger map proved (under the smaller
// map a B input the larger one identifies is free).
func TestLemmaStoreConcurrentMaps(t *testing.T) {
	var s lemmaStore
	x, y := originOf(0, 7), originOf(1, 9)
	small := s.begin([]int32{0, -1})
	large := s.begin([]int32{0, 1})
	if large == small {
		t.Fatalf("a second sweep under another map kept the active sweep's generation")
	}
	s.union(large, x, y, 0)
	if _, _, ok := s.root(small, x); ok {
		t.Errorf("the sweep under the smaller map still reads the store")
	}
	s.end()
	s.end()
	// One after the other, the larger map extends the smaller: kept.
	g := s.begin([]int32{0, -1})
	s.end()
	if g2 := s.begin([]int32{0, 1}); g2 != g {
		t.Errorf("a later sweep under an extending map emptied the store")
	}
	s.end()
}
