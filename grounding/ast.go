package grounding

import "strings"

// Term is a GDL term: a constant, a variable, or a compound term f(t1..tn).
// Sentences (atoms) are Terms too: Name is the relation and Args its arguments.
// All names are lower-case; a variable's Name excludes the leading '?'.
type Term struct {
	Pos  Pos
	Var  bool
	Name string
	Args []*Term // nil for constants and variables
}

// IsGround reports whether the term contains no variable.
func (t *Term) IsGround() bool {
	if t.Var {
		return false
	}
	for _, a := range t.Args {
		if !a.IsGround() {
			return false
		}
	}
	return true
}

// String renders the term in canonical KIF: constants bare, compounds as
// "(f a b)" with single spaces, variables with their '?'.
func (t *Term) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *Term) write(b *strings.Builder) {
	if t.Var {
		b.WriteByte('?')
		b.WriteString(t.Name)
		return
	}
	if t.Args == nil {
		b.WriteString(t.Name)
		return
	}
	b.WriteByte('(')
	b.WriteString(t.Name)
	for _, a := range t.Args {
		b.WriteByte(' ')
		a.write(b)
	}
	b.WriteByte(')')
}

// vars appends the variable names of t to dst (with repetitions).
func (t *Term) vars(dst []string) []string {
	if t.Var {
		return append(dst, t.Name)
	}
	for _, a := range t.Args {
		dst = a.vars(dst)
	}
	return dst
}

// LitKind says what a body literal is.
type LitKind uint8

// Kinds of body literals.
const (
	LitAtom     LitKind = iota // a sentence (Atom)
	LitNot                     // (not Sub[0])
	LitOr                      // (or Sub...)
	LitAnd                     // (and Sub...): accepted inside or/not for tolerance
	LitDistinct                // (distinct Args[0] Args[1])
)

// Literal is a body literal of a rule.
type Literal struct {
	Pos  Pos
	Kind LitKind
	Atom *Term      // LitAtom
	Args [2]*Term   // LitDistinct
	Sub  []*Literal // LitNot (one), LitOr and LitAnd (any number)
}

// String renders the literal in KIF.
func (l *Literal) String() string {
	var b strings.Builder
	l.write(&b)
	return b.String()
}

func (l *Literal) write(b *strings.Builder) {
	switch l.Kind {
	case LitAtom:
		l.Atom.write(b)
	case LitDistinct:
		b.WriteString("(distinct ")
		l.Args[0].write(b)
		b.WriteByte(' ')
		l.Args[1].write(b)
		b.WriteByte(')')
	default:
		b.WriteByte('(')
		b.WriteString([...]string{LitNot: "not", LitOr: "or", LitAnd: "and"}[l.Kind])
		for _, s := range l.Sub {
			b.WriteByte(' ')
			s.write(b)
		}
		b.WriteByte(')')
	}
}

// vars appends the variables of the literal to dst.
func (l *Literal) vars(dst []string) []string {
	switch l.Kind {
	case LitAtom:
		return l.Atom.vars(dst)
	case LitDistinct:
		return l.Args[1].vars(l.Args[0].vars(dst))
	}
	for _, s := range l.Sub {
		dst = s.vars(dst)
	}
	return dst
}

// Rule is a GDL rule "(<= Head Body...)"; a fact has an empty Body.
type Rule struct {
	Pos  Pos
	Head *Term
	Body []*Literal
}

// String renders the rule in KIF on one line.
func (r *Rule) String() string {
	if len(r.Body) == 0 {
		return r.Head.String()
	}
	var b strings.Builder
	b.WriteString("(<= ")
	r.Head.write(&b)
	for _, l := range r.Body {
		b.WriteByte(' ')
		l.write(&b)
	}
	b.WriteByte(')')
	return b.String()
}

// File is a parsed GDL description.
type File struct {
	Name     string
	Rules    []*Rule
	Warnings ErrorList // problems that do not stop grounding (tolerated forms)
}

// String prints the description, one rule per line, in KIF that Parse reads back
// to the same rules.
func (f *File) String() string {
	var b strings.Builder
	for _, r := range f.Rules {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}
