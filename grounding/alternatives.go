package grounding

// BodyLiteral is one literal of a body alternative as the grounder reads it
// (Alternatives): an atom or a distinct test, possibly negated, or an or/and
// literal whose parts are all distinct tests (negated or not), which stays
// one disjunction of tests instead of splitting the rule.
type BodyLiteral struct {
	Neg bool
	Lit *Literal
}

// Alternatives expands a rule body into the alternatives the grounder reads
// it as: and, or and not nested in any way become a disjunction of
// conjunctions of BodyLiterals, with negation pushed inward (De Morgan),
// except that a disjunction of distinct tests stays one literal. A rule is
// read as one rule per alternative. ok is false when the body has more than
// limit alternatives (the grounder's MaxRuleExpansion).
//
// Tools that rewrite descriptions use it to reason about rules exactly as
// they are grounded (which variables a positive atom binds in each
// alternative, how many rules a body becomes).
func Alternatives(body []*Literal, limit int) (alts [][]BodyLiteral, ok bool) {
	as, _, ok := bodyAlternatives(body, limit)
	if !ok {
		return nil, false
	}
	alts = make([][]BodyLiteral, len(as))
	for i, alt := range as {
		alts[i] = make([]BodyLiteral, len(alt))
		for j, a := range alt {
			alts[i][j] = BodyLiteral{Neg: a.neg, Lit: a.lit}
		}
	}
	return alts, true
}

// bodyAlternatives is Alternatives on the grounder's own literal type; past
// the limit, reached is how many alternatives the expansion had got to.
func bodyAlternatives(body []*Literal, limit int) (alts [][]aLit, reached int, ok bool) {
	alts = [][]aLit{{}}
	for _, l := range body {
		ls, ok := dnf(l, false, limit)
		if !ok {
			return nil, max(len(alts), limit+1), false
		}
		alts = product(alts, ls)
		if len(alts) > limit {
			return nil, len(alts), false
		}
	}
	return alts, len(alts), true
}
