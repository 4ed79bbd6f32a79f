package grounding

import (
	"fmt"
	"strings"
	"testing"
)

// splitChecksGame's legal rule is one disjunction of two tests, written as
// two rules (mutate's split-or) with other variable names and another body
// order (rename-vars, reorder-body); the second rule also has its (num ?x)
// (num ?y) folded into a static relation of its own (fold), which
// mergeChecks unfolds to find the two rules the same but for their tests,
// and makes them one rule again.
const splitChecksGame = `
(role r)
(num 1) (num 2) (num 3) (num 4)
(init (at 1 1)) (init (free 2 2)) (init (free 3 1))
(<= (legal r (go ?x ?y)) (true (at ?a ?b)) (true (free ?x ?y)) (num ?x) (num ?y) (distinct ?x ?a))
(<= (legal r (go ?u ?v)) (nn ?u ?v) (true (free ?u ?v)) (true (at ?c ?d)) (distinct ?d ?v))
(<= (nn ?p ?q) (num ?p) (num ?q))
(<= (next (at ?x ?y)) (does r (go ?x ?y)))
(<= (next (free ?x ?y)) (true (free ?x ?y)) (does r (go ?a ?b)) (or (distinct ?a ?x) (distinct ?b ?y)))
(<= (next (free ?a ?b)) (true (at ?a ?b)))
(<= terminal (true (at 4 4)))
(<= (goal r 100) (true (at 3 1)))
(<= (goal r 0) (not (true (at 3 1))))
`

// splitChecksPlain is the same game as written before the split.
const splitChecksPlain = `
(role r)
(num 1) (num 2) (num 3) (num 4)
(init (at 1 1)) (init (free 2 2)) (init (free 3 1))
(<= (legal r (go ?x ?y)) (true (at ?a ?b)) (true (free ?x ?y)) (num ?x) (num ?y) (or (distinct ?x ?a) (distinct ?y ?b)))
(<= (next (at ?x ?y)) (does r (go ?x ?y)))
(<= (next (free ?x ?y)) (true (free ?x ?y)) (does r (go ?a ?b)) (or (distinct ?a ?x) (distinct ?b ?y)))
(<= (next (free ?a ?b)) (true (at ?a ?b)))
(<= terminal (true (at 4 4)))
(<= (goal r 100) (true (at 3 1)))
(<= (goal r 0) (not (true (at 3 1))))
`

// compileThrough runs the compile passes of groundPass up to mergeChecks
// (included when merge is set).
func compileThrough(t *testing.T, src string, merge bool) *compiler {
	t.Helper()
	f, err := Parse("merge.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := &compiler{file: f.Name, ts: newTermStore(), lim: Limits{}.WithDefaults()}
	c.compile(f)
	if err := c.errs.Err(); err != nil {
		t.Fatal(err)
	}
	sccs := c.analyze()
	c.resolveUnsafe()
	c.dropSubsumed()
	c.dropUnreachable()
	c.dropVisited(sccs)
	c.inlineChecks()
	c.inlineSingleUse()
	if merge {
		c.dropRepeatedAtoms()
		c.mergeChecks()
	}
	return c
}

func rulesOfRel(c *compiler, name string) int {
	for _, r := range c.rels {
		if r.name == name {
			return len(r.rules)
		}
	}
	return -1
}

// TestMergeChecks: the two legal rules become one (they stay two without
// mergeChecks, or when the static nn, folded out of one of them, is not
// unfolded); nn's rule goes with its one call; the game is the same as with them apart and as written
// plainly, and its circuit is no larger than the plain one's.
func TestMergeChecks(t *testing.T) {
	c := compileThrough(t, splitChecksGame, true)
	if n := rulesOfRel(c, "legal"); n != 1 {
		t.Errorf("legal has %d rules after mergeChecks, want 1", n)
	}
	if n := rulesOfRel(c, "nn"); n != 0 {
		t.Errorf("nn has %d rules after mergeChecks, want 0 (unfolded into its one call)", n)
	}
	if n := rulesOfRel(compileThrough(t, splitChecksGame, false), "legal"); n != 2 {
		t.Errorf("legal has %d rules before mergeChecks, want 2", n)
	}
	got := sameWithoutMerge(t, "split.kif", splitChecksGame)
	plain := groundVisited(t, "plain.kif", splitChecksPlain, variant{})
	if err := sameGame(got, plain, 100000); err != nil {
		t.Fatalf("against the game written plainly: %v", err)
	}
	if g, w := got.Circuit.NumNodes(), plain.Circuit.NumNodes(); g > w {
		t.Errorf("circuit nodes %d, %d written plainly", g, w)
	}
}

// mergeKeepsTests are pairs of rules that are not the same but for one
// test each: they must stay apart.
var mergeKeepsTests = []struct {
	name, rules string
}{
	{"other atom", `(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (num ?x) (distinct ?x 1))
(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (num ?y) (distinct ?y 1))`},
	{"two tests differ", `(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (num ?x) (distinct ?x 1) (distinct ?y 2))
(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (num ?x) (distinct ?x 2) (distinct ?y 1))`},
	{"variables swapped in the head", `(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (num ?x) (distinct ?x 1))
(<= (legal r (go ?y ?x)) (true (at ?x ?y)) (num ?x) (distinct ?y 1))`},
	{"a test on a variable of the other atom", `(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (true (at ?y ?z)) (distinct ?z 1))
(<= (legal r (go ?x ?y)) (true (at ?x ?z)) (true (at ?y ?y)) (distinct ?z 1))`},
	{"negated distinct tests (each pins a variable)", `(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (num ?x) (not (distinct ?x 1)))
(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (num ?x) (not (distinct ?x 2)))`},
	{"negated atom", `(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (not (true (at ?y ?x))) (distinct ?x 1))
(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (true (at ?y ?x)) (distinct ?y 1))`},
}

// TestMergeChecksKeeps: rules that differ in more than one test, in an
// atom or in how their variables meet stay apart.
func TestMergeChecksKeeps(t *testing.T) {
	for _, tc := range mergeKeepsTests {
		t.Run(tc.name, func(t *testing.T) {
			src := fmt.Sprintf(`(role r) (num 1) (num 2) (init (at 1 2)) (init (at 2 2))
%s
(<= (next (at ?x ?y)) (does r (go ?x ?y)))
(<= terminal (true (at 2 1)))
(<= (goal r 100) (true (at 2 1)))
(<= (goal r 0) (not (true (at 2 1))))`, tc.rules)
			if n := rulesOfRel(compileThrough(t, src, true), "legal"); n != 2 {
				t.Errorf("legal has %d rules after mergeChecks, want 2", n)
			}
			sameWithoutMerge(t, "keeps.kif", src)
		})
	}
}

// TestMergeRulesBudget: mergeRules merges within exactly the matching
// steps it needs and gives up one step short (maxMergeSteps' behaviour
// at its limit).
func TestMergeRulesBudget(t *testing.T) {
	c := compileThrough(t, strings.Replace(splitChecksGame, "(nn ?u ?v)", "(num ?u) (num ?v)", 1), false)
	var legal []*nrule
	for _, r := range c.rels {
		if r.name == "legal" {
			for _, ri := range r.rules {
				legal = append(legal, c.rules[ri])
			}
		}
	}
	if len(legal) != 2 {
		t.Fatalf("legal has %d rules, want 2", len(legal))
	}
	m, steps := mergeRules(legal[0], legal[1], maxMergeSteps)
	if m == nil || steps == 0 {
		t.Fatalf("mergeRules = %v after %d steps, want a merged rule", m, steps)
	}
	if m2, s2 := mergeRules(legal[0], legal[1], steps); m2 == nil || s2 != steps {
		t.Errorf("with a budget of exactly %d steps: %v after %d steps, want merged", steps, m2, s2)
	}
	if m3, _ := mergeRules(legal[0], legal[1], steps-1); m3 != nil {
		t.Errorf("with a budget of %d steps (one short): merged, want nil", steps-1)
	}
}

// TestMergeChecksCopy: a rule that is a copy of another up to variable
// names and body order (mutate's duplicate, then rename-vars and
// reorder-body) goes, whatever its tests.
func TestMergeChecksCopy(t *testing.T) {
	src := `(role r) (num 1) (num 2) (init (at 1 2)) (init (at 2 2))
(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (num ?x) (not (distinct ?y 2)))
(<= (legal r (go ?a ?b)) (not (distinct 2 ?b)) (num ?a) (true (at ?a ?b)))
(<= (next (at ?x ?y)) (does r (go ?x ?y)))
(<= terminal (true (at 2 1)))
(<= (goal r 100) (true (at 2 1)))
(<= (goal r 0) (not (true (at 2 1))))`
	if n := rulesOfRel(compileThrough(t, src, true), "legal"); n != 1 {
		t.Errorf("legal has %d rules after mergeChecks, want 1", n)
	}
	sameWithoutMerge(t, "copy.kif", src)
}

// sameWithoutMerge checks that src grounds to the same game with and
// without mergeChecks and returns the Program with it.
func sameWithoutMerge(t *testing.T, name, src string) *Program {
	t.Helper()
	got := groundVisited(t, name, src, variant{})
	want := groundVisited(t, name, src, variant{noMergeChecks: true})
	if err := sameGame(got, want, 100000); err != nil {
		t.Fatalf("with and without mergeChecks: %v", err)
	}
	return got
}

// TestDropRepeatedAtoms: a positive literal written twice (mutate's
// duplicate) is read once; a negative one and literals that differ in a
// variable stay. Same game as with the copy.
func TestDropRepeatedAtoms(t *testing.T) {
	src := `(role r) (num 1) (num 2) (init (at 1 2)) (init (at 2 2))
(<= (legal r (go ?x ?y)) (true (at ?x ?y)) (num ?x) (true (at ?x ?y)) (not (true (at 1 1))) (not (true (at 1 1))))
(<= (next (at ?y ?x)) (does r (go ?x ?y)))
(<= (next (at ?x ?y)) (true (at ?x ?y)) (true (at ?x ?y)))
(<= terminal (true (at 2 1)))
(<= (goal r 100) (true (at 2 1)))
(<= (goal r 0) (not (true (at 2 1))))`
	c := compileThrough(t, src, true)
	for _, r := range c.rels {
		if r.name != "legal" {
			continue
		}
		if n := len(c.rules[r.rules[0]].body); n != 4 {
			t.Errorf("legal's body has %d literals, want 4 (one copy of (true (at ?x ?y)) gone)", n)
		}
	}
	sameWithoutMerge(t, "repeated.kif", src)
}
