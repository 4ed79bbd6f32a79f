package mutate

import (
	"fmt"

	"github.com/gamequiv/gamequiv/grounding"
)

// termOp is a rewrite of terms applied consistently to a whole description:
// term rewrites a term below the atom level, atom an atom (a relation with
// its arguments), and translate maps a ground term of the description before
// the rewrite to the term after it.
type termOp interface {
	term(t *grounding.Term) *grounding.Term
	atom(t *grounding.Term) *grounding.Term
	translate(t *grounding.Term) (*grounding.Term, error)
}

// renameOp renames symbols by name, at every level. Keywords are never in names.
type renameOp struct{ names map[string]string }

func (o renameOp) term(t *grounding.Term) *grounding.Term {
	if t.Var {
		return &grounding.Term{Pos: t.Pos, Var: true, Name: t.Name}
	}
	c := &grounding.Term{Pos: t.Pos, Name: t.Name}
	if n, ok := o.names[t.Name]; ok {
		c.Name = n
	}
	if t.Args != nil {
		c.Args = make([]*grounding.Term, len(t.Args))
		for i, a := range t.Args {
			c.Args[i] = o.term(a)
		}
	}
	return c
}

func (o renameOp) atom(t *grounding.Term) *grounding.Term { return o.term(t) }

func (o renameOp) translate(t *grounding.Term) (*grounding.Term, error) { return o.term(t), nil }

// permuteOp permutes the arguments of symbols, per name and arity, at every
// level: argument i of the result is argument perm[i] of the original.
type permuteOp struct{ perm map[symKey][]int }

func (o permuteOp) term(t *grounding.Term) *grounding.Term {
	if t.Var {
		return &grounding.Term{Pos: t.Pos, Var: true, Name: t.Name}
	}
	c := &grounding.Term{Pos: t.Pos, Name: t.Name}
	if t.Args != nil {
		c.Args = make([]*grounding.Term, len(t.Args))
		p := o.perm[keyOf(t)]
		for i := range t.Args {
			j := i
			if p != nil {
				j = p[i]
			}
			c.Args[i] = o.term(t.Args[j])
		}
	}
	return c
}

func (o permuteOp) atom(t *grounding.Term) *grounding.Term { return o.term(t) }

func (o permuteOp) translate(t *grounding.Term) (*grounding.Term, error) { return o.term(t), nil }

// pairOp re-encodes the function symbol key: arguments first and second of
// every key term are replaced, at the position of the smaller of the two, by
// one argument: the term (pair a_first a_second), or, when consts is not nil,
// the constant consts[{a_first, a_second}]. Atoms keep their shape; only
// terms below the atom level are re-encoded.
type pairOp struct {
	key           symKey
	first, second int
	pair          string
	consts        map[[2]string]string
}

func (o pairOp) term(t *grounding.Term) *grounding.Term {
	c, _ := o.rewrite(t)
	return c
}

func (o pairOp) rewrite(t *grounding.Term) (*grounding.Term, error) {
	if t.Var {
		return &grounding.Term{Pos: t.Pos, Var: true, Name: t.Name}, nil
	}
	c := &grounding.Term{Pos: t.Pos, Name: t.Name}
	if t.Args == nil {
		return c, nil
	}
	args := make([]*grounding.Term, len(t.Args))
	for i, a := range t.Args {
		var err error
		if args[i], err = o.rewrite(a); err != nil {
			return nil, err
		}
	}
	if keyOf(t) != o.key {
		c.Args = args
		return c, nil
	}
	at := min(o.first, o.second)
	var joined *grounding.Term
	if o.consts != nil {
		k := [2]string{args[o.first].Name, args[o.second].Name}
		name, ok := o.consts[k]
		if !ok {
			return nil, fmt.Errorf("no constant encodes arguments %s and %s of %s", k[0], k[1], o.key)
		}
		joined = &grounding.Term{Pos: t.Pos, Name: name}
	} else {
		joined = &grounding.Term{Pos: t.Pos, Name: o.pair, Args: []*grounding.Term{args[o.first], args[o.second]}}
	}
	c.Args = make([]*grounding.Term, 0, len(args)-1)
	for i, a := range args {
		switch i {
		case at:
			c.Args = append(c.Args, joined)
		case o.first, o.second:
		default:
			c.Args = append(c.Args, a)
		}
	}
	return c, nil
}

func (o pairOp) atom(t *grounding.Term) *grounding.Term {
	c := &grounding.Term{Pos: t.Pos, Name: t.Name}
	if t.Args != nil {
		c.Args = make([]*grounding.Term, len(t.Args))
		for i, a := range t.Args {
			c.Args[i] = o.term(a)
		}
	}
	return c
}

func (o pairOp) translate(t *grounding.Term) (*grounding.Term, error) { return o.rewrite(t) }

// renameSymbols renames every relation, function and constant consistently,
// except keywords and the constants that may be goal values, to fresh names.
// Sound: a bijection on symbols maps derivations to derivations, keeps
// distinct terms distinct, and leaves the keyword structure and goal values alone.
func (m *mutator) renameSymbols() bool {
	protect := goalValueNames(m.f)
	names := map[string]string{}
	for _, s := range symbols(m.f) {
		if !keywords[s] && !protect[s] {
			names[s] = m.fresh()
		}
	}
	if len(names) == 0 {
		return false
	}
	m.applyTermOp(renameOp{names})
	for orig, cur := range m.names {
		if n, ok := names[cur]; ok {
			m.names[orig] = n
		}
	}
	paired := map[string]bool{}
	for p := range m.paired {
		if n, ok := names[p]; ok {
			p = n
		}
		paired[p] = true
	}
	m.paired = paired
	return true
}

// permuteArgs permutes the arguments of some relations and function symbols
// (per name and arity, never keywords), the same way in every occurrence.
// Sound: each permutation is a bijection on terms and atoms that commutes
// with unification.
func (m *mutator) permuteArgs() bool {
	fns, rels := functionKeys(m.f)
	seen := map[symKey]bool{}
	var cands []symKey
	for _, k := range append(fns, rels...) {
		if k.arity >= 2 && !keywords[k.name] && !seen[k] {
			seen[k] = true
			cands = append(cands, k)
		}
	}
	perm := map[symKey][]int{}
	for _, i := range m.sites(len(cands)) {
		k := cands[i]
		p := m.rng.Perm(k.arity)
		for isIdentity(p) {
			p = m.rng.Perm(k.arity)
		}
		perm[k] = p
	}
	if len(perm) == 0 {
		return false
	}
	m.applyTermOp(permuteOp{perm})
	return true
}

func isIdentity(p []int) bool {
	for i, j := range p {
		if i != j {
			return false
		}
	}
	return true
}

// pairArgs replaces two argument positions of one function symbol f/n by a
// single argument, everywhere: the nested term (p a b) of a fresh symbol p, or
// a fresh constant per pair when both positions hold constants in every
// occurrence. Sound: the encoding is injective on terms and commutes with
// unification (a pattern (f ?x ?y c) becomes (f (p ?x ?y) c)). Done only
// when f/(n-1) is unused and every rule is strictly safe, since the new
// ground terms would otherwise enter the range of unsafe variables.
func (m *mutator) pairArgs() bool {
	if !allStrictlySafe(m.f) {
		return false
	}
	fns, _ := functionKeys(m.f)
	has := map[symKey]bool{}
	for _, k := range fns {
		has[k] = true
	}
	var cands []symKey
	for _, k := range fns {
		if k.arity >= 2 && !keywords[k.name] && !m.paired[k.name] && !has[symKey{k.name, k.arity - 1}] {
			cands = append(cands, k)
		}
	}
	if len(cands) == 0 {
		return false
	}
	k := cands[m.rng.IntN(len(cands))]
	p := m.rng.Perm(k.arity)
	op := pairOp{key: k, first: p[0], second: p[1]}
	if pairs, ok := m.constantPairs(op); ok && m.rng.IntN(2) == 0 {
		op.consts = map[[2]string]string{}
		for _, pr := range pairs {
			op.consts[pr] = m.fresh()
		}
	} else {
		op.pair = m.fresh()
		m.paired[op.pair] = true
	}
	m.paired[k.name] = true
	m.applyTermOp(op)
	return true
}

// constantPairs lists the pairs of constants at op's positions of op.key
// terms, in order of first occurrence; ok is false when some occurrence has a
// variable or a compound term there.
func (m *mutator) constantPairs(op pairOp) (pairs [][2]string, ok bool) {
	ok = true
	seen := map[[2]string]bool{}
	for _, r := range m.f.Rules {
		walkTerms(r, func(t *grounding.Term, atom bool) {
			if atom || t.Var || keyOf(t) != op.key {
				return
			}
			a, b := t.Args[op.first], t.Args[op.second]
			if a.Var || b.Var || a.Args != nil || b.Args != nil {
				ok = false
				return
			}
			pr := [2]string{a.Name, b.Name}
			if !seen[pr] {
				seen[pr] = true
				pairs = append(pairs, pr)
			}
		})
	}
	return pairs, ok
}
