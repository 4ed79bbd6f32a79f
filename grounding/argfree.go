package grounding

import "slices"

// dropFreeArgs drops the argument positions of auxiliary fluent relations
// that the relation's truth does not depend on. ruleDepthExponential's
//
//	(<= (prereq2 ?b1 ?b0) (bit ?b1) (bit ?b0) (true (step 2)))
//	(<= (prereq2 ?b1 ?b0) (bit ?b1) (bit ?b0) (not (true (step 2)))
//	    (prereq3 ?b1 ?b0 0) (prereq3 ?b1 ?b0 1))
//
// holds for all bits or for none, but grounded as written prereqN has
// 2^(N-1) demanded atoms, a million by prereq20 (ruleDepthQuadratic's
// depend on their last bit only).
//
// Position i of R is free when every rule of R has pairwise different
// variables as head arguments and applies the same set D_R[i] of unary
// static relations to the head variable v_i, and v_i occurs in no other body
// literal than these and free positions j of positive calls of relations T
// with D_T[j] part of D_R[i]; R must never be called negatively. The
// largest such set of positions is found by marking positions bound until
// nothing changes. Then, by induction on derivations, R(t) holds exactly
// when every D_R[i](t_i) of a free i holds and R'(t at the other positions)
// holds, where R' is R without its free positions: in R's rules the free
// head arguments, their domain literals and the free positions of calls go.
// R becomes R' in place (its arity shrinks; its component stays), and a
// call R(t) becomes the D_R[i](t_i) of the free positions and R'(the rest);
// a domain literal on a free head variable of the calling rule's own
// relation is implied and left out. Runs after inlineChecks and before
// addDemand.
func (c *compiler) dropFreeArgs() {
	n := len(c.rels)
	calledNeg := make([]bool, n)
	for _, r := range c.rels {
		for _, ri := range r.rules {
			for _, b := range c.rules[ri].body {
				if b.kind == bNeg {
					calledNeg[b.rel] = true
				}
			}
		}
	}
	free := make([][]bool, n) // free[R][i]; nil for a relation that is no candidate
	dom := make([][][]int32, n)
	for rel, r := range c.rels {
		if r.kw != kwNone || r.static || r.demand || r.arity == 0 || len(r.rules) == 0 || calledNeg[rel] {
			continue
		}
		free[rel], dom[rel] = c.headDomains(int32(rel))
	}
	for changed := true; changed; {
		changed = false
		for rel := range c.rels {
			if free[rel] != nil && c.bindPositions(int32(rel), free, dom) {
				changed = true
			}
		}
	}
	any := false
	for rel := range free {
		if !slices.Contains(free[rel], true) {
			free[rel] = nil
		}
		any = any || free[rel] != nil
	}
	if !any {
		return
	}
	for rel, r := range c.rels {
		for _, ri := range r.rules {
			nr := c.rules[ri]
			ownFree := func(p pat) bool {
				if free[rel] == nil || p.v < 0 {
					return false
				}
				i := headPos(nr, p.v)
				return i >= 0 && free[rel][i]
			}
			var body []basic
			for _, b := range nr.body {
				if c.headDomainLit(nr, b) && ownFree(b.args[0]) {
					continue
				}
				if b.kind != bPos || free[b.rel] == nil {
					body = append(body, b)
					continue
				}
				var kept []pat
				for j, a := range b.args {
					switch {
					case !free[b.rel][j]:
						kept = append(kept, a)
					case ownFree(a):
						// implied by the head's own domain literals
					default:
						for _, d := range dom[b.rel][j] {
							body = append(body, basic{kind: bPos, pos: b.pos, rel: d, args: []pat{a}})
						}
					}
				}
				b.args = kept
				body = append(body, b)
			}
			nr.body = body
			if free[rel] != nil {
				var head []pat
				for i, a := range nr.headArgs {
					if !free[rel][i] {
						head = append(head, a)
					}
				}
				nr.headArgs = head
				compactSlots(nr)
			}
		}
	}
	for rel, r := range c.rels {
		if free[rel] != nil {
			// Chain keys (visited.go) name positions that may be gone.
			delete(c.chainKeys, int32(rel))
			r.arity = 0
			for _, f := range free[rel] {
				if !f {
					r.arity++
				}
			}
		}
	}
}

// headDomains returns, per head position of rel, whether it may be free
// and the unary static relations rel's rules apply to that head variable:
// every rule must have distinct variables as head arguments (else no
// position is free), and a position is free only when the rules agree on
// a non-empty set.
func (c *compiler) headDomains(rel int32) (free []bool, dom [][]int32) {
	free = make([]bool, c.rels[rel].arity)
	for i := range free {
		free[i] = true
	}
	for k, ri := range c.rels[rel].rules {
		nr := c.rules[ri]
		d := make([][]int32, len(nr.headArgs))
		for i, a := range nr.headArgs {
			if a.v < 0 || headPos(nr, a.v) != i {
				return nil, nil
			}
		}
		for _, b := range nr.body {
			if c.headDomainLit(nr, b) {
				i := headPos(nr, b.args[0].v)
				if !slices.Contains(d[i], b.rel) {
					d[i] = append(d[i], b.rel)
				}
			}
		}
		for i := range d {
			slices.Sort(d[i])
			if len(d[i]) == 0 || (k > 0 && !slices.Equal(dom[i], d[i])) {
				free[i] = false
			}
		}
		if k == 0 {
			dom = d
		}
	}
	return free, dom
}

// headDomainLit reports whether b is a unary static literal on a head variable of nr.
func (c *compiler) headDomainLit(nr *nrule, b basic) bool {
	return b.kind == bPos && !b.demand && len(b.args) == 1 && b.args[0].v >= 0 &&
		c.rels[b.rel].static && headPos(nr, b.args[0].v) >= 0
}

// bindPositions marks the positions of rel that its rules show are not free,
// given the positions still taken to be free; it reports whether it marked any.
func (c *compiler) bindPositions(rel int32, free [][]bool, dom [][][]int32) bool {
	marked := false
	bind := func(nr *nrule, p pat) {
		for _, v := range patVars(nil, p) {
			if i := headPos(nr, v); i >= 0 && free[rel][i] {
				free[rel][i], marked = false, true
			}
		}
	}
	var bindAll func(nr *nrule, b basic)
	bindAll = func(nr *nrule, b basic) {
		for _, a := range b.args {
			bind(nr, a)
		}
		if b.kind == bDistinct || b.kind == bEqual {
			bind(nr, b.a)
			bind(nr, b.b)
		}
		for _, s := range b.subs {
			bindAll(nr, s)
		}
	}
	for _, ri := range c.rels[rel].rules {
		nr := c.rules[ri]
		for _, b := range nr.body {
			if c.headDomainLit(nr, b) {
				continue
			}
			if b.kind != bPos || free[b.rel] == nil {
				bindAll(nr, b)
				continue
			}
			for j, a := range b.args {
				if !free[b.rel][j] {
					bind(nr, a)
					continue
				}
				if a.v >= 0 {
					if i := headPos(nr, a.v); i >= 0 && free[rel][i] && !subset(dom[b.rel][j], dom[rel][i]) {
						free[rel][i], marked = false, true
					}
					continue
				}
				bind(nr, a) // a compound: its head variables are not free
			}
		}
	}
	return marked
}

// headPos is the head position whose argument is variable slot v, or -1.
func headPos(nr *nrule, v int32) int {
	for i, a := range nr.headArgs {
		if a.v == v {
			return i
		}
	}
	return -1
}

func subset(xs, ys []int32) bool {
	for _, x := range xs {
		if !slices.Contains(ys, x) {
			return false
		}
	}
	return true
}

// compactSlots renumbers nr's variable slots so that only the ones its
// head and body use remain.
func compactSlots(nr *nrule) {
	used := make([]bool, len(nr.varNames))
	var mark func(p pat)
	mark = func(p pat) {
		for _, v := range patVars(nil, p) {
			used[v] = true
		}
	}
	var markB func(b basic)
	markB = func(b basic) {
		for _, a := range b.args {
			mark(a)
		}
		if b.kind == bDistinct || b.kind == bEqual {
			mark(b.a)
			mark(b.b)
		}
		for _, s := range b.subs {
			markB(s)
		}
	}
	for _, a := range nr.headArgs {
		mark(a)
	}
	for _, b := range nr.body {
		markB(b)
	}
	sub := make([]pat, len(nr.varNames))
	var names []string
	for s := range nr.varNames {
		if used[s] {
			sub[s] = pat{v: int32(len(names)), t: -1}
			names = append(names, nr.varNames[s])
		}
	}
	nr.headArgs = substPats(nr.headArgs, sub)
	for i, b := range nr.body {
		nr.body[i] = substBasic(b, sub)
	}
	nr.varNames = names
}

// substBasic replaces the variable slots of b by sub's patterns.
func substBasic(b basic, sub []pat) basic {
	b.args = substPats(b.args, sub)
	if b.kind == bDistinct || b.kind == bEqual {
		b.a, b.b = substPat(b.a, sub), substPat(b.b, sub)
	}
	if b.subs != nil {
		subs := make([]basic, len(b.subs))
		for i, s := range b.subs {
			subs[i] = substBasic(s, sub)
		}
		b.subs = subs
	}
	return b
}
