package isomorph_test

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

// blowUp returns a random graph made of classes of twins: a random base
// digraph on k vertices whose vertex i becomes a class of 1..3 vertices;
// arcs between two classes follow the base arc, and inside a class the
// arcs between distinct vertices are all present or all absent. Self-loops
// are put on all, none or (to catch a wrong freeness test) some vertices of
// a class. Such graphs have many free cells, the cells whose vertices the
// search permutes freely without branching.
func blowUp(tb testing.TB, rng *rand.Rand, maxN int) *isomorph.Graph {
	var class []int
	for len(class) < maxN {
		size := 1 + rng.IntN(3)
		c := 0
		if len(class) > 0 {
			c = class[len(class)-1] + 1
		}
		for j := 0; j < size && len(class) < maxN; j++ {
			class = append(class, c)
		}
	}
	k := class[len(class)-1] + 1
	n := len(class)
	base := make([][]bool, k)
	inside := make([]bool, k)
	loops := make([]int, k) // 0 none, 1 all, 2 some
	colour := make([]int32, k)
	for i := range base {
		base[i] = make([]bool, k)
		for j := range base[i] {
			base[i][j] = rng.IntN(2) == 0
		}
		inside[i] = rng.IntN(2) == 0
		loops[i] = rng.IntN(3)
		colour[i] = int32(rng.IntN(2))
	}
	colors := make([]int32, n)
	var arcs [][2]int32
	for u := 0; u < n; u++ {
		colors[u] = colour[class[u]]
		for v := 0; v < n; v++ {
			cu, cv := class[u], class[v]
			var arc bool
			switch {
			case u == v:
				arc = loops[cu] == 1 || loops[cu] == 2 && rng.IntN(2) == 0
			case cu == cv:
				arc = inside[cu]
			default:
				arc = base[cu][cv]
			}
			if arc {
				arcs = append(arcs, [2]int32{int32(u), int32(v)})
			}
		}
	}
	return mustNew(tb, n, colors, arcs)
}

// TestFreeCellsBrute checks, on twin-rich graphs, the group order against
// brute force, the strong generating set (Elements and Contains), and that
// certificates tell isomorphic and non-isomorphic pairs apart.
func TestFreeCellsBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	iso, non := 0, 0
	for i := 0; i < 400; i++ {
		g := blowUp(t, rng, 1+rng.IntN(8))
		n := g.Order()
		want := bruteAutCount(g)
		for mode, gr := range bothGroups(t, g) {
			if !gr.Order.IsInt64() || gr.Order.Int64() != want {
				t.Fatalf("graph %d (n=%d arcs=%v colours=%v): %s order %v, brute force %d", i, n, arcsOf(g), colorsOf(g), mode, gr.Order, want)
			}
			checkGroup(t, g, gr)
		}
		h := relabel(t, g, randPerm(rng, n))
		if i%2 == 1 {
			h = moveArc(t, rng, h)
		}
		wantIso := bruteIsomorphic(g, h)
		if got := sameCertificate(t, g, h); got != wantIso {
			t.Fatalf("graph %d (arcs %v, relabelled %v): certificates equal = %v, want %v", i, arcsOf(g), arcsOf(h), got, wantIso)
		}
		m, err := isomorph.Find(ctx, g, h, isomorph.Limits{})
		switch {
		case wantIso && (err != nil || !isomorph.IsIsomorphism(g, h, m)):
			t.Fatalf("graph %d: Find = %v, %v; want an isomorphism", i, m, err)
		case !wantIso && !errors.Is(err, isomorph.ErrNotIsomorphic):
			t.Fatalf("graph %d: Find = %v, %v; want ErrNotIsomorphic", i, m, err)
		}
		if wantIso {
			iso++
		} else {
			non++
		}
	}
	if iso < 100 || non < 100 {
		t.Errorf("only %d isomorphic and %d non-isomorphic pairs", iso, non)
	}
}

// TestFreeCellsShortcut checks that free cells cost no branching: the
// search of a star with n leaves, or of n isolated vertices, is one node,
// and its group order is n!.
func TestFreeCellsShortcut(t *testing.T) {
	const n = 2000
	var star [][2]int32
	for v := int32(1); v <= n; v++ {
		star = append(star, [2]int32{0, v}, [2]int32{v, 0})
	}
	for _, tc := range []struct {
		name string
		g    *isomorph.Graph
	}{
		{"star", mustNew(t, n+1, nil, star)},
		{"empty", mustNew(t, n, nil, nil)},
	} {
		gr, err := isomorph.Automorphisms(ctx, tc.g, isomorph.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if gr.Order.Cmp(factorial(n)) != 0 {
			t.Errorf("%s: order %v, want %d!", tc.name, gr.Order, n)
		}
		if gr.Stats.Nodes != 1 || len(gr.Generators) != n-1 || len(gr.Base) != n-1 {
			t.Errorf("%s: %d nodes, %d generators, base of %d; want 1, %d, %d", tc.name, gr.Stats.Nodes, len(gr.Generators), len(gr.Base), n-1, n-1)
		}
		// The generators are n-1 transpositions, two points and two
		// images each, whatever the order of the graph: a budget of
		// exactly that many words suffices, one word less stops the
		// search.
		words := int64(4 * (n - 1))
		if _, err := isomorph.Automorphisms(ctx, tc.g, isomorph.Limits{MaxGenWords: words}); err != nil {
			t.Errorf("%s: with a generator budget of exactly %d words: %v", tc.name, words, err)
		}
		_, err = isomorph.Automorphisms(ctx, tc.g, isomorph.Limits{MaxGenWords: words - 1})
		var le *isomorph.LimitError
		if !errors.As(err, &le) || le.What != "generator words" || le.Got != words {
			t.Errorf("%s: with a generator budget of %d words: %v, want a generator-words LimitError at %d", tc.name, words-1, err, words)
		}
	}
}

// TestIndependentSwaps checks that a symmetry acting on few cells is found
// at the first node below the first path: k coloured copies of the path
// a'-a-m-b-b' each have one reflection, which fixes the other copies, so
// the search needs about two nodes per copy rather than k^2/2.
func TestIndependentSwaps(t *testing.T) {
	const k = 40
	colors := make([]int32, 0, 5*k)
	var edges [][2]int32
	for i := int32(0); i < k; i++ {
		a1, a, m, b, b1 := 5*i, 5*i+1, 5*i+2, 5*i+3, 5*i+4
		colors = append(colors, i, i, i, i, i)
		edges = append(edges, [2]int32{a1, a}, [2]int32{a, m}, [2]int32{m, b}, [2]int32{b, b1})
	}
	g := mustNew(t, 5*k, colors, undirected(edges))
	for mode, gr := range bothGroups(t, g) {
		want := new(big.Int).Lsh(big.NewInt(1), k)
		if gr.Order.Cmp(want) != 0 {
			t.Errorf("%s: order %v, want 2^%d", mode, gr.Order, k)
		}
		checkGroup(t, g, gr)
		if gr.Stats.Nodes > 2*k+1 {
			t.Errorf("%s: %d search nodes, want at most %d", mode, gr.Stats.Nodes, 2*k+1)
		}
	}
}

// bothGroups returns the automorphism group of g as found by Automorphisms
// and by Canonize, by function name.
func bothGroups(t *testing.T, g *isomorph.Graph) map[string]*isomorph.Group {
	t.Helper()
	a, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{})
	if err != nil {
		t.Fatalf("Automorphisms: %v", err)
	}
	c, err := isomorph.Canonize(ctx, g, isomorph.Limits{})
	if err != nil {
		t.Fatalf("Canonize: %v", err)
	}
	return map[string]*isomorph.Group{"Automorphisms": a, "Canonize": c.Group}
}

// TestInterchangeableParts checks the shortcut below the first path when
// the automorphism swaps two parts of the graph: k copies of the directed
// path a->b->c have the group Sym(k), and the transposition of two copies
// moves one vertex in each remaining cell, which the shortcut finds at the
// first node below the first path instead of at a leaf (59 nodes instead
// of 465).
func TestInterchangeableParts(t *testing.T) {
	const k = 30
	var arcs [][2]int32
	for i := int32(0); i < k; i++ {
		arcs = append(arcs, [2]int32{3 * i, 3*i + 1}, [2]int32{3*i + 1, 3*i + 2})
	}
	g := mustNew(t, 3*k, nil, arcs)
	for mode, gr := range bothGroups(t, g) {
		if gr.Order.Cmp(factorial(k)) != 0 {
			t.Errorf("%s: order %v, want %d!", mode, gr.Order, k)
		}
		checkGroup(t, g, gr)
		if gr.Stats.Nodes > 2*k {
			t.Errorf("%s: %d search nodes, want at most %d", mode, gr.Stats.Nodes, 2*k)
		}
	}
}
