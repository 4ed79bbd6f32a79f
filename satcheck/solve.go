package satcheck

import (
	"context"
	"fmt"

	"github.com/crillab/gophersat/solver"
)

// gophersatLock serializes every solve in the process. gophersat v1.4.0 is
// not safe for concurrent use even with one Solver per goroutine: learnClause
// builds each learned clause in a package-level buffer (solver/learn.go,
// bufLits), so two solves running at once corrupt each other's clauses
// (wrong answers or index-out-of-range panics, seen in this package's tests).
var gophersatLock = make(chan struct{}, 1)

// pool runs gophersat solves for one Checker: at most cap(sem) of them are
// started and not yet finished (abandoned ones included), and, process-wide,
// one runs at a time (gophersatLock). gophersat has no cancellation, so a
// solve whose caller gives up keeps its slots until it finishes in the
// background.
type pool struct {
	sem   chan struct{}
	stats *counters
}

func newPool(n int, stats *counters) *pool {
	return &pool{sem: make(chan struct{}, n), stats: stats}
}

type solveResult struct {
	sat   bool
	model []bool // model[v-1] is DIMACS variable v, when sat
	err   error
}

// solve decides f with a fresh solver (gophersat's incremental interface is
// not reliable enough to reuse one). On cancellation it returns ctx.Err() at
// once and lets the solve finish unobserved. Parsing the formula and
// setting up the solver touch no shared state, so they run outside
// gophersatLock, which covers Solve only: with two workers one solve's
// set-up (more CPU than the search itself on the graph phase's action
// classes and supports) overlaps another's search.
func (p *pool) solve(ctx context.Context, f *cnf) (sat bool, model []bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, nil, err
	}
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return false, nil, ctx.Err()
	}
	p.stats.satCalls.Add(1)
	done := make(chan solveResult, 1)
	go func() {
		defer func() { <-p.sem }()
		var r solveResult
		locked := false
		defer func() {
			if locked {
				<-gophersatLock
			}
			if x := recover(); x != nil {
				r = solveResult{err: fmt.Errorf("satcheck: SAT solver panicked: %v", x)}
			}
			done <- r
		}()
		s := solver.New(solver.ParseSliceNb(f.clauses, f.nvars))
		select {
		case gophersatLock <- struct{}{}:
			locked = true
		case <-ctx.Done():
			r.err = ctx.Err()
			return
		}
		d := startDump(f, f.what)
		if s.Solve() == solver.Sat {
			r.sat, r.model = true, s.Model()
		}
		d.finish(r.sat)
	}()
	select {
	case r := <-done:
		if r.err == nil && !r.sat {
			p.stats.satUnsat.Add(1)
		}
		return r.sat, r.model, r.err
	case <-ctx.Done():
		p.stats.abandoned.Add(1)
		return false, nil, ctx.Err()
	}
}
