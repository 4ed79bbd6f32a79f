package grounding

import "slices"

// tupleTable indexes tuples of int32 by content with open addressing. It
// replaces maps keyed by the tuple's bytes as a string: those hashed and
// compared every lookup through the runtime's string map, which was a fifth
// of chess's grounding CPU. The table stores only positions; the caller
// keeps the tuples and passes a function that returns the one at a position.
type tupleTable struct {
	// slots hold position+1 of the tuple hashed there in the low 32 bits
	// (0 = empty) and the hash's high 32 bits above, so that a probe past
	// another tuple rarely fetches that tuple (chess: 2.9 of 31 CPU s
	// went to comparing tuples of other slots). Those bits also choose
	// the slot, so the table grows without fetching and hashing every
	// tuple again (a twentieth of chess's grounding CPU).
	slots []uint64
	n     int
}

// hashTuple is FNV-1a over the 32-bit values, finished with a 64-bit mix so
// that the low bits (the slot) depend on every value.
func hashTuple(t []int32) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range t {
		h ^= uint64(uint32(x))
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

const tagMask = uint64(0xffffffff00000000)

// find returns the position of t, or false. at returns the tuple at a
// position.
func (tt *tupleTable) find(t []int32, at func(int32) []int32) (int32, bool) {
	if len(tt.slots) == 0 {
		return 0, false
	}
	h := hashTuple(t)
	mask, tag := uint64(len(tt.slots)-1), h&tagMask
	for i := (h >> 32) & mask; ; i = (i + 1) & mask {
		s := tt.slots[i]
		if s == 0 {
			return 0, false
		}
		if s&tagMask == tag {
			if pos := int32(uint32(s)) - 1; slices.Equal(at(pos), t) {
				return pos, true
			}
		}
	}
}

// insert records position pos for t, which must not be present yet.
func (tt *tupleTable) insert(t []int32, pos int32) {
	if 4*(tt.n+1) > 3*len(tt.slots) {
		tt.grow()
	}
	tt.put(hashTuple(t)&tagMask | uint64(uint32(pos+1)))
	tt.n++
}

// put places slot value s at the first free slot from its tag's.
func (tt *tupleTable) put(s uint64) {
	mask := uint64(len(tt.slots) - 1)
	i := (s >> 32) & mask
	for tt.slots[i] != 0 {
		i = (i + 1) & mask
	}
	tt.slots[i] = s
}

func (tt *tupleTable) grow() {
	size := 2 * len(tt.slots)
	if size < 16 {
		size = 16
	}
	old := tt.slots
	tt.slots = make([]uint64, size)
	for _, s := range old {
		if s != 0 {
			tt.put(s)
		}
	}
}
