package grounding

import "slices"

// The "not in, then append" relations and the list types that dropVisited
// (visited.go) reads from their rules.

// appendRel is a recognised "not in, then append" relation: positions pe
// (element), pi (list in) and po (list out); lists are cells (element,
// rest) ending in the ground term empty; elem is the unary fact relation E
// of its elements, and size the number of E's facts.
type appendRel struct {
	rel        int32
	pe, pi, po int
	cell       pat // a list cell, with cellElem and cellTail holes
	empty      int32
	elem       int32
	size       int
	types      map[int32]bool // list types checked: T -> holds for every list
}

// factsOf returns the distinct ground tuples of rel when every rule of rel
// is a ground fact, possibly under tests of ground terms.
func (c *compiler) factsOf(rel int32) ([][]int32, bool) {
	r := c.rels[rel]
	if r.kw != kwNone || len(r.rules) == 0 {
		return nil, false
	}
	var out [][]int32
	for _, ri := range r.rules {
		nr := c.rules[ri]
		holds := true
		for _, b := range nr.body {
			if !c.groundTest(b) {
				return nil, false
			}
			holds = holds && c.trueTest(b)
		}
		if !holds {
			continue // a fact under a test that fails
		}
		t := make([]int32, len(nr.headArgs))
		for i, a := range nr.headArgs {
			if a.t < 0 {
				return nil, false
			}
			t[i] = a.t
		}
		if !slices.ContainsFunc(out, func(u []int32) bool { return slices.Equal(u, t) }) {
			out = append(out, t)
		}
	}
	return out, true
}

// appendOf recognises rel as a "not in, then append" relation, or returns nil.
func (c *compiler) appendOf(rel int32) *appendRel {
	r := c.rels[rel]
	if r.kw != kwNone || r.arity != 3 || !r.static {
		return nil
	}
	for _, perm := range [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		app := &appendRel{rel: rel, pe: perm[0], pi: perm[1], po: perm[2], elem: -1, types: map[int32]bool{}}
		if c.appendBase(app) && c.appendStep(app) && c.appendSound(app) {
			return app
		}
	}
	return c.appendAlias(rel)
}

// appendAlias recognises rel(x, y, z) :- A(a permutation of x, y, z) for
// a recognised A (mutate's fold around the call): the same relation with
// its positions renamed.
func (c *compiler) appendAlias(rel int32) *appendRel {
	r := c.rels[rel]
	if len(r.rules) != 1 {
		return nil
	}
	nr := c.rules[r.rules[0]]
	var call *basic
	for i, b := range nr.body {
		if c.trueTest(b) {
			continue
		}
		if call != nil || b.kind != bPos || b.rel == rel || c.rels[b.rel].scc == r.scc {
			return nil
		}
		call = &nr.body[i]
	}
	if call == nil || len(call.args) != 3 {
		return nil
	}
	pos := make([]int, 3)
	for j, a := range call.args {
		if a.v < 0 {
			return nil
		}
		if pos[j] = headPos(nr, a.v); pos[j] < 0 {
			return nil
		}
	}
	if pos[0] == pos[1] || pos[0] == pos[2] || pos[1] == pos[2] {
		return nil
	}
	for _, a := range nr.headArgs {
		if a.v < 0 {
			return nil
		}
	}
	inner := c.appendOf(call.rel)
	if inner == nil {
		return nil
	}
	app := *inner
	app.rel, app.pe, app.pi, app.po = rel, pos[inner.pe], pos[inner.pi], pos[inner.po]
	return &app
}

// maxAliasDepth bounds how many one-rule aliases of a unary relation
// (fold of a fold) unaryAlias and coversElem follow; a longer chain is
// not recognised, which only leaves the accumulator in place.
const maxAliasDepth = 8

// Holes of a list cell template (appendRel.cell).
const (
	cellElem = -2
	cellTail = -3
)

// appendBase finds A(e, c0, cell(e, c0)) :- E(e) and sets cell, empty,
// elem and size. The cell is any pattern with the element and the tail
// once each (pair-args wraps (list ?e nil) as (list (pq nil ?e))).
func (c *compiler) appendBase(app *appendRel) bool {
	for _, ri := range c.rels[app.rel].rules {
		r := c.rules[ri]
		e, in, out := r.headArgs[app.pe], r.headArgs[app.pi], r.headArgs[app.po]
		if e.v < 0 || in.t < 0 {
			continue
		}
		ne, nt := 0, 0
		cell := cellTemplate(out, e.v, in.t, &ne, &nt)
		if ne != 1 || nt != 1 || cell.v >= 0 {
			continue
		}
		elem := int32(-1)
		for _, b := range r.body {
			if c.trueTest(b) {
				continue
			}
			if !c.elemLit(b, e.v) || (elem >= 0 && b.rel != elem) {
				elem = -1
				break
			}
			elem = b.rel
		}
		if elem < 0 {
			continue
		}
		elem = c.unaryAlias(elem)
		facts, isFacts := c.factsOf(elem)
		if !isFacts || len(facts) == 0 || len(facts[0]) != 1 {
			continue
		}
		app.cell, app.empty, app.elem, app.size = cell, in.t, elem, len(facts)
		return true
	}
	return false
}

// cellTemplate copies p with variable e as cellElem and the ground term
// empty as cellTail, counting both.
func cellTemplate(p pat, e, empty int32, ne, nt *int) pat {
	switch {
	case p.v == e:
		*ne++
		return pat{v: cellElem, t: -1}
	case p.t == empty:
		*nt++
		return pat{v: cellTail, t: -1}
	case p.v >= 0 || p.t >= 0:
		return p
	}
	out := pat{v: -1, t: -1, fn: p.fn, args: make([]pat, len(p.args))}
	for i, a := range p.args {
		out.args[i] = cellTemplate(a, e, empty, ne, nt)
	}
	return out
}

// splitCell matches p against the cell template and returns the patterns
// at its element and tail.
func splitCell(tmpl, p pat, h, t *pat) bool {
	switch {
	case tmpl.v == cellElem:
		*h = p
		return true
	case tmpl.v == cellTail:
		*t = p
		return true
	case tmpl.v >= 0:
		return false // a template holds no other variables
	case tmpl.t >= 0:
		return p.t == tmpl.t
	}
	if p.v >= 0 || p.t >= 0 || p.fn != tmpl.fn || len(p.args) != len(tmpl.args) {
		return false
	}
	for i := range p.args {
		if !splitCell(tmpl.args[i], p.args[i], h, t) {
			return false
		}
	}
	return true
}

// consOf splits p into the variables at the cell's element and tail; -1s
// when it is not such a cell.
func (app *appendRel) consOf(p pat) (h, t int32) {
	var hp, tp pat
	if !splitCell(app.cell, p, &hp, &tp) || hp.v < 0 || tp.v < 0 {
		return -1, -1
	}
	return hp.v, tp.v
}

// trueTest reports whether b is a test that always holds (mutate's
// tautologies: (distinct 2 el23), (not (distinct ?x ?x))).
func (c *compiler) trueTest(b basic) bool {
	switch b.kind {
	case bDistinct, bEqual:
		if b.kind == bEqual && samePat(b.a, b.b) {
			return true // (not (distinct ?x ?x))
		}
		if b.a.v >= 0 || b.b.v >= 0 || b.a.args != nil || b.b.args != nil || b.a.t < 0 || b.b.t < 0 {
			return false
		}
		return (b.a.t != b.b.t) == (b.kind == bDistinct)
	case bAny:
		return slices.ContainsFunc(b.subs, c.trueTest)
	}
	return false
}

// groundTest reports whether b tests ground terms only.
func (c *compiler) groundTest(b basic) bool {
	switch b.kind {
	case bDistinct, bEqual:
		return b.a.t >= 0 && b.b.t >= 0
	case bAny:
		for _, s := range b.subs {
			if !c.groundTest(s) {
				return false
			}
		}
		return true
	}
	return false
}

// elemLit reports whether b is a positive unary static literal on variable v.
func (c *compiler) elemLit(b basic, v int32) bool {
	return b.kind == bPos && len(b.args) == 1 && b.args[0].v == v && c.rels[b.rel].static
}

// unaryAlias follows rel(?x) :- F(?x), the only rule of rel, to F
// (mutate's fold), so that both read as one relation.
func (c *compiler) unaryAlias(rel int32) int32 {
	for range maxAliasDepth {
		r := c.rels[rel]
		if r.kw != kwNone || r.arity != 1 || len(r.rules) != 1 {
			return rel
		}
		nr := c.rules[r.rules[0]]
		x := nr.headArgs[0].v
		next := int32(-1)
		for _, b := range nr.body {
			switch {
			case c.trueTest(b):
			case next < 0 && c.elemLit(b, x) && b.rel != rel:
				next = b.rel
			default:
				return rel
			}
		}
		if x < 0 || next < 0 {
			return rel
		}
		rel = next
	}
	return rel
}

// coversElem reports whether the unary relation rel holds for every
// element of E: E itself, or a rule rel(?x) whose body applies only such
// relations to ?x (mutate's fold: (<= (lufe ?x) (le ?x))).
func (c *compiler) coversElem(app *appendRel, rel int32, depth int) bool {
	if rel == app.elem {
		return true
	}
	r := c.rels[rel]
	if depth > maxAliasDepth || r.kw != kwNone || r.arity != 1 || !r.static {
		return false
	}
	for _, ri := range r.rules {
		nr := c.rules[ri]
		x := nr.headArgs[0].v
		if x < 0 || len(nr.body) == 0 {
			continue
		}
		ok := true
		for _, b := range nr.body {
			if !c.trueTest(b) && !(c.elemLit(b, x) && c.coversElem(app, b.rel, depth+1)) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// appendStep finds A(e, cell(h, t), cell(h, t')) :- distinct(e, h),
// A(e, t, t') with only element literals on e, h (relations covering E)
// and list types on t, t' besides.
func (c *compiler) appendStep(app *appendRel) bool {
	for _, ri := range c.rels[app.rel].rules {
		r := c.rules[ri]
		e := r.headArgs[app.pe].v
		h, t := app.consOf(r.headArgs[app.pi])
		h2, t2 := app.consOf(r.headArgs[app.po])
		if e < 0 || h < 0 || h2 != h || t2 < 0 || len(slices.Compact(sortedVars(e, h, t, t2))) != 4 {
			continue
		}
		hasD, hasA := false, false
		ok := true
		for _, b := range c.unfoldedBody(app, r) {
			switch {
			case c.trueTest(b):
			case b.kind == bPos && len(b.args) == 1 && (b.args[0].v == e || b.args[0].v == h):
				ok = ok && c.coversElem(app, b.rel, 0)
			case isDistinctPair(b, e, h):
				hasD = true
			case b.kind == bPos && b.rel == app.rel && b.args[app.pe].v == e && b.args[app.pi].v == t && b.args[app.po].v == t2:
				hasA = true
			case b.kind == bPos && len(b.args) == 1 && (b.args[0].v == t || b.args[0].v == t2) && b.rel != app.rel:
				ok = ok && c.listType(app, b.rel)
			default:
				ok = false
			}
		}
		if ok && hasD && hasA {
			return true
		}
	}
	return false
}

// unfoldedBody returns r's body with every call of a one-rule relation of
// A's component replaced by that rule's body (mutate's fold moves A's
// recursive call into such a relation), which keeps A the same. The
// callee's own variables get slots past r's.
func (c *compiler) unfoldedBody(app *appendRel, r *nrule) []basic {
	var out []basic
	next := int32(len(r.varNames))
	for _, b := range r.body {
		x := c.rels[b.rel]
		if b.kind != bPos || b.rel == app.rel || x.kw != kwNone || x.scc != c.rels[app.rel].scc || len(x.rules) != 1 {
			out = append(out, b)
			continue
		}
		d := c.rules[x.rules[0]]
		sub := make([]pat, len(d.varNames))
		for i := range sub {
			sub[i] = pat{v: -1, t: -1}
		}
		ok := true
		for i, a := range d.headArgs {
			if a.v < 0 || sub[a.v].v >= 0 || sub[a.v].t >= 0 || sub[a.v].args != nil {
				ok = false
				break
			}
			sub[a.v] = b.args[i]
		}
		if !ok {
			out = append(out, b)
			continue
		}
		for i := range sub {
			if sub[i].v < 0 && sub[i].t < 0 && sub[i].args == nil {
				sub[i] = pat{v: next, t: -1}
				next++
			}
		}
		for _, db := range d.body {
			out = append(out, substBasic(db, sub))
		}
	}
	return out
}

func sortedVars(vs ...int32) []int32 {
	slices.Sort(vs)
	return vs
}

func isDistinctPair(b basic, x, y int32) bool {
	if b.kind == bAny && len(b.subs) == 1 {
		b = b.subs[0]
	}
	return b.kind == bDistinct && ((b.a.v == x && b.b.v == y) || (b.a.v == y && b.b.v == x))
}

// appendSound checks that A(e, L, L') implies E(e): every rule of A
// applies E to its element or calls A with the same element (by induction
// on derivations).
func (c *compiler) appendSound(app *appendRel) bool {
	for _, ri := range c.ruleList(app.rel) {
		e := ri.headArgs[app.pe].v
		if e < 0 || !slices.ContainsFunc(c.unfoldedBody(app, ri), func(b basic) bool {
			return b.kind == bPos && (c.unaryAlias(b.rel) == app.elem && b.args[0].v == e || b.rel == app.rel && b.args[app.pe].v == e)
		}) {
			return false
		}
	}
	return true
}

// ruleList returns the rules of rel.
func (c *compiler) ruleList(rel int32) []*nrule {
	out := make([]*nrule, len(c.rels[rel].rules))
	for i, ri := range c.rels[rel].rules {
		out[i] = c.rules[ri]
	}
	return out
}

// listType reports whether the unary static relation T holds for every
// list of distinct elements of E (lengths 0 to |E|).
func (c *compiler) listType(app *appendRel, rel int32) bool {
	if ok, done := app.types[rel]; done {
		return ok
	}
	app.types[rel] = false // a list type that needs itself is not shown yet
	r := c.rels[rel]
	if r.kw != kwNone || r.arity != 1 || !r.static {
		return false
	}
	covered := make([]bool, app.size+1)
	recursive := false
	for _, ri := range r.rules {
		nr := c.rules[ri]
		a := nr.headArgs[0]
		if a.t == app.empty && !slices.ContainsFunc(nr.body, func(b basic) bool { return !c.trueTest(b) }) {
			covered[0] = true
			continue
		}
		if h, t := app.consOf(a); h >= 0 && h != t && c.recursiveType(app, rel, nr, h, t) {
			recursive = true
			continue
		}
		if k, ok := c.skeleton(app, nr); ok && k <= app.size {
			covered[k] = true
		}
	}
	ok := covered[0]
	for k := 1; k <= app.size && ok; k++ {
		ok = covered[k] || recursive
	}
	app.types[rel] = ok
	return ok
}

// recursiveType reports whether nr is T(cell(h, t)) :- E(h), T(t) or less.
func (c *compiler) recursiveType(app *appendRel, rel int32, nr *nrule, h, t int32) bool {
	for _, b := range nr.body {
		if c.trueTest(b) {
			continue
		}
		if b.kind != bPos || len(b.args) != 1 {
			return false
		}
		if !(b.args[0].v == h && c.coversElem(app, b.rel, 0)) && !(b.rel == rel && b.args[0].v == t) {
			return false
		}
	}
	return true
}

// skeleton returns k when nr is T(cell(v1, cell(v2, ... cell(vk, c0))))
// with distinct variables and only element literals on them in the body.
func (c *compiler) skeleton(app *appendRel, nr *nrule) (int, bool) {
	var vs []int32
	p := nr.headArgs[0]
	for p.t != app.empty {
		var h, t pat
		if !splitCell(app.cell, p, &h, &t) || h.v < 0 || slices.Contains(vs, h.v) {
			return 0, false
		}
		vs = append(vs, h.v)
		p = t
	}
	for _, b := range nr.body {
		if c.trueTest(b) {
			continue
		}
		if b.kind != bPos || len(b.args) != 1 || !slices.Contains(vs, b.args[0].v) || !c.coversElem(app, b.rel, 0) {
			return 0, false
		}
	}
	return len(vs), true
}
