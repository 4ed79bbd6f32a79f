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
		clauses, nvars := splitWide(f.clauses, f.nvars, maxClauseWidth)
		s := solver.New(solver.ParseSliceNb(clauses, nvars))
		select {
		case gophersatLock <- struct{}{}:
			locked = true
		case <-ctx.Done():
			r.err = ctx.Err()
			return
		}
		d := startDump(f, f.what)
		if s.Solve() == solver.Sat {
			r.sat, r.model = true, s.Model()[:f.nvars]
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

// maxClauseWidth is the widest clause handed to gophersat. Its parser
// looks for duplicate literals in each clause pair by pair, quadratic in
// the width: an AND of 600 moves is one clause of 601 literals, and on
// four_way_battle's action classes that check took an eighth of the
// graph phase. Wider clauses are cut into a chain (splitWide).
const maxClauseWidth = 16

// splitWide returns clauses with every clause wider than w (w ≥ 3) cut into
// a chain of clauses of at most w literals linked by fresh variables
// numbered from nvars+1: (l1 ∨ … ∨ ln) becomes (l1 ∨ … ∨ l(w-1) ∨ a),
// (¬a ∨ lw ∨ …), and so on. The result is satisfiable exactly when the
// input is, and a model of it restricted to the first nvars variables is a
// model of the input (a link is true only where the literals before it
// are all false, so some later literal holds). Clauses are shared with the
// input where they are not cut.
func splitWide(clauses [][]int, nvars, w int) ([][]int, int) {
	wide := 0
	for _, c := range clauses {
		if len(c) > w {
			wide++
		}
	}
	if wide == 0 {
		return clauses, nvars
	}
	out := make([][]int, 0, len(clauses)+wide*4)
	for _, c := range clauses {
		if len(c) <= w {
			out = append(out, c)
			continue
		}
		link := 0 // literal carried from the previous piece, 0 for the first
		for len(c) > 0 {
			piece := make([]int, 0, w)
			if link != 0 {
				piece = append(piece, link)
			}
			take := min(len(c), w-len(piece))
			if take < len(c) {
				take-- // room for the next link
			}
			piece = append(piece, c[:take]...)
			c = c[take:]
			if len(c) > 0 {
				nvars++
				piece = append(piece, nvars)
				link = -nvars
			}
			out = append(out, piece)
		}
	}
	return out, nvars
}
