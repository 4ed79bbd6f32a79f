package grounding

// analyze computes the strongly connected components of the relation
// dependency graph (head -> body relations) in evaluation order, checks
// stratification and the keyword restrictions, and marks static relations.
func (c *compiler) analyze() (sccs [][]int32) {
	n := len(c.rels)
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int32
	next := int32(0)
	var visit func(v int32)
	visit = func(v int32) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, ri := range c.rels[v].rules {
			for _, b := range c.rules[ri].body {
				if b.kind != bPos && b.kind != bNeg {
					continue
				}
				w := b.rel
				if index[w] < 0 {
					visit(w)
					low[v] = min(low[v], low[w])
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
			}
		}
		if low[v] == index[v] {
			var comp []int32
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				c.rels[w].scc = int32(len(sccs))
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			sccs = append(sccs, comp)
		}
	}
	for v := range c.rels {
		if index[v] < 0 {
			visit(int32(v))
		}
	}

	// Tarjan emits a component after every component it depends on, so one
	// pass in emission order propagates dependence on true and does.
	onTrue := make([]bool, n)
	onDoes := make([]bool, n)
	onTrue[c.kwRel[kwTrue]] = true
	onDoes[c.kwRel[kwDoes]] = true
	for _, comp := range sccs {
		t, d := false, false
		for _, v := range comp {
			t = t || onTrue[v]
			d = d || onDoes[v]
			for _, ri := range c.rels[v].rules {
				for _, b := range c.rules[ri].body {
					if b.kind == bPos || b.kind == bNeg {
						t = t || onTrue[b.rel]
						d = d || onDoes[b.rel]
						if b.kind == bNeg && c.rels[b.rel].scc == c.rels[v].scc {
							c.errorf(b.pos, "unstratified negation: %s depends negatively on itself (through %s)", c.rels[v].name, c.rels[b.rel].name)
						}
					}
				}
			}
		}
		for _, v := range comp {
			onTrue[v], onDoes[v] = t, d
			c.rels[v].static = !t && !d
		}
	}

	// Keyword restrictions, reported at the body literal that brings in the
	// dependency. A literal over role, init, base or input is skipped: such a
	// relation is reported at its own rules.
	mustBeStatic := func(k keyword) bool { return k == kwRole || k == kwInit || k == kwBase || k == kwInput }
	for _, r := range c.rels {
		if !mustBeStatic(r.kw) && r.kw != kwLegal && r.kw != kwGoal && r.kw != kwTerminal {
			continue
		}
		for _, ri := range r.rules {
			for _, b := range c.rules[ri].body {
				if (b.kind != bPos && b.kind != bNeg) || mustBeStatic(c.rels[b.rel].kw) {
					continue
				}
				what := ""
				switch {
				case mustBeStatic(r.kw) && onTrue[b.rel]:
					what = "true"
				case onDoes[b.rel]:
					what = "does"
				}
				if what == "" {
					continue
				}
				via := ""
				if c.rels[b.rel].name != what {
					via = " (through " + c.rels[b.rel].name + ")"
				}
				c.errorf(b.pos, "%s must not depend on %s%s", r.name, what, via)
			}
		}
	}
	return sccs
}
