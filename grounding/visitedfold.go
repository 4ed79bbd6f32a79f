package grounding

import "slices"

// dropVisitedFolded gives dropVisited a second look at each component it
// did not rewrite and that appends to a list: gamequiv mutate's fold can
// move the element's lookup and the recursive call of R_a's rule into a new
// relation of S, so that the element is bound by a call of S, not by a fact
// literal of the appending rule, and the element-key condition cannot be
// checked rule by rule (laikLee_hex's seed-23 variant:
// (connection .. ?l) :- (aux ?id ?l2 ..) (append_el ?id ?l ?l2) with
// (aux ..) :- (id ?x ?y ?id) (connection2 .. ?l2)). The one-rule members
// of S called exactly once, positively, by another rule are unfolded into
// that call (unfoldSingleUseIn); the program reads the same, as every atom
// of such a member is an instance of its one rule and only that call
// reads it. The conditions are then checked on the unfolded component,
// so the proof of dropVisited applies to it unchanged. The unfolding is
// kept only when the rewrite fires: a component it does not fire on gets
// its rules back as they were, so every other Program stays the same.
// It reports whether it rewrote a component.
func (c *compiler) dropVisitedFolded(sccs [][]int32, tried []bool, appends map[int32]*appendRel) bool {
	fired := false
	for i, scc := range sccs {
		if tried[i] || len(scc) < 2 || !c.appendsIn(scc, appends) {
			continue
		}
		snap := c.saveRules()
		members := c.unfoldSingleUseIn(scc)
		if len(members) == len(scc) {
			continue // nothing unfolded: dropVisited has seen this component
		}
		if v := c.visitedIn(members, appends); v != nil {
			tried[i] = true
			c.rewriteVisited(v)
			fired = true
			continue
		}
		c.restoreRules(snap)
	}
	return fired
}

// appendsIn reports whether some rule of scc calls a "not in, then append"
// relation outside scc: only then can dropVisited fire on it.
func (c *compiler) appendsIn(scc []int32, appends map[int32]*appendRel) bool {
	for _, s := range scc {
		if c.rels[s].kw != kwNone {
			return false
		}
	}
	for _, s := range scc {
		for _, ri := range c.rels[s].rules {
			for _, b := range c.rules[ri].body {
				if b.kind != bPos || c.rels[b.rel].scc == c.rels[s].scc {
					continue
				}
				app, ok := appends[b.rel]
				if !ok {
					app = c.appendOf(b.rel)
					appends[b.rel] = app
				}
				if app != nil {
					return true
				}
			}
		}
	}
	return false
}

// visitedIn tries every rule of the members as the appending rule of
// dropVisited's conditions, as dropVisited does.
func (c *compiler) visitedIn(members []int32, appends map[int32]*appendRel) *visitedRel {
	for _, rel := range members {
		for _, ri := range c.rels[rel].rules {
			if v := c.visitedScc(rel, c.rules[ri], members, appends); v != nil {
				return v
			}
		}
	}
	return nil
}

// unfoldSingleUseIn unfolds, one at a time, the members of scc with one
// rule whose head arguments are pairwise different variables that the
// whole description calls exactly once, positively, from a rule of another
// relation; it returns the members that keep rules. Each step removes a
// relation, so it ends.
func (c *compiler) unfoldSingleUseIn(scc []int32) []int32 {
	for {
		calls := map[int32]int{}
		caller := map[int32]int32{}
		negated := map[int32]bool{}
		for h, r := range c.rels {
			for _, ri := range r.rules {
				for _, b := range c.rules[ri].body {
					switch b.kind {
					case bPos:
						calls[b.rel]++
						caller[b.rel] = int32(h)
					case bNeg:
						negated[b.rel] = true
					}
				}
			}
		}
		next := int32(-1)
		for _, s := range scc {
			r := c.rels[s]
			if r.kw != kwNone || r.demand || s == c.universe || len(r.rules) != 1 ||
				calls[s] != 1 || negated[s] || caller[s] == s || !distinctVarHead(c.rules[r.rules[0]]) {
				continue
			}
			next = s
			break
		}
		if next < 0 {
			break
		}
		c.unfold(next)
		dead := make([]bool, len(c.rels))
		dead[next] = true
		c.dropRulesOf(dead)
	}
	var out []int32
	for _, s := range scc {
		if len(c.rels[s].rules) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// savedRules is the rule list of a compiler and of each relation.
type savedRules struct {
	rules []*nrule
	rels  [][]int32
}

// saveRules copies what unfold and dropRulesOf change (they replace rules,
// append rules and renumber the relations' rule lists in place).
func (c *compiler) saveRules() savedRules {
	s := savedRules{rules: slices.Clone(c.rules), rels: make([][]int32, len(c.rels))}
	for i, r := range c.rels {
		s.rels[i] = slices.Clone(r.rules)
	}
	return s
}

func (c *compiler) restoreRules(s savedRules) {
	c.rules = s.rules
	for i, r := range c.rels {
		r.rules = s.rels[i]
	}
}
