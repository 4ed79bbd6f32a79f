package grounding_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

func ruleBody(t testing.TB, src string) []*grounding.Literal {
	t.Helper()
	f, err := grounding.Parse("body.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f.Rules[0].Body
}

func showAlternatives(alts [][]grounding.BodyLiteral) string {
	var out []string
	for _, alt := range alts {
		var ls []string
		for _, a := range alt {
			s := a.Lit.String()
			if a.Neg {
				s = "-" + s
			}
			ls = append(ls, s)
		}
		out = append(out, strings.Join(ls, " "))
	}
	return strings.Join(out, " | ")
}

func TestAlternatives(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		limit int
		want  string // "" when over the limit
	}{
		{"(<= (p ?x) (q ?x) (r ?x))", 8, "(q ?x) (r ?x)"},
		{"(<= (p ?x) (or (q ?x) (r ?x)) (s ?x))", 8, "(q ?x) (s ?x) | (r ?x) (s ?x)"},
		// De Morgan: not over or is a conjunction of negations.
		{"(<= (p ?x) (s ?x) (not (or (q ?x) (r ?x))))", 8, "(s ?x) -(q ?x) -(r ?x)"},
		{"(<= (p ?x) (s ?x) (not (and (q ?x) (r ?x))))", 8, "(s ?x) -(q ?x) | (s ?x) -(r ?x)"},
		// A disjunction of distinct tests stays one literal.
		{"(<= (p ?x ?y) (s ?x ?y) (or (distinct ?x a) (distinct ?y a)))", 8, "(s ?x ?y) (or (distinct ?x a) (distinct ?y a))"},
		{"(<= (p ?x ?y) (s ?x ?y) (not (and (distinct ?x a) (not (distinct ?y a)))))", 8, "(s ?x ?y) -(and (distinct ?x a) (not (distinct ?y a)))"},
		{"(<= (p ?x) (or (q ?x) (r ?x)) (or (s ?x) (t ?x)))", 4, "(q ?x) (s ?x) | (q ?x) (t ?x) | (r ?x) (s ?x) | (r ?x) (t ?x)"},
		{"(<= (p ?x) (or (q ?x) (r ?x)) (or (s ?x) (t ?x)))", 3, ""},
	} {
		alts, ok := grounding.Alternatives(ruleBody(t, tc.rule), tc.limit)
		if tc.want == "" {
			if ok {
				t.Errorf("%s, limit %d: %d alternatives, want over the limit", tc.rule, tc.limit, len(alts))
			}
			continue
		}
		if got := showAlternatives(alts); !ok || got != tc.want {
			t.Errorf("%s: got %q (ok %v), want %q", tc.rule, got, ok, tc.want)
		}
	}
}

func ExampleAlternatives() {
	f, _ := grounding.Parse("rule.kif", []byte("(<= (p ?x) (cell ?x) (not (or (blocked ?x) (distinct ?x home))))"))
	alts, ok := grounding.Alternatives(f.Rules[0].Body, grounding.DefaultMaxRuleExpansion)
	fmt.Println(ok, showAlternatives(alts))
	// Output:
	// true (cell ?x) -(blocked ?x) -(distinct ?x home)
}
