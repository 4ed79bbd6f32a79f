package mutate

import "github.com/gamequiv/gamequiv/grounding"

// subst is a substitution of terms for variables, built by unify.
type subst map[string]*grounding.Term

// resolve follows variable bindings until an unbound variable or a non-variable.
func (s subst) resolve(t *grounding.Term) *grounding.Term {
	for t.Var {
		b, ok := s[t.Name]
		if !ok {
			return t
		}
		t = b
	}
	return t
}

// occurs reports whether variable v occurs in t under s.
func (s subst) occurs(v string, t *grounding.Term) bool {
	t = s.resolve(t)
	if t.Var {
		return t.Name == v
	}
	for _, a := range t.Args {
		if s.occurs(v, a) {
			return true
		}
	}
	return false
}

// unify extends s to a most general unifier of a and b (with occurs check).
func (s subst) unify(a, b *grounding.Term) bool {
	a, b = s.resolve(a), s.resolve(b)
	switch {
	case a.Var && b.Var && a.Name == b.Name:
		return true
	case a.Var:
		if s.occurs(a.Name, b) {
			return false
		}
		s[a.Name] = b
		return true
	case b.Var:
		return s.unify(b, a)
	}
	if a.Name != b.Name || len(a.Args) != len(b.Args) || (a.Args == nil) != (b.Args == nil) {
		return false
	}
	for i := range a.Args {
		if !s.unify(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

// apply returns t with every bound variable replaced, recursively.
func (s subst) apply(t *grounding.Term) *grounding.Term {
	t = s.resolve(t)
	c := &grounding.Term{Pos: t.Pos, Var: t.Var, Name: t.Name}
	if t.Args != nil {
		c.Args = make([]*grounding.Term, len(t.Args))
		for i, a := range t.Args {
			c.Args[i] = s.apply(a)
		}
	}
	return c
}

// applyLit applies s to every term of l.
func (s subst) applyLit(l *grounding.Literal) *grounding.Literal {
	return mapLit(l, s.apply, s.apply)
}

// variantMap finds the renaming of b's variables that turns b into a, if b
// is a variant of a (same shape, variables matched one to one).
func variantMap(a, b *grounding.Term) (map[string]string, bool) {
	ren := map[string]string{} // b's variable -> a's
	inv := map[string]string{}
	var match func(a, b *grounding.Term) bool
	match = func(a, b *grounding.Term) bool {
		if a.Var || b.Var {
			if !a.Var || !b.Var {
				return false
			}
			if x, ok := ren[b.Name]; ok {
				return x == a.Name
			}
			if y, ok := inv[a.Name]; ok {
				return y == b.Name
			}
			ren[b.Name], inv[a.Name] = a.Name, b.Name
			return true
		}
		if a.Name != b.Name || len(a.Args) != len(b.Args) || (a.Args == nil) != (b.Args == nil) {
			return false
		}
		for i := range a.Args {
			if !match(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	}
	return ren, match(a, b)
}
