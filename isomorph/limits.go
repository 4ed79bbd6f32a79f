package isomorph

import (
	"errors"
	"fmt"
)

// DefaultMaxNodes is the search-tree node budget of one search when
// Limits.MaxNodes is zero.
const DefaultMaxNodes = 1 << 22

// Limits bounds the work of one call. The zero value is the documented
// default for every field.
type Limits struct {
	// MaxNodes bounds the number of search-tree nodes (refined partitions,
	// counting the root and the leaves) of each search. 0 means
	// DefaultMaxNodes; a negative value means no limit.
	MaxNodes int64
	// MaxGenWords bounds the memory of the automorphism group found: the
	// int32 words of its generators and of the automorphisms kept to prune,
	// sparse (Sparse: two words per vertex one moves). 0 means DefaultMaxGenWords; a negative
	// value means no limit.
	MaxGenWords int64
}

// DefaultMaxGenWords is the generator budget of one search when
// Limits.MaxGenWords is zero: 512 MiB of int32s, 64 Mi moved vertices.
const DefaultMaxGenWords = 1 << 27

func (l Limits) maxNodes() int64 { return limitOr(l.MaxNodes, DefaultMaxNodes) }

func (l Limits) maxGenWords() int64 { return limitOr(l.MaxGenWords, DefaultMaxGenWords) }

// limitOr is the limit in force for a Limits field v: def for 0, no limit
// for a negative value.
func limitOr(v, def int64) int64 {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 1<<63 - 1
	}
	return v
}

// ErrLimit is matched by every *LimitError through errors.Is.
var ErrLimit = errors.New("isomorph: limit exceeded")

// ErrNotIsomorphic is returned by Find when the two graphs are not
// isomorphic.
var ErrNotIsomorphic = errors.New("isomorph: graphs are not isomorphic")

// LimitError reports that a search exceeded one of its Limits.
type LimitError struct {
	What  string // the limit, e.g. "search nodes"
	Limit int64  // the limit in force
	Got   int64  // the amount reached when the search stopped
}

// Error implements error.
func (e *LimitError) Error() string {
	return fmt.Sprintf("isomorph: %s limit %d exceeded (got %d)", e.What, e.Limit, e.Got)
}

// Is makes errors.Is(err, ErrLimit) true for a *LimitError.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// Stats counts the work of a search.
type Stats struct {
	Nodes      int64 // search-tree nodes, the root and the leaves included
	Leaves     int64 // search-tree leaves (discrete partitions or complete nodes) reached
	Pruned     int64 // children cut off by the refinement trace, or by a coset test (Coset.Restrict)
	MaxDepth   int   // deepest level reached (the root is level 0)
	Generators int   // automorphisms kept as generators
}

func (s *Stats) add(t Stats) {
	s.Nodes += t.Nodes
	s.Leaves += t.Leaves
	s.Pruned += t.Pruned
	s.MaxDepth = max(s.MaxDepth, t.MaxDepth)
	s.Generators += t.Generators
}

// Perm is a permutation of the vertices 0..n-1 of one graph: vertex v maps to
// p[v].
type Perm []int32

// Mapping maps the vertices of one graph g to those of another graph h:
// vertex v of g maps to m[v]. In a partial mapping, unmapped vertices hold -1.
type Mapping []int32
