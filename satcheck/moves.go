package satcheck

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/gamequiv/gamequiv/grounding"
)

// Moves is a self-mapping σ of a Checker's program (a Checker of a program
// against itself) given by what it moves: the image of every role, and the
// circuit inputs (propositions, then each role's actions, as in
// Mapping.InputMap) that σ does not fix, with their images. A symmetry of
// a big game moves a few of its hundreds of thousands of inputs.
type Moves struct {
	Roles  []int   // Roles[r]: image of role r (every role)
	Inputs []int32 // moved inputs, ascending
	Images []int32 // Images[k]: image of Inputs[k]
}

// VerifyMoves is Verify of the Mapping that mv describes, for a Checker of
// a program against itself, at a cost in proportion to what mv moves: a
// function that σ fixes, and whose every input σ fixes, is the same circuit
// on the same inputs as its image, so only the functions σ moves (legal of
// a moved action, next of a moved proposition, the goals of a moved role)
// and those reading a moved input are compared. Every other pair of Verify
// is equal, so the verdict is Verify's; Result.Checked counts the pairs
// proven equal, and a Different result names some pair that differs (not
// always Verify's first: simulation aimed at the moved inputs runs first). A mv that is not a permutation of the inputs, maps a
// proposition to an action, an action outside its role's image, or leaves
// an action of a moved role in place, is a caller bug (*MappingError).
func (c *Checker) VerifyMoves(ctx context.Context, mv Moves) (*Result, error) {
	if c.a.p != c.b.p {
		return nil, mappingErrorf("VerifyMoves needs a checker of a program against itself")
	}
	if err := ctx.Err(); err != nil {
		return nil, err // a generator refuted by simulation never reaches verifyPairs' checks
	}
	a := c.a
	p := a.p
	res := &Result{}
	if err := a.checkMoves(mv); err != nil {
		return nil, err
	}
	// Init, on the moved propositions only: σ fixes the others.
	inInit := c.initSet()
	for k, i := range mv.Inputs {
		if a.isAction(i) {
			break
		}
		if j := mv.Images[k]; inInit[i] != inInit[j] {
			res.Verdict, res.Function = Different, "init"
			if inInit[i] {
				res.Reason = fmt.Sprintf("(init %s) holds but its image (init %s) does not", p.Props[i], p.Props[j])
			} else {
				res.Reason = fmt.Sprintf("(init %s) does not hold but its image (init %s) does", p.Props[i], p.Props[j])
			}
			res.Stats = c.Stats()
			return res, nil
		}
	}
	ix := c.movesIndex()
	sw := c.takeSweep()
	defer c.putSweep(sw)
	if !sw.run(a, mv) {
		// σ reaches too much of the circuit: the full Verify.
		return c.Verify(ctx, a.denseMapping(mv))
	}
	im := c.takeIdentity()
	defer c.putIdentity(im, mv.Inputs)
	for k, i := range mv.Inputs {
		im[i] = mv.Images[k]
	}
	res.VacuousNext = a.emptyRole >= 0
	// Pairs the sweep proves (σ carries fa's circuit onto fb's) are equal;
	// the others are checked as Verify checks them, in its order.
	var open []pair
	for _, pr := range ix.affected(a, mv, sw) {
		if sw.image(pr.fa.Lit) == pr.fb.Lit {
			res.Checked++
			continue
		}
		open = append(open, pr)
	}
	proven := res.Checked
	if k, cex := c.refuteByDiff(open, mv, res.VacuousNext); k >= 0 {
		res.Verdict, res.Function, res.Counterexample = Different, pairName(p, p, open[k]), cex
		res.Differs = &open[k].fa
		res.Reason = c.describe(open[k], cex)
		res.Stats = c.Stats()
		return res, nil
	}
	for _, pr := range open {
		if pr.fa.Kind == grounding.FuncNext && res.VacuousNext {
			continue
		}
		o, err := c.refuteMoved(pr, im)
		if err != nil {
			return nil, fmt.Errorf("check %s: %w", pairName(p, p, pr), err)
		}
		if o.model == nil {
			continue
		}
		cex, err := c.movesCounterexample(o, pr, mv)
		if err != nil {
			return nil, fmt.Errorf("check %s: %w", pairName(p, p, pr), err)
		}
		res.Verdict, res.Function, res.Counterexample = Different, pairName(p, p, pr), cex
		res.Differs = &pr.fa
		res.Reason = c.describe(pr, cex)
		res.Stats = c.Stats()
		return res, nil
	}
	res, err := c.verifyPairs(ctx, res, open, im, true)
	if res != nil && res.Verdict == Equivalent {
		c.stats.structural.Add(int64(proven))
	}
	return res, err
}

// movedSimWords is the number of 64-bit words refuteMoved simulates: half
// of them choose moved actions, which is where a difference can be.
const movedSimWords = 2

// refuteMoved simulates the pair on random assignments where, in half of
// them, each role whose actions σ moves does one of the moved ones: a
// function that differs from its image under σ differs only where σ
// changes the assignment, and a role chooses one of thousands of actions,
// so plain random simulation almost never picks a moved one and SAT had to
// find the difference (seconds per pair on amazonsSuicide). It returns a
// separating assignment (o.model), or none.
func (c *Checker) refuteMoved(pr pair, im []int32) (outcome, error) {
	if c.opt.Mode&NoSimulation != 0 || c.opt.SimWords <= 0 {
		return outcome{}, nil
	}
	sem := semanticsOf(pr.fa.Kind)
	suppA, err := c.a.support(pr.fa.Lit)
	if err != nil {
		return outcome{}, err
	}
	suppB, err := c.b.support(pr.fb.Lit)
	if err != nil {
		return outcome{}, err
	}
	j, err := buildJoint(c.a, c.b, suppA, suppB, im, sem)
	if err != nil {
		return outcome{}, err
	}
	ca, err := c.a.coneOf(pr.fa.Lit)
	if err != nil {
		return outcome{}, err
	}
	cb, err := c.b.coneOf(pr.fb.Lit)
	if err != nil {
		return outcome{}, err
	}
	w := min(c.opt.SimWords, movedSimWords)
	rng := rand.New(rand.NewPCG(c.opt.Seed, uint64(pr.fa.Lit)<<32|uint64(pr.fb.Lit)))
	vec := j.randomVectors(w, nil, rng)
	j.chooseMoved(vec, w, rng)
	va, vb := simulatePair(ca, cb, j, vec, w)
	if bit := firstDiff(va, vb, 64*w); bit >= 0 {
		c.stats.simRefuted.Add(1)
		return outcome{j: j, model: assignmentAt(vec, len(j.vars), w, bit)}, nil
	}
	return outcome{}, nil
}

// chooseMoved rewrites the odd words of vec (w words per variable of j):
// each role group with moved members (a variable whose A input and B
// input differ: in a self-comparison, an action that the mapping moves)
// does one of them, chosen at random, in every row of those words.
func (j *joint) chooseMoved(vec []uint64, w int, rng *rand.Rand) {
	for _, g := range j.groups {
		var moved []int32
		for _, v := range g.members {
			if x := j.vars[v]; x.aIn != x.bIn {
				moved = append(moved, v)
			}
		}
		if len(moved) == 0 {
			continue
		}
		for i := 1; i < w; i += 2 {
			for _, v := range g.members {
				vec[int(v)*w+i] = 0
			}
			for b := range 64 {
				vec[int(moved[rng.IntN(len(moved))])*w+i] |= 1 << b
			}
		}
	}
}

// movesCounterexample is counterexample for VerifyMoves, at the cost of
// the pair's cones rather than of the whole circuit (an evaluation of
// amazonsSuicide's circuit, and three arrays over its inputs, per refuted
// generator): it completes the separating assignment o.model into a state
// and joint move of the program and re-evaluates both cones on it.
func (c *Checker) movesCounterexample(o outcome, pr pair, mv Moves) (*Counterexample, error) {
	a := c.a
	j, model := o.j, o.model
	// σ⁻¹ by the images, ascending.
	type inv struct{ img, in int32 }
	invs := make([]inv, len(mv.Inputs))
	for k, i := range mv.Inputs {
		invs[k] = inv{mv.Images[k], i}
	}
	slices.SortFunc(invs, func(x, y inv) int { return int(x.img) - int(y.img) })
	pre := func(b int32) int32 {
		if k, ok := slices.BinarySearchFunc(invs, b, func(x inv, b int32) int { return int(x.img) - int(b) }); ok {
			return invs[k].in
		}
		return b
	}
	in := map[int32]bool{} // A inputs true
	for v, x := range j.vars {
		if !model[v] {
			continue
		}
		if x.aIn >= 0 {
			in[x.aIn] = true
		} else {
			in[pre(x.bIn)] = true
		}
	}
	ce := &Counterexample{}
	if semanticsOf(pr.fa.Kind) == oneHot {
		ce.Moves = make([]int, len(a.p.Roles))
		for r := range ce.Moves {
			ce.Moves[r] = -1
			var members []int32 // the role's group: B inputs some function reads
			for _, g := range j.groups {
				if int(g.role) == mv.Roles[r] {
					members = g.members
				}
			}
			for _, v := range members {
				if x := j.vars[v]; model[v] {
					if x.aIn >= 0 {
						ce.Moves[r] = int(x.aIn - a.base[r])
					} else {
						ce.Moves[r] = int(pre(x.bIn) - a.base[r])
					}
				}
			}
			if ce.Moves[r] >= 0 || a.numActions(int32(r)) == 0 {
				continue
			}
			// "Other": an action whose image no function reads.
			for x := a.base[r]; x < a.base[r+1]; x++ {
				b := imageOf(mv, x)
				if _, read := slices.BinarySearchFunc(members, b, func(v, b int32) int { return int(j.vars[v].bIn - b) }); !read {
					ce.Moves[r] = int(x - a.base[r])
					in[x] = true
					break
				}
			}
			if ce.Moves[r] < 0 {
				return nil, fmt.Errorf("satcheck: internal error: no free action for role %s in counterexample", a.p.Roles[r])
			}
		}
	}
	for i := range in {
		if !a.isAction(i) {
			ce.State = append(ce.State, int(i))
		}
	}
	slices.Sort(ce.State)
	one := []uint64{^uint64(0)}
	eval := func(l grounding.Lit, val func(i int32) bool) (bool, error) {
		if l.Node() == 0 {
			return l == grounding.True, nil
		}
		cn, err := a.coneOf(l)
		if err != nil {
			return false, err
		}
		out, _ := cn.Simulate(1, func(k int) []uint64 {
			if val(cn.Inputs[k]) {
				return one
			}
			return nil
		}, nil, nil)
		return out[0]&1 == 1, nil
	}
	var err error
	if ce.A, err = eval(pr.fa.Lit, func(i int32) bool { return in[i] }); err != nil {
		return nil, err
	}
	if ce.B, err = eval(pr.fb.Lit, func(i int32) bool { return in[pre(i)] }); err != nil {
		return nil, err
	}
	if ce.A == ce.B {
		return nil, fmt.Errorf("satcheck: internal error: counterexample does not separate the functions (both %v)", ce.A)
	}
	return ce, nil
}

// denseMapping is the Mapping that mv describes.
func (s *side) denseMapping(mv Moves) Mapping {
	p := s.p
	m := Mapping{Roles: mv.Roles, Props: make([]int, len(p.Props)), Actions: make([][]int, len(p.Roles))}
	for i := range m.Props {
		m.Props[i] = i
	}
	for r, as := range p.Actions {
		m.Actions[r] = make([]int, len(as))
		for x := range as {
			m.Actions[r][x] = x
		}
	}
	for k, i := range mv.Inputs {
		j := mv.Images[k]
		if !s.isAction(i) {
			m.Props[i] = int(j)
			continue
		}
		r, rb := s.role(i), s.role(j)
		m.Actions[r][i-s.base[r]] = int(j - s.base[rb])
	}
	return m
}

// checkMoves checks that mv is a well-formed self-mapping of s's program.
func (s *side) checkMoves(mv Moves) error {
	p := s.p
	if len(mv.Roles) != len(p.Roles) {
		return mappingErrorf("moves have %d roles; %q has %d", len(mv.Roles), p.Name, len(p.Roles))
	}
	if err := checkBijection("roles", mv.Roles, len(p.Roles)); err != nil {
		return err
	}
	if len(mv.Inputs) != len(mv.Images) {
		return mappingErrorf("moves have %d inputs and %d images", len(mv.Inputs), len(mv.Images))
	}
	n := int32(s.numInputs())
	moved := make([]int, len(p.Roles)) // actions moved, by role
	for k, i := range mv.Inputs {
		j := mv.Images[k]
		if i < 0 || i >= n || j < 0 || j >= n {
			return mappingErrorf("moved input %d maps to %d, out of range [0,%d)", i, j, n)
		}
		if k > 0 && i <= mv.Inputs[k-1] {
			return mappingErrorf("moved inputs not ascending at %d", i)
		}
		switch {
		case s.isAction(i) != s.isAction(j):
			return mappingErrorf("input %d maps to %d: a proposition and an action", i, j)
		case s.isAction(i):
			r := s.role(i)
			if int(s.role(j)) != mv.Roles[r] {
				return mappingErrorf("action input %d of role %s maps to %d, an action of role %s, not of the image %s",
					i, p.Roles[r], j, p.Roles[s.role(j)], p.Roles[mv.Roles[r]])
			}
			moved[r]++
		}
	}
	// Images a permutation of the moved inputs: σ is a bijection.
	img := slices.Clone(mv.Images)
	slices.Sort(img)
	if !slices.Equal(img, mv.Inputs) {
		return mappingErrorf("moved inputs are not a permutation of themselves")
	}
	for r, rb := range mv.Roles {
		if rb != r && moved[r] != s.numActions(int32(r)) {
			return mappingErrorf("role %s maps to %s but %d of its %d actions stay in place",
				p.Roles[r], p.Roles[rb], s.numActions(int32(r))-moved[r], s.numActions(int32(r)))
		}
	}
	return nil
}

// initSet returns the Checker's program's initial state as one flag per
// proposition, built once.
func (c *Checker) initSet() []bool {
	c.movesOnce.Do(func() {
		c.inInit = make([]bool, c.a.nProps)
		for _, q := range c.a.p.Init {
			c.inInit[q] = true
		}
	})
	return c.inInit
}

// takeIdentity lends an input map that maps every input of A to itself.
func (c *Checker) takeIdentity() []int32 {
	if p, ok := c.identity.Get().(*[]int32); ok {
		return *p
	}
	im := make([]int32, c.a.numInputs())
	for i := range im {
		im[i] = int32(i)
	}
	return im
}

// putIdentity restores the entries of moved and returns im.
func (c *Checker) putIdentity(im []int32, moved []int32) {
	for _, i := range moved {
		im[i] = i
	}
	c.identity.Put(&im)
}

// movesIndex is what VerifyMoves needs of the program, built once per
// Checker: the fanouts of every node, and the functions by root node.
type movesIndex struct {
	fns       []grounding.Function // Program.Functions' order
	foStart   []int32              // foStart[n]:foStart[n+1]: the gates reading node n in foList
	foList    []int32
	rootNode  []int32 // the functions' root nodes, ascending, and
	rootFn    []int32 // the function (index in fns) of each
	legalBase []int32 // legalBase[r]: index in fns of legal(r, 0)
	nextBase  int32
	goalBase  int32
}

func (c *Checker) movesIndex() *movesIndex {
	c.indexOnce.Do(func() { c.index = buildMovesIndex(c.a) })
	return c.index
}

func buildMovesIndex(s *side) *movesIndex {
	p, cc := s.p, s.c
	ix := &movesIndex{fns: p.Functions(), legalBase: make([]int32, len(p.Roles)+1)}
	n := int32(0)
	for r := range p.Roles {
		ix.legalBase[r] = n
		n += int32(len(p.Legal[r]))
	}
	ix.legalBase[len(p.Roles)] = n
	ix.nextBase = n
	ix.goalBase = n + int32(len(p.Next))
	nn := cc.NumNodes()
	ix.foStart = make([]int32, nn+1)
	for g := cc.NumInputs + 1; g < nn; g++ {
		for _, l := range cc.Fanins(g) {
			ix.foStart[l.Node()+1]++
		}
	}
	for i := 1; i <= nn; i++ {
		ix.foStart[i] += ix.foStart[i-1]
	}
	ix.foList = make([]int32, ix.foStart[nn])
	fill := slices.Clone(ix.foStart[:nn])
	for g := cc.NumInputs + 1; g < nn; g++ {
		for _, l := range cc.Fanins(g) {
			ix.foList[fill[l.Node()]] = int32(g)
			fill[l.Node()]++
		}
	}
	order := make([]int32, len(ix.fns))
	for f := range order {
		order[f] = int32(f)
	}
	slices.SortStableFunc(order, func(x, y int32) int { return ix.fns[x].Lit.Node() - ix.fns[y].Lit.Node() })
	ix.rootNode = make([]int32, len(order))
	for k, f := range order {
		ix.rootNode[k] = int32(ix.fns[f].Lit.Node())
	}
	ix.rootFn = order
	return ix
}

// affected lists, in Verify's order, the pairs of functions that mv moves
// or whose root the sweep reached with an image other than itself; every
// other pair is a function and itself, σ carrying its circuit onto itself.
func (ix *movesIndex) affected(s *side, mv Moves, sw *sweep) []pair {
	p := s.p
	var ids []int32
	for _, i := range mv.Inputs {
		if s.isAction(i) {
			r := s.role(i)
			ids = append(ids, ix.legalBase[r]+(i-s.base[r]))
		} else {
			ids = append(ids, ix.nextBase+i)
		}
	}
	for _, n := range sw.changed {
		lo, _ := slices.BinarySearch(ix.rootNode, n)
		for k := lo; k < len(ix.rootNode) && ix.rootNode[k] == n; k++ {
			ids = append(ids, ix.rootFn[k])
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	terminal := int32(len(ix.fns) - 1)
	var ps []pair
	goalsDone := false
	goals := func() {
		// The goals of each role in order: all of a moved role's (values
		// merged as in Verify), the affected ones of a fixed role.
		goalsDone = true
		lo, _ := slices.BinarySearch(ids, ix.goalBase)
		for r, rb := range mv.Roles {
			if rb != r {
				ps = append(ps, goalPairs(p, p, r, rb)...)
				continue
			}
			for _, id := range ids[lo:] {
				fn := ix.fns[id]
				if id == terminal || fn.Role > r {
					break
				}
				if fn.Role == r {
					ps = append(ps, pair{fa: fn, fb: fn})
				}
			}
		}
	}
	for _, id := range ids {
		fn := ix.fns[id]
		switch fn.Kind {
		case grounding.FuncLegal:
			rb := mv.Roles[fn.Role]
			y := int(imageOf(mv, s.base[fn.Role]+int32(fn.Index)) - s.base[rb])
			ps = append(ps, pair{fa: fn, fb: grounding.Function{Kind: grounding.FuncLegal, Role: rb, Index: y, Lit: p.Legal[rb][y]}})
		case grounding.FuncNext:
			q := int(imageOf(mv, int32(fn.Index)))
			ps = append(ps, pair{fa: fn, fb: grounding.Function{Kind: grounding.FuncNext, Index: q, Lit: p.Next[q]}})
		case grounding.FuncGoal:
			if !goalsDone {
				goals()
			}
		case grounding.FuncTerminal:
			if !goalsDone {
				goals()
			}
			ps = append(ps, pair{fa: fn, fb: fn})
		}
	}
	if !goalsDone {
		goals()
	}
	return ps
}

// maxSweepGates bounds the gates one sweep visits; past it VerifyMoves
// falls back to the full Verify.
const maxSweepGates = 1 << 22

// Sweep marks.
const (
	untouched grounding.Lit = ^grounding.Lit(0)     // σ fixes every input below
	queued    grounding.Lit = ^grounding.Lit(0) - 1 // waiting in the heap
	unknown   grounding.Lit = ^grounding.Lit(0) - 2 // no gate computes the image
)

// sweep carries σ through the circuit, from the moved inputs up their
// fanouts in node order (structural hashing: a gate's image is the gate
// whose fanins are its fanins' images, found in the strash index). A gate
// whose image is itself stops the walk there, so its cost is the part of
// the circuit that σ changes. img[n] is the image of node n as a literal
// (h(σx) = n(x) for every input vector x), or one of the marks.
type sweep struct {
	img     []grounding.Lit
	touched []int32 // nodes whose img is set, to reset
	changed []int32 // nodes whose image is not themselves (or unknown)
	heap    []int32
	fs      []grounding.Lit
	ix      *movesIndex
}

func (c *Checker) takeSweep() *sweep {
	ix := c.movesIndex()
	c.a.buildStrash()
	if sw, ok := c.sweeps.Get().(*sweep); ok {
		return sw
	}
	sw := &sweep{img: make([]grounding.Lit, c.a.c.NumNodes()), ix: ix}
	for n := range sw.img {
		sw.img[n] = untouched
	}
	return sw
}

func (c *Checker) putSweep(sw *sweep) {
	for _, n := range sw.touched {
		sw.img[n] = untouched
	}
	sw.touched, sw.changed, sw.heap = sw.touched[:0], sw.changed[:0], sw.heap[:0]
	c.sweeps.Put(sw)
}

// image returns σ of l, or unknown.
func (sw *sweep) image(l grounding.Lit) grounding.Lit {
	switch v := sw.img[l.Node()]; v {
	case untouched:
		return l
	case unknown:
		return unknown
	default:
		return v ^ (l & 1)
	}
}

func (sw *sweep) set(n int32, v grounding.Lit) {
	if sw.img[n] == untouched {
		sw.touched = append(sw.touched, n)
	}
	sw.img[n] = v
	if v != grounding.Lit(n)<<1 {
		sw.changed = append(sw.changed, n)
	}
}

func (sw *sweep) pushFanouts(n int32) {
	for _, g := range sw.ix.foList[sw.ix.foStart[n]:sw.ix.foStart[n+1]] {
		if sw.img[g] != untouched {
			continue
		}
		sw.touched = append(sw.touched, g)
		sw.img[g] = queued
		sw.push(g)
	}
}

// push adds gate g to the min-heap of gates to visit.
func (sw *sweep) push(g int32) {
	sw.heap = append(sw.heap, g)
	for k := len(sw.heap) - 1; k > 0; {
		up := (k - 1) / 2
		if sw.heap[up] <= sw.heap[k] {
			break
		}
		sw.heap[up], sw.heap[k] = sw.heap[k], sw.heap[up]
		k = up
	}
}

func (sw *sweep) pop() int32 {
	h := sw.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for k := 0; ; {
		c := 2*k + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1] < h[c] {
			c++
		}
		if h[k] <= h[c] {
			break
		}
		h[k], h[c] = h[c], h[k]
		k = c
	}
	sw.heap = h
	return top
}

// run sweeps σ = mv through s's circuit; false when it would visit more
// than maxSweepGates gates.
func (sw *sweep) run(s *side, mv Moves) bool {
	cc := s.c
	for k, i := range mv.Inputs {
		n := i + 1 // input i's node
		sw.set(n, grounding.InputLit(int(mv.Images[k])))
		sw.pushFanouts(n)
	}
	for visits := 0; len(sw.heap) > 0; visits++ {
		if visits >= maxSweepGates {
			return false
		}
		g := sw.pop()
		// Every fanin is below g, so done: its image is final.
		sw.fs = sw.fs[:0]
		img := grounding.Lit(0)
		for _, l := range cc.Fanins(int(g)) {
			v := sw.image(l)
			if v == unknown {
				img = unknown
				break
			}
			sw.fs = append(sw.fs, v)
		}
		if img != unknown {
			slices.Sort(sw.fs)
			if h, ok := s.findGate(sw.fs); ok {
				img = h
			} else {
				img = unknown
			}
		}
		sw.setQueued(g, img)
		if img != grounding.Lit(g)<<1 {
			sw.pushFanouts(g)
		}
	}
	return true
}

// setQueued sets the image of a node taken from the heap (already in
// touched).
func (sw *sweep) setQueued(n int32, v grounding.Lit) {
	sw.img[n] = v
	if v != grounding.Lit(n)<<1 {
		sw.changed = append(sw.changed, n)
	}
}

// imageOf returns σ(i) under mv.
func imageOf(mv Moves, i int32) int32 {
	if k, ok := slices.BinarySearch(mv.Inputs, i); ok {
		return mv.Images[k]
	}
	return i
}

// movesState is what VerifyMoves keeps in a Checker: built once, never per
// call, and scratch lent to one call at a time.
type movesState struct {
	movesOnce sync.Once
	inInit    []bool

	indexOnce sync.Once
	index     *movesIndex

	identity sync.Pool // *[]int32, the identity input map between uses

	diffOnce sync.Once
	diff     *diffBase // nil when the circuit is too large
	sweeps   sync.Pool // *sweep, every img entry untouched between uses

	differMu sync.Mutex
	differ   map[grounding.Lit]bool // functions of A that differed from their image in VerifyMoves' SAT pass
}

// maxDiffered bounds the functions VerifyMoves remembers as having
// differed (past it the set is emptied).
const maxDiffered = 64

// differed records that A's function f differed from its image.
func (c *Checker) differed(f grounding.Lit) {
	c.differMu.Lock()
	defer c.differMu.Unlock()
	if len(c.differ) >= maxDiffered {
		clear(c.differ)
	}
	if c.differ == nil {
		c.differ = map[grounding.Lit]bool{}
	}
	c.differ[f] = true
}

// differedFirst moves the undecided pairs whose function of A differed
// from its image in an earlier VerifyMoves to the front, keeping the order
// otherwise: the generators of a graph group that are not symmetries tend
// to break the same functions (quad's, a goal), and every pair asked
// before the one that differs costs a SAT proof.
func (c *Checker) differedFirst(ps []pair, undecided []pending) {
	c.differMu.Lock()
	defer c.differMu.Unlock()
	if len(c.differ) == 0 {
		return
	}
	slices.SortStableFunc(undecided, func(x, y pending) int {
		dx, dy := c.differ[ps[x.i].fa.Lit], c.differ[ps[y.i].fa.Lit]
		switch {
		case dx == dy:
			return 0
		case dx:
			return -1
		}
		return 1
	})
}

// maxDiffNodes bounds the circuits whose base values VerifyMoves keeps
// (one word per node) for its differential simulation.
const maxDiffNodes = 1 << 24

// diffBase is the value of every node of A's circuit on 64 random states
// (one word, a state per bit) with every does-input false, and a default
// action per role: the one whose input the fewest gates read.
type diffBase struct {
	val   []uint64
	deflt []int32 // A input of role r's default action, -1 when it has none
	rng   *rand.Rand
}

func (c *Checker) diffBaseOf() *diffBase {
	c.diffOnce.Do(func() {
		a := c.a
		if a.c.NumNodes() > maxDiffNodes {
			return
		}
		ix := c.movesIndex()
		rng := rand.New(rand.NewPCG(c.opt.Seed, 0xd1ff))
		d := &diffBase{val: make([]uint64, a.c.NumNodes()), deflt: make([]int32, len(a.p.Roles))}
		for i := range a.nProps {
			d.val[i+1] = rng.Uint64()
		}
		a.c.EvalWords(d.val, 1)
		for r := range d.deflt {
			d.deflt[r] = -1
			for x := a.base[r]; x < a.base[r+1]; x++ {
				n := x + 1
				if d.deflt[r] < 0 || ix.foStart[n+1]-ix.foStart[n] < ix.foStart[d.deflt[r]+2]-ix.foStart[d.deflt[r]+1] {
					d.deflt[r] = x
				}
			}
		}
		c.diff = d
	})
	return c.diff
}

// diffEval is one assignment given by the inputs it changes from the
// base: the values of the nodes it changes, found by event-driven
// simulation up their fanouts (a gate is re-evaluated only when a fanin
// changed, and passes the change on only when its own value changes).
type diffEval struct {
	base    []uint64
	val     map[int32]uint64
	heap    []int32
	queued  map[int32]bool
	ix      *movesIndex
	c       *grounding.Circuit
	visits  int
	tooMuch bool
}

func (e *diffEval) value(n int32) uint64 {
	if v, ok := e.val[n]; ok {
		return v
	}
	return e.base[n]
}

func (e *diffEval) lit(l grounding.Lit) uint64 {
	return e.value(int32(l.Node())) ^ -uint64(l&1)
}

// run sets the inputs (nodes) to the words given and propagates.
func (e *diffEval) run(inputs map[int32]uint64) {
	sw := sweep{heap: e.heap}
	push := func(n int32) {
		for _, g := range e.ix.foList[e.ix.foStart[n]:e.ix.foStart[n+1]] {
			if !e.queued[g] {
				e.queued[g] = true
				sw.push(g)
			}
		}
	}
	for n, v := range inputs {
		if v != e.base[n] {
			e.val[n] = v
			push(n)
		}
	}
	for len(sw.heap) > 0 {
		if e.visits++; e.visits > maxSweepGates {
			e.tooMuch = true
			return
		}
		g := sw.pop()
		v := ^uint64(0)
		for _, l := range e.c.Fanins(int(g)) {
			v &= e.lit(l)
		}
		if v != e.base[g] {
			e.val[g] = v
			push(g)
		}
	}
	e.heap = sw.heap
}

// refuteByDiff evaluates the open pairs on 64 random states of the base:
// legal, goal and terminal at a state s and their images at σs; next
// functions at s with, in each role whose actions σ moves, a moved action
// (else the role's default), and their images at the image of that. A
// function that σ fixes differs from its image only where σ changes the
// assignment, so this looks where differences are, at the cost of the
// part of the circuit that σ's changes reach. It returns the index in open
// of a pair that differs and its counterexample, or -1.
func (c *Checker) refuteByDiff(open []pair, mv Moves, vacuousNext bool) (int, *Counterexample) {
	d := c.diffBaseOf()
	if d == nil || len(open) == 0 {
		return -1, nil
	}
	a := c.a
	ix := c.movesIndex()
	newEval := func() *diffEval {
		return &diffEval{base: d.val, val: map[int32]uint64{}, queued: map[int32]bool{}, ix: ix, c: a.c}
	}
	rng := rand.New(rand.NewPCG(c.opt.Seed, uint64(len(mv.Inputs))<<32|uint64(mv.Inputs[0])))
	// States: σs moves the propositions' words.
	sigmaProps := map[int32]uint64{}
	for k, i := range mv.Inputs {
		if !a.isAction(i) {
			sigmaProps[mv.Images[k]+1] = d.val[i+1]
		}
	}
	// Joint moves: a word per action input set.
	movesA := map[int32]uint64{}
	var movedRoles []int
	for r := range a.p.Roles {
		lo, _ := slices.BinarySearch(mv.Inputs, a.base[r])
		hi, _ := slices.BinarySearch(mv.Inputs, a.base[r+1])
		if hi > lo {
			movedRoles = append(movedRoles, r)
			for b := range 64 {
				x := mv.Inputs[lo+rng.IntN(hi-lo)]
				if len(movedRoles) > 1 && rng.IntN(2) == 0 && d.deflt[r] >= 0 && imageOf(mv, d.deflt[r]) == d.deflt[r] {
					x = d.deflt[r]
				}
				movesA[x+1] |= 1 << b
			}
		} else if d.deflt[r] >= 0 {
			movesA[d.deflt[r]+1] = ^uint64(0)
		}
	}
	inA1 := map[int32]uint64{}
	inB1 := map[int32]uint64{}
	for n, v := range movesA {
		inA1[n] = v
		inB1[imageOf(mv, n-1)+1] |= v
	}
	for n, v := range sigmaProps {
		inB1[n] = v
	}
	var b0, a1, b1 *diffEval
	hasNext, hasState := false, false
	for _, pr := range open {
		if pr.fa.Kind == grounding.FuncNext {
			hasNext = true
		} else {
			hasState = true
		}
	}
	if hasState {
		b0 = newEval()
		b0.run(sigmaProps)
	}
	if hasNext && !vacuousNext {
		a1, b1 = newEval(), newEval()
		a1.run(inA1)
		b1.run(inB1)
	}
	for k, pr := range open {
		var va, vb uint64
		switch {
		case pr.fa.Kind != grounding.FuncNext && b0 != nil && !b0.tooMuch:
			va, vb = d.val[pr.fa.Lit.Node()]^-uint64(pr.fa.Lit&1), b0.lit(pr.fb.Lit)
		case pr.fa.Kind == grounding.FuncNext && a1 != nil && !a1.tooMuch && !b1.tooMuch:
			va, vb = a1.lit(pr.fa.Lit), b1.lit(pr.fb.Lit)
		default:
			continue
		}
		if va == vb {
			continue
		}
		bit := uint(bits.TrailingZeros64(va ^ vb))
		ce := &Counterexample{A: va>>bit&1 == 1, B: vb>>bit&1 == 1}
		for i := range a.nProps {
			if d.val[i+1]>>bit&1 == 1 {
				ce.State = append(ce.State, i)
			}
		}
		if pr.fa.Kind == grounding.FuncNext {
			ce.Moves = make([]int, len(a.p.Roles))
			for r := range ce.Moves {
				ce.Moves[r] = -1
			}
			for n, v := range movesA {
				if v>>bit&1 == 1 {
					r := a.role(n - 1)
					ce.Moves[r] = int(n - 1 - a.base[r])
				}
			}
		}
		return k, ce
	}
	return -1, nil
}
