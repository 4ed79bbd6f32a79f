package satcheck_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestVerifyMovesConcurrent runs VerifyMoves on one Checker from
// several goroutines (the differed set is shared) and checks every verdict:
// the swap of p and q breaks the terminal, the swap of q and r is a
// symmetry (goal and terminal symmetric in q, r), whatever the other
// goroutines recorded.
func TestVerifyMovesConcurrent(t *testing.T) {
	p := wideProg(
		func(q *prog, p, pq, pr, e grounding.Lit) grounding.Lit {
			return q.or(q.and(p, e), q.and(q.or(pq, pr), e))
		},
		func(q *prog, p, pq, pr, e grounding.Lit) grounding.Lit {
			return q.and(p, q.or(pq, pr), e)
		})
	c := mustChecker(t, p, p, satcheck.Options{Mode: satcheck.NoSimulation | satcheck.NoCache})
	swaps := []struct {
		mv   satcheck.Moves
		want satcheck.Verdict
	}{
		{satcheck.Moves{Roles: []int{0}, Inputs: []int32{0, 1}, Images: []int32{1, 0}}, satcheck.Different},
		{satcheck.Moves{Roles: []int{0}, Inputs: []int32{1, 2}, Images: []int32{2, 1}}, satcheck.Equivalent},
		{satcheck.Moves{Roles: []int{0}, Inputs: []int32{0, 2}, Images: []int32{2, 0}}, satcheck.Different},
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 6 {
				tc := swaps[(g+k)%len(swaps)]
				res, err := c.VerifyMoves(context.Background(), tc.mv)
				if err != nil {
					errs <- err
					return
				}
				if res.Verdict != tc.want {
					errs <- fmt.Errorf("VerifyMoves(%v) = %v, want %v", tc.mv, res.Verdict, tc.want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestVerifyMovesLimitNeverEquivalent: a symmetry whose pairs are all over
// the SAT limits (simulation and tables off) must give ErrLimit from
// VerifyMoves, never Equivalent, also after other calls recorded the
// functions as having differed.
func TestVerifyMovesLimitNeverEquivalent(t *testing.T) {
	p := wideProg(
		func(q *prog, p, pq, pr, e grounding.Lit) grounding.Lit {
			return q.or(q.and(pq, q.or(pr, e)), q.and(pr, e)) // q∧r ∨ (q∨r)∧E, written asymmetrically
		},
		func(q *prog, p, pq, pr, e grounding.Lit) grounding.Lit {
			return q.and(p, q.or(pq, pr), e)
		})
	c := mustChecker(t, p, p, satcheck.Options{Mode: satcheck.NoSimulation | satcheck.NoCache | satcheck.NoExhaustive | satcheck.NoSweep | satcheck.NoBDD, MaxVars: 10})
	ctx := context.Background()
	sym := satcheck.Moves{Roles: []int{0}, Inputs: []int32{1, 2}, Images: []int32{2, 1}}
	for range 2 {
		res, err := c.VerifyMoves(ctx, sym)
		if err == nil {
			t.Fatalf("VerifyMoves(swap q r) = %v, want an ErrLimit error", res.Verdict)
		}
		if !errors.Is(err, satcheck.ErrLimit) {
			t.Fatalf("VerifyMoves(swap q r): %v, want ErrLimit", err)
		}
		// A swap that differs, recorded between the two calls.
		_, _ = c.VerifyMoves(ctx, satcheck.Moves{Roles: []int{0}, Inputs: []int32{0, 1}, Images: []int32{1, 0}})
	}
}
