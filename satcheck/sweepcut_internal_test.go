package satcheck

import "testing"

// cutFixture is a graph over 20 free propositions q and a role of 50
// actions: x = AND(q0..q9, ¬q10..¬q19, ¬deep), where deep is a chain of
// 40 nested two-input gates over the actions and propositions that is
// almost always false; x is true only on rare states (2^-20 of them at
// any density), so random simulation takes x for the constant false. A
// proof window of 24 gates cuts the chain: its SAT answer proves nothing.
type cutFixture struct {
	s    *sweeper
	x    uint32
	deep uint32
}

func newCutFixture(t *testing.T) cutFixture {
	t.Helper()
	const props, acts = 60, 50
	j := &joint{}
	for range props {
		j.props = append(j.props, int32(len(j.vars)))
		j.group = append(j.group, -1)
		j.vars = append(j.vars, jvar{aIn: -1})
	}
	addTestRole(j, acts)
	sg := newSweepGraph(len(j.vars))
	lit := func(v int) uint32 { return uint32(v+1) << 1 } // joint variable v is node v+1
	deep := sg.and([]uint32{lit(20), lit(props)})
	for k := 1; k < 40; k++ {
		deep = sg.and([]uint32{deep, lit(20 + k)})
	}
	fs := []uint32{deep ^ 1}
	for v := range 20 {
		l := lit(v)
		if v >= 10 {
			l ^= 1
		}
		fs = append(fs, l)
	}
	x := sg.and(fs)
	nn := sg.numNodes()
	c := &Checker{opt: Options{}.withDefaults()}
	c.pool = newPool(1, &c.stats)
	s := &sweeper{c: c, j: j, g: sg, rfan: make([][]uint32, nn), gen: make([]int32, nn), budget: -1}
	for n := sg.nv + 1; n < nn; n++ {
		s.rfan[n] = sg.gateFanin(uint32(n))
	}
	return cutFixture{s: s, x: x, deep: deep}
}

// TestCutWindowModelExtended: the cut window's SAT answer on x against
// false comes back with a real counterexample (the window's leaves kept,
// the chain's inputs drawn so that deep is false), so the sweep needs no
// whole-cone solve to keep x apart; before, prove returned no model and
// the next window was solved.
func TestCutWindowModelExtended(t *testing.T) {
	fx := newCutFixture(t)
	s := fx.s
	sat, model, err := s.prove(t.Context(), fx.x, litFalse, 24, false)
	if err != nil || !sat {
		t.Fatalf("prove = %v, %v; want SAT", sat, err)
	}
	if model == nil {
		t.Fatal("the cut window's model was not extended to a counterexample")
	}
	if !evalSweepLit(s.g, fx.x, model) {
		t.Fatal("the extended model does not make x true: not a counterexample")
	}
	if n := countTrue(model[60:]); n != 1 {
		t.Fatalf("the extended model sets %d actions of the role, want exactly one", n)
	}
	if s.cutRefuted != 1 {
		t.Errorf("cutRefuted = %d, want 1", s.cutRefuted)
	}
}

// TestCutWindowEqualPairNoModel: a pair that is equal (x against itself
// rebuilt with its fanins in another gate) never gets a model from a cut
// window, whatever the extension draws.
func TestCutWindowEqualPairNoModel(t *testing.T) {
	fx := newCutFixture(t)
	s := fx.s
	// y = AND(¬deep, AND(q0..q19 as in x)): equal to x, another structure.
	var inner []uint32
	for v := range 20 {
		l := uint32(v+1) << 1
		if v >= 10 {
			l ^= 1
		}
		inner = append(inner, l)
	}
	in := s.g.and(inner)
	y := s.g.and([]uint32{fx.deep ^ 1, in})
	nn := s.g.numNodes()
	for n := len(s.rfan); n < nn; n++ {
		s.rfan = append(s.rfan, s.g.gateFanin(uint32(n)))
		s.gen = append(s.gen, 0)
	}
	for range 20 {
		sat, model, err := s.prove(t.Context(), fx.x, y, 3, false)
		if err != nil {
			t.Fatal(err)
		}
		if model != nil {
			t.Fatalf("prove(x, y) with a cut window returned a model (sat %v) for an equal pair", sat)
		}
		s.nce++ // another draw
	}
	sat, _, err := s.prove(t.Context(), fx.x, y, 0, false)
	if err != nil || sat {
		t.Fatalf("whole proof of x == y = SAT %v, %v; want UNSAT", sat, err)
	}
}

// addTestRole adds to j a role of n actions, all of them joint variables
// (B's only) in one group of exactly one.
func addTestRole(j *joint, n int) {
	g := group{role: int32(len(j.groups))}
	for range n {
		g.members = append(g.members, int32(len(j.vars)))
		j.group = append(j.group, int32(len(j.groups)))
		j.vars = append(j.vars, jvar{aIn: -1})
	}
	j.groups = append(j.groups, g)
}

// evalSweepLit evaluates literal l of g on the joint assignment m.
func evalSweepLit(g *sweepGraph, l uint32, m []bool) bool {
	val := make([]bool, g.numNodes())
	for v := 1; v <= g.nv; v++ {
		val[v] = m[v-1]
	}
	for n := g.nv + 1; n < g.numNodes(); n++ {
		x := true
		for _, f := range g.gateFanin(uint32(n)) {
			x = x && val[f>>1] != (f&1 == 1)
		}
		val[n] = x
	}
	return val[l>>1] != (l&1 == 1)
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// TestSweepKeepsCounterexamplesForItsJoint: a second sweep of the same
// joint (the unbounded sweep after the budgeted one and BDDs) starts
// from the counterexamples the first found, so the pair that the first
// sweep showed different is different again without a SAT call; before,
// every counterexample was searched for again.
func TestSweepKeepsCounterexamplesForItsJoint(t *testing.T) {
	fx := newCutFixture(t)
	sg, j := fx.s.g, fx.s.j
	ca := &cone{Start: []int32{0}, Root: fx.x}
	for v := range sg.nv {
		ca.Inputs = append(ca.Inputs, int32(v))
		j.aVar = append(j.aVar, int32(v))
	}
	for n := sg.nv + 1; n < sg.numNodes(); n++ {
		ca.Gates = append(ca.Gates, int32(n))
		ca.Fanin = append(ca.Fanin, sg.gateFanin(uint32(n))...)
		ca.Start = append(ca.Start, int32(len(ca.Fanin)))
	}
	cb := &cone{Start: []int32{0}, Root: 0} // the constant false
	c := fx.s.c
	for round := range 2 {
		before := c.stats.satCalls.Load()
		o, err := c.sweepMiter(t.Context(), j, ca, cb, -1)
		if err != nil {
			t.Fatal(err)
		}
		if o.equal || o.model == nil {
			t.Fatalf("round %d: sweep says equal %v (model %v); want different", round, o.equal, o.model != nil)
		}
		calls := c.stats.satCalls.Load() - before
		switch {
		case round == 0 && calls == 0:
			t.Fatal("round 0 made no SAT call: the fixture is not rare enough for simulation")
		case round == 1 && calls != 0:
			t.Fatalf("round 1 made %d SAT calls; want 0 (the first round's counterexamples separate the roots)", calls)
		}
		if len(j.sweepCex) == 0 {
			t.Fatalf("round %d kept no counterexample in the joint", round)
		}
	}
}
