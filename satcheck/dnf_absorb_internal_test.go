package satcheck

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// absorbTests: one function written as a product of clauses in two
// groupings. Expanded, the product keeps cubes that others absorb, and
// which ones depends on the grouping (quad's mutant: "no more white
// stones for x than for o", 120 of 7,166 cubes); absorbed, both are the
// function's prime implicants. Inputs are slots 1..n (literal slot<<1,
// |1 negated).
var absorbTests = []struct {
	name string
	nIn  int
	// a and b build the two cones' roots; want: dnfEqual proves them equal.
	a, b func(bl *dnfConeBuilder) uint32
	want bool
}{
	{
		// (¬x ∨ ¬y) ∧ (¬x ∨ ¬z) against ¬x ∨ (¬y ∧ ¬z).
		name: "TwoClauses", nIn: 3,
		a: func(bl *dnfConeBuilder) uint32 {
			x, y, z := uint32(1)<<1, uint32(2)<<1, uint32(3)<<1
			return bl.gate(bl.gate(x, y)|1, bl.gate(x, z)|1)
		},
		b: func(bl *dnfConeBuilder) uint32 {
			x, y, z := uint32(1)<<1, uint32(2)<<1, uint32(3)<<1
			return bl.gate(x, bl.gate(y|1, z|1)|1) | 1
		},
		want: true,
	},
	{
		// ¬(x_i ∧ o_j) for every i > j over counters of 4, clause by
		// clause, against the clauses grouped by i first.
		name: "Counters", nIn: 8,
		a: func(bl *dnfConeBuilder) uint32 {
			var cl []uint32
			for i := range 4 {
				for j := range i {
					cl = append(cl, bl.gate(uint32(1+i)<<1, uint32(5+j)<<1)|1)
				}
			}
			return bl.gate(cl...)
		},
		b: func(bl *dnfConeBuilder) uint32 {
			var groups []uint32
			for i := 3; i >= 1; i-- {
				var cl []uint32
				for j := range i {
					cl = append(cl, bl.gate(uint32(1+i)<<1, uint32(5+j)<<1)|1)
				}
				groups = append(groups, bl.gate(cl...))
			}
			return bl.gate(groups...)
		},
		want: true,
	},
	{
		// One clause fewer on one side: different functions.
		name: "ErrDiffers", nIn: 3,
		a: func(bl *dnfConeBuilder) uint32 {
			x, y, z := uint32(1)<<1, uint32(2)<<1, uint32(3)<<1
			return bl.gate(bl.gate(x, y)|1, bl.gate(x, z)|1)
		},
		b: func(bl *dnfConeBuilder) uint32 {
			x, y := uint32(1)<<1, uint32(2)<<1
			return bl.gate(bl.gate(x, y) | 1)
		},
		want: false,
	},
}

func TestDNFAbsorbs(t *testing.T) {
	for _, tc := range absorbTests {
		t.Run(tc.name, func(t *testing.T) {
			ba, bb := &dnfConeBuilder{nIn: tc.nIn}, &dnfConeBuilder{nIn: tc.nIn}
			ca, cb := ba.done(tc.a(ba)), bb.done(tc.b(bb))
			vars := make([]int32, tc.nIn)
			for k := range vars {
				vars[k] = int32(k)
			}
			j := &joint{aVar: vars, bVar: vars, vars: make([]jvar, tc.nIn)}
			if got := dnfEqual(ca, cb, j); got != tc.want {
				t.Errorf("dnfEqual = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAbsorbKeepsMinimalCubes: absorb against a brute-force filter of
// random sets (cubes over 10 atoms, sorted, no repeats): it keeps exactly
// the cubes no other cube of the set lies within, in the set's order.
func TestAbsorbKeepsMinimalCubes(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 22))
	for trial := range 2000 {
		var s dnf
		for range 1 + rng.IntN(40) {
			var c []uint32
			for a := range 10 {
				if rng.IntN(4) == 0 {
					c = append(c, uint32(a+1)<<1|uint32(rng.IntN(2)))
				}
			}
			s = append(s, c)
		}
		slices.SortFunc(s, slices.Compare)
		s = slices.CompactFunc(s, slices.Equal)
		var want dnf
		for k, d := range s {
			absorbed := false
			for x, c := range s {
				if x != k && subset(c, d) {
					absorbed = true
				}
			}
			if !absorbed {
				want = append(want, d)
			}
		}
		dt := newDNFTable(10, 1<<30, dnfCaps{dnfMaxCubes, dnfMaxProduct})
		got, ok := dt.absorb(slices.Clone(s))
		if !ok || !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("trial %d: absorb(%v) = %v, %v, want %v", trial, s, got, ok, want)
		}
	}
}
