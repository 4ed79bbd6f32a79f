package isomorph_test

import (
	"context"
	"iter"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

// preferring is a graph with a vertex preference (isomorph.Preferrer).
type preferring struct {
	*isomorph.Graph
	pref func(v int) bool
}

func (p preferring) Preferred(v int) bool { return p.pref(v) }

// byColour prefers the vertices of even colour: a function of the colour.
func byColour(g *isomorph.Graph) preferring {
	return preferring{g, func(v int) bool { return g.Color(v)%2 == 0 }}
}

func count(t *testing.T, seq iter.Seq2[isomorph.Mapping, error]) int {
	t.Helper()
	k := 0
	for _, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		k++
	}
	return k
}

// TestPreferenceKeepsResults: a preference changes which cells the
// searches individualize, never what they find: group orders (checked by
// brute force), canonical forms of relabelled copies and the number of
// isomorphisms stay those of the graph without it.
func TestPreferenceKeepsResults(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(17, 3))
	for i := range 60 {
		n := 3 + rng.IntN(5)
		g := randomGraph(t, rng, n, 0.35, 1+rng.IntN(3), i%2 == 0)
		h := relabel(t, g, randPerm(rng, n))
		pg, ph := byColour(g), byColour(h)

		want := bruteAutCount(g)
		grp, err := isomorph.Automorphisms(ctx, pg, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !grp.Order.IsInt64() || grp.Order.Int64() != want {
			t.Fatalf("graph %d: order with preference %v, brute force %d", i, grp.Order, want)
		}
		_, cg, err := isomorph.Canonical(ctx, pg, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		_, ch, err := isomorph.Canonical(ctx, ph, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !cg.Equal(ch) {
			t.Fatalf("graph %d: relabelled copies have different certificates under the preference", i)
		}
		m, err := isomorph.Find(ctx, pg, ph, isomorph.Limits{})
		if err != nil {
			t.Fatalf("graph %d: Find with preference: %v", i, err)
		}
		if !isomorph.IsIsomorphism(g, h, m) {
			t.Fatalf("graph %d: Find with preference returned a non-isomorphism", i)
		}
		with := count(t, isomorph.Search(ctx, pg, ph, isomorph.Limits{}, nil))
		without := count(t, isomorph.Search(ctx, g, h, isomorph.Limits{}, nil))
		if int64(with) != want || without != with {
			t.Fatalf("graph %d: Search yields %d isomorphisms with preference, %d without, want %d", i, with, without, want)
		}
	}
}

// TestPreferenceTargetsPreferredCells: with a preference, the first
// individualized vertex is a preferred one although a larger cell of
// others exists; without it, the largest cell is the target.
func TestPreferenceTargetsPreferredCells(t *testing.T) {
	// A star of 6 leaves of colour 1 around centre 0 (colour 2), and a
	// directed 3-cycle of colour 0: cells {1..6} (largest) and {7,8,9}.
	arcs := [][2]int32{{7, 8}, {8, 9}, {9, 7}}
	colors := []int32{2, 1, 1, 1, 1, 1, 1, 0, 0, 0}
	for v := int32(1); v <= 6; v++ {
		arcs = append(arcs, [2]int32{0, v})
	}
	g := mustNew(t, 10, colors, arcs)
	first := func(d isomorph.Digraph) int32 {
		var v int32 = -1
		for _, err := range isomorph.SearchNodes(context.Background(), d, d, isomorph.Limits{}, func(n *isomorph.Node) bool {
			if n.Depth() == 1 && v < 0 {
				v = n.Fixed[0]
			}
			return false
		}) {
			if err != nil {
				t.Fatal(err)
			}
		}
		return v
	}
	if v := first(g); g.Color(int(v)) != 1 {
		t.Fatalf("without preference the first individualized vertex is %d (colour %d), want one of the largest cell", v, g.Color(int(v)))
	}
	if v := first(byColour(g)); g.Color(int(v)) != 0 {
		t.Fatalf("with preference the first individualized vertex is %d (colour %d), want a preferred one", v, g.Color(int(v)))
	}
}

// TestPreferenceNotByColourIgnored: a preference that two vertices of one
// colour disagree on would make the search depend on the numbering, so
// Convert drops it.
func TestPreferenceNotByColourIgnored(t *testing.T) {
	g := cycle(t, 5)
	pg, err := isomorph.Convert(preferring{g, func(v int) bool { return v == 0 }})
	if err != nil {
		t.Fatal(err)
	}
	for v := range 5 {
		if pg.Preferred(v) {
			t.Fatalf("vertex %d preferred by a preference that is not a function of the colour", v)
		}
	}
	ok, err := isomorph.Convert(byColour(g))
	if err != nil {
		t.Fatal(err)
	}
	if !ok.Preferred(0) {
		t.Fatal("a preference by colour was dropped")
	}
}
