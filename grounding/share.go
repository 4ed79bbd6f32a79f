package grounding

import "slices"

// Shared disjunctions of circuit joins ("all but the excluded").
//
// chess's
//
//	(<= (threatened_with_capture ?owner ?cx ?cy ?x ?y ?ix ?iy)
//	    (opponent ?owner ?opp)
//	    (queen_threatens ?opp ?u ?v ?x ?y ?ix ?iy)
//	    (different_cells ?cx ?cy ?u ?v))
//
// is, per head atom, an or over the attackers (u, v) of (x, y) but the one
// on the capture cell (cx, cy). Joined as written, every head atom
// enumerates the attackers again: the join memo is keyed by the live
// variables, and cx and cy are live up to the different_cells test. Yet the
// attackers do not depend on (cx, cy): only the test does. So where a head
// variable is used, once the head is bound, only by static tests (a dense
// static atom such as different_cells, or distinct), the join from that
// point on is computed once per binding of the other variables, as a list
// of items (the values the tests read, and the literal of the rest of the
// join for them), and each head atom ors the items that pass its tests.
// The literal is the same function as the join's (the same matches pass
// the same tests), and where the join tested those atoms last, the same
// gate (shareOrder; the builder sorts and flattens fanins). The
// frame rule of (next (cell ?x ?y ?p)) is the same shape: every move that
// neither starts nor ends on (x, y).
//
// Only dense static atoms are deferred to the items (at least
// shareMinDensity of the product of their variables' values hold): a
// sparse one (adjacent cells) is better joined early, where it binds few
// values, than tested on every item.

// shareMinDensity is the least fraction of the product of its variables'
// values that a static atom must hold to be tested on the items instead of
// joined.
const shareMinDensity = 0.75

// shareMaxFilterFacts bounds the facts of a static atom whose density
// shareFilters measures (a pass over them per rule plan).
const shareMaxFilterFacts = 1 << 16

// shareTestsPerMatch is how many item tests count as one join match
// against MaxInstances: a test is a few table lookups, a match a probe,
// a binding, a memo lookup and a gate.
const shareTestsPerMatch = 8

// share says where a circuit join switches to items (see above).
type share struct {
	k       int     // the first step with every head variable bound before it
	excl    []bool  // head variables that from step k on only the tests read
	filters []int   // static atoms (body indexes) tested on the items
	checks  []int   // checks (body indexes) tested on the items
	w       []int32 // variables that step k binds or that the tests read of those bound from k on: an item's tuple
	key     []int32 // variables bound before k that steps from k on or the tests read
}

// shareFilters returns the dense static atoms of a circuit rule that read
// exclusive head variables, and those variables: head variables that no
// body literal reads but such atoms, tests, demand literals and fluent atoms
// over head variables only (which come first, circuitOrder). Nil when there
// is none, or when a head variable or a variable of such an atom is bound
// by nothing else.
func (e *engine) shareFilters(r *nrule, atoms []int, head []bool) ([]int, []bool) {
	if !anyBound(head) {
		return nil, nil
	}
	cand := make([]bool, len(r.body))
	for _, i := range atoms {
		b := &r.body[i]
		if !b.demand && e.c.rels[b.rel].static && e.dense(b) {
			cand[i] = true
		}
	}
	excl := slices.Clone(head)
	for i, b := range r.body {
		if cand[i] {
			continue
		}
		switch b.kind {
		case bDistinct, bEqual, bAny:
			continue
		case bNeg:
			if e.c.rels[b.rel].static {
				continue
			}
		case bPos:
			rel := e.c.rels[b.rel]
			if b.demand || rel.demand || !rel.static && onlyHeadVars(b.args, head) {
				continue
			}
		}
		for _, v := range basicVars(nil, b) {
			excl[v] = false
		}
	}
	var filters []int
	core := make([]bool, len(r.varNames))
	for _, i := range atoms {
		if cand[i] && mentions(basicVars(nil, r.body[i]), excl) {
			filters = append(filters, i)
			continue
		}
		for _, a := range r.body[i].args {
			markBound(core, a)
		}
	}
	if len(filters) == 0 {
		return nil, nil
	}
	for v, h := range head {
		if h && !core[v] {
			return nil, nil
		}
	}
	for _, i := range filters {
		for _, v := range basicVars(nil, r.body[i]) {
			if !core[v] {
				return nil, nil
			}
		}
	}
	return filters, excl
}

// dense reports whether a static atom holds at least shareMinDensity of the
// product of its variables' values among its matching facts.
func (e *engine) dense(b *basic) bool {
	f := e.facts[b.rel]
	if f.n == 0 || f.n > shareMaxFilterFacts {
		return false
	}
	vs := basicVars(nil, *b)
	if len(vs) == 0 {
		return false
	}
	vals := make([]map[int32]bool, len(vs))
	for i := range vals {
		vals[i] = map[int32]bool{}
	}
	bd := &binding{vals: make([]int32, slices.Max(vs)+1)}
	for i := range bd.vals {
		bd.vals[i] = -1
	}
	matched := 0
	for id := range f.n {
		if e.matchArgs(bd, b.args, f.tuple(id)) {
			matched++
			for i, v := range vs {
				vals[i][bd.vals[v]] = true
			}
		}
		bd.undo(0)
	}
	prod := 1.0
	for _, m := range vals {
		prod *= float64(len(m))
	}
	return matched > 0 && float64(matched) >= shareMinDensity*prod
}

// basicVars appends the variables of a body literal to dst, each once.
func basicVars(dst []int32, b basic) []int32 {
	n := len(dst)
	for _, a := range b.args {
		dst = patVars(dst, a)
	}
	if b.kind == bDistinct || b.kind == bEqual {
		dst = patVars(patVars(dst, b.a), b.b)
	}
	for _, s := range b.subs {
		dst = patVars(patVars(dst, s.a), s.b)
	}
	slices.Sort(dst[n:])
	return append(dst[:n], slices.Compact(dst[n:])...)
}

// mentions reports whether one of vs is set in set.
func mentions(vs []int32, set []bool) bool {
	for _, v := range vs {
		if set[v] {
			return true
		}
	}
	return false
}

// planShare sets p.share for the filters that shareFilters found, which
// makePlan left out of p's steps; false when p cannot share (a step from
// the share point on reads an exclusive variable, or nothing follows it),
// and the plan must be made with the filters as steps.
func (e *engine) planShare(p *plan, filters []int, excl []bool, merged bool) bool {
	r := p.rule
	head := make([]bool, len(r.varNames))
	for _, a := range r.headArgs {
		markBound(head, a)
	}
	bound := make([]bool, len(r.varNames))
	boundBefore := make([][]bool, len(p.steps)+1)
	k := -1
	for j := range p.steps {
		boundBefore[j] = slices.Clone(bound)
		if k < 0 && !mentionsUnbound(head, bound) {
			k = j
		}
		for _, a := range r.body[p.steps[j].lit].args {
			markBound(bound, a)
		}
	}
	boundBefore[len(p.steps)] = bound
	if k < 0 {
		return false
	}
	sh := &share{k: k, excl: excl, filters: filters}
	for j := k; j < len(p.steps); j++ {
		s := &p.steps[j]
		if mentions(basicVars(nil, r.body[s.lit]), excl) {
			return false
		}
		for _, ci := range s.negDyn {
			if mentions(basicVars(nil, r.body[ci]), excl) {
				return false
			}
		}
		kept := s.checks[:0:0]
		for _, ci := range s.checks {
			if mentions(basicVars(nil, r.body[ci]), excl) {
				sh.checks = append(sh.checks, ci)
			} else {
				kept = append(kept, ci)
			}
		}
		s.checks = kept
	}
	// The items' tuples: what the tests read of the variables bound from k on.
	tested := make([]bool, len(r.varNames))
	for _, i := range slices.Concat(sh.filters, sh.checks) {
		for _, v := range basicVars(nil, r.body[i]) {
			tested[v] = true
		}
	}
	// Unless merged, the variables step k binds are in the tuple too, so
	// that its matches stay apart (see shareOrder).
	for v := range tested {
		if !boundBefore[k][v] && (tested[v] || !merged && boundBefore[k+1][v]) {
			sh.w = append(sh.w, int32(v))
		}
	}
	// Live variables from k on, needing the tuple's at the end instead of
	// the head's.
	needed := make([]bool, len(r.varNames))
	for _, v := range sh.w {
		needed[v] = true
	}
	for j := len(p.steps) - 1; j >= k; j-- {
		s := &p.steps[j]
		for _, i := range slices.Concat([]int{s.lit}, s.checks, s.negDyn) {
			for _, v := range basicVars(nil, r.body[i]) {
				needed[v] = true
			}
		}
		s.live = s.live[:0:0]
		for v := range needed {
			if needed[v] && boundBefore[j][v] {
				s.live = append(s.live, int32(v))
			}
		}
		s.headBound, s.bodyLive = false, nil
	}
	for v := range needed {
		if boundBefore[k][v] && (needed[v] || tested[v]) {
			sh.key = append(sh.key, int32(v))
		}
	}
	p.share = sh
	return true
}

// shareOrder returns the join order of the plan without sharing less the
// filters, and whether its items are merged by the values the tests read.
// Where that plan tests the filters last (chess, knightfight: a lookup once
// the move is bound), each head atom ors the same literals as there, one
// per match: items stay apart. Where it joins a filter before the rest
// (amazons' frame rule enumerates the cells other than the head's, then the
// moves from each), its literal is an or over one or per filter binding,
// and so are the merged items': moves merged by source cell, a hundred
// items per head atom, not 174,000.
func (e *engine) shareOrder(plain *plan, filters []int) (order []int, merged bool) {
	bound := make([]bool, plain.nvars)
	for _, s := range plain.steps {
		if slices.Contains(filters, s.lit) {
			if !patsBound(bound, plain.rule.body[s.lit]) {
				merged = true
			}
		} else {
			order = append(order, s.lit)
		}
		for _, a := range plain.rule.body[s.lit].args {
			markBound(bound, a)
		}
	}
	return order, merged
}

// mentionsUnbound reports whether a variable set in vars is not bound.
func mentionsUnbound(vars, bound []bool) bool {
	for v, x := range vars {
		if x && !bound[v] {
			return true
		}
	}
	return false
}

// passes reports whether the current binding passes the share tests.
func (e *engine) passes(bd *binding, r *nrule, sh *share) bool {
	for _, ci := range sh.checks {
		if !e.check(bd, &r.body[ci]) {
			return false
		}
	}
	for _, i := range sh.filters {
		l := &r.body[i]
		t := e.tuple[:0]
		for _, a := range l.args {
			x, ok := e.lookupInst(bd, a)
			if !ok {
				return false
			}
			t = append(t, x)
		}
		e.tuple = t
		if _, ok := e.facts[l.rel].lookup(t); !ok {
			return false
		}
	}
	return true
}
