package satcheck

import (
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestSizeEstimates checks that the limits are applied to the exact size of
// the formulas built afterwards.
func TestSizeEstimates(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		shape := [][]int{{3, 2}, {7}, {1, 9}, {}}[trial%4]
		n := 4 + rng.IntN(4)
		var actions [][]string
		var roles []string
		total := n
		for r, k := range shape {
			roles = append(roles, string(rune('r'+r)))
			var as []string
			for a := range k {
				as = append(as, string(rune('a'+a)))
			}
			actions = append(actions, as)
			total += k
		}
		c := grounding.Circuit{NumInputs: total, Start: make([]int32, total+2)}
		pool := []grounding.Lit{}
		for i := range total {
			pool = append(pool, grounding.InputLit(i))
		}
		for range 15 {
			a, b := pool[rng.IntN(len(pool))], pool[rng.IntN(len(pool))]^grounding.Lit(rng.IntN(2))
			if a.Node() == b.Node() {
				continue
			}
			if a > b {
				a, b = b, a
			}
			c.Fanin = append(c.Fanin, a, b)
			c.Start = append(c.Start, int32(len(c.Fanin)))
			pool = append(pool, grounding.Lit(c.NumNodes()-1)<<1)
		}
		props := make([]string, n)
		p := &grounding.Program{Name: "p", Roles: roles, Props: props, Actions: actions, Circuit: c}
		f := pool[len(pool)-1]
		an, err := analyze(p, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range an.units() {
			big := Options{MaxVars: 1 << 30, MaxClauses: 1 << 30}
			x, err := an.dependsCNF(u, &big)
			if err != nil {
				t.Fatal(err)
			}
			exact := Options{MaxVars: x.nvars, MaxClauses: len(x.clauses)}
			if _, err := an.dependsCNF(u, &exact); err != nil {
				t.Fatalf("dependsCNF(%+v) at its exact size: %v", u, err)
			}
			exact.MaxClauses--
			if _, err := an.dependsCNF(u, &exact); err == nil {
				t.Fatalf("dependsCNF(%+v) one clause under its size succeeded", u)
			}
			exact.MaxClauses++
			exact.MaxVars--
			if _, err := an.dependsCNF(u, &exact); err == nil {
				t.Fatalf("dependsCNF(%+v) one variable under its size succeeded", u)
			}
		}
	}
}
