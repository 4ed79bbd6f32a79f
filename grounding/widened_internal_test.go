package grounding

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// widenedGame is knightazons' fold on a 4x4 board: aux holds each cell's
// content once per other cell (distinctcell binds ?a ?b only), a gate per
// tuple, where the original joins the static literal with the move.
const widenedGame = `
(role r)
(index 1) (index 2) (index 3) (index 4)
(<= (distinctcell ?x1 ?y1 ?x2 ?y2) (index ?x1) (index ?y1) (index ?x2) (index ?y2) (distinct ?x1 ?x2))
(<= (distinctcell ?x1 ?y1 ?x2 ?y2) (index ?x1) (index ?y1) (index ?x2) (index ?y2) (distinct ?y1 ?y2))
(init (cell 1 1 x)) (init (cell 2 3 o)) (init (cell 4 4 x))
(<= (legal r (play ?x ?y)) (true (cell ?x ?y ?s)))
(<= (next (cell ?x ?y ?s)) (aux ?x ?a ?b ?y ?s) (does r (play ?a ?b)))
(<= (aux ?x ?a ?b ?y ?s) (true (cell ?x ?y ?s)) (distinctcell ?x ?y ?a ?b))
(<= terminal (not (true (cell 1 1 x))))
(<= (goal r 100) (true (cell 2 3 o)))
(<= (goal r 0) (not (true (cell 2 3 o))))
`

// TestSingleUseWidened: the widened relation is unfolded, the circuit is
// the original's size and the game the same. Fails without widenedRule
// (aux keeps a gate per cell and other cell).
func TestSingleUseWidened(t *testing.T) {
	got := groundVisited(t, "widened.kif", widenedGame, variant{})
	want := groundVisited(t, "widened.kif", widenedGame, variant{noSingleUse: true})
	if err := sameGame(got, want, 100000); err != nil {
		t.Fatalf("with and without unfolding: %v", err)
	}
	// The same game with aux's body written into next's rule.
	plain := strings.Replace(widenedGame,
		"(<= (next (cell ?x ?y ?s)) (aux ?x ?a ?b ?y ?s) (does r (play ?a ?b)))\n(<= (aux ?x ?a ?b ?y ?s) (true (cell ?x ?y ?s)) (distinctcell ?x ?y ?a ?b))",
		"(<= (next (cell ?x ?y ?s)) (true (cell ?x ?y ?s)) (distinctcell ?x ?y ?a ?b) (does r (play ?a ?b)))", 1)
	if plain == widenedGame {
		t.Fatal("widenedGame has no aux rules to write plainly")
	}
	p := groundVisited(t, "plain.kif", plain, variant{})
	if err := sameGame(got, p, 100000); err != nil {
		t.Fatalf("against the game written plainly: %v", err)
	}
	if g, w := got.Circuit.NumNodes(), p.Circuit.NumNodes(); g > w {
		t.Errorf("circuit nodes %d, %d written plainly (%d without unfolding)", g, w, want.Circuit.NumNodes())
	}
}

// restrictedGame's trip is a static relation called once, from a static
// rule that binds ?x to one value: its own table is every triple of
// numbers (n^3 = 64,000 atoms), of which sel reads one row.
func restrictedGame(n int) string {
	var b strings.Builder
	b.WriteString("(role r)\n(init (at 1))\n(pick 2)\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "(num %d)\n", i)
	}
	b.WriteString(`(<= (trip ?x ?y ?z) (num ?x) (num ?y) (num ?z) (distinct ?y ?z))
(<= (sel ?y ?z) (pick ?x) (trip ?x ?y ?z))
(<= (legal r (go ?z)) (true (at ?y)) (sel ?y ?z))
(<= (next (at ?z)) (does r (go ?z)))
(<= terminal (true (at 3)))
(<= (goal r 100) (true (at 3)))
(<= (goal r 0) (not (true (at 3))))
`)
	return b.String()
}

// TestSingleUseStaticRestricted: the static relation is unfolded into its
// static caller, whose join binds ?x first, and the game grounds under a
// MaxAtoms its table alone exceeds, the same game as without unfolding.
// Fails without the restricted case (MaxAtoms in trip's rules).
func TestSingleUseStaticRestricted(t *testing.T) {
	src := restrictedGame(40)
	f, err := Parse("restricted.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{MaxAtoms: 20_000}
	got, err := groundVariant(context.Background(), f, lim, memoProbe, variant{})
	if err != nil {
		t.Fatalf("Ground(MaxAtoms 20,000): %v", err)
	}
	if _, err := groundVariant(context.Background(), f, lim, memoProbe, variant{noSingleUse: true}); !errors.Is(err, ErrLimit) {
		t.Errorf("without unfolding (MaxAtoms 20,000): %v, want MaxAtoms", err)
	}
	want := groundVisited(t, "restricted.kif", src, variant{noSingleUse: true})
	if err := sameGame(got, want, 100000); err != nil {
		t.Fatalf("with and without unfolding: %v", err)
	}
}
