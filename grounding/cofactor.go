package grounding

import (
	"encoding/binary"
	"slices"
)

// CofactorHasher rebuilds a cone with some inputs fixed to constants, by
// constant propagation and structural hashing of the AND gates (fanins
// deduplicated and sorted, x ∧ ¬x = false). The table is shared across the
// cofactors it builds, so two cofactors whose simplified circuits are the
// same get the same literal: then they are the same function, with no SAT
// call. (Different literals prove nothing.)
type CofactorHasher struct {
	cn    *Cone
	table map[string]uint32 // sorted fanin literals -> node
	next  uint32            // next fresh node; nodes 1..len(inputs) are the inputs
	val   []uint32          // val[slot]: literal of the slot in the current cofactor
	key   []byte
	lits  []uint32
	base  []uint32 // SetBase's val
	fo    []int32  // LiteralWith's fanout buffer
}

// Literals of the circuits a CofactorHasher rebuilds: node<<1 | negated;
// node 0 is false, nodes 1..len(Inputs) are the cone's inputs.
const (
	CofactorFalse uint32 = 0
	CofactorTrue  uint32 = 1
)

// NewCofactorHasher returns a hasher of cn's cofactors.
func NewCofactorHasher(cn *Cone) *CofactorHasher {
	return &CofactorHasher{
		cn:    cn,
		table: map[string]uint32{},
		next:  uint32(1 + len(cn.Inputs)),
		val:   make([]uint32, cn.NumSlots()),
	}
}

// Literal returns the literal of the cone's root with every input k (a
// position in Inputs) for which fixed(k) returns (v, true) replaced by the
// constant v.
func (h *CofactorHasher) Literal(fixed func(k int) (bool, bool)) uint32 {
	cn := h.cn
	h.val[0] = CofactorFalse
	for k := range cn.Inputs {
		switch v, ok := fixed(k); {
		case !ok:
			h.val[1+k] = uint32(1+k) << 1
		case v:
			h.val[1+k] = CofactorTrue
		default:
			h.val[1+k] = CofactorFalse
		}
	}
	first := 1 + len(cn.Inputs)
	for gi := range cn.Gates {
		h.val[first+gi] = h.and(cn.Fanin[cn.Start[gi]:cn.Start[gi+1]])
	}
	return h.val[cn.Root>>1] ^ (cn.Root & 1)
}

// and hashes the AND of the fanins (cone-local literals) under h.val.
func (h *CofactorHasher) and(fanin []uint32) uint32 {
	h.lits = h.lits[:0]
	for _, l := range fanin {
		x := h.val[l>>1] ^ (l & 1)
		switch x {
		case CofactorFalse:
			return CofactorFalse
		case CofactorTrue:
			continue
		}
		h.lits = append(h.lits, x)
	}
	slices.Sort(h.lits)
	h.lits = slices.Compact(h.lits)
	for i := 1; i < len(h.lits); i++ {
		if h.lits[i] == h.lits[i-1]^1 {
			return CofactorFalse // x ∧ ¬x
		}
	}
	switch len(h.lits) {
	case 0:
		return CofactorTrue
	case 1:
		return h.lits[0]
	}
	h.key = h.key[:0]
	for _, x := range h.lits {
		h.key = binary.LittleEndian.AppendUint32(h.key, x)
	}
	if n, ok := h.table[string(h.key)]; ok {
		return n << 1
	}
	n := h.next
	h.next++
	h.table[string(h.key)] = n
	return n << 1
}

// SetBase rebuilds the cone under fixed (as Literal does), keeps the
// result as the base of LiteralWith, and returns the root's literal.
func (h *CofactorHasher) SetBase(fixed func(k int) (bool, bool)) uint32 {
	l := h.Literal(fixed)
	h.base = append(h.base[:0], h.val...)
	return l
}

// LiteralWith returns the root's literal under the base assignment (see
// SetBase) with cone input k fixed to v instead, rebuilding only k's
// fanout: the same literal Literal gives for that assignment, at the cost
// of the fanout instead of the cone.
func (h *CofactorHasher) LiteralWith(k int, v bool) uint32 {
	cn := h.cn
	h.val[1+k] = CofactorFalse
	if v {
		h.val[1+k] = CofactorTrue
	}
	fo := cn.CachedFanout(k, h.fo[:0])
	if _, ok := cn.cachedFanout(k); !ok {
		h.fo = fo // the scratch buffer, possibly grown; a cached fanout is not ours to reuse
	}
	first := cn.FirstGate()
	for _, gi := range fo {
		h.val[first+int(gi)] = h.and(cn.GateFanin(int(gi)))
	}
	root := h.val[cn.Root>>1] ^ (cn.Root & 1)
	h.val[1+k] = h.base[1+k]
	for _, gi := range fo {
		h.val[first+int(gi)] = h.base[first+int(gi)]
	}
	return root
}
