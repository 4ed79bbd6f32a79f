package isomorph_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

var ctx = context.Background()

// familyTests are graphs with many automorphisms, used for isomorphism and
// certificate tests after a random relabelling.
var familyTests = []struct {
	name  string
	graph func(tb testing.TB) *isomorph.Graph
}{
	{"petersen", petersen},
	{"Q5", func(tb testing.TB) *isomorph.Graph { return hypercube(tb, 5) }},
	{"K9", func(tb testing.TB) *isomorph.Graph { return complete(tb, 9) }},
	{"C20", func(tb testing.TB) *isomorph.Graph { return cycle(tb, 20) }},
	{"dirC20", func(tb testing.TB) *isomorph.Graph { return dirCycle(tb, 20) }},
	{"empty12", func(tb testing.TB) *isomorph.Graph { return mustNew(tb, 12, nil, nil) }},
	{"paley29", func(tb testing.TB) *isomorph.Graph { return paley(tb, 29) }},
	{"cfiPrism6", func(tb testing.TB) *isomorph.Graph {
		nv, e := prismEdges(6)
		return cfi(tb, nv, e, false)
	}},
	{"tictactoe", func(tb testing.TB) *isomorph.Graph { return board(tb, 3, 3, 3) }},
	{"connect4", func(tb testing.TB) *isomorph.Graph { return board(tb, 6, 7, 4) }},
	{"2Q4+petersen", func(tb testing.TB) *isomorph.Graph {
		return union(tb, hypercube(tb, 4), petersen(tb), hypercube(tb, 4))
	}},
}

func TestFindRelabelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range familyTests {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.graph(t)
			for i := 0; i < 5; i++ {
				h := relabel(t, g, randPerm(rng, g.Order()))
				m, err := isomorph.Find(ctx, g, h, isomorph.Limits{})
				if err != nil {
					t.Fatalf("Find: %v", err)
				}
				if !isomorph.IsIsomorphism(g, h, m) {
					t.Fatalf("Find returned %v, not an isomorphism", m)
				}
				_, cg, err := isomorph.Canonical(ctx, g, isomorph.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				_, ch, err := isomorph.Canonical(ctx, h, isomorph.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if !cg.Equal(ch) {
					t.Fatalf("certificates differ for relabelled copies")
				}
			}
		})
	}
}

func TestFindRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 400; i++ {
		n := 1 + rng.IntN(60)
		g := randomGraph(t, rng, n, rng.Float64()*0.3, 1+rng.IntN(4), rng.IntN(2) == 0)
		h := relabel(t, g, randPerm(rng, n))
		m, err := isomorph.Find(ctx, g, h, isomorph.Limits{})
		if err != nil {
			t.Fatalf("graph %d: Find: %v", i, err)
		}
		if !isomorph.IsIsomorphism(g, h, m) {
			t.Fatalf("graph %d: Find returned a non-isomorphism", i)
		}
	}
}

// moveArc returns g with one random arc moved to a random non-arc.
func moveArc(tb testing.TB, rng *rand.Rand, g *isomorph.Graph) *isomorph.Graph {
	arcs := arcsOf(g)
	n := g.Order()
	if len(arcs) == 0 || len(arcs) == n*n {
		return g
	}
	i := rng.IntN(len(arcs))
	for {
		a := [2]int32{int32(rng.IntN(n)), int32(rng.IntN(n))}
		if !g.HasArc(int(a[0]), int(a[1])) {
			arcs[i] = a
			return mustNew(tb, n, colorsOf(g), arcs)
		}
	}
}

// TestFindBrute checks Find, Canonical and All against brute force on small
// graphs, half of them made by moving one arc of a relabelled copy.
func TestFindBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	iso, non := 0, 0
	for i := 0; i < 600; i++ {
		n := 1 + rng.IntN(8)
		g := randomGraph(t, rng, n, rng.Float64(), 1+rng.IntN(2), rng.IntN(2) == 0)
		h := relabel(t, g, randPerm(rng, n))
		if i%2 == 1 {
			h = moveArc(t, rng, h)
		}
		want := bruteIsomorphic(g, h)
		m, err := isomorph.Find(ctx, g, h, isomorph.Limits{})
		switch {
		case want && err != nil:
			t.Fatalf("graph %d: Find: %v, want an isomorphism", i, err)
		case want && !isomorph.IsIsomorphism(g, h, m):
			t.Fatalf("graph %d: Find returned a non-isomorphism", i)
		case !want && !errors.Is(err, isomorph.ErrNotIsomorphic):
			t.Fatalf("graph %d: Find = %v, %v; want ErrNotIsomorphic", i, m, err)
		}
		if got := sameCertificate(t, g, h); got != want {
			t.Fatalf("graph %d: certificates equal = %v, want %v", i, got, want)
		}
		// All and Search yield exactly the isomorphisms.
		var wantCount int64
		if want {
			gr, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			wantCount = gr.Order.Int64()
			iso++
		} else {
			non++
		}
		for _, name := range []string{"All", "Search"} {
			seq := isomorph.All(ctx, g, h, isomorph.Limits{})
			if name == "Search" {
				seq = isomorph.Search(ctx, g, h, isomorph.Limits{}, nil)
			}
			seen := map[string]bool{}
			for m, err := range seq {
				if err != nil {
					t.Fatalf("graph %d: %s: %v", i, name, err)
				}
				if !isomorph.IsIsomorphism(g, h, m) {
					t.Fatalf("graph %d: %s yielded a non-isomorphism", i, name)
				}
				k := string(int32sToBytes(m))
				if seen[k] {
					t.Fatalf("graph %d: %s yielded %v twice", i, name, m)
				}
				seen[k] = true
			}
			if got := int64(len(seen)); got != wantCount {
				t.Fatalf("graph %d: %s yielded %d isomorphisms, want %d", i, name, got, wantCount)
			}
		}
	}
	if iso < 100 || non < 100 {
		t.Errorf("only %d isomorphic and %d non-isomorphic pairs", iso, non)
	}
}

func TestCertificateColorValues(t *testing.T) {
	// Same colour classes, different colour values: not isomorphic.
	e := undirected(cycleEdges(5))
	g := mustNew(t, 5, []int32{1, 1, 2, 2, 2}, e)
	h := mustNew(t, 5, []int32{1, 1, 3, 3, 3}, e)
	k := mustNew(t, 5, []int32{3, 3, 1, 1, 1}, e)
	_, cg, _ := isomorph.Canonical(ctx, g, isomorph.Limits{})
	_, ch, _ := isomorph.Canonical(ctx, h, isomorph.Limits{})
	_, ck, _ := isomorph.Canonical(ctx, k, isomorph.Limits{})
	if cg.Equal(ch) || ch.Equal(ck) || cg.Equal(ck) {
		t.Errorf("certificates of differently coloured graphs are equal")
	}
	if _, err := isomorph.Find(ctx, g, h, isomorph.Limits{}); !errors.Is(err, isomorph.ErrNotIsomorphic) {
		t.Errorf("Find(differently coloured) = %v, want ErrNotIsomorphic", err)
	}
}

func TestCanonicalLabeling(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	g := board(t, 3, 3, 3)
	lab, cert, err := isomorph.Canonical(ctx, g, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// Relabelling g by its canonical labelling gives a graph with the same
	// certificate whose canonical labelling is an automorphism of it.
	c := relabel(t, g, lab)
	lab2, cert2, err := isomorph.Canonical(ctx, c, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !cert.Equal(cert2) {
		t.Fatal("certificate changed under the canonical relabelling")
	}
	if !isomorph.IsAutomorphism(c, lab2) {
		t.Fatal("canonical labelling of the canonical form is not an automorphism")
	}
	for i := 0; i < 10; i++ {
		h := relabel(t, g, randPerm(rng, g.Order()))
		labh, certh, err := isomorph.Canonical(ctx, h, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !cert.Equal(certh) {
			t.Fatal("certificate differs for a relabelled copy")
		}
		// Both canonical forms are the same graph.
		ch := relabel(t, h, labh)
		if !isomorph.IsIsomorphism(c, ch, identity(g.Order())) {
			t.Fatal("canonical forms of relabelled copies differ")
		}
	}
}

func identity(n int) isomorph.Mapping {
	m := make(isomorph.Mapping, n)
	for i := range m {
		m[i] = int32(i)
	}
	return m
}

func TestAllCountsAutomorphisms(t *testing.T) {
	for _, tc := range familyTests {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.graph(t)
			gr, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !gr.Order.IsInt64() || gr.Order.Int64() > 20000 {
				t.Skipf("|Aut| = %v too large to enumerate", gr.Order)
			}
			rng := rand.New(rand.NewPCG(11, 12))
			h := relabel(t, g, randPerm(rng, g.Order()))
			seen := map[string]bool{}
			for m, err := range isomorph.All(ctx, g, h, isomorph.Limits{}) {
				if err != nil {
					t.Fatal(err)
				}
				if !isomorph.IsIsomorphism(g, h, m) {
					t.Fatal("All yielded a non-isomorphism")
				}
				seen[string(int32sToBytes(m))] = true
			}
			if got, want := int64(len(seen)), gr.Order.Int64(); got != want {
				t.Errorf("All yielded %d distinct isomorphisms, want %d", got, want)
			}
		})
	}
}

func TestAllStops(t *testing.T) {
	g := mustNew(t, 10, nil, nil) // 10! automorphisms
	k := 0
	for _, err := range isomorph.All(ctx, g, g, isomorph.Limits{}) {
		if err != nil {
			t.Fatal(err)
		}
		if k++; k == 5 {
			break
		}
	}
	if k != 5 {
		t.Errorf("consumed %d mappings, want 5", k)
	}
	for _, err := range isomorph.Search(ctx, g, g, isomorph.Limits{}, nil) {
		if err != nil {
			t.Fatal(err)
		}
		break
	}
}

// TestSearchPrune enumerates the isomorphisms of a coloured cube with a hook
// that only accepts mappings fixing vertex 0, and checks that the hook sees
// consistent partial mappings.
func TestSearchPrune(t *testing.T) {
	g := hypercube(t, 4)
	calls := 0
	prune := func(m isomorph.Mapping, fixed []int32) bool {
		calls++
		for _, v := range fixed {
			if m[v] < 0 {
				t.Fatalf("fixed vertex %d unmapped", v)
			}
		}
		return m[0] >= 0 && m[0] != 0
	}
	var got []isomorph.Mapping
	for m, err := range isomorph.Search(ctx, g, g, isomorph.Limits{}, prune) {
		if err != nil {
			t.Fatal(err)
		}
		if m[0] != 0 || !isomorph.IsAutomorphism(g, isomorph.Perm(m)) {
			t.Fatalf("Search yielded %v", m)
		}
		got = append(got, m)
	}
	// The stabiliser of a vertex of Q4 has order 384/16 = 24.
	if len(got) != 24 {
		t.Errorf("Search with prune yielded %d mappings, want 24", len(got))
	}
	if calls == 0 {
		t.Error("prune never called")
	}
}

func TestSearchNotIsomorphic(t *testing.T) {
	nv, e := prismEdges(5)
	g, h := cfi(t, nv, e, false), cfi(t, nv, e, true)
	for m, err := range isomorph.Search(ctx, g, h, isomorph.Limits{}, nil) {
		t.Fatalf("Search(CFI, twisted CFI) yielded %v, %v", m, err)
	}
	if _, err := isomorph.Find(ctx, g, h, isomorph.Limits{}); !errors.Is(err, isomorph.ErrNotIsomorphic) {
		t.Errorf("Find(CFI, twisted CFI) = %v, want ErrNotIsomorphic", err)
	}
}

func TestLimits(t *testing.T) {
	g := petersen(t)
	gr, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	nodes := gr.Stats.Nodes
	if _, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{MaxNodes: nodes}); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	_, err = isomorph.Automorphisms(ctx, g, isomorph.Limits{MaxNodes: nodes - 1})
	var le *isomorph.LimitError
	if !errors.Is(err, isomorph.ErrLimit) || !errors.As(err, &le) {
		t.Fatalf("one below the limit: err = %v, want a *LimitError", err)
	}
	if le.Limit != nodes-1 || le.Got != nodes {
		t.Errorf("LimitError = %+v, want Limit %d Got %d", le, nodes-1, nodes)
	}
	if _, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{MaxNodes: -1}); err != nil {
		t.Errorf("no limit: %v", err)
	}
}

func TestCancel(t *testing.T) {
	c, cancel := context.WithCancel(ctx)
	cancel()
	g := mustNew(t, 3000, nil, nil)
	if _, err := isomorph.Automorphisms(c, g, isomorph.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Automorphisms(cancelled) = %v, want context.Canceled", err)
	}
	if _, err := isomorph.Find(c, g, g, isomorph.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Find(cancelled) = %v, want context.Canceled", err)
	}
}

func TestNewErrors(t *testing.T) {
	newTests := []struct {
		name   string
		n      int
		colors []int32
		arcs   [][2]int32
		ok     bool
	}{
		{"OK", 3, nil, [][2]int32{{0, 1}, {0, 1}, {2, 2}}, true},
		{"ErrNegative", -1, nil, nil, false},
		{"ErrColors", 3, []int32{1}, nil, false},
		{"ErrArcHigh", 3, nil, [][2]int32{{0, 3}}, false},
		{"ErrArcLow", 3, nil, [][2]int32{{-1, 0}}, false},
	}
	for _, tc := range newTests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := isomorph.New(tc.n, tc.colors, tc.arcs)
			if (err == nil) != tc.ok {
				t.Fatalf("New(%d, %v, %v) error = %v, want ok %v", tc.n, tc.colors, tc.arcs, err, tc.ok)
			}
			if tc.ok && g.Arcs() != 2 {
				t.Errorf("Arcs() = %d, want 2 (duplicates merged, loop kept)", g.Arcs())
			}
		})
	}
}

// adj is a foreign graph type converted through the Digraph interface.
type adj struct {
	colors []int32
	out    [][]int32
}

func (a adj) Order() int        { return len(a.out) }
func (a adj) Color(v int) int32 { return a.colors[v] }
func (a adj) Out(v int) []int32 { return a.out[v] }

func TestConvert(t *testing.T) {
	a := adj{colors: []int32{5, 5, 6}, out: [][]int32{{1, 2, 1}, {0}, {}}}
	g, err := isomorph.Convert(a)
	if err != nil {
		t.Fatal(err)
	}
	if g.Order() != 3 || g.Arcs() != 3 || !g.HasArc(0, 2) || g.HasArc(2, 0) || g.Color(2) != 6 {
		t.Errorf("Convert gave %v", arcsOf(g))
	}
	if len(g.In(1)) != 1 || g.In(1)[0] != 0 {
		t.Errorf("In(1) = %v", g.In(1))
	}
	if _, err := isomorph.Convert(adj{colors: []int32{0}, out: [][]int32{{1}}}); err == nil {
		t.Error("Convert accepted an out-of-range arc")
	}
	// Functions accept any Digraph.
	if _, err := isomorph.Find(ctx, a, g, isomorph.Limits{}); err != nil {
		t.Errorf("Find(adj, converted) = %v", err)
	}
}

func TestSearchLimit(t *testing.T) {
	g := cycle(t, 6)
	var got error
	for _, err := range isomorph.Search(ctx, g, g, isomorph.Limits{MaxNodes: 1}, nil) {
		got = err
	}
	if !errors.Is(got, isomorph.ErrLimit) {
		t.Errorf("Search with MaxNodes 1 ended with %v, want ErrLimit", got)
	}
	n := 0
	for _, err := range isomorph.Search(ctx, g, g, isomorph.Limits{MaxNodes: 10000}, nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 12 {
		t.Errorf("Search(C6, C6) yielded %d mappings, want 12", n)
	}
}

func TestIsIsomorphismRejects(t *testing.T) {
	g := mustNew(t, 3, []int32{0, 0, 1}, [][2]int32{{0, 1}, {1, 2}})
	h := mustNew(t, 3, []int32{0, 0, 1}, [][2]int32{{1, 0}, {0, 2}})
	isIsoTests := []struct {
		name string
		m    isomorph.Mapping
		want bool
	}{
		{"OK", isomorph.Mapping{1, 0, 2}, true},
		{"ErrArcs", isomorph.Mapping{0, 1, 2}, false},
		{"ErrColor", isomorph.Mapping{2, 0, 1}, false},
		{"ErrNotBijective", isomorph.Mapping{1, 1, 2}, false},
		{"ErrShort", isomorph.Mapping{1, 0}, false},
		{"ErrRange", isomorph.Mapping{1, 0, 3}, false},
	}
	for _, tc := range isIsoTests {
		t.Run(tc.name, func(t *testing.T) {
			if got := isomorph.IsIsomorphism(g, h, tc.m); got != tc.want {
				t.Errorf("IsIsomorphism(%v) = %v, want %v", tc.m, got, tc.want)
			}
		})
	}
}

// TestSearchNodesCells checks the promise of Node's cells: every isomorphism
// SearchNodes yields maps g's cell at position q, at each node above it,
// onto h's cell at position q. g and h are relabelled copies of graphs with
// large groups, so most nodes have large cells; the test fails if CellsG
// reads g's partition at another depth than the node's.
func TestSearchNodesCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	graphs := []*isomorph.Graph{hypercube(t, 4), petersen(t), paley(t, 13), complete(t, 6), cycle(t, 12),
		union(t, petersen(t), cycle(t, 10))}
	for gi, g := range graphs {
		h := relabel(t, g, randPerm(rng, g.Order()))
		type snapshot struct {
			depth  int
			gCells []int32
			hCells []int32
		}
		var stack []snapshot
		checked, finer := 0, 0
		visit := func(n *isomorph.Node) bool {
			for len(stack) > 0 && stack[len(stack)-1].depth >= n.Depth() {
				stack = stack[:len(stack)-1]
			}
			s := snapshot{depth: n.Depth(), gCells: make([]int32, g.Order()), hCells: make([]int32, h.Order())}
			n.CellsG(s.gCells)
			for v := range s.hCells {
				s.hCells[v] = n.CellH(v)
			}
			for v, w := range n.Partial {
				if w >= 0 && s.gCells[v] != s.hCells[w] {
					t.Fatalf("graph %d depth %d: fixed %d -> %d in cells %d and %d", gi, n.Depth(), v, w, s.gCells[v], s.hCells[w])
				}
			}
			stack = append(stack, s)
			return false
		}
		for m, err := range isomorph.SearchNodes(ctx, g, h, isomorph.Limits{}, visit) {
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range stack {
				distinct := map[int32]bool{}
				for v, w := range m {
					if s.gCells[v] != s.hCells[w] {
						t.Fatalf("graph %d: isomorphism maps %d (cell %d at depth %d) to %d (cell %d)", gi, v, s.gCells[v], s.depth, w, s.hCells[w])
					}
					distinct[s.gCells[v]] = true
				}
				checked++
				if len(distinct) > 1 && len(distinct) < g.Order() {
					finer++
				}
			}
		}
		if checked == 0 || finer == 0 {
			t.Errorf("graph %d: %d node-isomorphism pairs checked, %d with cells neither trivial nor discrete", gi, checked, finer)
		}
	}
}

// TestSearchNodesBackjump: a visit function that refutes every node mapping
// vertex 0 anywhere but onto 0, but only once three vertices are mapped (a
// check that sees the wrong choice late), yields the same isomorphisms with
// and without Node.Backjump to the depth that fixed vertex 0, and with it
// refutes each wrong image of vertex 0 once instead of once per node of
// its subtree.
func TestSearchNodesBackjump(t *testing.T) {
	g := mustNew(t, 6, nil, nil) // S6: 720 isomorphisms onto itself
	run := func(jump bool) (found, refuted int) {
		fixDepth := make([]int, g.Order())
		visit := func(n *isomorph.Node) bool {
			mapped := 0
			for _, v := range n.Fixed {
				fixDepth[v] = n.Depth()
			}
			for _, w := range n.Partial {
				if w >= 0 {
					mapped++
				}
			}
			if n.Partial[0] <= 0 || mapped < 3 {
				return false
			}
			refuted++
			if jump {
				n.Backjump(fixDepth[0])
			}
			return true
		}
		for m, err := range isomorph.SearchNodes(ctx, g, g, isomorph.Limits{}, visit) {
			if err != nil {
				t.Fatal(err)
			}
			if m[0] != 0 {
				t.Fatalf("yielded %v, which maps 0 to %d", m, m[0])
			}
			found++
		}
		return found, refuted
	}
	foundAll, refutedAll := run(false)
	found, refuted := run(true)
	if foundAll != 120 || found != 120 {
		t.Errorf("found %d isomorphisms without backjumps and %d with, want 120 (the stabiliser of a point)", foundAll, found)
	}
	// Vertex 0 is individualized on the reference path; its five wrong
	// images are each refuted once.
	if refuted != 5 || refutedAll <= refuted {
		t.Errorf("refuted %d nodes with backjumps (want 5) and %d without (want more)", refuted, refutedAll)
	}
}
