package isomorph_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

// TestRenumbered: a renumbered graph has the renumbered colours and arcs,
// so the same certificate; a renumbering that is no permutation is an
// error.
func TestRenumbered(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		g := randomGraph(t, rng, 2+rng.IntN(12), 0.3, 3, rng.IntN(2) == 0)
		to := randPerm(rng, g.Order())
		h, err := isomorph.Renumbered(g, to)
		if err != nil {
			t.Fatal(err)
		}
		for v := range g.Order() {
			if h.Color(int(to[v])) != g.Color(v) {
				t.Fatalf("vertex %d: colour %d, renumbered %d", v, g.Color(v), h.Color(int(to[v])))
			}
		}
		if want := relabel(t, g, to); !sameArcs(h, want) {
			t.Fatalf("arcs of the renumbered graph differ")
		}
		cg, err := isomorph.Canonize(ctx, g, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		ch, err := isomorph.Canonize(ctx, h, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !cg.Certificate.Equal(ch.Certificate) {
			t.Fatal("renumbered graph has another certificate")
		}
	}
	g := randomGraph(t, rng, 4, 0.5, 2, true)
	for _, to := range [][]int32{{0, 1, 2}, {0, 1, 1, 2}, {0, 1, 2, 4}, {0, 1, 2, -1}} {
		if _, err := isomorph.Renumbered(g, to); err == nil {
			t.Errorf("Renumbered(%v) of 4 vertices: no error", to)
		}
	}
}

func sameArcs(a, b *isomorph.Graph) bool {
	if a.Order() != b.Order() {
		return false
	}
	for v := range a.Order() {
		if !slices.Equal(a.Out(v), b.Out(v)) {
			return false
		}
	}
	return true
}
