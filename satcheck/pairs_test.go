package satcheck_test

import (
	"context"
	"math"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestPairsDifferBigConeNeverSeparates: A's terminal is x0 ∧ x1 computed
// through a chain of about 70,000 gates (g ∨ (g ∧ x) again and again), too
// large to analyse; B's terminal is x0 ∧ x1 in one gate. A first question
// (A's small goal x0 ∧ (x1 ∨ x2) against B's terminal) proves a pattern
// impossible in B's terminal; the pair of the two terminals must not be
// reported different on the strength of it. It was, when a too large cone
// counted as showing every pattern (a review of the first version found it
// reachable end to end, with a wrong not_equivalent).
func TestPairsDifferBigConeNeverSeparates(t *testing.T) {
	props := []string{"x0", "x1", "x2", "x3"}
	qa := newProg("a", []string{"r"}, props, [][]string{{"noop"}})
	x0, x1, x2, x3 := qa.t("x0"), qa.t("x1"), qa.t("x2"), qa.t("x3")
	g := qa.and(x0, x1)
	for k := range 35_000 {
		x := x2
		if k%2 == 1 {
			x = x3
		}
		g = qa.or(g, qa.and(g, x, grounding.InputLit(k%4)))
	}
	qa.p.Terminal = g
	qa.p.Goals[0] = []grounding.Goal{{Value: 100, Lit: qa.and(x0, qa.or(x1, x2))}}
	qa.p.Legal[0][0] = grounding.True
	a := qa.done()
	if n := a.Circuit.NumNodes(); n < 1<<16 {
		t.Fatalf("A's circuit has %d nodes, want more than 65,536", n)
	}
	qb := newProg("b", []string{"r"}, props, [][]string{{"noop"}})
	qb.p.Terminal = qb.and(qb.t("x0"), qb.t("x1"))
	qb.p.Goals[0] = []grounding.Goal{{Value: 100, Lit: qb.and(qb.t("x0"), qb.or(qb.t("x1"), qb.t("x2")))}}
	qb.p.Legal[0][0] = grounding.True
	b := qb.done()

	c := mustChecker(t, a, b, satcheck.Options{})
	ctx := context.Background()
	p0, p1 := int32(0), int32(1)
	// x0 ∧ (x1 ∨ x2) has the pattern (0, 1, 0, 1) on (x0, x1), x0 ∧ x1 not.
	if at, err := c.PairsDiffer(ctx, grounding.FuncGoal, a.Goals[0][0].Lit, b.Terminal, p0, []int32{p1}, p0, []int32{p1}, math.MaxInt64); err != nil || at != 0 {
		t.Fatalf("x0 ∧ (x1 ∨ x2) against x0 ∧ x1 on (x0, x1): PairsDiffer = %d, %v; want 0", at, err)
	}
	if at, err := c.PairsDiffer(ctx, grounding.FuncTerminal, a.Terminal, b.Terminal, p0, []int32{p1}, p0, []int32{p1}, math.MaxInt64); err != nil || at >= 0 {
		t.Fatalf("the two terminals (both x0 ∧ x1) on (x0, x1): PairsDiffer = %d, %v; want -1", at, err)
	}
	if ok, err := c.CheckFunc(ctx, grounding.FuncTerminal, a.Terminal, b.Terminal, []int32{0, 1, 2, 3, 4}); err != nil || !ok {
		t.Fatalf("the terminals are not proven equal: %v, %v", ok, err)
	}
}
