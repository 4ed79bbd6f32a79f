package satcheck_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// bruteActionClasses partitions role r's actions by comparing f over every
// state and every joint move.
func bruteActionClasses(p *grounding.Program, f grounding.Lit, r int) [][]int {
	n := len(p.Actions[r])
	base := make([]int, len(p.Roles)) // first input of each role's actions
	off := len(p.Props)
	for r2, as := range p.Actions {
		base[r2] = off
		off += len(as)
	}
	eq := func(a, b int) bool {
		choices := make([]int, len(p.Roles))
		var in []bool
		var vals []bool
		eval := func(s int, mv []int) bool {
			in = make([]bool, p.Circuit.NumInputs)
			for i := range p.Props {
				in[i] = s>>i&1 == 1
			}
			for r2, c := range mv {
				in[base[r2]+c] = true
			}
			vals = p.Circuit.Eval(in, vals)
			return grounding.Value(vals, f)
		}
		var rec func(k int) bool
		rec = func(k int) bool {
			if k == len(p.Roles) {
				for s := range 1 << len(p.Props) {
					mv := append([]int(nil), choices...)
					mv[r] = a
					x := eval(s, mv)
					mv[r] = b
					if x != eval(s, mv) {
						return false
					}
				}
				return true
			}
			if k == r {
				return rec(k + 1)
			}
			for c := range p.Actions[k] {
				choices[k] = c
				if !rec(k + 1) {
					return false
				}
			}
			return true
		}
		return rec(0)
	}
	var classes [][]int
	placed := make([]bool, n)
	for a := range n {
		if placed[a] {
			continue
		}
		class := []int{a}
		for b := a + 1; b < n; b++ {
			if !placed[b] && eq(a, b) {
				class = append(class, b)
				placed[b] = true
			}
		}
		classes = append(classes, class)
	}
	return classes
}

// TestActionClassesBrute compares ActionClasses with brute force on random
// circuits of a few propositions and two roles, with simulation separating
// most classes and, without it, SAT separating them all.
func TestActionClassesBrute(t *testing.T) {
	for _, sim := range []bool{true, false} {
		t.Run(fmt.Sprintf("sim=%v", sim), func(t *testing.T) {
			defer satcheck.SetSupportStages(16, sim)()
			testActionClasses(t)
		})
	}
}

func testActionClasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	nontrivial := 0
	for i := range 200 {
		q, pool := randomCircuitProgram(rng, "rand", 1+rng.IntN(4), []int{2 + rng.IntN(4), 1 + rng.IntN(3)}, 12)
		p := q.done()
		f := pool[rng.IntN(len(pool))] ^ grounding.Lit(rng.IntN(2))
		for r := range p.Roles {
			got, err := satcheck.ActionClasses(context.Background(), p, f, r)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteActionClasses(p, f, r)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("case %d role %d: ActionClasses = %v, brute force %v", i, r, got, want)
			}
			if len(want) > 1 && len(want) < len(p.Actions[r]) {
				nontrivial++
			}
		}
	}
	if nontrivial < 20 {
		t.Errorf("only %d cases with classes of several actions: the test does not exercise the merging", nontrivial)
	}
}
