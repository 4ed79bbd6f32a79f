package mutate

import "github.com/gamequiv/gamequiv/grounding"

// maxAlts bounds the alternatives a body may expand to before it counts as
// too complex to transform (and is left alone).
const maxAlts = 256

// alit is one literal of an alternative after negation is pushed inward: an
// atom or a distinct, possibly negated.
type alit struct {
	neg bool
	lit *grounding.Literal
}

// alternatives expands a body into its disjunctive normal form, the way the
// grounder reads or, and and not. ok is false beyond maxAlts alternatives.
func alternatives(body []*grounding.Literal) (alts [][]alit, ok bool) {
	alts = [][]alit{{}}
	for _, l := range body {
		ls, ok := dnf(l, false)
		if !ok {
			return nil, false
		}
		alts = product(alts, ls)
		if len(alts) > maxAlts {
			return nil, false
		}
	}
	return alts, true
}

func dnf(l *grounding.Literal, neg bool) ([][]alit, bool) {
	switch l.Kind {
	case grounding.LitAtom, grounding.LitDistinct:
		return [][]alit{{{neg: neg, lit: l}}}, true
	case grounding.LitNot:
		return dnf(l.Sub[0], !neg)
	}
	if (l.Kind == grounding.LitAnd) != neg { // a conjunction
		out := [][]alit{{}}
		for _, s := range l.Sub {
			alts, ok := dnf(s, neg)
			if !ok {
				return nil, false
			}
			out = product(out, alts)
			if len(out) > maxAlts {
				return nil, false
			}
		}
		return out, true
	}
	var out [][]alit
	for _, s := range l.Sub {
		alts, ok := dnf(s, neg)
		if !ok {
			return nil, false
		}
		out = append(out, alts...)
		if len(out) > maxAlts {
			return nil, false
		}
	}
	return out, true
}

func product(xs, ys [][]alit) [][]alit {
	out := make([][]alit, 0, len(xs)*len(ys))
	for _, x := range xs {
		for _, y := range ys {
			c := make([]alit, 0, len(x)+len(y))
			out = append(out, append(append(c, x...), y...))
		}
	}
	return out
}

// strictlySafe reports whether, in every alternative of r's body, each
// variable of the head, of a negated literal and of a distinct occurs in a
// positive atom of that alternative. Such a rule uses none of the grounder's
// tolerated readings (unbound role variables, variables local to a negation,
// unsafe static rules), so rewriting its body cannot change how it is read.
func strictlySafe(r *grounding.Rule) bool {
	alts, ok := alternatives(r.Body)
	if !ok {
		return false
	}
	head := termVars(r.Head, nil)
	for _, alt := range alts {
		bound := map[string]bool{}
		for _, a := range alt {
			if !a.neg && a.lit.Kind == grounding.LitAtom {
				for _, v := range termVars(a.lit.Atom, nil) {
					bound[v] = true
				}
			}
		}
		for _, v := range head {
			if !bound[v] {
				return false
			}
		}
		for _, a := range alt {
			for _, v := range litVars(a.lit, nil) {
				if !bound[v] {
					return false
				}
			}
		}
	}
	return true
}

// allStrictlySafe reports whether every rule of f is strictly safe, which
// means the grounder never reads a variable as ranging over every ground term
// of the description; only then may new ground terms be introduced.
func allStrictlySafe(f *grounding.File) bool {
	for _, r := range f.Rules {
		if !strictlySafe(r) {
			return false
		}
	}
	return true
}

// numAlts counts the alternatives of a body, or returns maxAlts+1 when there are more.
func numAlts(body []*grounding.Literal) int {
	alts, ok := alternatives(body)
	if !ok {
		return maxAlts + 1
	}
	return len(alts)
}

// depGraph is the relation dependency graph of a description: an edge from
// each rule head to every relation in its body, whatever the polarity.
type depGraph struct {
	edges map[symKey][]symKey
	rules map[symKey][]int // indices of the rules defining each relation
}

func dependencies(f *grounding.File) *depGraph {
	g := &depGraph{edges: map[symKey][]symKey{}, rules: map[symKey][]int{}}
	for i, r := range f.Rules {
		h := keyOf(r.Head)
		g.rules[h] = append(g.rules[h], i)
		var lit func(l *grounding.Literal)
		lit = func(l *grounding.Literal) {
			switch l.Kind {
			case grounding.LitAtom:
				g.edges[h] = append(g.edges[h], keyOf(l.Atom))
			case grounding.LitDistinct:
			default:
				for _, s := range l.Sub {
					lit(s)
				}
			}
		}
		for _, l := range r.Body {
			lit(l)
		}
	}
	return g
}

// reaches reports whether a path of one edge or more leads from a to b.
func (g *depGraph) reaches(a, b symKey) bool {
	seen := map[symKey]bool{}
	stack := append([]symKey(nil), g.edges[a]...)
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if k == b {
			return true
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		stack = append(stack, g.edges[k]...)
	}
	return false
}
