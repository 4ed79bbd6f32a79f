package mutate

import (
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// unfold replaces, in a strictly safe rule, a positive body atom A of a
// non-keyword relation r by the body of r's only rule D (when D is strictly
// safe and r does not depend on itself): D's variables are renamed apart,
// the most general unifier of A and D's head is computed, and the new rule
// is the unifier applied to the rule with A replaced by D's body. D is kept.
// Sound: this is the classic unfolding step of logic programs; with one
// non-recursive rule for r, A holds under a binding exactly when some
// instance of D's body does, and strict safety rules out the grounder's
// tolerated readings. Done only when every rule is strictly safe: the
// unifier can create ground terms the description did not have, which
// unsafe variables would range over.
func (m *mutator) unfold() bool {
	if !allStrictlySafe(m.f) {
		return false
	}
	changed := false
	for range 1 + m.rng.IntN(3) {
		if !m.unfoldOnce() {
			break
		}
		changed = true
	}
	return changed
}

func (m *mutator) unfoldOnce() bool {
	deps := dependencies(m.f)
	type site struct{ rule, lit int }
	var cands []site
	for i, r := range m.f.Rules {
		if r.Head.Name == "role" || !strictlySafe(r) {
			continue
		}
		for j, l := range r.Body {
			if l.Kind != grounding.LitAtom || keywords[l.Atom.Name] {
				continue
			}
			k := keyOf(l.Atom)
			defs := deps.rules[k]
			if len(defs) != 1 || deps.reaches(k, k) || !strictlySafe(m.f.Rules[defs[0]]) {
				continue
			}
			cands = append(cands, site{i, j})
		}
	}
	for _, c := range m.rng.Perm(len(cands)) {
		s := cands[c]
		r := m.f.Rules[s.rule]
		a := r.Body[s.lit].Atom
		d := m.renameApart(m.f.Rules[deps.rules[keyOf(a)][0]], varSet(r))
		mgu := subst{}
		if !mgu.unify(a, d.Head) {
			continue // A never holds: leave the rule alone
		}
		nr := &grounding.Rule{Pos: r.Pos, Head: mgu.apply(r.Head)}
		for j, l := range r.Body {
			if j != s.lit {
				nr.Body = append(nr.Body, mgu.applyLit(l))
				continue
			}
			for _, b := range d.Body {
				nr.Body = append(nr.Body, mgu.applyLit(b))
			}
		}
		if !strictlySafe(nr) || numAlts(nr.Body) > maxMergedAlts {
			continue
		}
		m.f.Rules[s.rule] = nr
		return true
	}
	return false
}

// fold moves a group G of body literals of a strictly safe rule into a new
// auxiliary relation: G is a connected set of positive atoms plus some
// negated, distinct or or literals whose variables those atoms bind; V are
// the variables of G that also occur in the head or the rest of the body.
// The rule gets (aux V...) in place of G and the new rule (<= (aux V...) G)
// is added. Sound: the new rule defines aux as the projection of G on V, so
// (aux V) holds exactly when G holds for some values of its other
// variables, which occur nowhere else; both rules are strictly safe, and aux
// adds no negative edge to a cycle, so stratification is kept.
func (m *mutator) fold() bool {
	changed := false
	for range 1 + m.rng.IntN(2) {
		if !m.foldOnce() {
			break
		}
		changed = true
	}
	return changed
}

func (m *mutator) foldOnce() bool {
	var cands []int
	for i, r := range m.f.Rules {
		if r.Head.Name != "role" && slices.ContainsFunc(r.Body, isAtom) && strictlySafe(r) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return false
	}
	i := cands[m.rng.IntN(len(cands))]
	r := m.f.Rules[i]
	var pos []int
	for j, l := range r.Body {
		if isAtom(l) {
			pos = append(pos, j)
		}
	}
	// Grow a connected group of positive atoms from a random one.
	group := []int{pos[m.rng.IntN(len(pos))]}
	bound := map[string]bool{}
	for _, v := range litVars(r.Body[group[0]], nil) {
		bound[v] = true
	}
	for want := 1 + m.rng.IntN(min(3, len(pos))); len(group) < want; {
		var next []int
		for _, j := range pos {
			if !slices.Contains(group, j) && slices.ContainsFunc(litVars(r.Body[j], nil), func(v string) bool { return bound[v] }) {
				next = append(next, j)
			}
		}
		if len(next) == 0 {
			break
		}
		j := next[m.rng.IntN(len(next))]
		group = append(group, j)
		for _, v := range litVars(r.Body[j], nil) {
			bound[v] = true
		}
	}
	// Add some other literals whose variables the group binds.
	for j, l := range r.Body {
		if isAtom(l) || m.rng.IntN(2) == 0 {
			continue
		}
		if !slices.ContainsFunc(litVars(l, nil), func(v string) bool { return !bound[v] }) {
			group = append(group, j)
		}
	}
	slices.Sort(group)
	// V: the group's variables that occur outside it.
	outside := map[string]bool{}
	for _, v := range termVars(r.Head, nil) {
		outside[v] = true
	}
	for j, l := range r.Body {
		if !slices.Contains(group, j) {
			for _, v := range litVars(l, nil) {
				outside[v] = true
			}
		}
	}
	var inGroup []string
	for _, j := range group {
		inGroup = litVars(r.Body[j], inGroup)
	}
	var shared []*grounding.Term
	for _, v := range firstOccurrences(inGroup) {
		if outside[v] {
			shared = append(shared, &grounding.Term{Pos: r.Pos, Var: true, Name: v})
		}
	}
	m.rng.Shuffle(len(shared), func(a, b int) { shared[a], shared[b] = shared[b], shared[a] })
	aux := &grounding.Term{Pos: r.Pos, Name: m.fresh()}
	if len(shared) > 0 {
		aux.Args = shared
	}
	def := &grounding.Rule{Pos: r.Pos, Head: cloneTerm(aux)}
	nr := &grounding.Rule{Pos: r.Pos, Head: cloneTerm(r.Head)}
	for j, l := range r.Body {
		switch {
		case j == group[0]:
			nr.Body = append(nr.Body, &grounding.Literal{Pos: l.Pos, Kind: grounding.LitAtom, Atom: cloneTerm(aux)})
			def.Body = append(def.Body, cloneLit(l))
		case slices.Contains(group, j):
			def.Body = append(def.Body, cloneLit(l))
		default:
			nr.Body = append(nr.Body, cloneLit(l))
		}
	}
	if !strictlySafe(def) || !strictlySafe(nr) {
		return false
	}
	m.f.Rules[i] = nr
	m.f.Rules = slices.Insert(m.f.Rules, m.rng.IntN(len(m.f.Rules)+1), def)
	return true
}

func isAtom(l *grounding.Literal) bool { return l.Kind == grounding.LitAtom }
