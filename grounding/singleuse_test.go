package grounding_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
)

// singleUseGame has single-use relations of every kind inlineSingleUse
// unfolds: reach, a join of a cell, a move and its target cell with a body
// variable of its own (?d), whose one caller restricts ?a and ?c jointly
// by adj while reach's body binds them in different literals; step, whose
// caller restricts ?a and ?b by succ; isn, a static alias of n; samev,
// whose atoms are those of its caller same one for one. It also has the
// ones it must leave: near (a compound head argument, (f ?b)),
// moved (called twice), blocked (called negatively), adj (two rules) and
// loop (recursive).
const singleUseGame = `(role r)
(init (cell 1 x)) (init (cell 2 o)) (init (cell 3 x)) (init (cell 4 o)) (init (mark 1))
(n 1) (n 2) (n 3) (n 4) (v x) (v o)
(succ 1 2) (succ 2 3) (succ 3 4)
(<= (adj ?a ?b) (succ ?a ?b))
(<= (adj ?a ?b) (succ ?b ?a))
(<= (step ?a ?b ?v) (true (cell ?a ?v)) (true (cell ?b ?v)))
(<= (reach ?a ?v ?c ?w) (true (cell ?a ?v)) (does r (go ?c ?d)) (true (cell ?d ?w)) (not (true (mark ?d))))
(<= (near ?a (f ?b)) (true (cell ?a ?b)) (true (mark ?a)))
(<= (moved ?a) (does r (go ?a ?b)))
(<= (blocked ?a) (true (cell ?a o)))
(<= (loop ?a) (true (mark ?a)))
(<= (loop ?b) (loop ?a) (succ ?a ?b))
(<= (isn ?x) (n ?x))
(<= (legal r (go ?a ?b)) (isn ?a) (n ?b) (distinct ?a ?b))
(<= (legal r wait) (true (mark ?m)))
(<= (next (cell ?c ?v)) (adj ?a ?c) (reach ?a ?v ?c ?w) (distinct ?v ?w))
(<= (next (cell ?a ?v)) (true (cell ?a ?v)) (not (moved ?a)))
(<= (next (mark ?b)) (moved ?a) (succ ?a ?b) (not (blocked ?b)))
(<= (next (mark ?a)) (n ?b) (near ?a (f ?b)))
(<= terminal (loop 4))
(<= (same ?a ?b) (n ?a) (n ?b) (samev ?a ?b))
(<= (samev ?a ?b) (true (cell ?a ?v)) (true (cell ?b ?v)) (distinct ?a ?b))
(<= terminal (same 2 4))
(<= terminal (succ ?a ?b) (step ?a ?b x))
(<= (goal r 100) (true (cell 4 x)))
(<= (goal r 0) (not (true (cell 4 x))))
`

// Unfolding single-use relations changes no keyword function. (That it
// pays is TestCircuitSingleUseFolded's: on a game this small the demand
// rewrite already keeps reach to what its caller asks.)
func TestSingleUseSameGame(t *testing.T) {
	checkSingleUseSameGame(t, "singleuse.kif", singleUseGame, grounding.Limits{}, rand.New(rand.NewPCG(18, 19)))
}

// checkSingleUseSameGame grounds the description src with and without
// unfolding single-use relations and checks that both give the same game.
func checkSingleUseSameGame(t *testing.T, name, src string, lim grounding.Limits, rng *rand.Rand) {
	t.Helper()
	f, err := grounding.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	with, err := grounding.Ground(context.Background(), f, lim)
	if err != nil {
		t.Fatal(err)
	}
	without, err := grounding.GroundNoSingleUse(context.Background(), f, lim)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("nodes with %d, without %d", with.Circuit.NumNodes(), without.Circuit.NumNodes())
	checkSameGame(t, without, with, rng)
}

// Corpus games and their folded variants ground to the same game with and
// without unfolding (the short list of TestDemandSameGame).
func TestSingleUseCorpusSameGame(t *testing.T) {
	if testing.Short() {
		t.Skip("big games (about 2 minutes)")
	}
	// mummymaze2p, CephalopodMicro and qyshinsu (widened relations, session
	// 21) are the corpus games whose Program the unfolding changes (a few
	// gates fewer); knightazons' fold variant has a widened relation.
	for _, g := range append([]string{"mummymaze2p", "CephalopodMicro", "qyshinsu", "knightazons"}, demandGames...) {
		path := filepath.Join(corpusDir, "ggp-base", g+".kif")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("corpus not found: %v", err)
		}
		t.Run(g, func(t *testing.T) {
			f, err := grounding.Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			v, err := mutate.Equivalent(f, 1, mutate.Options{Ops: mutate.Fold | mutate.Unfold | mutate.SplitOr})
			if err != nil {
				t.Fatal(err)
			}
			lim := grounding.Limits{LenientUnsafe: true, Timeout: *corpusTimeout}
			for _, f := range []*grounding.File{f, v.File} {
				with, err := grounding.Ground(context.Background(), f, lim)
				if errors.Is(err, grounding.ErrLimit) {
					t.Skip(err)
				}
				if err != nil {
					t.Fatal(err)
				}
				without, err := grounding.GroundNoSingleUse(context.Background(), f, lim)
				if errors.Is(err, grounding.ErrLimit) {
					t.Logf("%s grounds only with the unfolding: %v", f.Name, err)
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				checkSameGame(t, without, with, rand.New(rand.NewPCG(20, 21)))
			}
		})
	}
}

// checkers-mustjump-torus's variant of seed 2 (all transformations) has a
// fold of one next rule's literals into an auxiliary relation of eight
// variables over true, does and a static relation: 91,776 atoms and
// 172,032 gates the original joins inside the rule, 6.6 times the
// original's circuit until single-use relations were unfolded.
func TestCircuitSingleUseFolded(t *testing.T) {
	if testing.Short() {
		t.Skip("a big game's variant (30-40 s)")
	}
	groundVariant(t, "checkers-mustjump-torus.kif", 2, mutate.AllOps, grounding.Limits{Timeout: *corpusTimeout})
}

// ruleDepthQuadratic's variant of seed 1 by fold alone has (bit ?b) folded
// into an alias relation and a prereq30 rule's last three literals folded
// into a relation over all its variables: dropFreeArgs saw neither bit
// argument as free, and the variant stopped at MaxAtoms (the original has
// 138 nodes). Both are unfolded now.
func TestCircuitSingleUseAliasFolded(t *testing.T) {
	groundVariant(t, "ruleDepthQuadratic.kif", 1, mutate.Fold, grounding.Limits{LenientUnsafe: true, Timeout: *corpusTimeout})
}
