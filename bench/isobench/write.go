package main

import (
	"bufio"
	"io"
	"slices"
	"strconv"

	"github.com/gamequiv/gamequiv/isomorph"
)

// Input files for the external tools. A graph is "undirected" when it is a
// symmetric digraph without self-loops: the tools then get it in their
// native undirected modes (bliss without -directed, nauty without d, Traces
// on the graph itself), which is what they would be run on for such a
// graph. Every other graph is a digraph: bliss -directed, nauty in digraph
// mode with the adjacencies invariant at every level, and Traces (which has
// no digraphs) on the undirected three-layer encoding.

func isUndirected(g *isomorph.Graph) bool {
	if !g.Symmetric() {
		return false
	}
	for v := 0; v < g.Order(); v++ {
		if g.HasArc(v, v) {
			return false
		}
	}
	return true
}

// colorCells returns the vertices of g grouped by colour value, the cells in
// increasing colour value, and every vertex's cell index.
func colorCells(g *isomorph.Graph) (cells [][]int32, rank []int32) {
	n := g.Order()
	distinct := make([]int32, n)
	for v := range n {
		distinct[v] = g.Color(v)
	}
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	cells = make([][]int32, len(distinct))
	rank = make([]int32, n)
	for v := range n {
		r, _ := slices.BinarySearch(distinct, g.Color(v))
		rank[v] = int32(r)
		cells[r] = append(cells[r], int32(v))
	}
	return cells, rank
}

// layered is the undirected graph handed to Traces for a digraph g: vertex v
// of g becomes v (layer 0, g's colours), v_out = n+v and v_in = 2n+v (layers
// 1 and 2, each split by v's colour too, in cells after all of layer 0's);
// edges v–v_out, v–v_in, and u_out–w_in for every arc u->w (a self-loop
// u->u gives u_out–u_in). Layers cannot mix (their cells are distinct) and
// an automorphism of the encoding is determined by its action on layer 0,
// which is an automorphism of g: both groups have the same order.
type layered struct {
	n     int
	edges [][2]int32 // u < v
	cells [][]int32
}

func threeLayer(g *isomorph.Graph) layered {
	n := g.Order()
	l := layered{n: 3 * n}
	for v := range n {
		l.edges = append(l.edges, [2]int32{int32(v), int32(n + v)}, [2]int32{int32(v), int32(2*n + v)})
		for _, w := range g.Out(v) {
			l.edges = append(l.edges, [2]int32{int32(n + v), int32(2*n) + w})
		}
	}
	cells, _ := colorCells(g)
	for layer := 0; layer < 3; layer++ {
		for _, c := range cells {
			cell := make([]int32, len(c))
			for i, v := range c {
				cell[i] = v + int32(layer*n)
			}
			l.cells = append(l.cells, cell)
		}
	}
	return l
}

// plain is g itself as an undirected graph (g symmetric, no loops).
func plain(g *isomorph.Graph) layered {
	l := layered{n: g.Order()}
	for v := range g.Order() {
		for _, w := range g.Out(v) {
			if int32(v) < w {
				l.edges = append(l.edges, [2]int32{int32(v), w})
			}
		}
	}
	l.cells, _ = colorCells(g)
	return l
}

// writeBliss writes g for bliss: "p edge N M", "n V C" for colour ranks
// above 0, "e U V" per arc (or per edge, U < V, for an undirected graph),
// vertices from 1.
func writeBliss(w io.Writer, g *isomorph.Graph, undirected bool) error {
	bw := bufio.NewWriter(w)
	m := g.Arcs()
	if undirected {
		m /= 2
	}
	var b []byte
	b = append(b, "p edge "...)
	b = strconv.AppendInt(b, int64(g.Order()), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(m), 10)
	b = append(b, '\n')
	bw.Write(b)
	_, rank := colorCells(g)
	for v, r := range rank {
		if r != 0 {
			b = append(b[:0], "n "...)
			b = strconv.AppendInt(b, int64(v+1), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(r), 10)
			b = append(b, '\n')
			bw.Write(b)
		}
	}
	for u := range g.Order() {
		for _, v := range g.Out(u) {
			if undirected && int32(u) > v {
				continue
			}
			b = append(b[:0], "e "...)
			b = strconv.AppendInt(b, int64(u+1), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(v+1), 10)
			b = append(b, '\n')
			bw.Write(b)
		}
	}
	return bw.Flush()
}

// writeDreadnautGraph writes the graph part of a dreadnaut script: the mode
// line, "g", the adjacency lines "u: v w ...", "." and the partition
// f=[...]. The caller appends the run commands. For a digraph (directed)
// the out-lists are written; otherwise each edge once. header holds the mode
// and options, e.g. "As d *=13 k=0 999 w=1000".
func writeDreadnautGraph(w io.Writer, header string, n int, adj func(u int, emit func(v int32)), cells [][]int32) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(header)
	bw.WriteString(" n=")
	bw.WriteString(strconv.Itoa(n))
	bw.WriteString(" $=0 -a -m\ng\n")
	var b []byte
	for u := range n {
		b = b[:0]
		adj(u, func(v int32) {
			if len(b) == 0 {
				b = strconv.AppendInt(b, int64(u), 10)
				b = append(b, ':')
			}
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(v), 10)
		})
		if len(b) > 0 {
			b = append(b, '\n')
			bw.Write(b)
		}
	}
	bw.WriteString(".\nf=[")
	for i, cell := range cells {
		if i > 0 {
			bw.WriteString("|")
		}
		writeRanges(bw, cell)
	}
	bw.WriteString("]\n")
	return bw.Flush()
}

// writeRanges writes a sorted vertex list with runs as "a:b".
func writeRanges(bw *bufio.Writer, cell []int32) {
	for i := 0; i < len(cell); {
		j := i
		for j+1 < len(cell) && cell[j+1] == cell[j]+1 {
			j++
		}
		if i > 0 {
			bw.WriteByte(' ')
		}
		bw.WriteString(strconv.Itoa(int(cell[i])))
		if j > i {
			bw.WriteByte(':')
			bw.WriteString(strconv.Itoa(int(cell[j])))
		}
		i = j + 1
	}
}

// writeNauty writes g for nauty (sparse mode). A digraph gets the digraph
// flag and the adjacencies invariant at every level with a large work
// area, the setting nauty's documentation recommends for digraphs; an
// undirected graph gets nauty's defaults.
func writeNauty(w io.Writer, g *isomorph.Graph, undirected bool) error {
	cells, _ := colorCells(g)
	header := "As d *=13 k=0 999 w=1000"
	if undirected {
		header = "As -d"
	}
	return writeDreadnautGraph(w, header, g.Order(), func(u int, emit func(int32)) {
		for _, v := range g.Out(u) {
			if !undirected || int32(u) < v {
				emit(v)
			}
		}
	}, cells)
}

// writeTraces writes the undirected graph l for Traces.
func writeTraces(w io.Writer, l layered) error {
	adj := make([][]int32, l.n)
	for _, e := range l.edges {
		adj[e[0]] = append(adj[e[0]], e[1])
	}
	return writeDreadnautGraph(w, "At -d", l.n, func(u int, emit func(int32)) {
		for _, v := range adj[u] {
			emit(v)
		}
	}, l.cells)
}
