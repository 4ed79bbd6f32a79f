package grounding_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
)

// unusedRelGame is a one-bit counter whose terminal asks for one atom of
// big, a fluent relation over 2^24 bit vectors (16 M atoms, past
// MaxAtoms), so that demand keeps big to that atom; unused, which no
// keyword relation reads, asks for every atom of big with its last bit 0:
// 2^23 atoms.
const unusedRelGame = `(role r)
(bit 0) (bit 1)
(init (c 0))
(<= (legal r flip) (true (c ?x)))
(<= (next (c 1)) (true (c 0)))
(<= (next (c 0)) (true (c 1)))
(<= terminal (true (c 1)))
(<= terminal (big 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1))
(<= (goal r 100) (true (c 1)))
(<= (goal r 0) (true (c 0)))
(<= (big ?a ?b ?c ?d ?e ?f ?g ?h ?i ?j ?k ?l ?m ?n ?o ?p ?q ?s ?t ?u ?v ?w ?y ?z)
    (bit ?a) (bit ?b) (bit ?c) (bit ?d) (bit ?e) (bit ?f) (bit ?g) (bit ?h) (bit ?i) (bit ?j) (bit ?k) (bit ?l) (bit ?m) (bit ?n) (bit ?o) (bit ?p) (bit ?q) (bit ?s) (bit ?t) (bit ?u) (bit ?v) (bit ?w) (bit ?y) (bit ?z) (true (c 0)))
(<= (unused ?a ?b ?c ?d ?e ?f ?g ?h ?i ?j ?k ?l ?m ?n ?o ?p ?q ?s ?t ?u ?v ?w ?y) (big ?a ?b ?c ?d ?e ?f ?g ?h ?i ?j ?k ?l ?m ?n ?o ?p ?q ?s ?t ?u ?v ?w ?y 0))
`

// A relation no keyword relation reads is not grounded: the game grounds
// and is the game without it, while keeping the relation stops at a limit.
func TestUnreachableRelationDropped(t *testing.T) {
	f, err := grounding.Parse("reach.kif", []byte(unusedRelGame))
	if err != nil {
		t.Fatal(err)
	}
	lim := grounding.Limits{MaxAtoms: 1 << 20}
	got, err := grounding.Ground(context.Background(), f, lim)
	if err != nil {
		t.Fatalf("Ground: %v", err)
	}
	if _, err := grounding.GroundNoReach(context.Background(), f, lim); !errors.Is(err, grounding.ErrLimit) {
		t.Fatalf("GroundNoReach: err = %v, want a limit (the test game no longer needs the pruning)", err)
	}
	cut := unusedRelGame[:strings.Index(unusedRelGame, "(<= (unused")]
	g, err := grounding.Parse("cut.kif", []byte(cut))
	if err != nil {
		t.Fatal(err)
	}
	want, err := grounding.Ground(context.Background(), g, lim)
	if err != nil {
		t.Fatal(err)
	}
	checkSameGame(t, want, got, rand.New(rand.NewPCG(22, 23)))
}

// Errors in a relation nobody reads are still reported.
func TestUnreachableRelationErrors(t *testing.T) {
	src := unusedRelGame + "(<= (junk ?x) (not (true (c ?x))))\n"
	f, err := grounding.Parse("junk.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = grounding.Ground(context.Background(), f, grounding.Limits{MaxAtoms: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "?x") {
		t.Fatalf("Ground: err = %v, want the unsafe variable ?x reported", err)
	}
}

// ruleDepthQuadratic's variant of seed 1 (every transformation) unfolds a
// 38-ary relation into its one caller and leaves its rules behind, uncalled:
// it stopped at MaxAtoms while the original grounds in 0.1 s.
func TestUnreachableRelationMutant(t *testing.T) {
	f := parseCorpusGame(t, "ruleDepthQuadratic")
	v, err := mutate.Equivalent(f, 1, mutate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := grounding.Ground(context.Background(), v.File, grounding.Limits{})
	if err != nil {
		t.Fatalf("the variant (%v): %v", v.Applied, err)
	}
	if len(got.Props) != len(want.Props) || got.Circuit.NumNodes() > 2*want.Circuit.NumNodes() {
		t.Errorf("variant: %d propositions, %d circuit nodes; original %d, %d", len(got.Props), got.Circuit.NumNodes(), len(want.Props), want.Circuit.NumNodes())
	}
}
