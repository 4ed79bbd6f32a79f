package groundgraph

// Ball cones: the part of a cone that can change within a corner level.
//
// A corner level k evaluates f only on points within distance k of the
// anchor. A slot whose flip bound (cornerbound.go) exceeds k keeps its
// anchor value on all of them, so the level may read it as a constant:
// ballCone replaces such slots by constants, propagates them, and keeps
// only the gates the root still reads. On those points the smaller cone
// computes every kept gate exactly as the full one, so the level's bitset,
// and the corners, counts and flags read off it, are the same; only the
// cost per point falls. Othello's goals count pieces up to 64 per colour;
// within four flips of the empty board only counts up to four can change.

// ballCone returns the cone that agrees with cn on every point within k
// flips of the anchor of bd (inputs and gate order kept, gates whose
// bound exceeds k folded to their anchor value), or cn itself when it
// would keep every gate.
func ballCone(cn *cone, bd *bounds, k int) *cone {
	first := cn.FirstGate()
	nSlots := cn.NumSlots()
	// lit[slot]: the literal of the new cone that computes slot near the
	// anchor (slot<<1 | negated in the new numbering; 0 false, 1 true).
	lit := make([]uint32, nSlots)
	constant := func(slot int) uint32 {
		if bd.val(slot) {
			return 1
		}
		return 0
	}
	for slot := 1; slot < first; slot++ {
		if bd.lb[slot] > k {
			lit[slot] = constant(slot)
		} else {
			lit[slot] = uint32(slot) << 1
		}
	}
	// Gates are numbered in the new cone once the root's reach is known:
	// first fold every gate to a literal over old slots, or a gate of its
	// own (marked by own[gi]).
	own := make([]bool, len(cn.Gates))
	fan := make([][]uint32, len(cn.Gates)) // folded fanins of own gates, over old slots
	var buf []uint32
	for gi := range cn.Gates {
		slot := first + gi
		if bd.lb[slot] > k {
			lit[slot] = constant(slot)
			continue
		}
		buf = buf[:0]
		isFalse := false
		for _, l := range cn.GateFanin(gi) {
			m := lit[l>>1] ^ (l & 1)
			switch {
			case m == 0:
				isFalse = true
			case m == 1:
				continue
			default:
				buf = append(buf, m)
			}
			if isFalse {
				break
			}
		}
		switch {
		case isFalse:
			lit[slot] = 0
		case len(buf) == 0:
			lit[slot] = 1
		case len(buf) == 1:
			lit[slot] = buf[0]
		default:
			own[gi] = true
			fan[gi] = append([]uint32(nil), buf...)
			lit[slot] = uint32(slot) << 1
		}
	}
	// Keep the own gates the root reaches.
	root := lit[cn.Root>>1] ^ (cn.Root & 1)
	keep := make([]bool, len(cn.Gates))
	stack := []uint32{root >> 1}
	for len(stack) > 0 {
		slot := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if slot < first || keep[slot-first] {
			continue
		}
		keep[slot-first] = true
		for _, l := range fan[slot-first] {
			stack = append(stack, l>>1)
		}
	}
	kept := 0
	for _, x := range keep {
		if x {
			kept++
		}
	}
	if kept == len(cn.Gates) {
		return cn
	}
	renum := make([]uint32, nSlots) // old slot -> new slot, for inputs and kept gates
	for slot := range first {
		renum[slot] = uint32(slot)
	}
	out := &cone{Inputs: cn.Inputs, Start: make([]int32, 1, kept+1)}
	out.Gates = make([]int32, 0, kept)
	for gi, x := range keep {
		if !x {
			continue
		}
		renum[first+gi] = uint32(first + len(out.Gates))
		for _, l := range fan[gi] {
			out.Fanin = append(out.Fanin, renum[l>>1]<<1|l&1)
		}
		out.Gates = append(out.Gates, cn.Gates[gi])
		out.Start = append(out.Start, int32(len(out.Fanin)))
	}
	out.Root = renum[root>>1]<<1 | root&1
	return out
}

// ballSim returns a simulator of ballCone(cn, bd, k) whose inputs are in
// (the cone's input vectors at the anchor, cornerBatchWords words each),
// or nil when the ball cone is the whole cone. Its values live in *buf,
// which it may reallocate: the simulator is void at the next use of buf.
func ballSim(cn *cone, bd *bounds, k int, in []uint64, buf *[]uint64) *coneSim {
	bc := ballCone(cn, bd, k)
	if bc == cn {
		return nil
	}
	s := &coneSim{Cone: bc, W: cornerBatchWords, Vals: zeroed(buf, bc.NumSlots()*cornerBatchWords)}
	copy(s.Vals, in)
	return s
}
