package mutate

import (
	"slices"
	"strconv"

	"github.com/gamequiv/gamequiv/grounding"
)

// keywords are the GDL relation names with a fixed meaning, and reserved the
// logical operators. Neither is ever renamed, permuted or re-encoded.
var keywords = map[string]bool{
	"role": true, "init": true, "true": true, "next": true, "legal": true, "does": true,
	"goal": true, "terminal": true, "base": true, "input": true,
	"distinct": true, "not": true, "or": true, "and": true, "<=": true,
}

// symKey names a relation or function symbol by name and arity: GDL reads
// f/1 and f/2 as different symbols.
type symKey struct {
	name  string
	arity int
}

// String renders the key as name/arity.
func (k symKey) String() string { return k.name + "/" + strconv.Itoa(k.arity) }

func keyOf(t *grounding.Term) symKey { return symKey{t.Name, len(t.Args)} }

// cloneTerm returns a deep copy of t.
func cloneTerm(t *grounding.Term) *grounding.Term {
	c := &grounding.Term{Pos: t.Pos, Var: t.Var, Name: t.Name}
	if t.Args != nil {
		c.Args = make([]*grounding.Term, len(t.Args))
		for i, a := range t.Args {
			c.Args[i] = cloneTerm(a)
		}
	}
	return c
}

// cloneLit returns a deep copy of l.
func cloneLit(l *grounding.Literal) *grounding.Literal {
	c := &grounding.Literal{Pos: l.Pos, Kind: l.Kind}
	switch l.Kind {
	case grounding.LitAtom:
		c.Atom = cloneTerm(l.Atom)
	case grounding.LitDistinct:
		c.Args = [2]*grounding.Term{cloneTerm(l.Args[0]), cloneTerm(l.Args[1])}
	default:
		c.Sub = make([]*grounding.Literal, len(l.Sub))
		for i, s := range l.Sub {
			c.Sub[i] = cloneLit(s)
		}
	}
	return c
}

// cloneRule returns a deep copy of r.
func cloneRule(r *grounding.Rule) *grounding.Rule {
	c := &grounding.Rule{Pos: r.Pos, Head: cloneTerm(r.Head)}
	if len(r.Body) > 0 {
		c.Body = make([]*grounding.Literal, len(r.Body))
		for i, l := range r.Body {
			c.Body[i] = cloneLit(l)
		}
	}
	return c
}

// cloneFile returns a deep copy of f's rules (warnings are dropped: their
// positions would not fit the variant).
func cloneFile(f *grounding.File) *grounding.File {
	c := &grounding.File{Name: f.Name, Rules: make([]*grounding.Rule, len(f.Rules))}
	for i, r := range f.Rules {
		c.Rules[i] = cloneRule(r)
	}
	return c
}

// termVars appends the variables of t to dst (with repetitions).
func termVars(t *grounding.Term, dst []string) []string {
	if t.Var {
		return append(dst, t.Name)
	}
	for _, a := range t.Args {
		dst = termVars(a, dst)
	}
	return dst
}

// litVars appends the variables of l to dst (with repetitions).
func litVars(l *grounding.Literal, dst []string) []string {
	switch l.Kind {
	case grounding.LitAtom:
		return termVars(l.Atom, dst)
	case grounding.LitDistinct:
		return termVars(l.Args[1], termVars(l.Args[0], dst))
	}
	for _, s := range l.Sub {
		dst = litVars(s, dst)
	}
	return dst
}

// ruleVars lists the variables of r once each, in order of first occurrence.
func ruleVars(r *grounding.Rule) []string {
	all := termVars(r.Head, nil)
	for _, l := range r.Body {
		all = litVars(l, all)
	}
	return firstOccurrences(all)
}

// firstOccurrences removes repetitions, keeping the first occurrence of each.
func firstOccurrences(vs []string) []string {
	seen := map[string]bool{}
	out := vs[:0:0]
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// mapRule rebuilds r with atom applied to its head and every body atom, and
// term applied to the arguments of distinct literals.
func mapRule(r *grounding.Rule, atom, term func(*grounding.Term) *grounding.Term) *grounding.Rule {
	c := &grounding.Rule{Pos: r.Pos, Head: atom(r.Head)}
	if len(r.Body) > 0 {
		c.Body = make([]*grounding.Literal, len(r.Body))
		for i, l := range r.Body {
			c.Body[i] = mapLit(l, atom, term)
		}
	}
	return c
}

func mapLit(l *grounding.Literal, atom, term func(*grounding.Term) *grounding.Term) *grounding.Literal {
	c := &grounding.Literal{Pos: l.Pos, Kind: l.Kind}
	switch l.Kind {
	case grounding.LitAtom:
		c.Atom = atom(l.Atom)
	case grounding.LitDistinct:
		c.Args = [2]*grounding.Term{term(l.Args[0]), term(l.Args[1])}
	default:
		c.Sub = make([]*grounding.Literal, len(l.Sub))
		for i, s := range l.Sub {
			c.Sub[i] = mapLit(s, atom, term)
		}
	}
	return c
}

// renameRuleVars renames the variables of r by ren (names missing from ren stay).
func renameRuleVars(r *grounding.Rule, ren map[string]string) *grounding.Rule {
	var term func(t *grounding.Term) *grounding.Term
	term = func(t *grounding.Term) *grounding.Term {
		if t.Var {
			if n, ok := ren[t.Name]; ok {
				return &grounding.Term{Pos: t.Pos, Var: true, Name: n}
			}
			return &grounding.Term{Pos: t.Pos, Var: true, Name: t.Name}
		}
		c := &grounding.Term{Pos: t.Pos, Name: t.Name}
		if t.Args != nil {
			c.Args = make([]*grounding.Term, len(t.Args))
			for i, a := range t.Args {
				c.Args[i] = term(a)
			}
		}
		return c
	}
	return mapRule(r, term, term)
}

// walkTerms calls fn on every term of r, atoms included (atom reports which),
// and on every subterm.
func walkTerms(r *grounding.Rule, fn func(t *grounding.Term, atom bool)) {
	var term func(t *grounding.Term, atom bool)
	term = func(t *grounding.Term, atom bool) {
		fn(t, atom)
		for _, a := range t.Args {
			term(a, false)
		}
	}
	var lit func(l *grounding.Literal)
	lit = func(l *grounding.Literal) {
		switch l.Kind {
		case grounding.LitAtom:
			term(l.Atom, true)
		case grounding.LitDistinct:
			term(l.Args[0], false)
			term(l.Args[1], false)
		default:
			for _, s := range l.Sub {
				lit(s)
			}
		}
	}
	term(r.Head, true)
	for _, l := range r.Body {
		lit(l)
	}
}

// symbols lists every name used in f (relation, function and constant names),
// sorted.
func symbols(f *grounding.File) []string {
	set := map[string]bool{}
	for _, r := range f.Rules {
		walkTerms(r, func(t *grounding.Term, _ bool) {
			if !t.Var {
				set[t.Name] = true
			}
		})
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// isNumber reports whether a constant could be read as a goal value.
func isNumber(name string) bool {
	_, err := strconv.Atoi(name)
	return err == nil
}

// goalValueNames returns the constants that may become goal values: the
// constant second arguments of goal heads, and every number when some goal
// head takes its value from a variable or a compound term.
func goalValueNames(f *grounding.File) map[string]bool {
	out := map[string]bool{}
	allNumbers := false
	for _, r := range f.Rules {
		h := r.Head
		if h.Name != "goal" || len(h.Args) != 2 {
			continue
		}
		if v := h.Args[1]; !v.Var && v.Args == nil {
			out[v.Name] = true
		} else {
			allNumbers = true
		}
	}
	if allNumbers {
		for _, n := range symbols(f) {
			if isNumber(n) {
				out[n] = true
			}
		}
	}
	return out
}

// functionKeys lists the function symbols (compound terms below the atom
// level) of f with their arities, sorted; relationKeys the non-keyword relations.
func functionKeys(f *grounding.File) (fns, rels []symKey) {
	fset, rset := map[symKey]bool{}, map[symKey]bool{}
	for _, r := range f.Rules {
		walkTerms(r, func(t *grounding.Term, atom bool) {
			switch {
			case t.Var:
			case atom:
				if !keywords[t.Name] {
					rset[keyOf(t)] = true
				}
			case len(t.Args) > 0:
				fset[keyOf(t)] = true
			}
		})
	}
	return sortedKeys(fset), sortedKeys(rset)
}

func sortedKeys(set map[symKey]bool) []symKey {
	out := make([]symKey, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b symKey) int {
		if a.name != b.name {
			if a.name < b.name {
				return -1
			}
			return 1
		}
		return a.arity - b.arity
	})
	return out
}
