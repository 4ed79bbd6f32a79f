package grounding

import "encoding/binary"

// PropRenamingKey returns a key of the cone's structure up to a renaming
// of its proposition inputs, and the propositions in the order the key
// numbers them. isProp tells propositions from the other inputs (actions),
// which the key names by their circuit input, unrenamed.
//
// Propositions are numbered by first occurrence, reading the gates in cone
// order and each gate's fanins in stored order (then the root). Two cones
// with equal keys are the same circuit once the i-th proposition of one is
// renamed into the i-th of the other, so every property of a function that
// a bijection of the propositions preserves (its semantic support, mapped
// through the renaming; how its actions act on it) can be computed once for
// both. Different keys prove nothing. The key has about five bytes per
// fanin.
func (cn *Cone) PropRenamingKey(isProp func(in int32) bool) (key string, props []int32) {
	nIn := len(cn.Inputs)
	// num[s]: 1 + the number of the proposition in input slot s, or 0 (a
	// slice: a map sized for a cone's 172,000 inputs cost more than the key).
	num := make([]int32, nIn+1)
	buf := make([]byte, 0, 5*(len(cn.Fanin)+len(cn.Gates)+2))
	token := func(l uint32) {
		s := int32(l >> 1)
		switch {
		case s == 0:
			buf = binary.AppendUvarint(buf, uint64(l&1))
		case int(s) <= nIn:
			in := cn.Inputs[s-1]
			if !isProp(in) {
				buf = binary.AppendUvarint(buf, uint64(in)<<3|2|uint64(l&1))
				return
			}
			if num[s] == 0 {
				props = append(props, in)
				num[s] = int32(len(props))
			}
			buf = binary.AppendUvarint(buf, uint64(num[s]-1)<<3|4|uint64(l&1))
		default:
			buf = binary.AppendUvarint(buf, uint64(int(s)-nIn-1)<<3|6|uint64(l&1))
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(cn.Gates)))
	for gi := range cn.Gates {
		fan := cn.GateFanin(gi)
		buf = binary.AppendUvarint(buf, uint64(len(fan)))
		for _, l := range fan {
			token(l)
		}
	}
	token(cn.Root)
	return string(buf), props
}
