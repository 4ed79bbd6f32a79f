package isomorph

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// CanonicalVersion names the canonical form that Canonize computes.
// Certificates are comparable only when made by the same version: a change
// to the search that can change the canonical labelling of some graph (its
// target cells, its trace, its leaf order) increments it. Version 2 treats
// free cells as leaves (see the package documentation).
const CanonicalVersion = 2

// Certificate is the canonical form of a coloured digraph as bytes: two
// graphs have equal certificates if and only if they are isomorphic by a
// colour-preserving isomorphism (colour values included, not only colour
// classes). Compare certificates with Equal or bytes.Equal; Sum gives a
// fixed-size key for indexing.
type Certificate []byte

// Equal reports whether c and d are the same certificate.
func (c Certificate) Equal(d Certificate) bool { return bytes.Equal(c, d) }

// Sum returns the SHA-256 digest of the certificate.
func (c Certificate) Sum() [32]byte { return sha256.Sum256(c) }

// String returns the hex digest of the certificate.
func (c Certificate) String() string {
	s := c.Sum()
	return hex.EncodeToString(s[:])
}

// Canon is the full result of a canonical-labelling search.
type Canon struct {
	// Labeling maps every vertex v of the graph to its index Labeling[v] in
	// the canonical form: the canonical graph has the arc
	// (Labeling[u], Labeling[v]) for every arc (u, v), and its vertex
	// Labeling[v] has v's colour.
	Labeling Perm
	// Certificate encodes the canonical graph.
	Certificate Certificate
	// Group is the automorphism group, found on the way.
	Group *Group
	// Stats counts the work of the search (also in Group.Stats).
	Stats Stats
}

// Canonical returns a canonical labelling of g and the certificate of the
// canonical form. It is Canonize without the group.
func Canonical(ctx context.Context, g Digraph, lim Limits) (Perm, Certificate, error) {
	c, err := Canonize(ctx, g, lim)
	if err != nil {
		return nil, nil, err
	}
	return c.Labeling, c.Certificate, nil
}

// Canonize computes the canonical form of g: it searches the whole
// individualization-refinement tree (with automorphism pruning) for the
// leaf with the largest sequence of refinement traces and, among those, the
// largest relabelled graph. Vertices are first split by colour value in
// increasing order, so the colours are part of the form.
func Canonize(ctx context.Context, g Digraph, lim Limits) (*Canon, error) {
	gg, err := Convert(g)
	if err != nil {
		return nil, err
	}
	return canonize(ctx, gg, lim)
}

func canonize(ctx context.Context, g *Graph, lim Limits) (*Canon, error) {
	s := newSearcher(g, modeCanon, lim)
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	if g.n == 0 {
		s.bestElems = []int32{}
	} else if s.bestElems == nil {
		// The root partition was discrete: it is the only leaf.
		s.bestElems = s.firstElems
	}
	lab := make(Perm, g.n)
	for i, v := range s.bestElems {
		lab[v] = int32(i)
	}
	gr := s.group()
	return &Canon{
		Labeling:    lab,
		Certificate: certificate(g, s.bestElems, lab),
		Group:       gr,
		Stats:       gr.Stats,
	}, nil
}

// certificate encodes the graph relabelled so that vertex elems[i] becomes
// i: a version byte, n, the colours as (value, run length) pairs in
// canonical order, the number of arcs, and every out-list in canonical
// order as its length followed by gaps between sorted targets.
func certificate(g *Graph, elems []int32, lab Perm) Certificate {
	n := g.n
	buf := make([]byte, 0, 16+3*n+2*len(g.outAdj))
	buf = append(buf, 1)
	buf = binary.AppendUvarint(buf, uint64(n))
	runs := 0
	for i := range elems {
		if i == 0 || g.colors[elems[i]] != g.colors[elems[i-1]] {
			runs++
		}
	}
	buf = binary.AppendUvarint(buf, uint64(runs))
	for i := 0; i < n; {
		c := g.colors[elems[i]]
		j := i
		for j < n && g.colors[elems[j]] == c {
			j++
		}
		buf = binary.AppendVarint(buf, int64(c))
		buf = binary.AppendUvarint(buf, uint64(j-i))
		i = j
	}
	buf = binary.AppendUvarint(buf, uint64(len(g.outAdj)))
	row := make([]int32, 0, 16)
	for _, u := range elems {
		row = row[:0]
		for _, w := range g.Out(int(u)) {
			row = append(row, lab[w])
		}
		sortSmall(row)
		buf = binary.AppendUvarint(buf, uint64(len(row)))
		prev := int32(-1)
		for _, w := range row {
			buf = binary.AppendUvarint(buf, uint64(w-prev))
			prev = w
		}
	}
	return Certificate(buf)
}
