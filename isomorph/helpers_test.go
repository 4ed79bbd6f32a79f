package isomorph_test

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

// mustNew builds a graph or fails the test.
func mustNew(tb testing.TB, n int, colors []int32, arcs [][2]int32) *isomorph.Graph {
	tb.Helper()
	g, err := isomorph.New(n, colors, arcs)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	return g
}

// undirected returns both orientations of every edge.
func undirected(edges [][2]int32) [][2]int32 {
	arcs := make([][2]int32, 0, 2*len(edges))
	for _, e := range edges {
		arcs = append(arcs, e, [2]int32{e[1], e[0]})
	}
	return arcs
}

func petersen(tb testing.TB) *isomorph.Graph {
	var e [][2]int32
	for i := int32(0); i < 5; i++ {
		e = append(e, [2]int32{i, (i + 1) % 5}, [2]int32{i, i + 5}, [2]int32{5 + i, 5 + (i+2)%5})
	}
	return mustNew(tb, 10, nil, undirected(e))
}

func hypercube(tb testing.TB, d int) *isomorph.Graph {
	n := 1 << d
	var e [][2]int32
	for v := 0; v < n; v++ {
		for b := 0; b < d; b++ {
			if w := v ^ 1<<b; v < w {
				e = append(e, [2]int32{int32(v), int32(w)})
			}
		}
	}
	return mustNew(tb, n, nil, undirected(e))
}

func complete(tb testing.TB, n int) *isomorph.Graph {
	var e [][2]int32
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			e = append(e, [2]int32{int32(u), int32(v)})
		}
	}
	return mustNew(tb, n, nil, undirected(e))
}

func cycleEdges(n int) [][2]int32 {
	var e [][2]int32
	for i := 0; i < n; i++ {
		e = append(e, [2]int32{int32(i), int32((i + 1) % n)})
	}
	return e
}

func cycle(tb testing.TB, n int) *isomorph.Graph {
	return mustNew(tb, n, nil, undirected(cycleEdges(n)))
}

func dirCycle(tb testing.TB, n int) *isomorph.Graph {
	return mustNew(tb, n, nil, cycleEdges(n))
}

// paley returns the Paley graph of a prime q ≡ 1 (mod 4).
func paley(tb testing.TB, q int) *isomorph.Graph {
	sq := make([]bool, q)
	for x := 1; x < q; x++ {
		sq[x*x%q] = true
	}
	var e [][2]int32
	for u := 0; u < q; u++ {
		for v := u + 1; v < q; v++ {
			if sq[(v-u)%q] {
				e = append(e, [2]int32{int32(u), int32(v)})
			}
		}
	}
	return mustNew(tb, q, nil, undirected(e))
}

// arcsOf lists the arcs of g.
func arcsOf(g *isomorph.Graph) [][2]int32 {
	var a [][2]int32
	for u := 0; u < g.Order(); u++ {
		for _, v := range g.Out(u) {
			a = append(a, [2]int32{int32(u), v})
		}
	}
	return a
}

func colorsOf(g *isomorph.Graph) []int32 {
	c := make([]int32, g.Order())
	for v := range c {
		c[v] = g.Color(v)
	}
	return c
}

// union returns the disjoint union of the graphs.
func union(tb testing.TB, gs ...*isomorph.Graph) *isomorph.Graph {
	var colors []int32
	var arcs [][2]int32
	off := int32(0)
	for _, g := range gs {
		colors = append(colors, colorsOf(g)...)
		for _, a := range arcsOf(g) {
			arcs = append(arcs, [2]int32{a[0] + off, a[1] + off})
		}
		off += int32(g.Order())
	}
	return mustNew(tb, int(off), colors, arcs)
}

// relabel returns the image of g under the permutation p and p itself.
func relabel(tb testing.TB, g *isomorph.Graph, p []int32) *isomorph.Graph {
	n := g.Order()
	colors := make([]int32, n)
	for v := 0; v < n; v++ {
		colors[p[v]] = g.Color(v)
	}
	var arcs [][2]int32
	for _, a := range arcsOf(g) {
		arcs = append(arcs, [2]int32{p[a[0]], p[a[1]]})
	}
	// Shuffle nothing: New sorts the lists anyway.
	return mustNew(tb, n, colors, arcs)
}

func randPerm(rng *rand.Rand, n int) []int32 {
	p := make([]int32, n)
	for i, v := range rng.Perm(n) {
		p[i] = int32(v)
	}
	return p
}

// randomGraph returns a random digraph with arc probability prob and up to
// k colours.
func randomGraph(tb testing.TB, rng *rand.Rand, n int, prob float64, k int, directed bool) *isomorph.Graph {
	colors := make([]int32, n)
	for v := range colors {
		colors[v] = int32(rng.IntN(k))
	}
	var arcs [][2]int32
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			if (directed || u < v) && rng.Float64() < prob {
				arcs = append(arcs, [2]int32{int32(u), int32(v)})
				if !directed {
					arcs = append(arcs, [2]int32{int32(v), int32(u)})
				}
			}
		}
	}
	return mustNew(tb, n, colors, arcs)
}

// randomRegular returns a random d-regular simple undirected graph on n
// vertices (n*d even, d < n): a circulant graph mixed by random double-edge
// swaps that keep it simple.
func randomRegular(tb testing.TB, rng *rand.Rand, n, d int) *isomorph.Graph {
	type edge = [2]int32
	has := map[edge]bool{}
	var e []edge
	key := func(u, v int32) edge { return edge{min(u, v), max(u, v)} }
	for v := 0; v < n; v++ {
		for k := 1; k <= d/2; k++ {
			w := (v + k) % n
			e = append(e, key(int32(v), int32(w)))
		}
		if d%2 == 1 && v < n/2 {
			e = append(e, key(int32(v), int32(v+n/2)))
		}
	}
	for _, x := range e {
		has[x] = true
	}
	for i := 0; i < 20*len(e); i++ {
		a, b := rng.IntN(len(e)), rng.IntN(len(e))
		u1, v1, u2, v2 := e[a][0], e[a][1], e[b][0], e[b][1]
		if rng.IntN(2) == 0 {
			u2, v2 = v2, u2
		}
		if u1 == u2 || u1 == v2 || v1 == u2 || v1 == v2 || has[key(u1, u2)] || has[key(v1, v2)] {
			continue
		}
		delete(has, e[a])
		delete(has, e[b])
		e[a], e[b] = key(u1, u2), key(v1, v2)
		has[e[a]], has[e[b]] = true, true
	}
	return mustNew(tb, n, nil, undirected(e))
}

// cfi returns the Cai-Fürer-Immerman graph over a base graph given by its
// edges: every base vertex v of degree k becomes the 2^(k-1) even subsets of
// its incident edges (colour 2v) plus two vertices a0, a1 per incident edge
// (colour 2v+1); twisted flips one base edge. The twisted and untwisted
// graphs are not isomorphic when the base graph is connected.
func cfi(tb testing.TB, nv int, edges [][2]int32, twisted bool) *isomorph.Graph {
	inc := make([][]int, nv) // base vertex -> incident edge indices
	for i, e := range edges {
		inc[e[0]] = append(inc[e[0]], i)
		inc[e[1]] = append(inc[e[1]], i)
	}
	var colors []int32
	var ends [][2]int32 // per (vertex, incident index): ids of a0, a1
	endAt := make([][]int, nv)
	var arcs [][2]int32
	add := func(c int32) int32 {
		colors = append(colors, c)
		return int32(len(colors) - 1)
	}
	for v := 0; v < nv; v++ {
		k := len(inc[v])
		endAt[v] = make([]int, k)
		for i := 0; i < k; i++ {
			a0, a1 := add(int32(2*v+1)), add(int32(2*v+1))
			endAt[v][i] = len(ends)
			ends = append(ends, [2]int32{a0, a1})
		}
		for s := 0; s < 1<<k; s++ {
			if popcount(s)%2 != 0 {
				continue
			}
			m := add(int32(2 * v))
			for i := 0; i < k; i++ {
				bit := (s >> i) & 1
				arcs = append(arcs, [2]int32{m, ends[endAt[v][i]][bit]})
			}
		}
	}
	for i, e := range edges {
		u, v := int(e[0]), int(e[1])
		iu := indexOf(inc[u], i)
		iv := indexOf(inc[v], i)
		eu, ev := ends[endAt[u][iu]], ends[endAt[v][iv]]
		if twisted && i == 0 {
			arcs = append(arcs, [2]int32{eu[0], ev[1]}, [2]int32{eu[1], ev[0]})
		} else {
			arcs = append(arcs, [2]int32{eu[0], ev[0]}, [2]int32{eu[1], ev[1]})
		}
	}
	return mustNew(tb, len(colors), colors, undirected(arcs))
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

func indexOf(a []int, x int) int {
	for i, y := range a {
		if y == x {
			return i
		}
	}
	return -1
}

// prismEdges is the circular ladder C_k x K_2 (a cubic base graph).
func prismEdges(k int) (int, [][2]int32) {
	var e [][2]int32
	for i := 0; i < k; i++ {
		e = append(e,
			[2]int32{int32(i), int32((i + 1) % k)},
			[2]int32{int32(k + i), int32(k + (i+1)%k)},
			[2]int32{int32(i), int32(k + i)})
	}
	return 2 * k, e
}

// k4Edges is the complete graph K4.
func k4Edges() (int, [][2]int32) {
	return 4, [][2]int32{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}
}

// board returns a board-like coloured digraph modelled on the ground graph
// of an r x c game with k marks and 2 roles, where lines of length win
// decide the goals: per cell and mark a state vertex, per cell and role an
// action vertex (action -> the mark states it sets), per line and role a
// line vertex (each state on the line -> line), line -> goal and terminal
// vertices, and a control vertex per role with arcs to its actions.
func board(tb testing.TB, rows, cols, win int) *isomorph.Graph {
	var colors []int32
	var arcs [][2]int32
	add := func(c int32) int32 {
		colors = append(colors, c)
		return int32(len(colors) - 1)
	}
	const marks, roles = 3, 2
	state := make([][marks]int32, rows*cols)
	action := make([][roles]int32, rows*cols)
	for i := range state {
		for m := 0; m < marks; m++ {
			state[i][m] = add(int32(m))
		}
		for r := 0; r < roles; r++ {
			action[i][r] = add(int32(10 + r))
		}
	}
	control := [roles]int32{add(20), add(21)}
	goal := [roles]int32{add(30), add(31)}
	terminal := add(40)
	for i := range state {
		for r := 0; r < roles; r++ {
			a := action[i][r]
			arcs = append(arcs, [2]int32{state[i][0], a}, [2]int32{control[r], a},
				[2]int32{a, state[i][1+r]}, [2]int32{a, state[i][0]})
			arcs = append(arcs, [2]int32{a, control[1-r]})
		}
	}
	dirs := [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			for _, dv := range dirs {
				ey, ex := y+dv[0]*(win-1), x+dv[1]*(win-1)
				if ey < 0 || ey >= rows || ex < 0 || ex >= cols {
					continue
				}
				for r := 0; r < roles; r++ {
					l := add(int32(50 + r))
					for k := 0; k < win; k++ {
						cell := (y+dv[0]*k)*cols + x + dv[1]*k
						arcs = append(arcs, [2]int32{state[cell][1+r], l})
					}
					arcs = append(arcs, [2]int32{l, goal[r]}, [2]int32{l, terminal})
				}
			}
		}
	}
	for i := range state {
		arcs = append(arcs, [2]int32{state[i][0], terminal})
	}
	return mustNew(tb, len(colors), colors, arcs)
}

// factorial returns n!.
func factorial(n int) *big.Int {
	f := big.NewInt(1)
	for i := 2; i <= n; i++ {
		f.Mul(f, big.NewInt(int64(i)))
	}
	return f
}

// forEachPerm calls f with every permutation of 0..n-1 (Heap's algorithm)
// until f returns false.
func forEachPerm(n int, f func(p []int32) bool) {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	c := make([]int, n)
	if !f(p) {
		return
	}
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				p[0], p[i] = p[i], p[0]
			} else {
				p[c[i]], p[i] = p[i], p[c[i]]
			}
			if !f(p) {
				return
			}
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

// bruteIsomorphic tests isomorphism by trying every bijection.
func bruteIsomorphic(g, h *isomorph.Graph) bool {
	if g.Order() != h.Order() || g.Arcs() != h.Arcs() {
		return false
	}
	found := false
	forEachPerm(g.Order(), func(p []int32) bool {
		if isomorph.IsIsomorphism(g, h, isomorph.Mapping(p)) {
			found = true
			return false
		}
		return true
	})
	return found
}

// bruteAutCount counts automorphisms by trying every permutation.
func bruteAutCount(g *isomorph.Graph) int64 {
	var k int64
	forEachPerm(g.Order(), func(p []int32) bool {
		if isomorph.IsAutomorphism(g, isomorph.Perm(p)) {
			k++
		}
		return true
	})
	return k
}

// sameCertificate reports whether g and h have equal canonical certificates.
func sameCertificate(tb testing.TB, g, h *isomorph.Graph) bool {
	tb.Helper()
	_, cg, err := isomorph.Canonical(context.Background(), g, isomorph.Limits{})
	if err != nil {
		tb.Fatal(err)
	}
	_, ch, err := isomorph.Canonical(context.Background(), h, isomorph.Limits{})
	if err != nil {
		tb.Fatal(err)
	}
	return cg.Equal(ch)
}

// dense expands a sparse generator to a permutation of g's vertices.
func dense(g *isomorph.Graph, s isomorph.Sparse) isomorph.Perm {
	return s.Dense(make(isomorph.Perm, g.Order()))
}

// denseAll expands every generator.
func denseAll(g *isomorph.Graph, gens []isomorph.Sparse) []isomorph.Perm {
	out := make([]isomorph.Perm, len(gens))
	for i, s := range gens {
		out[i] = dense(g, s)
	}
	return out
}
