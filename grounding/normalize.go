package grounding

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// keyword identifies the GDL relations with a fixed meaning.
type keyword uint8

const (
	kwNone keyword = iota
	kwRole
	kwInit
	kwTrue
	kwDoes
	kwNext
	kwLegal
	kwGoal
	kwTerminal
	kwBase
	kwInput
)

var keywords = map[string]struct {
	kw    keyword
	arity int
}{
	"role": {kwRole, 1}, "init": {kwInit, 1}, "true": {kwTrue, 1}, "does": {kwDoes, 2},
	"next": {kwNext, 1}, "legal": {kwLegal, 2}, "goal": {kwGoal, 2}, "terminal": {kwTerminal, 0},
	"base": {kwBase, 1}, "input": {kwInput, 2},
}

// pat is a term pattern in a normalized rule: a variable slot (v >= 0), a ground
// term (t >= 0), or a compound with at least one variable (fn, args).
type pat struct {
	v, t int32
	fn   int32
	args []pat
}

// basicKind is the kind of a normalized body literal.
type basicKind uint8

const (
	bPos      basicKind = iota // positive atom
	bNeg                       // negated atom
	bDistinct                  // distinct a b
	bEqual                     // not distinct a b
	bAny                       // at least one of subs (each bDistinct or bEqual)
)

type basic struct {
	kind   basicKind
	demand bool // the demand literal of a rule's head (demand.go)
	pos    Pos
	rel    int32   // atoms
	args   []pat   // atoms
	a, b   pat     // distinct, equal
	subs   []basic // bAny
}

// nrule is a normalized rule: no or/and/not nesting, variables as slots.
type nrule struct {
	head     int32
	headArgs []pat
	body     []basic
	varNames []string
	src      *Rule
	unsafe   []unsafeVar // variables no positive literal binds (resolved after analysis)
}

type unsafeVar struct {
	slot int32
	name string
	pos  Pos
}

type relation struct {
	name   string
	arity  int
	kw     keyword
	pos    Pos // first occurrence
	rules  []int32
	static bool
	scc    int32
	demand bool // a demand relation (demand.go): a domain filter, true in the circuit
	// demandOf names the relation a demand relation restricts, demandRel
	// is its index and demandPos the positions of its arguments there.
	demandOf  string
	demandRel int32
	demandPos []int
}

// relKey names a relation by name and arity.
func relKey(name string, arity int) string { return name + "/" + strconv.Itoa(arity) }

// aLit is one alternative of a body literal after pushing negation inward.
type aLit struct {
	neg bool
	lit *Literal // LitAtom or LitDistinct
}

// dnf expands a literal into alternatives (each a conjunction of aLits).
func dnf(l *Literal, neg bool, limit int) ([][]aLit, bool) {
	switch l.Kind {
	case LitAtom, LitDistinct:
		return [][]aLit{{{neg: neg, lit: l}}}, true
	case LitNot:
		return dnf(l.Sub[0], !neg, limit)
	}
	conj := (l.Kind == LitAnd) != neg // and, or a negated or
	if conj {
		out := [][]aLit{{}}
		for _, s := range l.Sub {
			alts, ok := dnf(s, neg, limit)
			if !ok {
				return nil, false
			}
			out = product(out, alts)
			if len(out) > limit {
				return nil, false
			}
		}
		return out, true
	}
	if checksOnly(l) {
		// A disjunction of distinct tests stays one literal (bAny): split
		// into alternatives, it would repeat the rule's whole join once per
		// test (racer's legal_speed: "the players have to move somewhere").
		return [][]aLit{{{neg: neg, lit: l}}}, true
	}
	var out [][]aLit
	for _, s := range l.Sub {
		alts, ok := dnf(s, neg, limit)
		if !ok {
			return nil, false
		}
		out = append(out, alts...)
		if len(out) > limit {
			return nil, false
		}
	}
	return out, true
}

// checksOnly reports whether an or/and literal has at least two parts and
// each is a distinct test or a negated one.
func checksOnly(l *Literal) bool {
	if len(l.Sub) < 2 {
		return false
	}
	for _, s := range l.Sub {
		if s.Kind == LitNot && len(s.Sub) == 1 {
			s = s.Sub[0]
		}
		if s.Kind != LitDistinct {
			return false
		}
	}
	return true
}

func product(xs, ys [][]aLit) [][]aLit {
	out := make([][]aLit, 0, len(xs)*len(ys))
	for _, x := range xs {
		for _, y := range ys {
			c := make([]aLit, 0, len(x)+len(y))
			out = append(out, append(append(c, x...), y...))
		}
	}
	return out
}

// compiler turns a File into normalized rules and relation facts about them,
// collecting every validation error.
type compiler struct {
	file     string
	ts       *termStore
	lim      Limits
	errs     ErrorList
	warnings ErrorList
	// mergeSteps counts mergeChecks' literal matchings (maxMergeTotalSteps).
	mergeSteps int
	notes      ErrorList

	rels     []*relation
	relIndex map[string]int32
	kwRel    map[keyword]int32
	rules    []*nrule
	oddDecl  map[string]bool
	limitErr error          // a limit exceeded while compiling
	goalPos  map[string]Pos // "role value" of goal heads written ground -> position
	universe int32          // relation holding every ground term of the description
	// chainKeys: relations whose recursion is a chain of calls that keeps
	// these positions (visited.go), for the circuit's fixpoint rounds.
	chainKeys map[int32][]int

	noHeadFilter    bool // tests: circuit joins without headFilter
	forceHeadFilter bool // tests: headFilter without the trial join
}

func (c *compiler) errorf(pos Pos, format string, args ...any) {
	c.errs.Add(c.file, pos, format, args...)
}

func (c *compiler) warnf(pos Pos, format string, args ...any) {
	c.warnings.Add(c.file, pos, format, args...)
}

// notef records how a valid but unusual form was read.
func (c *compiler) notef(pos Pos, format string, args ...any) {
	c.notes.Add(c.file, pos, format, args...)
}

// relation returns the id of the relation name/arity, creating it.
func (c *compiler) relation(name string, arity int, pos Pos) int32 {
	k := relKey(name, arity)
	if id, ok := c.relIndex[k]; ok {
		return id
	}
	id := int32(len(c.rels))
	r := &relation{name: name, arity: arity, pos: pos}
	if kw, ok := keywords[name]; ok && kw.arity == arity {
		r.kw = kw.kw
		c.kwRel[kw.kw] = id
	}
	c.rels = append(c.rels, r)
	c.relIndex[k] = id
	return id
}

// checkAtom reports keyword arity errors; it returns false for a bad atom.
// base and input with another arity are a common non-standard declaration
// form that carries no rules of the game: they are read as ordinary relations.
func (c *compiler) checkAtom(a *Term) bool {
	kw, ok := keywords[a.Name]
	if !ok || kw.arity == len(a.Args) {
		return true
	}
	if kw.kw == kwBase || kw.kw == kwInput {
		if k := relKey(a.Name, len(a.Args)); !c.oddDecl[k] {
			c.oddDecl[k] = true
			c.warnf(a.Pos, "%s with %d argument(s) is not the GDL declaration (%s takes %d): ignored as a declaration", a.Name, len(a.Args), a.Name, kw.arity)
		}
		return true
	}
	c.errorf(a.Pos, "%s takes %d argument(s), got %d", a.Name, kw.arity, len(a.Args))
	return false
}

func (c *compiler) compile(f *File) {
	c.relIndex = map[string]int32{}
	c.kwRel = map[keyword]int32{}
	c.oddDecl = map[string]bool{}
	c.goalPos = map[string]Pos{}
	// Names with a space cannot come from the parser, so they never clash.
	c.universe = c.relation(" universe", 1, Pos{})
	// Keyword relations exist even when unused, so lookups never fail.
	names := make([]string, 0, len(keywords))
	for name := range keywords {
		names = append(names, name)
	}
	sort.Strings(names) // relation ids decide evaluation order: keep them deterministic
	for _, name := range names {
		c.relation(name, keywords[name].arity, Pos{})
	}
	c.checkArities(f)
	for _, r := range f.Rules {
		c.compileRule(r)
	}
}

// checkArities warns about relation and function symbols used with several arities.
func (c *compiler) checkArities(f *File) {
	relAr := map[string]map[int]Pos{}
	fnAr := map[string]map[int]Pos{}
	note := func(m map[string]map[int]Pos, name string, n int, pos Pos) {
		if m[name] == nil {
			m[name] = map[int]Pos{}
		}
		if _, ok := m[name][n]; !ok {
			m[name][n] = pos
		}
	}
	var term func(t *Term)
	term = func(t *Term) {
		if t.Var {
			return
		}
		note(fnAr, t.Name, len(t.Args), t.Pos)
		for _, a := range t.Args {
			term(a)
		}
	}
	atom := func(a *Term) {
		note(relAr, a.Name, len(a.Args), a.Pos)
		for _, t := range a.Args {
			term(t)
		}
	}
	var lit func(l *Literal)
	lit = func(l *Literal) {
		switch l.Kind {
		case LitAtom:
			atom(l.Atom)
		case LitDistinct:
			term(l.Args[0])
			term(l.Args[1])
		default:
			for _, s := range l.Sub {
				lit(s)
			}
		}
	}
	for _, r := range f.Rules {
		atom(r.Head)
		for _, l := range r.Body {
			lit(l)
		}
	}
	report := func(what string, m map[string]map[int]Pos) {
		names := make([]string, 0, len(m))
		for n, ars := range m {
			if len(ars) > 1 {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			if _, kw := keywords[n]; kw && what == "relation" {
				continue // reported as an error per atom
			}
			var ars []int
			for a := range m[n] {
				ars = append(ars, a)
			}
			sort.Ints(ars)
			c.warnf(m[n][ars[1]], "%s %s is used with %d and %d arguments: read as different %ss", what, n, ars[0], ars[1], what)
		}
	}
	report("relation", relAr)
	report("function", fnAr)
}

func (c *compiler) compileRule(r *Rule) {
	if !c.checkAtom(r.Head) {
		return
	}
	if kw, ok := keywords[r.Head.Name]; ok && (kw.kw == kwTrue || kw.kw == kwDoes) {
		c.errorf(r.Head.Pos, "%s cannot be the head of a rule", r.Head.Name)
		return
	}
	ok := true
	var walk func(l *Literal)
	walk = func(l *Literal) {
		switch l.Kind {
		case LitAtom:
			if !c.checkAtom(l.Atom) {
				ok = false
			}
		case LitDistinct:
		default:
			for _, s := range l.Sub {
				walk(s)
			}
		}
	}
	for _, l := range r.Body {
		walk(l)
	}
	if !ok {
		return
	}
	alts, reached, ok := bodyAlternatives(r.Body, c.lim.MaxRuleExpansion)
	if !ok {
		if c.limitErr == nil {
			c.limitErr = &LimitError{What: "MaxRuleExpansion", Limit: int64(c.lim.MaxRuleExpansion), Got: int64(reached),
				Where: fmt.Sprintf("or/not nesting of the rule at %s:%s", c.file, r.Pos)}
		}
		return
	}
	reported := map[string]bool{}
	for _, alt := range alts {
		c.addRule(r, alt, reported)
	}
}

// addRule normalizes one alternative body of r and checks its safety.
func (c *compiler) addRule(r *Rule, alt []aLit, reported map[string]bool) {
	nr := &nrule{src: r}
	slots := map[string]int32{}
	slot := func(name string) int32 {
		if s, ok := slots[name]; ok {
			return s
		}
		s := int32(len(nr.varNames))
		slots[name] = s
		nr.varNames = append(nr.varNames, name)
		return s
	}
	var toPat func(t *Term) pat
	toPat = func(t *Term) pat {
		if t.Var {
			return pat{v: slot(t.Name), t: -1}
		}
		if t.IsGround() {
			return pat{v: -1, t: c.ts.fromAST(t)}
		}
		p := pat{v: -1, t: -1, fn: c.ts.sym(t.Name), args: make([]pat, len(t.Args))}
		for i, a := range t.Args {
			p.args[i] = toPat(a)
		}
		return p
	}
	atomArgs := func(a *Term) []pat {
		ps := make([]pat, len(a.Args))
		for i, t := range a.Args {
			ps[i] = toPat(t)
		}
		return ps
	}
	nr.head = c.relation(r.Head.Name, len(r.Head.Args), r.Head.Pos)
	if c.rels[nr.head].kw == kwGoal {
		// Remember where each written goal value is, for the range check after grounding.
		if v := r.Head.Args[1]; v.IsGround() {
			key := r.Head.Args[0].String() + " " + v.String()
			if _, ok := c.goalPos[key]; !ok {
				c.goalPos[key] = v.Pos
			}
		}
	}
	nr.headArgs = atomArgs(r.Head)
	bound := map[string]bool{}
	for _, a := range alt {
		l := a.lit
		if l.Kind == LitOr || l.Kind == LitAnd {
			// A disjunction of tests (dnf, checksOnly): an or, or a negated and.
			any := basic{kind: bAny, pos: l.Pos}
			for _, sub := range l.Sub {
				neg := a.neg
				if sub.Kind == LitNot {
					sub, neg = sub.Sub[0], !neg
				}
				k := bDistinct
				if neg {
					k = bEqual
				}
				any.subs = append(any.subs, basic{kind: k, pos: sub.Pos, a: toPat(sub.Args[0]), b: toPat(sub.Args[1])})
			}
			nr.body = append(nr.body, any)
			continue
		}
		if l.Kind == LitDistinct {
			k := bDistinct
			if a.neg {
				k = bEqual
			}
			nr.body = append(nr.body, basic{kind: k, pos: l.Pos, a: toPat(l.Args[0]), b: toPat(l.Args[1])})
			continue
		}
		k := bPos
		if a.neg {
			k = bNeg
		} else {
			for _, v := range l.Atom.vars(nil) {
				bound[v] = true
			}
		}
		rel := c.relation(l.Atom.Name, len(l.Atom.Args), l.Atom.Pos)
		nr.body = append(nr.body, basic{kind: k, pos: l.Pos, rel: rel, args: atomArgs(l.Atom)})
	}
	var roleLit *basic // added after the alternative's own literals, so nr.body[i] stays alt[i]
	// Tolerance: a variable in the role position of a legal, goal or input head
	// that nothing binds ranges over the roles (ggp-base's test_case_3e).
	if kw := c.rels[nr.head].kw; kw == kwLegal || kw == kwGoal || kw == kwInput {
		if rv := r.Head.Args[0]; rv.Var && !bound[rv.Name] {
			c.notef(rv.Pos, "variable ?%s in the role position of %s is not bound: read as ranging over the roles", rv.Name, r.Head.Name)
			bound[rv.Name] = true
			roleLit = &basic{kind: bPos, pos: rv.Pos, rel: c.relation("role", 1, rv.Pos), args: []pat{toPat(rv)}}
		}
	}
	// Variables that occur only inside one negated literal are read as
	// ggp-base's prover reads them: "there is no value such that ...". An
	// auxiliary relation over the literal's bound variables says exactly that.
	occurs := map[string]int{}
	for _, v := range r.Head.vars(nil) {
		occurs[v]++
	}
	for _, a := range alt {
		for _, v := range uniq(a.lit.vars(nil)) {
			occurs[v]++
		}
	}
	for i, a := range alt {
		if !a.neg || a.lit.Kind != LitAtom {
			continue
		}
		var local, shared []string
		for _, v := range uniq(a.lit.vars(nil)) {
			switch {
			case bound[v]:
				shared = append(shared, v)
			case occurs[v] == 1:
				local = append(local, v)
			}
		}
		if len(local) == 0 {
			continue
		}
		what := "variable"
		if len(local) > 1 {
			what = "variables"
		}
		vs := strings.Join(local, ", ?")
		c.warnf(a.lit.Pos, "unsafe %s ?%s inside not, in no positive literal: read as 'there is no ?%s such that %s'", what, vs, vs, a.lit.Atom)
		nr.body[i] = c.notExists(a.lit, shared, toPat)
	}
	if roleLit != nil {
		nr.body = append(nr.body, *roleLit)
	}
	for _, v := range nr.varNames {
		if !bound[v] && !c.onlyNegLocal(v, alt, bound, occurs) {
			nr.unsafe = append(nr.unsafe, unsafeVar{slot: slots[v], name: v, pos: c.unsafePos(v, r, alt)})
		}
	}
	id := int32(len(c.rules))
	c.rules = append(c.rules, nr)
	c.rels[nr.head].rules = append(c.rels[nr.head].rules, id)
}

func uniq(vs []string) []string {
	slices.Sort(vs)
	return slices.Compact(vs)
}

// onlyNegLocal reports whether v was handled as a local variable of a negated literal.
func (c *compiler) onlyNegLocal(v string, alt []aLit, bound map[string]bool, occurs map[string]int) bool {
	if bound[v] || occurs[v] != 1 {
		return false
	}
	for _, a := range alt {
		if a.neg && a.lit.Kind == LitAtom && slices.Contains(a.lit.vars(nil), v) {
			return true
		}
	}
	return false
}

// unsafePos finds where an unbound variable first shows in the rule.
func (c *compiler) unsafePos(v string, r *Rule, alt []aLit) Pos {
	if slices.Contains(r.Head.vars(nil), v) {
		return r.Head.Pos
	}
	for _, a := range alt {
		if slices.Contains(a.lit.vars(nil), v) {
			return a.lit.Pos
		}
	}
	return r.Pos
}

// notExists replaces (not atom) by (not aux(shared...)) with aux(shared...) :- atom.
func (c *compiler) notExists(l *Literal, shared []string, toPat func(*Term) pat) basic {
	name := fmt.Sprintf(" not-exists %d", len(c.rels))
	head := &Term{Pos: l.Pos, Name: name}
	for _, v := range shared {
		head.Args = append(head.Args, &Term{Pos: l.Pos, Var: true, Name: v})
	}
	aux := &Rule{Pos: l.Pos, Head: head, Body: []*Literal{{Pos: l.Pos, Kind: LitAtom, Atom: l.Atom}}}
	c.addRule(aux, []aLit{{lit: aux.Body[0]}}, map[string]bool{})
	args := make([]pat, len(shared))
	for i, v := range shared {
		args[i] = toPat(&Term{Var: true, Name: v}) // the caller's slot for v
	}
	return basic{kind: bNeg, pos: l.Pos, rel: c.relIndex[relKey(name, len(shared))], args: args}
}

// resolveUnsafe decides what unbound variables mean once static relations are
// known: in a static rule such a variable ranges over every ground term of the
// description (what a prover's non-ground answer matches); in a fluent rule
// it is an error, or with LenientUnsafe read the same way. Every lenient
// reading is a warning naming the variable.
func (c *compiler) resolveUnsafe() {
	for _, nr := range c.rules {
		if len(nr.unsafe) == 0 {
			continue
		}
		static := c.rels[nr.head].static
		if !static && !c.lim.LenientUnsafe {
			for _, u := range nr.unsafe {
				c.errorf(u.pos, "unsafe variable ?%s: it must occur in a positive body literal (the lenient reading, --lenient-unsafe, takes it to range over every ground term)", u.name)
			}
			continue
		}
		for _, u := range nr.unsafe {
			what := "a static rule"
			if !static {
				what = "a fluent rule"
			}
			c.warnf(u.pos, "unsafe variable ?%s in %s: read as ranging over every ground term of the description", u.name, what)
			nr.body = append([]basic{{kind: bPos, pos: u.pos, rel: c.universe, args: []pat{{v: u.slot, t: -1}}}}, nr.body...)
		}
		nr.unsafe = nil
	}
}
