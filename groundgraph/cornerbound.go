package groundgraph

import (
	"cmp"
	"math/bits"
	"slices"
)

// Flip bounds: levels of a corner search that cannot hold a change.
//
// From an anchor, a gate's value changes only when enough propositions
// flip. A true AND gate changes when one fanin literal does, so it needs
// at least the fewest flips of any fanin; a false one needs every false
// fanin literal to change, so at least the sum of the bounds of false
// fanins whose semantic supports (the searched propositions below them)
// are disjoint, since a flip outside a fanin's support cannot change it.
// When the root needs more than k flips, no k-subset changes f: level k
// of the search is empty and is not evaluated. For "a line of x" from the
// all-true state, changing the root means breaking every line, at least
// one flip in each of the disjoint lines (12 on Connect Four's board), so
// the search from that anchor evaluates nothing. The bound only skips
// work whose outcome it proves: the corners found are the same.

// maxBoundWords bounds the support bitsets of one bound computation
// (slots × words of n bits): beyond it the bound of a false gate is the
// largest of its false fanins' (no packing), still a lower bound.
const maxBoundWords = 1 << 22

// maxBoundReqs bounds the requirements one false gate's bound collects
// through false fanin gates (and all gates together read at most four
// times the cone's fanins doing so).
const maxBoundReqs = 1 << 10

// flipBound returns a lower bound, capped at limit, on the number of
// semantic propositions (cone input positions pos) to flip from the anchor
// to change the cone's root. s holds the anchor's slot values in bit 0 of
// each slot's first word (atAnchor). Inputs outside pos never flip. The
// supports take at most maxWords words (maxBoundWords).
func flipBound(cn *cone, s *coneSim, pos []int, limit, maxWords int) int {
	return flipBounds(cn, s, pos, limit, maxWords).root()
}

// bounds are flipBound's per-slot results.
type bounds struct {
	cn  *cone
	val func(slot int) bool // value at the anchor
	lb  []int               // per slot, capped
	sup []uint64            // per slot, nw words: the positions below it; nil when too big
	nw  int
}

func (bd *bounds) root() int { return bd.lb[bd.cn.Root>>1] }

// flipBounds is flipBound for every slot.
func flipBounds(cn *cone, s *coneSim, pos []int, limit, maxWords int) *bounds {
	nSlots := cn.NumSlots()
	w := s.W
	val := func(slot int) bool { return s.Vals[slot*w]&1 == 1 }
	lb := make([]int, nSlots)
	for i := range lb {
		lb[i] = limit // constants and fixed inputs never change
	}
	nw := (len(pos) + 63) / 64
	var sup []uint64 // sup[slot*nw:]: the positions below slot
	if nSlots*nw <= maxWords {
		sup = make([]uint64, nSlots*nw)
	}
	for j, k := range pos {
		lb[1+k] = 1
		if sup != nil {
			sup[(1+k)*nw+j/64] |= 1 << (j % 64)
		}
	}
	first := cn.FirstGate()
	var reqs, stack []uint32
	// Fanins read by flattening, over all gates: a few passes over the
	// cone, so that nested false gates cost no more.
	flatLeft := 4 * len(cn.Fanin)
	var union []uint64
	var score, idx, cover []int
	if sup != nil {
		union = make([]uint64, nw)
		cover = make([]int, len(pos))
	}
	for gi := range cn.Gates {
		slot := first + gi
		fan := cn.GateFanin(gi)
		if sup != nil {
			dst := sup[slot*nw : (slot+1)*nw]
			for _, l := range fan {
				for x, v := range sup[int(l>>1)*nw : int(l>>1+1)*nw] {
					dst[x] |= v
				}
			}
		}
		if val(slot) {
			b := limit
			for _, l := range fan {
				b = min(b, lb[l>>1])
			}
			lb[slot] = b
			continue
		}
		// Every false fanin literal must become true; a false fanin gate
		// read positively must itself become true, so its own false
		// fanins are requirements too (Connect Four's OR of lines is an
		// OR of ORs), up to maxBoundReqs of them.
		reqs, stack = reqs[:0], append(stack[:0], uint32(slot)<<1)
		for len(stack) > 0 {
			l := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x := int(l >> 1); l&1 == 0 && x >= first && len(reqs)+len(stack) < maxBoundReqs && flatLeft > 0 {
				flatLeft -= len(cn.GateFanin(x - first))
				for _, f := range cn.GateFanin(x - first) {
					if val(int(f>>1)) == (f&1 == 1) { // literal false
						stack = append(stack, f)
					}
				}
				continue
			}
			reqs = append(reqs, l)
		}
		if sup == nil {
			b := 0
			for _, l := range reqs {
				b = max(b, lb[l>>1])
			}
			lb[slot] = b
			continue
		}
		// Greedy packings of requirements with disjoint supports, the
		// better of two orders: the largest bounds first, and the least
		// contested supports first (the sum over a support of how many
		// requirements hold each position; the lines in Connect Four's
		// corners before those through its centre).
		clear(cover)
		for _, l := range reqs {
			for x, v := range sup[int(l>>1)*nw : int(l>>1+1)*nw] {
				for ; v != 0; v &= v - 1 {
					cover[64*x+bits.TrailingZeros64(v)]++
				}
			}
		}
		score = score[:0]
		idx = idx[:0]
		for i, l := range reqs {
			c := 0
			for x, v := range sup[int(l>>1)*nw : int(l>>1+1)*nw] {
				for ; v != 0; v &= v - 1 {
					c += cover[64*x+bits.TrailingZeros64(v)]
				}
			}
			score = append(score, c)
			idx = append(idx, i)
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			return cmp.Or(cmp.Compare(score[a], score[b]), cmp.Compare(lb[reqs[b]>>1], lb[reqs[a]>>1]))
		})
		b := pack(reqs, idx, lb, sup, nw, union, limit)
		slices.SortStableFunc(idx, func(a, b int) int {
			return cmp.Or(cmp.Compare(lb[reqs[b]>>1], lb[reqs[a]>>1]), cmp.Compare(score[a], score[b]))
		})
		lb[slot] = max(b, pack(reqs, idx, lb, sup, nw, union, limit))
	}
	return &bounds{cn: cn, val: val, lb: lb, sup: sup, nw: nw}
}

// maxFamilies bounds the candidate families of one level (see families).
const maxFamilies = 1 << 12

// supSize counts the positions below slot.
func (bd *bounds) supSize(slot int) int {
	c := 0
	for _, v := range bd.sup[slot*bd.nw : (slot+1)*bd.nw] {
		c += bits.OnesCount64(v)
	}
	return c
}

// families returns slots whose supports hold, between them, every set of
// k = lb(root) propositions whose flip changes the root: a set T of k
// flips changes a true AND gate only by changing a fanin i, which needs
// |T ∩ sup(i)| ≥ lb(i) ≥ k, so T ⊆ sup(i) with lb(i) = k; and changes a
// false gate g only if T ⊆ sup(g), as lb(g) = k, and only by changing
// each false fanin, so T ⊆ sup(f) for a false fanin f with lb(f) = k. For "a line of x" from
// the empty state the families are the lines. It returns nil when the
// supports are unknown or there are more than maxFamilies.
func (bd *bounds) families() []int {
	if bd.sup == nil {
		return nil
	}
	k := bd.root()
	first := bd.cn.FirstGate()
	var out []int
	seen := map[int]bool{}
	var walk func(slot int) bool
	walk = func(slot int) bool {
		if seen[slot] {
			return true
		}
		seen[slot] = true
		if slot >= first && !bd.val(slot) {
			// Every false fanin literal must change: one whose bound
			// is k holds T too (the one of smallest support).
			best, size := -1, 0
			for _, l := range bd.cn.GateFanin(slot - first) {
				if f := int(l >> 1); bd.val(f) == (l&1 == 1) && bd.lb[f] == k {
					if c := bd.supSize(f); best < 0 || c < size {
						best, size = f, c
					}
				}
			}
			if best >= 0 {
				return walk(best)
			}
		}
		if slot < first || !bd.val(slot) {
			out = append(out, slot)
			return len(out) <= maxFamilies
		}
		for _, l := range bd.cn.GateFanin(slot - first) {
			if bd.lb[l>>1] == k && !walk(int(l>>1)) {
				return false
			}
		}
		return true
	}
	if !walk(int(bd.cn.Root >> 1)) {
		return nil
	}
	return out
}

// pack sums, capped at limit, the bounds of the requirements reqs[idx[i]]
// taken in order when their supports are disjoint from those taken before.
func pack(reqs []uint32, idx []int, lb []int, sup []uint64, nw int, union []uint64, limit int) int {
	clear(union)
	b := 0
	for _, i := range idx {
		l := reqs[i]
		ls := sup[int(l>>1)*nw : int(l>>1+1)*nw]
		disjoint := true
		for x, v := range ls {
			if union[x]&v != 0 {
				disjoint = false
				break
			}
		}
		if !disjoint {
			continue
		}
		for x, v := range ls {
			union[x] |= v
		}
		if b += lb[l>>1]; b >= limit {
			return limit
		}
	}
	return b
}
