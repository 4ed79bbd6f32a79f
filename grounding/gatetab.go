package grounding

import "slices"

// gateTable finds a builder's gates by their fanins with open addressing.
// It replaces a Go map from the fanins' hash to a chain of gates: on the
// big games the map lookup was an eighth of the grounding CPU (AlexChess,
// 1.2 of 9.5 s; a map of two million entries misses the cache twice per
// lookup), and most lookups are for new gates. A slot holds the hash's
// high 32 bits, which also choose the slot, so the table grows without
// hashing the fanins again.
type gateTable struct {
	slots []uint64 // tag<<32 | gate+1; 0 = empty
	n     int
}

// gateTag is the part of a fanin hash a slot keeps, mixed first
// (murmur3's finalizer): HashLits's high bits alone cluster on gates of
// neighbouring literals, and linear probing then walks long runs
// (pancakes88 took 13 CPU s instead of 1.8 in gateTable).
func gateTag(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h >> 32
}

// find returns the gate with fanins fs (hash h), or false; fanins returns
// a gate's fanins.
func (t *gateTable) find(h uint64, fs []Lit, fanins func(int) []Lit) (int32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	tag := gateTag(h)
	mask := uint64(len(t.slots) - 1)
	for i := tag & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if s>>32 == tag {
			if g := int32(uint32(s)) - 1; slices.Equal(fanins(int(g)), fs) {
				return g, true
			}
		}
	}
}

// insert records gate g, whose fanins hash to h and are not in the table.
func (t *gateTable) insert(h uint64, g int32) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	t.put(gateTag(h)<<32 | uint64(uint32(g+1)))
	t.n++
}

func (t *gateTable) put(s uint64) {
	mask := uint64(len(t.slots) - 1)
	i := (s >> 32) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

func (t *gateTable) grow() {
	old := t.slots
	t.slots = make([]uint64, max(2*len(old), 1024))
	for _, s := range old {
		if s != 0 {
			t.put(s)
		}
	}
}
