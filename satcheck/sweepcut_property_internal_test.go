package satcheck

import (
	"math/rand/v2"
	"testing"
)

// TestCutWindowModelsAreRealCounterexamples: on random graphs over random
// joints (groups with and without an "other" choice), every model that a
// cut window returns must (1) respect every group (exactly one member
// without other, at most one with it) and (2) separate x and y on the
// graph as built; and a pair that the whole proof shows equal must never
// get a model from any window.
func TestCutWindowModelsAreRealCounterexamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	models, equalPairs := 0, 0
	for trial := range 300 {
		j := &joint{}
		nprops := 3 + rng.IntN(6)
		for range nprops {
			j.props = append(j.props, int32(len(j.vars)))
			j.group = append(j.group, -1)
			j.vars = append(j.vars, jvar{aIn: -1})
		}
		ngroups := 1 + rng.IntN(3)
		for gi := range ngroups {
			g := group{role: int32(gi), other: rng.IntN(2) == 0}
			for range 1 + rng.IntN(5) {
				g.members = append(g.members, int32(len(j.vars)))
				j.group = append(j.group, int32(gi))
				j.vars = append(j.vars, jvar{aIn: -1})
			}
			j.groups = append(j.groups, g)
		}
		sg := newSweepGraph(len(j.vars))
		for range 40 + rng.IntN(80) {
			nn := uint32(sg.numNodes())
			var fs []uint32
			for range 2 + rng.IntN(2) {
				fs = append(fs, (1+rng.Uint32N(nn-1))<<1|rng.Uint32N(2))
			}
			sg.and(fs)
		}
		nn := sg.numNodes()
		c := &Checker{opt: Options{Seed: uint64(trial)}.withDefaults()}
		c.pool = newPool(1, &c.stats)
		s := &sweeper{c: c, j: j, g: sg, rfan: make([][]uint32, nn), gen: make([]int32, nn), budget: -1}
		for n := sg.nv + 1; n < nn; n++ {
			s.rfan[n] = sg.gateFanin(uint32(n))
		}
		for range 30 {
			x := uint32(sg.nv+1+rng.IntN(nn-sg.nv-1)) << 1
			y := rng.Uint32N(x>>1)<<1 | rng.Uint32N(2)
			whole, _, err := s.prove(t.Context(), x, y, 0, false)
			if err != nil {
				t.Fatal(err)
			}
			if !whole {
				equalPairs++
			}
			for _, win := range []int{1, 2, 3, 5, 8} {
				s.nce = rng.IntN(1000)
				sat, m, err := s.prove(t.Context(), x, y, win, false)
				if err != nil {
					t.Fatal(err)
				}
				if m == nil {
					continue
				}
				models++
				if !sat || !whole {
					t.Fatalf("trial %d: window %d returned a model for %d vs %d, which the whole proof shows equal", trial, win, x, y)
				}
				for gi, g := range j.groups {
					k := 0
					for _, v := range g.members {
						if m[v] {
							k++
						}
					}
					if k > 1 || (k == 0 && !g.other) {
						t.Fatalf("trial %d: window %d model sets %d members of group %d (other %v)", trial, win, k, gi, g.other)
					}
				}
				if evalSweepLit(sg, x, m) == evalSweepLit(sg, y, m) {
					t.Fatalf("trial %d: window %d model does not separate %d and %d", trial, win, x, y)
				}
			}
		}
	}
	t.Logf("%d extended models checked, %d equal pairs", models, equalPairs)
	if models == 0 {
		t.Fatal("no cut window model was extended: the test exercises nothing")
	}
}
