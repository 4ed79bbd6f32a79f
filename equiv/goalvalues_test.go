package equiv_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/equiv"
)

// TestGoalValueNeverGiven: a goal value one game gives in a state and the
// other never names decides the comparison before the ground graphs (the
// kind of variant mutate.Different makes: wargame03's seed-1 different
// mutant took the full comparison past 60 s under CI's load). A goal value
// whose rule can never hold is not such a value: that comparison goes on,
// and its verdict is the one without the rule.
func TestGoalValueNeverGiven(t *testing.T) {
	a := source(t, "ggp-base/tictactoe.kif")
	orig := string(a.GDL)
	rule := "(<= (goal xPlayer 0)\n    (line o))"
	if !strings.Contains(orig, rule) {
		t.Fatal("tictactoe.kif changed: the rule to edit is gone")
	}
	for _, tc := range []struct {
		name   string
		gdl    string
		want   equiv.Verdict
		reason string
	}{
		{"value 10 instead of 0", strings.Replace(orig, rule, "(<= (goal xPlayer 10)\n    (line o))", 1), equiv.NotEquivalent, "gives goal value 10 to role xplayer in some state"},
		{"value 10 never holds", orig + "\n(<= (goal oPlayer 10) (line o) (not (line o)))\n", equiv.Equivalent, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := equiv.Source{Name: "variant", GDL: []byte(tc.gdl)}
			for _, pair := range [][2]equiv.Source{{a, b}, {b, a}} {
				rep, err := equiv.Compare(context.Background(), pair[0], pair[1], equiv.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Verdict != tc.want || !strings.Contains(rep.Reason, tc.reason) {
					t.Fatalf("Compare(%s, %s) = %s (%s), want %s (%q)", pair[0].Name, pair[1].Name, rep.Verdict, rep.Reason, tc.want, tc.reason)
				}
				if _, ok := rep.Stats.PhaseMs["graph"]; ok == (tc.want == equiv.NotEquivalent) {
					t.Errorf("Compare(%s, %s): graph phase %v, want it only when the goal values do not decide", pair[0].Name, pair[1].Name, rep.Stats.PhaseMs)
				}
			}
		})
	}
}
