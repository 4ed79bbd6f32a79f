package groundgraph

import (
	"cmp"
	"context"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"github.com/gamequiv/gamequiv/grounding"
)

// Family simulation. A big game's functions of the state often read one
// shared circuit: each of chess's 7,622 legal functions holds the check
// that the king is safe after the move, over the whole board, so
// simSupport, which flips every input of each function's cone on samples
// of its own, pays for that check once per function and input.
// famSupport simulates the union of the functions' cones once and flips
// each input once for all of them, event-driven (a gate is evaluated again
// only when one of its fanins changed on some sample), and records, for
// every function whose root changed, that the input matters: a witness of
// dependence is exact whatever the samples, so simSupport starts from
// these and decides only the inputs left.

// famWords is the number of 64-sample words of the family's first
// (random) round.
const famWords = 8

// famMinShare: a family is simulated only when its functions' cones hold
// at least this many times the gates of their union. Where cones share
// little, family simulation costs what simSupport's first round does and
// saves nothing.
const famMinShare = 4

// famMaxSlotWords bounds the family's value vectors (slots × words, 8
// bytes each): 2^24 words are 128 MiB. Boundary rounds are as wide as it
// allows, up to boundaryWords. The wide gates' zero levels get at most as
// many words again (setZeroLevels).
const famMaxSlotWords = 1 << 24

// famSim is the bit-parallel simulator of the union of some cones of a
// circuit. Slot 0 is the constant false, slots 1..nIn the circuit inputs
// the union reads (ascending), the gates follow in ascending (hence
// topological) order.
type famSim struct {
	node      []int32  // circuit node of each slot
	nIn       int      // inputs
	start     []int32  // gate g = slot nIn+1+g: fanins fanin[start[g]:start[g+1]]
	fanin     []uint32 // slot<<1 | negated
	userStart []int32  // the gates reading slot s: users[userStart[s]:userStart[s+1]] (slots)
	users     []int32
	rootFns   map[int32][]int32 // slot -> the members whose root it is
	isRoot    []uint64          // bitset of the slots in rootFns
	level     []int32           // 0 for the constant and inputs, else 1 + the highest fanin's
	levels    int               // 1 + the highest level
	w         int
	vals      []uint64
	// wideAt[g]: 1 + the index of gate g among the wide gates (see
	// famWideFanin), or 0; zero holds their zero levels (famZeroLevels
	// vectors of w words each), set by eval, or is nil when they would
	// not fit famMaxSlotWords.
	wideAt []int32
	nWide  int
	zero   []uint64
	// Shared fanins (see factor): gate g reads the groups
	// gateGrps[gateGrpStart[g]:gateGrpStart[g+1]] besides its own fanins
	// fanin[start[g]:start[g+1]]; group i's literals are
	// grpLits[grpStart[i]:grpStart[i+1]], and gvals holds their ANDs (w
	// words each), set by eval.
	gateGrpStart []int32
	gateGrps     []int32
	grpStart     []int32
	grpLits      []uint32
	gvals        []uint64
}

// famWideFanin is the fanin from which a gate is wide: its fanins that
// other wide gates read too are read as groups (factor), and a wide gate
// of no group is updated by a flip from its zero levels (setZeroLevels)
// instead of re-reading every fanin. On checkers-mustjump-torus the zero
// levels alone covered 40% of the wide gates' flips (most change 4 to 26
// fanins), the groups all. A variable for tests.
var famWideFanin = 24

// famZeroLevels is the number of zero levels kept per wide gate: a flip
// that changes up to famZeroLevels-1 of its fanins is read off them.
const famZeroLevels = 4

// newFamSim returns the simulator of the union of the cones of roots (no
// constant roots), or nil when it would hold more than maxSlotWords words
// or more slots than a famMinShare-th of memberGates, the gates of the
// members' cones added up.
func newFamSim(c *grounding.Circuit, roots []grounding.Lit, memberGates int64, w, maxSlotWords int) *famSim {
	nn := c.NumNodes()
	slotOf := make([]int32, nn) // 1 + slot, 0 outside the union
	var nodes []int32
	var stack []int32
	for _, r := range roots {
		if n := int32(r.Node()); slotOf[n] == 0 {
			slotOf[n] = 1
			stack = append(stack, n)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nodes = append(nodes, n)
		for _, l := range c.Fanin[c.Start[n]:c.Start[n+1]] {
			if m := int32(l.Node()); slotOf[m] == 0 {
				slotOf[m] = 1
				stack = append(stack, m)
			}
		}
	}
	slots := len(nodes) + 1 // and the constant
	if slots*w > maxSlotWords || famMinShare*int64(slots) > memberGates {
		return nil
	}
	nodes = append(nodes, 0)
	slices.Sort(nodes)
	nodes = slices.Compact(nodes)
	fs := &famSim{node: nodes, w: w, rootFns: map[int32][]int32{}}
	for s, n := range nodes {
		slotOf[n] = int32(s) + 1
		if n >= 1 && int(n) <= c.NumInputs {
			fs.nIn++
		}
	}
	nG := len(nodes) - 1 - fs.nIn
	fs.start = make([]int32, nG+1)
	count := make([]int32, len(nodes)+1)
	for g := range nG {
		n := nodes[1+fs.nIn+g]
		for _, l := range c.Fanin[c.Start[n]:c.Start[n+1]] {
			s := slotOf[l.Node()] - 1
			fs.fanin = append(fs.fanin, uint32(s)<<1|uint32(l&1))
			count[s+1]++
		}
		fs.start[g+1] = int32(len(fs.fanin))
	}
	for s := range len(nodes) {
		count[s+1] += count[s]
	}
	fs.userStart = slices.Clone(count)
	fs.users = make([]int32, len(fs.fanin))
	for g := range nG {
		for _, l := range fs.fanin[fs.start[g]:fs.start[g+1]] {
			s := l >> 1
			fs.users[count[s]] = int32(1 + fs.nIn + g)
			count[s]++
		}
	}
	fs.isRoot = make([]uint64, (len(nodes)+63)/64)
	for j, r := range roots {
		s := slotOf[r.Node()] - 1
		fs.rootFns[s] = append(fs.rootFns[s], int32(j))
		fs.isRoot[s/64] |= 1 << (s % 64)
	}
	fs.level = make([]int32, len(nodes))
	for g := range nG {
		lv := int32(0)
		for _, l := range fs.fanin[fs.start[g]:fs.start[g+1]] {
			lv = max(lv, fs.level[l>>1])
		}
		fs.level[1+fs.nIn+g] = lv + 1
		fs.levels = max(fs.levels, int(lv)+2)
	}
	fs.vals = make([]uint64, len(nodes)*w)
	return fs
}

// factor finds fanins that wide gates share and reads them as one AND
// per group, once per evaluation and flip: each of
// checkers-mustjump-torus' 1,734 legal functions is a wide AND of its
// move's few own literals and 60 "no longer jump there" literals that
// 184 or 496 of them read alike, and re-reading those for every member
// on a flip was 98% of what a family round read. The literals that
// exactly the same wide gates read (two literals or more, two gates or
// more) form a group. An AND is associative and idempotent, so every
// value is unchanged.
func (fs *famSim) factor() {
	nG := len(fs.start) - 1
	fs.gateGrpStart = make([]int32, nG+1)
	// The wide gates reading each literal, in order; the literals in the
	// order first read.
	readers := map[uint32][]int32{}
	var lits []uint32
	for g := range nG {
		if fs.start[g+1]-fs.start[g] < int32(famWideFanin) {
			continue
		}
		for _, l := range fs.fanin[fs.start[g]:fs.start[g+1]] {
			r, ok := readers[l]
			if !ok {
				lits = append(lits, l)
			}
			if len(r) == 0 || r[len(r)-1] != int32(g) {
				readers[l] = append(r, int32(g))
			}
		}
	}
	// Literals by their readers.
	class := map[string][]uint32{}
	var keys []string
	var buf []byte
	for _, l := range lits {
		r := readers[l]
		if len(r) < 2 {
			continue
		}
		buf = buf[:0]
		for _, g := range r {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(g))
		}
		k := string(buf)
		if _, ok := class[k]; !ok {
			keys = append(keys, k)
		}
		class[k] = append(class[k], l)
	}
	inGroup := map[uint32]bool{}
	grpsOf := make([][]int32, nG)
	fs.grpStart = []int32{0}
	for _, k := range keys {
		ls := class[k]
		if len(ls) < 2 {
			continue
		}
		i := int32(len(fs.grpStart) - 1)
		fs.grpLits = append(fs.grpLits, ls...)
		fs.grpStart = append(fs.grpStart, int32(len(fs.grpLits)))
		for _, l := range ls {
			inGroup[l] = true
		}
		for _, g := range readers[ls[0]] {
			grpsOf[g] = append(grpsOf[g], i)
		}
	}
	if len(fs.grpStart) == 1 {
		fs.grpStart = nil
		return
	}
	start := make([]int32, nG+1)
	var fanin []uint32
	for g := range nG {
		for _, l := range fs.fanin[fs.start[g]:fs.start[g+1]] {
			if !inGroup[l] || len(grpsOf[g]) == 0 {
				fanin = append(fanin, l)
			}
		}
		start[g+1] = int32(len(fanin))
		fs.gateGrps = append(fs.gateGrps, grpsOf[g]...)
		fs.gateGrpStart[g+1] = int32(len(fs.gateGrps))
	}
	fs.start, fs.fanin = start, fanin
}

// share sets up what flips share: the groups of shared fanins (factor)
// and the wide gates read off zero levels. It is called once a family is
// to be simulated (chess's family, built and declined, is 396,320 slots).
func (fs *famSim) share() {
	fs.factor()
	nG := len(fs.start) - 1
	fs.wideAt = make([]int32, nG)
	for g := range nG {
		if len(fs.grps(g)) == 0 && fs.start[g+1]-fs.start[g] >= int32(famWideFanin) {
			fs.nWide++
			fs.wideAt[g] = int32(fs.nWide)
		}
	}
}

// grps returns the groups gate g reads.
func (fs *famSim) grps(g int) []int32 {
	if fs.gateGrpStart == nil {
		return nil // not shared
	}
	return fs.gateGrps[fs.gateGrpStart[g]:fs.gateGrpStart[g+1]]
}

// groups returns the number of groups of shared fanins.
func (fs *famSim) groups() int { return max(len(fs.grpStart)-1, 0) }

// slot returns the vector of slot s.
func (fs *famSim) slot(s int) []uint64 { return fs.vals[s*fs.w : (s+1)*fs.w] }

// eval evaluates every gate on the inputs' vectors, each group of shared
// fanins when its first member is reached (its literals are that
// member's fanins, so they are set), and the wide gates' zero levels.
func (fs *famSim) eval() {
	w := fs.w
	if n := fs.groups() * w; cap(fs.gvals) < n {
		fs.gvals = make([]uint64, n)
	} else {
		fs.gvals = fs.gvals[:n]
	}
	done := make([]bool, fs.groups())
	for g := range len(fs.start) - 1 {
		dst := fs.slot(1 + fs.nIn + g)
		fan := fs.fanin[fs.start[g]:fs.start[g+1]]
		if len(fan) == 0 {
			fill(dst, ^uint64(0))
		}
		for i, l := range fan {
			andInto(dst, fs.slot(int(l>>1)), -uint64(l&1), i == 0)
		}
		for _, gi := range fs.grps(g) {
			gv := fs.gvals[int(gi)*w : int(gi+1)*w]
			if !done[gi] {
				done[gi] = true
				for i, l := range fs.grpLits[fs.grpStart[gi]:fs.grpStart[gi+1]] {
					andInto(gv, fs.slot(int(l>>1)), -uint64(l&1), i == 0)
				}
			}
			andInto(dst, gv, 0, false)
		}
	}
	fs.setZeroLevels()
}

// setZeroLevels sets, for each wide gate, its zero levels: level j (of
// famZeroLevels) is set on the samples where at least j+1 of its fanin
// literals are false. They are computed once a round, before the flips
// that share them (workers only read them); when they would take more
// than famMaxSlotWords words, zero is nil and flips re-read every fanin.
func (fs *famSim) setZeroLevels() {
	w := fs.w
	if fs.nWide == 0 || fs.nWide*famZeroLevels*w > famMaxSlotWords {
		fs.zero = nil
		return
	}
	if n := fs.nWide * famZeroLevels * w; cap(fs.zero) < n {
		fs.zero = make([]uint64, n)
	} else {
		fs.zero = fs.zero[:n]
	}
	for g, at := range fs.wideAt {
		if at == 0 {
			continue
		}
		z := fs.zero[int(at-1)*famZeroLevels*w:][:famZeroLevels*w]
		fan := fs.fanin[fs.start[g]:fs.start[g+1]]
		// Word by word, the levels in registers (as grounding.ConeSim's).
		for i := range w {
			var z0, z1, z2, z3 uint64
			for _, l := range fan {
				nz := ^(fs.vals[int(l>>1)*w+i] ^ -uint64(l&1))
				z3 |= z2 & nz
				z2 |= z1 & nz
				z1 |= z0 & nz
				z0 |= nz
			}
			z[i], z[w+i], z[2*w+i], z[3*w+i] = z0, z1, z2, z3
		}
	}
}

// wideFlip computes into dst the value of wide gate g during a flip of
// input slot in, from its zero levels, when at most famZeroLevels-1 of its
// fanins changed (the input, or gates with a new value in sc.buf): the
// gate is true where every changed literal is now true and no unchanged
// one is false, and an unchanged one is false exactly where the gate's
// false literals outnumber the changed literals that were false. It
// reports false, doing nothing, when more fanins changed.
func (fs *famSim) wideFlip(sc *famFlip, g, in int, fan []uint32, dst []uint64) bool {
	var changed [famZeroLevels - 1]uint32
	nc := 0
	for _, l := range fan {
		if t := int(l >> 1); t == in || sc.at[t] > 0 {
			if nc == len(changed) {
				return false
			}
			changed[nc] = l
			nc++
		}
	}
	w := fs.w
	z := fs.zero[int(fs.wideAt[g]-1)*famZeroLevels*w:][:famZeroLevels*w]
	for i := range w {
		var zc [famZeroLevels - 1]uint64 // where each changed literal was false
		now := ^uint64(0)
		for c := range nc {
			l := changed[c]
			t := int(l >> 1)
			neg := -uint64(l & 1)
			old := fs.vals[t*w+i] ^ neg
			zc[c] = ^old
			if at := sc.at[t]; at > 0 {
				now &= sc.buf[int(at)-1+i] ^ neg
			} else {
				now &= ^old // the flipped input
			}
		}
		// Bit-sliced count of the changed literals that were false (0..3).
		s0 := zc[0] ^ zc[1] ^ zc[2]
		s1 := zc[0]&zc[1] | zc[0]&zc[2] | zc[1]&zc[2]
		otherFalse := ^s0&^s1&z[i] | s0&^s1&z[w+i] | ^s0&s1&z[2*w+i] | s0&s1&z[3*w+i]
		dst[i] = now &^ otherFalse
	}
	return true
}

// famFlip is one worker's scratch for famSim.flip.
type famFlip struct {
	at      []int32   // 1 + index into buf of a slot's new value, or 0
	queued  []bool    // slot is in a bucket
	bucket  [][]int32 // gate slots to evaluate, by level
	buf     []uint64  // new values, w words each
	changed []int32   // slots with a new value
	// gNew holds the groups' ANDs during the flip whose number is
	// gFlip[i] (w words each), computed on a member's first evaluation.
	gNew  []uint64
	gFlip []uint64
	flips uint64 // 64 bits: a wrap would make stale groups look current
}

func newFamFlip(fs *famSim) *famFlip {
	return &famFlip{at: make([]int32, len(fs.node)), queued: make([]bool, len(fs.node)), bucket: make([][]int32, fs.levels),
		gNew: make([]uint64, fs.groups()*fs.w), gFlip: make([]uint64, fs.groups())}
}

// value returns the vector of slot t during a flip of input slot in (its
// new value when it changed) and the mask that negates it.
func (fs *famSim) value(sc *famFlip, t, in int) ([]uint64, uint64) {
	switch {
	case sc.at[t] > 0:
		return sc.buf[sc.at[t]-1 : sc.at[t]-1+int32(fs.w)], 0
	case t == in:
		return fs.slot(t), ^uint64(0)
	}
	return fs.slot(t), 0
}

// flip negates input slot in on every sample and calls hit(j, old, new)
// for each member j whose root slot changes on some sample (its vectors
// before and after, valid during the call). Gates are evaluated again in
// topological order, and only those with a changed fanin.
func (fs *famSim) flip(sc *famFlip, in int, hit func(j int32, old, new []uint64)) {
	sc.buf, sc.changed = sc.buf[:0], sc.changed[:0]
	sc.flips++
	hi := 0 // the highest level with a gate to evaluate
	push := func(s int) {
		for _, u := range fs.users[fs.userStart[s]:fs.userStart[s+1]] {
			if !sc.queued[u] {
				sc.queued[u] = true
				lv := fs.level[u]
				sc.bucket[lv] = append(sc.bucket[lv], u)
				hi = max(hi, int(lv))
			}
		}
	}
	push(in)
	// Level by level: a gate's fanins are all on lower levels, so each is
	// final when the gate is evaluated.
	for lv := 1; lv <= hi; lv++ {
		for len(sc.bucket[lv]) > 0 {
			b := sc.bucket[lv]
			s := b[len(b)-1]
			sc.bucket[lv] = b[:len(b)-1]
			sc.queued[s] = false
			fs.evalFlipped(sc, int(s), in, hit, push)
		}
	}
	for _, s := range sc.changed {
		sc.at[s] = 0
	}
}

// evalFlipped evaluates gate slot s during a flip of input slot in, and
// when its value changed keeps the new one, tells hit about the members
// it is the root of and pushes its users.
func (fs *famSim) evalFlipped(sc *famFlip, s, in int, hit func(j int32, old, new []uint64), push func(s int)) {
	w := fs.w
	g := s - 1 - fs.nIn
	off := len(sc.buf)
	sc.buf = slices.Grow(sc.buf, w)[:off+w]
	dst := sc.buf[off : off+w]
	fan := fs.fanin[fs.start[g]:fs.start[g+1]]
	if len(fan) == 0 {
		fill(dst, ^uint64(0))
	}
	if fs.zero == nil || fs.wideAt[g] == 0 || !fs.wideFlip(sc, g, in, fan, dst) {
		for i, l := range fan {
			src, neg := fs.value(sc, int(l>>1), in)
			andInto(dst, src, neg^-uint64(l&1), i == 0)
		}
	}
	for _, gi := range fs.grps(g) {
		// The group's fanins are g's, all final by now.
		gv := sc.gNew[int(gi)*w : int(gi+1)*w]
		if sc.gFlip[gi] != sc.flips {
			sc.gFlip[gi] = sc.flips
			for i, l := range fs.grpLits[fs.grpStart[gi]:fs.grpStart[gi+1]] {
				src, neg := fs.value(sc, int(l>>1), in)
				andInto(gv, src, neg^-uint64(l&1), i == 0)
			}
		}
		andInto(dst, gv, 0, false)
	}
	if slices.Equal(dst, fs.slot(s)) {
		sc.buf = sc.buf[:off]
		return
	}
	sc.at[s] = int32(off) + 1
	sc.changed = append(sc.changed, int32(s))
	if fs.isRoot[s/64]>>(s%64)&1 == 1 {
		for _, j := range fs.rootFns[int32(s)] {
			hit(j, fs.slot(s), dst)
		}
	}
	push(s)
}

// famSupport simulates the union of the cones of roots and returns, for
// each root j, the circuit inputs shown to matter to it:
// dep[j*words:(j+1)*words] is a bitset over circuit inputs. It returns nil
// when the union is too big or shared too little (see newFamSim:
// memberGates adds up the gates of the roots' cones).
//
// A first round simulates random samples (biased word by word, as
// simSupport's); boundary rounds follow, as in simSupport: the witnesses
// of the inputs a round showed, with that input flipped, lie on some
// function's boundary, where flipping another input often changes it too,
// and each round simulates them and random neighbours of them until one
// shows nothing new. Workers flip disjoint inputs; ctx is looked at every
// cancelCheckEvery flips.
func famSupport(ctx context.Context, c *grounding.Circuit, roots []grounding.Lit, memberGates int64, workers int, seed uint64, coneInputs func(j int) ([]int32, bool)) ([]uint64, int, error) {
	fs := newFamSim(c, roots, memberGates, famWords, famMaxSlotWords)
	if fs == nil || int64(fs.nIn)*int64(len(fs.node))*famWords > famMaxRoundWork {
		return nil, 0, nil
	}
	fs.share()
	// need[k]: the members that may depend on input slot 1+k and are not
	// yet shown to (all members, for an input of unknown cones); an input
	// no member needs is not flipped.
	need := make([]int32, fs.nIn)
	circIn := fs.node[1 : 1+fs.nIn]
	for j := range roots {
		ins, ok := coneInputs(j)
		if !ok {
			for k := range need {
				need[k]++
			}
			continue
		}
		for _, in := range ins {
			if k, ok := slices.BinarySearch(circIn, in+1); ok {
				need[k]++
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	src := splitMix(rng.Uint64())
	for k := range fs.nIn {
		v := fs.slot(1 + k)
		for i := range v {
			v[i] = biasedWord(&src, simBiasBits[i%len(simBiasBits)])
		}
	}
	words := (c.NumInputs + 63) / 64
	dep := make([]uint64, len(roots)*words)
	// The widest boundary round the slot bound and the round work bound
	// allow, up to boundaryWords: every round costs at most what the
	// first may (famMaxRoundWork), not eight times as much.
	bw := min(boundaryWords, max(famWords, famMaxSlotWords/len(fs.node)),
		max(famWords, int(famMaxRoundWork/(int64(fs.nIn)*int64(len(fs.node))))))
	best := 0 // the most (root, input) pairs a round showed
	last := famBoundaryRounds + famExtraRounds
	for round := 0; round <= last; round++ {
		wits, err := fs.round(ctx, dep, need, words, workers)
		if err != nil {
			return nil, 0, err
		}
		best = max(best, len(wits))
		if len(wits) == 0 || round == last || round >= famBoundaryRounds && len(wits)*famExtraYield < best {
			break
		}
		// The witnesses as samples (input k flipped), some random
		// neighbours of them (one to three more inputs flipped).
		seeds := fs.witnessSamples(wits, rng, 16*bw)
		cands := slices.Clone(seeds)
		for len(cands) < 64*bw {
			x := slices.Clone(seeds[rng.IntN(len(seeds))])
			for range 1 + rng.IntN(3) {
				k := rng.IntN(fs.nIn)
				x[k/64] ^= 1 << (k % 64)
			}
			cands = append(cands, x)
		}
		fs.load(cands, bw)
	}
	return dep, words, nil
}

// famMaxRoundWork bounds the worst case of each of famSupport's rounds,
// inputs × slots × words. Samples shared by a family serve functions
// that are true on overlapping sets: merrills' 1,112 functions of its
// piece count (78 inputs, 12,136 slots: 7.6 M) get most of their
// supports from it. chess's 4,664 legal, goal and terminal functions
// (1,417 inputs, 396,320 slots: 4.5 G) are each true on a set of their
// own (this piece on this cell, that cell free), so its shared samples
// showed about 3 inputs per function in a round of ~2.4 min wall.
const famMaxRoundWork = 1 << 30

// famBoundaryRounds bounds famSupport's boundary rounds; famExtraRounds
// more run while each shows at least a famExtraYield-th of the pairs the
// best round showed. Once its flips read shared fanins once (factor), a
// round of checkers-mustjump-torus' family cost about a quarter of what
// simSupport paid for the (function, input) pairs it showed, and its
// eighth round still showed 7,032 new pairs (its best 18,704).
const (
	famBoundaryRounds = 8
	famExtraRounds    = 16
	famExtraYield     = 8
)

// famWitness: flipping input slot in changed a root on sample bit.
type famWitness struct{ in, bit int32 }

// round evaluates the loaded samples, flips every input some member
// needs (see famSupport), marks in dep the inputs each root is shown to
// depend on, and returns a witness of each (root, input) pair shown for
// the first time, sorted.
func (fs *famSim) round(ctx context.Context, dep []uint64, need []int32, words, workers int) ([]famWitness, error) {
	fs.eval()
	wits := make([][]famWitness, workers)
	err := parallel(ctx, workers, workers, func(wk int) error {
		sc := newFamFlip(fs)
		for k := wk; k < fs.nIn; k += workers {
			if (k/workers)%cancelCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if atomic.LoadInt32(&need[k]) == 0 {
				continue
			}
			in := int(fs.node[1+k]) - 1 // circuit input
			fs.flip(sc, 1+k, func(j int32, old, new []uint64) {
				if atomic.OrUint64(&dep[int(j)*words+in/64], 1<<(in%64))>>(in%64)&1 == 1 {
					return
				}
				atomic.AddInt32(&need[k], -1)
				for i := range old {
					if d := old[i] ^ new[i]; d != 0 {
						wits[wk] = append(wits[wk], famWitness{int32(1 + k), int32(64*i + bits.TrailingZeros64(d))})
						return
					}
				}
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	all := slices.Concat(wits...)
	slices.SortFunc(all, func(a, b famWitness) int { return cmp.Or(cmp.Compare(a.in, b.in), cmp.Compare(a.bit, b.bit)) })
	return slices.Compact(all), nil
}

// witnessSamples returns up to max of the witnesses (a random choice when
// there are more) as samples over the simulator's inputs (bit k: input
// slot 1+k), with the witness's input flipped.
func (fs *famSim) witnessSamples(wits []famWitness, rng *rand.Rand, max int) []sample {
	if len(wits) > max {
		rng.Shuffle(len(wits), func(i, j int) { wits[i], wits[j] = wits[j], wits[i] })
		wits = wits[:max]
	}
	out := make([]sample, len(wits))
	for j, wt := range wits {
		x := make(sample, (fs.nIn+63)/64)
		for k := range fs.nIn {
			if fs.slot(1 + k)[wt.bit/64]>>(wt.bit%64)&1 == 1 {
				x[k/64] |= 1 << (k % 64)
			}
		}
		k := int(wt.in) - 1
		x[k/64] ^= 1 << (k % 64)
		out[j] = x
	}
	return out
}

// load makes the simulator w words wide and sets its inputs to the
// samples (unused bits repeat the first sample).
func (fs *famSim) load(samples []sample, w int) {
	w = min(w, (len(samples)+63)/64)
	if fs.w != w {
		fs.w = w
		fs.vals = make([]uint64, len(fs.node)*w)
	}
	clear(fs.vals[:(1+fs.nIn)*w])
	loadSamples(fs.vals, w, samples)
}

// famDeps is what family simulation showed: the circuit inputs that
// matter to each simulated function literal.
type famDeps struct {
	row   map[grounding.Lit]int
	dep   []uint64
	words int
}

// simulateFamily runs famSupport over the functions fs (indices into
// b.funcs, functions of the state whose supports simSupport will decide)
// whose cones hold gates gates in all, and keeps its witnesses for
// simSupport.
func (b *builder) simulateFamily(ctx context.Context, fs []int, gates int64) error {
	if len(fs) < famMinShare {
		return nil
	}
	roots := make([]grounding.Lit, len(fs))
	for j, i := range fs {
		roots[j] = b.funcs[i].Function.Lit
	}
	// The members' cone inputs, from the cones the Build keeps.
	coneInputs := func(j int) ([]int32, bool) {
		b.cones.mu.Lock()
		defer b.cones.mu.Unlock()
		cn, ok := b.cones.of[roots[j]]
		if !ok {
			return nil, false
		}
		return cn.Inputs, true
	}
	dep, words, err := famSupport(ctx, &b.p.Circuit, roots, gates, b.opt.Workers, uint64(len(roots)), coneInputs)
	if err != nil || dep == nil {
		return err
	}
	b.fam = &famDeps{row: make(map[grounding.Lit]int, len(roots)), dep: dep, words: words}
	for j, r := range roots {
		b.fam.row[r] = j
	}
	return nil
}

// seed marks in propDep the propositions props (circuit inputs) that
// family simulation showed to matter to lit.
func (fd *famDeps) seed(lit grounding.Lit, props []int32, propDep []bool) {
	if fd == nil {
		return
	}
	j, ok := fd.row[lit]
	if !ok {
		return
	}
	row := fd.dep[j*fd.words : (j+1)*fd.words]
	for k, in := range props {
		if row[in/64]>>(in%64)&1 == 1 {
			propDep[k] = true
		}
	}
}

// andInto sets dst to src xor neg (first) or ands it into dst: one fanin
// of an AND gate, neg all ones for a negated one.
func andInto(dst, src []uint64, neg uint64, first bool) {
	if first {
		for x := range dst {
			dst[x] = src[x] ^ neg
		}
		return
	}
	for x := range dst {
		dst[x] &= src[x] ^ neg
	}
}
