package isomorph

import (
	"math/rand/v2"
	"testing"
)

// TestNodeAutomorphismChecksArcs checks the shortcut below the first path
// on hand-made partitions. The first path's partition is first, the
// current one cur (cells starting at starts in both); the candidate maps
// singletons by position, keeps the vertices common to two cells at the
// same position and maps the one differing vertex of each onto the other.
// It must be kept exactly when the arcs confirm it.
func TestNodeAutomorphismChecksArcs(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n          int
		arcs       [][2]int32
		first, cur []int32
		starts     []int32
		want       bool
	}{
		// (0 | 1 | 2 3) and (1 | 0 | 2 3): swapping 0 and 1 reverses 0->1.
		{"reversed arc", 4, [][2]int32{{0, 1}, {2, 3}}, []int32{0, 1, 2, 3}, []int32{1, 0, 2, 3}, []int32{0, 1, 2}, false},
		{"swap", 4, [][2]int32{{0, 2}, {1, 2}}, []int32{0, 1, 2, 3}, []int32{1, 0, 2, 3}, []int32{0, 1, 2}, true},
		// Three arcs 0->1, 2->3, 4->5; (0 | 1 | 2 4 | 3 5) and
		// (2 | 3 | 0 4 | 1 5): the candidate swaps the first two arcs.
		{"parts swapped", 6, [][2]int32{{0, 1}, {2, 3}, {4, 5}}, []int32{0, 1, 2, 4, 3, 5}, []int32{2, 3, 0, 4, 1, 5}, []int32{0, 1, 2, 4}, true},
		{"parts differ", 6, [][2]int32{{0, 1}, {2, 3}, {4, 3}}, []int32{0, 1, 2, 4, 3, 5}, []int32{2, 3, 0, 4, 1, 5}, []int32{0, 1, 2, 4}, false},
		// (0 | 1 | 2 3 | 4 5) and (0 | 1 | 4 5 | 2 3): two differing
		// vertices in a cell, no candidate (though swapping the arcs 2->3
		// and 4->5 is an automorphism).
		{"two differ", 6, [][2]int32{{0, 1}, {2, 3}, {4, 5}}, []int32{0, 1, 2, 3, 4, 5}, []int32{0, 1, 4, 5, 2, 3}, []int32{0, 1, 2, 4}, false},
	} {
		g, err := New(tc.n, nil, tc.arcs)
		if err != nil {
			t.Fatal(err)
		}
		s := newSearcher(g, modeAut, Limits{})
		s.firstElems = tc.first
		s.p.setCells(tc.cur, tc.starts)
		// As if every cell had split off at the node.
		s.p.trail = append(s.p.trail, tc.starts[1:]...)
		got, err := s.nodeAutomorphism(0)
		if err != nil {
			t.Fatal(err)
		}
		wantGens := map[bool]int{false: 0, true: 1}[tc.want]
		if got != tc.want || len(s.gens) != wantGens {
			t.Errorf("%s: nodeAutomorphism = %v with %d generators, want %v", tc.name, got, len(s.gens), tc.want)
		}
		for _, gen := range s.gens {
			if !IsAutomorphism(g, gen.Dense(make(Perm, g.Order()))) {
				t.Errorf("%s: generator %v is not an automorphism", tc.name, gen)
			}
		}
	}
}

// TestIsAutomorphismMoved checks the search's arc test, which looks only at
// the moved vertices and their in-neighbours, against IsAutomorphism on
// random directed graphs and colour-blind transpositions and 3-cycles: a
// vertex that is fixed but points at a moved one must be checked too.
func TestIsAutomorphismMoved(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 12))
	agree, yes := 0, 0
	for trial := range 3000 {
		n := 2 + rng.IntN(7)
		var arcs [][2]int32
		for range rng.IntN(2 * n) {
			arcs = append(arcs, [2]int32{int32(rng.IntN(n)), int32(rng.IntN(n))})
		}
		g, err := New(n, nil, arcs)
		if err != nil {
			t.Fatal(err)
		}
		s := newSearcher(g, modeAut, Limits{})
		s.needScratch()
		p := make(Perm, n)
		for v := range p {
			p[v] = int32(v)
		}
		k := 2 + rng.IntN(min(2, n-1))
		pts := rng.Perm(n)[:k]
		for i, v := range pts {
			p[v] = int32(pts[(i+1)%k])
		}
		want := IsAutomorphism(g, p)
		if got := s.isAutomorphism(p); got != want {
			t.Fatalf("trial %d: isAutomorphism(%v) = %v on arcs %v, want %v", trial, p, got, arcs, want)
		}
		agree++
		if want {
			yes++
		}
	}
	if yes < 100 || agree-yes < 100 {
		t.Errorf("%d automorphisms among %d candidates: the test does not exercise both answers", yes, agree)
	}
}
