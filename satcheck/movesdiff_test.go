package satcheck_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// wideProg is a one-role game on the propositions p, q, r and e1..e11
// whose next functions keep every proposition; goal and terminal are
// given by the caller over the literals of p, q, r and E = e1 ∧ … ∧ e11.
func wideProg(goal, terminal func(q *prog, p, pq, pr, e grounding.Lit) grounding.Lit) *grounding.Program {
	names := []string{"p", "q", "r"}
	for k := 1; k <= 11; k++ {
		names = append(names, fmt.Sprintf("e%d", k))
	}
	q := newProg("wide", []string{"r"}, names, [][]string{{"a"}})
	var es []grounding.Lit
	for _, n := range names[3:] {
		es = append(es, q.t(n))
	}
	e := q.and(es...)
	q.p.Legal[0][0] = grounding.True
	for i, n := range names {
		q.p.Next[i] = q.t(n)
	}
	p1, p2, p3 := q.t("p"), q.t("q"), q.t("r")
	q.p.Goals[0] = []grounding.Goal{{Value: 100, Lit: goal(q, p1, p2, p3, e)}}
	q.p.Terminal = terminal(q, p1, p2, p3, e)
	return q.done()
}

// TestVerifyMovesCheapDifferenceFirst: swapping p and q leaves the goal
// equal (written asymmetrically, over 14 inputs: only SAT proves it with
// simulation off) and breaks the terminal on one row of its 12 inputs,
// which its complete truth table finds. VerifyMoves needs no SAT proof of
// the goal to reject the swap; Verify's order would ask it first.
func TestVerifyMovesCheapDifferenceFirst(t *testing.T) {
	p := wideProg(
		func(q *prog, p, pq, _, e grounding.Lit) grounding.Lit { // p∧q ∨ (p∨q)∧E
			return q.or(q.and(p, q.or(pq, e)), q.and(pq, e))
		},
		func(q *prog, p, pq, _, _ grounding.Lit) grounding.Lit { // p ∧ ¬q ∧ e1..e10
			ls := []grounding.Lit{p, pq.Not()}
			for k := 1; k <= 10; k++ {
				ls = append(ls, q.t(fmt.Sprintf("e%d", k)))
			}
			return q.and(ls...)
		})
	c := mustChecker(t, p, p, satcheck.Options{Mode: satcheck.NoSimulation | satcheck.NoCache})
	swap := satcheck.Moves{Roles: []int{0}, Inputs: []int32{0, 1}, Images: []int32{1, 0}}
	res, err := c.VerifyMoves(context.Background(), swap)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != satcheck.Different || res.Function != "terminal vs terminal" {
		t.Fatalf("VerifyMoves(swap p q) = %v on %q, want different on the terminal", res.Verdict, res.Function)
	}
	if got := c.Stats().SATCalls; got != 0 {
		t.Errorf("VerifyMoves(swap p q) made %d SAT calls, want 0 (the terminal's table shows the difference)", got)
	}
}

// TestVerifyMovesDifferedFirst: the goal is symmetric in p, q and r and
// the terminal p ∧ (q ∨ r) ∧ E is not, both over 14 inputs, so that with
// simulation off only SAT decides either. The first swap asks the goal
// (a proof) and then the terminal; the second swap asks the terminal, which
// differed before, first, and is rejected with one SAT call.
func TestVerifyMovesDifferedFirst(t *testing.T) {
	p := wideProg(
		func(q *prog, p, pq, pr, e grounding.Lit) grounding.Lit { // (p ∨ q ∨ r) ∧ E
			return q.or(q.and(p, e), q.and(q.or(pq, pr), e))
		},
		func(q *prog, p, pq, pr, e grounding.Lit) grounding.Lit {
			return q.and(p, q.or(pq, pr), e)
		})
	c := mustChecker(t, p, p, satcheck.Options{Mode: satcheck.NoSimulation | satcheck.NoCache})
	ctx := context.Background()
	for k, tc := range []struct {
		mv       satcheck.Moves
		maxCalls int64
	}{
		{satcheck.Moves{Roles: []int{0}, Inputs: []int32{0, 1}, Images: []int32{1, 0}}, 2},
		{satcheck.Moves{Roles: []int{0}, Inputs: []int32{0, 2}, Images: []int32{2, 0}}, 1},
	} {
		before := c.Stats().SATCalls
		res, err := c.VerifyMoves(ctx, tc.mv)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != satcheck.Different || res.Function != "terminal vs terminal" {
			t.Fatalf("swap %d: VerifyMoves = %v on %q, want different on the terminal", k, res.Verdict, res.Function)
		}
		if got := c.Stats().SATCalls - before; got > tc.maxCalls {
			t.Errorf("swap %d: VerifyMoves made %d SAT calls, want at most %d", k, got, tc.maxCalls)
		}
	}
}

// TestVerifyMovesLimitThenDifference: with complete tables and simulation
// off and MaxVars between the two miters, the goal's (equal, asked first)
// is over the SAT limits and the terminal's is not: VerifyMoves rejects
// the swap on the terminal instead of failing on the goal's limit.
func TestVerifyMovesLimitThenDifference(t *testing.T) {
	p := wideProg(
		func(q *prog, p, pq, _, e grounding.Lit) grounding.Lit {
			return q.or(q.and(p, q.or(pq, e)), q.and(pq, e))
		},
		func(q *prog, p, pq, _, _ grounding.Lit) grounding.Lit {
			ls := []grounding.Lit{p, pq.Not()}
			for k := 1; k <= 10; k++ {
				ls = append(ls, q.t(fmt.Sprintf("e%d", k)))
			}
			return q.and(ls...)
		})
	swap := satcheck.Moves{Roles: []int{0}, Inputs: []int32{0, 1}, Images: []int32{1, 0}}
	// The goal's miter has 24 variables, the terminal's fewer than 15.
	c := mustChecker(t, p, p, satcheck.Options{Mode: satcheck.NoSimulation | satcheck.NoCache | satcheck.NoExhaustive | satcheck.NoSweep | satcheck.NoBDD, MaxVars: 20})
	res, err := c.VerifyMoves(context.Background(), swap)
	if err != nil {
		t.Fatalf("VerifyMoves(swap p q) = %v, want different on the terminal", err)
	}
	if res.Verdict != satcheck.Different || res.Function != "terminal vs terminal" {
		t.Fatalf("VerifyMoves(swap p q) = %v on %q, want different on the terminal", res.Verdict, res.Function)
	}
}
