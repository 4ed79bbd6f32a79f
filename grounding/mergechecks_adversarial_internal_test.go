package grounding

import (
	"fmt"
	"testing"
)

// Adversarial (review of issue-var22): rule pairs mergeChecks may join or
// must not; each grounds to the same game with and without mergeChecks.
func TestMergeChecksAdversarial(t *testing.T) {
	tail := `
(role r) (num 1) (num 2) (num 3)
(init (q 1 2)) (init (q 2 1)) (init (q 3 3)) (init (s 2))
(<= (legal r (go ?x)) (num ?x))
(<= (next (q ?x ?y)) (does r (go ?x)) (num ?y) (distinct ?x ?y))
(<= (next (s ?x)) (does r (go ?x)))
(<= terminal (true (p 1 1)))
(<= (goal r 100) (true (p 2 2)))
(<= (goal r 0) (not (true (p 2 2))))
`
	cases := []string{
		// symmetric body: the renaming may swap ?y and ?z
		`(<= (next (p ?x ?x)) (true (q ?x ?y)) (true (q ?x ?z)) (distinct ?y 1))
		 (<= (next (p ?a ?a)) (true (q ?a ?c)) (true (q ?a ?b)) (distinct ?b 2))`,
		// argument order differs: must not merge into the other's test
		`(<= (next (p ?x ?y)) (true (q ?x ?y)) (distinct ?x 1))
		 (<= (next (p ?x ?y)) (true (q ?y ?x)) (distinct ?x 1))`,
		// negation differs
		`(<= (next (p ?x ?x)) (true (q ?x ?y)) (not (true (s ?y))) (distinct ?x ?y))
		 (<= (next (p ?x ?x)) (true (q ?x ?y)) (not (true (s ?x))) (distinct ?x 3))`,
		// two tests each, crossed
		`(<= (next (p ?x ?y)) (true (q ?x ?y)) (distinct ?x 1) (distinct ?y 2))
		 (<= (next (p ?x ?y)) (true (q ?x ?y)) (distinct ?y 3) (distinct ?x 1))
		 (<= (next (p ?x ?y)) (true (q ?x ?y)) (distinct ?y 3) (distinct ?x 2))`,
		// a test on a variable only the other rule's test reads
		`(<= (next (p ?x ?x)) (true (q ?x ?y)) (true (s ?z)) (distinct ?z 1))
		 (<= (next (p ?x ?x)) (true (q ?x ?y)) (true (s ?z)) (distinct ?y 1))`,
		// disjunction against a single test, and an equal test (no merge)
		`(<= (next (p ?x ?x)) (true (q ?x ?y)) (or (distinct ?x 1) (distinct ?y 1)))
		 (<= (next (p ?x ?x)) (true (q ?x ?y)) (distinct ?x 2))
		 (<= (next (p ?x ?x)) (true (q ?x ?y)) (not (distinct ?x 3)))`,
		// folded static relation with an existential variable
		`(<= (next (p ?x ?x)) (true (q ?x ?y)) (num ?x) (true (q ?y ?w)) (distinct ?x 1))
		 (<= (next (p ?u ?u)) (true (q ?u ?v)) (aux ?u ?v) (distinct ?u 2))
		 (<= (aux ?a ?b) (num ?a) (true (q ?b ?c)))`,
		// folded relation not static: stays
		`(<= (next (p ?x ?x)) (true (q ?x ?y)) (num ?x) (distinct ?x 1))
		 (<= (next (p ?u ?u)) (true (q ?u ?v)) (nn ?u) (distinct ?u 2))
		 (<= (nn ?a) (num ?a))`,
		// function terms and constants
		`(<= (next (p ?x ?x)) (true (q ?x ?y)) (distinct (f ?x ?y) (f 1 2)))
		 (<= (next (p ?x ?x)) (true (q ?x ?y)) (distinct (f ?y ?x) (f 1 2)))`,
	}
	for i, c := range cases {
		sameWithoutMerge(t, fmt.Sprintf("adv%d.kif", i), c+tail)
		t.Logf("case %d: next rules %d apart, %d merged", i, rulesOfRel(compileThrough(t, c+tail, false), "next"), rulesOfRel(compileThrough(t, c+tail, true), "next"))
	}
}
