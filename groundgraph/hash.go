package groundgraph

import "slices"

// Colours are hashes of feature tuples, so that equal features give equal
// colours in every game, with no table shared between Builds. A collision
// can only merge two colour classes, which makes the search slower but never
// loses an isomorphism.

// hasher accumulates a sequence of integers into a 64-bit hash.
type hasher uint64

// Feature tags keep tuples of different kinds apart.
const (
	tagFunc uint64 = iota + 1
	tagProp
	tagAction
	tagRole
	tagGoal
	tagTerminal
	tagInteraction
	tagUse
	tagRefine
	tagNone
	tagCorner
	tagInfluence
	tagCornerPair
	tagActionClass
	tagCornerBreakers
	tagRoleUse
	tagJointMove
	tagPlay
)

func newHasher(tag uint64) hasher { return hasher(mix64(tag ^ 0x6a09e667f3bcc908)) }

// add appends x to the sequence.
func (h *hasher) add(x uint64) { *h = hasher(mix64(uint64(*h)*0x9e3779b97f4a7c15 + x)) }

// addInt appends a signed integer.
func (h *hasher) addInt(x int64) { h.add(uint64(x)) }

// addInts appends a length and the values.
func (h *hasher) addInts(xs []int64) {
	h.add(uint64(len(xs)))
	for _, x := range xs {
		h.addInt(x)
	}
}

// addMultiset appends the sorted values of xs (xs is sorted in place).
func (h *hasher) addMultiset(xs []uint64) {
	slices.Sort(xs)
	h.add(uint64(len(xs)))
	for _, x := range xs {
		h.add(x)
	}
}

func (h hasher) sum() uint64 { return mix64(uint64(h)) }

// mix64 is the SplitMix64 finalizer.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// color32 folds a 64-bit hash into a non-negative colour value.
func color32(h uint64) int32 { return int32((h ^ h>>32) & 0x7fffffff) }

// sortedInts returns a sorted copy of xs.
func sortedInts(xs []int64) []int64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}
