package mutate

import (
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// strictlySafe reads bodies through the grounder's own expansion: a
// disjunction of distinct tests is one literal whose variables must all be
// bound, negation is pushed inward, and every alternative must bind the head.
func TestStrictlySafe(t *testing.T) {
	for _, tc := range []struct {
		rule string
		want bool
	}{
		{"(<= (p ?x) (q ?x))", true},
		{"(<= (p ?x) (q ?x) (or (distinct ?x a) (distinct ?x b)))", true},
		{"(<= (p ?x) (q ?x) (or (distinct ?x a) (distinct ?y b)))", false},
		{"(<= (p ?x) (q ?x ?y) (not (and (distinct ?x a) (distinct ?y b))))", true},
		{"(<= (p ?x) (or (q ?x) (r ?x)))", true},
		{"(<= (p ?x) (or (q ?x) (r a)))", false},
		{"(<= (p ?x) (q ?x) (not (r ?x ?z)))", false},
		{"(<= (p ?x) (not (not (q ?x))))", true},
	} {
		f, err := grounding.Parse("rule.kif", []byte(tc.rule))
		if err != nil {
			t.Fatal(err)
		}
		if got := strictlySafe(f.Rules[0]); got != tc.want {
			t.Errorf("strictlySafe(%s) = %v, want %v", tc.rule, got, tc.want)
		}
	}
}
