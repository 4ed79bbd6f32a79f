package grounding

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"
)

// factSet holds the ground tuples of one relation, in insertion order.
type factSet struct {
	arity   int
	n       int32
	data    []int32 // flat tuples; arity 0 relations store nothing
	set     tupleTable
	indexes map[string]*index
	at      func(int32) []int32 // f.tuple, made once for set
}

func newFactSet(arity int) *factSet {
	f := &factSet{arity: arity, indexes: map[string]*index{}}
	f.at = f.tuple
	return f
}

func (f *factSet) tuple(i int32) []int32 {
	return f.data[int(i)*f.arity : int(i+1)*f.arity]
}

func (f *factSet) lookup(tuple []int32) (int32, bool) {
	if f.arity == 0 {
		return 0, f.n > 0
	}
	return f.set.find(tuple, f.at)
}

// add inserts a tuple; it reports the tuple's id and whether it is new.
func (f *factSet) add(tuple []int32) (int32, bool) {
	if id, ok := f.lookup(tuple); ok {
		return id, false
	}
	id := f.n
	f.data = append(f.data, tuple...)
	f.n++
	if f.arity > 0 {
		f.set.insert(tuple, id)
	}
	return id, true
}

// probe is one known position of an atom pattern at join time: either a
// functor check (fn/arity of the compound at path) or a leaf value (a ground
// term, or a variable bound by an earlier step).
type probe struct {
	path    []int32
	functor bool
	fn      int32
	arity   int32
	ground  int32 // >= 0: fixed value
	v       int32 // >= 0: bound variable
}

// index maps the hash of probe values to fact ids (ascending).
type index struct {
	probes  []probe
	built   int32
	matched int32 // facts whose shape fits the probes
	// keys numbers the probe hashes, and lists[keys[h]] holds h's ids: the
	// first inline (most hashes have one), more in blocks; a slice per
	// hash was a fifth of chess's heap objects. A full list moves to fresh
	// room twice its size; a reader that holds the old ids sees them
	// unchanged.
	keys   map[uint64]int32
	lists  []idList
	blocks [][]int32
	cur    int32 // the block short lists get room from; -1: none yet
}

// idList is one hash's fact ids: first[0] alone, or n of them in
// blocks[block] from start, with room for room.
type idList struct {
	first                 [1]int32
	block, start, n, room int32
}

// idBlock is the int32s of an index block; a longer list gets its own.
const idBlock = 1 << 14

// firstIDBlock is the int32s of an index's first block.
const firstIDBlock = 1 << 8

func newIndex(probes []probe) *index {
	return &index{probes: probes, keys: map[uint64]int32{}, cur: -1}
}

// ids returns the fact ids of probe hash h, ascending.
func (ix *index) ids(h uint64) []int32 {
	k, ok := ix.keys[h]
	if !ok {
		return nil
	}
	l := &ix.lists[k]
	if l.n == 1 {
		return l.first[:]
	}
	return ix.blocks[l.block][l.start : l.start+l.n : l.start+l.n]
}

// push appends fact id to the list of hash h.
func (ix *index) push(h uint64, id int32) {
	k, ok := ix.keys[h]
	if !ok {
		ix.keys[h] = int32(len(ix.lists))
		ix.lists = append(ix.lists, idList{first: [1]int32{id}, n: 1, room: 1})
		return
	}
	l := &ix.lists[k]
	if l.n == l.room {
		old := l.first[:]
		if l.n > 1 {
			old = ix.blocks[l.block][l.start : l.start+l.n]
		}
		l.room = 2 * max(l.room, 2)
		l.block, l.start = ix.alloc(l.room)
		copy(ix.blocks[l.block][l.start:], old)
	}
	ix.blocks[l.block][l.start+l.n] = id
	l.n++
}

// alloc returns room for n ids: a block and where in it.
func (ix *index) alloc(n int32) (block, start int32) {
	if n > idBlock {
		ix.blocks = append(ix.blocks, make([]int32, n))
		return int32(len(ix.blocks) - 1), 0
	}
	if ix.cur < 0 || len(ix.blocks[ix.cur])+int(n) > cap(ix.blocks[ix.cur]) {
		// Blocks double from firstIDBlock up to idBlock: a small game's
		// many small indexes would each zero a full block (Tic-tac-toe:
		// 0.7 -> 2.6 MB a grounding with full blocks from the start).
		size := firstIDBlock
		if ix.cur >= 0 {
			size = min(idBlock, 2*cap(ix.blocks[ix.cur]))
		}
		ix.blocks = append(ix.blocks, make([]int32, 0, max(size, int(n))))
		ix.cur = int32(len(ix.blocks) - 1)
	}
	b := ix.blocks[ix.cur]
	ix.blocks[ix.cur] = b[:len(b)+int(n)]
	return ix.cur, int32(len(b))
}

// appendProbeSig appends the signature of probes ps (paths and functors)
// to b, the key of a fact set's index over them: index looks it up as
// bytes in a stack buffer and makes a string only for a new index (a
// string per estimate was most of the planner's allocations).
func appendProbeSig(b []byte, ps []probe) []byte {
	for _, p := range ps {
		for _, x := range p.path {
			b = strconv.AppendInt(b, int64(x), 10)
			b = append(b, '.')
		}
		if p.functor {
			b = append(b, 'f')
			b = strconv.AppendInt(b, int64(p.fn), 10)
			b = append(b, '/')
			b = strconv.AppendInt(b, int64(p.arity), 10)
		}
		b = append(b, ';')
	}
	return b
}

func mix(h, x uint64) uint64 {
	h ^= x + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	return h
}

// factKey computes a fact's probe hash; ok is false when its shape does not fit.
func factKey(ts *termStore, tuple []int32, ps []probe) (uint64, bool) {
	h := uint64(1469598103934665603)
	for _, p := range ps {
		t := tuple[p.path[0]]
		for _, i := range p.path[1:] {
			args := ts.args(t)
			t = args[i] // the functor probe on the prefix guarantees the arity
		}
		if p.functor {
			if ts.fn[t] != p.fn || int32(len(ts.args(t))) != p.arity {
				return 0, false
			}
			h = mix(h, uint64(p.fn)<<20|uint64(p.arity))
			continue
		}
		h = mix(h, uint64(t))
	}
	return h, true
}

func (ix *index) update(ts *termStore, f *factSet) {
	for ; ix.built < f.n; ix.built++ {
		if k, ok := factKey(ts, f.tuple(ix.built), ix.probes); ok {
			ix.push(k, ix.built)
			ix.matched++
		}
	}
}

// step joins one positive atom, then runs the checks whose variables are now bound.
type step struct {
	lit    int // index into the rule body
	rel    int32
	probes []probe
	ix     *index
	delta  bool    // ranges over the delta of its relation
	old    bool    // ranges over facts older than the delta
	checks []int   // static checks that run once this step has matched
	negDyn []int   // negated fluent atoms whose variables this step completes
	live   []int32 // variables bound before this step and needed from it on
	// headBound: every head variable is bound before this step, so the
	// join from here on derives at most the one head atom of the current
	// binding, and its literal depends only on bodyLive: the live variables
	// that later body literals use (the head atom's own are left out). The
	// circuit memo is keyed by those, which shares a frame rule's
	// disjunction over moves among all the atoms it keeps (amazons).
	headBound bool
	bodyLive  []int32
	// exists: no variable this step binds is needed after it, so every
	// match that passes the step's checks leads to the same state; a
	// domain join stops at the first (chess's demand rules ask whether any
	// cell differs from the capture cell, once per state, not per cell).
	exists bool
}

// plan is a join order for one rule (and one delta literal in semi-naive rounds).
type plan struct {
	rule      *nrule
	pre       []int // static checks with ground arguments
	preNegDyn []int // negated fluent atoms with ground arguments
	steps     []step
	nvars     int
	atoms     int64 // atoms known when the plan was made (see fixpoint)
	// sizes are the facts of each step's relation when the plan was made.
	sizes []int32
	share *share // circuit mode: where the join switches to shared items
}

// stale reports whether the relations p joins have grown so much since it
// was made that its order may no longer fit them: all atoms more than
// doubled, or one of its relations did (racer's true atoms grow from 9 to
// hundreds while the static facts keep the total nearly the same).
func (e *engine) stale(p *plan) bool {
	if e.atoms > 2*p.atoms+replanSlack {
		return true
	}
	for k, s := range p.steps {
		if n := e.facts[s.rel].n; int64(n) > 2*int64(p.sizes[k])+relReplanSlack {
			return true
		}
	}
	return false
}

// engine evaluates rules over fact sets.
type engine struct {
	ctx      context.Context
	deadline time.Time
	lim      Limits
	ts       *termStore
	c        *compiler
	facts    []*factSet
	atoms    int64
	work     int64
	rounds   int   // semi-naive rounds, for diagnostics
	matches  int64 // join matches while building the circuit (MaxInstances)
	// budget, when positive, stops a circuit join once matches passes it,
	// setting overBudget (a trial join, see grounder.circuit).
	budget     int64
	overBudget bool
	err        error
	lo, hi     []int32 // per relation: delta range of the current round
	dropNeg    func(rel int32) bool
	tuple      []int32
	key        []byte // term lookups' key buffer (termStore.lookupKey)
	// frozen: a worker of a parallel domain round (parallel.go), which
	// reads the facts and terms and writes neither.
	frozen bool
	// workers is the goroutines of a parallel domain round (1: none).
	workers int
	// minParallel is the delta facts from which a round runs in parallel
	// (minParallelFacts; 0 in tests: every round).
	minParallel int64
	// ownIndexes, when set, holds the indexes this engine makes instead of
	// the fact sets' own (circuit planner, parallel.go).
	ownIndexes map[*factSet]map[string]*index
	// parAccepted and parRedone count the worker results of parallel
	// rounds that the merge took and that it ran again (tests).
	parAccepted, parRedone int64
	// parWork is the join work of the accepted results, parSpan the sum
	// over parallel rounds of their longest job or their work per worker,
	// whichever is more (all jobs run, accepted or not).
	parWork, parSpan int64
	// memoProbe is the lookups after which a join memo that does not pay is
	// dropped (see memoTable.useful): memoProbe unless a test sets it;
	// negative keeps every memo.
	memoProbe int64
	noCuts    bool // tests: domain joins without step.exists and headDone
	noShare   bool // tests: circuit joins without shared items (share.go)
	// noPlanMasks (tests): join costs over []bool sets, not masks.
	noPlanMasks bool
	tests       int64 // item tests of shared joins (share.go)
	// headChecks counts the head-done tests of domain joins (a counter
	// for tests; parallel workers count in their own copies).
	headChecks int64
	// domainWork is work at the end of the domain phase (tests).
	domainWork int64
	// stopped is the domain join that ran into MaxAtoms, if one did
	// (demandFactors measures its head tuples too).
	stopped *stoppedJoin
	// measureAt, during a domain phase that may start over, is per
	// relation the atoms at which an unfactored demand relation is
	// measured next (measureDemand); nil otherwise.
	measureAt []int32
	// outgrown holds the factors measureDemand found (errDemandOutgrown).
	outgrown map[string][][]int
	// productSlack is how far the product of a growing demand relation's
	// factors may exceed it (demandProductSlack; 1 in tests: exact).
	productSlack int64
}

// stoppedJoin is a domain join stopped by MaxAtoms before its head tuples
// became facts: the n tuples it had reached, either rows (the first ones
// enumerated) or, for a product that productSize counted, groups of head
// positions whose values came from independent steps.
type stoppedJoin struct {
	rel    int32
	n      int64
	rows   [][]int32
	groups [][]int
}

// productHeadGroups groups the head positions of a join whose steps share
// no variable (productSize) by the step that binds them; the head's tuples
// are the product of the groups' values. A position whose variables come
// from several steps joins their groups; a ground position is a group of
// its own.
func productHeadGroups(p *plan) [][]int {
	r := p.rule
	owner := make([]int, p.nvars)
	var vs []int32
	for k := range p.steps {
		vs = vs[:0]
		for _, a := range r.body[p.steps[k].lit].args {
			vs = patVars(vs, a)
		}
		for _, v := range vs {
			owner[v] = k
		}
	}
	// Union-find over positions: linked when their variables share a step.
	parent := make([]int, len(r.headArgs))
	for i := range parent {
		parent[i] = i
	}
	var find func(i int) int
	find = func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	stepPos := map[int]int{}
	for i, a := range r.headArgs {
		for _, v := range patVars(nil, a) {
			if j, ok := stepPos[owner[v]]; ok {
				parent[find(i)] = find(j)
			} else {
				stepPos[owner[v]] = i
			}
		}
	}
	positions := make([]int, len(r.headArgs))
	for i := range positions {
		positions[i] = i
	}
	return GroupBy(positions, find)
}

func (e *engine) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// tick counts join work and checks cancellation and time at coarse intervals.
func (e *engine) tick() bool {
	e.work++
	if e.work&4095 != 0 {
		return e.err == nil
	}
	e.checkpoint()
	return e.err == nil
}

// checkpoint stops the work on cancellation or when Timeout has passed.
func (e *engine) checkpoint() error {
	if e.err != nil {
		return e.err
	}
	if err := e.ctx.Err(); err != nil {
		e.fail(err)
	} else if !e.deadline.IsZero() && time.Now().After(e.deadline) {
		// Limit and Got are in milliseconds, at least 1 so a tiny limit reads sensibly.
		e.fail(&LimitError{What: "Timeout", Limit: max(1, e.lim.Timeout.Milliseconds()), Got: max(1, time.Since(e.deadline.Add(-e.lim.Timeout)).Milliseconds())})
	}
	return e.err
}

// makePlan orders the positive atoms of r greedily (most bound positions first,
// then fewest facts), starting with the delta literal if any.
func (e *engine) makePlan(r *nrule, deltaLit int, inScope func(rel int32) bool, circuit bool) *plan {
	return e.makePlanShare(r, deltaLit, inScope, circuit, circuit && !e.noShare)
}

// makePlanShare is makePlan with shared disjunctions (share.go) tried or not.
func (e *engine) makePlanShare(r *nrule, deltaLit int, inScope func(rel int32) bool, circuit, tryShare bool) *plan {
	p := &plan{rule: r, nvars: len(r.varNames), atoms: e.atoms}
	bound := make([]bool, len(r.varNames))
	used := make([]bool, len(r.body))
	var atoms []int
	for i, b := range r.body {
		if b.kind == bPos {
			atoms = append(atoms, i)
		}
	}
	checks := make([]int, 0, len(r.body))
	for i, b := range r.body {
		if b.kind != bPos {
			checks = append(checks, i)
		}
	}
	placeChecks := func() []int {
		var ready []int
		rest := checks[:0]
		for _, i := range checks {
			if patsBound(bound, r.body[i]) {
				ready = append(ready, i)
			} else {
				rest = append(rest, i)
			}
		}
		checks = rest
		return ready
	}
	split := func(ready []int) (static, fluent []int) {
		for _, i := range ready {
			if r.body[i].kind == bNeg && !e.c.rels[r.body[i].rel].static {
				fluent = append(fluent, i)
			} else {
				static = append(static, i)
			}
		}
		return
	}
	p.pre, p.preNegDyn = split(placeChecks())
	var headVars []bool // circuit mode: the variables of the head
	if circuit {
		headVars = make([]bool, len(r.varNames))
		for _, a := range r.headArgs {
			markBound(headVars, a)
		}
	}
	// Dense static atoms over exclusive head variables are tested on shared
	// items, not joined (share.go).
	var filters []int
	var excl []bool
	var order []int // circuit mode: the join order, planned whole
	merged := false
	if tryShare {
		if filters, excl = e.shareFilters(r, atoms, headVars); filters != nil {
			// The order of the join without sharing, less the filters, so
			// that the literals are built as they were (shareOrder).
			order, merged = e.shareOrder(e.makePlanShare(r, deltaLit, inScope, circuit, false), filters)
			atoms = slices.DeleteFunc(atoms, func(i int) bool { return slices.Contains(filters, i) })
		}
	}
	if circuit && order == nil {
		order = e.circuitOrder(r, atoms, headVars)
	}
	for len(p.steps) < len(atoms) {
		var best int
		if circuit {
			best = order[len(p.steps)]
		} else {
			best = -1
			bestScore := int64(math.MinInt64)
			for _, i := range atoms {
				if used[i] {
					continue
				}
				var score int64
				if i == deltaLit {
					score = math.MaxInt64
				} else {
					score = e.score(r.body[i], bound)
				}
				if score > bestScore {
					best, bestScore = i, score
				}
			}
		}
		used[best] = true
		b := r.body[best]
		s := step{lit: best, rel: b.rel}
		for ai, a := range b.args {
			s.probes = appendProbes(s.probes, topPath(ai), a, bound)
		}
		if deltaLit >= 0 {
			s.delta = best == deltaLit
			// Literals before the delta literal in body order see only old facts,
			// so each new combination is derived in exactly one variant.
			s.old = !s.delta && best < deltaLit && inScope(b.rel)
		}
		for _, a := range b.args {
			markBound(bound, a)
		}
		s.checks, s.negDyn = split(placeChecks())
		if len(s.probes) > 0 {
			s.ix = e.index(e.facts[b.rel], s.probes)
		}
		p.steps = append(p.steps, s)
	}
	// Live variables: bound before step k and used at k or later (or in the head).
	needed := make([]bool, len(r.varNames))
	for _, a := range r.headArgs {
		markBound(needed, a)
	}
	bodyNeeded := make([]bool, len(r.varNames))
	for _, i := range filters {
		for _, v := range basicVars(nil, r.body[i]) {
			needed[v], bodyNeeded[v] = true, true
		}
	}
	markLit := func(i int) {
		l := r.body[i]
		for _, a := range l.args {
			markBound(needed, a)
		}
		if l.kind == bDistinct || l.kind == bEqual {
			markBound(needed, l.a)
			markBound(needed, l.b)
		}
		for _, sub := range l.subs {
			markBound(needed, sub.a)
			markBound(needed, sub.b)
		}
	}
	boundBefore := make([][]bool, len(p.steps))
	bb := make([]bool, len(r.varNames))
	for k := range p.steps {
		boundBefore[k] = append([]bool(nil), bb...)
		for _, a := range r.body[p.steps[k].lit].args {
			markBound(bb, a)
		}
	}
	headVar := make([]bool, len(r.varNames))
	for _, a := range r.headArgs {
		markBound(headVar, a)
	}
	for k := len(p.steps) - 1; k >= 0; k-- {
		s := &p.steps[k]
		markLit(s.lit)
		for _, i := range s.checks {
			markLit(i)
		}
		for _, i := range s.negDyn {
			markLit(i)
		}
		for v := range needed {
			if needed[v] && boundBefore[k][v] {
				s.live = append(s.live, int32(v))
			}
		}
		// The same without the head's own use of its variables.
		saved := needed
		needed = bodyNeeded
		markLit(s.lit)
		for _, i := range s.checks {
			markLit(i)
		}
		for _, i := range s.negDyn {
			markLit(i)
		}
		needed = saved
		s.headBound = true
		for v, h := range headVar {
			if h && !boundBefore[k][v] {
				s.headBound = false
			}
		}
		for v := range bodyNeeded {
			if bodyNeeded[v] && boundBefore[k][v] {
				s.bodyLive = append(s.bodyLive, int32(v))
			}
		}
	}
	for k := range p.steps {
		s := &p.steps[k]
		after := headVar
		if k+1 < len(p.steps) {
			after = make([]bool, len(r.varNames))
			for _, v := range p.steps[k+1].live {
				after[v] = true
			}
		}
		boundAfter := bb
		if k+1 < len(p.steps) {
			boundAfter = boundBefore[k+1]
		}
		s.exists = true
		for v := range boundAfter {
			if boundAfter[v] && !boundBefore[k][v] && after[v] {
				s.exists = false
			}
		}
	}
	if filters != nil && !e.planShare(p, filters, excl, merged) {
		return e.makePlanShare(r, deltaLit, inScope, circuit, false)
	}
	p.sizes = make([]int32, len(p.steps))
	for k, st := range p.steps {
		p.sizes[k] = e.facts[st.rel].n
	}
	return p
}

func patsBound(bound []bool, b basic) bool {
	switch b.kind {
	case bDistinct, bEqual:
		return patBound(bound, b.a) && patBound(bound, b.b)
	case bAny:
		for _, sub := range b.subs {
			if !patsBound(bound, sub) {
				return false
			}
		}
		return true
	}
	for _, a := range b.args {
		if !patBound(bound, a) {
			return false
		}
	}
	return true
}

func patBound(bound []bool, p pat) bool {
	switch {
	case p.v >= 0:
		return bound[p.v]
	case p.t >= 0:
		return true
	}
	for _, a := range p.args {
		if !patBound(bound, a) {
			return false
		}
	}
	return true
}

func markBound(bound []bool, p pat) {
	if p.v >= 0 {
		bound[p.v] = true
	}
	for _, a := range p.args {
		markBound(bound, a)
	}
}

// score ranks an atom as the next join step of a domain join (higher
// first), the same way whatever the body order: pure filters first, then
// atoms joined to what is bound (no cartesian product while a join exists),
// then the fewest expected matches, which lets the memo project variables
// away early.
func (e *engine) score(b basic, bound []bool) int64 {
	var t int64
	fresh, shared := freshVars(bound, b.args)
	if fresh == 0 {
		t |= 2
	}
	if shared > 0 || !anyBound(bound) {
		t |= 1
	}
	return t<<58 | (1<<50 - 1 - min(e.estimate(b, bound), 1<<50-1))
}

// maxPlanDP is the number of positive atoms up to which a circuit join's
// order is chosen by dynamic programming over subsets (2^n states); longer
// bodies are ordered greedily.
const maxPlanDP = 12

// circuitOrder plans the join order of a circuit join, the same way whatever
// the body order. Fluent atoms whose variables are exactly the head
// variables come first: such an atom is a factor of every instance with
// that head (skirmish's and brawl's frame rules, true (cell ?x ?y ?p)), so
// the rest of the join is one disjunction per head atom and the circuit
// stays small. (Atoms over only some head variables are not forced:
// checkers' double jumps have four, and joining them first is a cross
// product.) The rest is the order of least expected work (joinCost,
// circuitWork): per step, the runs the memo of live variables leaves, times
// the atom's expected matches, times the head atoms the rest of the join
// still derives, since the step's literal is joined to each of theirs. A
// cross product costs the product of its sizes, so it comes only where no
// join exists; binding the head early keeps the circuit small (blobwars'
// score rules: 365,000 gates when the move came first, 27,000 now).
func (e *engine) circuitOrder(r *nrule, atoms []int, head []bool) []int {
	n := len(atoms)
	var factors uint32
	for k, i := range atoms {
		b := r.body[i]
		if rel := e.c.rels[b.rel]; !rel.static && !rel.demand && onlyHeadVars(b.args, head) && coversHead(b.args, head) {
			factors |= 1 << k
		}
		if b.demand && b.rel == r.head {
			factors |= 1 << k // the head's domain (headFilter)
		}
	}
	if n > maxPlanDP {
		return e.greedyOrder(r, atoms, factors)
	}
	jc := e.newJoinCost(r, atoms, head)
	plain := jc.best(factors, circuitWork)
	order := make([]int, n)
	for k, a := range plain {
		order[k] = atoms[a]
	}
	return order
}

// joinCost estimates the work of join orders of one rule's positive atoms.
type joinCost struct {
	e      *engine
	r      *nrule
	atoms  []int
	vars   [][]int32             // variables of each atom
	dom    []float64             // distinct values of a variable among the facts of its atoms
	needed []bool                // variables the head and the non-atom literals need
	head   []bool                // the head's variables
	est    map[[2]uint64]float64 // estimates by atom and its bound variables (or set)
	bound  []bool                // scratch of step
	needs  []bool                // scratch of step

	// Memos of step and headLeft by set (and atom), -1 until computed;
	// nil beyond maxPlanDP atoms.
	liveOf, leftOf, estOf []float64

	// The same sets of variables as bit masks, where the rule has at most
	// 64 (masks): best asks step for every set and atom, and filling and
	// scanning the []bool sets per question was half of connectFour's
	// grounding CPU. The products run over the same variables in the same
	// order, so the estimates are the same floats.
	masks                bool
	varMask              []uint64 // variables of each atom
	neededMask, headMask uint64
	checks               []bool   // variables of the non-atom literals
	checkMask            uint64   // the same as a mask
	boundOf              []uint64 // variables of each set's atoms (within maxPlanDP)
	// estK[k][m]: the estimate of atom k with the variables m of its own
	// bound (bit i: vars[k][i]), -1 until computed; nil for atoms of
	// more than maxEstVars variables, whose estimates stay in est.
	estK [][]float64
}

// maxEstVars bounds the variables of an atom whose estimates joinCost
// keeps in a slice by bound set (2^maxEstVars entries).
const maxEstVars = 10

// Work models of joinCost: matches counted in full, the memo's runs, or
// the memo's runs times the head atoms still open (circuit mode: a step's
// literal is joined to the literal of every head atom the rest of the join
// derives, one gate each, so binding the head early keeps the circuit small).
const (
	plainWork = iota
	memoWork
	circuitWork
)

// headLeft is the expected number of head atoms the join derives from a
// binding of the variables of set's atoms: the product of the domains of the
// head variables they leave unbound.
func (jc *joinCost) headLeft(set uint32) float64 {
	if jc.masks {
		bound, _ := jc.boundMask(set)
		return jc.domProduct(jc.headMask &^ bound)
	}
	bound := make([]bool, len(jc.r.varNames))
	for j := range jc.atoms {
		if set&(1<<j) != 0 {
			for _, v := range jc.vars[j] {
				bound[v] = true
			}
		}
	}
	n := 1.0
	for v, h := range jc.head {
		if h && !bound[v] {
			n *= max(jc.dom[v], 1)
		}
	}
	return n
}

func (e *engine) newJoinCost(r *nrule, atoms []int, head []bool) *joinCost {
	jc := &joinCost{e: e, r: r, atoms: atoms, vars: make([][]int32, len(atoms)),
		dom: make([]float64, len(r.varNames)), needed: slices.Clone(head), head: head, est: map[[2]uint64]float64{}}
	one := make([]bool, len(r.varNames))
	for k, i := range atoms {
		for _, a := range r.body[i].args {
			jc.vars[k] = patVars(jc.vars[k], a)
		}
		for _, v := range jc.vars[k] {
			one[v] = true
			d := float64(e.distinct(r.body[i], one))
			one[v] = false
			if jc.dom[v] == 0 || d < jc.dom[v] {
				jc.dom[v] = d
			}
		}
	}
	var vs []int32
	for _, b := range r.body {
		switch b.kind {
		case bNeg:
			for _, a := range b.args {
				vs = patVars(vs, a)
			}
		case bDistinct, bEqual:
			vs = patVars(patVars(vs, b.a), b.b)
		case bAny:
			for _, sub := range b.subs {
				vs = patVars(patVars(vs, sub.a), sub.b)
			}
		}
	}
	jc.checks = make([]bool, len(r.varNames))
	for _, v := range vs {
		jc.needed[v], jc.checks[v] = true, true
	}
	if len(r.varNames) <= 64 && !e.noPlanMasks {
		jc.masks = true
		jc.varMask = make([]uint64, len(atoms))
		for k, vs := range jc.vars {
			for _, v := range vs {
				jc.varMask[k] |= 1 << v
			}
		}
		for v := range r.varNames {
			if jc.needed[v] {
				jc.neededMask |= 1 << v
			}
			if jc.head[v] {
				jc.headMask |= 1 << v
			}
			if jc.checks[v] {
				jc.checkMask |= 1 << v
			}
		}
	}
	return jc
}

// boundMask returns the variables of set's atoms and those of the other
// atoms (masks only).
func (jc *joinCost) boundMask(set uint32) (bound, other uint64) {
	if jc.boundOf != nil {
		return jc.boundOf[set], jc.boundOf[uint32(len(jc.boundOf)-1)&^set]
	}
	for j, m := range jc.varMask {
		if set&(1<<j) != 0 {
			bound |= m
		} else {
			other |= m
		}
	}
	return bound, other
}

// domProduct is the product of the domains of the variables in mask, in
// ascending order, as step and headLeft multiply them.
func (jc *joinCost) domProduct(mask uint64) float64 {
	n := 1.0
	for ; mask != 0; mask &= mask - 1 {
		n *= max(jc.dom[bits.TrailingZeros64(mask)], 1)
	}
	return n
}

// step returns the expected matches of atom k after the atoms of set, and
// the number of distinct assignments of the live variables there (memo).
// Both are memoised: best asks for every (set, k) twice.
func (jc *joinCost) step(set uint32, k int) (est, live float64) {
	n := len(jc.atoms)
	if jc.liveOf == nil && n <= maxPlanDP {
		jc.liveOf = make([]float64, 1<<n)
		jc.leftOf = make([]float64, 1<<n)
		jc.estOf = make([]float64, n<<n)
		for _, m := range [][]float64{jc.liveOf, jc.leftOf, jc.estOf} {
			for i := range m {
				m[i] = -1 // not computed
			}
		}
	}
	if jc.liveOf != nil {
		if live, est = jc.liveOf[set], jc.estOf[int(set)*n+k]; live >= 0 && est >= 0 {
			return est, live
		}
	}
	if jc.masks {
		if jc.liveOf != nil && jc.boundOf == nil {
			jc.boundOf = make([]uint64, 1<<n)
			for set := 1; set < 1<<n; set++ {
				jc.boundOf[set] = jc.boundOf[set&(set-1)] | jc.varMask[bits.TrailingZeros32(uint32(set))]
			}
		}
		return jc.stepMasks(set, k)
	}
	if jc.bound == nil {
		jc.bound = make([]bool, len(jc.r.varNames))
		jc.needs = make([]bool, len(jc.r.varNames))
	}
	bound, needed := jc.bound, jc.needs
	clear(bound)
	copy(needed, jc.needed)
	for j := range jc.atoms {
		if set&(1<<j) != 0 {
			for _, v := range jc.vars[j] {
				bound[v] = true
			}
		} else {
			for _, v := range jc.vars[j] {
				needed[v] = true
			}
		}
	}
	live = 1
	for v := range bound {
		if bound[v] && needed[v] {
			live *= max(jc.dom[v], 1)
		}
	}
	// The estimate reads only which of the atom's own variables are
	// bound: sets that bind the same ones share it.
	key := [2]uint64{uint64(k), uint64(set) | 1<<63}
	if vs := jc.vars[k]; len(vs) < 64 {
		var m uint64
		for i, v := range vs {
			if bound[v] {
				m |= 1 << i
			}
		}
		key[1] = m
	}
	est, ok := jc.est[key]
	if !ok {
		est = float64(jc.e.estimate(jc.r.body[jc.atoms[k]], bound))
		jc.est[key] = est
	}
	if jc.liveOf != nil {
		jc.liveOf[set], jc.estOf[int(set)*n+k] = live, est
	}
	return est, live
}

// stepMasks is step, not memoised yet, with the variable sets as masks.
func (jc *joinCost) stepMasks(set uint32, k int) (est, live float64) {
	bound, other := jc.boundMask(set)
	if jc.liveOf != nil && jc.liveOf[set] >= 0 {
		live = jc.liveOf[set]
	} else {
		live = jc.domProduct(bound & (jc.neededMask | other))
	}
	vs := jc.vars[k]
	var m uint64
	for i, v := range vs {
		if bound&(1<<v) != 0 {
			m |= 1 << i
		}
	}
	if jc.estK == nil {
		jc.estK = make([][]float64, len(jc.atoms))
	}
	if len(vs) <= maxEstVars && jc.estK[k] == nil {
		jc.estK[k] = make([]float64, 1<<len(vs))
		for i := range jc.estK[k] {
			jc.estK[k][i] = -1
		}
	}
	if jc.estK[k] != nil && jc.estK[k][m] >= 0 {
		est = jc.estK[k][m]
	} else {
		key := [2]uint64{uint64(k), uint64(set) | 1<<63}
		if len(vs) < 64 {
			key[1] = m
		}
		var ok bool
		if est, ok = jc.est[key]; !ok {
			if jc.bound == nil {
				jc.bound = make([]bool, len(jc.r.varNames))
			}
			for v := range jc.bound {
				jc.bound[v] = bound&(1<<v) != 0
			}
			est = float64(jc.e.estimate(jc.r.body[jc.atoms[k]], jc.bound))
			jc.est[key] = est
		}
		if jc.estK[k] != nil {
			jc.estK[k][m] = est
		}
	}
	if jc.liveOf != nil {
		jc.liveOf[set], jc.estOf[int(set)*len(jc.atoms)+k] = live, est
	}
	return est, live
}

// cost is the expected work of an order (indexes into atoms): per step the
// runs (the matches before it, with memo at most the live assignments) times
// one plus its expected matches.
func (jc *joinCost) cost(order []int, model int) float64 {
	var set uint32
	card, total := 1.0, 0.0
	for _, k := range order {
		total += jc.work(set, k, card, model)
		est, _ := jc.step(set, k)
		card *= est
		set |= 1 << k
	}
	return total
}

// work is the expected work of joining atom k after the atoms of set, with
// card partial matches before it.
func (jc *joinCost) work(set uint32, k int, card float64, model int) float64 {
	est, live := jc.step(set, k)
	runs := card
	if model != plainWork {
		runs = min(runs, live)
	}
	if model == circuitWork {
		if body, ok := jc.bodyLive(set); ok {
			// The head is bound: the join memoises the step's literal by
			// the variables the body still reads (headBound, bodyLive),
			// one literal for every head atom, so the work does not
			// multiply by head atoms (blobwars' unfolded winning rule:
			// 188,193 circuit nodes where the original has 25,319).
			return min(card, body) * (1 + est)
		}
	}
	// runs counts the lookups themselves, so a filter is cheap, not free.
	w := runs * (1 + est)
	if model == circuitWork {
		s := set | 1<<k
		if jc.leftOf == nil {
			w *= jc.headLeft(s)
		} else {
			if jc.leftOf[s] < 0 {
				jc.leftOf[s] = jc.headLeft(s)
			}
			w *= jc.leftOf[s]
		}
	}
	return w
}

// bodyLive reports whether the atoms of set bind every head variable, and
// then the number of assignments of the bound variables that the rest of
// the body reads: the runs of the join's memo there (headBound steps).
func (jc *joinCost) bodyLive(set uint32) (float64, bool) {
	if jc.masks {
		bound, other := jc.boundMask(set)
		if jc.headMask&^bound != 0 {
			return 0, false
		}
		return jc.domProduct(bound & (jc.checkMask | other)), true
	}
	bound := make([]bool, len(jc.r.varNames))
	reads := slices.Clone(jc.checks)
	for j := range jc.atoms {
		for _, v := range jc.vars[j] {
			if set&(1<<j) != 0 {
				bound[v] = true
			} else {
				reads[v] = true
			}
		}
	}
	n := 1.0
	for v := range bound {
		if jc.head[v] && !bound[v] {
			return 0, false
		}
		if bound[v] && reads[v] {
			n *= max(jc.dom[v], 1)
		}
	}
	return n, true
}

// best finds the order of least cost by dynamic programming over subsets,
// with the factors first.
func (jc *joinCost) best(factors uint32, model int) []int {
	n := len(jc.atoms)
	full := 1 << n
	card := make([]float64, full)
	cost := make([]float64, full)
	last := make([]int8, full)
	for set := 1; set < full; set++ {
		cost[set] = math.Inf(1)
	}
	card[0] = 1
	for set := 0; set < full; set++ {
		if math.IsInf(cost[set], 1) {
			continue
		}
		for k := range n {
			if set&(1<<k) != 0 || factors&^uint32(set) != 0 && factors&(1<<k) == 0 {
				continue
			}
			est, _ := jc.step(uint32(set), k)
			next := set | 1<<k
			// The matches of a set of atoms do not depend on the order
			// they are joined in, but their estimates do: next keeps the
			// tightest, not the one of its cheapest order (which made
			// checkers-mustjump-torus's duplicated jump rule join every
			// pair of cells before the move: 12 million matches).
			if c := card[set] * est; cost[next] == math.Inf(1) || c < card[next] {
				card[next] = c
			}
			if c := cost[set] + jc.work(uint32(set), k, card[set], model); c < cost[next] {
				cost[next], last[next] = c, int8(k)
			}
		}
	}
	order := make([]int, n)
	for set, k := full-1, n-1; set != 0; k-- {
		a := int(last[set])
		order[k] = a
		set &^= 1 << a
	}
	return order
}

// greedyOrder orders a long body one atom at a time: the factors (see
// circuitOrder) first, then of the atoms joined to what is bound (or of all
// when none is) the one with the fewest expected matches.
func (e *engine) greedyOrder(r *nrule, atoms []int, factors uint32) []int {
	bound := make([]bool, len(r.varNames))
	used := make([]bool, len(atoms))
	order := make([]int, 0, len(atoms))
	for len(order) < len(atoms) {
		best, bestScore := -1, int64(math.MinInt64)
		for k, i := range atoms {
			if used[k] {
				continue
			}
			score := e.score(r.body[i], bound)
			if factors&(1<<k) != 0 {
				score = math.MaxInt64
			}
			if score > bestScore {
				best, bestScore = k, score
			}
		}
		used[best] = true
		factors &^= 1 << best
		order = append(order, atoms[best])
		for _, a := range r.body[atoms[best]].args {
			markBound(bound, a)
		}
	}
	return order
}

func anyBound(bound []bool) bool {
	for _, b := range bound {
		if b {
			return true
		}
	}
	return false
}

// coversHead reports whether the patterns contain every head variable.
func coversHead(ps []pat, head []bool) bool {
	has := make([]bool, len(head))
	for _, p := range ps {
		markBound(has, p)
	}
	for v, h := range head {
		if h && !has[v] {
			return false
		}
	}
	return true
}

// onlyHeadVars reports whether every variable of the patterns is a head variable.
func onlyHeadVars(ps []pat, head []bool) bool {
	for _, p := range ps {
		if p.v >= 0 && !head[p.v] || !onlyHeadVars(p.args, head) {
			return false
		}
	}
	return true
}

// estimate is the expected number of facts an atom matches given the bound
// variables: the facts of the atom's shape over the number of distinct keys
// of its index.
func (e *engine) estimate(b basic, bound []bool) int64 {
	f := e.facts[b.rel]
	var probes []probe
	for ai, a := range b.args {
		probes = appendProbes(probes, topPath(ai), a, bound)
	}
	if len(probes) == 0 || f.n == 0 {
		return int64(f.n)
	}
	ix := e.index(f, probes)
	ix.update(e.ts, f)
	if len(ix.keys) == 0 {
		// No fact has the shape yet. In a domain round more may come
		// (init has no cells of pentago's board): guess the relation's size,
		// not zero, or the planner starts with a cross product of them.
		return int64(f.n)
	}
	return (int64(ix.matched) + int64(len(ix.keys)) - 1) / int64(len(ix.keys))
}

// distinct is the number of distinct keys of an atom's facts given the bound
// variables: with one variable bound, the values it takes.
func (e *engine) distinct(b basic, bound []bool) int64 {
	f := e.facts[b.rel]
	var probes []probe
	for ai, a := range b.args {
		probes = appendProbes(probes, topPath(ai), a, bound)
	}
	if len(probes) == 0 || f.n == 0 {
		return min(int64(f.n), 1)
	}
	ix := e.index(f, probes)
	ix.update(e.ts, f)
	return int64(len(ix.keys))
}

// index returns the index of f over the given probes, creating it.
func (e *engine) index(f *factSet, probes []probe) *index {
	var buf [128]byte
	sig := appendProbeSig(buf[:0], probes)
	cache := f.indexes
	if e.ownIndexes != nil {
		if cache = e.ownIndexes[f]; cache == nil {
			cache = map[string]*index{}
			e.ownIndexes[f] = cache
		}
	}
	ix, ok := cache[string(sig)]
	if !ok {
		ix = newIndex(probes)
		cache[string(sig)] = ix
		if e.ownIndexes != nil {
			// The facts are final: built now, the index is only read later.
			ix.update(e.ts, f)
		}
	}
	return ix
}

// freshVars counts the distinct unbound variables of an atom's arguments and
// how many of its variables are already bound.
func freshVars(bound []bool, ps []pat) (fresh, shared int) {
	// The atom's variables in a stack array, each counted once: a map per
	// call was a sixth of sudoku's grounding CPU (the planner asks this
	// for every atom at every step).
	var buf [16]int32
	vs := buf[:0]
	for _, p := range ps {
		vs = patVars(vs, p)
	}
	for i, v := range vs {
		if slices.Contains(vs[:i], v) {
			continue
		}
		if bound[v] {
			shared++
		} else {
			fresh++
		}
	}
	return fresh, shared
}

func countKnown(bound []bool, ps []pat) (known, total int) {
	for _, p := range ps {
		k, t := countKnownPat(bound, p)
		known += k
		total += t
	}
	return
}

func countKnownPat(bound []bool, p pat) (known, total int) {
	switch {
	case p.v >= 0:
		if bound[p.v] {
			return 1, 1
		}
		return 0, 1
	case p.t >= 0:
		return 1, 1
	}
	known, total = 1, 1
	for _, a := range p.args {
		k, t := countKnownPat(bound, a)
		known += k
		total += t
	}
	return
}

// topPaths[i] is the path of argument i of an atom, shared (read only, no
// spare capacity) by every probe of that argument: one allocation per
// argument per estimate was a fifth of the planner's allocations.
var topPaths = func() [][]int32 {
	ps := make([][]int32, 64)
	for i := range ps {
		ps[i] = []int32{int32(i)}
	}
	return ps
}()

// topPath returns the path of argument i.
func topPath(i int) []int32 {
	if i < len(topPaths) {
		return topPaths[i][:1:1]
	}
	return []int32{int32(i)}
}

func appendProbes(ps []probe, path []int32, p pat, bound []bool) []probe {
	switch {
	case p.v >= 0:
		if bound[p.v] {
			return append(ps, probe{path: path, v: p.v, ground: -1})
		}
		return ps
	case p.t >= 0:
		return append(ps, probe{path: path, v: -1, ground: p.t})
	}
	ps = append(ps, probe{path: path, functor: true, fn: p.fn, arity: int32(len(p.args)), v: -1, ground: -1})
	for i, a := range p.args {
		sub := append(append([]int32(nil), path...), int32(i))
		ps = appendProbes(ps, sub, a, bound)
	}
	return ps
}

// binding is the variable assignment of a join in progress.
type binding struct {
	vals  []int32 // -1 unbound
	trail []int32
}

// matchArgs matches the arguments of an atom against a fact's tuple,
// binding variables in b; on false the caller undoes the partial bindings.
func (e *engine) matchArgs(b *binding, args []pat, tuple []int32) bool {
	// Variables and constants, most arguments, are matched here: a call
	// of match per argument made matchArgs a tenth of chess's grounding CPU.
	for i := range args {
		a, t := &args[i], tuple[i]
		switch {
		case a.v >= 0:
			if v := b.vals[a.v]; v >= 0 {
				if v != t {
					return false
				}
				continue
			}
			b.vals[a.v] = t
			b.trail = append(b.trail, a.v)
		case a.t >= 0:
			if a.t != t {
				return false
			}
		case !e.match(b, *a, t):
			return false
		}
	}
	return true
}

// match unifies pattern p with ground term t, recording new bindings on the trail.
func (e *engine) match(b *binding, p pat, t int32) bool {
	switch {
	case p.v >= 0:
		if v := b.vals[p.v]; v >= 0 {
			return v == t
		}
		b.vals[p.v] = t
		b.trail = append(b.trail, p.v)
		return true
	case p.t >= 0:
		return p.t == t
	}
	args := e.ts.args(t)
	if e.ts.fn[t] != p.fn || len(args) != len(p.args) {
		return false
	}
	for i, a := range p.args {
		if !e.match(b, a, args[i]) {
			return false
		}
	}
	return true
}

func (b *binding) undo(mark int) {
	for _, v := range b.trail[mark:] {
		b.vals[v] = -1
	}
	b.trail = b.trail[:mark]
}

// inst builds the ground term of a bound pattern.
func (e *engine) inst(b *binding, p pat) int32 {
	switch {
	case p.v >= 0:
		return b.vals[p.v]
	case p.t >= 0:
		return p.t
	}
	args := make([]int32, len(p.args))
	for i, a := range p.args {
		args[i] = e.inst(b, a)
	}
	var t int32
	if e.frozen {
		// A worker of a parallel round interns nothing (term ids must
		// not depend on the scheduling): a new term sends its job back
		// to the sequential merge.
		var ok bool
		if t, ok = e.ts.lookupKey(p.fn, args, &e.key); !ok {
			e.fail(errFrozenTerm)
			return 0
		}
	} else {
		t = e.ts.intern(p.fn, args)
	}
	if d := e.ts.depth[t]; int(d) > e.lim.MaxTermDepth {
		e.fail(&LimitError{What: "MaxTermDepth", Limit: int64(e.lim.MaxTermDepth), Got: int64(d)})
	}
	return t
}

// lookupInst is inst without interning: false when the term does not exist.
func (e *engine) lookupInst(b *binding, p pat) (int32, bool) {
	switch {
	case p.v >= 0:
		return b.vals[p.v], true
	case p.t >= 0:
		return p.t, true
	}
	args := make([]int32, len(p.args))
	for i, a := range p.args {
		t, ok := e.lookupInst(b, a)
		if !ok {
			return 0, false
		}
		args[i] = t
	}
	return e.ts.lookupKey(p.fn, args, &e.key)
}

func (e *engine) instArgs(b *binding, ps []pat) []int32 {
	e.tuple = e.tuple[:0]
	for _, p := range ps {
		e.tuple = append(e.tuple, e.inst(b, p))
	}
	return e.tuple
}

// check evaluates a non-join body literal under b; negated fluent atoms are
// left to the caller (they pass here).
func (e *engine) check(b *binding, l *basic) bool {
	switch l.kind {
	case bDistinct:
		return e.inst(b, l.a) != e.inst(b, l.b)
	case bEqual:
		return e.inst(b, l.a) == e.inst(b, l.b)
	case bAny:
		for i := range l.subs {
			if e.check(b, &l.subs[i]) {
				return true
			}
		}
		return false
	case bNeg:
		if e.dropNeg(l.rel) {
			return true
		}
		_, found := e.facts[l.rel].lookup(e.instArgs(b, l.args))
		return !found
	}
	return true
}

// joined is the result of a join: the distinct head tuples it derives and, in
// circuit mode, the literal saying when each is derived.
type joined struct {
	tuples [][]int32
	lits   []Lit
	// Until finish, first[i] is tuple i's first alternative and more[i]
	// the others: most tuples have one, and a slice of alternatives per
	// tuple was a third of the grounder's heap objects. more stays nil
	// until some tuple has a second one.
	first []Lit
	more  [][]Lit
	keys  tupleTable // index of tuples, built once there are smallJoined
}

// smallJoined is the number of tuples a joined finds by a linear scan before
// it builds an index: most joins derive none or one (a memo of a big join
// holds a million such results, and an index each would dominate the time).
const smallJoined = 8

// noTuples is the result of every join that derives nothing. It is shared:
// never add to it.
var noTuples = &joined{}

// oneJoined is a finished joined of one tuple in one allocation: joins
// return one per match at their last step and per memo hit.
type oneJoined struct {
	j     joined
	tuple [1][]int32
	lit   [1]Lit
}

// single returns the finished joined of tuple t, derived when l holds. t
// is kept, not copied.
func single(t []int32, l Lit) *joined {
	o := &oneJoined{}
	o.tuple[0], o.lit[0] = t, l
	o.j.tuples, o.j.lits = o.tuple[:], o.lit[:]
	return &o.j
}

func (j *joined) at(i int32) []int32 { return j.tuples[i] }

// index returns the position of tuple t, or false.
func (j *joined) index(t []int32) (int, bool) {
	if j.keys.slots == nil {
		for i, u := range j.tuples {
			if slices.Equal(u, t) {
				return i, true
			}
		}
		return 0, false
	}
	i, ok := j.keys.find(t, j.at)
	return int(i), ok
}

// insert adds tuple if it is new and returns its position. tuple is kept,
// not copied.
func (j *joined) insert(tuple []int32) (i int, isNew bool) {
	if i, ok := j.index(tuple); ok {
		return i, false
	}
	return j.push(tuple), true
}

// push adds tuple, which is not in j yet, and returns its position.
func (j *joined) push(tuple []int32) int {
	i := len(j.tuples)
	j.tuples = append(j.tuples, tuple)
	switch {
	case j.keys.slots != nil:
		j.keys.insert(tuple, int32(i))
	case len(j.tuples) == smallJoined:
		for k, u := range j.tuples {
			j.keys.insert(u, int32(k))
		}
	}
	return i
}

// add records that tuple is derived when l holds (an alternative to those
// already recorded for it). tuple is kept, not copied.
func (j *joined) add(tuple []int32, l Lit) {
	i, isNew := j.insert(tuple)
	switch {
	case isNew:
		j.first = append(j.first, l)
		if j.more != nil {
			j.more = append(j.more, nil)
		}
	default:
		if j.more == nil {
			j.more = make([][]Lit, len(j.tuples))
		}
		j.more[i] = append(j.more[i], l)
	}
}

// finish ORs the alternatives of every tuple, in the order they were added.
func (j *joined) finish(b *builder) *joined {
	j.lits = make([]Lit, len(j.first))
	var alts []Lit
	for i, l := range j.first {
		alts = append(alts[:0], l)
		if j.more != nil {
			alts = append(alts, j.more[i]...)
		}
		j.lits[i] = b.Or(alts...)
	}
	j.first, j.more = nil, nil
	return j
}

// tupleArena hands out copies of tuples from shared blocks: a join's head
// tuples are many small slices that live as long as each other.
type tupleArena struct{ block []int32 }

// maxArenaBlock bounds the int32s of one arena block.
const maxArenaBlock = 4096

// copy returns a copy of t with no spare capacity.
func (a *tupleArena) copy(t []int32) []int32 {
	if len(a.block)+len(t) > cap(a.block) {
		n := min(max(2*cap(a.block), 4*len(t)), maxArenaBlock)
		a.block = make([]int32, 0, max(n, len(t)))
	}
	k := len(a.block)
	a.block = append(a.block, t...)
	return a.block[k:len(a.block):len(a.block)]
}

// memoTable maps the values of one step's live variables to V, while it
// pays (useful). Keys are stored flat, n values each, and indexed by a
// tupleTable (Go maps keyed by arrays or strings cost twice as much).
type memoTable[V any] struct {
	n     int
	keys  []int32 // flat keys, n values each
	vals  []V
	tab   tupleTable
	at    func(int32) []int32
	key   []int32 // the live values of the last get
	probe int64   // see useful
	// lookups and hits decide whether the table pays; off once it did not.
	lookups, hits int64
	off           bool
}

// A memo pays only where a step sees the same live values again; in some
// joins a step sees a million distinct ones and the table is pure cost.
// After memoProbe lookups a step whose hits are under 1/memoMinHitRatio of
// them stops memoizing; its results are then recomputed when they recur,
// which gives the same tuples and, the builder being hash-consed, the same
// literals.
const (
	memoProbe       = 4096
	memoMinHitRatio = 32
)

// newMemoTable returns the table of a step with nlive live variables that
// stops after probe lookups if it does not pay (never when probe < 0).
func newMemoTable[V any](nlive int, probe int64) *memoTable[V] {
	m := &memoTable[V]{n: nlive, probe: probe, key: make([]int32, nlive)}
	m.at = func(i int32) []int32 { return m.keys[int(i)*m.n : int(i+1)*m.n] }
	return m
}

// useful reports whether the table is still worth its cost.
func (m *memoTable[V]) useful() bool {
	return m.probe < 0 || m.lookups < m.probe || m.hits*memoMinHitRatio >= m.lookups
}

// get returns the value stored for the current values of live, and keeps
// them as the key of the next put. A table that stopped finds nothing.
func (m *memoTable[V]) get(bd *binding, live []int32) (v V, ok bool) {
	if m.off {
		return v, false
	}
	m.lookups++
	for i, x := range live {
		m.key[i] = bd.vals[x]
	}
	i, ok := m.tab.find(m.key, m.at)
	if ok {
		m.hits++
		v = m.vals[i]
	}
	return v, ok
}

// put stores v under the live values of the last get (join calls put at a
// step before it gets at that step again), or stops the table for good when
// it does not pay.
func (m *memoTable[V]) put(v V) {
	switch {
	case m.off:
	case !m.useful():
		*m = memoTable[V]{off: true}
	default:
		pos := int32(len(m.vals))
		m.keys = append(m.keys, m.key...)
		m.vals = append(m.vals, v)
		m.tab.insert(m.key, pos)
	}
}

// join evaluates rule p.rule over the fact sets and returns the head tuples it
// derives. It is dynamic programming over the join order: what the steps from
// k on can derive depends only on the values of the variables live at k, so
// that result is computed once per distinct live assignment. This projects
// away variables nobody needs later (a product of independent atoms costs
// their sum, not their product).
//
// With a builder (circuit mode) each head tuple also gets the literal of the
// factored formula OR over matches of (AND of the matched fluent atoms' literals
// from litOf, the negated fluent atoms' literals, and the rest of the join).
// Without one (domain mode) negated fluent atoms are ignored.
func (e *engine) join(p *plan, b *builder, litOf func(rel, id int32) Lit) *joined {
	r := p.rule
	if b == nil && !e.domainPrologue(p) {
		return noTuples
	}
	bd := &binding{vals: make([]int32, p.nvars)}
	for i := range bd.vals {
		bd.vals[i] = -1
	}
	if b != nil {
		for _, ci := range p.pre {
			if !e.check(bd, &r.body[ci]) {
				return noTuples
			}
		}
	}
	negLits := func(idx []int) Lit {
		l := True
		if b == nil {
			return l
		}
		for _, ci := range idx {
			nl := &r.body[ci]
			if id, ok := e.facts[nl.rel].lookup(e.instArgs(bd, nl.args)); ok {
				l = b.And(l, litOf(nl.rel, id).Not())
			}
		}
		return l
	}
	// Domain mode: the head tuples go straight into out, and a step state seen
	// before can only derive tuples already there, so a visited set is enough.
	out := &joined{}
	var arena tupleArena // the head tuples' copies
	// visited (domain mode) and memo (circuit mode) per step, made at a
	// step's first visit.
	visited := make([]*memoTable[struct{}], len(p.steps))
	memo := make([]*memoTable[*joined], len(p.steps))
	lmemo := make([]*memoTable[Lit], len(p.steps)) // steps with headBound
	// headDone (domain mode, head bound): the head atom is derived already,
	// so the rest of the join can add nothing.
	// It only looks terms up: a term never interned is in no atom, and
	// interning here could trip MaxTermDepth for a join that then fails.
	var headT []int32
	headDone := func() bool {
		e.headChecks++
		headT = headT[:0]
		for _, a := range r.headArgs {
			t, ok := e.lookupInst(bd, a)
			if !ok {
				return false
			}
			headT = append(headT, t)
		}
		if _, ok := out.index(headT); ok {
			return true
		}
		_, ok := e.facts[r.head].lookup(headT)
		return ok
	}
	var rec, body func(k int) *joined
	var smemo *memoTable[Lit] // the share point's results (share.go)
	shared := func(k int) *joined {
		sh := p.share
		if smemo == nil {
			smemo = newMemoTable[Lit](len(sh.key), e.memoProbe)
		}
		l, hit := smemo.get(bd, sh.key)
		if !hit {
			items := body(k)
			ls := make([]Lit, 0, len(items.tuples))
			for i, t := range items.tuples {
				if e.tests++; e.tests%shareTestsPerMatch == 0 && !e.countMatch(r) {
					return noTuples
				}
				mark := len(bd.trail)
				for j, v := range sh.w {
					bd.vals[v] = t[j]
					bd.trail = append(bd.trail, v)
				}
				if e.passes(bd, r, sh) {
					ls = append(ls, items.lits[i])
				}
				bd.undo(mark)
			}
			l = b.Or(ls...)
			smemo.put(l)
		}
		if l == False {
			return noTuples
		}
		return single(arena.copy(e.instArgs(bd, r.headArgs)), l)
	}
	rec = func(k int) *joined {
		if b != nil && p.share != nil && k == p.share.k {
			return shared(k)
		}
		return body(k)
	}
	body = func(k int) *joined {
		if k == len(p.steps) && b != nil && p.share != nil {
			// The tuple of a shared item: the values its tests read.
			t := make([]int32, len(p.share.w))
			for i, v := range p.share.w {
				t[i] = bd.vals[v]
			}
			return single(t, True)
		}
		if k == len(p.steps) {
			t := e.instArgs(bd, r.headArgs)
			if b == nil {
				if _, ok := out.index(t); !ok {
					out.push(arena.copy(t))
					// Each new head tuple may become an atom: stop at the limit
					// here, not after collecting them all.
					if got := e.atoms + int64(len(out.tuples)); got > e.lim.MaxAtoms {
						e.fail(&LimitError{What: "MaxAtoms", Limit: e.lim.MaxAtoms, Got: got, Where: e.rulesOf(r.head)})
						e.stopped = &stoppedJoin{rel: r.head, n: int64(len(out.tuples)), rows: out.tuples}
					}
				}
				return nil
			}
			return single(arena.copy(t), True)
		}
		s := &p.steps[k]
		// Below a step that found the head atom not derived (the same
		// atom: its variables were bound there already) the answer is
		// the same, as that step asks again whenever a match adds a
		// head tuple; only the first such step asks.
		if b == nil && !e.noCuts && s.headBound && (k == 0 || !p.steps[k-1].headBound) && headDone() {
			return nil
		}
		if b == nil {
			if visited[k] == nil {
				visited[k] = newMemoTable[struct{}](len(s.live), e.memoProbe)
			}
			if _, seen := visited[k].get(bd, s.live); seen {
				return nil
			}
			visited[k].put(struct{}{})
		} else if s.headBound {
			if lmemo[k] == nil {
				lmemo[k] = newMemoTable[Lit](len(s.bodyLive), e.memoProbe)
			}
			if l, hit := lmemo[k].get(bd, s.bodyLive); hit {
				if l == False {
					return noTuples
				}
				return single(arena.copy(e.instArgs(bd, r.headArgs)), l)
			}
		} else {
			if memo[k] == nil {
				memo[k] = newMemoTable[*joined](len(s.live), e.memoProbe)
			}
			if j, hit := memo[k].get(bd, s.live); hit {
				return j
			}
		}
		acc := noTuples // replaced by a new joined at the first tuple
		f := e.facts[s.rel]
		lo, hi := e.stepRange(s)
		lit := &r.body[s.lit]
		fluent := !e.c.rels[s.rel].static && !e.c.rels[s.rel].demand && !lit.demand
		try := func(id int32) bool {
			if !e.tick() || e.overBudget {
				return false
			}
			mark := len(bd.trail)
			ok := e.matchArgs(bd, lit.args, f.tuple(id))
			if ok {
				for _, ci := range s.checks {
					if !e.check(bd, &r.body[ci]) {
						ok = false
						break
					}
				}
			}
			if ok && b == nil {
				n := len(out.tuples)
				rec(k + 1)
				// headDone was false when this step began (above), and
				// the facts do not change during a domain join: only a
				// head tuple added since can make it true.
				if !e.noCuts && (s.exists || s.headBound && len(out.tuples) > n && headDone()) {
					bd.undo(mark)
					return false
				}
			} else if ok {
				if !e.countMatch(r) {
					return false
				}
				here := negLits(s.negDyn)
				if fluent {
					here = b.And(here, litOf(s.rel, id))
				}
				if here != False {
					sub := rec(k + 1)
					if acc == noTuples && len(sub.tuples) > 0 {
						acc = &joined{}
					}
					for i, t := range sub.tuples {
						acc.add(t, b.And(here, sub.lits[i]))
					}
				}
			}
			bd.undo(mark)
			return e.err == nil
		}
		if s.ix == nil {
			for id := lo; id < hi; id++ {
				if !try(id) {
					break
				}
			}
		} else {
			s.ix.update(e.ts, f)
			h := uint64(1469598103934665603)
			for _, pr := range s.probes {
				switch {
				case pr.functor:
					h = mix(h, uint64(pr.fn)<<20|uint64(pr.arity))
				case pr.ground >= 0:
					h = mix(h, uint64(pr.ground))
				default:
					h = mix(h, uint64(bd.vals[pr.v]))
				}
			}
			for _, id := range s.ix.ids(h) {
				if id < lo {
					continue
				}
				if id >= hi || !try(id) {
					break
				}
			}
		}
		if b == nil {
			return nil
		}
		if acc != noTuples {
			acc.finish(b)
		}
		if s.headBound {
			l := False
			if len(acc.tuples) > 0 {
				l = acc.lits[0]
			}
			lmemo[k].put(l)
			return acc
		}
		memo[k].put(acc)
		return acc
	}
	if b == nil {
		rec(0)
		return out
	}
	res := rec(0)
	if pre := negLits(p.preNegDyn); pre != True {
		for i := range res.lits {
			res.lits[i] = b.And(pre, res.lits[i])
		}
	}
	return res
}

// domainPrologue is what a domain join does before it enumerates: the
// body's ground checks, and the head's product measured (measureProduct)
// and counted against MaxAtoms (productSize). False: the join derives
// nothing (e.err may say why).
func (e *engine) domainPrologue(p *plan) bool {
	r := p.rule
	bd := &binding{vals: make([]int32, p.nvars)}
	for i := range bd.vals {
		bd.vals[i] = -1
	}
	for _, ci := range p.pre {
		if !e.check(bd, &r.body[ci]) {
			return false
		}
	}
	// A rule whose head ranges over a product of independent atoms fails
	// here, before its tuples are enumerated one by one.
	if e.measureAt != nil && e.measureProduct(p) {
		return false
	}
	if n, ok := e.productSize(p, e.lim.MaxAtoms-e.atoms); ok && e.atoms+n > e.lim.MaxAtoms {
		e.fail(&LimitError{What: "MaxAtoms", Limit: e.lim.MaxAtoms, Got: e.atoms + n, Where: e.rulesOf(r.head)})
		e.stopped = &stoppedJoin{rel: r.head, n: n, groups: productHeadGroups(p)}
		return false
	}
	return true
}

// countMatch counts a circuit join match of rule r against the trial
// budget (false when it ran out) and MaxInstances.
func (e *engine) countMatch(r *nrule) bool {
	e.matches++
	if e.budget > 0 && e.matches > e.budget {
		e.overBudget = true
		return false
	}
	if e.matches > e.lim.MaxInstances {
		e.fail(&LimitError{What: "MaxInstances", Limit: e.lim.MaxInstances, Got: e.matches, Where: e.rulesOf(r.head)})
	}
	return true
}

// patVars appends the variables of p to dst.
func patVars(dst []int32, p pat) []int32 {
	if p.v >= 0 {
		return append(dst, p.v)
	}
	for _, a := range p.args {
		dst = patVars(dst, a)
	}
	return dst
}

// stepRange is the range of fact ids step s ranges over in the current round.
func (e *engine) stepRange(s *step) (lo, hi int32) {
	lo, hi = 0, e.facts[s.rel].n
	if e.hi != nil {
		hi = min(hi, e.hi[s.rel])
		if s.delta {
			lo = e.lo[s.rel]
		} else if s.old {
			hi = min(hi, e.lo[s.rel])
		}
	}
	return max(lo, 0), hi
}

// productSize returns, for a join in domain mode whose steps share no
// variable and run no checks, the exact number of head tuples it derives:
// the product over the steps of the distinct values of their head
// variables (the head is built injectively from its variables). ok is false
// for other joins, and for products that cannot reach MaxAtoms (their
// count is then not needed). Counting scans each relation once instead of
// enumerating the product, so a blow-up (10 facts joined 7 times) fails at
// once rather than after MaxAtoms tuples. ok is false as well where
// the product cannot exceed over tuples.
func (e *engine) productSize(p *plan, over int64) (n int64, ok bool) {
	r := p.rule
	if len(p.steps) < 2 {
		return 0, false
	}
	bound := int64(1)
	for k := range p.steps {
		lo, hi := e.stepRange(&p.steps[k])
		if hi <= lo {
			return 0, false
		}
		bound = capMul(bound, int64(hi-lo), e.lim.MaxAtoms+1)
	}
	if bound <= over {
		return 0, false
	}
	owner := make([]int, p.nvars) // 1 + the step that binds each variable
	var vs []int32
	for k := range p.steps {
		s := &p.steps[k]
		if len(s.checks) > 0 {
			return 0, false
		}
		vs = vs[:0]
		for _, a := range r.body[s.lit].args {
			vs = patVars(vs, a)
		}
		for _, v := range vs {
			if owner[v] != 0 && owner[v] != k+1 {
				return 0, false
			}
			owner[v] = k + 1
		}
	}
	var headVars []int32
	for _, a := range r.headArgs {
		headVars = patVars(headVars, a)
	}
	for _, v := range headVars {
		if owner[v] == 0 {
			return 0, false
		}
	}
	bd := &binding{vals: make([]int32, p.nvars)}
	for i := range bd.vals {
		bd.vals[i] = -1
	}
	n = 1
	var key []byte
	for k := range p.steps {
		s := &p.steps[k]
		var hv []int32
		for _, v := range headVars {
			if owner[v] == k+1 && !slices.Contains(hv, v) {
				hv = append(hv, v)
			}
		}
		seen := map[string]struct{}{}
		f := e.facts[s.rel]
		lit := &r.body[s.lit]
		lo, hi := e.stepRange(s)
		for id := lo; id < hi; id++ {
			if !e.tick() {
				return 0, false
			}
			mark := len(bd.trail)
			if e.matchArgs(bd, lit.args, f.tuple(id)) {
				key = key[:0]
				for _, v := range hv {
					key = binary.LittleEndian.AppendUint32(key, uint32(bd.vals[v]))
				}
				seen[string(key)] = struct{}{}
			}
			bd.undo(mark)
		}
		if len(seen) == 0 {
			return 0, true
		}
		n = capMul(n, int64(len(seen)), math.MaxInt64-e.atoms)
	}
	return n, true
}

// capMul returns a*b for positive a and b, or limit when that is larger.
func capMul(a, b, limit int64) int64 {
	if a > limit/b {
		return limit
	}
	return min(a*b, limit)
}

func encodeTuple(dst []byte, t []int32) []byte {
	for _, x := range t {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(x))
	}
	return dst
}

// addFact inserts a derived fact, enforcing MaxAtoms.
func (e *engine) addFact(rel int32, tuple []int32) (int32, bool) {
	id, isNew := e.facts[rel].add(tuple)
	if isNew {
		e.atoms++
		if e.atoms > e.lim.MaxAtoms && e.err == nil {
			e.fail(&LimitError{What: "MaxAtoms", Limit: e.lim.MaxAtoms, Got: e.atoms, Where: e.largest()})
		}
		if e.measureAt != nil && e.facts[rel].n >= e.measureAt[rel] {
			e.measureDemand(rel)
		}
	}
	return id, isNew
}

// replanSlack is the growth in atoms below which fixpoint keeps its plans.
const replanSlack = 4096

// relReplanSlack is the growth of one joined relation below which
// fixpoint keeps a plan.
const relReplanSlack = 8

// fixpoint evaluates rules semi-naively until no new facts appear. Relations
// in scope are the ones whose facts the rules may still add to.
func (e *engine) fixpoint(rules []*nrule, inScope func(rel int32) bool) {
	n := len(e.facts)
	e.lo = make([]int32, n)
	e.hi = make([]int32, n)
	defer func() { e.lo, e.hi = nil, nil }()
	derive := func(p *plan) {
		for _, t := range e.join(p, nil, nil).tuples {
			if e.err != nil {
				return
			}
			e.addFact(p.rule.head, t)
		}
	}
	// Round 0: everything known so far.
	for i, f := range e.facts {
		e.lo[i], e.hi[i] = 0, f.n
	}
	for _, r := range rules {
		derive(e.makePlan(r, -1, inScope, false))
		if e.err != nil {
			return
		}
	}
	plans := map[[2]int]*plan{}
	var jobs []roundJob
	for {
		changed := false
		e.rounds++
		for i, f := range e.facts {
			e.lo[i], e.hi[i] = e.hi[i], f.n
			if e.lo[i] < e.hi[i] && inScope(int32(i)) {
				changed = true
			}
		}
		if !changed {
			return
		}
		jobs = jobs[:0]
		for ri, r := range rules {
			for li, b := range r.body {
				if b.kind != bPos || !inScope(b.rel) || e.lo[b.rel] >= e.hi[b.rel] {
					continue
				}
				jobs = append(jobs, roundJob{key: [2]int{ri, li}})
			}
		}
		e.runAhead(jobs, plans)
		for i := range jobs {
			j := &jobs[i]
			p, ok := plans[j.key]
			// A plan is made from the relation sizes of its first round;
			// once they have grown much (the domains of chess grow from
			// init's 70 to a million) it is made again (stale).
			if !ok || e.stale(p) {
				p = e.makePlan(rules[j.key[0]], j.key[1], inScope, false)
				plans[j.key] = p
			}
			if tuples, ok := e.accept(j, p); ok {
				for _, t := range tuples {
					if e.err != nil {
						return
					}
					e.addFact(p.rule.head, t)
				}
				e.checkpoint()
			} else {
				derive(p)
			}
			if e.err != nil {
				return
			}
		}
	}
}

// rulesOf names the rules of a relation for limit errors; a demand relation
// (demand.go) is named after the relation it restricts.
func (e *engine) rulesOf(rel int32) string {
	r := e.c.rels[rel]
	if r.demand {
		return "the calls that demand atoms of " + r.demandOf
	}
	return "rules of " + r.name
}

// largest names the relation with the most ground atoms, for limit errors.
func (e *engine) largest() string {
	best := e.c.kwRel[kwTrue]
	for i, f := range e.facts {
		if f.n > e.facts[best].n && !strings.Contains(e.c.rels[i].name, " ") {
			best = int32(i)
		}
	}
	r := e.c.rels[best]
	return fmt.Sprintf("relation %s/%d with %d atoms", r.name, r.arity, e.facts[best].n)
}
