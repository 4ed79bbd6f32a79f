package satcheck

import (
	"context"
	"errors"
	"fmt"

	"github.com/crillab/gophersat/solver"
)

// errNoAnswer: gophersat stopped without an answer although nobody
// interrupted it. It cannot happen with the patched copy in
// third_party/gophersat; it keeps an Indet from ever reading as UNSAT.
// errConflictBudget: a solve reached its cnf's maxConflicts without an
// answer.
var errConflictBudget = errors.New("satcheck: conflict budget reached")

var errNoAnswer = errors.New("satcheck: SAT solver stopped without an answer")

// pool runs gophersat solves for one Checker: at most cap(sem) at a time.
// Solves of different Checkers, and of one Checker's workers, run in
// parallel: the patched gophersat (third_party/gophersat) keeps its learn
// buffer per Solver and can be interrupted, so a cancelled solve stops and
// frees its slot at once instead of finishing in the background.
type pool struct {
	sem   chan struct{}
	stats *counters
}

func newPool(n int, stats *counters) *pool {
	return &pool{sem: make(chan struct{}, n), stats: stats}
}

// solve decides f with a fresh solver (gophersat's assumptions are not
// reliable enough to reuse one; solveMore reuses one by adding clauses).
// When ctx is cancelled the solver is interrupted and solve returns
// ctx.Err() (counted in Stats.Abandoned): an interrupted solve never reads
// as UNSAT.
func (p *pool) solve(ctx context.Context, f *cnf) (sat bool, model []bool, err error) {
	var s *solver.Solver
	return p.solveMore(ctx, f, &s, nil)
}

// solveMore is solve on a solver kept across calls: when *s is nil it
// makes one of f and keeps it in *s; otherwise more(*s) first adds to it
// the clauses added to f since its last solve (nothing else may differ),
// and it solves again. After an error *s is nil: an interrupted solver is
// never reused.
func (p *pool) solveMore(ctx context.Context, f *cnf, s **solver.Solver, more func(*solver.Solver)) (sat bool, model []bool, err error) {
	if err := ctx.Err(); err != nil {
		*s = nil
		return false, nil, err
	}
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		*s = nil
		return false, nil, ctx.Err()
	}
	defer func() { <-p.sem }()
	p.stats.satCalls.Add(1)
	st, model, err := solveOn(ctx, f, s, more)
	switch {
	case err != nil:
		*s = nil
		if ctx.Err() != nil {
			p.stats.abandoned.Add(1)
		}
		return false, nil, err
	case st == solver.Unsat:
		p.stats.satUnsat.Add(1)
	}
	return st == solver.Sat, model, nil
}

// solveCNF runs one gophersat solve of f on a fresh solver, interrupted
// when ctx is done. It returns Sat or Unsat with a nil error, or an error;
// a panic of the solver becomes an error.
func solveCNF(ctx context.Context, f *cnf) (st solver.Status, model []bool, err error) {
	var s *solver.Solver
	return solveOn(ctx, f, &s, nil)
}

// solveOn is solveCNF on *s (see solveMore) or, when *s is nil, on a
// fresh solver that it leaves in *s.
func solveOn(ctx context.Context, f *cnf, s **solver.Solver, more func(*solver.Solver)) (st solver.Status, model []bool, err error) {
	defer func() {
		if x := recover(); x != nil {
			st, model, err = solver.Indet, nil, fmt.Errorf("satcheck: SAT solver panicked: %v", x)
		}
	}()
	if *s == nil {
		*s = solver.New(solver.ParseSliceNb(f.clauses, f.nvars))
	} else if more != nil {
		more(*s)
	}
	sv := *s
	before := sv.Stats.NbConflicts
	sv.ConflictLimit = 0
	if f.maxConflicts > 0 {
		sv.ConflictLimit = before + f.maxConflicts
	}
	stop := context.AfterFunc(ctx, sv.Interrupt)
	d := startDump(f, f.what)
	st = sv.Solve()
	if !stop() {
		// ctx was done, and sv interrupted, maybe after it answered.
		*s = nil
	}
	f.conflicts = sv.Stats.NbConflicts - before
	d.finish(st)
	switch st {
	case solver.Sat:
		return st, sv.Model(), nil
	case solver.Unsat:
		return st, nil, nil
	}
	if err := ctx.Err(); err != nil {
		return st, nil, err
	}
	if f.maxConflicts > 0 && f.conflicts >= f.maxConflicts {
		return st, nil, errConflictBudget
	}
	return st, nil, errNoAnswer
}
