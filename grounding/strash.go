package grounding

import "slices"

// HashLits is the structural hash of a gate: a hash of its sorted fanin
// literals. The circuit builder hash-conses gates with it, and StrashIndex
// finds existing gates with it.
func HashLits(ls []Lit) uint64 {
	h := uint64(14695981039346656037)
	for _, l := range ls {
		h ^= uint64(l)
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// StrashIndex finds the gate of a finished circuit with given fanins.
type StrashIndex struct {
	c       *Circuit
	buckets map[uint64]int32 // hash of sorted fanins -> last gate with that hash
	chain   []int32          // chain[g-NumInputs-1]: previous gate with the same hash, or -1
}

// NewStrashIndex indexes every gate of c by its fanins.
func NewStrashIndex(c *Circuit) *StrashIndex {
	x := &StrashIndex{c: c, buckets: make(map[uint64]int32, c.NumGates()), chain: make([]int32, c.NumGates())}
	for g := c.NumInputs + 1; g < c.NumNodes(); g++ {
		h := HashLits(c.Fanins(g))
		prev, ok := x.buckets[h]
		if !ok {
			prev = -1
		}
		x.chain[g-c.NumInputs-1] = prev
		x.buckets[h] = int32(g)
	}
	return x
}

// Find returns the positive literal of the gate whose fanins are exactly fs
// (sorted), if there is one.
func (x *StrashIndex) Find(fs []Lit) (Lit, bool) {
	g, ok := x.buckets[HashLits(fs)]
	if !ok {
		return 0, false
	}
	for ; g >= 0; g = x.chain[int(g)-x.c.NumInputs-1] {
		if slices.Equal(x.c.Fanins(int(g)), fs) {
			return Lit(g) << 1, true
		}
	}
	return 0, false
}
