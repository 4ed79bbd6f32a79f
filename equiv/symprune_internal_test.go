package equiv

import (
	"context"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

// TestPruneMovedChecksTouchedFunctions: at a root of Symmetries' coset
// search every mapped vertex is in fixed; pruneMoved must check exactly
// the functions next to a vertex the mapping moves (or to the image of
// one), which on tic-tac-toe under each generator of its graph group (a
// symmetry: nothing is refuted, so every candidate is checked) are fewer
// than all, and prune checks them all.
func TestPruneMovedChecksTouchedFunctions(t *testing.T) {
	p, _, _ := gameAndMutant(t, "ggp-base-repo/ticTacToe.kif")
	x := selfGame(t, p)
	g := x.g
	grp, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int32, g.Order())
	for v := range all {
		all[v] = int32(v)
	}
	if len(grp.Generators) == 0 {
		t.Fatal("tic-tac-toe's graph group has no generators")
	}
	for gi, sp := range grp.Generators {
		partial := isomorph.Mapping(sp.Dense(make(isomorph.Perm, g.Order())))
		s := selfSearch(t, x, true)
		if s.pruneMoved(partial, all) {
			t.Fatalf("generator %d: pruneMoved refutes a symmetry", gi)
		}
		want := 0
		for _, need := range s.need {
			for v := range need.All() {
				if partial[v] != v {
					want++
					break
				}
			}
		}
		if got := stamped(s); got != want {
			t.Errorf("generator %d: pruneMoved checked %d functions, want the %d next to a moved vertex", gi, got, want)
		}
		full := selfSearch(t, x, true)
		if full.prune(partial, all) {
			t.Fatalf("generator %d: prune refutes a symmetry", gi)
		}
		if got, all := stamped(s), stamped(full); got >= all {
			t.Errorf("generator %d: pruneMoved checked %d functions, prune %d: none skipped", gi, got, all)
		}
	}
}

// TestPruneMovedWitnessFirst: a function recorded as a witness for a
// moved vertex is checked before the others at a root: with the function
// that refutes a swap of two of tic-tac-toe's cells recorded, pruneMoved
// refutes the swap after checking that one function alone (without it,
// after others).
func TestPruneMovedWitnessFirst(t *testing.T) {
	p, _, _ := gameAndMutant(t, "ggp-base-repo/ticTacToe.kif")
	x := selfGame(t, p)
	g := x.g
	all := make([]int32, g.Order())
	partial := make(isomorph.Mapping, g.Order())
	for v := range all {
		all[v] = int32(v)
		partial[v] = int32(v)
	}
	// Swap the first and the last proposition.
	u, w := int32(g.PropVertex(0)), int32(g.PropVertex(len(p.Props)-1))
	partial[u], partial[w] = w, u
	s := selfSearch(t, x, true)
	if !s.pruneMoved(partial, all) {
		t.Fatal("pruneMoved does not refute the swap of two propositions")
	}
	refuter := int32(-1)
	for f, n := range s.failures {
		if n > 0 {
			refuter = int32(f)
		}
	}
	if stamped(s) < 2 || refuter < 0 {
		t.Fatalf("without witnesses pruneMoved checked %d functions (refuter %d), want the refuter after others", stamped(s), refuter)
	}
	s = selfSearch(t, x, true)
	s.witnesses = map[int32][]int32{w: {refuter}}
	if !s.pruneMoved(partial, all) {
		t.Fatal("pruneMoved with the witness does not refute the swap")
	}
	if got := stamped(s); got != 1 {
		t.Errorf("pruneMoved with the witness checked %d functions, want 1", got)
	}
}
