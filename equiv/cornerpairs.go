package equiv

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

// cornerPairCheck compares corner counts of mapped pairs of propositions.
// A corner of a function f of the state is a set C of propositions with
// f(C) ≠ f(∅) and f(C minus p) = f(∅) for every p in C (the states named
// by the propositions they hold): a locally minimal change from the state
// where none holds (groundgraph's corners from the all-false anchor). An
// equivalence σ maps the all-false state of A onto B's, so it maps the
// corners of f onto those of σf, and the number of corners of size k that
// hold both i and j equals that of σf holding σi and σj. The ground graph
// keeps these counts only for functions with few enough sharing pairs
// (groundgraph.Options.MaxCornerPairs); quad's square goals have more, and
// its graph maps two cells that are corners of one square together onto two
// that are corners of two, a choice refuted only once about a dozen more
// cells are mapped, at the bottom of a large subtree. Here the counts are
// computed for mapped pairs only, when the search maps them.
type cornerPairCheck struct {
	sides [2]cornerSide
	// validated: some node has had every mapped pair checked, so later
	// nodes check only pairs with a proposition they fix (as in pairState).
	validated bool
	work      int64 // gate-word evaluations at this node
	nodes     int64
	pruned    int64
	off       bool
	isNew     []int64 // isNew[in] == stamp: A's input in is fixed at this node
	stamp     int64
}

// cornerPairMaxSize is the largest corner counted: four propositions, a
// square's corners (sizes 2 to 4 are counted, each pair's points costing
// C(n-2, 2) evaluations of its cone for n propositions read).
const cornerPairMaxSize = 4

// cornerPairGiveUp is the number of nodes the check runs without pruning
// any before it turns itself off, as the probe and cofactor checks do.
const cornerPairGiveUp = 256

// cornerWords is the number of words (64 points each) evaluated together.
const cornerWords = 16

// cornerCounts holds the number of corners of sizes 2..cornerPairMaxSize
// that hold a pair.
type cornerCounts [cornerPairMaxSize - 1]int32

type cornerKey struct {
	lit  grounding.Lit
	i, j int32 // circuit inputs, i < j
}

// cornerSide is one game's cones and counts.
type cornerSide struct {
	p      *grounding.Program
	cones  map[grounding.Lit]*cornerCone
	counts map[cornerKey]cornerCounts
	out    []uint64
	batch  cornerBatch
}

type cornerCone struct {
	cn  *grounding.Cone
	sim *grounding.ConeSim // made on the first count: big cones never get one
	pos map[int32]int32    // circuit input -> cone input position
	f0  bool
	bad bool // the cone could not be built: never compared
}

func newCornerPairCheck(a, b game) *cornerPairCheck {
	c := &cornerPairCheck{}
	for k, gm := range []game{a, b} {
		c.sides[k] = cornerSide{p: gm.p, cones: map[grounding.Lit]*cornerCone{}, counts: map[cornerKey]cornerCounts{}}
	}
	return c
}

// cone returns lit's cone.
func (cs *cornerSide) cone(lit grounding.Lit) *cornerCone {
	if cc, ok := cs.cones[lit]; ok {
		return cc
	}
	cc := &cornerCone{}
	cs.cones[lit] = cc
	cn, err := grounding.NewCone(&cs.p.Circuit, lit)
	if err != nil {
		cc.bad = true
		return cc
	}
	cc.cn = cn
	return cc
}

// simulator makes cc's simulator and f(∅).
func (cs *cornerSide) simulator(cc *cornerCone) {
	if cc.sim != nil {
		return
	}
	cc.sim = grounding.NewConeSim(cc.cn, cornerWords)
	cc.pos = make(map[int32]int32, len(cc.cn.Inputs))
	for k, in := range cc.cn.Inputs {
		cc.pos[in] = int32(k)
	}
	if len(cs.out) < cornerWords {
		cs.out = make([]uint64, cornerWords)
	}
	cc.sim.EvalN(1, cs.out)
	cc.f0 = cs.out[0]&1 != 0
}

// pairWork estimates the gate-word evaluations of count(lit, i, j).
func (cs *cornerSide) pairWork(lit grounding.Lit) int64 {
	cc := cs.cone(lit)
	if cc.bad {
		return 0
	}
	m := int64(len(cc.cn.Inputs))
	points := 3*m + m*m/2
	return (points/64 + 1) * int64(len(cc.cn.Gates))
}

// count returns the corner counts of lit's function for the pair of
// circuit inputs i, j, and the gate-word evaluations it cost; ok is false
// when the cone could not be built.
func (cs *cornerSide) count(lit grounding.Lit, i, j int32) (cornerCounts, int64, bool) {
	if i > j {
		i, j = j, i
	}
	key := cornerKey{lit, i, j}
	if n, ok := cs.counts[key]; ok {
		return n, 0, true
	}
	cc := cs.cone(lit)
	if cc.bad {
		return cornerCounts{}, 0, false
	}
	cs.simulator(cc)
	var n cornerCounts
	pi, iok := cc.pos[i]
	pj, jok := cc.pos[j]
	if !iok || !jok {
		// f does not read both: no corner holds both.
		cs.counts[key] = n
		return n, 0, true
	}
	var others []int32
	for k, in := range cc.cn.Inputs {
		// Moves stay false: corners are sets of propositions.
		if role, _ := cs.p.InputOf(int(in)); role < 0 && int32(k) != pi && int32(k) != pj {
			others = append(others, int32(k))
		}
	}
	m := len(others)
	b := &cs.batch
	b.reset(cc, cs.out)
	// Points of up to three propositions: {i}, {j}, {i, j}, then {i, u},
	// {j, u}, {i, j, u} for every other u; res[3+3x+k] is point k of u.
	b.add(pi, -1, -1, -1)
	b.add(pj, -1, -1, -1)
	b.add(pi, pj, -1, -1)
	for _, u := range others {
		b.add(pi, u, -1, -1)
		b.add(pj, u, -1, -1)
		b.add(pi, pj, u, -1)
	}
	res := b.eval()
	fi, fj, fij := res[0], res[1], res[2]
	fiu := func(x int) bool { return res[3+3*x] }
	fju := func(x int) bool { return res[3+3*x+1] }
	fiju := make([]bool, m)
	for x := range m {
		fiju[x] = res[3+3*x+2]
	}
	if fij && !fi && !fj {
		n[0]++
	}
	for x := range m {
		if fiju[x] && !fij && !fiu(x) && !fju(x) {
			n[1]++
		}
	}
	// Corners of four: {i, j, u, v} changes f while {i, j, u} and
	// {i, j, v} do not; then {i, u, v} and {j, u, v} must not either.
	var free []int32
	for x := range m {
		if !fiju[x] {
			free = append(free, others[x])
		}
	}
	cands := b.quads(pi, pj, free)
	for len(cands) > 0 {
		k := min(len(cands), cornerBatchPoints/2)
		for _, q := range cands[:k] {
			b.add(pi, q[0], q[1], -1)
			b.add(pj, q[0], q[1], -1)
		}
		res := b.eval()
		for x := range k {
			if !res[2*x] && !res[2*x+1] {
				n[2]++
			}
		}
		cands = cands[k:]
	}
	cs.counts[key] = n
	return n, b.work, true
}

// cornerBatchPoints is the number of points evaluated together.
const cornerBatchPoints = 64 * cornerWords

// quads evaluates f on {x, y, free[a], free[b]} for every a < b (cone
// inputs) and returns the pairs {free[a], free[b]} where f differs from
// f(∅). It is the bulk of count, m²/2 points for m free inputs, so it
// sets x and y once per batch and one bit per point and its inputs, and
// reads back only the lanes that differ.
func (b *cornerBatch) quads(x, y int32, free []int32) [][2]int32 {
	sim := b.cc.sim
	w := sim.W
	ins := sim.Vals[w : (1+len(sim.Cone.Inputs))*w]
	var cands [][2]int32
	var lanes [cornerBatchPoints][2]int32
	t := 0
	start := func() {
		clear(ins)
		for _, k := range []int32{x, y} {
			for i := range w {
				ins[int(k)*w+i] = ^uint64(0)
			}
		}
	}
	flush := func() {
		if t == 0 {
			return
		}
		wn := (t + 63) / 64
		b.work += sim.EvalN(wn, b.out)
		f0 := uint64(0)
		if b.cc.f0 {
			f0 = ^uint64(0)
		}
		for k := range wn {
			d := b.out[k] ^ f0
			if k == wn-1 && t%64 != 0 {
				d &= uint64(1)<<(t%64) - 1
			}
			for d != 0 {
				lane := k*64 + bits.TrailingZeros64(d)
				d &= d - 1
				cands = append(cands, lanes[lane])
			}
		}
		t = 0
		start()
	}
	start()
	for a, u := range free {
		for _, v := range free[a+1:] {
			word, bit := t/64, uint64(1)<<(t%64)
			ins[int(u)*w+word] |= bit
			ins[int(v)*w+word] |= bit
			lanes[t] = [2]int32{u, v}
			if t++; t == cornerBatchPoints {
				flush()
			}
		}
	}
	flush()
	return cands
}

// cornerBatch evaluates points (sets of up to four cone inputs, -1 for
// none) and reports whether f differs there from f(∅).
type cornerBatch struct {
	cc   *cornerCone
	out  []uint64
	pts  [][4]int32
	res  []bool
	work int64
}

func (b *cornerBatch) reset(cc *cornerCone, out []uint64) {
	b.cc, b.out, b.pts, b.work = cc, out, b.pts[:0], 0
}

func (b *cornerBatch) add(x, y, z, w int32) {
	b.pts = append(b.pts, [4]int32{x, y, z, w})
}

// eval evaluates the queued points, in order, and empties the queue; the
// result is valid until the next call.
func (b *cornerBatch) eval() []bool {
	sim := b.cc.sim
	b.res = b.res[:0]
	for start := 0; start < len(b.pts); start += cornerBatchPoints {
		end := min(start+cornerBatchPoints, len(b.pts))
		wn := (end - start + 63) / 64
		// The cone's inputs are slots 1..len(Inputs), W words each and
		// contiguous: one clear, then each point's bits (a slice per
		// input and point cost more than the gates of small cones:
		// factoringDelusionsOfAdequacy's 81-gate goal over 256
		// propositions).
		w := sim.W
		clear(sim.Vals[w : (1+len(sim.Cone.Inputs))*w])
		for t, pt := range b.pts[start:end] {
			word, bit := t/64, uint64(1)<<(t%64)
			for _, k := range pt {
				if k >= 0 {
					sim.Vals[(1+int(k))*w+word] |= bit
				}
			}
		}
		b.work += sim.EvalN(wn, b.out)
		for t := range end - start {
			v := b.out[t/64]>>(t%64)&1 != 0
			b.res = append(b.res, v != b.cc.f0)
		}
	}
	b.pts = b.pts[:0]
	return b.res
}

// cornerPairsRefute checks the corner counts of the pairs of mapped
// propositions of every goal and terminal function whose image is known,
// within Limits.MaxCornerPairWork per node; true prunes the node.
func (s *search) cornerPairsRefute(partial isomorph.Mapping, fixed []int32) bool {
	c := s.corners
	if c == nil || c.off {
		return false
	}
	if c.nodes >= cornerPairGiveUp && c.pruned == 0 {
		c.off = true
		return false
	}
	c.nodes++
	refuted, complete := s.cornerPairsUpTo(partial, fixed, math.MaxInt32)
	if refuted {
		c.pruned++
		return true
	}
	// Unless the budget ran out, every mapped pair has been checked:
	// later nodes check only the pairs with a proposition they fix.
	c.validated = complete
	return false
}

// blameCorners runs when another check has refuted the node with a
// backjump to depth s.jumpTo: while the corner check has not yet seen every
// mapped pair (validated), a pair fixed above that depth may refute the
// node too, and then the refutation holds for that shallower ancestor's
// whole subtree. quad's mutant mapped two cells on one square's diagonal
// onto two that share no square at depth 2, before any check pruned and
// so before this check ran; the pair types and the single functions then
// refuted its descendants at depths 6 and 7, one by one, for 470 nodes.
// Only pairs fixed above s.jumpTo are counted (their counts are cached for
// the nodes that follow), within Limits.MaxCornerPairWork.
func (s *search) blameCorners(partial isomorph.Mapping) {
	c := s.corners
	if c == nil || c.off || c.validated || !s.depthsOn || s.lim.NoBackjump || s.err != nil || s.jumpTo <= 0 || !s.pairsActive() {
		return
	}
	if refuted, _ := s.cornerPairsUpTo(partial, nil, int32(s.jumpTo)-1); refuted {
		c.pruned++
		s.cornerBlamed++
	}
}

// cornerPairsUpTo checks the corner counts of the mapped pairs of every
// goal and terminal function whose image is known: the pairs with a
// proposition in fixed, or all of them until the check has validated a
// node (or when the function's image is new here). Only pairs whose
// deeper proposition was fixed at depth maxDepth or above are counted
// (math.MaxInt32: all). With depths on (Compare's search), the pairs go
// by the depth that fixed their deeper proposition, shallowest first
// across all functions, so that the refutation found is the one that
// backjumps furthest. complete is false when the node's budget ran out.
func (s *search) cornerPairsUpTo(partial isomorph.Mapping, fixed []int32, maxDepth int32) (refuted, complete bool) {
	c := s.corners
	t0 := time.Now()
	defer func() { s.checkTime += time.Since(t0) }()
	pa, ga := s.a.p, s.a.g
	if c.isNew == nil {
		c.isNew = make([]int64, pa.NumInputs())
	}
	c.stamp++
	c.work = 0
	newFunc := map[int32]bool{}
	for _, v := range fixed {
		switch vx := ga.Vertex(int(v)); vx.Kind {
		case groundgraph.Prop:
			c.isNew[pa.TrueInput(vx.Index).Node()-1] = c.stamp
		case groundgraph.Role:
			for _, f := range s.ownedBy[v] {
				newFunc[f] = true
			}
		}
	}
	all := !c.validated || maxDepth != math.MaxInt32
	var todo []cornerTask
	asked := map[[2]grounding.Lit]bool{}
	for f, fn := range s.funcs {
		if fn.Kind != grounding.FuncGoal && fn.Kind != grounding.FuncTerminal || !s.ownMapped(partial, f) {
			continue
		}
		if s.depthsOn && s.ownDepth(int32(f)) > maxDepth {
			continue // its image was fixed too deep
		}
		fb, ok := s.imageFunc(partial, fn)
		if !ok {
			return false, false // the search's own checks reject it
		}
		// Goals of two roles written with one body ask one question.
		if asked[[2]grounding.Lit{fn.Lit, fb}] {
			continue
		}
		asked[[2]grounding.Lit{fn.Lit, fb}] = true
		t := cornerTask{f: int32(f), fb: fb, all: all || newFunc[int32(f)],
			work: c.sides[0].pairWork(fn.Lit) + c.sides[1].pairWork(fb)}
		if t.work > s.lim.MaxCornerPairWork {
			continue // too big for any node: never counted
		}
		todo = append(todo, t)
	}
	slices.SortFunc(todo, func(x, y cornerTask) int { return cmp.Or(cmp.Compare(x.work, y.work), cmp.Compare(x.f, y.f)) })
	for k := range todo {
		if !s.cornerInputs(partial, &todo[k], maxDepth) {
			return false, false
		}
	}
	if !s.depthsOn {
		for k := range todo {
			if refuted, complete := s.cornerPairsOf(&todo[k], math.MaxInt32); refuted || !complete {
				return refuted, complete
			}
		}
		return false, true
	}
	// Level by level: a pair's level is the depth of its deeper input.
	top := int32(0)
	for _, t := range todo {
		if n := len(t.depth); n > 0 {
			top = max(top, t.depth[n-1])
		}
	}
	for level := int32(0); level <= top; level++ {
		for k := range todo {
			if refuted, complete := s.cornerPairsOf(&todo[k], level); refuted || !complete {
				return refuted, complete
			}
		}
	}
	return false, true
}

// cornerTask is one function whose corner counts a node compares.
type cornerTask struct {
	f    int32
	fb   grounding.Lit
	all  bool
	work int64
	// in, img, depth: the function's mapped inputs, their images and the
	// depths that fixed them, shallowest first (cornerInputs); next is the
	// position of the first input not yet taken as a pair's deeper one.
	in, img, depth []int32
	next           int
}

// cornerInputs fills t's mapped inputs fixed at depth maxDepth or above,
// ordered by depth when depths are on; false when f's inputs do not map
// to inputs of B (the search's own checks reject the node).
func (s *search) cornerInputs(partial isomorph.Mapping, t *cornerTask, maxDepth int32) bool {
	if _, ok := s.images(partial, int(t.f)); !ok {
		return false
	}
	for i := range s.inputs[t.f].All() {
		bi := s.inputMap[i]
		if bi < 0 {
			continue
		}
		d := int32(0)
		if s.depthsOn {
			if d = s.fixDepth[s.inputVertex(i)]; d > maxDepth {
				continue
			}
		}
		t.in, t.img, t.depth = append(t.in, i), append(t.img, bi), append(t.depth, d)
	}
	if s.depthsOn {
		perm := make([]int, len(t.in))
		for k := range perm {
			perm[k] = k
		}
		slices.SortStableFunc(perm, func(x, y int) int { return cmp.Compare(t.depth[x], t.depth[y]) })
		in, img, depth := slices.Clone(t.in), slices.Clone(t.img), slices.Clone(t.depth)
		for k, p := range perm {
			t.in[k], t.img[k], t.depth[k] = in[p], img[p], depth[p]
		}
	}
	return true
}

// cornerPairsOf compares t's mapped pairs whose deeper input was fixed at
// depth level or above, taking up where the previous call stopped (so
// that each pair is compared once over the levels), that hold a new
// proposition (all of them if t.all) with their images' counts in t.fb.
// complete is false when the node's budget ran out first.
func (s *search) cornerPairsOf(t *cornerTask, level int32) (refuted, complete bool) {
	c := s.corners
	lit := s.funcs[t.f].Lit
	for ; t.next < len(t.in) && t.depth[t.next] <= level; t.next++ {
		y := t.next
		j, bj := t.in[y], t.img[y]
		for x := range y {
			i, bi := t.in[x], t.img[x]
			if !t.all && c.isNew[i] != c.stamp && c.isNew[j] != c.stamp {
				continue
			}
			if c.work > s.lim.MaxCornerPairWork {
				return false, false
			}
			na, wa, oka := c.sides[0].count(lit, i, j)
			nb, wb, okb := c.sides[1].count(t.fb, bi, bj)
			c.work += wa + wb
			if oka && okb && na != nb {
				s.refutedBy(t.f, s.inputVertex(i), s.inputVertex(j))
				s.failures[t.f]++
				if s.firstFailure == "" {
					s.firstFailure = s.a.p.FunctionName(s.funcs[t.f]) + " has a different number of corners holding two propositions than its image"
				}
				return true, true
			}
		}
	}
	return false, true
}
