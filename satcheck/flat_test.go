package satcheck_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// linesGame is a game of 32 propositions whose terminal is "some line
// holds", 8 lines of 4, grouped by group: a tree of ORs over the lines.
// With dup, the first line appears a second time in an inner OR.
func linesGame(name string, group func(q *prog, ls []grounding.Lit) grounding.Lit, change bool) *grounding.Program {
	var props []string
	for i := range 32 {
		props = append(props, fmt.Sprintf("p%d", i))
	}
	q := newProg(name, []string{"r"}, props, [][]string{{"a", "b"}})
	var lines []grounding.Lit
	for l := range 8 {
		var cells []grounding.Lit
		for c := range 4 {
			cells = append(cells, q.t(fmt.Sprintf("p%d", 4*l+c)))
		}
		if change && l == 7 {
			cells[3] = cells[3].Not()
		}
		lines = append(lines, q.and(cells...))
	}
	q.p.Terminal = group(q, lines)
	return q.done()
}

// TestFlatStructure checks that pairs equal up to the grouping of ANDs
// and ORs (repeated disjuncts, and a disjunct that holds a set and its
// negation) are proven by flattened structure, with no SAT call, and that
// a pair that differs is still found different.
func TestFlatStructure(t *testing.T) {
	pairs := func(q *prog, ls []grounding.Lit) grounding.Lit {
		var ps []grounding.Lit
		for i := 0; i < len(ls); i += 2 {
			ps = append(ps, q.or(ls[i], ls[i+1]))
		}
		return q.or(q.or(ps[0], ps[1]), q.or(ps[2], ps[3]))
	}
	chain := func(q *prog, ls []grounding.Lit) grounding.Lit {
		l := ls[len(ls)-1]
		for i := len(ls) - 2; i >= 0; i-- {
			l = q.or(ls[i], l)
		}
		return q.or(ls[0], l) // the first line twice
	}
	// Some line, or no line and yet some line (always false).
	contradiction := func(q *prog, ls []grounding.Lit) grounding.Lit {
		var none []grounding.Lit
		for _, l := range ls {
			none = append(none, l.Not())
		}
		return q.or(q.or(ls...), q.and(append(none, q.or(ls...))...))
	}
	a := linesGame("a", pairs, false)
	for _, tc := range []struct {
		name string
		b    *grounding.Program
		want bool
	}{
		{"OK", linesGame("b", chain, false), true},
		{"ErrDiffers", linesGame("b", chain, true), false},
		{"OKContradiction", linesGame("b", contradiction, false), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustChecker(t, a, tc.b, satcheck.Options{})
			im := identity(a).InputMap(a, tc.b)
			got, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, a.Terminal, tc.b.Terminal, im)
			if err != nil || got != tc.want {
				t.Fatalf("CheckFunc = %v, %v, want %v", got, err, tc.want)
			}
			if st := c.Stats(); tc.want && (st.SATCalls != 0 || st.Structural != 1) {
				t.Errorf("stats %+v, want one structural proof and no SAT call", st)
			}
		})
	}
}
