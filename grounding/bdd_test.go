package grounding_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// bddCircuit is a circuit over n inputs that gates are added to.
type bddCircuit struct{ c grounding.Circuit }

func newBDDCircuit(n int) *bddCircuit {
	return &bddCircuit{grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}}
}

// bdd returns the BDD of l in d (inside a Begin), each circuit input its
// own variable, keeping gate BDDs in gates when it is not nil.
func (b *bddCircuit) bdd(t *testing.T, ctx context.Context, d *grounding.BDD, l grounding.Lit, gates map[int32]grounding.BDDEdge) grounding.BDDEdge {
	t.Helper()
	cn, err := grounding.NewCone(&b.c, l)
	if err != nil {
		t.Fatal(err)
	}
	lit, err := d.EvalCone(ctx, cn, func(k int) (grounding.BDDEdge, bool) {
		v, err := d.Var(int32(cn.Inputs[k]))
		if err != nil {
			t.Fatal(err)
		}
		return v, true
	}, gates)
	if err != nil {
		t.Fatal(err)
	}
	return grounding.RootOf(cn, lit)
}

func (b *bddCircuit) and(ls ...grounding.Lit) grounding.Lit {
	ls = slices.Clone(ls)
	slices.Sort(ls)
	b.c.Fanin = append(b.c.Fanin, ls...)
	b.c.Start = append(b.c.Start, int32(len(b.c.Fanin)))
	return grounding.Lit(b.c.NumNodes()-1) << 1
}

func (b *bddCircuit) xor(x, y grounding.Lit) grounding.Lit {
	return b.and(b.and(x, y.Not()).Not(), b.and(x.Not(), y).Not()).Not()
}

// parity is the XOR of the inputs in the order ins.
func (b *bddCircuit) parity(ins []int) grounding.Lit {
	acc := grounding.InputLit(ins[0])
	for _, i := range ins[1:] {
		acc = b.xor(acc, grounding.InputLit(i))
	}
	return acc
}

// TestBDDCanonical: two circuits of one function (parity of 24 inputs
// chained in opposite orders) end on the same edge; a third that differs
// on some assignments does not, and AnySat of their XOR is an assignment
// that tells them apart in the circuit.
func TestBDDCanonical(t *testing.T) {
	const n = 24
	b := newBDDCircuit(n)
	ins := make([]int, n)
	for i := range ins {
		ins[i] = i
	}
	f := b.parity(ins)
	slices.Reverse(ins)
	g := b.parity(ins)
	h := b.and(b.parity(ins), grounding.InputLit(ins[0])) // f when ins[0] is true, else false
	ctx := context.Background()
	d := grounding.NewBDD(grounding.BDDLimits{MaxNodes: 1 << 16})
	if err := d.Begin(ctx, 1<<16); err != nil {
		t.Fatal(err)
	}
	eval := func(l grounding.Lit) grounding.BDDEdge { return b.bdd(t, ctx, d, l, nil) }
	ef, eg, eh := eval(f), eval(g), eval(h)
	if ef != eg {
		t.Errorf("parity in two orders: edges %d and %d, want one", ef, eg)
	}
	if ef == eh {
		t.Fatalf("parity and parity and input 0: the same edge %d", ef)
	}
	if d.Len() > 4*n*n {
		t.Errorf("%d nodes for parities of %d inputs, want at most %d", d.Len(), n, 4*n*n)
	}
	diff, err := d.Xor(ef, eh)
	if err != nil {
		t.Fatal(err)
	}
	if lv := d.Levels(ef); len(lv) != n {
		t.Errorf("Levels of a parity: %d variables, want %d", len(lv), n)
	}
	levels, values, ok := d.AnySat(diff)
	if !ok {
		t.Fatal("AnySat of a difference: none")
	}
	in := make([]bool, n)
	for i, l := range levels {
		in[l] = values[i]
	}
	vals := b.c.Eval(in, nil)
	if grounding.Value(vals, f) == grounding.Value(vals, h) {
		t.Errorf("AnySat %v: both circuits give %v", in, grounding.Value(vals, f))
	}
	if _, _, ok := d.AnySat(grounding.BDDFalse); ok {
		t.Error("AnySat(false) found an assignment")
	}
}

// TestBDDLimit: a manager bounded under a function's size fails with
// ErrBDDLimit, at its bound, under an operation's node bound (Begin) and
// under its step bound, and stays usable; a cancelled context stops an
// operation.
func TestBDDLimit(t *testing.T) {
	const n = 16
	b := newBDDCircuit(n)
	// x0 x8 + x1 x9 + ... in the order x0..x15: exponential in n/2.
	var terms []grounding.Lit
	for i := range n / 2 {
		terms = append(terms, b.and(grounding.InputLit(i), grounding.InputLit(i+n/2)).Not())
	}
	f := b.and(terms...).Not()
	cn, err := grounding.NewCone(&b.c, f)
	if err != nil {
		t.Fatal(err)
	}
	build := func(d *grounding.BDD, ctx context.Context, nodes int) error {
		if err := d.Begin(ctx, nodes); err != nil {
			return err
		}
		_, err := d.EvalCone(ctx, cn, func(k int) (grounding.BDDEdge, bool) {
			v, _ := d.Var(int32(cn.Inputs[k]))
			return v, true
		}, nil)
		return err
	}
	bg := context.Background()
	// The function needs between 2^(n/2) and 2^(n/2+2) nodes.
	if err := build(grounding.NewBDD(grounding.BDDLimits{MaxNodes: 1 << (n/2 + 2)}), bg, 1<<(n/2+2)); err != nil {
		t.Fatalf("bound 2^%d: %v, want the function", n/2+2, err)
	}
	d := grounding.NewBDD(grounding.BDDLimits{MaxNodes: 1 << (n / 2)})
	if err := build(d, bg, 1<<(n/2+2)); !errors.Is(err, grounding.ErrBDDLimit) || !d.Full() {
		t.Errorf("bound 2^%d: %v (full %v), want ErrBDDLimit and a full manager", n/2, err, d.Full())
	}
	if err := d.Begin(bg, 1); !errors.Is(err, grounding.ErrBDDLimit) {
		t.Errorf("Begin on a full manager: %v, want ErrBDDLimit", err)
	}
	d.Clear()
	if err := build(d, bg, 1<<(n/2-2)); !errors.Is(err, grounding.ErrBDDLimit) || d.Full() {
		t.Errorf("cleared, operation bound 2^%d: %v (full %v), want ErrBDDLimit and a manager not full", n/2-2, err, d.Full())
	}
	if d.Len() > 1+1<<(n/2-2) {
		t.Errorf("%d nodes after an operation bounded to %d more", d.Len(), 1<<(n/2-2))
	}
	steps := grounding.NewBDD(grounding.BDDLimits{MaxNodes: 1 << (n/2 + 2), StepsPerNode: -1})
	if err := build(steps, bg, 1<<(n/2+2)); !errors.Is(err, grounding.ErrBDDLimit) || steps.Full() {
		t.Errorf("no steps allowed: %v (full %v), want ErrBDDLimit from the step bound", err, steps.Full())
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if err := build(grounding.NewBDD(grounding.BDDLimits{}), ctx, 1<<(n/2+2)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestBDDCollect: Collect frees the nodes that only dropped functions
// used, rewrites the kept edges, and the manager stays canonical: the
// kept function built again ends on its kept edge.
func TestBDDCollect(t *testing.T) {
	const n = 16
	b := newBDDCircuit(n)
	ins := make([]int, n)
	for i := range ins {
		ins[i] = i
	}
	par := b.parity(ins)
	// The exponential function of TestBDDLimit: garbage once dropped.
	var terms []grounding.Lit
	for i := range n / 2 {
		terms = append(terms, b.and(grounding.InputLit(i), grounding.InputLit(i+n/2)).Not())
	}
	big := b.and(terms...).Not()
	ctx := context.Background()
	d := grounding.NewBDD(grounding.BDDLimits{MaxNodes: 1 << 16})
	build := func(l grounding.Lit, gates map[int32]grounding.BDDEdge) grounding.BDDEdge {
		t.Helper()
		if err := d.Begin(ctx, 1<<16); err != nil {
			t.Fatal(err)
		}
		return b.bdd(t, ctx, d, l, gates)
	}
	kept := map[int32]grounding.BDDEdge{}
	kept[-1] = build(par, nil)
	build(big, nil)
	before := d.Len()
	freed := d.Collect(kept)
	if freed <= 0 || d.Len() != before-freed || d.Len() > 2*n+1 {
		t.Fatalf("Collect freed %d of %d nodes, %d left; want all but the parity's (at most %d)", freed, before, d.Len(), 2*n+1)
	}
	if got := len(d.Levels(kept[-1])); got != n {
		t.Errorf("kept parity after Collect: %d variables, want %d", got, n)
	}
	if e := build(par, nil); e != kept[-1] {
		t.Errorf("parity built again: edge %d, want the kept edge %d", e, kept[-1])
	}
	if e := build(big, nil); e == kept[-1] || len(d.Levels(e)) != n {
		t.Errorf("the freed function built again: edge %d over %d variables", e, len(d.Levels(e)))
	}
}
