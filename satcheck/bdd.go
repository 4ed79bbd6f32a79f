package satcheck

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/gamequiv/gamequiv/grounding"
)

// BDD check: a pair of large cones that reaches the SAT stage, and that
// sweeping leaves after Options.SweepConflictsBeforeBDD conflicts (or
// every pair while BDDs lead, see bddLeadAfter), is built as two BDDs over the joint variables in one manager
// (grounding.BDD). The functions are equal under the groups' one-hot
// constraints exactly when (fa XOR fb) AND the constraints is the constant
// false; otherwise any path to true of that BDD is a counterexample.
// merrills' piece counts (sums over 24 points) compared through a mapping
// took gophersat hundreds of sweep proofs and minutes.
//
// One manager serves a Checker, so the count that all of merrills'
// goals, legal moves and terminal read is built once: a joint variable's
// level is fixed by its input of A (A's actions, then A's propositions in
// grounding.PropOrder's order, ranked by A's terminal, goals and legal
// moves), or, for an input only B's function reads,
// by its input of B after all of A's. A's gate BDDs are kept for good;
// B's gate BDDs are kept while each of B's inputs keeps its level (the
// image of the same input of A), and dropped when a mapping moves one.
// When the kept BDDs leave a pair too little room, the nodes no kept gate
// reaches are freed (grounding.BDD.Collect), then B's gates are dropped,
// then everything, before the pair is given up to SAT: memory stays
// within Options.MaxBDDNodes (and as much again for a sweep's cut BDDs,
// sweepbdd.go) and what A's gates hold is kept longest.
// Names and input numbers change the effort only, never the answer.

// DefaultMaxBDDNodes is the default Options.MaxBDDNodes: 2^24 nodes, about
// 20 bytes each with the unique table. merrills' mutants need 4.3 M
// nodes: the mutant's count walks the points in another order than the
// original's, so its partial counts share no nodes.
const DefaultMaxBDDNodes = 1 << 24

// Per-check node budget: a pair of cones with g gates together may add at
// most bddNodesPerGate*g + bddMinNodes nodes (merrills' mutants: 4.3 M
// nodes for 7,016 gates, 610 a gate), so a pair whose BDDs blow up costs
// about what building a good one of its size would.
const (
	bddNodesPerGate = 1024
	bddMinNodes     = 1 << 16
)

// bddCacheEntries is the size of the manager's lossy operation cache (48
// MB): merrills' "goal white 25" (7,042 gates, 1.9 M nodes) took 8.5 CPU s
// with 2^20 entries, 5.9 with 2^22, 5.5 with 2^23. It starts at
// bddFirstCacheEntries and grows to a quarter of the nodes a check may
// reach: a Checker of small pairs does not clear 48 MB.
const (
	bddCacheEntries      = 1 << 22
	bddFirstCacheEntries = 1 << 14
)

// bddFailSlack: once BDDs have reached their budget this many times more
// than they decided pairs, a Checker stops trying them (effort only:
// those pairs go to SAT, as all pairs did before). A pair whose BDDs blow
// up costs seconds (wargame01's seed-3 mutant: 97 s with 16, 26 s with
// 2, the pairs decided by sweeping either way).
const bddFailSlack = 2

// bddLeadAfter: once BDDs have decided this many pairs in a row that
// budgeted sweeping left (bddState.lead), the pairs go to BDDs first;
// the first pair they fail on gives the lead back to sweeping. merrills'
// 1,379 counting functions cost sweeping its whole budget each (290 ms)
// and BDDs 0.3 ms; wargame03's one large pair takes sweeping 671
// conflicts and BDDs 21 s to give up.
const bddLeadAfter = 2

// composeShare: composing B's root (composedRoot) may add at most this
// fraction of a check's node budget before B is built over the joint
// levels instead. merrills' goals under a rotation composed within 435,000
// nodes of their 5.4 M budget; its noop moves (a count mixed with the
// board's lines) passed 29 M nodes, and build in 22 s over the joint
// levels.
const composeShare = 8

// boundedBDDNodes bounds the BDD nodes of one check under
// Options.BoundedEffort: about a second of BDD work.
const boundedBDDNodes = 1 << 20

// bddState is a Checker's BDD manager and what it keeps between checks.
type bddState struct {
	mu     sync.Mutex
	lead   bool // BDDs are tried before sweeping
	streak int  // pairs in a row decided by BDDs after sweeping's budget ran out
	d      *grounding.BDD
	aLevel []int32 // level of each input of A (nil until the first check)
	bOwn   []int32 // level of each input of B read only by B's function, after A's
	gateA  map[int32]grounding.BDDEdge
	gateB  map[int32]grounding.BDDEdge
	bAt    []int32 // level each input of B had when gateB was built, -1 none
	// bSelf: the level of each input of B in B's own order (bOwn's, or
	// aLevel when A is B), over which B's gates are built once for all
	// mappings and kept in gateSelf (gateA itself when A is B), for the
	// roots composed into the joint levels (composedRoot).
	bSelf        []int32
	gateSelf     map[int32]grounding.BDDEdge
	same         bool // A is B
	wins, fail   int
	nameA, nameB string // the programs' names, for messages
	// overBound: the largest budget each pair reached without a decision
	// (key bddPairKey). The same pair with no larger budget would build
	// the same BDDs and reach it again: golden_rectangle's two hard pairs
	// of its seed-3 mutant reached 805,888 nodes in the bounded pass
	// (2.1 and 3.7 s) and again, with the same budget, in the unbounded
	// one (3.7 and 5.1 s), before sweeping decided them.
	overBound map[string]int
	// composeFailed: the largest composition budget each B root (circuit
	// node) ran out of (composedRoot): a B root composed again under
	// another mapping with no larger budget builds the same BDD in B's
	// own order and fails again (merrills' noop functions, once per
	// generator). At most maxComposeFailed roots; past it the map is
	// emptied.
	composeFailed map[int32]int
}

// maxComposeFailed bounds bddState.composeFailed.
const maxComposeFailed = 1 << 12

// bddPairKey identifies a BDD check: both roots (circuit node and sign)
// and the joint variables with their inputs, which fix the levels.
func bddPairKey(j *joint, ca, cb *cone) string {
	b := make([]byte, 0, 16+8*len(j.vars))
	b = binary.LittleEndian.AppendUint32(b, uint32(coneRootNode(ca)))
	b = binary.LittleEndian.AppendUint32(b, ca.Root&1)
	b = binary.LittleEndian.AppendUint32(b, uint32(coneRootNode(cb)))
	b = binary.LittleEndian.AppendUint32(b, cb.Root&1)
	for _, x := range j.vars {
		b = binary.LittleEndian.AppendUint32(b, uint32(x.aIn))
		b = binary.LittleEndian.AppendUint32(b, uint32(x.bIn))
	}
	return string(b)
}

// coneRootNode is the circuit node of c's root (grounding.Cone's slots:
// 0 the constant, then the inputs, then the gates), -1 for the constant.
func coneRootNode(c *cone) int32 {
	switch slot := int(c.Root >> 1); {
	case slot == 0:
		return -1
	case slot <= len(c.Inputs):
		return c.Inputs[slot-1]
	default:
		return c.Gates[slot-1-len(c.Inputs)]
	}
}

// bddDecide decides ca ≡ cb over j with BDDs; ok is false when the pair
// was not decided (the budget was reached, or BDDs are given up); err is
// a cancellation, or an internal error when a counterexample does not
// separate the circuits.
func (c *Checker) bddDecide(ctx context.Context, j *joint, ca, cb *cone) (o outcome, ok bool, err error) {
	s := &c.bdd
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail >= s.wins+bddFailSlack { // given up (a check that raced givenUp)
		return outcome{}, false, nil
	}
	if s.aLevel == nil {
		// Both or neither: a cancel between the two must not leave aLevel
		// set and bOwn nil for the next check.
		aLevel, err := sideLevels(ctx, c.a, 0)
		if err != nil {
			return outcome{}, false, err
		}
		bOwn, err := sideLevels(ctx, c.b, int32(c.a.numInputs()))
		if err != nil {
			return outcome{}, false, err
		}
		s.aLevel, s.bOwn, s.bSelf = aLevel, bOwn, bOwn
		if s.same = c.a.p == c.b.p; s.same {
			s.bSelf = aLevel
		}
	}
	if s.d == nil {
		s.reset(c)
		s.nameA, s.nameB = c.a.p.Name, c.b.p.Name
	}
	level := make([]int32, len(j.vars))
	for v, x := range j.vars {
		if x.aIn >= 0 {
			level[v] = s.aLevel[x.aIn]
		} else {
			level[v] = s.bOwn[x.bIn]
		}
	}
	// B's kept gates hold while every input keeps its level.
	for v, x := range j.vars {
		if at := s.bAt[x.bIn]; at >= 0 && at != level[v] {
			s.dropB()
			break
		}
	}
	budget := bddNodesPerGate*(len(ca.Gates)+len(cb.Gates)) + bddMinNodes
	// A bounded check's smaller budget says nothing of what BDDs can do:
	// it neither gives BDDs up nor keeps them (wins and fail).
	bounded := c.boundedEffort() > 0
	if bounded {
		budget = min(budget, boundedBDDNodes)
	}
	key := bddPairKey(j, ca, cb)
	if b, ok := s.overBound[key]; ok && budget <= b {
		c.stats.bddOverBound.Add(1)
		c.stats.bddRepeats.Add(1)
		if !bounded {
			s.fail++
		}
		return outcome{}, false, nil
	}
	s.d.GrowCache(min(s.d.Len()+budget, c.opt.MaxBDDNodes) / 4)
	for try := 0; ; try++ {
		// Recorded at every try: dropB and reset forget the levels.
		for v, x := range j.vars {
			s.bAt[x.bIn] = level[v]
		}
		n0 := s.d.Len()
		o, err = bddMiter(ctx, s, &c.stats, j, ca, cb, level, budget)
		if err == nil {
			break
		}
		if !errors.Is(err, grounding.ErrBDDLimit) {
			s.reset(c) // an interrupted operation may have left the kept gates half built
			return outcome{}, false, err
		}
		if 4*n0 <= c.opt.MaxBDDNodes || try == 3 {
			c.stats.bddOverBound.Add(1)
			if !bounded {
				s.fail++
			}
			if s.overBound == nil {
				s.overBound = map[string]int{}
			}
			s.overBound[key] = max(s.overBound[key], budget)
			return outcome{}, false, nil
		}
		// The kept BDDs and the garbage left too little room: free the
		// garbage, then B's gates too, then everything, and try again.
		switch try {
		case 0:
			s.d.Collect(s.kept(true)...)
		case 1:
			s.dropB()
			s.d.Collect(s.kept(false)...)
		default:
			s.reset(c)
		}
		c.stats.bddCollections.Add(1)
	}
	if !bounded {
		s.wins++
	}
	c.stats.bdds.Add(1)
	return o, true, nil
}

// givenUp reports whether BDDs are no longer tried (see bddFailSlack).
func (s *bddState) givenUp() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fail >= s.wins+bddFailSlack
}

// leads reports whether BDDs go first (see bddLeadAfter).
func (s *bddState) leads() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lead
}

// swept records a pair that budgeted sweeping decided.
func (s *bddState) swept() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.streak = 0
}

// tried records whether BDDs decided a pair, tried after sweeping's budget
// ran out (afterSweep) or first.
func (s *bddState) tried(ok, afterSweep bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !ok:
		s.lead, s.streak = false, 0
	case afterSweep:
		if s.streak++; s.streak >= bddLeadAfter {
			s.lead = true
		}
	}
}

// dropB forgets B's kept gates (their nodes stay until a Collect), those
// over the joint levels and, unless they are A's, those over B's own.
func (s *bddState) dropB() {
	clear(s.gateB)
	for i := range s.bAt {
		s.bAt[i] = -1
	}
	if !s.same {
		clear(s.gateSelf)
	}
}

// kept lists the maps of kept gates, each once: A's, and B's too when
// withB.
func (s *bddState) kept(withB bool) []map[int32]grounding.BDDEdge {
	keep := []map[int32]grounding.BDDEdge{s.gateA}
	if withB {
		keep = append(keep, s.gateB)
		if !s.same {
			keep = append(keep, s.gateSelf)
		}
	}
	return keep
}

// reset empties the manager and what it keeps.
func (s *bddState) reset(c *Checker) {
	if s.d == nil {
		s.d = grounding.NewBDD(grounding.BDDLimits{MaxNodes: c.opt.MaxBDDNodes, CacheEntries: bddCacheEntries, InitialCacheEntries: bddFirstCacheEntries})
	}
	s.d.Clear()
	s.gateA, s.gateB, s.gateSelf = map[int32]grounding.BDDEdge{}, map[int32]grounding.BDDEdge{}, map[int32]grounding.BDDEdge{}
	if s.same {
		s.gateSelf = s.gateA
	}
	s.bAt = filled(c.b.numInputs(), -1)
}

// sideLevels returns the level of every input of s from off on: the
// actions first, in input order, then the propositions in
// grounding.PropOrder's order, ranked by s's terminal, goal and legal
// functions (not by the pair at hand: the order, hence the
// counterexamples, must not depend on which check comes first).
func sideLevels(ctx context.Context, s *side, off int32) ([]int32, error) {
	cones := func(yield func(*cone) bool) {
		roots := []grounding.Lit{s.p.Terminal}
		for _, gs := range s.p.Goals {
			for _, g := range gs {
				roots = append(roots, g.Lit)
			}
		}
		for _, ls := range s.p.Legal {
			roots = append(roots, ls...)
		}
		for _, r := range roots {
			c, err := s.cone(r)
			if err != nil || !yield(c) {
				return
			}
		}
	}
	rank, err := grounding.StructuralRanks(ctx, s.nProps, cones)
	if err != nil {
		return nil, err
	}
	propLevel, _ := grounding.PropOrder(s.p.Props, rank)
	nAct := int32(s.numInputs() - s.nProps)
	level := make([]int32, s.numInputs())
	for i := range level {
		if i < s.nProps {
			level[i] = off + nAct + propLevel[i]
		} else {
			level[i] = off + int32(i-s.nProps)
		}
	}
	return level, nil
}

// bddMiter builds both cones in s's manager, joint variable v at level[v],
// and compares them under the groups' constraints.
func bddMiter(ctx context.Context, s *bddState, stats *counters, j *joint, ca, cb *cone, level []int32, budget int) (outcome, error) {
	d := s.d
	if err := d.Begin(ctx, budget); err != nil {
		return outcome{}, err
	}
	vars := make([]grounding.BDDEdge, len(j.vars))
	for v := range vars {
		var err error
		if vars[v], err = d.Var(level[v]); err != nil {
			return outcome{}, err
		}
	}
	in := func(vs []int32) func(k int) (grounding.BDDEdge, bool) {
		return func(k int) (grounding.BDDEdge, bool) {
			if v := vs[k]; v >= 0 {
				return vars[v], true
			}
			return grounding.BDDFalse, false // forced false here, not in general
		}
	}
	la, err := d.EvalCone(ctx, ca, in(j.aVar), s.gateA)
	if err != nil {
		return outcome{}, err
	}
	fa := grounding.RootOf(ca, la)
	// B's root composed from B's own order first, within a share of the
	// budget (composeShare), then built over the joint levels.
	share := max(budget/composeShare, 1)
	fb, err := grounding.BDDEdge(0), grounding.ErrBDDLimit
	bRoot := coneRootNode(cb)
	if b, failed := s.composeFailed[bRoot]; !failed || share > b {
		if err := d.Begin(ctx, share); err != nil {
			return outcome{}, err
		}
		fb, err = composedRoot(ctx, s, j, cb, vars)
		if err == nil {
			stats.bddComposed.Add(1)
		}
		if errors.Is(err, grounding.ErrBDDLimit) && !d.Full() {
			if s.composeFailed == nil || len(s.composeFailed) >= maxComposeFailed {
				s.composeFailed = map[int32]int{}
			}
			s.composeFailed[bRoot] = max(s.composeFailed[bRoot], share)
		}
	}
	if errors.Is(err, grounding.ErrBDDLimit) && !d.Full() {
		if err := d.Begin(ctx, budget); err != nil {
			return outcome{}, err
		}
		var lb []grounding.BDDEdge
		if lb, err = d.EvalCone(ctx, cb, in(j.bVar), s.gateB); err == nil {
			fb = grounding.RootOf(cb, lb)
		}
	}
	if err != nil {
		return outcome{}, err
	}
	if fa == fb {
		return outcome{equal: true}, nil
	}
	// The miter and the groups get the budget again: each stage of a
	// check (A, B composed, B over the joint levels, the miter) may add
	// at most its own share.
	if err := d.Begin(ctx, budget); err != nil {
		return outcome{}, err
	}
	x, err := d.Xor(fa, fb)
	if err != nil {
		return outcome{}, err
	}
	for _, g := range j.groups {
		cg, err := groupBDD(d, g, vars)
		if err != nil {
			return outcome{}, err
		}
		if x, err = d.And(x, cg); err != nil {
			return outcome{}, err
		}
	}
	levels, values, sat := d.AnySat(x)
	if !sat {
		return outcome{equal: true}, nil
	}
	varAt := make(map[int32]int, len(level))
	for v, l := range level {
		varAt[l] = v
	}
	m := make([]bool, len(j.vars))
	for i, l := range levels {
		m[varAt[l]] = values[i]
	}
	// The counterexample is checked on the circuits themselves.
	vec := make([]uint64, len(m))
	for v, b := range m {
		if b {
			vec[v] = 1
		}
	}
	if va, vb := simulatePair(ca, cb, j, vec, 1); (va[0]^vb[0])&1 == 0 {
		return outcome{}, fmt.Errorf("satcheck: internal error: a BDD counterexample does not separate %q node %d from %q node %d",
			s.nameA, rootNode(ca), s.nameB, rootNode(cb))
	}
	return outcome{j: j, model: m}, nil
}

// groupBDD is g's constraint: exactly one member, or at most one when the
// role has other actions.
func groupBDD(d *grounding.BDD, g group, vars []grounding.BDDEdge) (grounding.BDDEdge, error) {
	none, one := grounding.BDDTrue, grounding.BDDFalse // over the members seen so far
	for i := len(g.members) - 1; i >= 0; i-- {
		x := vars[g.members[i]]
		a, err := d.And(x, none)
		if err != nil {
			return 0, err
		}
		b, err := d.And(x^1, one)
		if err != nil {
			return 0, err
		}
		if one, err = d.Or(a, b); err != nil {
			return 0, err
		}
		if none, err = d.And(x^1, none); err != nil {
			return 0, err
		}
	}
	if g.other {
		return d.Or(one, none)
	}
	return one, nil
}

// composedRoot returns the BDD of cb's root over the joint variables vars
// (B's k-th input is vars[j.bVar[k]], or false). The cone is built over
// B's own levels (bSelf), whatever the mapping, its gates kept in gateSelf
// for every later pair, and its root is then composed into the joint
// levels (grounding.BDD.Compose). Built over the joint levels, B's gates
// follow A's order: when the mapping moves B's count onto another walk of
// the points than A's (merrills' goals under a rotation of the board), no
// partial count of B is one of A's, and its gates took more than a minute
// each; the root of a count is a function of the counts, small in any
// order that keeps a point's inputs together, and composes in a fraction
// of a second. Where the composition blows up (a count mixed with the
// board's lines: merrills' noop), bddMiter builds B over the joint levels.
func composedRoot(ctx context.Context, s *bddState, j *joint, cb *cone, vars []grounding.BDDEdge) (grounding.BDDEdge, error) {
	d := s.d
	self := make([]grounding.BDDEdge, len(cb.Inputs))
	to := make(map[int32]grounding.BDDEdge, len(cb.Inputs))
	for k, in := range cb.Inputs {
		lv := s.bSelf[in]
		e, err := d.Var(lv)
		if err != nil {
			return 0, err
		}
		self[k] = e
		to[lv] = grounding.BDDFalse // an input the mapping leaves out, or an action of no move
		if v := j.bVar[k]; v >= 0 {
			to[lv] = vars[v]
		}
	}
	lit, err := d.EvalCone(ctx, cb, func(k int) (grounding.BDDEdge, bool) { return self[k], true }, s.gateSelf)
	if err != nil {
		return 0, err
	}
	missing := int32(-1)
	r, err := d.Compose(grounding.RootOf(cb, lit), func(lv int32) grounding.BDDEdge {
		e, ok := to[lv]
		if !ok {
			missing = lv
		}
		return e
	})
	if err == nil && missing >= 0 {
		return 0, fmt.Errorf("satcheck: internal error: the BDD of %q node %d reads level %d, no input of its cone", s.nameB, rootNode(cb), missing)
	}
	return r, err
}
