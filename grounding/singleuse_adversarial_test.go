package grounding_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// adversarialSingleUseGames are descriptions whose single-use dynamic relations
// inlineSingleUse unfolds (each call is joined: another literal of the
// caller binds two arguments the relation's body binds apart), in the
// shapes where an unfolding goes wrong if any: a variable passed twice,
// ground and compound arguments, body variables named like the caller's,
// distinct and negation inside the body, a recursive caller, a chain of
// single-use relations, and an unsafe variable read leniently.
var adversarialSingleUseGames = []struct{ name, src string }{
	{"twice", `(role r)
(init (cell 1 x)) (init (cell 2 o)) (init (cell 3 x)) (init (mark 2))
(n 1) (n 2) (n 3) (succ 1 2) (succ 2 3)
(<= (adj ?a ?b) (succ ?a ?b)) (<= (adj ?a ?b) (succ ?b ?a)) (<= (adj ?a ?a) (n ?a))
(<= (aux ?a ?b ?c) (true (cell ?a ?v)) (true (cell ?b ?w)) (distinct ?v ?w) (does r (go ?c ?d)) (not (true (mark ?d))))
(<= (legal r (go ?a ?b)) (n ?a) (n ?b))
(<= (next (hit ?x ?y)) (adj ?x ?y) (aux ?x ?x ?y))
(<= (aux2 ?a ?b ?c) (true (cell ?a ?v)) (true (cell ?b ?v)) (does r (go ?c ?c)))
(<= (next (hot ?x ?y)) (adj ?x ?y) (aux2 ?x ?y ?x))
(<= (next (cell ?a ?v)) (true (cell ?a ?v)))
(<= (next (mark ?a)) (true (mark ?a)))
(<= terminal (true (hit 1 1)))
(<= (goal r 100) (true (hot 2 1)))
(<= (goal r 0) (not (true (hot 2 1))))
`},
	{"capture", `(role r)
(init (cell 1 x)) (init (cell 2 x)) (init (cell 3 o)) (init (cell 4 (f 1)))
(n 1) (n 2) (n 3) (n 4) (succ 1 2) (succ 2 3) (succ 3 4) (v x) (v o) (v (f 1))
(<= (same ?a ?b) (true (cell ?a ?x)) (true (cell ?b ?x)) (distinct ?a ?b) (not (true (cell ?x ?a))))
(<= (both ?p ?q ?r ?s) (true (cell ?p ?r)) (true (cell ?q ?s)) (does r (put ?r)))
(<= (legal r (put ?v)) (v ?v))
(<= (next (eq ?x ?y)) (succ ?x ?y) (same ?x ?y) (n ?x))
(<= (next (pr ?a)) (succ ?a ?b) (both ?a ?b (f ?a) o))
(<= (next (cell ?a ?v)) (true (cell ?a ?v)))
(<= (both2 ?p ?q ?r ?s) (true (cell ?p ?r)) (true (cell ?q ?s)) (does r (put ?r)))
(<= (next (cell ?a (f ?a))) (succ ?a ?b) (both2 ?a ?b x (f ?b)))
(<= terminal (true (eq 1 2)))
(<= (goal r 100) (true (pr 3)))
(<= (goal r 0) (not (true (pr 3))))
`},
	{"recursive-chain", `(role r)
(init (cell 1 x)) (init (cell 2 x)) (init (cell 3 o)) (init (cell 4 x)) (init (mark 1))
(n 1) (n 2) (n 3) (n 4) (succ 1 2) (succ 2 3) (succ 3 4)
(<= (link ?x ?y) (true (cell ?x ?v)) (true (cell ?y ?v)) (not (true (mark ?y))))
(<= (path ?a ?b) (true (mark ?a)) (n ?b) (distinct ?a ?b) (succ ?a ?b))
(<= (path ?a ?c) (path ?a ?b) (succ ?b ?c) (link ?b ?c))
(<= (inner ?a ?b ?m) (true (cell ?a ?m)) (does r (flip ?b)))
(<= (outer ?a ?b) (succ ?a ?b) (inner ?a ?b ?m) (true (cell ?b ?m)))
(<= (legal r (flip ?a)) (n ?a))
(<= (next (cell ?a ?v)) (true (cell ?a ?v)) (not (does r (flip ?a))))
(<= (next (cell ?a o)) (does r (flip ?a)) (true (cell ?a x)))
(<= (next (cell ?a x)) (does r (flip ?a)) (true (cell ?a o)))
(<= (next (mark ?b)) (succ ?a ?b) (outer ?a ?b))
(<= (next (mark ?a)) (true (mark ?a)))
(<= terminal (path 1 4))
(<= (goal r 100) (path 1 3))
(<= (goal r 0) (not (path 1 3)))
`},
	{"lenient", `(role r)
(init (cell 1 x)) (init (cell 2 x)) (init (cell 3 o))
(n 1) (n 2) (n 3) (succ 1 2) (succ 2 3)
(<= (aux ?a ?b ?c) (true (cell ?a ?v)) (true (cell ?b ?v)) (distinct ?c ?a))
(<= (legal r noop) (true (cell 1 ?v)))
(<= (next (u ?a ?c)) (succ ?a ?b) (aux ?a ?b ?c) (n ?c))
(<= (next (cell ?a ?v)) (true (cell ?a ?v)))
(<= terminal (true (u 1 3)))
(<= (goal r 100) (true (u 2 1)))
(<= (goal r 0) (not (true (u 2 1))))
`},
}

// Unfolding single-use relations changes no keyword function on any of
// adversarialSingleUseGames (from the review of issue-ground18).
func TestSingleUseAdversarialSameGame(t *testing.T) {
	for _, tc := range adversarialSingleUseGames {
		t.Run(tc.name, func(t *testing.T) {
			checkSingleUseSameGame(t, tc.name+".kif", tc.src, grounding.Limits{LenientUnsafe: true}, rand.New(rand.NewPCG(18, 20)))
		})
	}
}
