package groundgraph

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestSupportBDDLevels checks levels against grounding.BDD.Levels on random
// BDDs of 12 variables, one root and several, with the scratch reused from
// call to call (a bit left set would show in a later call).
func TestSupportBDDLevels(t *testing.T) {
	const n = 12
	ids := make([]int32, n)
	perm := rand.New(rand.NewPCG(3, 4)).Perm(n)
	level := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
		level[i] = int32(perm[i])
	}
	prop := make([]int32, n)
	for i, l := range level {
		prop[l] = int32(i)
	}
	d := newSupportBDD(DefaultMaxBDDNodes, level, prop)
	cn := &grounding.Cone{Inputs: ids}
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		if err := d.d.Begin(context.Background(), 1<<16); err != nil {
			t.Fatal(err)
		}
		// Random functions of a random few variables.
		var roots []bddEdge
		for range 1 + rng.IntN(3) {
			e := bddTrue
			for range 1 + rng.IntN(5) {
				v, err := d.d.Var(level[rng.IntN(n)])
				if err != nil {
					t.Fatal(err)
				}
				v ^= bddEdge(rng.IntN(2))
				if rng.IntN(2) == 0 {
					e, err = d.d.And(e, v)
				} else {
					e, err = d.d.Or(e, v)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			roots = append(roots, e)
		}
		want := d.d.Levels(roots...)
		got := make([]bool, n)
		d.levels(cn, roots, got)
		for k := range got {
			if got[k] != want[level[k]] {
				t.Fatalf("trial %d: levels says input %d is %v, grounding.BDD.Levels %v", trial, k, got[k], want[level[k]])
			}
		}
	}
}
