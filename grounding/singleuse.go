package grounding

import "slices"

// inlineSingleUse unfolds single-use relations into their one caller.
// Such a relation is an auxiliary relation with one rule, pairwise
// different variables as head arguments, no recursion, and exactly one
// call in the whole description, a positive one; and it is one of
//
//   - dynamic, its call joined with a restriction its rule cannot see
//     (joinedCall),
//   - dynamic, its call covering its caller beside another literal
//     (coveringCall),
//   - dynamic, widened: a head variable only static literals bind, with
//     every variable of the caller's head in the call (widenedRule,
//     headInCall),
//   - a static alias (isAlias),
//   - static, called from a static rule whose other literals share a
//     variable with the call (sharedCall).
//
// A joined relation's atoms are a join its rule makes on its own, before
// the caller's other literals can bind any of its variables: a rule such as
//
//	(<= (aux ?a ?b ?c ?d ?e ?f ?g ?h) (true (cell ?h (p ?g ?c))) (adj ?c ?h ?f ?d) (does ?a (move ?x ?d ?f ?b ?e)))
//
// called from one next rule that binds most of those variables has an atom
// and a gate for every move from every occupied cell, most of which the
// caller never reads (gamequiv mutate's fold writes such relations; the
// original game has the same join inside the caller). Unfolding puts the
// body inside the caller, where the join planner orders it with the
// caller's literals. The reading is exactly the one before: the caller's
// call is true for the tuple iff the body is true for some value of the
// body's own variables, which the copy now ranges over (unfoldCall gives
// them fresh slots). Other static relations are left alone: the domain
// phase computes them once as tables and the circuit has no gates for them.
// Runs after inlineChecks and before dropFreeArgs and addDemand.
func (c *compiler) inlineSingleUse() {
	calls := make([]int, len(c.rels))
	joined := make([]bool, len(c.rels))
	restricted := make([]bool, len(c.rels)) // static, called from a static rule that restricts the call
	negated := make([]bool, len(c.rels))
	for _, nr := range c.rules {
		for j, b := range nr.body {
			switch b.kind {
			case bPos:
				calls[b.rel]++
				if rs := c.rels[b.rel].rules; len(rs) == 1 {
					joined[b.rel] = joinedCall(nr, j, c.rules[rs[0]]) || coveringCall(nr, j) || (c.widenedRule(c.rules[rs[0]]) && headInCall(nr, j))
					restricted[b.rel] = c.rels[nr.head].static && sharedCall(nr, j)
				}
			case bNeg:
				negated[b.rel] = true
			}
		}
	}
	dead := make([]bool, len(c.rels))
	for rel := range c.rels {
		if calls[rel] != 1 || negated[rel] || !c.isSingleUseAux(int32(rel)) {
			continue
		}
		if c.rels[rel].static {
			if !isAlias(c.rules[c.rels[rel].rules[0]]) && !restricted[rel] {
				continue
			}
		} else if !joined[rel] {
			continue
		}
		// The body moves into the caller, so the calls it makes keep their
		// counts and a relation it calls may be unfolded in turn.
		c.unfold(int32(rel))
		dead[rel] = true
	}
	c.dropRulesOf(dead)
}

// joinedCall reports whether the call at nr's body literal at is joined
// with a restriction its relation's rule def cannot see on its own:
// another positive literal of nr that binds two of the call's arguments
// whose head variables no single positive literal of def binds together.
// The rule then makes an atom for every combination of the two, most of
// which the caller drops; unfolded, the planner joins that literal first.
// A call joined on one argument at a time (a range such as (index ?i)), on
// arguments def already binds together, or with nothing gains nothing from
// unfolding and would lose the gates its atoms share.
func joinedCall(nr *nrule, at int, def *nrule) bool {
	together := func(i, j int) bool {
		vi, vj := def.headArgs[i].v, def.headArgs[j].v
		for _, b := range def.body {
			if b.kind != bPos {
				continue
			}
			var vs []int32
			for _, p := range b.args {
				vs = patVars(vs, p)
			}
			if slices.Contains(vs, vi) && slices.Contains(vs, vj) {
				return true
			}
		}
		return false
	}
	call := nr.body[at]
	for j, b := range nr.body {
		if j == at || b.kind != bPos {
			continue
		}
		var theirs []int32
		for _, p := range b.args {
			theirs = patVars(theirs, p)
		}
		var bound []int // argument positions of the call b shares a variable with
		for i, p := range call.args {
			for _, v := range patVars(nil, p) {
				if slices.Contains(theirs, v) {
					bound = append(bound, i)
					break
				}
			}
		}
		for x, i := range bound {
			for _, k := range bound[x+1:] {
				if !together(i, k) {
					return true
				}
			}
		}
	}
	return false
}

// coveringCall reports whether nr's body literal at and nr's head have the
// same variables, every variable of nr among them: the call's atoms are
// then one for one the head's (a copy the rule only filters by ranges such
// as (bit ?b)), so unfolding shares and duplicates nothing. Such a layer
// hides from dropFreeArgs that the head's arguments are free: mutate's
// fold of ruleDepthQuadratic's (not (true (step 30))) (not (distinct ?b0 0))
// (prereq31 ...) made its prereq30 a MaxAtoms.
func coveringCall(nr *nrule, at int) bool {
	mine := callVars(nr, at)
	var head []int32
	for _, p := range nr.headArgs {
		head = patVars(head, p)
	}
	for v := range nr.varNames {
		if !slices.Contains(mine, int32(v)) || !slices.Contains(head, int32(v)) {
			return false
		}
	}
	// A rule that is the call alone ((line ?p) (row ?p)) or beside literals
	// on none of its variables keeps its layer: unfolding gains nothing.
	return sharedCall(nr, at)
}

// widenedRule reports whether def, a dynamic rule, has a head variable that
// only static literals bind: its atoms are each match of its dynamic
// literals once per value of that variable, and each is a gate, where the
// caller reads it joined with its own literals (knightazons' fold of
// (true (cell ?x ?y ?s)) (distinctcell ?x ?y ?x1 ?y1) into one relation
// made 300 cell atoms into 30,000 gates: 2.8x the original's circuit).
// Unfolded, the planner joins the static literal with the caller's and the
// dynamic literal stays a factor of the head.
func (c *compiler) widenedRule(def *nrule) bool {
	var dyn, static []int32
	for _, b := range def.body {
		if b.kind != bPos {
			continue
		}
		for _, p := range b.args {
			if c.rels[b.rel].static {
				static = patVars(static, p)
			} else {
				dyn = patVars(dyn, p)
			}
		}
	}
	if len(dyn) == 0 {
		return false
	}
	for _, a := range def.headArgs {
		if a.v >= 0 && !slices.Contains(dyn, a.v) && slices.Contains(static, a.v) {
			return true
		}
	}
	return false
}

// callVars returns the variables of nr's body literal at.
func callVars(nr *nrule, at int) []int32 {
	var vs []int32
	for _, p := range nr.body[at].args {
		vs = patVars(vs, p)
	}
	return vs
}

// sharedCall reports whether another positive literal of nr shares a
// variable with its body literal at. A static relation called once from a
// static rule is then a table of its rule's whole join, of which the caller
// keeps the part its other literals allow: ad_game_2x2's seed-4 variant
// folded (subtract ?d ?size ?inv) (dist .. ?d) out of the rule that binds
// ?size to the board size, and the fold's table went past MaxAtoms with
// every size. Unfolded, the caller's join binds ?size first. Neither rule
// has gates, so the circuit is the same.
func sharedCall(nr *nrule, at int) bool {
	mine := callVars(nr, at)
	for j, b := range nr.body {
		if j == at || b.kind != bPos {
			continue
		}
		for _, p := range b.args {
			if slices.ContainsFunc(patVars(nil, p), func(v int32) bool { return slices.Contains(mine, v) }) {
				return true
			}
		}
	}
	return false
}

// headInCall reports whether every variable of nr's head occurs in its
// body literal at: each of the call's atoms then belongs to one head atom,
// so unfolding shares nothing less. A head wider than the call (chess's
// threatened over (knight_threatens ?opponent ?x ?y) and two free
// coordinates) reads each call atom for many head atoms, which unfolded
// would each repeat its join.
func headInCall(nr *nrule, at int) bool {
	mine := callVars(nr, at)
	for _, p := range nr.headArgs {
		for _, v := range patVars(nil, p) {
			if !slices.Contains(mine, v) {
				return false
			}
		}
	}
	return true
}

// isAlias reports whether nr's body is one positive literal over variables
// of its head only: unfolding it replaces one literal by one literal and
// costs no join. Only static aliases are unfolded (a dynamic one is a gate
// the circuit shares). Such aliases hide that two relations are the same where
// a rewrite compares relations by name: dropFreeArgs needs the same domain
// relation (bit) on a free argument in every rule, and mutate's fold of
// one (bit ?b) literal into its own relation broke that for
// ruleDepthQuadratic (MaxAtoms).
func isAlias(nr *nrule) bool {
	if len(nr.body) != 1 || nr.body[0].kind != bPos {
		return false
	}
	var vs []int32
	for _, p := range nr.body[0].args {
		vs = patVars(vs, p)
	}
	for _, v := range vs {
		if !slices.ContainsFunc(nr.headArgs, func(a pat) bool { return a.v == v }) {
			return false
		}
	}
	return true
}

// isSingleUseAux reports whether rel is an auxiliary relation with
// one rule whose head arguments are pairwise different variables and whose
// body does not call rel's own strongly connected component.
func (c *compiler) isSingleUseAux(rel int32) bool {
	r := c.rels[rel]
	if r.kw != kwNone || r.demand || rel == c.universe || len(r.rules) != 1 {
		return false
	}
	nr := c.rules[r.rules[0]]
	if !distinctVarHead(nr) {
		return false
	}
	for _, b := range nr.body {
		if (b.kind == bPos || b.kind == bNeg) && c.rels[b.rel].scc == r.scc {
			return false
		}
	}
	return true
}
