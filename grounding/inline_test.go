package grounding_test

import (
	"context"
	"flag"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// checksGame has check relations of every kind inlineChecks unfolds
// (distpair as minichess's, an or of tests, a variable of the body alone)
// and one it leaves (called negatively). Its counter builds terms that are
// not in the description, (s (s (s z))), which an unsafe variable does not
// range over: unfolding must keep that.
const checksGame = `(role r)
(init (cell a z)) (init (cell b z)) (init (count z))
(col a) (col b) (col c)
(<= (distpair ?w ?x ?y ?z) (distinct ?w ?x))
(<= (distpair ?w ?x ?y ?z) (distinct ?y ?z))
(<= (apart ?x ?y ?u) (or (distinct ?x ?y) (distinct ?y ?u)))
(<= (notonly ?x) (distinct ?x ?other))
(<= (same ?x ?y) (not (distinct ?x ?y)))
(<= (legal r (put ?x)) (col ?x) (true (count ?n)) (distpair ?x a ?n (s z)))
(<= (legal r (put ?x)) (col ?x) (true (cell ?x ?n)) (apart ?x b ?x))
(<= (legal r skip) (true (count ?n)) (notonly ?n))
(<= (next (cell ?x ?n)) (does r (put ?x)) (true (count ?n)))
(<= (next (cell ?y ?m)) (true (cell ?y ?m)) (does r (put ?x)) (not (same ?x ?y)))
(<= (next (cell ?y ?m)) (true (cell ?y ?m)) (does r skip))
(<= (next (count (s ?n))) (true (count ?n)) (distpair ?n (s (s z)) ?n ?n))
(<= (next (count ?n)) (true (count ?n)) (does r skip))
(<= terminal (true (count (s (s (s z))))))
(<= (goal r 100) (true (cell c ?n)) (distpair ?n z z z))
(<= (goal r 0) (not (true (cell c (s z)))))
`

// Unfolding check relations changes no keyword function: with and without
// it the game grounds to the same propositions, actions and functions.
func TestInlineChecksSameGame(t *testing.T) {
	f, err := grounding.Parse("checks.kif", []byte(checksGame))
	if err != nil {
		t.Fatal(err)
	}
	with, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	without, err := grounding.GroundNoInline(context.Background(), f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkSameGame(t, without, with, rand.New(rand.NewPCG(7, 8)))
	// Every unsafe variable is still named once per reading.
	var warned []string
	for _, w := range with.Warnings {
		warned = append(warned, w.Error())
	}
	for _, v := range []string{"?y", "?z", "?w", "?x", "?u", "?other"} {
		if !strings.Contains(strings.Join(warned, "\n"), "unsafe variable "+v) {
			t.Errorf("no warning names %s:\n%s", v, strings.Join(warned, "\n"))
		}
	}
}

var inlineFull = flag.Bool("inline.full", false, "TestInlineChecksMinichess also grounds minichess without unfolding (raised limits, about a minute) and compares")

// minichess's distpair holds for every universe^4 tuple but one another:
// unfolded, the game grounds in the lenient reading under the default
// limits, and grounds the same with the limits raised far enough to
// instantiate distpair as written.
func TestInlineChecksMinichess(t *testing.T) {
	f := parseCorpusGame(t, "minichess")
	lim := grounding.Limits{LenientUnsafe: true}
	with, err := grounding.Ground(context.Background(), f, lim)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := grounding.GroundNoInline(context.Background(), f, lim); err == nil {
		t.Fatal("minichess grounds without unfolding distpair: the test no longer shows what unfolding gains")
	}
	if !*inlineFull {
		return
	}
	lim.MaxAtoms, lim.MaxInstances = 40_000_000, 40_000_000
	without, err := grounding.GroundNoInline(context.Background(), f, lim)
	if err != nil {
		t.Skipf("without unfolding, not even with raised limits: %v", err)
	}
	checkSameGame(t, without, with, rand.New(rand.NewPCG(9, 10)))
}
