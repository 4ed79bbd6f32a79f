package grounding

import "fmt"

// maxInlineRules bounds the rules of a check relation that inlineChecks
// unfolds: each of a caller's calls multiplies its copies by this many.
const maxInlineRules = 4

// inlineChecks unfolds check relations into their callers. A check relation
// is an auxiliary relation whose rules test their head variables with
// distinct and nothing else, such as minichess's
//
//	(<= (distpair ?w ?x ?y ?z) (distinct ?w ?x))
//	(<= (distpair ?w ?x ?y ?z) (distinct ?y ?z))
//
// Every head variable its test does not mention is unsafe and ranges over
// every ground term of the description (resolveUnsafe has warned about each
// and added the universe literal that says so), so the relation's atoms are
// a product of the whole universe: more than any limit allows, while its
// callers only ever ask about the few tuples they bind. A positive call
// p(t1..tn) is replaced by the body of each rule of p with ti for its i-th
// head variable, one copy of the calling rule per rule of p; the universe
// literals come along, so the reading is exactly the one before. The
// relation itself is then dropped. Relations that are called negatively, or
// whose unfolding would copy a rule beyond MaxRuleExpansion, are left alone.
// Runs after resolveUnsafe and before addDemand.
func (c *compiler) inlineChecks() {
	dead := make([]bool, len(c.rels))
	for rel := range c.rels {
		if !c.isCheckRelation(int32(rel)) || !c.inlinable(int32(rel)) {
			continue
		}
		c.unfold(int32(rel))
		dead[rel] = true
	}
	c.dropRulesOf(dead)
}

// isCheckRelation reports whether rel is an auxiliary relation with at most
// maxInlineRules rules, each with pairwise different variables as head
// arguments and only tests and universe literals in its body.
func (c *compiler) isCheckRelation(rel int32) bool {
	r := c.rels[rel]
	if r.kw != kwNone || r.demand || rel == c.universe || len(r.rules) == 0 || len(r.rules) > maxInlineRules {
		return false
	}
	for _, ri := range r.rules {
		nr := c.rules[ri]
		if !distinctVarHead(nr) {
			return false
		}
		for _, b := range nr.body {
			switch b.kind {
			case bDistinct, bEqual, bAny:
			case bPos:
				if b.rel != c.universe {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// distinctVarHead reports whether nr's head arguments are pairwise
// different variables.
func distinctVarHead(nr *nrule) bool {
	seen := map[int32]bool{}
	for _, a := range nr.headArgs {
		if a.v < 0 || seen[a.v] {
			return false
		}
		seen[a.v] = true
	}
	return true
}

// inlinable reports whether every call of rel is positive and unfolding it
// keeps each calling rule's copies within MaxRuleExpansion.
func (c *compiler) inlinable(rel int32) bool {
	k := len(c.rels[rel].rules)
	copies := map[*Rule]int{} // normalized rules per source rule
	calls := map[*Rule]int{}
	called := false
	for _, r := range c.rels {
		for _, ri := range r.rules {
			nr := c.rules[ri]
			copies[nr.src]++
			for _, b := range nr.body {
				if (b.kind == bPos || b.kind == bNeg) && b.rel == rel {
					if b.kind == bNeg {
						return false
					}
					calls[nr.src]++
					called = true
				}
			}
		}
	}
	if !called {
		return false // nothing to gain, and a relation no one calls costs nothing
	}
	for src, n := range calls {
		total := copies[src]
		for range n {
			total *= k
			if total > c.lim.MaxRuleExpansion {
				return false
			}
		}
	}
	return true
}

// unfold replaces every call of the check relation rel by its rules' bodies.
func (c *compiler) unfold(rel int32) {
	defs := c.rels[rel].rules
	for h := range c.rels {
		hr := c.rels[h]
		for i := 0; i < len(hr.rules); i++ {
			nr := c.rules[hr.rules[i]]
			at := -1
			for j, b := range nr.body {
				if b.kind == bPos && b.rel == rel {
					at = j
					break
				}
			}
			if at < 0 {
				continue
			}
			// The first copy takes the rule's place; the others are new
			// rules of the same head, visited again by this loop for the
			// calls they still hold.
			for d, di := range defs {
				cp := c.unfoldCall(nr, at, c.rules[di])
				if d == 0 {
					c.rules[hr.rules[i]] = cp
					continue
				}
				hr.rules = append(hr.rules, int32(len(c.rules)))
				c.rules = append(c.rules, cp)
			}
			i-- // the rule in place may hold another call
		}
	}
}

// unfoldCall copies nr with its body literal at replaced by def's body, def's
// head variables read as the call's arguments and its other variables given
// fresh slots of the copy.
func (c *compiler) unfoldCall(nr *nrule, at int, def *nrule) *nrule {
	call := nr.body[at]
	cp := &nrule{head: nr.head, headArgs: nr.headArgs, varNames: append([]string(nil), nr.varNames...), src: nr.src}
	sub := make([]pat, len(def.varNames))
	set := make([]bool, len(def.varNames))
	for i, a := range def.headArgs {
		sub[a.v], set[a.v] = call.args[i], true
	}
	for s := range sub {
		if !set[s] {
			// Not a head variable: an unsafe variable of def's own body.
			sub[s] = pat{v: int32(len(cp.varNames)), t: -1}
			cp.varNames = append(cp.varNames, fmt.Sprintf("%s %s", c.rels[def.head].name, def.varNames[s]))
		}
	}
	cp.body = append(cp.body, nr.body[:at]...)
	for _, b := range def.body {
		b = substBasic(b, sub)
		b.pos = call.pos
		cp.body = append(cp.body, b)
	}
	cp.body = append(cp.body, nr.body[at+1:]...)
	return cp
}

func substPats(ps []pat, sub []pat) []pat {
	if ps == nil {
		return nil
	}
	out := make([]pat, len(ps))
	for i, p := range ps {
		out[i] = substPat(p, sub)
	}
	return out
}

// substPat replaces variable slots of p by sub's patterns.
func substPat(p pat, sub []pat) pat {
	switch {
	case p.v >= 0:
		return sub[p.v]
	case p.t >= 0 || p.args == nil:
		return p
	}
	return pat{v: -1, t: -1, fn: p.fn, args: substPats(p.args, sub)}
}

// dropRulesOf removes the rules of the dead relations and renumbers the rest,
// keeping their order.
func (c *compiler) dropRulesOf(dead []bool) {
	any := false
	for _, d := range dead {
		any = any || d
	}
	if !any {
		return
	}
	keep := make([]bool, len(c.rules))
	for h, r := range c.rels {
		if dead[h] {
			r.rules = nil
			continue
		}
		for _, ri := range r.rules {
			keep[ri] = true
		}
	}
	newID := make([]int32, len(c.rules))
	var rules []*nrule
	for i, nr := range c.rules {
		if keep[i] {
			newID[i] = int32(len(rules))
			rules = append(rules, nr)
		}
	}
	c.rules = rules
	for _, r := range c.rels {
		for i, ri := range r.rules {
			r.rules[i] = newID[ri]
		}
	}
}
