package mutate

import (
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// maxMergedAlts bounds the alternatives of a rule that merge-or, de-morgan
// and tautology may produce, far below the grounder's MaxRuleExpansion.
const maxMergedAlts = 64

// renameVars gives the variables of every rule new names, one to one within
// the rule. Sound: a rule's meaning does not depend on its variable names.
func (m *mutator) renameVars() bool {
	changed := false
	for i, r := range m.f.Rules {
		vs := ruleVars(r)
		if len(vs) == 0 {
			continue
		}
		taken := map[string]bool{}
		ren := map[string]string{}
		for _, v := range vs {
			ren[v] = m.freshVar(taken)
		}
		m.f.Rules[i] = renameRuleVars(r, ren)
		changed = true
	}
	return changed
}

// reorderRules shuffles the rules. Sound: a description is a set of rules.
// (Roles are then declared in another order; equivalence maps roles by name.)
func (m *mutator) reorderRules() bool {
	if len(m.f.Rules) < 2 {
		return false
	}
	m.rng.Shuffle(len(m.f.Rules), func(i, j int) { m.f.Rules[i], m.f.Rules[j] = m.f.Rules[j], m.f.Rules[i] })
	return true
}

// reorderBody shuffles the literals of every body, the disjuncts of every or
// and the two sides of every distinct. Sound: conjunction, disjunction and
// inequality are commutative, and safety does not depend on literal order.
func (m *mutator) reorderBody() bool {
	changed := false
	var shuffle func(ls []*grounding.Literal)
	shuffle = func(ls []*grounding.Literal) {
		if len(ls) > 1 {
			m.rng.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
			changed = true
		}
		for _, l := range ls {
			switch l.Kind {
			case grounding.LitDistinct:
				if m.rng.IntN(2) == 0 {
					l.Args[0], l.Args[1] = l.Args[1], l.Args[0]
					changed = true
				}
			case grounding.LitAtom:
			default:
				shuffle(l.Sub)
			}
		}
	}
	for _, r := range m.f.Rules {
		shuffle(r.Body)
	}
	return changed
}

// deMorgan rewrites top-level (not (or a b ...)) into (not a) (not b) ... in
// some rules, and joins several top-level (not x) literals into
// (not (or x ...)) in others. Sound: both forms expand to the same
// alternatives, literal for literal, so even the grounder's tolerated
// readings see the same rule.
func (m *mutator) deMorgan() bool {
	var cands []int
	for i, r := range m.f.Rules {
		n := 0
		for _, l := range r.Body {
			if l.Kind == grounding.LitNot {
				n++
			}
		}
		if n >= 2 || slices.ContainsFunc(r.Body, isNotOr) {
			cands = append(cands, i)
		}
	}
	changed := false
	for _, c := range m.fewSites(len(cands)) {
		r := m.f.Rules[cands[c]]
		var split, negs []int
		for j, l := range r.Body {
			if l.Kind == grounding.LitNot {
				negs = append(negs, j)
				if isNotOr(l) {
					split = append(split, j)
				}
			}
		}
		switch {
		case len(split) > 0 && (len(negs) < 2 || m.rng.IntN(2) == 0):
			j := split[m.rng.IntN(len(split))]
			or := r.Body[j].Sub[0]
			var repl []*grounding.Literal
			for _, s := range or.Sub {
				repl = append(repl, &grounding.Literal{Pos: s.Pos, Kind: grounding.LitNot, Sub: []*grounding.Literal{s}})
			}
			r.Body = slices.Concat(r.Body[:j], repl, r.Body[j+1:])
			changed = true
		case len(negs) >= 2:
			m.rng.Shuffle(len(negs), func(a, b int) { negs[a], negs[b] = negs[b], negs[a] })
			negs = negs[:2+m.rng.IntN(len(negs)-1)]
			slices.Sort(negs)
			or := &grounding.Literal{Pos: r.Body[negs[0]].Pos, Kind: grounding.LitOr}
			for _, j := range negs {
				or.Sub = append(or.Sub, r.Body[j].Sub[0])
			}
			body := []*grounding.Literal{}
			for j, l := range r.Body {
				switch {
				case j == negs[0]:
					body = append(body, &grounding.Literal{Pos: l.Pos, Kind: grounding.LitNot, Sub: []*grounding.Literal{or}})
				case !slices.Contains(negs, j):
					body = append(body, l)
				}
			}
			r.Body = body
			changed = true
		}
	}
	return changed
}

// isNotOr reports whether l is (not (or ...)) with at least one disjunct.
func isNotOr(l *grounding.Literal) bool {
	return l.Kind == grounding.LitNot && l.Sub[0].Kind == grounding.LitOr && len(l.Sub[0].Sub) > 0
}

// splitOr replaces a rule whose body has a top-level (or d1 ... dn) by n
// rules, the i-th with di in place of the or ((and ...) disjuncts spliced in).
// Sound: the rules together have exactly the alternatives of the original.
func (m *mutator) splitOr() bool {
	var cands []int
	for i, r := range m.f.Rules {
		for _, l := range r.Body {
			if l.Kind == grounding.LitOr && len(l.Sub) > 0 {
				cands = append(cands, i)
				break
			}
		}
	}
	if len(cands) == 0 {
		return false
	}
	split := map[int]bool{}
	for _, c := range m.sites(len(cands)) {
		split[cands[c]] = true
	}
	var out []*grounding.Rule
	for i, r := range m.f.Rules {
		if !split[i] {
			out = append(out, r)
			continue
		}
		var ors []int
		for j, l := range r.Body {
			if l.Kind == grounding.LitOr && len(l.Sub) > 0 {
				ors = append(ors, j)
			}
		}
		j := ors[m.rng.IntN(len(ors))]
		for _, d := range r.Body[j].Sub {
			nr := cloneRule(r)
			repl := []*grounding.Literal{cloneLit(d)}
			if d.Kind == grounding.LitAnd {
				repl = make([]*grounding.Literal, len(d.Sub))
				for k, s := range d.Sub {
					repl[k] = cloneLit(s)
				}
			}
			nr.Body = slices.Concat(nr.Body[:j], repl, nr.Body[j+1:])
			out = append(out, nr)
		}
	}
	m.f.Rules = out
	return true
}

// mergeOr merges two strictly safe rules with the same head (up to variable
// names) whose bodies differ in one literal each, C a1 and C a2, into one
// rule with body C (or a1 a2). The second rule's other variables are renamed
// apart first. Sound: the merged rule has exactly the alternatives of the
// two rules, so every variable stays bound in each.
func (m *mutator) mergeOr() bool {
	changed := false
	for range 1 + m.rng.IntN(3) {
		if !m.mergeOnce() {
			break
		}
		changed = true
	}
	return changed
}

func (m *mutator) mergeOnce() bool {
	byHead := map[symKey][]int{}
	var heads []symKey
	for i, r := range m.f.Rules {
		if len(r.Body) == 0 || !strictlySafe(r) {
			continue
		}
		k := keyOf(r.Head)
		if byHead[k] == nil {
			heads = append(heads, k)
		}
		byHead[k] = append(byHead[k], i)
	}
	for _, hi := range m.rng.Perm(len(heads)) {
		idx := byHead[heads[hi]]
		if len(idx) < 2 {
			continue
		}
		for _, a := range m.rng.Perm(len(idx)) {
			for _, b := range m.rng.Perm(len(idx)) {
				if a == b {
					continue
				}
				i, j := idx[a], idx[b]
				if merged := m.merge(m.f.Rules[i], m.f.Rules[j]); merged != nil {
					m.f.Rules[i] = merged
					m.f.Rules = slices.Delete(m.f.Rules, j, j+1)
					return true
				}
			}
		}
	}
	return false
}

// merge returns the merge of r1 and r2 described at mergeOr, or nil.
func (m *mutator) merge(r1, r2 *grounding.Rule) *grounding.Rule {
	ren, ok := variantMap(r1.Head, r2.Head)
	if !ok {
		return nil
	}
	taken := varSet(r1)
	for _, v := range ruleVars(r2) {
		if _, ok := ren[v]; !ok {
			ren[v] = m.freshVar(taken)
		}
	}
	r2 = renameRuleVars(r2, ren)
	s1, s2 := litStrings(r1.Body), litStrings(r2.Body)
	for i1 := range s1 {
		for i2 := range s2 {
			if !sameMultiset(without(s1, i1), without(s2, i2)) {
				continue
			}
			or := &grounding.Literal{Pos: r1.Body[i1].Pos, Kind: grounding.LitOr}
			or.Sub = append(disjuncts(r1.Body[i1]), disjuncts(r2.Body[i2])...)
			nr := cloneRule(r1)
			nr.Body[i1] = or
			if numAlts(nr.Body) > maxMergedAlts || !strictlySafe(nr) {
				return nil
			}
			return nr
		}
	}
	return nil
}

func disjuncts(l *grounding.Literal) []*grounding.Literal {
	if l.Kind == grounding.LitOr && len(l.Sub) > 0 {
		out := make([]*grounding.Literal, len(l.Sub))
		for i, s := range l.Sub {
			out[i] = cloneLit(s)
		}
		return out
	}
	return []*grounding.Literal{cloneLit(l)}
}

func litStrings(ls []*grounding.Literal) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.String()
	}
	return out
}

func without(s []string, i int) []string {
	return slices.Concat(s[:i], s[i+1:])
}

func sameMultiset(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// tautology adds to some rules a literal that always holds: (distinct c d)
// for two different constants of the description (any rule but a role
// declaration); and, in strictly safe rules, (not (distinct t t)) for a
// variable or constant t, or (or A (not A)) for a positive body atom A whose
// relation does not depend on the rule's head. Sound: each literal is true
// under every binding of the rule's variables, binds nothing, and (the last
// kind) adds no negative cycle, so stratification is kept.
func (m *mutator) tautology() bool {
	var consts []string
	seen := map[string]bool{}
	for _, r := range m.f.Rules {
		walkTerms(r, func(t *grounding.Term, atom bool) {
			if !atom && !t.Var && t.Args == nil && !seen[t.Name] {
				seen[t.Name] = true
				consts = append(consts, t.Name)
			}
		})
	}
	slices.Sort(consts)
	var deps *depGraph
	changed := false
	for _, i := range m.fewSites(len(m.f.Rules)) {
		r := m.f.Rules[i]
		if r.Head.Name == "role" {
			continue
		}
		var lit *grounding.Literal
		safe := strictlySafe(r)
		switch kind := m.rng.IntN(3); {
		case kind == 1 && safe:
			t := &grounding.Term{Pos: r.Pos}
			if vs := alwaysBound(r); len(vs) > 0 && m.rng.IntN(4) != 0 {
				t.Var, t.Name = true, vs[m.rng.IntN(len(vs))]
			} else if len(consts) > 0 {
				t.Name = consts[m.rng.IntN(len(consts))]
			} else {
				continue
			}
			lit = &grounding.Literal{Pos: r.Pos, Kind: grounding.LitNot, Sub: []*grounding.Literal{
				{Pos: r.Pos, Kind: grounding.LitDistinct, Args: [2]*grounding.Term{t, cloneTerm(t)}}}}
		case kind == 2 && safe && numAlts(r.Body)*2 <= maxMergedAlts:
			if deps == nil {
				deps = dependencies(m.f)
			}
			head := keyOf(r.Head)
			var atoms []*grounding.Literal
			for _, l := range r.Body {
				if l.Kind == grounding.LitAtom {
					k := keyOf(l.Atom)
					if k != head && !deps.reaches(k, head) {
						atoms = append(atoms, l)
					}
				}
			}
			if len(atoms) == 0 {
				continue
			}
			a := atoms[m.rng.IntN(len(atoms))]
			lit = &grounding.Literal{Pos: r.Pos, Kind: grounding.LitOr, Sub: []*grounding.Literal{
				cloneLit(a),
				{Pos: r.Pos, Kind: grounding.LitNot, Sub: []*grounding.Literal{cloneLit(a)}},
			}}
		default:
			if len(consts) < 2 {
				continue
			}
			p := m.rng.Perm(len(consts))
			lit = &grounding.Literal{Pos: r.Pos, Kind: grounding.LitDistinct, Args: [2]*grounding.Term{
				{Pos: r.Pos, Name: consts[p[0]]}, {Pos: r.Pos, Name: consts[p[1]]}}}
		}
		at := m.rng.IntN(len(r.Body) + 1)
		body := slices.Insert(slices.Clone(r.Body), at, lit)
		if safe && !strictlySafe(&grounding.Rule{Head: r.Head, Body: body}) {
			continue // cannot happen by construction; never risk it
		}
		r.Body = body
		changed = true
	}
	return changed
}

// alwaysBound lists the variables of r's head and top-level positive atoms:
// in a strictly safe rule they are bound in every alternative of the body.
func alwaysBound(r *grounding.Rule) []string {
	vs := termVars(r.Head, nil)
	for _, l := range r.Body {
		if l.Kind == grounding.LitAtom {
			vs = termVars(l.Atom, vs)
		}
	}
	return firstOccurrences(vs)
}

// duplicate adds a copy of some rules (variables renamed; never a role
// declaration) and repeats a body literal of some strictly safe rules.
// Sound: a set of rules, and a conjunction, are idempotent; in a strictly
// safe rule a repeated literal changes no variable's binding.
func (m *mutator) duplicate() bool {
	changed := false
	var copies []*grounding.Rule
	for _, i := range m.fewSites(len(m.f.Rules)) {
		r := m.f.Rules[i]
		if m.rng.IntN(2) == 0 {
			if r.Head.Name != "role" {
				copies = append(copies, m.renameApart(r, map[string]bool{}))
			}
			continue
		}
		if len(r.Body) == 0 || !strictlySafe(r) {
			continue
		}
		l := cloneLit(r.Body[m.rng.IntN(len(r.Body))])
		body := slices.Insert(slices.Clone(r.Body), m.rng.IntN(len(r.Body)+1), l)
		if numAlts(body) > maxMergedAlts || !strictlySafe(&grounding.Rule{Head: r.Head, Body: body}) {
			continue
		}
		r.Body = body
		changed = true
	}
	for _, c := range copies {
		m.f.Rules = slices.Insert(m.f.Rules, m.rng.IntN(len(m.f.Rules)+1), c)
		changed = true
	}
	return changed
}
