package grounding_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// randomBDDCircuit adds nGates random AND gates (random fanins among the
// inputs and the gates so far, random signs) to b and returns a literal of
// each gate.
func randomBDDCircuit(rng *rand.Rand, b *bddCircuit, nGates int) []grounding.Lit {
	pool := make([]grounding.Lit, 0, b.c.NumInputs+nGates)
	for i := range b.c.NumInputs {
		pool = append(pool, grounding.InputLit(i))
	}
	var gates []grounding.Lit
	for range nGates {
		k := 2 + rng.IntN(2)
		fs := make([]grounding.Lit, 0, k)
		seen := map[int]bool{}
		for len(fs) < k {
			l := pool[rng.IntN(len(pool))]
			if seen[l.Node()] {
				continue
			}
			seen[l.Node()] = true
			if rng.IntN(2) == 0 {
				l = l.Not()
			}
			fs = append(fs, l)
		}
		g := b.and(fs...)
		if rng.IntN(2) == 0 {
			g = g.Not()
		}
		pool = append(pool, g)
		gates = append(gates, g)
	}
	return gates
}

// evalBDD is e's value on x (x[level]).
func evalBDD(d *grounding.BDD, e grounding.BDDEdge, x []bool) bool {
	for {
		lv, ok := d.Level(e)
		if !ok {
			return e == grounding.BDDTrue
		}
		lo, hi := d.Cofactors(e)
		if x[lv] {
			e = hi
		} else {
			e = lo
		}
	}
}

// TestBDDComposeBruteForce: Compose of random functions of 7 variables
// under random simultaneous substitutions (a permutation of the levels,
// constants, other functions, a mix) agrees with the composed function on
// every assignment.
func TestBDDComposeBruteForce(t *testing.T) {
	const n = 7
	rng := rand.New(rand.NewPCG(22, 5))
	ctx := context.Background()
	for trial := range 300 {
		b := newBDDCircuit(n)
		gates := randomBDDCircuit(rng, b, 24)
		d := grounding.NewBDD(grounding.BDDLimits{})
		if err := d.Begin(ctx, 1<<16); err != nil {
			t.Fatal(err)
		}
		f := b.bdd(t, ctx, d, gates[len(gates)-1], nil)
		perm := rng.Perm(n)
		sub := make([]grounding.BDDEdge, n)
		for v := range sub {
			var err error
			switch kind := (trial + v) % 4; {
			case kind == 0 || trial%3 == 0:
				sub[v], err = d.Var(int32(perm[v])) // trials 0, 3, ...: a permutation
			case kind == 1:
				sub[v] = grounding.BDDEdge(rng.IntN(2)) // a constant
			default:
				sub[v] = b.bdd(t, ctx, d, gates[rng.IntN(len(gates))], nil)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		g, err := d.Compose(f, func(v int32) grounding.BDDEdge { return sub[v] })
		if err != nil {
			t.Fatal(err)
		}
		x := make([]bool, n)
		y := make([]bool, n)
		for row := range 1 << n {
			for v := range x {
				x[v] = row>>v&1 == 1
			}
			for v := range y {
				y[v] = evalBDD(d, sub[v], x)
			}
			if got, want := evalBDD(d, g, x), evalBDD(d, f, y); got != want {
				t.Fatalf("trial %d, row %07b: Compose gives %v, f at the substituted values %v", trial, row, got, want)
			}
		}
	}
}

// TestBDDComposeLimit: a composition past its operation's node bound ends
// with ErrBDDLimit, and one within it does not.
func TestBDDComposeLimit(t *testing.T) {
	const n = 12
	ctx := context.Background()
	b := newBDDCircuit(n)
	// x0 = x1 and x2 = x3 ... : 3 nodes a pair in this order, exponential
	// once the levels are permuted so that every pair is split.
	var eqs []grounding.Lit
	for i := 0; i < n; i += 2 {
		eqs = append(eqs, b.xor(grounding.InputLit(i), grounding.InputLit(i+1)).Not())
	}
	root := b.and(eqs...)
	split := func(v int32) int32 { // pair i to levels i/2 and n/2 + i/2
		if v%2 == 0 {
			return v / 2
		}
		return n/2 + v/2
	}
	for _, tc := range []struct {
		budget int
		ok     bool
	}{{1 << 12, true}, {40, false}} {
		d := grounding.NewBDD(grounding.BDDLimits{})
		if err := d.Begin(ctx, 1<<12); err != nil {
			t.Fatal(err)
		}
		f := b.bdd(t, ctx, d, root, nil)
		vars := make([]grounding.BDDEdge, n)
		for v := range vars {
			var err error
			if vars[v], err = d.Var(split(int32(v))); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Begin(ctx, tc.budget); err != nil {
			t.Fatal(err)
		}
		_, err := d.Compose(f, func(v int32) grounding.BDDEdge { return vars[v] })
		if tc.ok && err != nil || !tc.ok && !errors.Is(err, grounding.ErrBDDLimit) {
			t.Errorf("Compose with a bound of %d nodes: error %v, want ok=%v", tc.budget, err, tc.ok)
		}
	}
}
