package satcheck_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestWitnessReplay checks that an assignment SAT found to separate a
// function from one image is replayed against the next image: the goal is
// true only when 24 propositions all hold (random simulation never draws
// it), and each wrong mapping swaps one of them for a proposition outside
// the goal's support, so the all-true state separates every one of them.
// The first check needs SAT; the later ones must not, and must still be
// answered different (with replay off, through NoSimulation, each needs a
// SAT call). A mapping that only permutes the support stays equal.
func TestWitnessReplay(t *testing.T) {
	const n = 24
	props := make([]string, 2*n)
	for i := range props {
		props[i] = fmt.Sprintf("p%d", i)
	}
	build := func(name string) (*grounding.Program, grounding.Lit) {
		q := newProg(name, []string{"r"}, props, [][]string{{"noop"}})
		var xs []grounding.Lit
		for i := range n {
			xs = append(xs, q.t(props[i]))
		}
		g := q.and(xs...)
		q.p.Goals[0] = []grounding.Goal{{Value: 100, Lit: g}}
		return q.done(), g
	}
	a, fa := build("a")
	b, fb := build("b")
	inputMap := func(swap int) []int32 {
		m := make([]int32, a.NumInputs())
		for i := range m {
			m[i] = int32(i)
		}
		if swap >= 0 { // input swap of the support trades places with one outside it
			m[swap], m[n+swap] = int32(n+swap), int32(swap)
		}
		return m
	}
	for _, mode := range []satcheck.Mode{0, satcheck.NoSimulation} {
		c := mustChecker(t, a, b, satcheck.Options{Mode: mode | satcheck.NoCache})
		for swap := range 6 {
			eq, err := c.CheckFunc(context.Background(), grounding.FuncGoal, fa, fb, inputMap(swap))
			if err != nil {
				t.Fatal(err)
			}
			if eq {
				t.Fatalf("mode %v, swap %d: a wrong mapping checks equal", mode, swap)
			}
		}
		eq, err := c.CheckFunc(context.Background(), grounding.FuncGoal, fa, fb, inputMap(-1))
		if err != nil || !eq {
			t.Fatalf("mode %v: the identity checks %v, %v", mode, eq, err)
		}
		st := c.Stats()
		wantSAT := int64(1) // the first wrong mapping (the identity is structural)
		if mode != 0 {
			wantSAT = 6
		}
		if st.SATCalls != wantSAT {
			t.Errorf("mode %v: %d SAT calls, want %d (%d refuted by replay)", mode, st.SATCalls, wantSAT, st.WitnessRefuted)
		}
		if mode == 0 && st.WitnessRefuted != 5 {
			t.Errorf("%d pairs refuted by replay, want 5", st.WitnessRefuted)
		}
	}
}
