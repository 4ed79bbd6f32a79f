package isomorph

import (
	"bufio"
	"errors"
	"io"
	"slices"
	"strconv"
)

// colorRanks returns the distinct colours of g in increasing order and each
// vertex's rank among them.
func colorRanks(g *Graph) (distinct []int32, rank []int32) {
	distinct = slices.Clone(g.colors)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	rank = make([]int32, g.n)
	for v, c := range g.colors {
		i, _ := slices.BinarySearch(distinct, c)
		rank[v] = int32(i)
	}
	return distinct, rank
}

// WriteDreadnaut writes g as a script for nauty's dreadnaut: sparse mode
// (As), digraph (d), vertices numbered from 0 ($=0), automorphism and
// marker printing off, the adjacencies vertex invariant at every level
// (*=13 k=0 99, which nauty needs to be fast on digraphs), the out-lists as
// "u: v w ..." lines, the colour classes as the partition f=[...|...] with
// cells in increasing colour value, and x to run nauty. Its output contains the group order as "grpsize=...". dreadnaut
// has no graph without vertices, so WriteDreadnaut returns an error for
// one.
func WriteDreadnaut(w io.Writer, g *Graph) error {
	if g.n == 0 {
		return errors.New("isomorph: dreadnaut cannot read a graph with no vertices")
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("As n=")
	bw.WriteString(strconv.Itoa(g.n))
	bw.WriteString(" $=0 d -a -m *=13 k=0 99\ng\n")
	var buf []byte
	for u := 0; u < g.n; u++ {
		out := g.Out(u)
		if len(out) == 0 {
			continue
		}
		buf = strconv.AppendInt(buf[:0], int64(u), 10)
		buf = append(buf, ':')
		for _, v := range out {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(v), 10)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	bw.WriteString(".\nf=[")
	distinct, rank := colorRanks(g)
	cells := make([][]int32, len(distinct))
	for v, r := range rank {
		cells[r] = append(cells[r], int32(v))
	}
	for i, cell := range cells {
		if i > 0 {
			bw.WriteString("|")
		}
		for j, v := range cell {
			if j > 0 {
				bw.WriteString(",")
			}
			bw.WriteString(strconv.Itoa(int(v)))
		}
	}
	bw.WriteString("]\nx\n")
	return bw.Flush()
}

// WriteBliss writes g in the DIMACS-like input format of bliss, to be read
// with "bliss -directed": a line "p edge N M", a line "n V C" for every
// vertex with a non-zero colour C, and a line "e U V" for every arc U->V,
// vertices numbered from 1. Colours are written as their rank among g's
// distinct colour values (bliss needs small non-negative colours), which
// keeps their order.
func WriteBliss(w io.Writer, g *Graph) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	buf = append(buf, "p edge "...)
	buf = strconv.AppendInt(buf, int64(g.n), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(len(g.outAdj)), 10)
	buf = append(buf, '\n')
	bw.Write(buf)
	_, rank := colorRanks(g)
	for v, r := range rank {
		if r == 0 {
			continue
		}
		buf = append(buf[:0], "n "...)
		buf = strconv.AppendInt(buf, int64(v+1), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(r), 10)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	for u := 0; u < g.n; u++ {
		for _, v := range g.Out(u) {
			buf = append(buf[:0], "e "...)
			buf = strconv.AppendInt(buf, int64(u+1), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(v+1), 10)
			buf = append(buf, '\n')
			bw.Write(buf)
		}
	}
	return bw.Flush()
}
