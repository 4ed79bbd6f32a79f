package satcheck

import (
	"errors"
	"testing"
)

// countFixture is a sweep graph over 2n free propositions: item i is the
// shared gate h_i = v_i AND NOT v_{n+i}, and exactly(order, k) is "exactly
// k items are true", counted by a unary chain that walks the items in
// order. Two chains in different orders read the same h_i and share no
// other gate: the shape of queens' goal under a reflection of the board.
type countFixture struct {
	s *sweeper
	g *sweepGraph
	h []uint32
}

func newCountFixture(t *testing.T, n int) *countFixture {
	t.Helper()
	j := &joint{}
	for range 2 * n {
		j.props = append(j.props, int32(len(j.vars)))
		j.group = append(j.group, -1)
		j.vars = append(j.vars, jvar{aIn: -1})
	}
	g := newSweepGraph(len(j.vars))
	lit := func(v int) uint32 { return uint32(v+1) << 1 }
	fx := &countFixture{g: g}
	for i := range n {
		fx.h = append(fx.h, g.and([]uint32{lit(i), lit(n+i) ^ 1}))
	}
	c := &Checker{opt: Options{}.withDefaults()}
	c.pool = newPool(1, &c.stats)
	fx.s = &sweeper{c: c, j: j, g: g, budget: -1}
	return fx
}

func (fx *countFixture) or(a, b uint32) uint32 {
	return fx.g.and([]uint32{a ^ 1, b ^ 1}) ^ 1
}

// exactly builds the chain over the items in order and returns its
// literal for "exactly k are true".
func (fx *countFixture) exactly(order []int, k int) uint32 {
	c := []uint32{litFalse ^ 1} // c[m]: exactly m of the items so far
	for _, i := range order {
		h := fx.h[i]
		next := make([]uint32, len(c)+1)
		for m := range next {
			stay, up := litFalse, litFalse
			if m < len(c) {
				stay = fx.g.and([]uint32{c[m], h ^ 1})
			}
			if m > 0 {
				up = fx.g.and([]uint32{c[m-1], h})
			}
			next[m] = fx.or(stay, up)
		}
		c = next
	}
	return c[k]
}

// finish gives the sweeper its per-node state once the graph is built.
func (fx *countFixture) finish() {
	nn := fx.g.numNodes()
	fx.s.rfan = make([][]uint32, nn)
	fx.s.gen = make([]int32, nn)
	for n := fx.g.nv + 1; n < nn; n++ {
		fx.s.rfan[n] = fx.g.gateFanin(uint32(n))
	}
}

// interleaved is 0, n-1, 1, n-2, ...: far from the identity's order.
func interleaved(n int) []int {
	var o []int
	for lo, hi := 0, n-1; lo <= hi; lo, hi = lo+1, hi-1 {
		o = append(o, lo)
		if hi != lo {
			o = append(o, hi)
		}
	}
	return o
}

func identityOrder(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

// TestCutBDDProvesPermutedCount: two counts of the same items in different
// orders are proven equal over the shared items, and counts of different
// values are never.
func TestCutBDDProvesPermutedCount(t *testing.T) {
	const n = 30
	fx := newCountFixture(t, n)
	x := fx.exactly(identityOrder(n), 3)
	y := fx.exactly(interleaved(n), 3)
	z := fx.exactly(interleaved(n), 4)
	fx.finish()
	if x == y {
		t.Fatal("the two chains were hashed together: the fixture tests nothing")
	}
	s := fx.s
	eq, err := s.cutEqual(t.Context(), x, y, s.g.gateFanin)
	if err != nil {
		t.Fatal(err)
	}
	if !eq {
		t.Error("exactly 3 of 30 counted in two orders: not proven equal over the shared items")
	}
	eq, err = s.cutEqual(t.Context(), x, z, s.g.gateFanin)
	if err != nil {
		t.Fatal(err)
	}
	if eq {
		t.Error("exactly 3 and exactly 4 proven equal")
	}
	eq, err = s.cutEqual(t.Context(), x, y^1, s.g.gateFanin)
	if err != nil {
		t.Fatal(err)
	}
	if eq {
		t.Error("a count proven equal to its complement")
	}
}

// TestCutBDDKeepsGroups: actions 0 and 1 of one role are never done
// together, so "sh AND a0" equals "sh AND a0 AND NOT a1" (sh a shared
// gate over two propositions) only under the role's constraint, which the
// cut keeps for the inputs it reaches; without it the two differ.
func TestCutBDDKeepsGroups(t *testing.T) {
	j := &joint{}
	for range 2 {
		j.props = append(j.props, int32(len(j.vars)))
		j.group = append(j.group, -1)
		j.vars = append(j.vars, jvar{aIn: -1})
	}
	addTestRole(j, 3)
	g := newSweepGraph(len(j.vars))
	lit := func(v int) uint32 { return uint32(v+1) << 1 }
	sh := g.and([]uint32{lit(0), lit(1) ^ 1})
	x := g.and([]uint32{sh, lit(2)})
	y := g.and([]uint32{sh, lit(2), lit(3) ^ 1})
	z := g.and([]uint32{sh, lit(3) ^ 1})
	c := &Checker{opt: Options{}.withDefaults()}
	s := &sweeper{c: c, j: j, g: g, budget: -1}
	eq, err := s.cutEqual(t.Context(), x, y, g.gateFanin)
	if err != nil || !eq {
		t.Errorf("sh AND a0 against sh AND a0 AND NOT a1: %v, %v; want equal", eq, err)
	}
	eq, err = s.cutEqual(t.Context(), x, z, g.gateFanin)
	if err != nil || eq {
		t.Errorf("sh AND a0 against sh AND NOT a1: %v, %v; want not shown", eq, err)
	}
}

// TestSweepProofCapped: an internal proof stops at SweepProofConflicts
// (the nodes stay apart), and the final miter of the roots never does.
func TestSweepProofCapped(t *testing.T) {
	const n = 14
	fx := newCountFixture(t, n)
	x := fx.exactly(identityOrder(n), 3)
	y := fx.exactly(interleaved(n), 3)
	fx.finish()
	s := fx.s
	s.c.opt.SweepProofConflicts = 1
	_, _, err := s.prove(t.Context(), x, y, 0, true)
	if !errors.Is(err, errProofCapped) {
		t.Fatalf("internal proof with a bound of 1 conflict: err %v, want errProofCapped", err)
	}
	if got := s.c.Stats().SweepProofCapped; got != 1 {
		t.Errorf("SweepProofCapped %d, want 1", got)
	}
	sat, _, err := s.prove(t.Context(), x, y, 0, false)
	if err != nil || sat {
		t.Fatalf("the roots' miter: sat %v, err %v; want UNSAT", sat, err)
	}
}

// wholeCone is the cone of root over the whole of g: every variable an
// input, every gate in order.
func (g *sweepGraph) wholeCone(root uint32) *cone {
	cn := &cone{Start: []int32{0}, Root: root}
	for v := range g.nv {
		cn.Inputs = append(cn.Inputs, int32(v))
	}
	for n := g.nv + 1; n < g.numNodes(); n++ {
		cn.Gates = append(cn.Gates, int32(n))
		cn.Fanin = append(cn.Fanin, g.gateFanin(uint32(n))...)
		cn.Start = append(cn.Start, int32(len(cn.Fanin)))
	}
	return cn
}

// identityVars maps g's variables to themselves on both sides of a joint.
func (g *sweepGraph) identityVars() (aVar, bVar []int32) {
	for v := range g.nv {
		aVar = append(aVar, int32(v))
		bVar = append(bVar, int32(v))
	}
	return aVar, bVar
}
