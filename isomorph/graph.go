package isomorph

import (
	"fmt"
	"slices"
)

// Digraph is the read-only view of a vertex-coloured directed graph that the
// package accepts. Vertices are 0..Order()-1. Another package's graph type
// satisfies it with three small methods, and Convert turns it into a *Graph
// in one linear pass.
type Digraph interface {
	// Order returns the number of vertices.
	Order() int
	// Color returns the colour of vertex v. Any int32 value is allowed;
	// colour values (not only colour classes) are part of a graph's identity.
	Color(v int) int32
	// Out returns the out-neighbours of v in any order. Duplicates are
	// ignored and v itself may appear (a self-loop). The slice is only read.
	Out(v int) []int32
}

// Preferrer is implemented by a Digraph some of whose vertices the searches
// should individualize first: while a non-singleton cell of preferred
// vertices is left, the target cell is the first largest of those. It is a
// problem-specific hint (the game graphs leave their many alike actions to
// the last). It must be a function of the colour, so that every search stays
// invariant under isomorphism; Convert ignores a preference that is not.
type Preferrer interface {
	Preferred(v int) bool
}

// Graph is an immutable vertex-coloured directed graph in compressed sparse
// row form, holding both out- and in-adjacency with sorted, duplicate-free
// neighbour lists. The zero value is the empty graph. Build one with New or
// Convert.
type Graph struct {
	n        int
	colors   []int32
	outStart []int32 // len n+1
	outAdj   []int32
	inStart  []int32 // len n+1
	inAdj    []int32
	sym      bool   // every arc u->v has its reverse v->u
	loop     []bool // loop[v]: v has a self-loop; nil if no vertex has one
	// prefer[v]: v's cells are individualized first (Preferrer); nil if
	// none is.
	prefer []bool
	// byColor lists the vertices by increasing colour, then vertex: the
	// cells of the colour partition that every search starts from,
	// computed once here rather than sorted again on every call.
	byColor []int32
}

var _ Digraph = (*Graph)(nil)

// New returns the graph with n vertices, vertex v coloured colors[v], and the
// given arcs (u, v) meaning u->v. A nil colors slice colours every vertex 0.
// Duplicate arcs are merged and self-loops are kept. It returns an error if n
// is negative, len(colors) is neither 0 nor n, or an arc names a vertex
// outside 0..n-1.
func New(n int, colors []int32, arcs [][2]int32) (*Graph, error) {
	if n < 0 || n > maxVertices {
		return nil, fmt.Errorf("isomorph: invalid vertex count %d", n)
	}
	if colors != nil && len(colors) != n {
		return nil, fmt.Errorf("isomorph: %d colours for %d vertices", len(colors), n)
	}
	for i, a := range arcs {
		if a[0] < 0 || int(a[0]) >= n || a[1] < 0 || int(a[1]) >= n {
			return nil, fmt.Errorf("isomorph: arc %d (%d->%d) out of range 0..%d", i, a[0], a[1], n-1)
		}
	}
	g := &Graph{n: n, colors: make([]int32, n)}
	copy(g.colors, colors)
	g.outStart = make([]int32, n+1)
	for _, a := range arcs {
		g.outStart[a[0]+1]++
	}
	for v := 0; v < n; v++ {
		g.outStart[v+1] += g.outStart[v]
	}
	g.outAdj = make([]int32, len(arcs))
	fill := make([]int32, n)
	copy(fill, g.outStart[:n])
	for _, a := range arcs {
		g.outAdj[fill[a[0]]] = a[1]
		fill[a[0]]++
	}
	g.finish()
	return g, nil
}

// maxVertices keeps vertex numbers and positions inside int32.
const maxVertices = 1<<31 - 2

// Convert returns d as a *Graph. If d already is a *Graph it is returned as
// is; otherwise its adjacency is copied once. It returns an error if d names
// an out-of-range neighbour.
func Convert(d Digraph) (*Graph, error) {
	if g, ok := d.(*Graph); ok {
		if g == nil {
			return &Graph{}, nil
		}
		return g, nil
	}
	n := d.Order()
	if n < 0 || n > maxVertices {
		return nil, fmt.Errorf("isomorph: invalid vertex count %d", n)
	}
	g := &Graph{n: n, colors: make([]int32, n), outStart: make([]int32, n+1)}
	m := 0
	for v := 0; v < n; v++ {
		g.colors[v] = d.Color(v)
		m += len(d.Out(v))
		g.outStart[v+1] = int32(m)
		if m > maxVertices {
			return nil, fmt.Errorf("isomorph: too many arcs")
		}
	}
	g.outAdj = make([]int32, 0, m)
	for v := 0; v < n; v++ {
		for _, w := range d.Out(v) {
			if w < 0 || int(w) >= n {
				return nil, fmt.Errorf("isomorph: arc %d->%d out of range 0..%d", v, w, n-1)
			}
			g.outAdj = append(g.outAdj, w)
		}
	}
	if len(g.outAdj) != m {
		return nil, fmt.Errorf("isomorph: Out changed while converting")
	}
	g.finish()
	if pr, ok := d.(Preferrer); ok {
		g.prefer = colourPreference(g.colors, pr)
	}
	return g, nil
}

// colourPreference returns the preferred vertices of pr, or nil if there
// are none or if two vertices of one colour disagree (a preference that is
// not a function of the colour would make the searches depend on the
// numbering).
func colourPreference(colors []int32, pr Preferrer) []bool {
	prefer := make([]bool, len(colors))
	byColour := make(map[int32]bool)
	some := false
	for v, c := range colors {
		p := pr.Preferred(v)
		if q, seen := byColour[c]; seen && q != p {
			return nil
		}
		byColour[c] = p
		prefer[v] = p
		some = some || p
	}
	if !some {
		return nil
	}
	return prefer
}

// Preferred reports whether v is a preferred vertex (Preferrer).
func (g *Graph) Preferred(v int) bool { return g.prefer != nil && g.prefer[v] }

// samePreference reports whether g and h prefer the same colours, as the
// canonical forms of two graphs are comparable only if both searches chose
// their target cells by the same rule.
func samePreference(g, h *Graph) bool {
	if g.prefer == nil || h.prefer == nil {
		return g.prefer == nil && h.prefer == nil
	}
	byColour := make(map[int32]bool)
	for v, c := range g.colors {
		byColour[c] = g.prefer[v]
	}
	for v, c := range h.colors {
		if p, seen := byColour[c]; seen && p != h.prefer[v] {
			return false
		}
	}
	return true
}

// withoutPreference returns g without its preference (a shallow copy).
func (g *Graph) withoutPreference() *Graph {
	if g.prefer == nil {
		return g
	}
	c := *g
	c.prefer = nil
	return &c
}

// finish sorts and deduplicates the out-lists, then builds the in-lists.
func (g *Graph) finish() {
	n := g.n
	// Sort and dedupe each out-list in place, compacting the array.
	w := int32(0)
	start := int32(0)
	for v := 0; v < n; v++ {
		end := g.outStart[v+1]
		row := g.outAdj[start:end]
		slices.Sort(row)
		g.outStart[v] = w
		for i, x := range row {
			if i > 0 && x == row[i-1] {
				continue
			}
			g.outAdj[w] = x
			w++
		}
		start = end
	}
	g.outStart[n] = w
	g.outAdj = slices.Clip(g.outAdj[:w])
	// In-lists by counting; filling in order of u keeps them sorted.
	g.inStart = make([]int32, n+1)
	for _, x := range g.outAdj {
		g.inStart[x+1]++
	}
	for v := 0; v < n; v++ {
		g.inStart[v+1] += g.inStart[v]
	}
	g.inAdj = make([]int32, len(g.outAdj))
	fill := make([]int32, n)
	copy(fill, g.inStart[:n])
	for u := 0; u < n; u++ {
		for _, x := range g.outAdj[g.outStart[u]:g.outStart[u+1]] {
			g.inAdj[fill[x]] = int32(u)
			fill[x]++
		}
	}
	for u := 0; u < n; u++ {
		if _, ok := slices.BinarySearch(g.Out(u), int32(u)); ok {
			if g.loop == nil {
				g.loop = make([]bool, n)
			}
			g.loop[u] = true
		}
	}
	g.sym = slices.Equal(g.outStart, g.inStart) && slices.Equal(g.outAdj, g.inAdj)
	g.byColor = make([]int32, n)
	sortByColor(g.colors, g.byColor, fill)
}

// Order returns the number of vertices.
func (g *Graph) Order() int { return g.n }

// Arcs returns the number of distinct arcs.
func (g *Graph) Arcs() int { return len(g.outAdj) }

// Color returns the colour of vertex v.
func (g *Graph) Color(v int) int32 { return g.colors[v] }

// Out returns the sorted out-neighbours of v. The slice must not be modified.
func (g *Graph) Out(v int) []int32 { return g.outAdj[g.outStart[v]:g.outStart[v+1]] }

// In returns the sorted in-neighbours of v. The slice must not be modified.
func (g *Graph) In(v int) []int32 { return g.inAdj[g.inStart[v]:g.inStart[v+1]] }

// HasArc reports whether the arc u->v exists.
func (g *Graph) HasArc(u, v int) bool {
	_, ok := slices.BinarySearch(g.Out(u), int32(v))
	return ok
}

// Symmetric reports whether every arc has its reverse, that is whether g is
// an undirected graph stored as a digraph. Refinement then does one pass per
// splitter instead of two.
func (g *Graph) Symmetric() bool { return g.sym }

// IsIsomorphism reports whether m is an isomorphism from g to h: a bijection
// of the vertices that preserves colours and maps the arcs of g exactly onto
// the arcs of h.
func IsIsomorphism(g, h *Graph, m Mapping) bool {
	if g.n != h.n || len(m) != g.n || len(g.outAdj) != len(h.outAdj) {
		return false
	}
	seen := make([]bool, h.n)
	for v, w := range m {
		if w < 0 || int(w) >= h.n || seen[w] || g.colors[v] != h.colors[w] {
			return false
		}
		seen[w] = true
	}
	for u := 0; u < g.n; u++ {
		hu := int(m[u])
		if len(g.Out(u)) != len(h.Out(hu)) {
			return false
		}
		for _, v := range g.Out(u) {
			if !h.HasArc(hu, int(m[v])) {
				return false
			}
		}
	}
	return true
}

// IsAutomorphism reports whether p is an automorphism of g.
func IsAutomorphism(g *Graph, p Perm) bool { return IsIsomorphism(g, g, Mapping(p)) }
