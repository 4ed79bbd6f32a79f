package satcheck

import (
	"math/rand/v2"
	"testing"

	"github.com/crillab/gophersat/solver"
)

// TestSolverAppendUnitIncremental cross-checks gophersat's incremental use
// that Dependence relies on (Solve, then AppendClause of unit and short
// clauses, Solve again on the same solver) against brute force, on random
// small CNFs: every answer, SAT or UNSAT, must be the fresh formula's.
func TestSolverAppendUnitIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 7))
	sat := func(cls [][]int, m []bool) bool {
		for _, c := range cls {
			ok := false
			for _, l := range c {
				v := l
				if v < 0 {
					v = -v
				}
				if m[v-1] == (l > 0) {
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
	brute := func(cls [][]int, n int) bool {
		m := make([]bool, n)
		for a := 0; a < 1<<n; a++ {
			for i := range n {
				m[i] = a>>i&1 == 1
			}
			if sat(cls, m) {
				return true
			}
		}
		return false
	}
	lit := func(n int) int {
		v := 1 + rng.IntN(n)
		if rng.IntN(2) == 0 {
			return -v
		}
		return v
	}
	trials := 3000
	if testing.Short() {
		trials = 300
	}
	for trial := range trials {
		n := 4 + rng.IntN(9)
		nc := n + rng.IntN(4*n)
		var cls [][]int
		for range nc {
			k := 2 + rng.IntN(3)
			c := make([]int, k)
			for i := range c {
				c[i] = lit(n)
			}
			cls = append(cls, c)
		}
		s := solver.New(solver.ParseSliceNb(cls, n))
		for step := range 8 {
			if step > 0 {
				var c []int
				if rng.IntN(3) == 0 {
					c = []int{lit(n), lit(n)}
				} else {
					c = []int{lit(n)}
				}
				cls = append(cls, c)
				lits := make([]solver.Lit, len(c))
				for i, l := range c {
					lits[i] = solver.IntToLit(int32(l))
				}
				s.AppendClause(solver.NewClause(lits))
			}
			want := brute(cls, n)
			st := s.Solve()
			if (st == solver.Sat) != want || st == solver.Indet {
				t.Fatalf("trial %d step %d: solver %v, brute force sat=%v; clauses %v", trial, step, st, want, cls)
			}
			if st == solver.Sat {
				m := s.Model()
				if !sat(cls, m[:n]) {
					t.Fatalf("trial %d step %d: model %v violates %v", trial, step, m, cls)
				}
			}
		}
	}
}

// TestSolverAppendUnitVsFresh is TestSolverAppendUnitIncremental on
// formulas near the 3-SAT threshold (restarts, learned clauses, reductions
// happen), with a fresh solver as the oracle.
func TestSolverAppendUnitVsFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 8))
	lit := func(n int) int {
		v := 1 + rng.IntN(n)
		if rng.IntN(2) == 0 {
			return -v
		}
		return v
	}
	trials := 400
	if testing.Short() {
		trials = 40
	}
	for trial := range trials {
		n := 40 + rng.IntN(80)
		nc := n * 38 / 10
		var cls [][]int
		for range nc {
			cls = append(cls, []int{lit(n), lit(n), lit(n)})
		}
		s := solver.New(solver.ParseSliceNb(cls, n))
		for step := range 12 {
			if step > 0 {
				c := []int{lit(n)}
				cls = append(cls, c)
				s.AppendClause(solver.NewClause([]solver.Lit{solver.IntToLit(int32(c[0]))}))
			}
			want := solver.New(solver.ParseSliceNb(cls, n)).Solve()
			got := s.Solve()
			if got != want {
				t.Fatalf("trial %d step %d: incremental %v, fresh %v", trial, step, got, want)
			}
			if want == solver.Unsat {
				break
			}
		}
	}
}
