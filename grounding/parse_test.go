package grounding_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

var parseTests = []struct {
	name     string
	src      string
	want     string // File.String()
	warnings []string
}{
	{"Empty", "", "", nil},
	{"OnlyComments", "; a comment\n;; another\n   ; indented", "", nil},
	{"Comments", "; header\n(role x) ; trailing\n;(role y)\n(init s);end", "(role x)\n(init s)\n", nil},
	{"CommentAtEOFNoNewline", "(role x);", "(role x)\n", nil},
	{"CaseFolding", "(ROLE Xplayer)\n(Init (Cell 1 B))", "(role xplayer)\n(init (cell 1 b))\n", nil},
	{"VariableCase", "(<= (LEGAL ?P NOOP) (role ?p))", "(<= (legal ?p noop) (role ?p))\n", nil},
	{"Constant", "terminal\nFOO", "terminal\nfoo\n", nil},
	{"Rule", "(<= terminal (true (step 3)))", "(<= terminal (true (step 3)))\n", nil},
	{"RuleOnManyLines", "(<=\n  (next (cell ?x))\n\t(true (cell ?x))\r\n  (not (does ?r (clear ?x))))",
		"(<= (next (cell ?x)) (true (cell ?x)) (not (does ?r (clear ?x))))\n", nil},
	{"Connectives", "(<= (p ?x) (q ?x) (not (r ?x)) (or (s ?x) (and (t ?x) (u ?x))) (distinct ?x a))",
		"(<= (p ?x) (q ?x) (not (r ?x)) (or (s ?x) (and (t ?x) (u ?x))) (distinct ?x a))\n", nil},
	{"NotOfOr", "(<= p (not (or a (b c))))", "(<= p (not (or a (b c))))\n", nil},
	{"NotDistinct", "(<= (p ?x ?y) (q ?x ?y) (not (distinct ?x ?y)))", "(<= (p ?x ?y) (q ?x ?y) (not (distinct ?x ?y)))\n", nil},
	{"EmptyOr", "(<= p (or) (and))", "(<= p (or) (and))\n", nil},
	{"NestedTerms", "(init (cell (pos 1 (f (g a))) b))", "(init (cell (pos 1 (f (g a))) b))\n", nil},
	{"DistinctCompound", "(<= (p ?x) (q ?x) (distinct (f ?x) (f a)))", "(<= (p ?x) (q ?x) (distinct (f ?x) (f a)))\n", nil},
	{"OperatorNamesAsTerms", "(p not or and distinct (not a))", "(p not or and distinct (not a))\n", nil},
	{"Symbols", "(p 1.5 -3 a-b a_b a.b a+b x! \"s\" é)", "(p 1.5 -3 a-b a_b a.b a+b x! \"s\" é)\n", nil},
	{"UnicodeLower", "(P ÉTÉ)", "(p été)\n", nil},
	{"Whitespace", "\t(role\fx)\v\r\n", "(role x)\n", nil},
	{"ParenthesisedConstant", "(<= terminal (open))", "(<= terminal open)\n",
		[]string{`1:14: \(open\) written with parentheses: read as the constant open`}},
	{"ParenthesisedTerm", "(p (a))", "(p a)\n",
		[]string{`1:4: \(a\) written with parentheses: read as the constant a`}},
	{"EmptyBody", "(<= (goal x 100))", "(goal x 100)\n",
		[]string{`1:1: rule \(<= \.\.\.\) with an empty body: read as a fact`}},
	{"Adjacent", "(role x)(role y)(init(cell 1))", "(role x)\n(role y)\n(init (cell 1))\n", nil},
}

func TestParse(t *testing.T) {
	for _, tc := range parseTests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := grounding.Parse("t.kif", []byte(tc.src))
			if err != nil {
				t.Fatalf("Parse(%q) error: %v", tc.src, err)
			}
			if got := f.String(); got != tc.want {
				t.Errorf("Parse(%q).String() = %q, want %q", tc.src, got, tc.want)
			}
			checkErrors(t, "warning", f.Warnings, tc.warnings)
			checkReparse(t, f)
		})
	}
}

// The variables ?X and ?x are one variable.
func TestParseVariableCase(t *testing.T) {
	f, err := grounding.Parse("t.kif", []byte("(<= (p ?X) (q ?x))"))
	if err != nil {
		t.Fatal(err)
	}
	r := f.Rules[0]
	if h, b := r.Head.Args[0], r.Body[0].Atom.Args[0]; !h.Var || !b.Var || h.Name != "x" || b.Name != "x" {
		t.Errorf("variables = %+v and %+v, want both ?x", h, b)
	}
}

func TestParsePositions(t *testing.T) {
	f, err := grounding.Parse("t.kif", []byte("; c\n(<= (p ?x)\n    (q ?x)\n\t(not (r ?x)))"))
	if err != nil {
		t.Fatal(err)
	}
	r := f.Rules[0]
	got := []grounding.Pos{r.Pos, r.Head.Pos, r.Head.Args[0].Pos, r.Body[0].Pos, r.Body[1].Pos, r.Body[1].Sub[0].Pos}
	want := []grounding.Pos{{2, 1}, {2, 5}, {2, 8}, {3, 5}, {4, 2}, {4, 7}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("positions = %v, want %v", got, want)
	}
}

// checkReparse parses the printed file again and compares the rules.
func checkReparse(t *testing.T, f *grounding.File) {
	t.Helper()
	text := f.String()
	g, err := grounding.Parse(f.Name, []byte(text))
	if err != nil {
		t.Fatalf("reparse of %q: %v", text, err)
	}
	if len(g.Warnings) > 0 {
		t.Errorf("reparse of %q warns: %v", text, g.Warnings)
	}
	if got := g.String(); got != text {
		t.Fatalf("reparse prints %q, want %q", got, text)
	}
	a, b := stripPositions(f.Rules), stripPositions(g.Rules)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("reparse of %q gives other rules", text)
	}
}

// stripPositions copies rules with every position zeroed.
func stripPositions(rs []*grounding.Rule) []*grounding.Rule {
	var term func(*grounding.Term) *grounding.Term
	term = func(x *grounding.Term) *grounding.Term {
		if x == nil {
			return nil
		}
		y := &grounding.Term{Var: x.Var, Name: x.Name}
		for _, a := range x.Args {
			y.Args = append(y.Args, term(a))
		}
		return y
	}
	var lit func(*grounding.Literal) *grounding.Literal
	lit = func(l *grounding.Literal) *grounding.Literal {
		m := &grounding.Literal{Kind: l.Kind, Atom: term(l.Atom), Args: [2]*grounding.Term{term(l.Args[0]), term(l.Args[1])}}
		for _, s := range l.Sub {
			m.Sub = append(m.Sub, lit(s))
		}
		return m
	}
	out := make([]*grounding.Rule, len(rs))
	for i, r := range rs {
		out[i] = &grounding.Rule{Head: term(r.Head)}
		for _, l := range r.Body {
			out[i].Body = append(out[i].Body, lit(l))
		}
	}
	return out
}

// checkErrors compares a list of diagnostics with wants of the form
// "LINE:COL: message-regexp", in order; every file is t.kif.
func checkErrors(t *testing.T, what string, got grounding.ErrorList, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d %ss, want %d:\n%v", len(got), what, len(want), got)
	}
	for i := 0; i < len(got) && i < len(want); i++ {
		e := got[i]
		pos, msg, _ := strings.Cut(want[i], ": ")
		if e.File != "t.kif" || e.Pos.String() != pos || !regexp.MustCompile(msg).MatchString(e.Msg) {
			t.Errorf("%s %d = %q, want t.kif:%s: /%s/", what, i, e.Error(), pos, msg)
		}
		if s := e.Error(); s != "t.kif:"+e.Pos.String()+": "+e.Msg {
			t.Errorf("%s %d renders as %q", what, i, s)
		}
	}
}

var parseErrorTests = []struct {
	name string
	src  string
	errs []string // "LINE:COL: regexp", sorted by position
}{
	{"StrayParen", "(role x))", []string{`1:9: unexpected '\)' with no matching '\('`}},
	{"StrayParenFirst", ")\n(role x)", []string{`1:1: unexpected '\)'`}},
	{"Unclosed", "(role x)\n(init (cell 1)\n", []string{`2:1: unclosed '\(': 1 '\)' missing at end of file`}},
	{"UnclosedDeep", "  (<= (p (f", []string{`1:3: unclosed '\(': 3 '\)' missing`}},
	{"EmptyFact", "()", []string{`1:1: empty list \(\) cannot stand as a fact`}},
	{"EmptyLiteral", "(<= p ())", []string{`1:7: empty list \(\) cannot stand as a body literal`}},
	{"EmptyHead", "(<= () p)", []string{`1:5: empty list \(\) cannot stand as a rule head`}},
	{"EmptyTerm", "(p a ())", []string{`1:6: empty list \(\) is not a term`}},
	{"VariableFact", "?x", []string{`1:1: a variable \(\?x\) cannot stand as a fact`}},
	{"VariableRelation", "(?r a)", []string{`1:2: fact must start with a relation name, not the variable \?r`}},
	{"VariableHead", "(<= (?r a) b)", []string{`1:6: rule head must start with a relation name, not the variable \?r`}},
	{"VariableLiteral", "(<= p (?r a))", []string{`1:8: body literal must start with a relation name, not the variable \?r`}},
	{"VariableFunctor", "(p (?f a))", []string{`1:5: a compound term must start with a function symbol, not the variable \?f`}},
	{"ListRelation", "((p) a)", []string{`1:2: fact must start with a relation name, not a list`}},
	{"NoHead", "(<=)", []string{`1:1: rule \(<= \.\.\.\) has no head`}},
	{"NotTwoArgs", "(<= p (not a b))", []string{`1:7: \(not \.\.\.\) takes exactly one literal, got 2`}},
	{"NotNoArgs", "(<= p (not))", []string{`1:7: \(not \.\.\.\) takes exactly one literal, got 0`}},
	{"DistinctOneArg", "(<= p (distinct a))", []string{`1:7: \(distinct \.\.\.\) takes exactly two terms, got 1`}},
	{"DistinctThreeArgs", "(<= p (distinct a b c))", []string{`1:7: \(distinct \.\.\.\) takes exactly two terms, got 3`}},
	{"ReservedFact", "(not p)", []string{`1:2: "not" cannot stand as a fact`}},
	{"ReservedHead", "(<= distinct p)", []string{`1:5: "distinct" cannot stand as a rule head`}},
	{"ReservedLiteral", "(<= p <=)", []string{`1:7: "<=" cannot stand as a body literal`}},
	{"ArrowInTerm", "(p <=)", []string{`1:4: '<=' can only start a rule`}},
	{"BareQuestionMark", "(p ?)", []string{`1:4: variable with no name: '\?'`}},
	{"InvalidUTF8", "(p \xff)", []string{`1:4: invalid UTF-8 byte 0xff`}},
	{"InvalidUTF8MidSymbol", "(p ab\xc3)", []string{`1:6: invalid UTF-8 byte 0xc3`}},
	{"InvalidUTF8AfterMultibyte", "(p é \xff)", []string{`1:7: invalid UTF-8 byte 0xff`}},
	{"ColumnAfterMultibyte", "(p éé ())", []string{`1:9: empty list \(\) is not a term`}},
	{"ControlCharacter", "(p a\x01b)", []string{`1:5: invalid control character U\+0001`}},
	{"NUL", "(role x)\n(p \x00)", []string{`2:4: invalid control character U\+0000`}},
	{"DEL", "\x7f", []string{`1:1: invalid control character U\+007F`}},
	{"BinaryJunk", "\x00\x01\x02\xfe\xff (role x)\n\x1b[0m", []string{
		`1:1: invalid control character U\+0000`,
		`2:1: invalid control character U\+001B`,
	}},
	{"AllReported", "(role x)\n)\n(<= p (not))\n(p ())\n(<= (?v) q)\n(init (cell 1)", []string{
		`2:1: unexpected '\)'`,
		`3:7: \(not \.\.\.\) takes exactly one literal`,
		`4:4: empty list \(\) is not a term`,
		`5:6: rule head must start with a relation name, not the variable \?v`,
		`6:1: unclosed '\('`,
	}},
	{"SortedWithinLine", "(<= (p ()) (not a b) (distinct c))", []string{
		`1:8: empty list \(\) is not a term`,
		`1:12: \(not \.\.\.\) takes exactly one literal`,
		`1:22: \(distinct \.\.\.\) takes exactly two terms`,
	}},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range parseErrorTests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := grounding.Parse("t.kif", []byte(tc.src))
			if err == nil {
				t.Fatalf("Parse(%q) = %q, want errors", tc.src, f.String())
			}
			var list grounding.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("Parse(%q) error %T, want ErrorList", tc.src, err)
			}
			if f == nil {
				t.Fatalf("Parse(%q) returned no partial file", tc.src)
			}
			checkErrors(t, "error", list, tc.errs)
		})
	}
}

// Rules next to broken ones are still read.
func TestParsePartial(t *testing.T) {
	f, err := grounding.Parse("t.kif", []byte("(role x)\n(p ())\n(<= q (not))\n(init s)\n)"))
	if err == nil {
		t.Fatal("no error")
	}
	if got, want := f.String(), "(role x)\n(init s)\n"; got != want {
		t.Errorf("partial file = %q, want %q", got, want)
	}
}

// nested returns a fact nested depth levels deep: (p (f (f ... a))).
func nested(depth int) string {
	return "(p " + strings.Repeat("(f ", depth-1) + "a" + strings.Repeat(")", depth)
}

func TestParseMaxDepth(t *testing.T) {
	d := grounding.DefaultMaxDepth
	if _, err := grounding.Parse("t.kif", []byte(nested(d))); err != nil {
		t.Errorf("depth %d (the limit): %v", d, err)
	}
	_, err := grounding.Parse("t.kif", []byte(nested(d+1)+"\n(role x)"))
	var list grounding.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("depth %d: error %v, want an ErrorList", d+1, err)
	}
	// The (d+1)-th '(' is at column 3*d+1.
	checkErrors(t, "error", list, []string{"1:" + strconv.Itoa(3*d+1) + ": nesting deeper than 200 levels"})

	lim := grounding.ParseLimits{MaxDepth: 3}
	if _, err := grounding.ParseWith("t.kif", []byte(nested(3)), lim); err != nil {
		t.Errorf("MaxDepth 3, depth 3: %v", err)
	}
	f, err := grounding.ParseWith("t.kif", []byte(nested(4)+"\n(role x)\n"+nested(5)), lim)
	if !errors.As(err, &list) {
		t.Fatalf("MaxDepth 3, depth 4: error %v, want an ErrorList", err)
	}
	checkErrors(t, "error", list, []string{"1:10: nesting deeper than 3 levels", "3:10: nesting deeper than 3 levels"})
	if got := f.String(); got != "(role x)\n" {
		t.Errorf("partial file = %q, want the rule after the deep one", got)
	}
}

// Very deep input neither overflows the stack nor takes long.
func TestParseVeryDeep(t *testing.T) {
	const n = 1 << 20
	src := strings.Repeat("(", n) + strings.Repeat(")", n) + "(role x)" + strings.Repeat("(", n)
	f, err := grounding.Parse("t.kif", []byte(src))
	var list grounding.ErrorList
	if !errors.As(err, &list) || len(list) != 3 {
		t.Fatalf("error %v, want 3 errors (too deep, unclosed, too deep)", err)
	}
	if f.String() != "(role x)\n" {
		t.Errorf("partial file = %q", f.String())
	}
}

func TestParseMaxBytes(t *testing.T) {
	src := []byte("(role x)\n(init s)\n")
	if _, err := grounding.ParseWith("t.kif", src, grounding.ParseLimits{MaxBytes: len(src)}); err != nil {
		t.Errorf("MaxBytes = len(src): %v", err)
	}
	_, err := grounding.ParseWith("t.kif", src, grounding.ParseLimits{MaxBytes: len(src) - 1})
	if !errors.Is(err, grounding.ErrLimit) {
		t.Fatalf("MaxBytes = len(src)-1: error %v, want ErrLimit", err)
	}
	var le *grounding.LimitError
	if !errors.As(err, &le) {
		t.Fatalf("error %T, want *LimitError", err)
	}
	// LimitError.What names the field of the limits struct (ParseLimits.MaxBytes).
	if le.What != "MaxBytes" || le.Limit != int64(len(src)-1) || le.Got != int64(len(src)) {
		t.Errorf("LimitError = %+v, want What MaxBytes, Limit %d, Got %d", le, len(src)-1, len(src))
	}
	// The default is DefaultMaxSourceBytes.
	big := make([]byte, grounding.DefaultMaxSourceBytes+1)
	for i := range big {
		big[i] = ' '
	}
	if _, err := grounding.Parse("t.kif", big); !errors.Is(err, grounding.ErrLimit) {
		t.Errorf("DefaultMaxSourceBytes+1 bytes: error %v, want ErrLimit", err)
	}
	if _, err := grounding.Parse("t.kif", big[:grounding.DefaultMaxSourceBytes]); err != nil {
		t.Errorf("DefaultMaxSourceBytes bytes: %v", err)
	}
}

var canonicalTermTests = []struct {
	in, want string
	err      string // regexp; "" for none
}{
	{"noop", "noop", ""},
	{"(MARK 1  1)", "(mark 1 1)", ""},
	{" ( move\t(pos a 1) (pos b 2) ) ", "(move (pos a 1) (pos b 2))", ""},
	{"(noop)", "noop", ""},
	{"", "", "want exactly one term, got 0"},
	{"a b", "", "want exactly one term, got 2"},
	{"(mark ?x 1)", "", "must not contain variables"},
	{"?x", "", "must not contain variables"},
	{"(mark 1", "", "unclosed"},
	{"()", "", "empty list"},
	{"(mark 1))", "", "unexpected '\\)'"},
	{"<=", "", "'<=' can only start a rule"},
	{"(a \xff)", "", "invalid UTF-8"},
}

func TestCanonicalTerm(t *testing.T) {
	for _, tc := range canonicalTermTests {
		got, err := grounding.CanonicalTerm(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("CanonicalTerm(%q) error %v", tc.in, err)
		case tc.err != "" && (err == nil || !regexp.MustCompile(tc.err).MatchString(err.Error())):
			t.Errorf("CanonicalTerm(%q) = %q, %v, want error /%s/", tc.in, got, err, tc.err)
		case got != tc.want:
			t.Errorf("CanonicalTerm(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestErrorList(t *testing.T) {
	var l grounding.ErrorList
	if l.Err() != nil {
		t.Errorf("empty ErrorList.Err() = %v, want nil", l.Err())
	}
	for i := 12; i >= 1; i-- {
		l.Add("a.kif", grounding.Pos{Line: i, Col: 2}, "problem %d", i)
	}
	l.Add("a.kif", grounding.Pos{Line: 3, Col: 2}, "problem %d", 3) // duplicate
	l.Add("a.kif", grounding.Pos{Line: 3, Col: 1}, "other")
	l.Sort()
	if len(l) != 13 {
		t.Fatalf("after Sort: %d errors, want 13 (one duplicate dropped)", len(l))
	}
	if l[2].Msg != "other" || l[3].Msg != "problem 3" || l[4].Msg != "problem 4" {
		t.Errorf("sorted = %v", l)
	}
	lines := strings.Split(l.Err().Error(), "\n")
	if len(lines) != 11 || lines[0] != "a.kif:1:2: problem 1" || lines[10] != "(and 3 more errors)" {
		t.Errorf("Error() = %q, want 10 errors and a count of the rest", lines)
	}
	for _, tc := range []struct {
		e    grounding.Error
		want string
	}{
		{grounding.Error{File: "a.kif", Pos: grounding.Pos{Line: 12, Col: 7}, Msg: "m"}, "a.kif:12:7: m"},
		{grounding.Error{Pos: grounding.Pos{Line: 1, Col: 1}, Msg: "m"}, "1:1: m"},
		{grounding.Error{File: "a.kif", Msg: "m"}, "a.kif: m"},
		{grounding.Error{Msg: "m"}, "m"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v.Error() = %q, want %q", tc.e, got, tc.want)
		}
	}
}

// Every game of the corpora prints to KIF that parses back to the same rules.
func TestParsePrintCorpus(t *testing.T) {
	var files []string
	for _, dir := range corpusDirs {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.kif"))
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Skip("game corpus not available")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := grounding.Parse(filepath.Base(path), src)
		if err != nil {
			continue // some corpus games are invalid on purpose
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			text := f.String()
			g, err := grounding.Parse(f.Name, []byte(text))
			if err != nil {
				t.Fatalf("reparse: %v", err)
			}
			if g.String() != text {
				t.Errorf("reparse prints differently")
			}
			if !reflect.DeepEqual(stripPositions(f.Rules), stripPositions(g.Rules)) {
				t.Errorf("reparse gives other rules")
			}
		})
	}
}

// corpusDirs are the game collections in shared/ (absent ones are skipped).
var corpusDirs = []string{
	filepath.Join(testgames.Root(), "ggp-base-tests"),
	filepath.Join(testgames.Root(), "ggp-base"),
}
