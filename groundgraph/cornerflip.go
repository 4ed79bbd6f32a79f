package groundgraph

// Sparse flips: a corner level's flips re-evaluate only what changes.
//
// coneSim.Flip re-evaluates every gate of an input's fanout. Near an
// anchor most flips change few of them: a gate whose new value equals its
// old one on every lane stops the change there. sparseFlip evaluates, in
// order, only the gates that read a changed slot (a heap of gate indices,
// which are topological), so the cost is the gates a change reaches.
// Othello's goals from the full board: a flip changes a few piece counts,
// and the change dies long before the root.

// sparseFlip keeps the scratch space of one simulator's sparse flips.
type sparseFlip struct {
	s      *coneSim
	mark   []int32  // 1 + index into vals of a changed slot, or 0
	vals   []uint64 // new values of the changed gates, wn words each
	queued []bool   // per gate: in heap
	heap   []int32  // gate indices, a min-heap
	set    []int    // slots marked
}

func newSparseFlip(s *coneSim) *sparseFlip {
	return &sparseFlip{
		s:      s,
		mark:   make([]int32, s.Cone.NumSlots()),
		queued: make([]bool, len(s.Cone.Gates)),
	}
}

// push queues the gates that read slot.
func (sf *sparseFlip) push(slot int) {
	for _, gi := range sf.s.Cone.Users(slot) {
		if sf.queued[gi] {
			continue
		}
		sf.queued[gi] = true
		h := append(sf.heap, gi)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if h[p] <= h[i] {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		sf.heap = h
	}
}

// pop removes and returns the smallest gate index queued.
func (sf *sparseFlip) pop() int32 {
	h := sf.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1] < h[c] {
			c++
		}
		if h[i] <= h[c] {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	sf.heap = h
	sf.queued[top] = false
	return top
}

// flip writes to out[:wn] the root's value on the first wn words with
// cone input k negated, like coneSim.Flip, against the values of the
// simulator's last Eval, which it leaves unchanged. It returns the
// gate-word evaluations done.
func (sf *sparseFlip) flip(k, wn int, out []uint64) int64 {
	s := sf.s
	cn, w := s.Cone, s.W
	first := cn.FirstGate()
	inSlot := 1 + k
	mark, vals := sf.mark, s.Vals
	nv := 0 // vectors in sf.vals
	var ops int64
	sf.push(inSlot)
	for len(sf.heap) > 0 {
		gi := sf.pop()
		fan := cn.GateFanin(int(gi))
		if need := (nv + 1) * wn; len(sf.vals) < need {
			sf.vals = append(sf.vals, make([]uint64, need-len(sf.vals)+len(sf.vals)/2)...)
		}
		dst := sf.vals[nv*wn : (nv+1)*wn]
		for fi, l := range fan {
			x := int(l >> 1)
			neg := -uint64(l & 1)
			var src []uint64
			switch m := mark[x]; {
			case m > 0:
				src = sf.vals[int(m-1)*wn:][:wn]
			case x == inSlot:
				src, neg = vals[x*w:][:wn], ^neg
			default:
				src = vals[x*w:][:wn]
			}
			if fi == 0 {
				for i := range dst {
					dst[i] = src[i] ^ neg
				}
			} else {
				for i := range dst {
					dst[i] &= src[i] ^ neg
				}
			}
		}
		ops += int64(wn)
		slot := first + int(gi)
		old := vals[slot*w:][:wn]
		for i := range dst {
			if dst[i] != old[i] {
				nv++
				mark[slot] = int32(nv)
				sf.set = append(sf.set, slot)
				sf.push(slot)
				break
			}
		}
	}
	root := int(cn.Root >> 1)
	neg := -uint64(cn.Root & 1)
	src := vals[root*w:][:wn]
	switch m := mark[root]; {
	case m > 0:
		src = sf.vals[int(m-1)*wn:][:wn]
	case root == inSlot:
		neg = ^neg
	}
	for i := range wn {
		out[i] = src[i] ^ neg
	}
	for _, slot := range sf.set {
		mark[slot] = 0
	}
	sf.set = sf.set[:0]
	return ops
}
