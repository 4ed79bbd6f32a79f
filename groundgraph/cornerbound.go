package groundgraph

import (
	"cmp"
	"math"
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
	// limit caps the bounds.
	limit int
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
	bd := &bounds{cn: cn, val: val, lb: lb, sup: sup, nw: nw, limit: limit}
	// Fanins read by flattening, over all gates: a few passes over the
	// cone, so that nested false gates cost no more.
	pk := bd.newPacker(4 * len(cn.Fanin))
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
		lb[slot] = pk.falseBound(slot, nil)
	}
	return bd
}

// packer computes the bound of a false gate, with its scratch space.
type packer struct {
	bd          *bounds
	flatLeft    int // fanins that flattening may still read
	reqs, stack []uint32
	score, idx  []int
	cover       []int
	union       []uint64
}

func (bd *bounds) newPacker(flatLeft int) *packer {
	pk := &packer{bd: bd, flatLeft: flatLeft}
	if bd.sup != nil {
		pk.union = make([]uint64, bd.nw)
		pk.cover = make([]int, 64*bd.nw)
	}
	return pk
}

// falseBound returns the bound of the false gate slot, from the bounds of
// the slots below it. With keep it also appends to keep's target the
// requirements of the packing that gives the bound (nil when the bound is
// not a sum over disjoint supports).
func (pk *packer) falseBound(slot int, keep *[]uint32) int {
	bd := pk.bd
	cn, lb, sup, nw, limit := bd.cn, bd.lb, bd.sup, bd.nw, bd.limit
	first := cn.FirstGate()
	// Every false fanin literal must become true; a false fanin gate
	// read positively must itself become true, so its own false
	// fanins are requirements too (Connect Four's OR of lines is an
	// OR of ORs), up to maxBoundReqs of them. The gate's own fanins are
	// always read: past the flattening budget the gate itself would be
	// its requirement, with its bound not yet computed (the cap).
	reqs, stack := pk.reqs[:0], append(pk.stack[:0], uint32(slot)<<1)
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x := int(l >> 1); l&1 == 0 && x >= first && (x == slot || len(reqs)+len(stack) < maxBoundReqs && pk.flatLeft > 0) {
			pk.flatLeft -= len(cn.GateFanin(x - first))
			for _, f := range cn.GateFanin(x - first) {
				if bd.val(int(f>>1)) == (f&1 == 1) { // literal false
					stack = append(stack, f)
				}
			}
			continue
		}
		reqs = append(reqs, l)
	}
	pk.reqs, pk.stack = reqs, stack
	if sup == nil {
		b := 0
		for _, l := range reqs {
			b = max(b, lb[l>>1])
		}
		return b
	}
	// Greedy packings of requirements with disjoint supports, the
	// better of two orders: the largest bounds first, and the least
	// contested supports first (the sum over a support of how many
	// requirements hold each position; the lines in Connect Four's
	// corners before those through its centre).
	cover := pk.cover
	clear(cover)
	for _, l := range reqs {
		for x, v := range sup[int(l>>1)*nw : int(l>>1+1)*nw] {
			for ; v != 0; v &= v - 1 {
				cover[64*x+bits.TrailingZeros64(v)]++
			}
		}
	}
	score, idx := pk.score[:0], pk.idx[:0]
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
	pk.score, pk.idx = score, idx
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(score[a], score[b]), cmp.Compare(lb[reqs[b]>>1], lb[reqs[a]>>1]))
	})
	b1 := pack(reqs, idx, lb, sup, nw, pk.union, limit, nil)
	if keep != nil {
		var taken []uint32
		if pack(reqs, idx, lb, sup, nw, pk.union, limit, &taken) == b1 {
			*keep = taken
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(lb[reqs[b]>>1], lb[reqs[a]>>1]), cmp.Compare(score[a], score[b]))
	})
	b2 := pack(reqs, idx, lb, sup, nw, pk.union, limit, nil)
	if keep != nil && b2 > b1 {
		var taken []uint32
		pack(reqs, idx, lb, sup, nw, pk.union, limit, &taken)
		*keep = taken
	}
	return max(b1, b2)
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

// A family is a set of candidate sets that may change a slot, of lb(slot)
// propositions each: a leaf holds every lb(slot)-subset of sup(slot); a
// product (reqs set) holds the unions of one set of each requirement's
// families, their supports pairwise disjoint.
type family struct {
	slot int
	reqs []uint32 // requirement literals of a product; nil for a leaf
}

// families are the families of every slot walked, by slot.
type families struct {
	bd   *bounds
	of   map[int][]family
	root []family
}

// positions returns the positions below slot, ascending.
func (bd *bounds) positions(slot int) []int {
	var ps []int
	for x, v := range bd.sup[slot*bd.nw : (slot+1)*bd.nw] {
		for ; v != 0; v &= v - 1 {
			ps = append(ps, 64*x+bits.TrailingZeros64(v))
		}
	}
	return ps
}

// families returns families that hold, between them, every set of k =
// lb(root) propositions whose flip changes the root. A set T of k flips
// changes a slot of bound k only as follows, so the families of a slot at
// its own bound are:
//
//   - a true AND gate, only by changing a fanin i, which needs
//     |T ∩ sup(i)| ≥ lb(i) ≥ k, so T ⊆ sup(i) with lb(i) = k and T changes
//     i: the families of those fanins;
//   - a false gate, only if T changes each false fanin, so when a false
//     fanin f has lb(f) = k, T ⊆ sup(f) and T changes f: the families of
//     f (the one of smallest support);
//   - a false gate whose bound is a sum over requirements r with disjoint
//     supports (flipBounds), only if T changes each r, with
//     |T ∩ sup(r)| ≥ lb(r): the bounds summing to k, T is the union of
//     lb(r)-subsets of sup(r), each changing r (r reads nothing outside
//     sup(r)): a product of the families of the r. From the all-true
//     state Tic-tac-toe's terminal needs the lines of x and of o broken,
//     one cell of each row of either: 27·27 sets instead of C(27,6);
//   - otherwise T ⊆ sup(slot): a leaf.
//
// For "a line of x" from the empty state the families are the lines. It
// returns nil when the supports are unknown or a slot has more than
// maxFamilies.
func (bd *bounds) families() *families {
	if bd.sup == nil {
		return nil
	}
	first := bd.cn.FirstGate()
	fs := &families{bd: bd, of: map[int][]family{}}
	var pk *packer
	// walk returns the families of slot, each once, or nil when there
	// are more than maxFamilies.
	seen := map[int]bool{} // leaves by slot, products by -1-slot
	var walk func(slot int) []family
	walk = func(slot int) []family {
		if out, ok := fs.of[slot]; ok {
			return out
		}
		k := bd.lb[slot]
		out := []family{{slot: slot}}
		switch {
		case slot < first:
		case bd.val(slot):
			out = nil
			for _, l := range bd.cn.GateFanin(slot - first) {
				if bd.lb[l>>1] == k {
					sub := walk(int(l >> 1))
					if sub == nil {
						fs.of[slot] = nil
						return nil
					}
					out = append(out, sub...)
				}
			}
		default:
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
				out = walk(best)
				break
			}
			if pk == nil {
				pk = bd.newPacker(4 * len(bd.cn.Fanin))
			}
			var reqs []uint32
			if pk.falseBound(slot, &reqs) != k || len(reqs) < 2 {
				break
			}
			for _, r := range reqs {
				if walk(int(r>>1)) == nil {
					reqs = nil
					break
				}
			}
			if reqs != nil {
				out = []family{{slot: slot, reqs: reqs}}
			}
		}
		// A slot reached twice gives its families once.
		clear(seen)
		var uniq []family
		for _, f := range out {
			key := f.slot
			if f.reqs != nil {
				key = -1 - f.slot
			}
			if !seen[key] {
				seen[key] = true
				uniq = append(uniq, f)
			}
		}
		if len(uniq) > maxFamilies {
			uniq = nil
		}
		fs.of[slot] = uniq
		return uniq
	}
	if fs.root = walk(int(bd.cn.Root >> 1)); fs.root == nil {
		return nil
	}
	return fs
}

// size returns the number of sets of the families, saturating.
func (fs *families) size(list []family) int64 {
	var c int64
	for _, f := range list {
		var m int64
		if f.reqs == nil {
			m = binomial(fs.bd.supSize(f.slot), fs.bd.lb[f.slot])
		} else {
			m = 1
			for _, r := range f.reqs {
				x := fs.size(fs.of[int(r>>1)])
				if x != 0 && m > math.MaxInt64/x {
					return math.MaxInt64
				}
				m *= x
			}
		}
		if c > math.MaxInt64-m {
			return math.MaxInt64
		}
		c += m
	}
	return c
}

// each calls fn with every set of the family f (positions, unordered,
// appended to buf) until fn returns false, and reports whether it did not.
// fn must not change the set: its prefix is the enumeration's state.
func (fs *families) each(f family, buf []int, fn func([]int) bool) bool {
	if f.reqs == nil {
		ps := fs.bd.positions(f.slot)
		j := fs.bd.lb[f.slot]
		if len(ps) < j {
			return true
		}
		c := firstComb(j)
		for {
			set := buf
			for _, x := range c {
				set = append(set, ps[x])
			}
			if !fn(set) {
				return false
			}
			if !nextComb(c, len(ps)) {
				return true
			}
		}
	}
	var rec func(i int, buf []int) bool
	rec = func(i int, buf []int) bool {
		if i == len(f.reqs) {
			return fn(buf)
		}
		for _, g := range fs.of[int(f.reqs[i]>>1)] {
			if !fs.each(g, buf, func(set []int) bool { return rec(i+1, set) }) {
				return false
			}
		}
		return true
	}
	return rec(0, buf)
}

// pack sums, capped at limit, the bounds of the requirements reqs[idx[i]]
// taken in order when their supports are disjoint from those taken before.
// When taken is not nil, the requirements taken are appended to it.
func pack(reqs []uint32, idx []int, lb []int, sup []uint64, nw int, union []uint64, limit int, taken *[]uint32) int {
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
		if taken != nil {
			*taken = append(*taken, l)
		}
		if b += lb[l>>1]; b >= limit {
			return limit
		}
	}
	return b
}
