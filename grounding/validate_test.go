package grounding_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// The files testdata/*.kif carry their expected diagnostics as comments on the
// line where each must be reported (go/parser's error_test.go style):
//
//	(role a b) ; ERROR "role takes 1 argument"
//
// A comment may hold several markers. ERROR markers match errors of Parse or
// Ground, WARNING markers File.Warnings or Program.Warnings, NOTE markers
// Program.Notes; the text between the quotes is a regexp (\" for a quote)
// matched against the message (without its FILE:LINE:COL prefix). A marker written
// "NOPOS ERROR" matches an error that carries no position (such as "no roles"),
// wherever the marker stands. Every diagnostic must match a marker and every
// marker must be matched. Ground returns no warnings with its errors, so in a
// file that does not ground only the parser's warnings are checked.
var markerRE = regexp.MustCompile(`(NOPOS\s+)?(ERROR|WARNING|NOTE)\s+("(?:[^"\\]|\\.)*")`)

type marker struct {
	kind  string // ERROR, WARNING or NOTE
	line  int    // 0 for NOPOS
	re    *regexp.Regexp
	text  string
	found bool
}

// readMarkers collects the markers in the comments of src.
func readMarkers(t *testing.T, src []byte) []*marker {
	t.Helper()
	var ms []*marker
	for i, line := range bytes.Split(src, []byte("\n")) {
		semi := bytes.IndexByte(line, ';')
		if semi < 0 {
			continue
		}
		for _, m := range markerRE.FindAllSubmatch(line[semi:], -1) {
			text := string(m[3][1 : len(m[3])-1])
			re, err := regexp.Compile(text)
			if err != nil {
				t.Fatalf("line %d: bad marker regexp %q: %v", i+1, text, err)
			}
			mk := &marker{kind: string(m[2]), line: i + 1, re: re, text: text}
			if len(m[1]) > 0 {
				mk.line = 0
			}
			ms = append(ms, mk)
		}
	}
	return ms
}

// checkMarkers matches diagnostics of one kind against the markers.
func checkMarkers(t *testing.T, kind, file string, got grounding.ErrorList, ms []*marker) {
	t.Helper()
	for _, e := range got {
		if e.File != file {
			t.Errorf("%s %v: File = %q, want %q", kind, e, e.File, file)
		}
		line := 0
		if e.Pos.IsValid() {
			line = e.Pos.Line
			if e.Pos.Col < 1 {
				t.Errorf("%s %v: column %d < 1", kind, e, e.Pos.Col)
			}
			prefix := file + ":" + e.Pos.String() + ": "
			if !strings.HasPrefix(e.Error(), prefix) {
				t.Errorf("%s %q does not start with %q", kind, e.Error(), prefix)
			}
		}
		matched := false
		for _, m := range ms {
			if m.kind == kind && !m.found && m.line == line && m.re.MatchString(e.Msg) {
				m.found, matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("unexpected %s: %v", kind, e)
		}
	}
}

// diagnostics parses and grounds a testdata file and returns what it reported.
func diagnostics(t *testing.T, name string, src []byte) (errs, warnings, notes grounding.ErrorList, grounded bool) {
	t.Helper()
	f, err := grounding.Parse(name, src)
	if err == nil {
		var p *grounding.Program
		p, err = grounding.Ground(context.Background(), f, grounding.Limits{})
		if p != nil {
			return nil, p.Warnings, p.Notes, true
		}
	}
	if f != nil {
		warnings = f.Warnings
	}
	var list grounding.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v (%T) is not an ErrorList", err, err)
	}
	if len(list) == 0 {
		t.Fatalf("empty ErrorList returned as an error")
	}
	return list, warnings, nil, false
}

func TestErrorMarkers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.kif"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ms := readMarkers(t, src)
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			errs, warnings, notes, grounded := diagnostics(t, name, src)
			wantErr := slices.ContainsFunc(ms, func(m *marker) bool { return m.kind == "ERROR" })
			if grounded && wantErr {
				t.Errorf("grounded without error, want the errors marked")
			}
			if !grounded && !wantErr {
				t.Errorf("errors, want none:\n%v", errs)
			}
			if !slices.IsSortedFunc(errs, comparePos) {
				t.Errorf("errors are not sorted by position:\n%v", errs)
			}
			checkMarkers(t, "ERROR", name, errs, ms)
			checkMarkers(t, "WARNING", name, warnings, ms)
			checkMarkers(t, "NOTE", name, notes, ms)
			for _, m := range ms {
				if m.found {
					continue
				}
				switch {
				case !grounded && m.kind == "NOTE":
					t.Errorf("line %d: NOTE %q cannot be checked in a file that does not ground", m.line, m.text)
				case m.line == 0:
					t.Errorf("missing %s without position matching %q", m.kind, m.text)
				default:
					t.Errorf("%s:%d: missing %s matching %q", name, m.line, m.kind, m.text)
				}
			}
		})
	}
}

func comparePos(a, b *grounding.Error) int {
	if a.Pos.Line != b.Pos.Line {
		return a.Pos.Line - b.Pos.Line
	}
	return a.Pos.Col - b.Pos.Col
}

// A variable that occurs only in one negated literal reads as "there is no
// value such that ...": terminal below holds exactly when no cell is left.
const negLocalGame = `
(role x)
(init (cell 1))
(init (cell 2))
(<= (legal x (clear ?i)) (true (cell ?i)))
(<= (legal x wait) (not (true (cell 1))))
(<= (next (cell ?i)) (true (cell ?i)) (not (does x (clear ?i))))
(<= (emptycell ?i) (true (cell ?i)))
(<= terminal (not (emptycell ?i)))
(<= (goal x 100) terminal)
`

func TestNegatedLocalVariable(t *testing.T) {
	p := mustLoad(t, "neglocal.kif", negLocalGame)
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0].Msg, "unsafe variable ?i inside not") {
		t.Errorf("Warnings = %v, want one warning about ?i", p.Warnings)
	}
	s := grounding.NewSim(p)
	for i, move := range []string{"(clear 1)", "(clear 2)"} {
		if s.Terminal() {
			t.Fatalf("terminal before move %d, state %v", i+1, s.StateProps())
		}
		playNames(t, p, s, move)
	}
	if !s.Terminal() {
		t.Fatalf("not terminal with no cell left, state %v", s.StateProps())
	}
	// Clearing only cell 2 leaves cell 1: not terminal.
	s = grounding.NewSim(p)
	playNames(t, p, s, "(clear 2)")
	if s.Terminal() {
		t.Errorf("terminal with cell 1 left")
	}
}

// An unbound role variable in a legal head ranges over the roles.
func TestUnboundRoleVariable(t *testing.T) {
	p := mustLoad(t, "rolevar.kif", `
(role a) (role b)
(init s)
(<= (legal ?p noop) (true s))
(<= (next t) (true s))
(<= terminal (true t))
(<= (goal ?p 50) (true t))`)
	if len(p.Notes) != 2 {
		t.Errorf("Notes = %v, want 2", p.Notes)
	}
	s := grounding.NewSim(p)
	for r := range p.Roles {
		if got := simLegalNames(p, s, r); !slices.Equal(got, []string{"noop"}) {
			t.Errorf("legal moves of %s = %v, want [noop]", p.Roles[r], got)
		}
	}
	playNames(t, p, s, "noop", "noop")
	for r := range p.Roles {
		if got := s.Goals(r); !slices.Equal(got, []int{50}) {
			t.Errorf("goals of %s = %v, want [50]", p.Roles[r], got)
		}
	}
}

// An unbound role variable together with a variable local to a negated
// literal: the role literal the first adds and the "there is no" literal the
// second rewrites must both stay (found by FuzzValidate).
func TestUnboundRoleVariableWithNegatedLocal(t *testing.T) {
	for _, tc := range []struct{ head, want string }{
		{"(legal ?p noop)", "noop"},
		{"(legal ?p (move ?p))", "(move a)"},
	} {
		t.Run(tc.head, func(t *testing.T) {
			src := "(role a)\n(init s)\n(<= " + tc.head + " (not (true (blocked ?x))))\n" +
				"(<= (next s) (true s))\n(<= terminal (true s))\n(goal a 100)\n"
			var p *grounding.Program
			var err error
			noPanic(t, "Load", func() { p, err = grounding.Load(context.Background(), "t.kif", []byte(src), grounding.Limits{}) })
			if err != nil {
				t.Fatalf("Load(%q): %v", src, err)
			}
			if got := simLegalNames(p, grounding.NewSim(p), 0); !slices.Equal(got, []string{tc.want}) {
				t.Errorf("legal moves of a = %v, want [%s]", got, tc.want)
			}
		})
	}
}

// An unsafe variable of a static rule ranges over every ground term.
func TestStaticUnsafeVariable(t *testing.T) {
	p := mustLoad(t, "static.kif", `
(role r)
(init (at 1))
(any ?x)
(<= (legal r (go ?y)) (true (at ?x)) (any ?y) (succ ?x ?y))
(succ 1 2)
(<= (next (at ?y)) (does r (go ?y)))
(<= terminal (true (at 2)))
(<= (goal r 100) (true (at 2)))`)
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0].Error(), "static.kif:4:1: unsafe variable ?x") {
		t.Errorf("Warnings = %v, want one about ?x at 4:1", p.Warnings)
	}
	s := grounding.NewSim(p)
	if got := simLegalNames(p, s, 0); !slices.Equal(got, []string{"(go 2)"}) {
		t.Fatalf("legal = %v, want [(go 2)]", got)
	}
	playNames(t, p, s, "(go 2)")
	if !s.Terminal() {
		t.Errorf("not terminal after (go 2)")
	}
}

// Goal values must be distinct per role: "100", "+100" and "0100" are three
// symbols but one value, and Program.Goals must not list value 100 three times.
func TestGoalValuesDistinct(t *testing.T) {
	f, err := grounding.Parse("goals.kif", []byte(`
(role x)
(init s)
(legal x noop)
(<= (next t) (true s))
(<= terminal (true t))
(<= (goal x 100) (true t))
(<= (goal x +100) (true s))
(<= (goal x 0100) (true s))`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	if err != nil {
		return // rejecting non-canonical integers is fine too
	}
	for r, gs := range p.Goals {
		for i := 1; i < len(gs); i++ {
			if gs[i].Value == gs[i-1].Value {
				t.Errorf("role %s lists goal value %d twice: %v", p.Roles[r], gs[i].Value, gs)
			}
		}
	}
}

// mustLoad parses and grounds a description with the default limits.
func mustLoad(t testing.TB, name, src string) *grounding.Program {
	t.Helper()
	p, err := grounding.Load(context.Background(), name, []byte(src), grounding.Limits{})
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return p
}

// playNames plays a joint move given as action names, one per role.
func playNames(t *testing.T, p *grounding.Program, s *grounding.Sim, moves ...string) {
	t.Helper()
	ids := make([]int, len(moves))
	for r, m := range moves {
		a, ok := p.ActionID(r, m)
		if !ok || !s.IsLegal(r, a) {
			t.Fatalf("move %s of %s is not legal; legal: %v", m, p.Roles[r], simLegalNames(p, s, r))
		}
		ids[r] = a
	}
	s.Step(ids)
}

// simLegalNames lists the names of the legal moves of role r.
func simLegalNames(p *grounding.Program, s *grounding.Sim, r int) []string {
	var out []string
	for _, a := range s.Legal(r) {
		out = append(out, p.Actions[r][a])
	}
	return out
}

// unsafeFluentGame has an unsafe variable in a fluent rule, as endgame's
// clearrow: ?v is in the head only.
const unsafeFluentGame = `(role r)
(init (at 1))
(succ 1 2)
(<= (free ?x ?v) (true (at ?x)))
(<= (legal r (go ?y)) (true (at ?x)) (succ ?x ?y) (free ?x ?y))
(<= (next (at ?y)) (does r (go ?y)))
(<= terminal (true (at 2)))
(<= (goal r 100) (true (at 2)))
`

// Strict (the default) rejects an unsafe variable of a fluent rule;
// LenientUnsafe reads it as ranging over every ground term, with a warning
// at the variable's rule that names it.
func TestLenientUnsafe(t *testing.T) {
	_, err := grounding.Load(context.Background(), "u.kif", []byte(unsafeFluentGame), grounding.Limits{})
	if err == nil || !strings.Contains(err.Error(), "u.kif:4:5: unsafe variable ?v") {
		t.Fatalf("strict: error %v, want unsafe variable ?v at 4:5", err)
	}
	p, err := grounding.Load(context.Background(), "u.kif", []byte(unsafeFluentGame), grounding.Limits{LenientUnsafe: true})
	if err != nil {
		t.Fatalf("lenient: %v", err)
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Error() != "u.kif:4:5: unsafe variable ?v in a fluent rule: read as ranging over every ground term of the description" {
		t.Errorf("Warnings = %v, want one about ?v at 4:5", p.Warnings)
	}
	s := grounding.NewSim(p)
	if got := simLegalNames(p, s, 0); !slices.Equal(got, []string{"(go 2)"}) {
		t.Fatalf("legal = %v, want [(go 2)]", got)
	}
	playNames(t, p, s, "(go 2)")
	if !s.Terminal() {
		t.Errorf("not terminal after (go 2)")
	}
}
