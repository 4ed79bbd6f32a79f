package grounding

import (
	"strings"
	"unicode/utf8"
)

// ParseLimits bounds what Parse accepts. The zero value means the defaults.
type ParseLimits struct {
	MaxBytes int // source size; default DefaultMaxSourceBytes
	MaxDepth int // parenthesis nesting; default DefaultMaxDepth
}

// Parser defaults.
const (
	DefaultMaxSourceBytes = 16 << 20
	DefaultMaxDepth       = 200
)

func (l ParseLimits) withDefaults() ParseLimits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxSourceBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	return l
}

// Parse reads a GDL description in KIF syntax with the default ParseLimits.
// It returns the rules it could read and, if anything was wrong, an ErrorList
// holding every problem found (FILE:LINE:COL: message). Symbols are lower-cased.
func Parse(name string, src []byte) (*File, error) {
	return ParseWith(name, src, ParseLimits{})
}

// ParseWith is Parse with explicit limits. Exceeding MaxBytes is a *LimitError;
// exceeding MaxDepth is a positioned error in the ErrorList.
func ParseWith(name string, src []byte, lim ParseLimits) (*File, error) {
	lim = lim.withDefaults()
	if len(src) > lim.MaxBytes {
		return nil, &LimitError{What: "MaxBytes", Limit: int64(lim.MaxBytes), Got: int64(len(src))}
	}
	p := &parser{file: name, src: src, maxDepth: lim.MaxDepth}
	f := &File{Name: name}
	nodes := p.readAll()
	for _, n := range nodes {
		if r := p.rule(n); r != nil {
			f.Rules = append(f.Rules, r)
		}
	}
	f.Warnings = p.warnings
	p.errs.Sort()
	f.Warnings.Sort()
	return f, p.errs.Err()
}

// sexpr is a raw S-expression: a symbol (List == nil and !isList) or a list.
type sexpr struct {
	pos    Pos
	sym    string // lower-cased symbol text, for atoms
	isList bool
	list   []*sexpr
	bad    bool // nested too deep: reported once, not converted
}

type parser struct {
	file     string
	src      []byte
	off      int
	line     int
	col      int
	maxDepth int
	errs     ErrorList
	warnings ErrorList
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.errs.Add(p.file, pos, format, args...)
}

func (p *parser) warnf(pos Pos, format string, args ...any) {
	p.warnings.Add(p.file, pos, format, args...)
}

func (p *parser) pos() Pos { return Pos{Line: p.line, Col: p.col} }

// advance moves past n bytes of the current line.
func (p *parser) advance(n int) { p.off += n; p.col += n }

// skipSpace skips white space and ';' comments, reporting invalid bytes.
func (p *parser) skipSpace() {
	for p.off < len(p.src) {
		c := p.src[p.off]
		switch {
		case c == '\n':
			p.off++
			p.line++
			p.col = 1
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			p.advance(1)
		case c == ';':
			for p.off < len(p.src) && p.src[p.off] != '\n' {
				p.off++
			}
		default:
			return
		}
	}
}

// isDelim reports whether c ends a symbol.
func isDelim(c byte) bool {
	return c == '(' || c == ')' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// readAll reads every top-level S-expression. It never recurses: nesting is kept
// on an explicit stack so that deep input cannot exhaust the goroutine stack.
func (p *parser) readAll() []*sexpr {
	p.line, p.col = 1, 1
	var top []*sexpr
	var stack []*sexpr
	tooDeep := false
	emit := func(n *sexpr) {
		if len(stack) == 0 {
			top = append(top, n)
		} else {
			parent := stack[len(stack)-1]
			parent.list = append(parent.list, n)
		}
	}
	for {
		p.skipSpace()
		if p.off >= len(p.src) {
			break
		}
		pos := p.pos()
		c := p.src[p.off]
		switch {
		case c == '(':
			p.advance(1)
			if len(stack) >= p.maxDepth {
				if !tooDeep {
					p.errorf(pos, "nesting deeper than %d levels", p.maxDepth)
					tooDeep = true
				}
				stack[0].bad = true
			}
			stack = append(stack, &sexpr{pos: pos, isList: true})
		case c == ')':
			p.advance(1)
			if len(stack) == 0 {
				p.errorf(pos, "unexpected ')' with no matching '('")
				continue
			}
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if len(stack) < p.maxDepth {
				tooDeep = false
			}
			emit(n)
		default:
			start := p.off
			bad := false
			for p.off < len(p.src) && !isDelim(p.src[p.off]) {
				r, size := utf8.DecodeRune(p.src[p.off:])
				if r == utf8.RuneError && size <= 1 {
					if !bad {
						p.errorf(p.pos(), "invalid UTF-8 byte 0x%02x", p.src[p.off])
					}
					bad = true
				} else if r < 0x20 || r == 0x7f {
					if !bad {
						p.errorf(p.pos(), "invalid control character %U", r)
					}
					bad = true
				}
				p.off += size
				p.col += size
			}
			text := string(p.src[start:p.off])
			if bad {
				continue
			}
			emit(&sexpr{pos: pos, sym: strings.ToLower(text)})
		}
	}
	if len(stack) > 0 {
		p.errorf(stack[0].pos, "unclosed '(': %d ')' missing at end of file", len(stack))
	}
	// Discard what was inside unclosed lists: half a rule is not a rule.
	return top
}

func (n *sexpr) isVar() bool    { return !n.isList && strings.HasPrefix(n.sym, "?") }
func (n *sexpr) isSymbol() bool { return !n.isList && !strings.HasPrefix(n.sym, "?") }

// head returns the symbol at the front of a list, or "".
func (n *sexpr) head() string {
	if n.isList && len(n.list) > 0 && n.list[0].isSymbol() {
		return n.list[0].sym
	}
	return ""
}

// rule converts a top-level S-expression into a rule or fact.
func (p *parser) rule(n *sexpr) *Rule {
	if n.bad {
		return nil
	}
	if n.head() == "<=" {
		if len(n.list) < 2 {
			p.errorf(n.pos, "rule (<= ...) has no head")
			return nil
		}
		head := p.sentence(n.list[1], "rule head")
		if len(n.list) == 2 {
			p.warnf(n.pos, "rule (<= ...) with an empty body: read as a fact")
		}
		r := &Rule{Pos: n.pos, Head: head}
		ok := head != nil
		for _, b := range n.list[2:] {
			l := p.literal(b)
			if l == nil {
				ok = false
				continue
			}
			r.Body = append(r.Body, l)
		}
		if !ok {
			return nil
		}
		return r
	}
	head := p.sentence(n, "fact")
	if head == nil {
		return nil
	}
	return &Rule{Pos: n.pos, Head: head}
}

// reserved are the logical operators that cannot name a relation.
var reserved = map[string]bool{"<=": true, "not": true, "or": true, "and": true, "distinct": true}

// sentence converts an S-expression into an atom (relation with arguments).
func (p *parser) sentence(n *sexpr, what string) *Term {
	switch {
	case n.isVar():
		p.errorf(n.pos, "a variable (%s) cannot stand as a %s", n.sym, what)
		return nil
	case !n.isList:
		if reserved[n.sym] {
			p.errorf(n.pos, "%q cannot stand as a %s", n.sym, what)
			return nil
		}
		return &Term{Pos: n.pos, Name: n.sym}
	case len(n.list) == 0:
		p.errorf(n.pos, "empty list () cannot stand as a %s", what)
		return nil
	}
	rel := n.list[0]
	if !rel.isSymbol() {
		p.errorf(rel.pos, "%s must start with a relation name, not %s", what, describe(rel))
		return nil
	}
	if reserved[rel.sym] {
		p.errorf(rel.pos, "%q cannot stand as a %s", rel.sym, what)
		return nil
	}
	t := &Term{Pos: n.pos, Name: rel.sym}
	if len(n.list) == 1 {
		p.warnf(n.pos, "(%s) written with parentheses: read as the constant %s", rel.sym, rel.sym)
		return t
	}
	t.Args = make([]*Term, 0, len(n.list)-1)
	for _, a := range n.list[1:] {
		at := p.term(a)
		if at == nil {
			return nil
		}
		t.Args = append(t.Args, at)
	}
	return t
}

// term converts an S-expression into a term in argument position.
func (p *parser) term(n *sexpr) *Term {
	switch {
	case n.isVar():
		if len(n.sym) == 1 {
			p.errorf(n.pos, "variable with no name: '?'")
			return nil
		}
		return &Term{Pos: n.pos, Var: true, Name: n.sym[1:]}
	case !n.isList:
		if n.sym == "<=" {
			p.errorf(n.pos, "'<=' can only start a rule")
			return nil
		}
		return &Term{Pos: n.pos, Name: n.sym}
	case len(n.list) == 0:
		p.errorf(n.pos, "empty list () is not a term")
		return nil
	}
	f := n.list[0]
	if !f.isSymbol() || f.sym == "<=" {
		p.errorf(f.pos, "a compound term must start with a function symbol, not %s", describe(f))
		return nil
	}
	t := &Term{Pos: n.pos, Name: f.sym}
	if len(n.list) == 1 {
		p.warnf(n.pos, "(%s) written with parentheses: read as the constant %s", f.sym, f.sym)
		return t
	}
	t.Args = make([]*Term, 0, len(n.list)-1)
	for _, a := range n.list[1:] {
		at := p.term(a)
		if at == nil {
			return nil
		}
		t.Args = append(t.Args, at)
	}
	return t
}

// literal converts an S-expression into a body literal.
func (p *parser) literal(n *sexpr) *Literal {
	switch n.head() {
	case "not":
		if len(n.list) != 2 {
			p.errorf(n.pos, "(not ...) takes exactly one literal, got %d", len(n.list)-1)
			return nil
		}
		s := p.literal(n.list[1])
		if s == nil {
			return nil
		}
		return &Literal{Pos: n.pos, Kind: LitNot, Sub: []*Literal{s}}
	case "or", "and":
		kind := LitOr
		if n.head() == "and" {
			kind = LitAnd
		}
		l := &Literal{Pos: n.pos, Kind: kind}
		ok := true
		for _, a := range n.list[1:] {
			s := p.literal(a)
			if s == nil {
				ok = false
				continue
			}
			l.Sub = append(l.Sub, s)
		}
		if !ok {
			return nil
		}
		return l
	case "distinct":
		if len(n.list) != 3 {
			p.errorf(n.pos, "(distinct ...) takes exactly two terms, got %d", len(n.list)-1)
			return nil
		}
		a, b := p.term(n.list[1]), p.term(n.list[2])
		if a == nil || b == nil {
			return nil
		}
		return &Literal{Pos: n.pos, Kind: LitDistinct, Args: [2]*Term{a, b}}
	}
	a := p.sentence(n, "body literal")
	if a == nil {
		return nil
	}
	return &Literal{Pos: n.pos, Kind: LitAtom, Atom: a}
}

func describe(n *sexpr) string {
	switch {
	case n.isList:
		return "a list"
	case n.isVar():
		return "the variable " + n.sym
	}
	return "the symbol " + n.sym
}

// CanonicalTerm parses one ground term, such as a move "(MARK 1  1)", and
// returns its canonical KIF text "(mark 1 1)".
func CanonicalTerm(s string) (string, error) {
	p := &parser{file: "term", src: []byte(s), maxDepth: DefaultMaxDepth}
	nodes := p.readAll()
	if len(p.errs) == 0 && len(nodes) != 1 {
		p.errorf(Pos{Line: 1, Col: 1}, "want exactly one term, got %d", len(nodes))
	}
	if err := p.errs.Err(); err != nil {
		return "", err
	}
	t := p.term(nodes[0])
	if err := p.errs.Err(); err != nil {
		return "", err
	}
	if !t.IsGround() {
		return "", &Error{File: "term", Pos: t.Pos, Msg: "a move must not contain variables"}
	}
	return t.String(), nil
}
