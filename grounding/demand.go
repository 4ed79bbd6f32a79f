package grounding

// Demand-driven domains (a magic-set rewrite for one level of calls).
//
// The domain of a fluent relation is an over-approximation of its atoms
// that ignores negation; for an auxiliary relation with many arguments it
// can be far larger than what the game ever asks. chess's 7-ary
// threatened_with_capture is the case in point: its rules range over every
// owner, cell, threatened cell and ignored cell (MaxAtoms), while the legal
// rules that ask for it only ever ask about the moves they consider.
//
// For such a relation R a demand relation D_R gets, per place where R is
// called, the rule D_R(args) :- (the caller's other literals), and every rule
// of R gets D_R(head) as a first positive literal; args are the argument
// positions that every caller binds (threatened calls rook_threatens with
// the attacker's cell free). D_R's atoms are then
// exactly the tuples that the callers' joins (over the same domains) can look
// up, so R keeps every atom that a keyword function can reach: the ground
// Program is the same. D_R is a pure domain filter: in the circuit it stands
// for true.

// demandPositions returns the argument positions of fluent relation rel on
// which its domain can be restricted to its demand: rel must be an auxiliary
// relation (no keyword) that is not recursive, and a position counts when
// every call of rel has every variable there bound by the caller's other
// positive literals. None means no restriction.
func (c *compiler) demandPositions(rel int32, sccs [][]int32, calls []call) []int {
	r := c.rels[rel]
	if r.static || r.kw != kwNone || len(r.rules) == 0 || r.arity == 0 || len(calls) == 0 {
		return nil
	}
	if comp := sccs[r.scc]; len(comp) > 1 {
		return nil
	}
	ok := make([]bool, r.arity)
	for i := range ok {
		ok[i] = true
	}
	for _, cl := range calls {
		if cl.rule.head == rel {
			return nil // recursive
		}
		bound := make([]bool, len(cl.rule.varNames))
		for _, b := range cl.rule.body {
			if b.kind == bPos && b.rel != rel {
				for _, a := range b.args {
					markBound(bound, a)
				}
			}
		}
		for i, a := range cl.rule.body[cl.lit].args {
			ok[i] = ok[i] && patBound(bound, a)
		}
	}
	var pos []int
	for i, o := range ok {
		if o {
			pos = append(pos, i)
		}
	}
	return pos
}

func pick(args []pat, pos []int) []pat {
	out := make([]pat, len(pos))
	for k, i := range pos {
		out[k] = args[i]
	}
	return out
}

// call is one occurrence of a relation in a rule body.
type call struct {
	rule *nrule
	lit  int
}

// addDemand rewrites every demandable fluent relation as described above.
// It runs after analysis (static flags and components known) and adds the
// demand relations after the analysed ones, outside every component.
func (c *compiler) addDemand(sccs [][]int32) {
	calls := make([][]call, len(c.rels))
	for _, r := range c.rules {
		for i, b := range r.body {
			if b.kind == bPos || b.kind == bNeg {
				calls[b.rel] = append(calls[b.rel], call{r, i})
			}
		}
	}
	// Demand rules come from the bodies as written, before any of them gets
	// its own demand literal, so the result does not depend on the order of
	// relations.
	n := int32(len(c.rels))
	type restriction struct {
		rel, demand int32
		pos         []int
	}
	var restricted []restriction
	var demandRules []*nrule
	for rel := int32(0); rel < n; rel++ {
		pos := c.demandPositions(rel, sccs, calls[rel])
		if len(pos) == 0 {
			continue
		}
		r := c.rels[rel]
		d := c.relation(" demand "+relKey(r.name, r.arity), len(pos), r.pos)
		c.rels[d].demand = true
		c.rels[d].scc = -1
		restricted = append(restricted, restriction{rel, d, pos})
		for _, cl := range calls[rel] {
			dr := &nrule{head: d, headArgs: pick(cl.rule.body[cl.lit].args, pos), varNames: cl.rule.varNames, src: cl.rule.src}
			for j, b := range cl.rule.body {
				if j == cl.lit || (b.kind == bPos || b.kind == bNeg) && b.rel == rel {
					continue
				}
				dr.body = append(dr.body, b)
			}
			demandRules = append(demandRules, dr)
		}
	}
	for _, dr := range demandRules {
		c.rels[dr.head].rules = append(c.rels[dr.head].rules, int32(len(c.rules)))
		c.rules = append(c.rules, dr)
	}
	for _, rd := range restricted {
		for _, ri := range c.rels[rd.rel].rules {
			nr := c.rules[ri]
			nr.body = append([]basic{{kind: bPos, pos: nr.src.Pos, rel: rd.demand, args: pick(nr.headArgs, rd.pos)}}, nr.body...)
		}
	}
}
