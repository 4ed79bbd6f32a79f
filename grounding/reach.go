package grounding

// dropUnreachable removes the rules of every relation that no keyword
// relation depends on, directly or through other relations. Such a relation
// defines nothing of the game, and grounding it can cost everything: no
// caller demands its atoms (demand.go), so its domain is the full join of
// its body. A `gamequiv mutate` unfold leaves the unfolded relation's rules
// behind; in ruleDepthQuadratic that left a 38-ary relation over 2^38 bit
// vectors. The ground Program is the same, since it holds keyword functions
// only. Errors in the dropped rules are still reported: compile and analyze
// have run.
func (c *compiler) dropUnreachable() {
	reach := make([]bool, len(c.rels))
	var stack []int32
	for i, r := range c.rels {
		if r.kw != kwNone {
			reach[i] = true
			stack = append(stack, int32(i))
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, ri := range c.rels[v].rules {
			for _, b := range c.rules[ri].body {
				if (b.kind == bPos || b.kind == bNeg) && !reach[b.rel] {
					reach[b.rel] = true
					stack = append(stack, b.rel)
				}
			}
		}
	}
	dead := make([]bool, len(c.rels))
	for i, r := range c.rels {
		dead[i] = !reach[i] && len(r.rules) > 0
	}
	c.dropRulesOf(dead)
}
