package groundgraph

import (
	"context"
	"slices"
)

// Corner levels from a BDD.
//
// The circuit path of run evaluates every point of a level on the cone, at
// a cost of the points times the fanout of a proposition. The function's
// reduced ordered BDD over its semantic propositions alone (the other
// inputs fixed as atAnchor fixes them) gives the same level bitsets by
// walking it: the subsets of a level are enumerated largest element
// first, top variable first, so each step follows one BDD edge, a subtree
// that cannot reach the changed value with the flips left is never
// entered (the flip counts it can reach are one word per node), and a
// subtree that is the changed value whatever the smaller propositions are
// is a contiguous range of colex ranks, set word by word. The cost is
// about the changing points of the level, not the points times the
// circuit. The bitsets are exactly the circuit path's, so the corners,
// counts and flags read off them are too. When building the BDD exceeds
// Options.MaxBDDNodes nodes or cornerBDDSteps steps the circuit path runs
// instead: Othello's goal functions (128 propositions, a piece count over
// 96-140 k gates) do, as the manager keeps every intermediate gate's BDD.

// cornerBDDCacheMin and cornerBDDCacheMax bound the AND cache of a corner
// search's BDD manager: about four entries per fanin of the cone.
const (
	cornerBDDCacheMin = 1 << 12
	cornerBDDCacheMax = 1 << 20
)

// cornerBDDSteps bounds the AND steps of building one corner BDD: a BDD
// that thrashes the cache or grows large gives up within a fraction of a second
// and the circuit path runs.
const cornerBDDSteps = 1 << 22

// minBDDCornerWork is the circuit work (gates × points) from which a
// corner search tries the BDD: below it the circuit path costs little
// more than building the BDD would.
const minBDDCornerWork = 1 << 32

// maxBDDCornerWeight is the largest radius the BDD path handles (the flip
// counts a node can reach are bits of one word).
const maxBDDCornerWeight = 62

// cornerBDD is one function's BDD over its semantic propositions: position
// j of props is variable n-1-j, so the largest position is at the top.
type cornerBDD struct {
	d    *supportBDD
	root bddEdge
	n    int
	on   []int // the cofactor inputs it was built with (cornersWork.on)
}

// newCornerBDD builds the BDD of cn's root with the semantic propositions
// at cone input positions pos as variables, the inputs on fixed true and
// every other input false. It returns errBDDLimit beyond maxNodes nodes.
func newCornerBDD(ctx context.Context, cn *cone, pos, on []int, maxNodes int) (*cornerBDD, error) {
	n := len(pos)
	cache := cornerBDDCacheMin
	for cache < 4*len(cn.Fanin) && cache < cornerBDDCacheMax {
		cache *= 2
	}
	d := &supportBDD{
		max:      maxNodes,
		callMax:  maxNodes,
		nodes:    []bddNode{{v: bddNoVar}},
		slots:    make([]uint32, 1<<10),
		cache:    make([]bddCacheEntry, cache),
		maxSteps: cornerBDDSteps,
	}
	lit := make([]bddEdge, cn.NumSlots())
	for i := range cn.FirstGate() {
		lit[i] = bddFalse
	}
	for _, k := range on {
		lit[1+k] = bddTrue
	}
	for j, k := range pos {
		e, err := d.mk(int32(n-1-j), bddFalse, bddTrue)
		if err != nil {
			return nil, err
		}
		lit[1+k] = e
	}
	first := cn.FirstGate()
	for gi := range cn.Gates {
		if gi%(64*cancelCheckEvery) == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		// A lossy cache much smaller than the BDD makes ANDs recompute.
		if c := len(d.cache); 2*len(d.nodes) > c && c < cornerBDDCacheMax {
			for 2*len(d.nodes) > c && c < cornerBDDCacheMax {
				c *= 2
			}
			d.cache = make([]bddCacheEntry, c)
		}
		acc := bddTrue
		for _, l := range cn.GateFanin(gi) {
			var err error
			if acc, err = d.and(acc, lit[l>>1]^bddEdge(l&1)); err != nil {
				return nil, err
			}
			if acc == bddFalse {
				break
			}
		}
		lit[first+gi] = acc
	}
	return &cornerBDD{d: d, root: lit[cn.Root>>1] ^ bddEdge(cn.Root&1), n: n, on: slices.Clone(on)}, nil
}

// cornerBDD returns the BDD of w's function under w.on, built on first use,
// or nil when the BDD path is off (w.bddNodes ≤ 0, a radius beyond
// maxBDDCornerWeight) or the BDD exceeds w.bddNodes nodes.
func (w *cornersWork) cornerBDD(ctx context.Context, pos []int) (*cornerBDD, error) {
	d := min(w.d, len(pos))
	if w.bddNodes <= 0 || d > maxBDDCornerWeight ||
		float64(len(w.cn.Gates))*float64(ballPoints(len(pos), d)) < float64(w.bddMinWork) {
		return nil, nil
	}
	if w.bdd != nil && slices.Equal(w.bdd.on, w.on) {
		return w.bdd, nil
	}
	if w.bddFailed != nil && slices.Equal(w.bddFailed, w.on) {
		return nil, nil
	}
	cb, err := newCornerBDD(ctx, w.cn, pos, w.on, w.bddNodes)
	switch {
	case err == errBDDLimit:
		w.bdd, w.bddFailed = nil, append([]int{}, w.on...)
		return nil, nil
	case err != nil:
		return nil, err
	}
	w.bdd = cb
	return cb, nil
}

// bddLevels enumerates the levels of one anchor on a cornerBDD.
type bddLevels struct {
	cb     *cornerBDD
	anchor bool
	f0     bool
	d      int      // largest level
	full   uint64   // flip counts 0..d
	reach  []uint64 // per edge: the flip counts that reach !f0 (bit 63: known)
	bin    [][]int64
	cur    []uint64
	visits int
	err    error
}

const reachKnown = 1 << 63

// levels returns the enumerator of anchor's levels up to d, and f at the
// anchor.
func (cb *cornerBDD) levels(anchor bool, d int, bin [][]int64) *bddLevels {
	bl := &bddLevels{cb: cb, anchor: anchor, d: d, full: 1<<(d+1) - 1, bin: bin,
		reach: make([]uint64, 2*len(cb.d.nodes))}
	e := cb.root
	for !bl.terminal(e) {
		e = bl.child(e, false)
	}
	bl.f0 = e == bddTrue
	return bl
}

func (bl *bddLevels) terminal(e bddEdge) bool { return e>>1 == 0 }

// top returns the variable at e's top, n for a constant.
func (bl *bddLevels) top(e bddEdge) int {
	if e>>1 == 0 {
		return bl.cb.n
	}
	return int(bl.cb.d.nodes[e>>1].v)
}

// child returns e's child where its top variable is flipped from the
// anchor (flip) or not.
func (bl *bddLevels) child(e bddEdge, flip bool) bddEdge {
	nd := bl.cb.d.nodes[e>>1]
	if flip != bl.anchor {
		return nd.hi ^ e&1
	}
	return nd.lo ^ e&1
}

// smear returns the counts m + i for m in mask and 0 ≤ i ≤ free, within
// 0..d: the free variables may flip or not.
func (bl *bddLevels) smear(mask uint64, free int) uint64 {
	for done := 0; done < free && mask != 0 && mask != bl.full; {
		step := min(done+1, free-done)
		mask |= mask << step
		done += step
	}
	return mask & bl.full
}

// counts returns the flip counts of the variables from e's top on that
// give f ≠ f0.
func (bl *bddLevels) counts(e bddEdge) uint64 {
	if r := bl.reach[e]; r&reachKnown != 0 {
		return r &^ reachKnown
	}
	var r uint64
	if bl.terminal(e) {
		if (e == bddTrue) != bl.f0 {
			r = 1
		}
	} else {
		v := bl.top(e)
		lo, hi := bl.child(e, false), bl.child(e, true)
		r = bl.smear(bl.counts(lo), bl.top(lo)-v-1) | bl.smear(bl.counts(hi), bl.top(hi)-v-1)<<1
		r &= bl.full
	}
	bl.reach[e] = r | reachKnown
	return r
}

// can reports whether m flips among the variables from v on reach f ≠ f0
// from e (v ≤ top(e)).
func (bl *bddLevels) can(e bddEdge, v, m int) bool {
	return bl.smear(bl.counts(e), bl.top(e)-v)>>m&1 == 1
}

// level returns level k's bitset: bit r is set when the k-subset of colex
// rank r changes f; nil when none does.
func (bl *bddLevels) level(ctx context.Context, k int) ([]uint64, error) {
	if !bl.can(bl.cb.root, 0, k) {
		return nil, nil
	}
	bl.cur = make([]uint64, (bl.bin[k][bl.cb.n]+63)/64)
	bl.visit(ctx, bl.cb.root, 0, k, 0)
	if bl.err != nil {
		return nil, bl.err
	}
	return bl.cur, nil
}

// visit sets the ranks of the m-subsets of the variables from v on (the
// positions below n-v) that, added to the subset of colex rank part rank
// already chosen, change f; e is f with the chosen flips and the
// variables above v not flipped otherwise, and some such subset exists.
func (bl *bddLevels) visit(ctx context.Context, e bddEdge, v, m int, rank int64) {
	if bl.visits++; bl.visits%(1<<14) == 0 && bl.err == nil {
		bl.err = ctx.Err()
	}
	if bl.err != nil {
		return
	}
	n := bl.cb.n
	if m == 0 {
		bl.cur[rank/64] |= 1 << (rank % 64)
		return
	}
	for v < n && bl.can(e, v, m) {
		if bl.terminal(e) {
			// Every m-subset of the positions below n-v: a colex range.
			setRange(bl.cur, rank, rank+bl.bin[m][n-v])
			return
		}
		t := bl.top(e)
		// Position n-1-v as the largest of the m left: C(n-1-v, m).
		r := rank + bl.bin[m][n-1-v]
		if v < t {
			// v is free in e: flipping it leaves e. The counts reachable
			// only shrink as v grows, so once it fails, skip to t.
			if bl.can(e, v+1, m-1) {
				bl.visit(ctx, e, v+1, m-1, r)
				v++
			} else {
				v = t
			}
			continue
		}
		if c := bl.child(e, true); bl.can(c, v+1, m-1) {
			bl.visit(ctx, c, v+1, m-1, r)
		}
		e = bl.child(e, false)
		v++
	}
}

// setRange sets bits lo..hi-1 of v.
func setRange(v []uint64, lo, hi int64) {
	for lo < hi {
		wi, b := lo/64, lo%64
		e := min(hi-64*wi, 64)
		m := ^uint64(0) << b
		if e < 64 {
			m &= 1<<e - 1
		}
		v[wi] |= m
		lo = 64*wi + e
	}
}
