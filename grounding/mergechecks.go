package grounding

import (
	"slices"
	"strconv"
	"strings"
)

// mergeChecks joins two rules of one dynamic relation that are the same
// rule up to a renaming of their variables but for one distinct test each
// (or a disjunction of distinct tests): r1 = H :- B, t1 and
// r2 = σ(H :- B), t2 with σ a bijection of variables become
// H :- B, (or t1 σ⁻¹(t2)). normalize keeps a disjunction of tests as one
// literal (checksOnly) because split into alternatives it repeats the
// rule's whole join once per test; `gamequiv mutate`'s split-or writes it
// as two rules all the same, and racer's legal_speed ("the players have to
// move somewhere") then grounded to 1.52x its original's circuit. Exact:
// every variable of t2 occurs in the rest of r2 and every variable of t1 in
// the rest of r1 (checked, covers), so
// ∃(B ∧ t1) ∨ ∃σ(B ∧ σ⁻¹t2) = ∃(B ∧ (t1 ∨ σ⁻¹t2)) with the same head.
// A rule that is a copy of another (the same tests too) is dropped. Tests
// with a negated distinct stay apart (hasEqual), and so do static
// relations: they are tables without gates, and merging only reorders
// their tuples. Where one of the two rules calls a single-use static
// relation (mutate's fold of its static literals), the rule is also
// compared with that relation unfolded (unfoldCall, exact), and the
// unfolding is kept when the rules merge (racer's seed-5 variant: 2.31x
// its original's circuit before). The renaming is searched by
// backtracking over the literals, within maxMergeSteps matching steps per
// pair of rules (beyond it the pair stays as written). Runs after
// inlineSingleUse and before dropFreeArgs and addDemand.
func (c *compiler) mergeChecks() {
	single := c.singleUseStatic()
	dead := map[int32]bool{}
	deadRel := make([]bool, len(c.rels))
	for _, rel := range c.rels {
		if len(rel.rules) < 2 || rel.static {
			continue
		}
		// Each rule as written and, where it calls single-use static
		// relations, with them unfolded (mutate's fold of static literals
		// out of one of the two rules: racer's seed 5); the unfolding is
		// kept only where it lets the rule merge.
		type form struct {
			r     *nrule
			shape string
			rels  []int32 // the static relations unfolded into r
		}
		forms := make([][]form, len(rel.rules))
		for k, ri := range rel.rules {
			nr := c.rules[ri]
			forms[k] = []form{{r: nr, shape: ruleShape(nr)}}
			if u, rels := c.unfoldStatic(nr, single); u != nil {
				forms[k] = append(forms[k], form{r: u, shape: ruleShape(u), rels: rels})
			}
		}
		for i, ri := range rel.rules {
			if dead[ri] {
				continue
			}
		next:
			for j := i + 1; j < len(rel.rules); j++ {
				rj := rel.rules[j]
				if dead[rj] {
					continue
				}
				for _, a := range forms[i] {
					for _, b := range forms[j] {
						if a.shape == "" || a.shape != b.shape {
							continue
						}
						if c.mergeSteps >= maxMergeTotalSteps {
							continue // past the pass's budget: pairs stay apart
						}
						m, steps := mergeRules(a.r, b.r, maxMergeSteps)
						c.mergeSteps += steps
						if m == nil {
							continue
						}
						c.rules[ri] = m
						forms[i] = []form{{r: m, shape: ruleShape(m)}}
						dead[rj] = true
						for _, s := range append(a.rels, b.rels...) {
							deadRel[s] = true
						}
						continue next
					}
				}
			}
		}
	}
	c.dropRules(dead)
	c.dropRulesOf(deadRel)
}

// singleUseStatic returns the static relations inlineSingleUse's
// conditions allow to unfold into their one caller: one rule with
// pairwise different head variables, no recursion, exactly one call in
// the description, a positive one.
func (c *compiler) singleUseStatic() []bool {
	calls := make([]int, len(c.rels))
	negated := make([]bool, len(c.rels))
	for _, nr := range c.rules {
		for _, b := range nr.body {
			switch b.kind {
			case bPos:
				calls[b.rel]++
			case bNeg:
				negated[b.rel] = true
			}
		}
	}
	out := make([]bool, len(c.rels))
	for rel, r := range c.rels {
		out[rel] = r.static && calls[rel] == 1 && !negated[rel] && c.isSingleUseAux(int32(rel))
	}
	return out
}

// unfoldStatic returns nr with each call of a relation in single unfolded
// (unfoldCall: exact), and those relations; nil if it calls none.
func (c *compiler) unfoldStatic(nr *nrule, single []bool) (*nrule, []int32) {
	var rels []int32
	for {
		at := slices.IndexFunc(nr.body, func(b basic) bool { return b.kind == bPos && single[b.rel] })
		if at < 0 {
			break
		}
		rel := nr.body[at].rel
		nr = c.unfoldCall(nr, at, c.rules[c.rels[rel].rules[0]])
		rels = append(rels, rel)
	}
	if rels == nil {
		return nil, nil
	}
	return nr, rels
}

// maxMergeSteps bounds the literal matchings mergeRules tries for one pair
// of rules (bodies with many literals of one relation could otherwise take
// exponential time); a pair beyond it is not merged.
const maxMergeSteps = 20_000

// maxMergeTotalSteps bounds the matchings of the whole pass (about a second
// of CPU): relations of hundreds of rules of one shape that fail to match
// only late made the pass quadratic in rules times maxMergeSteps (review
// of issue-var22: 200 rules, 27 CPU s, past the grounding timeout). Past
// it no further pair is merged; merging is only a simplification.
const maxMergeTotalSteps = 1 << 24

// isTest reports whether b is a test literal mergeChecks can join into a
// disjunction.
func isTest(b basic) bool {
	return b.kind == bDistinct || b.kind == bEqual || b.kind == bAny
}

// ruleShape returns a key that two rules mergeRules can join share: the
// head relation, the sorted kinds and relations of the atom literals and
// the number of tests; "" for a rule without tests.
func ruleShape(r *nrule) string {
	var lits []string
	tests := 0
	for _, b := range r.body {
		if isTest(b) {
			tests++
			continue
		}
		lits = append(lits, strconv.Itoa(int(b.kind))+":"+strconv.Itoa(int(b.rel)))
	}
	if tests == 0 {
		return ""
	}
	slices.Sort(lits)
	return strconv.Itoa(int(r.head)) + "|" + strconv.Itoa(tests) + "|" + strings.Join(lits, ",")
}

// renaming is a partial bijection from the variables of one rule (b) to
// those of another (a), with a trail to undo bindings.
type renaming struct {
	ab, ba []int32
	trail  []int32 // b's variables bound, in order
	steps  int     // literal matchings tried
	budget int     // steps allowed
}

func newRenaming(a, b *nrule) *renaming {
	rn := &renaming{ab: make([]int32, len(b.varNames)), ba: make([]int32, len(a.varNames))}
	for i := range rn.ab {
		rn.ab[i] = -1
	}
	for i := range rn.ba {
		rn.ba[i] = -1
	}
	return rn
}

func (rn *renaming) undo(mark int) {
	for _, v := range rn.trail[mark:] {
		rn.ba[rn.ab[v]] = -1
		rn.ab[v] = -1
	}
	rn.trail = rn.trail[:mark]
}

// pat matches pattern pb of rule b to pa of rule a, extending the renaming;
// on failure the caller undoes to its mark.
func (rn *renaming) pat(pa, pb pat) bool {
	switch {
	case pb.v >= 0:
		if pa.v < 0 {
			return false
		}
		if w := rn.ab[pb.v]; w >= 0 {
			return w == pa.v
		}
		if rn.ba[pa.v] >= 0 {
			return false
		}
		rn.ab[pb.v], rn.ba[pa.v] = pa.v, pb.v
		rn.trail = append(rn.trail, pb.v)
		return true
	case pb.t >= 0:
		return pa.v < 0 && pa.t == pb.t
	}
	if pa.v >= 0 || pa.t >= 0 || pa.fn != pb.fn || len(pa.args) != len(pb.args) {
		return false
	}
	for i := range pa.args {
		if !rn.pat(pa.args[i], pb.args[i]) {
			return false
		}
	}
	return true
}

// lit matches literal lb of rule b to la of rule a (distinct and its
// negation in either argument order; a disjunction sub by sub).
func (rn *renaming) lit(la, lb basic) bool {
	if la.kind != lb.kind || la.demand != lb.demand {
		return false
	}
	mark := len(rn.trail)
	switch la.kind {
	case bPos, bNeg:
		if la.rel != lb.rel || len(la.args) != len(lb.args) {
			return false
		}
		for i := range la.args {
			if !rn.pat(la.args[i], lb.args[i]) {
				rn.undo(mark)
				return false
			}
		}
		return true
	case bDistinct, bEqual:
		if rn.pat(la.a, lb.a) && rn.pat(la.b, lb.b) {
			return true
		}
		rn.undo(mark)
		if rn.pat(la.a, lb.b) && rn.pat(la.b, lb.a) {
			return true
		}
		rn.undo(mark)
		return false
	case bAny:
		if len(la.subs) != len(lb.subs) {
			return false
		}
		for i := range la.subs {
			if !rn.lit(la.subs[i], lb.subs[i]) {
				rn.undo(mark)
				return false
			}
		}
		return true
	}
	return false
}

// body matches the literals of a at order[k:] to distinct literals of b
// not used yet, by backtracking, within rn.budget steps in all.
func (rn *renaming) body(a, b *nrule, order []int, k int, used []bool) bool {
	if k == len(order) {
		return true
	}
	la := a.body[order[k]]
	for j, lb := range b.body {
		if used[j] {
			continue
		}
		if rn.steps++; rn.steps > rn.budget {
			return false
		}
		mark := len(rn.trail)
		if !rn.lit(la, lb) {
			continue
		}
		used[j] = true
		if rn.body(a, b, order, k+1, used) {
			return true
		}
		used[j] = false
		rn.undo(mark)
		if rn.steps > rn.budget {
			return false
		}
	}
	return false
}

// mergeRules returns a and b merged as mergeChecks describes, or nil, and
// the literal matchings it tried; beyond budget of them it gives up (nil).
func mergeRules(a, b *nrule, budget int) (*nrule, int) {
	if a.head != b.head || len(a.body) != len(b.body) || len(a.headArgs) != len(b.headArgs) || len(a.unsafe) > 0 || len(b.unsafe) > 0 {
		return nil, 0
	}
	steps := 0
	for ia, ta := range a.body {
		if !isTest(ta) {
			continue
		}
		for ib, tb := range b.body {
			if !isTest(tb) {
				continue
			}
			rn := newRenaming(a, b)
			rn.steps, rn.budget = steps, budget
			ok := true
			for i := range a.headArgs {
				if !rn.pat(a.headArgs[i], b.headArgs[i]) {
					ok = false
					break
				}
			}
			// Atoms first (they bind), tests after.
			var order []int
			for i, l := range a.body {
				if i != ia && !isTest(l) {
					order = append(order, i)
				}
			}
			for i, l := range a.body {
				if i != ia && isTest(l) {
					order = append(order, i)
				}
			}
			used := make([]bool, len(b.body))
			used[ib] = true
			ok = ok && rn.body(a, b, order, 0, used)
			steps = rn.steps
			if steps > budget {
				return nil, steps
			}
			if !ok {
				continue
			}
			sub, ok := rn.renameTest(tb)
			if !ok || !rn.covers(ta) {
				continue
			}
			m := &nrule{head: a.head, headArgs: a.headArgs, varNames: a.varNames, src: a.src}
			m.body = slices.Clone(a.body)
			if testKey(a, ta) == testKey(a, sub) {
				return m, steps // b is a copy of a
			}
			if hasEqual(ta) || hasEqual(tb) {
				continue
			}
			m.body[ia] = orTests(a, ta, sub)
			return m, steps
		}
	}
	return nil, steps
}

// renameTest writes test literal t of rule b over the variables of rule a;
// false if a variable of t is not renamed (it occurs in no other literal).
func (rn *renaming) renameTest(t basic) (basic, bool) {
	var rp func(p pat) (pat, bool)
	rp = func(p pat) (pat, bool) {
		switch {
		case p.v >= 0:
			w := rn.ab[p.v]
			return pat{v: w, t: -1}, w >= 0
		case p.t >= 0:
			return p, true
		}
		q := pat{v: -1, t: -1, fn: p.fn, args: make([]pat, len(p.args))}
		for i, x := range p.args {
			y, ok := rp(x)
			if !ok {
				return pat{}, false
			}
			q.args[i] = y
		}
		return q, true
	}
	out := t
	if t.kind == bAny {
		out.subs = make([]basic, len(t.subs))
		for i, s := range t.subs {
			r, ok := rn.renameTest(s)
			if !ok {
				return basic{}, false
			}
			out.subs[i] = r
		}
		return out, true
	}
	var ok1, ok2 bool
	out.a, ok1 = rp(t.a)
	out.b, ok2 = rp(t.b)
	return out, ok1 && ok2
}

// covers reports whether every variable of test t of rule a is the image
// of one of b's (occurs in a literal matched): the disjunct from b then
// reads no variable of a that b's body does not bind.
func (rn *renaming) covers(t basic) bool {
	var vs []int32
	if t.kind == bAny {
		for _, s := range t.subs {
			vs = patVars(patVars(vs, s.a), s.b)
		}
	} else {
		vs = patVars(patVars(vs, t.a), t.b)
	}
	for _, v := range vs {
		if rn.ba[v] < 0 {
			return false
		}
	}
	return true
}

// hasEqual reports whether test t holds a negated distinct: such a test
// pins a variable to one value, so the rules of a disjunction of them each
// join less than the disjunction would (duplicateStateSmall's
// move-distinguished rules grew by two gates merged), and they stay apart.
func hasEqual(t basic) bool {
	return t.kind == bEqual || t.kind == bAny && slices.ContainsFunc(t.subs, func(s basic) bool { return s.kind == bEqual })
}

// testKey writes test t of rule r with r's variable slots, distinct's two
// sides in a fixed order, and a disjunction's subs sorted, so that two
// tests that say the same of r's variables have the same key.
func testKey(r *nrule, t basic) string {
	if t.kind == bAny {
		var subs []string
		for _, s := range t.subs {
			subs = append(subs, testKey(r, s))
		}
		slices.Sort(subs)
		subs = slices.Compact(subs)
		if len(subs) == 1 {
			return subs[0]
		}
		return "any[" + strings.Join(subs, "|") + "]"
	}
	var x, y strings.Builder
	writeSlotPat(&x, t.a)
	writeSlotPat(&y, t.b)
	p, q := x.String(), y.String()
	if q < p {
		p, q = q, p
	}
	return strconv.Itoa(int(t.kind)) + p + q
}

func writeSlotPat(sb *strings.Builder, p pat) {
	sb.WriteByte(' ')
	switch {
	case p.v >= 0:
		sb.WriteString("v" + strconv.Itoa(int(p.v)))
	case p.t >= 0:
		sb.WriteString("t" + strconv.Itoa(int(p.t)))
	default:
		sb.WriteString("(f" + strconv.Itoa(int(p.fn)))
		for _, a := range p.args {
			writeSlotPat(sb, a)
		}
		sb.WriteByte(')')
	}
}

// orTests is the disjunction of two tests of rule r as one bAny literal
// (at x's position), each test once.
func orTests(r *nrule, x, y basic) basic {
	out := basic{kind: bAny, pos: x.pos}
	seen := map[string]bool{}
	for _, t := range []basic{x, y} {
		subs := []basic{t}
		if t.kind == bAny {
			subs = t.subs
		}
		for _, s := range subs {
			if k := testKey(r, s); !seen[k] {
				seen[k] = true
				out.subs = append(out.subs, s)
			}
		}
	}
	return out
}

// dropRepeatedAtoms removes a positive body literal that repeats another
// of the same rule exactly (same relation, same arguments): A ∧ A = A.
// mutate's duplicate writes such a copy; in chess's frame rule
// (true (cell ?x ?y ?p)) twice made the join of seed 3's next rules run
// past MaxInstances where the original grounds in 36 CPU s.
func (c *compiler) dropRepeatedAtoms() {
	for _, nr := range c.rules {
		var seen []string
		var sb strings.Builder
		body := nr.body[:0:0]
		for _, b := range nr.body {
			if b.kind == bPos && !b.demand {
				sb.Reset()
				sb.WriteString(strconv.Itoa(int(b.rel)))
				for _, a := range b.args {
					writeSlotPat(&sb, a)
				}
				if k := sb.String(); slices.Contains(seen, k) {
					continue
				} else {
					seen = append(seen, k)
				}
			}
			body = append(body, b)
		}
		if len(body) < len(nr.body) {
			nr.body = body
		}
	}
}
