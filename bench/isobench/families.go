package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/gamequiv/gamequiv/isomorph"
)

// The classic families are generated in-process, deterministically (fixed
// seeds), as *isomorph.Graph values. Undirected graphs are stored as
// symmetric digraphs (both arcs of every edge); the external tools then get
// them in their native undirected modes (see tools.go).

// undirected builds the symmetric digraph with n uncoloured vertices and the
// given edges.
func undirected(n int, colors []int32, edges [][2]int32) (*isomorph.Graph, error) {
	arcs := make([][2]int32, 0, 2*len(edges))
	for _, e := range edges {
		arcs = append(arcs, e, [2]int32{e[1], e[0]})
	}
	return isomorph.New(n, colors, arcs)
}

// hypercube returns Q_d: vertices are d-bit words, adjacent when they differ
// in one bit. |Aut| = 2^d · d!.
func hypercube(d int) (*isomorph.Graph, error) {
	n := 1 << d
	var edges [][2]int32
	for u := 0; u < n; u++ {
		for b := 0; b < d; b++ {
			if v := u ^ (1 << b); u < v {
				edges = append(edges, [2]int32{int32(u), int32(v)})
			}
		}
	}
	return undirected(n, nil, edges)
}

// paley returns the Paley graph P(q) for a prime q ≡ 1 (mod 4): vertices
// Z_q, x ~ y when x-y is a non-zero square. It is strongly regular with
// parameters (q, (q-1)/2, (q-5)/4, (q-1)/4) and |Aut| = q(q-1)/2.
func paley(q int) (*isomorph.Graph, error) {
	if q%4 != 1 {
		return nil, fmt.Errorf("paley: %d is not 1 mod 4", q)
	}
	square := make([]bool, q)
	for x := 1; x < q; x++ {
		square[x*x%q] = true
	}
	var edges [][2]int32
	for x := 0; x < q; x++ {
		for y := x + 1; y < q; y++ {
			if square[(y-x)%q] {
				edges = append(edges, [2]int32{int32(x), int32(y)})
			}
		}
	}
	return undirected(q, nil, edges)
}

// randomCubic returns a simple 3-regular graph on n vertices (n even) from
// the pairing model, rejecting pairings with loops or multiple edges, and
// also disconnected graphs (so that it can serve as a CFI base graph).
func randomCubic(n int, seed uint64) [][2]int32 {
	r := rand.New(rand.NewPCG(seed, 0x15b3))
	points := make([]int32, 3*n)
	for {
		for i := range points {
			points[i] = int32(i / 3)
		}
		r.Shuffle(len(points), func(i, j int) { points[i], points[j] = points[j], points[i] })
		seen := make(map[[2]int32]bool, len(points)/2)
		edges := make([][2]int32, 0, len(points)/2)
		ok := true
		for i := 0; i < len(points); i += 2 {
			u, v := points[i], points[i+1]
			if u > v {
				u, v = v, u
			}
			if u == v || seen[[2]int32{u, v}] {
				ok = false
				break
			}
			seen[[2]int32{u, v}] = true
			edges = append(edges, [2]int32{u, v})
		}
		if ok && connected(n, edges) {
			return edges
		}
	}
}

func connected(n int, edges [][2]int32) bool {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	comps := n
	for _, e := range edges {
		a, b := find(int(e[0])), find(int(e[1]))
		if a != b {
			parent[a] = b
			comps--
		}
	}
	return comps == 1
}

// mobiusLadder returns the edges of the Möbius ladder on 2k vertices: the
// cycle 0..2k-1 and the chords i ~ i+k. It is cubic.
func mobiusLadder(k int) [][2]int32 {
	n := 2 * k
	var edges [][2]int32
	for i := 0; i < n; i++ {
		edges = append(edges, [2]int32{int32(i), int32((i + 1) % n)})
	}
	for i := 0; i < k; i++ {
		edges = append(edges, [2]int32{int32(i), int32(i + k)})
	}
	return edges
}

// cfi returns the Cai-Fürer-Immerman graph over a cubic base graph with nb
// vertices: each base vertex v with incident edges e1, e2, e3 becomes 4
// "middle" vertices m(v, S), one per even subset S of {e1, e2, e3}, and 6
// "end" vertices a(v, e, 0), a(v, e, 1); m(v, S) ~ a(v, e, [e ∈ S]). Each
// base edge {u, v} joins a(u, e, i) ~ a(v, e, i), or a(v, e, 1-i) for the
// twisted edges. Every vertex has degree 3 and the graph is uncoloured, so
// colour refinement alone tells nothing apart.
func cfi(nb int, base [][2]int32, twisted int) (*isomorph.Graph, error) {
	inc := make([][]int, nb) // incident base edges, in order
	for i, e := range base {
		inc[e[0]] = append(inc[e[0]], i)
		inc[e[1]] = append(inc[e[1]], i)
	}
	for v, es := range inc {
		if len(es) != 3 {
			return nil, fmt.Errorf("cfi: base vertex %d has degree %d", v, len(es))
		}
	}
	// Vertex numbering: v*10 + 0..3 middles, v*10 + 4 + 2*slot + bit ends.
	end := func(v int32, e int, bit int) int32 {
		for slot, f := range inc[v] {
			if f == e {
				return v*10 + 4 + int32(2*slot+bit)
			}
		}
		panic("cfi: edge not incident")
	}
	var edges [][2]int32
	even := [4][3]int{{0, 0, 0}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}}
	for v := 0; v < nb; v++ {
		for s, set := range even {
			m := int32(v*10 + s)
			for slot := 0; slot < 3; slot++ {
				edges = append(edges, [2]int32{m, int32(v*10 + 4 + 2*slot + set[slot])})
			}
		}
	}
	for i, e := range base {
		for bit := 0; bit < 2; bit++ {
			other := bit
			if i < twisted {
				other = 1 - bit
			}
			edges = append(edges, [2]int32{end(e[0], i, bit), end(e[1], i, other)})
		}
	}
	return undirected(10*nb, nil, edges)
}

// board returns a board-like coloured digraph in the shape of a ground graph
// of an m×m placement game with t piece types: a proposition vertex
// P(i,j,c) (colour c) for every cell and content c (c = 0 blank), an action
// vertex A(i,j) (colour t) that reads the blank proposition of its cell and
// writes every proposition of the cell (P(i,j,0) -> A(i,j) -> P(i,j,c)),
// and a line vertex (colour t+1) for every row and every column that reads
// the non-blank propositions on it. Any permutation of the rows, any of the
// columns and the transposition are automorphisms: |Aut| = 2·(m!)².
func board(m, t int) (*isomorph.Graph, error) {
	cells := m * m
	props := cells * t
	n := props + cells + 2*m
	colors := make([]int32, n)
	prop := func(i, j, c int) int32 { return int32((i*m+j)*t + c) }
	action := func(i, j int) int32 { return int32(props + i*m + j) }
	row := func(i int) int32 { return int32(props + cells + i) }
	col := func(j int) int32 { return int32(props + cells + m + j) }
	var arcs [][2]int32
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			a := action(i, j)
			colors[a] = int32(t)
			arcs = append(arcs, [2]int32{prop(i, j, 0), a})
			for c := 0; c < t; c++ {
				p := prop(i, j, c)
				colors[p] = int32(c)
				arcs = append(arcs, [2]int32{a, p})
				if c > 0 {
					arcs = append(arcs, [2]int32{p, row(i)}, [2]int32{p, col(j)})
				}
			}
		}
	}
	for i := 0; i < 2*m; i++ {
		colors[props+cells+i] = int32(t + 1)
	}
	return isomorph.New(n, colors, arcs)
}

// families returns the classic graphs of the benchmark.
func families() ([]*benchGraph, error) {
	type gen struct {
		name string
		f    func() (*isomorph.Graph, error)
	}
	gens := []gen{
		{"hypercube Q8", func() (*isomorph.Graph, error) { return hypercube(8) }},
		{"Paley P(101) (srg)", func() (*isomorph.Graph, error) { return paley(101) }},
		{"Paley P(401) (srg)", func() (*isomorph.Graph, error) { return paley(401) }},
		{"CFI, random cubic base n=100", func() (*isomorph.Graph, error) {
			return cfi(100, randomCubic(100, 7), 0)
		}},
		{"CFI twisted, random cubic base n=100", func() (*isomorph.Graph, error) {
			return cfi(100, randomCubic(100, 7), 1)
		}},
		{"CFI, Möbius ladder base n=40", func() (*isomorph.Graph, error) { return cfi(40, mobiusLadder(20), 0) }},
		{"CFI, Möbius ladder base n=80", func() (*isomorph.Graph, error) { return cfi(80, mobiusLadder(40), 0) }},
		{"CFI, Möbius ladder base n=320", func() (*isomorph.Graph, error) { return cfi(320, mobiusLadder(160), 0) }},
		{"CFI, random cubic base n=400", func() (*isomorph.Graph, error) {
			return cfi(400, randomCubic(400, 11), 0)
		}},
		{"random 3-regular n=1000 (seed 1)", func() (*isomorph.Graph, error) {
			return undirected(1000, nil, randomCubic(1000, 1))
		}},
		{"random 3-regular n=1000 (seed 2)", func() (*isomorph.Graph, error) {
			return undirected(1000, nil, randomCubic(1000, 2))
		}},
		{"board digraph 36×36, 3 contents", func() (*isomorph.Graph, error) { return board(36, 3) }},
		{"board digraph 110×110, 3 contents", func() (*isomorph.Graph, error) { return board(110, 3) }},
	}
	var out []*benchGraph
	for _, g := range gens {
		gr, err := g.f()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.name, err)
		}
		out = append(out, &benchGraph{Name: g.name, Kind: "family", G: gr})
	}
	return out, nil
}
