package groundgraph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// countGame is a game whose goal counts, along a chain of n points, the
// points holding a stone of each colour (merrills' count_loop). Its
// proposition names sort every white stone before every black one and
// every empty point, so input numbers put a point's three propositions
// far apart.
func countGame(n int) string {
	var sb strings.Builder
	sb.WriteString("(role p)\n(init (pit e 1))\n(colour a)\n(colour b)\n(colour e)\n(<= (legal p (put ?c ?x)) (colour ?c) (point ?x))\n(<= (next (pit ?c ?x)) (true (pit ?c ?x)))\n(<= (next (pit ?c ?x)) (does p (put ?c ?x)))\n(<= terminal (true (pit a 1)))\n")
	for i := 0; i <= n; i++ {
		fmt.Fprintf(&sb, "(number %d)\n", i)
		if i > 0 {
			fmt.Fprintf(&sb, "(succ %d %d)\n(point %d)\n", i-1, i, i)
		}
	}
	for i := 1; i < n; i++ {
		fmt.Fprintf(&sb, "(nextpt %d %d)\n", i, i+1)
	}
	fmt.Fprintf(&sb, "(<= (loop %d ?w1 ?b1 ?w ?b) (one %d ?w1 ?b1 ?w ?b))\n", n, n)
	sb.WriteString(`(<= (loop ?x ?w1 ?b1 ?w ?b) (one ?x ?w1 ?b1 ?w2 ?b2) (nextpt ?x ?y) (loop ?y ?w2 ?b2 ?w ?b))
(<= (one ?x ?w1 ?b ?w ?b) (true (pit a ?x)) (succ ?w1 ?w) (number ?b))
(<= (one ?x ?w ?b1 ?w ?b) (true (pit b ?x)) (succ ?b1 ?b) (number ?w))
(<= (one ?x ?w ?b ?w ?b) (true (pit e ?x)) (number ?w) (number ?b))
(<= even (loop 1 0 0 ?w ?w))
(<= (goal p 100) even)
(<= (goal p 0) (not even))
`)
	return sb.String()
}

// countGoalCone grounds countGame(12) and returns a builder over it (its
// supports found first when withSupports) and the cone of its goal 100.
func countGoalCone(t *testing.T, o Options, withSupports bool) (*builder, *cone) {
	t.Helper()
	ctx := context.Background()
	p, err := grounding.Load(ctx, "count.kif", []byte(countGame(12)), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{p: p, opt: o, moves: true}
	if withSupports {
		for _, f := range p.Functions() {
			b.funcs = append(b.funcs, FuncFeatures{Function: f})
		}
		if err := b.supports(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var goal grounding.Function
	for _, f := range p.Functions() {
		if f.Kind == grounding.FuncGoal && f.Index == 100 {
			goal = f
		}
	}
	cn, err := b.cone(goal.Lit)
	if err != nil {
		t.Fatal(err)
	}
	return b, cn
}

// TestBDDOrderByTerms checks that the BDD manager's variable order
// comes from the propositions' terms, not from input numbers: the count's
// BDD is small when each point's propositions are neighbours, and outgrows
// the bound in input-number order (which this game's names make the worst).
func TestBDDOrderByTerms(t *testing.T) {
	ctx := context.Background()
	b, cn := countGoalCone(t, Options{SupportTableBits: 4}.withDefaults(), true)
	p, o := b.p, b.opt
	// Simulation may have settled the goals without a BDD; the Build's
	// manager (term order) must still hold the goal's.
	if _, err := b.bdd.support(ctx, cn); err != nil {
		t.Errorf("support on the Build's manager: %v; want the goal's (full manager: %v)", err, b.bdd.d.Full())
	}
	// The same cone on a manager that orders by input number.
	ids := make([]int32, len(p.Props))
	for in := range ids {
		ids[in] = int32(in)
	}
	d := newSupportBDD(o.MaxBDDNodes, ids, ids)
	if _, err := d.support(ctx, cn); !errors.Is(err, errBDDLimit) {
		t.Errorf("support in input-number order: err %v; want the bound (the test game no longer tells orders apart)", err)
	}
}

func TestPropOrder(t *testing.T) {
	for _, c := range []struct {
		props, want []string
	}{
		// The point varies slowest, the colour fastest, wherever they stand.
		{
			[]string{"(pit a 1)", "(pit a 2)", "(pit a 3)", "(pit b 1)", "(pit b 2)", "(pit b 3)", "control"},
			[]string{"control", "(pit a 1)", "(pit b 1)", "(pit a 2)", "(pit b 2)", "(pit a 3)", "(pit b 3)"},
		},
		// Nested terms are one value; a tie keeps the earlier position slower.
		{
			[]string{"(cell (p 1 1) x)", "(cell (p 1 1) o)", "(cell (p 1 2) x)", "(cell (p 1 2) o)", "(q x y)", "(q y x)"},
			[]string{"(cell (p 1 1) o)", "(cell (p 1 1) x)", "(cell (p 1 2) o)", "(cell (p 1 2) x)", "(q x y)", "(q y x)"},
		},
	} {
		level, prop := grounding.PropOrder(c.props, nil)
		var got []string
		for l, i := range prop {
			if level[i] != int32(l) {
				t.Errorf("level[%d] = %d, want %d", i, level[i], l)
			}
			got = append(got, c.props[i])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("grounding.PropOrder(%q) = %q, want %q", c.props, got, c.want)
		}
	}
}

// TestPropOrderRankedTie checks that a tie between two positions with the
// fewest values goes to the one whose objects the structural ranks keep
// together, and that objects follow their ranks, not their names.
func TestPropOrderRankedTie(t *testing.T) {
	// (pit colour y x): colour and x have two values each, y three. The
	// ranks walk the points (y, x) backwards, both colours of each together.
	var props []string
	var rank []int32
	r := int32(100)
	for _, y := range []string{"n", "s", "e"} {
		for _, x := range []string{"i", "o"} {
			for _, c := range []string{"a", "b"} {
				props = append(props, "(pit "+c+" "+y+" "+x+")")
				rank = append(rank, r)
				r--
			}
		}
	}
	_, prop := grounding.PropOrder(props, rank)
	var got []string
	for _, i := range prop {
		got = append(got, props[i])
	}
	want := []string{"(pit a e o)", "(pit b e o)", "(pit a e i)", "(pit b e i)", "(pit a s o)", "(pit b s o)", "(pit a s i)", "(pit b s i)", "(pit a n o)", "(pit b n o)", "(pit a n i)", "(pit b n i)"}
	if !slices.Equal(got, want) {
		t.Errorf("grounding.PropOrder = %q, want %q", got, want)
	}
}

// TestBDDStepBound checks that one support call stops at its bound on AND
// steps, not only at its bound on nodes: a call that adds few nodes but
// recomputes many conjunctions (a lossy cache) must end, with errBDDLimit,
// and the manager stays usable. The count's BDD is small in term order
// but takes many steps; one step per node the call may add is too few.
func TestBDDStepBound(t *testing.T) {
	ctx := context.Background()
	b, cn := countGoalCone(t, Options{}.withDefaults(), false)
	o := b.opt
	level, prop := grounding.PropOrder(b.p.Props, nil)
	d := newSupportBDD(o.MaxBDDNodes, level, prop)
	if _, err := d.support(ctx, cn); err != nil {
		t.Fatalf("support with the default step bound: %v", err)
	}
	d = newSupportBDDLimits(grounding.BDDLimits{MaxNodes: o.MaxBDDNodes, StepsPerNode: -1}, level, prop)
	if _, err := d.support(ctx, cn); !errors.Is(err, errBDDLimit) {
		t.Fatalf("support with no steps allowed: err %v; want errBDDLimit", err)
	}
	if d.d.Full() || d.d.Len() >= d.d.OperationNodes() {
		t.Fatalf("the node bound stopped the call (full %v, %d of %d nodes); want the step bound", d.d.Full(), d.d.Len(), d.d.OperationNodes())
	}
}
