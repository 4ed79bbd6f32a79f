package grounding

import (
	"fmt"
	"strings"
	"testing"
)

// blowMergeGame (from the review of issue-var22): n next rules of one
// shape, each with m symmetric (true (q ?x ?yi)) literals (m! matchings)
// and a constant (true (r K)) that makes every pair fail only at the end.
func blowMergeGame(n, m int) string {
	var sb strings.Builder
	sb.WriteString("(role r) (init (q 1 1)) (num 1) (num 2) (num 3)\n(<= (legal r (go ?x)) (num ?x))\n(<= (next (q ?x ?x)) (does r (go ?x)))\n")
	for k := range n {
		fmt.Fprintf(&sb, "(init (r %d))\n(<= (next (p ?x))", k)
		for i := range m {
			fmt.Fprintf(&sb, " (true (q ?x ?y%d))", i)
		}
		fmt.Fprintf(&sb, " (true (r %d)) (distinct ?y0 %d))\n", k, k)
	}
	sb.WriteString("(<= terminal (true (p 1)))\n(<= (goal r 100) (true (p 2)))\n(<= (goal r 0) (not (true (p 2))))\n")
	return sb.String()
}

// TestMergeChecksTotalBudget: 200 rules whose 19,900 pairs each use up
// maxMergeSteps stop at maxMergeTotalSteps (the pass took 27 CPU s
// without it), and the game stays the same as without the pass.
func TestMergeChecksTotalBudget(t *testing.T) {
	src := blowMergeGame(200, 8)
	c := compileThrough(t, src, true)
	if c.mergeSteps < maxMergeTotalSteps || c.mergeSteps > maxMergeTotalSteps+maxMergeSteps+64 {
		t.Fatalf("mergeChecks used %d steps; want the pass stopped at its budget %d", c.mergeSteps, maxMergeTotalSteps)
	}
	got := groundVisited(t, "blow.kif", src, variant{})
	want := groundVisited(t, "blow.kif", src, variant{noMergeChecks: true})
	if err := sameGame(got, want, 1000); err != nil {
		t.Errorf("with and without mergeChecks: %v", err)
	}
}
