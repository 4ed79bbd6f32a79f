package satcheck

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/crillab/gophersat/solver"
)

// pigeonhole is the CNF "n+1 pigeons into n holes" (UNSAT); variable
// p*n+h+1 says pigeon p sits in hole h. gophersat needs minutes for n = 10.
func pigeonhole(n int) *cnf {
	f := &cnf{nvars: (n + 1) * n, what: "pigeonhole"}
	v := func(p, h int) int { return p*n + h + 1 }
	for p := 0; p <= n; p++ {
		var c []int
		for h := range n {
			c = append(c, v(p, h))
		}
		f.clauses = append(f.clauses, c)
	}
	for h := range n {
		for p := 0; p <= n; p++ {
			for q := p + 1; q <= n; q++ {
				f.clauses = append(f.clauses, []int{-v(p, h), -v(q, h)})
			}
		}
	}
	return f
}

// TestSolveInterrupted: cancelling the context of a hard solve stops it
// within a second and frees its slot, so the next solve of the same pool
// runs at once. Before gophersat could be interrupted the hard solve went
// on in the background holding the slot (and the process-wide lock), and
// the small solve starved.
func TestSolveInterrupted(t *testing.T) {
	var st counters
	p := newPool(1, &st)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := p.solve(ctx, pigeonhole(10))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("solve(pigeonhole 11 into 10) = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("solve returned %v after its context was cancelled at 100ms, want well under 1s", d)
	}
	if n := len(p.sem); n != 0 {
		t.Errorf("%d solves still hold the pool after the cancelled one returned, want 0", n)
	}
	if got := st.abandoned.Load(); got != 1 {
		t.Errorf("abandoned = %d, want 1", got)
	}
	if got := st.satUnsat.Load(); got != 0 {
		t.Errorf("satUnsat = %d after an interrupted solve, want 0 (Indet is not UNSAT)", got)
	}

	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Second)
	defer cancel2()
	start = time.Now()
	sat, _, err := p.solve(ctx2, pigeonhole(3))
	if err != nil || sat {
		t.Fatalf("solve(pigeonhole 4 into 3) right after = %v, %v, want UNSAT", sat, err)
	}
	if d := time.Since(start); d > 200*time.Millisecond {
		t.Errorf("small solve took %v after the interrupted one, want at once", d)
	}
}

// randomCNF is a random 3-CNF over n variables with m clauses.
func randomCNF(r *rand.Rand, n, m int) [][]int {
	cs := make([][]int, m)
	for i := range cs {
		c := make([]int, 3)
		for j := range c {
			c[j] = r.IntN(n) + 1
			if r.IntN(2) == 0 {
				c[j] = -c[j]
			}
		}
		cs[i] = c
	}
	return cs
}

// bruteSat decides cs over n variables by trying every assignment.
func bruteSat(n int, cs [][]int) bool {
	for a := 0; a < 1<<n; a++ {
		if satisfies(cs, func(v int) bool { return a>>(v-1)&1 == 1 }) {
			return true
		}
	}
	return false
}

func satisfies(cs [][]int, val func(v int) bool) bool {
	for _, c := range cs {
		ok := false
		for _, l := range c {
			if l > 0 == val(max(l, -l)) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// TestParallelSolves solves a few hundred random 3-CNFs near the
// satisfiability threshold (enough conflicts for clause learning) in
// parallel goroutines, both with gophersat directly and through one pool,
// against brute force. Upstream gophersat v1.4.0 built learned clauses in a
// package-level buffer: under -race this test reports the data race, and
// without it parallel solves may give wrong answers or panic.
func TestParallelSolves(t *testing.T) {
	const n, m, count = 14, 60, 300
	r := rand.New(rand.NewPCG(7, 11))
	cnfs := make([][][]int, count)
	want := make([]bool, count)
	for i := range cnfs {
		cnfs[i] = randomCNF(r, n, m)
		want[i] = bruteSat(n, cnfs[i])
	}
	var st counters
	p := newPool(count, &st)
	workers := max(2, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < count; i += workers {
				s := solver.New(solver.ParseSliceNb(cnfs[i], n))
				if got := s.Solve() == solver.Sat; got != want[i] {
					t.Errorf("gophersat on CNF %d = sat %v, want %v", i, got, want[i])
				} else if got && !satisfies(cnfs[i], func(v int) bool { return s.Model()[v-1] }) {
					t.Errorf("gophersat's model of CNF %d does not satisfy it", i)
				}
				got, model, err := p.solve(context.Background(), &cnf{nvars: n, clauses: cnfs[i]})
				if err != nil || got != want[i] {
					t.Errorf("pool.solve(CNF %d) = %v, %v, want %v", i, got, err, want[i])
				} else if got && !satisfies(cnfs[i], func(v int) bool { return model[v-1] }) {
					t.Errorf("pool.solve's model of CNF %d does not satisfy it", i)
				}
			}
		})
	}
	wg.Wait()
	sats := 0
	for _, w := range want {
		if w {
			sats++
		}
	}
	if sats == 0 || sats == count {
		t.Errorf("%d of %d CNFs satisfiable: the test needs both answers", sats, count)
	}
}

// BenchmarkPoolSolves solves 8 copies of pigeonhole 7 into 6 (UNSAT)
// through one pool of size 2, from 1 or 2 goroutines: with 2, the solves
// overlap unless something serializes them.
func BenchmarkPoolSolves(b *testing.B) {
	f := pigeonhole(6)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("goroutines=%d", workers), func(b *testing.B) {
			var st counters
			p := newPool(2, &st)
			for range b.N {
				var wg sync.WaitGroup
				for w := range workers {
					wg.Go(func() {
						for i := w; i < 8; i += workers {
							if sat, _, err := p.solve(context.Background(), f); err != nil || sat {
								b.Errorf("solve = %v, %v, want UNSAT", sat, err)
							}
						}
					})
				}
				wg.Wait()
			}
		})
	}
}

// TestSimplifyAgainstBruteForce: CNFs full of units, duplicate and
// complementary literals (what gophersat's preprocessing, patched to mark
// literals instead of comparing every pair, removes) get gophersat's right
// answer and a model that satisfies them.
func TestSimplifyAgainstBruteForce(t *testing.T) {
	const n, count = 8, 2000
	r := rand.New(rand.NewPCG(3, 5))
	sats := 0
	for i := range count {
		cs := make([][]int, 4+r.IntN(20))
		for k := range cs {
			c := make([]int, 1+r.IntN(8))
			for j := range c {
				c[j] = r.IntN(n) + 1
				if r.IntN(2) == 0 {
					c[j] = -c[j]
				}
			}
			cs[k] = c
		}
		want := bruteSat(n, cs)
		s := solver.New(solver.ParseSliceNb(cs, n))
		got := s.Solve() == solver.Sat
		if got != want {
			t.Fatalf("CNF %d %v: gophersat sat %v, want %v", i, cs, got, want)
		}
		if got {
			sats++
			if !satisfies(cs, func(v int) bool { return s.Model()[v-1] }) {
				t.Fatalf("CNF %d %v: gophersat's model does not satisfy it", i, cs)
			}
		}
	}
	if sats == 0 || sats == count {
		t.Errorf("%d of %d CNFs satisfiable: the test needs both answers", sats, count)
	}
}

// BenchmarkParseWideClause: gophersat's preprocessing of one clause of
// 20,000 literals (an at-least-one over many actions, or a wide gate's long
// clause) behind a unit that forces a second pass.
func BenchmarkParseWideClause(b *testing.B) {
	const n = 20000
	wide := make([]int, n)
	for i := range wide {
		wide[i] = i + 2
	}
	for b.Loop() {
		cs := [][]int{{-1}, {1, 2, 3}, slices.Clone(wide)}
		solver.ParseSliceNb(cs, n+1)
	}
}

// TestSolveConflictBudget: a solve that reaches its cnf's maxConflicts
// fails with errConflictBudget (never reads as UNSAT) and records the
// conflicts it used; without the bound the same formula is UNSAT.
func TestSolveConflictBudget(t *testing.T) {
	for _, tc := range []struct {
		max     int
		wantErr error
	}{
		{max: 1, wantErr: errConflictBudget},
		{max: 20, wantErr: errConflictBudget},
		{max: 0},
		{max: 1 << 30},
	} {
		f := pigeonhole(6)
		f.maxConflicts = tc.max
		st, _, err := solveCNF(t.Context(), f)
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("maxConflicts %d: solve = %v, %v; want error %v", tc.max, st, err, tc.wantErr)
			continue
		}
		if tc.wantErr != nil {
			if f.conflicts < tc.max {
				t.Errorf("maxConflicts %d: stopped after %d conflicts", tc.max, f.conflicts)
			}
			continue
		}
		if st != solver.Unsat {
			t.Errorf("maxConflicts %d: solve = %v, want UNSAT", tc.max, st)
		}
		if f.conflicts <= 20 {
			t.Errorf("maxConflicts %d: %d conflicts; the bounded cases above need more than 20 to mean anything", tc.max, f.conflicts)
		}
	}
}

// TestNewAllocations: gophersat's parse and New (patched) cut the clauses,
// their literals and every literal's watch lists from a few allocations,
// however many clauses there are; upstream made two allocations per clause
// and grew each watch list append by append (16,052 allocations
// here, 52 patched), which was most of the cost of the ground graph's many small
// dependence questions.
func TestNewAllocations(t *testing.T) {
	const n = 2000
	var cs [][]int
	for v := 1; v < n; v++ {
		cs = append(cs, []int{-v, v + 1}, []int{v, -(v + 1), n - v})
	}
	allocs := testing.AllocsPerRun(5, func() {
		s := solver.New(solver.ParseSliceNb(cs, n))
		_ = s
	})
	if allocs > 200 {
		t.Errorf("solver.New(ParseSliceNb(%d clauses)) made %.0f allocations, want at most 200", len(cs), allocs)
	}
	if s := solver.New(solver.ParseSliceNb(cs, n)); s.Solve() != solver.Sat {
		t.Errorf("the chain is satisfiable, gophersat says otherwise")
	}
}
