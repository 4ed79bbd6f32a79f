package equiv

import (
	"cmp"
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
	type task struct {
		f    int32
		fb   grounding.Lit
		all  bool
		work int64
	}
	var todo []task
	asked := map[[2]grounding.Lit]bool{}
	for f, fn := range s.funcs {
		if fn.Kind != grounding.FuncGoal && fn.Kind != grounding.FuncTerminal || !s.ownMapped(partial, f) {
			continue
		}
		fb, ok := s.imageFunc(partial, fn)
		if !ok {
			return false // the search's own checks reject it
		}
		// Goals of two roles written with one body ask one question.
		if asked[[2]grounding.Lit{fn.Lit, fb}] {
			continue
		}
		asked[[2]grounding.Lit{fn.Lit, fb}] = true
		todo = append(todo, task{f: int32(f), fb: fb, all: !c.validated || newFunc[int32(f)],
			work: c.sides[0].pairWork(fn.Lit) + c.sides[1].pairWork(fb)})
	}
	slices.SortFunc(todo, func(x, y task) int { return cmp.Or(cmp.Compare(x.work, y.work), cmp.Compare(x.f, y.f)) })
	for _, t := range todo {
		if t.work > s.lim.MaxCornerPairWork {
			continue // too big for any node: never counted
		}
		if refuted, complete := s.cornerPairsOf(partial, t.f, t.fb, t.all); refuted {
			c.pruned++
			return true
		} else if !complete {
			c.validated = false // the rest waits for the next node
			return false
		}
	}
	c.validated = true
	return false
}

// cornerPairsOf compares f's mapped pairs that hold a new proposition (all
// of them if all) with their images' in fb. complete is false when the
// node's budget ran out first.
func (s *search) cornerPairsOf(partial isomorph.Mapping, f int32, fb grounding.Lit, all bool) (refuted, complete bool) {
	c := s.corners
	if _, ok := s.images(partial, int(f)); !ok {
		return false, true
	}
	lit := s.funcs[f].Lit
	in := s.inputs[f].AppendTo(nil)
	for x, i := range in {
		bi := s.inputMap[i]
		if bi < 0 {
			continue
		}
		for _, j := range in[x+1:] {
			bj := s.inputMap[j]
			if bj < 0 || !all && c.isNew[i] != c.stamp && c.isNew[j] != c.stamp {
				continue
			}
			if c.work > s.lim.MaxCornerPairWork {
				return false, false
			}
			na, wa, oka := c.sides[0].count(lit, i, j)
			nb, wb, okb := c.sides[1].count(fb, bi, bj)
			c.work += wa + wb
			if oka && okb && na != nb {
				s.refutedBy(f, s.inputVertex(i), s.inputVertex(j))
				s.failures[f]++
				if s.firstFailure == "" {
					s.firstFailure = s.a.p.FunctionName(s.funcs[f]) + " has a different number of corners holding two propositions than its image"
				}
				return true, true
			}
		}
	}
	return false, true
}
