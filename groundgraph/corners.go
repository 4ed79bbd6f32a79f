package groundgraph

import (
	"context"
	"math"
	"math/bits"
	"slices"
)

// Corners: the structure of a big function near the two canonical states.
//
// Every SCGE maps the state where no proposition holds onto the same state
// of the other game, and likewise the state where all hold. For a function
// f of the state with semantic propositions S and an anchor a (all of S
// false, or all true), a corner is a set T ⊆ S, |T| ≤ d, such that flipping T
// from the anchor changes f, and flipping any T minus one proposition does
// not: a locally minimal change. For "a line of x" (Tic-tac-toe's goal, or
// Connect Four's) the corners from the all-false state are exactly the lines.
// They are found by evaluating f on every point within distance d of the
// anchor, 64 points per word, so the work is Σ_{k≤d} C(|S|, k) points: an
// invariant quantity, like every bound applied to it.

// binomial returns C(n, k), saturating at MaxInt64.
func binomial(n, k int) int64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	c := uint64(1)
	for i := 1; i <= k; i++ {
		hi, lo := bits.Mul64(c, uint64(n-k+i))
		if hi != 0 {
			return math.MaxInt64
		}
		c = lo / uint64(i) // exact: c·(n-k+i) is divisible by i
		if c > math.MaxInt64 {
			return math.MaxInt64
		}
	}
	return int64(c)
}

// ballPoints returns the number of points within distance d of a point of
// {0,1}^n, excluding the point itself, saturating.
func ballPoints(n, d int) int64 {
	var s int64
	for k := 1; k <= d; k++ {
		c := binomial(n, k)
		if c == math.MaxInt64 || s > math.MaxInt64-c {
			return math.MaxInt64
		}
		s += c
	}
	return s
}

// CornerSet is a corner of a function: a locally minimal set of
// propositions whose flip from a canonical state changes it (see
// FuncFeatures.Corners).
type CornerSet struct {
	// FromTrue says the anchor is the state where every proposition holds
	// (the set's propositions are turned off); otherwise it is the empty
	// state (they are turned on).
	FromTrue bool
	// Props are the proposition ids, ascending.
	Props []int
	// Classes is nil for a function of the state. For a next function
	// that reads moves, the corner is one of the cofactor where each role
	// it reads (FuncFeatures roles, ascending) makes a move of class
	// Classes[i] (an index into its action classes): see cofactors.go.
	Classes []int
	// Breakers are the semantic propositions outside Props whose flip on
	// top of the corner gives the function its anchor value back, ids
	// ascending (see breakers.go); nil when there are none or the
	// function's corners from this anchor have more than
	// Options.MaxBreakerArcs.
	Breakers []int
}

// cornersWork is one function's corner enumeration.
type cornersWork struct {
	cn    *cone
	props []int32 // semantic propositions, ascending (support positions 0..n-1)
	d     int     // radius
	max   int     // give up (nil, tooMany) beyond this many corners
	on    []int   // cone input positions fixed to true: for a next function, each role read does its first action
	ops   int64   // gate-word evaluations
	// countProps: when there are more than max corners and at most
	// countProps propositions, run goes on counting them (counts) instead
	// of giving up; 0 never counts.
	countProps int
	counts     *cornerCounts // set by run when it counted
	// wantMore is set by run when it stopped at radius d though its rule
	// (one level past the first corners, at least fullCornerWeight) would
	// have searched the next level.
	wantMore bool
	// buf holds the buffers of run and breakers (nil: fresh ones).
	buf *cornerBufs
	// plain makes run evaluate every level on the whole cone with
	// coneSim.Flip, not on its ball cones (cornerreduce.go) with sparse
	// flips (cornerflip.go): the same results, for tests.
	plain      bool
	balls      int // levels and breaker searches evaluated on a ball cone
	wideLevels int // levels evaluated on the sets of cores of several words (tests)
}

// cornerCounts describes a set of corners too large to list: how many hold
// each proposition and each pair of propositions (positions in props).
type cornerCounts struct {
	n      int
	single []int64
	pair   []int64 // pair[j*(j-1)/2+i] for i < j
}

func newCornerCounts(n int) *cornerCounts {
	return &cornerCounts{n: n, single: make([]int64, n), pair: make([]int64, n*(n-1)/2)}
}

// add counts one corner, given as ascending positions.
func (cc *cornerCounts) add(c []int) {
	for x, j := range c {
		cc.single[j]++
		for _, i := range c[:x] {
			cc.pair[j*(j-1)/2+i]++
		}
	}
}

// at returns the count of the pair i < j.
func (cc *cornerCounts) at(i, j int) int64 { return cc.pair[j*(j-1)/2+i] }

// fullCornerWeight is the radius always searched (when the point budgets
// allow it); larger radii, up to Options.MaxCornerWeight, are searched
// only up to one level past the first level with corners. The levels
// searched depend only on the function's semantics, so every SCGE sees
// the same ones in both games.
const fullCornerWeight = 4

// cornerBatchWords is the number of words evaluated at once.
const cornerBatchWords = 64

// cornerBufs are the large buffers of a corner search, reused by its runs
// and, through freeCornerBufs, by the next function's search: fresh ones
// (a 512-byte vector per cone slot, a lane table of 4,096 entries) were a
// quarter of the bytes that Tic-tac-toe against Number Scrabble allocated,
// and so a quarter of its garbage collections.
type cornerBufs struct {
	sim                  *coneSim // the anchor's simulator of the last cone searched
	ball, anchorIn, vals []uint64
	laneMax              []int
	laneRank             []int64
	// levelRank and tried are evalLevel's lane table and bitset of the
	// subsets seen (fresh ones were a tenth of a small game's bytes).
	levelRank []int64
	tried     []uint64
}

// A free list of cornerBufs across Builds, not a sync.Pool: a small
// game's heap is a few MB, so it is collected several times a
// comparison, and every collection emptied the pool. It keeps at most
// maxFreeCornerBufs buffers of at most maxFreeCornerBytes each: a big
// game's buffers go to the collector.
const (
	maxFreeCornerBufs  = 4
	maxFreeCornerBytes = 1 << 20
)

var freeCornerBufs = make(chan *cornerBufs, maxFreeCornerBufs)

func getCornerBufs() *cornerBufs {
	select {
	case bf := <-freeCornerBufs:
		return bf
	default:
		return new(cornerBufs)
	}
}

func putCornerBufs(bf *cornerBufs) {
	bf.sim = nil // its cone is the Build's
	if 8*(cap(bf.ball)+cap(bf.anchorIn)+cap(bf.vals)+cap(bf.laneMax)+cap(bf.laneRank)+cap(bf.levelRank)+cap(bf.tried)) > maxFreeCornerBytes {
		return
	}
	select {
	case freeCornerBufs <- bf:
	default:
	}
}

// bufs returns w's buffers.
func (w *cornersWork) bufs() *cornerBufs {
	if w.buf == nil {
		w.buf = new(cornerBufs)
	}
	return w.buf
}

// zeroed returns (*buf)[:n], all zero, reallocated when too small.
func zeroed[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	} else {
		*buf = (*buf)[:n]
		clear(*buf)
	}
	return *buf
}

// run enumerates the corners from one anchor. It returns them as
// positions into w.props, or tooMany when there are more than w.max.
//
// atAnchor evaluates f at the anchor (every semantic proposition set to
// anchor) and returns what the corner searches start from: the cone input
// position of each semantic proposition, the cone's simulator with its
// inputs at the anchor, the anchor as a word, an output buffer and f there.
// Other propositions stay false (they cannot matter); a next function sees
// each role it reads do its first action (it depends on no role, so any
// joint move will do, but it must be a joint move); functions of the state
// see no moves.
func (w *cornersWork) atAnchor(anchor bool) (pos []int, s *coneSim, base uint64, out []uint64, f0 bool) {
	cn := w.cn
	pos = make([]int, len(w.props))
	for j, q := range w.props {
		k, _ := slices.BinarySearch(cn.Inputs, q)
		pos[j] = k
	}
	bf := w.bufs()
	if s = bf.sim; s == nil || s.Cone != cn {
		s = &coneSim{Cone: cn, W: cornerBatchWords, Vals: zeroed(&bf.vals, cn.NumSlots()*cornerBatchWords)}
		bf.sim = s
	} else {
		clear(s.Vals)
	}
	if anchor {
		base = ^uint64(0)
	}
	for k := range cn.Inputs {
		fill(s.In(k), 0)
	}
	for _, k := range w.on {
		fill(s.In(k), ^uint64(0))
	}
	for _, k := range pos {
		fill(s.In(k), base)
	}
	out = make([]uint64, cornerBatchWords)
	w.ops += s.EvalN(1, out) // one point: the anchor
	return pos, s, base, out, out[0]&1 == 1
}

// Level k (the subsets of k propositions) is evaluated from level k-1: a
// batch puts one (k-1)-subset B per lane (64·cornerBatchWords lanes, colex
// order) and evaluates the cone on them once; then, for each proposition j,
// it re-evaluates only j's fanout with j flipped, on the lanes whose B lies
// below j (a prefix of the batch, colex order sorting subsets by their
// largest element), which gives f at B ∪ {j}: every k-subset exactly once,
// at the cost of a fanout (a few gates for the big functions corners are
// for) instead of the whole cone. The subsets that change f are then read
// in colex order.
func (w *cornersWork) run(ctx context.Context, anchor bool) (corners [][]int, tooMany bool, err error) {
	n := len(w.props)
	w.counts, w.wantMore = nil, false
	pos, s, base, out, f0 := w.atAnchor(anchor)
	f0mask := uint64(0)
	if f0 {
		f0mask = ^uint64(0)
	}
	d := min(w.d, n)
	// bin[i][a] = C(a, i) for i ≤ d, a ≤ n: colex ranks. They fit, since
	// the radius keeps Σ_{k≤d} C(n, k) within the point budget.
	bin := make([][]int64, d+1)
	for i := range bin {
		bin[i] = make([]int64, n+1)
		for a := range n + 1 {
			bin[i][a] = binomial(a, i)
		}
	}
	// inOff[j]: offset in s.Vals of the input vector of proposition j.
	inOff := make([]int, n)
	for j, k := range pos {
		inOff[j] = (1 + k) * cornerBatchWords
	}
	const batchCap = 64 * cornerBatchWords
	bf := w.bufs()
	laneMax := zeroed(&bf.laneMax, batchCap)   // largest element of each lane's subset, -1 if empty
	laneRank := zeroed(&bf.laneRank, batchCap) // colex rank of each lane's subset
	res := make([]uint64, cornerBatchWords)
	// prev is level k-1: bit r is set when the subset of colex rank r
	// changes f; nil when none does.
	var prev []uint64
	found := d + 1 // the first level with corners
	// Levels below the flip bound hold no change (cornerbound.go). The
	// bound costs about a pass over the cone per word of n bits: taken
	// only when the search costs more.
	lb := 1
	var bd *bounds
	var cores coreSets
	coresOK := false
	if int64(len(w.cn.Fanin))*int64(n/64+1) <= ballPoints(n, d) {
		bd = flipBounds(w.cn, s, pos, d+1, maxBoundWords)
		lb = bd.root()
	}
	var anchorVals []uint64 // slot values at the anchor, for flipCores
	if bd != nil {
		anchorVals = make([]uint64, (w.cn.NumSlots()+63)/64)
		for slot := range w.cn.NumSlots() {
			if bd.val(slot) {
				anchorVals[slot/64] |= 1 << (slot % 64)
			}
		}
		// The levels' evaluations overwrite s: the bounds read the anchor.
		bd.val = func(slot int) bool { return anchorVals[slot/64]>>(slot%64)&1 == 1 }
	}
	// Input values at the anchor, for the levels' ball cones.
	anchorIn := append(bf.anchorIn[:0], s.Vals[:w.cn.FirstGate()*cornerBatchWords]...)
	bf.anchorIn = anchorIn
	fullSim := s
	coresTried := false
	for k := 1; k <= d; k++ {
		if k < lb {
			prev = nil
			if k == d && d < n {
				w.wantMore = true
			}
			continue
		}
		var cur []uint64
		// Level k reads only the gates that k flips may change.
		s = fullSim
		if bd != nil && !w.plain {
			if bs := ballSim(w.cn, bd, k, anchorIn, &bf.ball); bs != nil {
				s = bs
				w.balls++
			}
		}
		vals := s.Vals
		flip := s.Flip
		if !w.plain {
			flip = newSparseFlip(s).flip
		}
		// Cores cost about a pass over the cone per core of each gate:
		// taken at the first level whose search takes more than a batch
		// of bases.
		if !coresTried && bd != nil && bin[k-1][n] > 64*cornerBatchWords {
			coresTried = true
			cores, coresOK = flipCores(w.cn, bd.val, pos, d)
		}
		if coresOK {
			var err error
			if cur, err = w.coresLevel(ctx, k, cores, pos, s, base, out, f0mask, bin); err != nil {
				return nil, false, err
			}
		}
		if cur == nil && k == lb && bd != nil {
			var err error
			if cur, err = w.familyLevel(ctx, k, bd, pos, s, base, out, f0mask, bin); err != nil {
				return nil, false, err
			}
		}
		if cur == nil {
			cur = make([]uint64, (bin[k][n]+63)/64)
			nBases := bin[k-1][n]
			bset := make([]int, k-1)
			for i := range bset {
				bset[i] = i
			}
			// At the last level searched only corners matter, and a corner's
			// base (itself minus its largest element) does not change f:
			// bases that do are left out.
			last := k == d || (k >= fullCornerWeight && found < k)
			rank := int64(0) // colex rank of bset
			for rank < nBases {
				if err := ctx.Err(); err != nil {
					return nil, false, err
				}
				for _, j := range pos {
					fill(s.In(j), base)
				}
				// A run of lanes whose bases share all but their smallest
				// element gets those elements by word masks when it ends,
				// the smallest lane by lane.
				nb, run := 0, 0
				flushRun := func() {
					if k > 2 && nb > run {
						for _, j := range bset[1:] {
							xorLanes(vals[inOff[j]:inOff[j]+cornerBatchWords], run, nb)
						}
					}
					run = nb
				}
				for nb < batchCap && rank < nBases {
					if !(last && prev != nil && prev[rank/64]>>(rank%64)&1 == 1) {
						if k > 1 {
							vals[inOff[bset[0]]+nb/64] ^= 1 << (nb % 64)
							laneMax[nb] = bset[k-2]
						} else {
							laneMax[nb] = -1
						}
						laneRank[nb] = rank
						nb++
					}
					if rank++; rank == nBases {
						break
					}
					if k > 2 && bset[0]+1 >= bset[1] { // the rest of bset changes
						flushRun()
					}
					nextComb(bset, n)
					if nb == batchCap {
						break
					}
				}
				flushRun()
				if nb == 0 {
					continue
				}
				// Only the words that hold lanes: the first levels have few
				// bases, and small games' corner searches are mostly those.
				w.ops += s.EvalN((nb+63)/64, out)
				lanes := 0 // lanes whose subset lies below j
				for j := range n {
					if j%cancelCheckEvery == 0 {
						if err := ctx.Err(); err != nil {
							return nil, false, err
						}
					}
					for lanes < nb && laneMax[lanes] < j {
						lanes++
					}
					if lanes == 0 {
						continue
					}
					wn := (lanes + 63) / 64
					w.ops += flip(pos[j], wn, res)
					for i := range wn {
						diff := res[i] ^ f0mask
						if rest := lanes - 64*i; rest < 64 {
							diff &= 1<<rest - 1
						}
						for ; diff != 0; diff &= diff - 1 {
							r := laneRank[64*i+bits.TrailingZeros64(diff)] + bin[k][j]
							cur[r/64] |= 1 << (r % 64)
						}
					}
				}
			}
		}
		// The corners of level k, in colex order: the subsets that change f
		// and none of whose (k-1)-subsets does.
		c := make([]int, k)
		for wi, word := range cur {
			if wi%(1<<12) == 0 {
				if err := ctx.Err(); err != nil {
					return nil, false, err
				}
			}
			if word == 0 {
				continue
			}
			cr := int64(64 * wi)
			colexUnrank(cr, c, bin)
			for ; word != 0; word &= word - 1 {
				if target := int64(64*wi + bits.TrailingZeros64(word)); target-cr > int64(n) {
					cr = target
					colexUnrank(cr, c, bin)
				} else {
					for ; cr < target; cr++ {
						nextComb(c, n)
					}
				}
				minimal := true
				for drop := range c {
					var sr int64
					t := 0
					for e, a := range c {
						if e != drop {
							sr += bin[t+1][a]
							t++
						}
					}
					if prev != nil && prev[sr/64]>>(sr%64)&1 == 1 {
						minimal = false
						break
					}
				}
				switch {
				case !minimal:
				case w.counts != nil:
					w.counts.add(c)
				case len(corners) < w.max:
					corners = append(corners, slices.Clone(c))
				case n > w.countProps:
					return nil, true, nil
				default:
					w.counts = newCornerCounts(n)
					for _, c0 := range corners {
						w.counts.add(c0)
					}
					w.counts.add(c)
					corners = nil
				}
			}
		}
		prev = cur
		if len(corners) > 0 || w.counts != nil {
			found = min(found, k)
		}
		// Beyond fullCornerWeight only until one level past the first
		// corners: a function's smallest corners (Tic-tac-toe's lines of
		// three, Pentago's of five) and the level above them say what it
		// is; further levels cost far more points and rarely tell more.
		if k >= fullCornerWeight && found < k {
			break
		}
		if k == d && d < n {
			w.wantMore = true
		}
	}
	if w.counts != nil {
		return nil, true, nil
	}
	return corners, false, nil
}

// firstComb returns {0, ..., j-1}, the first j-subset in colex order.
func firstComb(j int) []int {
	c := make([]int, j)
	for i := range c {
		c[i] = i
	}
	return c
}

// colexUnrank sets c (len(c) = k) to the k-subset of colex rank r, given
// bin[i][a] = C(a, i) for i ≤ k.
func colexUnrank(r int64, c []int, bin [][]int64) {
	a := len(bin[0]) - 1
	for i := len(c) - 1; i >= 0; i-- {
		for bin[i+1][a] > r {
			a--
		}
		c[i] = a
		r -= bin[i+1][a]
		a--
	}
}

type tooManyError struct{}

func (tooManyError) Error() string { return "too many corners" }

var errTooManyCorners error = tooManyError{}

// nextComb advances c, a k-subset of 0..n-1 in increasing order, to the next
// one in colex order, and reports false after the last.
func nextComb(c []int, n int) bool {
	k := len(c)
	for i := range k {
		limit := n
		if i+1 < k {
			limit = c[i+1]
		}
		if c[i]+1 < limit {
			c[i]++
			for j := range i {
				c[j] = j
			}
			return true
		}
	}
	return false
}

// colexRankWithout returns the colex rank of the subset c minus its
// element at index drop: Σ C(a_i, i+1) over the remaining elements.
func colexRankWithout(c []int, drop int) int64 {
	var r int64
	i := 0
	for j, a := range c {
		if j == drop {
			continue
		}
		r += binomial(a, i+1)
		i++
	}
	return r
}

// xorLanes flips bits lo..hi-1 of the lane vector v.
func xorLanes(v []uint64, lo, hi int) {
	for lo < hi {
		wi, b := lo/64, lo%64
		e := min(hi-64*wi, 64)
		m := ^uint64(0) << b
		if e < 64 {
			m &= 1<<e - 1
		}
		v[wi] ^= m
		lo = 64*wi + e
	}
}

// familyLevel evaluates level k = lb(root) on the sets of the families
// alone (bounds.families: every subset that changes f is one of them) and
// returns the level's bitset, or nil when they are not much fewer than
// all k-subsets.
func (w *cornersWork) familyLevel(ctx context.Context, k int, bd *bounds, pos []int, s *coneSim, base uint64, out []uint64, f0mask uint64, bin [][]int64) ([]uint64, error) {
	fam := bd.families()
	if fam == nil || fam.size(fam.root) > bin[k][len(pos)]/4 {
		return nil, nil
	}
	buf := make([]int, 0, k)
	return w.evalLevel(ctx, k, pos, s, base, out, f0mask, bin, func(add func([]int) bool) bool {
		for _, f := range fam.root {
			if !fam.each(f, buf, add) {
				return false
			}
		}
		return true
	})
}

// wideCoresGain: cores of more than 64 propositions are taken only when
// the k-sets that hold one are fewer than all k-subsets by this factor.
// evalLevel costs about a hundred times more a set than the full search
// a point (its sparse flips of 64 lanes): catcha_mouse's level 4 (120
// propositions, 60 cores of two) took 210 ms on 414 k sets where the
// full search takes 35 ms on C(120,4) = 8.2 M (load ~25); Connect Four
// 10x9's level 5 gains 2,500-fold. One-word cores keep the quarter they
// had before wide ones existed.
const wideCoresGain = 128

// coresLevel evaluates level k on the k-sets that hold a core (every
// k-subset that changes f holds one, see flipCores) and returns the
// level's bitset, or nil when they are not much fewer than all k-subsets.
func (w *cornersWork) coresLevel(ctx context.Context, k int, cores coreSets, pos []int, s *coneSim, base uint64, out []uint64, f0mask uint64, bin [][]int64) ([]uint64, error) {
	n := len(pos)
	limit := bin[k][n] / 4
	if cores.w > 1 {
		limit = bin[k][n] / wideCoresGain
	}
	var total int64
	for i := range cores.count() {
		if m := setSize(cores.at(i)); m <= k {
			if total += binomial(n-m, k-m); total > limit {
				return nil, nil
			}
		}
	}
	if total == 0 {
		return make([]uint64, (bin[k][n]+63)/64), nil
	}
	if cores.w > 1 {
		w.wideLevels++
	}
	set := make([]int, 0, k)
	var free []int
	return w.evalLevel(ctx, k, pos, s, base, out, f0mask, bin, func(add func([]int) bool) bool {
		for i := range cores.count() {
			c := cores.at(i)
			m := setSize(c)
			if m > k {
				continue
			}
			// c and every (k-m)-subset of the other positions.
			set, free = set[:0], free[:0]
			for j := range n {
				if c[j/64]>>(j%64)&1 == 1 {
					set = append(set, j)
				} else {
					free = append(free, j)
				}
			}
			x := firstComb(k - m)
			for {
				t := set
				for _, i := range x {
					t = append(t, free[i])
				}
				if !add(t) {
					return false
				}
				if !nextComb(x, len(free)) {
					break
				}
			}
		}
		return true
	})
}

// evalLevel evaluates f on the k-subsets that gen passes to add
// (positions, in any order; add must not keep them, and a subset given
// twice is evaluated once) and returns level k's bitset: bit r is set
// when the subset of colex rank r changes f. gen stops when add returns
// false (an error).
func (w *cornersWork) evalLevel(ctx context.Context, k int, pos []int, s *coneSim, base uint64, out []uint64, f0mask uint64, bin [][]int64, gen func(add func([]int) bool) bool) ([]uint64, error) {
	n := len(pos)
	cur := make([]uint64, (bin[k][n]+63)/64)
	bf := w.bufs()
	tried := zeroed(&bf.tried, len(cur))
	const batchCap = 64 * cornerBatchWords
	if cap(bf.levelRank) < batchCap {
		bf.levelRank = make([]int64, 0, batchCap)
	}
	laneRank := bf.levelRank[:0]
	vals := s.Vals
	flush := func() error {
		if len(laneRank) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		w.ops += s.EvalN((len(laneRank)+63)/64, out)
		for lane, r := range laneRank {
			if (out[lane/64]>>(lane%64)^f0mask)&1 == 1 {
				cur[r/64] |= 1 << (r % 64)
			}
		}
		for _, j := range pos {
			fill(s.In(j), base)
		}
		laneRank = laneRank[:0]
		return nil
	}
	for _, j := range pos {
		fill(s.In(j), base)
	}
	c := make([]int, k)
	var err error
	add := func(set []int) bool {
		if len(set) != k {
			return true
		}
		copy(c, set) // set is the generator's state
		slices.Sort(c)
		var r int64
		for i, x := range c {
			r += bin[i+1][x]
		}
		if tried[r/64]>>(r%64)&1 == 1 {
			return true
		}
		tried[r/64] |= 1 << (r % 64)
		lane := len(laneRank)
		for _, x := range c {
			vals[(1+pos[x])*cornerBatchWords+lane/64] ^= 1 << (lane % 64)
		}
		laneRank = append(laneRank, r)
		if len(laneRank) == batchCap {
			err = flush()
		}
		return err == nil
	}
	if !gen(add) {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return cur, nil
}
