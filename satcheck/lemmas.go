package satcheck

import (
	"slices"
	"sync"
)

// Lemmas: the internal equalities one sweep proves are kept for the other
// pairs of the same mapping. The functions of a game share sub-circuits
// (checkers' next functions all read the same jump conditions), so without
// them every pair's sweep proved the same internal pairs again.
//
// A lemma says that a node of A's or B's circuit equals another node (of
// either circuit, or the constant false), possibly complemented. It holds
// for every input where each role does one action (oneHot) or none
// (noMoves), with A's inputs identified with B's through the input map it
// was proven under: a sweep's proof is over the joint variables under the
// groups' constraints, which every assignment of the whole input space that
// respects the semantics projects onto (projectGroups), and every joint of
// the same semantics and input map reads the same identification. A node
// of A is only ever in a joint whose input map maps its whole support, so
// a lemma also holds under every input map that extends the one it was
// proven under (maps more inputs, and the mapped ones alike). So a
// lemmaStore holds one semantics and one input map, which grows while the
// maps of the sweeps extend it (the search maps more inputs node by node,
// and Verify's map extends the search's); a sweep under a map that does
// not extend it (the search backtracked) empties the store first.
// Only sweeps over buildJoint's joints record or read lemmas: the search's
// partial checks (buildRestrictedJoint) force unmapped inputs false, a
// different space.

// origin names a node of one of the circuits: node<<1 | side (0: A, 1: B).
// The constant false is originFalse, shared by both.
type origin uint64

const originFalse origin = 0

func originOf(side int, node int32) origin {
	if node == 0 {
		return originFalse
	}
	return origin(node)<<1 | origin(side)
}

// maxLemmas bounds the origins a store holds (about 25 bytes each in the
// map, some 50 MiB at the bound); past it the store starts again empty.
const maxLemmas = 1 << 21

// lemmaStore is a union-find over origins with parities: parent[x] =
// p<<1 | q says x equals p, complemented when q is 1.
type lemmaStore struct {
	mu     sync.Mutex
	gen    uint64 // bumped whenever the store is emptied
	im     []int32
	parent map[origin]uint64
	active int // sweeps between begin and end
}

// begin ties the store to input map im (a sweep's; -1: unmapped) and
// returns the generation its lemmas belong to; end must follow. A lemma
// proven under a larger map need not hold under a smaller one (a B input
// the larger map identifies with an A input is free under the smaller),
// so a map other than the store's while another sweep is active empties
// the store: that sweep's generation is then over, and it reads and
// records no more lemmas.
func (s *lemmaStore) begin(im []int32) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parent == nil || !extends(im, s.im) || s.active > 0 && !slices.Equal(im, s.im) {
		s.reset()
	}
	s.im = append(s.im[:0], im...)
	s.active++
	return s.gen
}

// end closes a sweep that begin opened.
func (s *lemmaStore) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active--
}

// extends reports whether map im agrees with old on every input old maps.
func extends(im, old []int32) bool {
	if len(im) != len(old) {
		return false
	}
	for i, x := range old {
		if x >= 0 && im[i] != x {
			return false
		}
	}
	return true
}

func (s *lemmaStore) reset() {
	s.gen++
	s.parent = map[origin]uint64{}
}

// find returns x's root and the parity of x against it (s.mu held).
func (s *lemmaStore) find(x origin) (origin, uint32) {
	// Up to the root, then a second pass points every node on the path
	// at it (path compression); iterative, as chains can be long.
	r, q := x, uint32(0)
	for {
		p, ok := s.parent[r]
		if !ok {
			break
		}
		r, q = origin(p>>1), q^uint32(p&1)
	}
	for y, qy := x, q; y != r; {
		p := s.parent[y]
		s.parent[y] = uint64(r)<<1 | uint64(qy)
		y, qy = origin(p>>1), qy^uint32(p&1)
	}
	return r, q
}

// root is find under the lock, for generation gen; ok is false when the
// store has moved on to another map.
func (s *lemmaStore) root(gen uint64, x origin) (origin, uint32, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen != gen {
		return 0, 0, false
	}
	r, q := s.find(x)
	return r, q, true
}

// union records x == y ^ neg (neg 0 or 1), proven in generation gen.
func (s *lemmaStore) union(gen uint64, x, y origin, neg uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen != gen {
		return
	}
	rx, qx := s.find(x)
	ry, qy := s.find(y)
	if rx == ry {
		return
	}
	if len(s.parent) >= maxLemmas {
		s.reset()
		return
	}
	// x = rx^qx, y = ry^qy, x = y^neg: rx = ry ^ (qx^qy^neg). The constant
	// stays a root, so that a class with it reads as a constant.
	if rx == originFalse {
		rx, ry = ry, rx
	}
	s.parent[rx] = uint64(ry)<<1 | uint64(qx^qy^neg)
}
