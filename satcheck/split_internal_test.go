package satcheck

import (
	"math/rand/v2"
	"testing"

	"github.com/crillab/gophersat/solver"
)

// TestSplitWide checks splitWide on random formulas with wide clauses: no
// clause wider than the bound, the same satisfiability as the input (by
// brute force over the input's variables), and every model of the result,
// restricted to the input's variables, a model of the input.
func TestSplitWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 3))
	satisfies := func(clauses [][]int, x []bool) bool {
		for _, c := range clauses {
			ok := false
			for _, l := range c {
				v := l
				if v < 0 {
					v = -v
				}
				if x[v-1] == (l > 0) {
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
	for trial := range 300 {
		nvars := 3 + rng.IntN(8)
		w := 3 + rng.IntN(4)
		var clauses [][]int
		for range 1 + rng.IntN(12) {
			c := make([]int, 1+rng.IntN(30))
			for i := range c {
				c[i] = 1 + rng.IntN(nvars)
				if rng.IntN(2) == 0 {
					c[i] = -c[i]
				}
			}
			clauses = append(clauses, c)
		}
		got, gotVars := splitWide(clauses, nvars, w)
		for _, c := range got {
			if len(c) > w {
				t.Fatalf("trial %d: clause of %d literals, want at most %d", trial, len(c), w)
			}
		}
		want := false
		x := make([]bool, nvars)
		for m := range 1 << nvars {
			for v := range x {
				x[v] = m>>v&1 == 1
			}
			if satisfies(clauses, x) {
				want = true
				break
			}
		}
		s := solver.New(solver.ParseSliceNb(got, gotVars))
		sat := s.Solve() == solver.Sat
		if sat != want {
			t.Fatalf("trial %d: split formula satisfiable = %v, input = %v", trial, sat, want)
		}
		if sat && !satisfies(clauses, s.Model()[:nvars]) {
			t.Fatalf("trial %d: the split formula's model is no model of the input", trial)
		}
	}
}

// BenchmarkParseWide: gophersat's parser and solver set-up on 200 AND
// gates of 600 fanins each (Tseitin: 600 binary clauses and one clause of
// 601 literals per gate), as given and after splitWide.
func BenchmarkParseWide(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	nvars := 2000
	var clauses [][]int
	for range 200 {
		nvars++
		g := nvars
		wide := []int{g}
		for range 600 {
			x := 1 + rng.IntN(2000)
			clauses = append(clauses, []int{-g, x})
			wide = append(wide, -x)
		}
		clauses = append(clauses, wide)
	}
	b.Run("as-given", func(b *testing.B) {
		for range b.N {
			solver.New(solver.ParseSliceNb(clauses, nvars))
		}
	})
	b.Run("split", func(b *testing.B) {
		for range b.N {
			cs, nv := splitWide(clauses, nvars, maxClauseWidth)
			solver.New(solver.ParseSliceNb(cs, nv))
		}
	})
}
