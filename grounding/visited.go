package grounding

import (
	"slices"
	"strconv"
	"strings"
)

// dropVisited grounds a recursive relation without its list of visited
// elements when that list only forbids revisits. laikLee_hex's
//
//	(<= (connection ?x1 ?y1 ?x2 ?y2 ?c ?l) (id ?x1 ?y1 ?id)
//	    (append_el ?id ?l ?l2) (connection2 ?x1 ?y1 ?x2 ?y2 ?c ?l2))
//
// walks simple paths (append_el refuses an element already in the list),
// 2e8 of them on a 5x5 board, where a simple path exists exactly when a
// path does: connection(a, b, c, nil) is coloured reachability.
//
// The conditions, all read from the rules (visitedScc, appendOf, listType):
//   - A is a "not in, then append" relation: every rule of A applies a
//     unary fact relation E to its element (so A(e, L, L') implies E(e)),
//     and A has a rule A(e, c0, f(e, c0)) :- E(e) and a rule
//     A(e, f(h, t), f(h, t')) :- E(e), distinct(e, h), A(e, t, t') whose
//     other literals are E(h) or list types on t, t'. So A(e, L, L ++ [e])
//     holds for every list L of distinct E elements without e.
//   - A list type T holds for every list of distinct E elements, that is
//     for every length up to |E|: by a rule per length with distinct
//     variables and only E literals, or by T(f(h, t)) :- E(h), T(t).
//   - S is a component of relations with an accumulator position p[R]
//     holding a variable ?L that occurs nowhere else in the head; a rule
//     calls S at most once and positively; ?L and the result ?M of at most
//     one A(?e, ?L, ?M) occur only there, in list-type literals and at the
//     accumulator of the S call. Rules with such an A literal belong to one
//     relation R_a, and the values that R_a's head has at the positions not
//     passed unchanged to the next call of R_a (invariant positions) are a
//     function of ?e, through a fact relation D (D(u, ?e)) that the rules
//     bind ?e with: checked on D's facts.
//   - Every call of S from outside S has c0 at the accumulator.
//
// Then R(x, c0) holds exactly when R'(x) does, where R' is R without p[R],
// A(?e, ?L, ?M) replaced by E(?e) and the list-type literals left out.
// Only if: drop the list from a derivation of R. If: take a derivation of
// R' as a chain of S rules; where two steps with an A literal have the same
// element, their R_a atoms are equal (e gives the non-invariant positions),
// so the chain from the later one replaces the chain from the earlier one.
// With every element distinct, the lists c0, c0 ++ [e1], ... satisfy every
// A and list-type literal of the chain: a derivation of R(x, c0).
//
// The checks see through what keeps each relation the same: argument
// order, the cell's shape, one-rule aliases of A and E, one-rule relations
// of A's component unfolded, tautologies, a literal written twice, and
// rules of S that never apply (A and not A; dropped). After a rewrite,
// relations no keyword relation reaches any more (A and the list types)
// lose their rules, so the static phase does not enumerate lists. Runs
// before inlineChecks, which may unfold S.
func (c *compiler) dropVisited(sccs [][]int32) {
	fired := false
	tried := make([]bool, len(sccs))
	appends := map[int32]*appendRel{}
	for rel, r := range c.rels {
		if r.kw != kwNone || tried[r.scc] {
			continue
		}
		for _, ri := range r.rules {
			v := c.visitedScc(int32(rel), c.rules[ri], sccs[r.scc], appends)
			if v == nil {
				continue
			}
			tried[r.scc] = true
			c.rewriteVisited(v)
			fired = true
			break
		}
	}
	if c.dropVisitedFolded(sccs, tried, appends) {
		fired = true
	}
	if fired {
		c.dropUnreached()
	}
}

// visitedRel is a component S whose accumulator can be dropped.
type visitedRel struct {
	app *appendRel
	acc map[int32]int // p[R] for R in S
	scc []int32
	// tracks: per invariant position of R_a, the position of each member
	// that every call passes unchanged.
	tracks []map[int32]int
}

// visitedScc checks the conditions of dropVisited for the component of rel
// starting from rule nr of rel with an A literal on its accumulator.
func (c *compiler) visitedScc(rel int32, nr *nrule, scc []int32, appends map[int32]*appendRel) *visitedRel {
	inS := map[int32]bool{}
	for _, s := range scc {
		if c.rels[s].kw != kwNone || c.rels[s].demand {
			return nil
		}
		inS[s] = true
	}
	var v *visitedRel
	for _, b := range nr.body {
		if b.kind != bPos || inS[b.rel] {
			continue
		}
		app, ok := appends[b.rel]
		if !ok {
			app = c.appendOf(b.rel)
			appends[b.rel] = app
		}
		if app == nil || b.args[app.pi].v < 0 {
			continue
		}
		if p := headPos(nr, b.args[app.pi].v); p >= 0 {
			v = &visitedRel{app: app, acc: map[int32]int{rel: p}, scc: scc}
			break
		}
	}
	if v == nil || !c.accPositions(v, inS) {
		return nil
	}
	app := v.app
	elemRules := map[int32]bool{} // relations with rules that have an A literal on ?L
	for _, s := range scc {
		for _, r := range c.liveRules(s) {
			a, ok := c.visitedRule(v, s, r, inS)
			if !ok {
				return nil
			}
			if a >= 0 {
				elemRules[s] = true
			}
		}
	}
	if len(elemRules) != 1 || !elemRules[rel] {
		return nil
	}
	// Calls from outside S start with the empty list.
	for h, r := range c.rels {
		if inS[int32(h)] {
			continue
		}
		for _, ri := range r.rules {
			for _, b := range c.rules[ri].body {
				if (b.kind == bPos || b.kind == bNeg) && inS[b.rel] {
					if a := b.args[v.acc[b.rel]]; a.v >= 0 || a.t != app.empty {
						return nil
					}
				}
			}
		}
	}
	inv := c.invariantPositions(v, rel, inS)
	if inv == nil || !c.elementKey(v, rel, inv) {
		return nil
	}
	return v
}

// accPositions finds p[R] for every R of S from the calls, starting at the
// one known; it reports whether every member got one.
func (c *compiler) accPositions(v *visitedRel, inS map[int32]bool) bool {
	for changed := true; changed; {
		changed = false
		for s := range inS {
			p, ok := v.acc[s]
			if !ok {
				continue
			}
			for _, r := range c.liveRules(s) {
				if p >= len(r.headArgs) || r.headArgs[p].v < 0 {
					return false
				}
				l := r.headArgs[p].v
				m := int32(-1)
				for _, b := range r.body {
					if b.kind == bPos && b.rel == v.app.rel && b.args[v.app.pi].v == l && b.args[v.app.po].v >= 0 {
						m = b.args[v.app.po].v
					}
				}
				for _, b := range r.body {
					if b.kind != bPos || !inS[b.rel] {
						continue
					}
					q := -1
					for j, a := range b.args {
						if a.v >= 0 && (a.v == l || a.v == m) {
							if q >= 0 {
								return false
							}
							q = j
						}
					}
					if q < 0 {
						return false
					}
					if old, ok := v.acc[b.rel]; ok {
						if old != q {
							return false
						}
					} else {
						v.acc[b.rel], changed = q, true
					}
				}
			}
		}
	}
	return len(v.acc) == len(inS)
}

// visitedRule checks one rule of R in S: it returns the index of its A
// literal on the accumulator (-1: none) and whether the rule qualifies.
func (c *compiler) visitedRule(v *visitedRel, rel int32, r *nrule, inS map[int32]bool) (int, bool) {
	app := v.app
	p := v.acc[rel]
	l := r.headArgs[p].v
	for i, a := range r.headArgs {
		if i != p && slices.Contains(patVars(nil, a), l) {
			return -1, false
		}
	}
	at, m := -1, int32(-1)
	for i, b := range r.body {
		if b.kind == bPos && b.rel == app.rel && b.args[app.pi].v == l {
			if at >= 0 && sameArgs(b.args, r.body[at].args) {
				continue // mutate's duplicate: the same literal twice
			}
			e, out := b.args[app.pe].v, b.args[app.po].v
			if at >= 0 || e < 0 || out < 0 || e == l || out == l || out == e || headPos(r, out) >= 0 || headPos(r, e) == p {
				return -1, false
			}
			at, m = i, out
		}
	}
	calls := -1
	for i, b := range r.body {
		if i == at || (at >= 0 && b.kind == bPos && b.rel == app.rel && sameArgs(b.args, r.body[at].args)) {
			continue
		}
		if (b.kind == bPos || b.kind == bNeg) && inS[b.rel] {
			if calls >= 0 && b.kind == bPos && b.rel == r.body[calls].rel && sameArgs(b.args, r.body[calls].args) {
				continue // the same call twice
			}
			if b.kind == bNeg || calls >= 0 {
				return -1, false
			}
			calls = i
			q := v.acc[b.rel]
			if a := b.args[q]; a.v < 0 || (a.v != l && a.v != m) {
				return -1, false
			}
			for j, a := range b.args {
				if j != q && mentionsLM(a, l, m) {
					return -1, false
				}
			}
			continue
		}
		if b.kind == bPos && len(b.args) == 1 && b.args[0].v >= 0 && (b.args[0].v == l || b.args[0].v == m) {
			if !c.listType(app, b.rel) {
				return -1, false
			}
			continue
		}
		if basicMentions(b, l, m) {
			return -1, false
		}
	}
	return at, true
}

// sameArgs reports whether two argument lists are the same patterns.
func sameArgs(a, b []pat) bool {
	return slices.EqualFunc(a, b, samePat)
}

// deadRule reports whether r has an atom both positively and negatively
// (mutate's (or A (not A)) split into alternatives): it never applies.
func deadRule(r *nrule) bool {
	for _, b := range r.body {
		if b.kind != bPos {
			continue
		}
		for _, n := range r.body {
			if n.kind == bNeg && n.rel == b.rel && sameArgs(n.args, b.args) {
				return true
			}
		}
	}
	return false
}

// liveRules returns the rules of rel that may apply.
func (c *compiler) liveRules(rel int32) []*nrule {
	var out []*nrule
	for _, ri := range c.rels[rel].rules {
		if r := c.rules[ri]; !deadRule(r) {
			out = append(out, r)
		}
	}
	return out
}

// mentionsLM reports whether p has variable l or m (m < 0: none).
func mentionsLM(p pat, l, m int32) bool {
	for _, x := range patVars(nil, p) {
		if x == l || (m >= 0 && x == m) {
			return true
		}
	}
	return false
}

func basicMentions(b basic, l, m int32) bool {
	for _, a := range b.args {
		if mentionsLM(a, l, m) {
			return true
		}
	}
	if (b.kind == bDistinct || b.kind == bEqual) && (mentionsLM(b.a, l, m) || mentionsLM(b.b, l, m)) {
		return true
	}
	for _, s := range b.subs {
		if basicMentions(s, l, m) {
			return true
		}
	}
	return false
}

// invariantPositions returns, per position of rel, whether every chain of
// S calls from rel back to rel passes its value unchanged: a track of one
// position per member, where every call's argument at the callee's track
// position is the caller head's argument at its own. nil when S has a
// call the tracks cannot follow.
func (c *compiler) invariantPositions(v *visitedRel, rel int32, inS map[int32]bool) []bool {
	inv := make([]bool, c.rels[rel].arity)
	for q := range inv {
		if q == v.acc[rel] {
			continue
		}
		track := map[int32]int{rel: q}
		ok := true
		for changed := true; changed && ok; {
			changed = false
			for _, s := range v.scc {
				t, has := track[s]
				if !has {
					continue
				}
				for _, r := range c.liveRules(s) {
					for _, b := range r.body {
						if b.kind != bPos || !inS[b.rel] {
							continue
						}
						cand := -1
						for j, a := range b.args {
							if j != v.acc[b.rel] && samePat(a, r.headArgs[t]) {
								if old, ok := track[b.rel]; ok && old == j {
									cand = j
									break
								}
								if cand < 0 {
									cand = j
								}
							}
						}
						old, has := track[b.rel]
						switch {
						case cand < 0 || (has && old != cand):
							ok = false
						case !has:
							track[b.rel], changed = cand, true
						}
					}
				}
			}
		}
		if ok && len(track) == len(inS) {
			inv[q] = true
			v.tracks = append(v.tracks, track)
		}
	}
	return inv
}

func samePat(a, b pat) bool {
	if a.v != b.v || a.t != b.t || a.fn != b.fn || len(a.args) != len(b.args) {
		return false
	}
	for i := range a.args {
		if !samePat(a.args[i], b.args[i]) {
			return false
		}
	}
	return true
}

// elementKey checks that the element of every A literal on R_a's
// accumulator determines R_a's head at its non-invariant positions: each
// such rule binds ?e with a fact relation D whose facts, matched against
// the literal, give one head value per element.
func (c *compiler) elementKey(v *visitedRel, rel int32, inv []bool) bool {
	app := v.app
	p := v.acc[rel]
	seen := map[int32]string{}
	for _, r := range c.liveRules(rel) {
		l := r.headArgs[p].v
		e := int32(-1)
		for _, b := range r.body {
			if b.kind == bPos && b.rel == app.rel && b.args[app.pi].v == l {
				e = b.args[app.pe].v
			}
		}
		if e < 0 {
			continue
		}
		var need []int32
		var free []pat
		for q, a := range r.headArgs {
			if q != p && !inv[q] {
				need = patVars(need, a)
				free = append(free, a)
			}
		}
		keyed := false
		for _, b := range r.body {
			if b.kind != bPos || b.rel == app.rel || !slices.ContainsFunc(b.args, func(a pat) bool { return a.v == e }) {
				continue
			}
			facts, ok := c.factsOf(b.rel)
			if !ok {
				continue
			}
			var vars []int32
			for _, a := range b.args {
				vars = patVars(vars, a)
			}
			if !subsetVars(need, vars) {
				continue
			}
			if c.keyedBy(b, facts, e, free, seen) {
				keyed = true
				break
			}
		}
		if !keyed {
			return false
		}
	}
	return true
}

func subsetVars(xs, ys []int32) bool {
	for _, x := range xs {
		if !slices.Contains(ys, x) {
			return false
		}
	}
	return true
}

// keyedBy matches literal b against every fact and records, per value of
// variable e, the head values free renders to; false on two different ones.
func (c *compiler) keyedBy(b basic, facts [][]int32, e int32, free []pat, seen map[int32]string) bool {
	for _, f := range facts {
		bind := map[int32]int32{}
		ok := true
		for j, a := range b.args {
			if !c.matchPat(a, f[j], bind) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		var sb strings.Builder
		for _, a := range free {
			c.renderPat(&sb, a, bind)
			sb.WriteByte(' ')
		}
		s := sb.String()
		if old, has := seen[bind[e]]; has && old != s {
			return false
		}
		seen[bind[e]] = s
	}
	return true
}

func (c *compiler) matchPat(p pat, t int32, bind map[int32]int32) bool {
	switch {
	case p.v >= 0:
		if old, ok := bind[p.v]; ok {
			return old == t
		}
		bind[p.v] = t
		return true
	case p.t >= 0:
		return p.t == t
	}
	args := c.ts.args(t)
	if c.ts.fn[t] != p.fn || len(args) != len(p.args) {
		return false
	}
	for i, a := range p.args {
		if !c.matchPat(a, args[i], bind) {
			return false
		}
	}
	return true
}

// renderPat writes p with bound variables as their terms, spelled out so
// that a compound pattern and the ground term it builds read the same.
func (c *compiler) renderPat(sb *strings.Builder, p pat, bind map[int32]int32) {
	switch {
	case p.v >= 0:
		c.renderTerm(sb, bind[p.v])
	case p.t >= 0:
		c.renderTerm(sb, p.t)
	default:
		sb.WriteString(strconv.Itoa(int(p.fn)))
		sb.WriteByte('(')
		for _, a := range p.args {
			c.renderPat(sb, a, bind)
			sb.WriteByte(',')
		}
		sb.WriteByte(')')
	}
}

func (c *compiler) renderTerm(sb *strings.Builder, t int32) {
	sb.WriteString(strconv.Itoa(int(c.ts.fn[t])))
	args := c.ts.args(t)
	if len(args) == 0 {
		return
	}
	sb.WriteByte('(')
	for _, a := range args {
		c.renderTerm(sb, a)
		sb.WriteByte(',')
	}
	sb.WriteByte(')')
}

// rewriteVisited drops the accumulator of v's relations (see dropVisited).
func (c *compiler) rewriteVisited(v *visitedRel) {
	app := v.app
	inS := map[int32]bool{}
	for _, s := range v.scc {
		inS[s] = true
	}
	// Rules that never apply go first: they need not fit the new arity.
	dead := map[int32]bool{}
	for _, s := range v.scc {
		for _, ri := range c.rels[s].rules {
			if deadRule(c.rules[ri]) {
				dead[ri] = true
			}
		}
	}
	c.dropRules(dead)
	for h, r := range c.rels {
		for _, ri := range r.rules {
			nr := c.rules[ri]
			l, m := int32(-1), int32(-1)
			if inS[int32(h)] {
				l = nr.headArgs[v.acc[int32(h)]].v
				nr.headArgs = slices.Delete(slices.Clone(nr.headArgs), v.acc[int32(h)], v.acc[int32(h)]+1)
				for _, b := range nr.body {
					if b.kind == bPos && b.rel == app.rel && b.args[app.pi].v == l {
						m = b.args[app.po].v
					}
				}
			}
			var body []basic
			for _, b := range nr.body {
				switch {
				case l >= 0 && b.kind == bPos && b.rel == app.rel && b.args[app.pi].v == l:
					body = append(body, basic{kind: bPos, pos: b.pos, rel: app.elem, args: []pat{b.args[app.pe]}})
				case l >= 0 && b.kind == bPos && len(b.args) == 1 && !inS[b.rel] && mentionsLM(b.args[0], l, m):
					// a list type on the accumulator
				case (b.kind == bPos || b.kind == bNeg) && inS[b.rel]:
					q := v.acc[b.rel]
					b.args = slices.Delete(slices.Clone(b.args), q, q+1)
					body = append(body, b)
				default:
					body = append(body, b)
				}
			}
			nr.body = body
			if inS[int32(h)] {
				compactSlots(nr)
			}
		}
	}
	// Every atom on a shortest chain of calls is different and has the
	// same values at the tracks, so the circuit's fixpoint needs no more
	// rounds than the most atoms that share them (chainRounds).
	if c.chainKeys == nil {
		c.chainKeys = map[int32][]int{}
	}
	for _, s := range v.scc {
		key := []int{}
		for _, t := range v.tracks {
			q := t[s]
			if q > v.acc[s] {
				q--
			}
			key = append(key, q)
		}
		c.chainKeys[s] = key
	}
	for _, s := range v.scc {
		c.rels[s].arity--
		c.notef(c.rels[s].pos, "%s: argument %d is a list of visited elements that only forbids revisits: grounded without it (a path exists exactly when a simple one does)", c.rels[s].name, v.acc[s]+1)
	}
}

// dropRules removes the rules in dead and renumbers the rest, keeping
// their order.
func (c *compiler) dropRules(dead map[int32]bool) {
	if len(dead) == 0 {
		return
	}
	newID := make([]int32, len(c.rules))
	var rules []*nrule
	for i, nr := range c.rules {
		if !dead[int32(i)] {
			newID[i] = int32(len(rules))
			rules = append(rules, nr)
		}
	}
	c.rules = rules
	for _, r := range c.rels {
		kept := r.rules[:0]
		for _, ri := range r.rules {
			if !dead[ri] {
				kept = append(kept, newID[ri])
			}
		}
		r.rules = kept
	}
}

// dropUnreached removes the rules of the relations no keyword relation reaches.
func (c *compiler) dropUnreached() {
	reached := make([]bool, len(c.rels))
	var visit func(rel int32)
	visit = func(rel int32) {
		if reached[rel] {
			return
		}
		reached[rel] = true
		for _, ri := range c.rels[rel].rules {
			for _, b := range c.rules[ri].body {
				if b.kind == bPos || b.kind == bNeg {
					visit(b.rel)
				}
			}
		}
	}
	visit(c.universe)
	for rel, r := range c.rels {
		if r.kw != kwNone {
			visit(int32(rel))
		}
	}
	dead := make([]bool, len(c.rels))
	for rel := range dead {
		dead[rel] = !reached[rel]
	}
	c.dropRulesOf(dead)
}
