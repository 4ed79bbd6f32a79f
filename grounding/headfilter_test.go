package grounding_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
)

// racerGame is a one-player racer on an n x n track: velocity and position
// per axis, a move changes each velocity by at most one, and a speed is
// legal when the car lands on the track. Its speed rule joins four fluents
// and the arithmetic that links them, as racer's legal_speed: with the head
// (ndx, ndy) bound, velocities and positions are independent parts.
func racerGame(n int) string {
	var b strings.Builder
	b.WriteString(`(role r) (role s)
(init (vx r 0)) (init (vy r 0)) (init (px r 0)) (init (py r 0))
(init (vx s 0)) (init (vy s 0)) (init (px s 1)) (init (py s 0)) (init (t 0))
(<= (pm ?x ?x) (num ?x))
(<= (pm ?x ?y) (succ ?x ?y))
(<= (pm ?x ?y) (succ ?y ?x))
(<= (speed ?p ?ndx ?ndy)
    (true (vx ?p ?dx)) (true (vy ?p ?dy)) (pm ?dx ?ndx) (pm ?dy ?ndy)
    (true (px ?p ?x)) (true (py ?p ?y)) (add ?x ?ndx ?x2) (add ?y ?ndy ?y2) (track ?x2 ?y2))
(<= (legal ?p (go ?ndx ?ndy)) (speed ?p ?ndx ?ndy))
(<= (next (vx ?p ?ndx)) (does ?p (go ?ndx ?ndy)))
(<= (next (vy ?p ?ndy)) (does ?p (go ?ndx ?ndy)))
(<= (next (px ?p ?x2)) (does ?p (go ?ndx ?ndy)) (true (px ?p ?x)) (add ?x ?ndx ?x2))
(<= (next (py ?p ?y2)) (does ?p (go ?ndx ?ndy)) (true (py ?p ?y)) (add ?y ?ndy ?y2))
(<= (next (t ?t2)) (true (t ?t)) (succ ?t ?t2))
(<= terminal (true (t 5)))
(<= (goal ?p 100) (true (px ?p 3)))
(<= (goal ?p 0) (role ?p) (not (true (px ?p 3))))
`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "(num %d)\n", i)
		if i+1 < n {
			fmt.Fprintf(&b, "(succ %d %d)\n", i, i+1)
		}
		for j := 0; i+j < n; j++ {
			fmt.Fprintf(&b, "(add %d %d %d)\n", i, j, i+j)
		}
		for j := 0; j < n; j++ {
			if (i+j)%3 != 0 {
				fmt.Fprintf(&b, "(track %d %d)\n", i, j)
			}
		}
	}
	return b.String()
}

// The trial join with its fallback to the head filter (headFilter)
// changes no function: the game grounds to the same Program with and
// without it. Where the plain join is cheap it is kept: the variant needs
// no more rule matches than the plain grounder (MaxInstances at the plain
// grounder's need). In racer, where the plain join of legal_speed is the
// costly one, the head filter halves the rule matches.
func TestHeadFilter(t *testing.T) {
	f, err := grounding.Parse("racer.kif", []byte(racerGame(24)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	with, err := grounding.Ground(ctx, f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	without, err := grounding.GroundNoHeadFilter(ctx, f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkSameGame(t, without, with, rand.New(rand.NewPCG(8, 9)))
	forced, err := grounding.GroundForceHeadFilter(ctx, f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkSameGame(t, without, forced, rand.New(rand.NewPCG(8, 10)))
	const limit = 80_000 // the plain grounder needs 40,000-80,000
	if _, err := grounding.GroundNoHeadFilter(ctx, f, grounding.Limits{MaxInstances: limit}); err != nil {
		t.Fatalf("without the head filter, MaxInstances=%d: %v", limit, err)
	}
	if _, err := grounding.Ground(ctx, f, grounding.Limits{MaxInstances: limit}); err != nil {
		t.Errorf("with the trial join, MaxInstances=%d: %v", limit, err)
	}

	src, err := os.ReadFile(filepath.Join(corpusDir, "ggp-base", "racer.kif"))
	if err != nil {
		t.Skipf("corpus not found: %v", err)
	}
	rf, err := grounding.Parse("racer.kif", src)
	if err != nil {
		t.Fatal(err)
	}
	// racer needs 1-2 million rule matches with the head filter, 2-4
	// million without.
	racerLim := grounding.Limits{MaxInstances: 2_000_000, Timeout: *corpusTimeout}
	p, err := grounding.Ground(ctx, rf, racerLim)
	if err != nil {
		t.Fatalf("racer: %v", err)
	}
	_, err = grounding.GroundNoHeadFilter(ctx, rf, racerLim)
	if le := (*grounding.LimitError)(nil); !errors.As(err, &le) || le.What != "MaxInstances" {
		t.Errorf("racer without the head filter: got %v, want MaxInstances (the test no longer shows the blow-up)", err)
	}
	if s := grounding.NewSim(p); s.Terminal() {
		t.Error("racer: terminal in the initial state")
	}
}

// orChecksGame has rules whose bodies hold disjunctions of distinct tests
// (one bAny literal each); orChecksSplit is the same game with every
// disjunction written as separate rules. Both ground to the same game.
const orChecksGame = `(role r)
(init (at 1 1))
(num 1) (num 2) (num 3)
(<= (legal r (go ?x ?y)) (num ?x) (num ?y) (true (at ?a ?b)) (or (distinct ?x ?a) (distinct ?y ?b)))
(<= (legal r stay) (true (at ?a ?b)) (not (and (distinct ?a 1) (not (distinct ?b 2)))))
(<= (next (at ?x ?y)) (does r (go ?x ?y)))
(<= (next (at ?a ?b)) (does r stay) (true (at ?a ?b)))
(<= terminal (true (at 3 3)))
(<= (goal r 100) (true (at ?a ?b)) (or (not (distinct ?a 3)) (distinct ?b ?a) (distinct ?b 2)))
(<= (goal r 0) (true (at 3 2)))
`

const orChecksSplit = `(role r)
(init (at 1 1))
(num 1) (num 2) (num 3)
(<= (legal r (go ?x ?y)) (num ?x) (num ?y) (true (at ?a ?b)) (distinct ?x ?a))
(<= (legal r (go ?x ?y)) (num ?x) (num ?y) (true (at ?a ?b)) (distinct ?y ?b))
(<= (legal r stay) (true (at ?a ?b)) (not (distinct ?a 1)))
(<= (legal r stay) (true (at ?a ?b)) (distinct ?b 2))
(<= (next (at ?x ?y)) (does r (go ?x ?y)))
(<= (next (at ?a ?b)) (does r stay) (true (at ?a ?b)))
(<= terminal (true (at 3 3)))
(<= (goal r 100) (true (at 3 ?b)))
(<= (goal r 100) (true (at ?a ?b)) (distinct ?b ?a))
(<= (goal r 100) (true (at ?a ?b)) (distinct ?b 2))
(<= (goal r 0) (true (at 3 2)))
`

func TestOrOfChecks(t *testing.T) {
	ctx := context.Background()
	var ps [2]*grounding.Program
	for i, src := range []string{orChecksGame, orChecksSplit} {
		p, err := grounding.Load(ctx, "or.kif", []byte(src), grounding.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	checkSameGame(t, ps[1], ps[0], rand.New(rand.NewPCG(10, 11)))
}

// Corpus games ground to the same game with the head filter wherever it
// applies and without it (the short list of TestDemandSameGame).
func TestHeadFilterSameGame(t *testing.T) {
	for _, g := range demandGames {
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
			lim := grounding.Limits{LenientUnsafe: true, Timeout: *corpusTimeout}
			forced, err := grounding.GroundForceHeadFilter(context.Background(), f, lim)
			if errors.Is(err, grounding.ErrLimit) {
				t.Skip(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			without, err := grounding.GroundNoHeadFilter(context.Background(), f, lim)
			if err != nil {
				t.Skipf("grounds only with the head filter: %v", err)
			}
			checkSameGame(t, without, forced, rand.New(rand.NewPCG(12, 13)))
		})
	}
}

// groundVariant grounds a corpus game and its equivalent variant by
// mutate's op of seed under lim, and fails unless both ground and the
// variant's circuit is at most twice the original's (issue 12's bound).
func groundVariant(t *testing.T, game string, seed int64, op mutate.Op, lim grounding.Limits) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(corpusDir, "ggp-base", game))
	if err != nil {
		t.Skipf("corpus not found: %v", err)
	}
	f, err := grounding.Parse(game, src)
	if err != nil {
		t.Fatal(err)
	}
	v, err := mutate.Equivalent(f, seed, mutate.Options{Ops: op})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Applied) == 0 {
		t.Fatalf("%s: the transformation did not apply", game)
	}
	ctx := context.Background()
	orig, err := grounding.Ground(ctx, f, lim)
	if err != nil {
		t.Fatalf("%s: %v", game, err)
	}
	vp, err := grounding.Ground(ctx, v.File, lim)
	if err != nil {
		t.Fatalf("%s variant (%v): %v", game, v.Applied, err)
	}
	if a, b := orig.Circuit.NumNodes(), vp.Circuit.NumNodes(); b > 2*a {
		t.Errorf("%s variant (%v): %d circuit nodes, original %d", game, v.Applied, b, a)
	}
}

// The head filter applies to a rule whatever the other rules of its head
// relation: racer with its legal_speed disjunction written as two rules
// (mutate's split-or) needs at most twice the rule matches of the
// original (1.0-1.5 million), not the plain joins' 5-7 million.
func TestHeadFilterSplitRules(t *testing.T) {
	groundVariant(t, "racer.kif", 1, mutate.SplitOr, grounding.Limits{MaxInstances: 3_000_000, Timeout: *corpusTimeout})
}

// A circuit join with its head bound shares one literal per assignment of
// the variables the rest of the body reads, and the join order is planned
// knowing it: blobwars with `changing` unfolded into the rules of
// `(next (winning ...))` (mutate's unfold, seed 2) grounds to about the
// original's circuit (25,319 nodes), not to the 188,193 of an order that
// binds the head last and joins each move to every count.
func TestCircuitOrderUnfolded(t *testing.T) {
	groundVariant(t, "blobwars.kif", 2, mutate.Unfold, grounding.Limits{Timeout: *corpusTimeout})
}

// A join plan's estimate of a set of atoms' matches is the tightest of
// its orders, not that of its cheapest one: checkers-mustjump-torus with
// a jump rule duplicated (mutate's duplicate, seed 2) joined every pair
// of cells before the move and stopped at MaxInstances.
func TestCircuitOrderDuplicated(t *testing.T) {
	groundVariant(t, "checkers-mustjump-torus.kif", 2, mutate.Duplicate, grounding.Limits{Timeout: *corpusTimeout})
}
