package satcheck

import (
	"math/bits"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// Slices of the other roles' moves (settleClasses). A function of the
// state and the moves equals another when it does for each joint move of
// the other roles, so two choices of a role whose cofactors simplify to
// the same circuit on every such slice (constant propagation and
// structural hashing, the other roles' moves constants) are the same
// function. Fixing those moves folds away what needs one-hot reasoning,
// which SAT finds hard: attritionWar's (next (whitescore 67)) has a class
// of 57 bids of white whose cofactors differ as circuits (does(b,y) ∧
// ⋁_{y'<x} does(b,y') for white's bid x) and that one SAT call proved
// equal in 26 s; on each of the 102 slices of black's bids they are one
// literal.

// sliceKeys holds, for the choices of one group that settleClasses has
// asked about, classes: two choices of one class are equal on every
// slice.
//
// Only one choice per cofactor circuit is sliced, of the group's and of
// every other group's: two choices whose cofactors hash to one literal
// (grounding.CofactorHasher, the other groups free) get one literal on
// every slice too, since both hashers simplify each gate by the same local
// rules, so fixing more inputs maps one simplified circuit to one result.
// A role's choices have far fewer circuits than members (checkers: 20 to
// 40 of some 600 moves, the moves of a piece that the function reads
// alike), and the slices cost rows times columns.
type sliceKeys struct {
	an     *analysis
	gi     int
	rep    []int   // rep[c]: the choice of gi sliced for c (one per cofactor circuit)
	others []int   // the other groups
	cols   [][]int // cols[i]: the choices of others[i] sliced (one per cofactor circuit)
	slices int64   // joint moves of the other groups' sliced choices
	h      *sliceHasher
	class  []int32 // class[rep[c]]: choice c's class; -1 until computed
	next   int32   // the next class
	off    bool    // finding the circuits would cost too much: nothing is sliced
}

// newSliceKeys returns the sliceKeys of group gi. Finding one choice per
// circuit rebuilds every member's fanout once; when that is over
// maxSliceWork gates, no choice is sliced (sliceKeys.off).
func (an *analysis) newSliceKeys(gi int) *sliceKeys {
	return an.newSliceKeysWithin(gi, maxSliceWork)
}

// newSliceKeysWithin is newSliceKeys with maxWork for maxSliceWork's
// bound on finding the circuits.
func (an *analysis) newSliceKeysWithin(gi int, maxWork int64) *sliceKeys {
	sk := &sliceKeys{an: an, gi: gi, slices: 1, class: make([]int32, an.j.groups[gi].radix())}
	if an.circuitWork() > maxWork {
		sk.off = true
		return sk
	}
	ch := grounding.NewCofactorHasher(an.cn)
	circuits := func(g int) [][]int {
		return an.cofactorGroupsWith(ch, g, allChoices(an.j.groups[g].radix()))
	}
	sk.rep = make([]int, len(sk.class))
	for _, grp := range circuits(gi) {
		for _, c := range grp {
			sk.rep[c] = grp[0]
		}
	}
	for i := range an.j.groups {
		if i == gi {
			continue
		}
		var col []int
		for _, grp := range circuits(i) {
			col = append(col, grp[0])
		}
		sk.others = append(sk.others, i)
		sk.cols = append(sk.cols, col)
		sk.slices = min(sk.slices*int64(len(col)), maxSliceWork+1)
	}
	for c := range sk.class {
		sk.class[c] = -1
	}
	return sk
}

// allChoices returns the choices 0..n-1 of a group of radix n.
func allChoices(n int) []int {
	all := make([]int, n)
	for c := range all {
		all[c] = c
	}
	return all
}

// circuitWork returns the gates that finding one choice per circuit of
// every group rebuilds: the cone once per group (the cofactor with no
// member made), then each member's fanout. It also bounds the nodes of
// the CofactorHasher that does it.
func (an *analysis) circuitWork() int64 {
	w := int64(0)
	for _, g := range an.j.groups {
		w += int64(len(an.cn.Gates))
		for _, m := range g.members {
			w += int64(len(an.cn.CachedFanout(int(m), nil)))
		}
	}
	return w
}

// missing returns the representatives of the choices of set whose class
// is not computed yet, each once.
func (sk *sliceKeys) missing(set []int, seen map[int]bool) []int {
	var out []int
	for _, c := range set {
		if r := sk.rep[c]; sk.class[r] < 0 && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// prepare computes the choices of parts (candidate classes) at once if
// that is within maxSliceWork: each computation rebuilds the cone once
// per slice, and settleClasses asks about one candidate class after
// another (attritionWar: 523 calls, most for 2 to 4 choices).
func (sk *sliceKeys) prepare(parts [][]int) {
	if sk.off {
		return
	}
	var todo [][]int
	var all []int
	seen := map[int]bool{}
	for _, part := range parts {
		if m := sk.missing(part, seen); len(m) > 0 {
			todo = append(todo, m)
			all = append(all, m...)
		}
	}
	if len(all) > 0 && sk.work(all) <= maxSliceWork {
		sk.compute(todo)
	}
}

// group returns the choices of set grouped by class (each group the same
// function), or nil when computing them would rebuild more than
// maxSliceWork gates.
func (sk *sliceKeys) group(set []int) [][]int {
	if sk.off {
		return nil
	}
	if m := sk.missing(set, map[int]bool{}); len(m) > 0 {
		if sk.work(m) > maxSliceWork {
			return nil
		}
		sk.compute([][]int{m})
	}
	return grounding.GroupBy(set, func(c int) int32 { return sk.class[sk.rep[c]] })
}

// work returns the gates compute rebuilds at most for the choices cs.
func (sk *sliceKeys) work(cs []int) int64 {
	cn, g := sk.an.cn, &sk.an.j.groups[sk.gi]
	w := int64(len(cn.Gates)) // each slice's base
	for _, c := range cs {
		if c < len(g.members) {
			w += int64(len(cn.CachedFanout(int(g.members[c]), nil)))
		}
	}
	return min(w*sk.slices, maxSliceWork+1)
}

// compute classes the choices of parts (representatives, see sliceKeys):
// two choices of one part are in one class when their literals agree on
// every slice. Once no two choices can be in one class any more it stops,
// each in a class of its own: that is what a choice whose cofactors all
// differ from the others' gets (checkers: candidate classes of moves that
// differ from the first slices on).
func (sk *sliceKeys) compute(parts [][]int) {
	j, cn := sk.an.j, sk.an.cn
	g := &j.groups[sk.gi]
	if sk.h == nil {
		sk.h = newSliceHasher(cn)
	}
	h := sk.h
	var cs []int
	cur := map[int]int32{} // each choice's class on the slices so far
	n := int32(0)
	for _, part := range parts {
		for _, c := range part {
			cs = append(cs, c)
			cur[c] = n
		}
		n++
	}
	type key struct {
		class int32
		lit   uint32
	}
	refine := map[key]int32{}
	// The base has no member of any group made; a slice makes one
	// member of each other group (none for an "other" choice) on top of
	// it, and each choice one member of gi on top of the slice, every
	// step rebuilding only the gates it changes.
	move := make([]int, len(sk.others)) // each other group's sliced choice, an index into cols
	for int(n) < len(cs) {
		if !h.based || h.nodes.size() > maxSliceNodes {
			h.setBase(func(k int) (bool, bool) { return false, j.group[k] >= 0 })
		}
		for i, gr := range sk.others {
			if ms, c := j.groups[gr].members, sk.cols[i][move[i]]; c < len(ms) {
				h.apply(int(ms[c]), true)
			}
		}
		slice := h.root() // the "other" choice: no member made
		clear(refine)
		for _, c := range cs {
			l := slice
			if c < len(g.members) {
				l = h.with(int(g.members[c]), true)
			}
			k := key{cur[c], l}
			id, ok := refine[k]
			if !ok {
				id = int32(len(refine))
				refine[k] = id
			}
			cur[c] = id
		}
		n = int32(len(refine))
		h.undo(0)
		// Next joint move, the first group's choice fastest.
		i := 0
		for ; i < len(sk.others); i++ {
			if move[i]++; move[i] < len(sk.cols[i]) {
				break
			}
			move[i] = 0
		}
		if i == len(sk.others) {
			break
		}
	}
	for _, c := range cs {
		sk.class[c] = sk.next + cur[c]
	}
	sk.next += n
}

// sliceMinReps is the fewest representatives of a candidate class that
// settleClasses compares by slices before SAT. A miter over k of them
// makes one side choose among k, and its UNSAT proof grows with k
// (attritionWar: 2 to 4 in milliseconds, 20 to 90 in 1 to 26 s), while
// slices cost k rebuilds per joint move of the other roles and did not pay
// for small classes when every move was sliced (checkers: 22 s CPU in the
// graph phase without slices, 55 s with them for every class of two or
// more, 49 s from 4). With one choice per circuit (sliceKeys) checkers'
// action classes took 5.0 CPU s from 2 and 5.9 s from 16 at load 25,
// within the noise, so 16 stays.
const sliceMinReps = 16

// maxSliceNodes bounds the nodes a sliceHasher numbers before compute
// starts over from a rebuilt base (between slices: literals are compared
// within one), about 40 bytes each.
const maxSliceNodes = 1 << 20

// maxSliceWork bounds the gates one sliceKeys.compute rebuilds: the cone
// and the fanout of every choice it computes, once per joint move of the
// other roles (attritionWar: at most 2^21).
const maxSliceWork = 1 << 24

// sliceHasher is grounding.CofactorHasher for sliceKeys: it fixes inputs
// one at a time on top of a base (apply, undone by undo), rebuilding only
// the gates whose fanins changed, in topological order, instead of a
// whole cone or fanout. With the other roles' moves constant a choice
// changes few gates: in attritionWar 178 of the 310 of its fanout, and a
// slice some hundred of the 7,576 a rebuilt base would cost. Literals are
// those of CofactorHasher: node<<1 | negated, node 0 false, nodes
// 1..len(Inputs) the inputs; between two calls of setBase the same
// simplified circuit gets the same literal.
type sliceHasher struct {
	cn    *cone
	first int // slot of the first gate
	nodes nodeTable
	val   []uint32     // val[slot]: the slot's literal
	dirty []uint64     // gates to rebuild, a bitset
	undos []undoRecord // the changes since setBase, oldest first
	based bool         // setBase has been called
	lits  []uint32
	withs int64 // calls of with, which the tests bound
}

func newSliceHasher(cn *cone) *sliceHasher {
	h := &sliceHasher{cn: cn, first: cn.FirstGate()}
	n := cn.NumSlots()
	h.val = make([]uint32, n)
	h.dirty = make([]uint64, (len(cn.Gates)+63)/64)
	return h
}

// setBase forgets every node and every change, rebuilds the cone with
// each input k for which fixed(k) returns (v, true) replaced by the
// constant v, and returns the root's literal.
func (h *sliceHasher) setBase(fixed func(k int) (bool, bool)) uint32 {
	cn := h.cn
	h.nodes.reset(uint32(1+len(cn.Inputs)), len(cn.Gates))
	h.val[0] = grounding.CofactorFalse
	for k := range cn.Inputs {
		switch v, ok := fixed(k); {
		case !ok:
			h.val[1+k] = uint32(1+k) << 1
		case v:
			h.val[1+k] = grounding.CofactorTrue
		default:
			h.val[1+k] = grounding.CofactorFalse
		}
	}
	for gi := range cn.Gates {
		h.val[h.first+gi] = h.and(cn.GateFanin(gi))
	}
	h.undos = h.undos[:0]
	h.based = true
	return h.root()
}

func (h *sliceHasher) root() uint32 { return h.val[h.cn.Root>>1] ^ (h.cn.Root & 1) }

// with returns the root's literal with cone input k fixed to v on top
// of the inputs fixed so far, which it leaves as they were.
func (h *sliceHasher) with(k int, v bool) uint32 {
	h.withs++
	mark := len(h.undos)
	h.apply(k, v)
	r := h.root()
	h.undo(mark)
	return r
}

// apply fixes cone input k to v, rebuilding the gates that change, and
// records the old literals for undo.
func (h *sliceHasher) apply(k int, v bool) {
	nv := grounding.CofactorFalse
	if v {
		nv = grounding.CofactorTrue
	}
	if h.val[1+k] == nv {
		return
	}
	h.set(1+k, nv)
	lo := len(h.dirty)
	for _, gi := range h.cn.Users(1 + k) {
		lo = min(lo, int(gi)/64)
	}
	// Users come after the gates they read, so one ascending pass over
	// the dirty bits sees every gate after its changed fanins.
	for w := lo; w < len(h.dirty); w++ {
		for h.dirty[w] != 0 {
			b := bits.TrailingZeros64(h.dirty[w])
			h.dirty[w] &^= 1 << b
			gi := w*64 + b
			if l := h.and(h.cn.GateFanin(gi)); l != h.val[h.first+gi] {
				h.set(h.first+gi, l)
			}
		}
	}
}

// undo restores the literals changed since there were mark undo records.
func (h *sliceHasher) undo(mark int) {
	for i := len(h.undos) - 1; i >= mark; i-- {
		u := h.undos[i]
		h.val[u.slot] = u.old
	}
	h.undos = h.undos[:mark]
}

// set gives slot s the literal l and marks the gates reading it.
func (h *sliceHasher) set(s int, l uint32) {
	h.undos = append(h.undos, undoRecord{int32(s), h.val[s]})
	h.val[s] = l
	for _, gi := range h.cn.Users(s) {
		h.dirty[gi/64] |= 1 << (gi % 64)
	}
}

// undoRecord is a slot's literal before a change.
type undoRecord struct {
	slot int32
	old  uint32
}

// and hashes the AND of the fanins (cone-local literals) under h.val, as
// grounding.CofactorHasher does: fanins deduplicated and sorted,
// constants folded, x ∧ ¬x false.
func (h *sliceHasher) and(fanin []uint32) uint32 {
	h.lits = h.lits[:0]
	for _, l := range fanin {
		x := h.val[l>>1] ^ (l & 1)
		switch x {
		case grounding.CofactorFalse:
			return grounding.CofactorFalse
		case grounding.CofactorTrue:
			continue
		}
		h.lits = append(h.lits, x)
	}
	ls := h.lits
	if len(ls) <= 16 {
		for i := 1; i < len(ls); i++ {
			x, k := ls[i], i
			for ; k > 0 && ls[k-1] > x; k-- {
				ls[k] = ls[k-1]
			}
			ls[k] = x
		}
	} else {
		slices.Sort(ls)
	}
	ls = slices.Compact(ls)
	for i := 1; i < len(ls); i++ {
		if ls[i] == ls[i-1]^1 {
			return grounding.CofactorFalse // x ∧ ¬x
		}
	}
	switch len(ls) {
	case 0:
		return grounding.CofactorTrue
	case 1:
		return ls[0]
	}
	return h.nodes.node(ls) << 1
}

// nodeTable numbers AND nodes by their sorted fanin literals (open
// addressing on a 64-bit hash of them, the literals kept in one arena).
type nodeTable struct {
	first uint32   // the first node it numbers
	slot  []uint32 // node - first + 1, or 0 when empty
	hash  []uint64 // the hash of slot i's node
	start []uint32 // node - first -> its fanins in arena[start[i]:start[i+1]]
	arena []uint32
}

// size is the number of nodes numbered since reset.
func (t *nodeTable) size() int { return len(t.start) - 1 }

// reset forgets every node; the next one is numbered first. Capacity is
// kept for about n nodes.
func (t *nodeTable) reset(first uint32, n int) {
	t.first = first
	size := 1 << bits.Len(uint(2*n+16))
	if len(t.slot) < size {
		t.slot = make([]uint32, size)
		t.hash = make([]uint64, size)
	} else {
		clear(t.slot)
	}
	t.start = append(t.start[:0], 0)
	t.arena = t.arena[:0]
}

// node returns the number of the node with the fanins ls (sorted),
// numbering a new one if needed.
func (t *nodeTable) node(ls []uint32) uint32 {
	hv := uint64(len(ls))
	for _, x := range ls {
		hv = (hv ^ uint64(x)) * 0x9e3779b97f4a7c15
	}
	hv ^= hv >> 29
	mask := len(t.slot) - 1
	for i := int(hv>>32) & mask; ; i = (i + 1) & mask {
		s := t.slot[i]
		if s == 0 {
			n := uint32(len(t.start) - 1)
			t.slot[i] = n + 1
			t.hash[i] = hv
			t.arena = append(t.arena, ls...)
			t.start = append(t.start, uint32(len(t.arena)))
			if 2*(len(t.start)-1) > len(t.slot) {
				t.grow()
			}
			return t.first + n
		}
		if t.hash[i] == hv && slices.Equal(t.arena[t.start[s-1]:t.start[s]], ls) {
			return t.first + s - 1
		}
	}
}

// grow doubles the slots.
func (t *nodeTable) grow() {
	slot, hash := t.slot, t.hash
	t.slot = make([]uint32, 2*len(slot))
	t.hash = make([]uint64, 2*len(slot))
	mask := len(t.slot) - 1
	for i, s := range slot {
		if s == 0 {
			continue
		}
		k := int(hash[i]>>32) & mask
		for t.slot[k] != 0 {
			k = (k + 1) & mask
		}
		t.slot[k], t.hash[k] = s, hash[i]
	}
}
