package mutate

import "github.com/gamequiv/gamequiv/grounding"

// maxAlts bounds the alternatives a body may expand to before it counts as
// too complex to transform (and is left alone).
const maxAlts = 256

// alternatives expands a body the way the grounder reads or, and and not
// (grounding.Alternatives). ok is false beyond maxAlts alternatives.
func alternatives(body []*grounding.Literal) ([][]grounding.BodyLiteral, bool) {
	return grounding.Alternatives(body, maxAlts)
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
			if !a.Neg && a.Lit.Kind == grounding.LitAtom {
				for _, v := range termVars(a.Lit.Atom, nil) {
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
			for _, v := range litVars(a.Lit, nil) {
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
