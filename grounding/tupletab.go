package grounding

import "slices"

// tupleTable indexes tuples of int32 by content with open addressing. It
// replaces maps keyed by the tuple's bytes as a string: those hashed and
// compared every lookup through the runtime's string map, which was a fifth
// of chess's grounding CPU. The table stores only positions; the caller
// keeps the tuples and passes a function that returns the one at a position.
type tupleTable struct {
	slots []int32 // position+1 of the tuple hashed there; 0 = empty
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

// find returns the position of t, or false. at returns the tuple at a
// position.
func (tt *tupleTable) find(t []int32, at func(int32) []int32) (int32, bool) {
	if len(tt.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(tt.slots) - 1)
	for i := hashTuple(t) & mask; ; i = (i + 1) & mask {
		s := tt.slots[i]
		if s == 0 {
			return 0, false
		}
		if slices.Equal(at(s-1), t) {
			return s - 1, true
		}
	}
}

// insert records position pos for t, which must not be present yet.
func (tt *tupleTable) insert(t []int32, pos int32, at func(int32) []int32) {
	if 4*(tt.n+1) > 3*len(tt.slots) {
		tt.grow(at)
	}
	tt.put(t, pos)
	tt.n++
}

func (tt *tupleTable) put(t []int32, pos int32) {
	mask := uint64(len(tt.slots) - 1)
	i := hashTuple(t) & mask
	for tt.slots[i] != 0 {
		i = (i + 1) & mask
	}
	tt.slots[i] = pos + 1
}

func (tt *tupleTable) grow(at func(int32) []int32) {
	size := 2 * len(tt.slots)
	if size < 16 {
		size = 16
	}
	old := tt.slots
	tt.slots = make([]int32, size)
	for _, s := range old {
		if s != 0 {
			tt.put(at(s-1), s-1)
		}
	}
}
