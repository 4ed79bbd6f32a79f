package grounding_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestPropRenamingKey builds one random gate structure twice in a circuit,
// over two disjoint sets of propositions and the same actions, and checks
// that the two cones get the same key, with the propositions paired in
// order; a copy with one fanin negated differently gets another key.
func TestPropRenamingKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 100 {
		np, na, ng := 1+rng.IntN(6), rng.IntN(3), 1+rng.IntN(20)
		n := 2*np + na
		isProp := func(in int32) bool { return int(in) < 2*np }
		// Abstract gates: fanins are (node, negated), node < 0 an input:
		// -1-k for abstract input k (props first, then actions).
		type fan struct {
			node int
			neg  bool
		}
		gates := make([][]fan, ng)
		for g := range gates {
			for range 2 + rng.IntN(2) {
				x := rng.IntN(np + na + g)
				node := x - np - na // gates 0..g-1
				if x < np+na {
					node = -1 - x
				}
				gates[g] = append(gates[g], fan{node, rng.IntN(2) == 1})
			}
		}
		c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
		build := func(offset int, tweak bool) grounding.Lit {
			base := c.NumNodes()
			for g, fs := range gates {
				var ls []grounding.Lit
				for i, f := range fs {
					var node int
					switch {
					case f.node >= 0:
						node = base + f.node
					case -1-f.node < np:
						node = 1 + offset + (-1 - f.node)
					default:
						node = 1 + 2*np + (-1 - f.node - np)
					}
					neg := f.neg
					if tweak && g == ng-1 && i == 0 {
						neg = !neg
					}
					l := grounding.Lit(node) << 1
					if neg {
						l |= 1
					}
					ls = append(ls, l)
				}
				slices.Sort(ls)
				ls = slices.CompactFunc(ls, func(a, b grounding.Lit) bool { return a.Node() == b.Node() })
				c.Fanin = append(c.Fanin, ls...)
				c.Start = append(c.Start, int32(len(c.Fanin)))
			}
			return grounding.Lit(c.NumNodes()-1) << 1
		}
		ra, rb, rc := build(0, false), build(np, false), build(np, true)
		key := func(root grounding.Lit) (string, []int32) {
			cn, err := grounding.NewCone(c, root)
			if err != nil {
				t.Fatal(err)
			}
			return cn.PropRenamingKey(isProp)
		}
		ka, pa := key(ra)
		kb, pb := key(rb)
		kc, _ := key(rc)
		if ka != kb {
			t.Fatalf("trial %d: copies over renamed propositions have different keys", trial)
		}
		if len(pa) != len(pb) {
			t.Fatalf("trial %d: %d and %d propositions", trial, len(pa), len(pb))
		}
		for i := range pa {
			if pb[i] != pa[i]+int32(np) {
				t.Fatalf("trial %d: proposition %d of the first copy paired with %d", trial, pa[i], pb[i])
			}
		}
		// The negated fanin may be folded away by the gate's other fanins
		// only if the structure is unchanged; a different structure must
		// give a different key.
		cnA, _ := grounding.NewCone(c, rb)
		cnC, _ := grounding.NewCone(c, rc)
		if !slices.Equal(cnA.Fanin, cnC.Fanin) && kc == kb {
			t.Fatalf("trial %d: different structures, same key", trial)
		}
	}
}
