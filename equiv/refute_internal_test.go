package equiv

import (
	"context"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// sharedGoals has two roles whose goals are written with one body each:
// (goal a 100) and (goal b 0) are both win, (goal a 0) and (goal b 100)
// both (not win), as in quad.
const sharedGoals = `
(role a) (role b)
(init (cell 1 b)) (init (cell 2 b)) (init (cell 3 b))
(<= (legal a (mark ?c)) (true (cell ?c b)))
(legal b noop)
(<= (next (cell ?c x)) (does a (mark ?c)))
(<= (next (cell ?c ?s)) (true (cell ?c ?s)) (not (does a (mark ?c))))
(<= win (true (cell 1 x)) (true (cell 2 x)))
(<= (goal a 100) win) (<= (goal b 0) win)
(<= (goal a 0) (not win)) (<= (goal b 100) (not win))
(<= terminal (true (cell 3 x)))
`

// TestRefuteAsksSharedLiteralOnce checks that refute asks one question per
// distinct pair of literals at a node: mapping only the roles makes the
// four goals refutable, two literals between them, so the checker must see
// two questions, not four.
func TestRefuteAsksSharedLiteralOnce(t *testing.T) {
	ctx := context.Background()
	p, err := grounding.Load(ctx, "sharedGoals", []byte(sharedGoals), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lits := map[grounding.Lit]bool{}
	goals := 0
	for _, fn := range p.Functions() {
		if fn.Kind == grounding.FuncGoal {
			lits[fn.Lit] = true
			goals++
		}
	}
	if goals != 4 || len(lits) != 2 {
		t.Fatalf("sharedGoals grounds to %d goals with %d literals, want 4 with 2", goals, len(lits))
	}
	g, err := groundgraph.Build(ctx, p, groundgraph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checker, err := satcheck.NewChecker(p, p, satcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{}.WithDefaults()
	s := newSearch(ctx, game{p, g}, game{p, g}, checker, &lim, &Report{})
	partial := make(isomorph.Mapping, g.Order())
	for v := range partial {
		partial[v] = -1
	}
	var fixed []int32
	for r := range p.Roles {
		v := g.RoleVertex(r)
		partial[v] = int32(v)
		fixed = append(fixed, int32(v))
	}
	if s.prune(partial, fixed) {
		t.Fatalf("prune cut the identity's roles: %v", s.err)
	}
	st := checker.Stats()
	if got, want := st.Exhaustive+st.Simulations, int64(len(lits)); got != want {
		t.Errorf("refute asked %d questions of the checker for the roles' goals, want %d (one per literal)", got, want)
	}
}

// TestRefuteBackjumpsToWitness: in sharedGoals, win reads (cell 1 x) and
// (cell 2 x). A partial mapping that swaps (cell 2 x) with (cell 3 x) is
// refuted on (goal a 100) by states that hold (cell 1 x) and one of the
// swapped cells; the node also maps (cell 1 b), which win does not read,
// deeper. The refutation must be blamed on the depth that fixed the swap
// (4), not on the node's (6).
func TestRefuteBackjumpsToWitness(t *testing.T) {
	ctx := context.Background()
	p, err := grounding.Load(ctx, "sharedGoals", []byte(sharedGoals), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := groundgraph.Build(ctx, p, groundgraph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checker, err := satcheck.NewChecker(p, p, satcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{}.WithDefaults()
	s := newSearch(ctx, game{p, g}, game{p, g}, checker, &lim, &Report{})
	partial := make(isomorph.Mapping, g.Order())
	for v := range partial {
		partial[v] = -1
	}
	s.fixDepth = make([]int32, g.Order())
	for r := range p.Roles {
		partial[g.RoleVertex(r)] = int32(g.RoleVertex(r))
	}
	for _, m := range []struct {
		a, b  string
		depth int32
	}{
		{"(cell 1 x)", "(cell 1 x)", 1},
		{"(cell 2 x)", "(cell 3 x)", 4},
		{"(cell 3 x)", "(cell 2 x)", 4},
		{"(cell 1 b)", "(cell 1 b)", 5},
	} {
		i, ok := p.PropID(m.a)
		j, ok2 := p.PropID(m.b)
		if !ok || !ok2 {
			t.Fatalf("no proposition %s or %s", m.a, m.b)
		}
		partial[g.PropVertex(i)] = int32(g.PropVertex(j))
		s.fixDepth[g.PropVertex(i)] = m.depth
	}
	a, _ := p.RoleID("a")
	f := -1
	for x, fn := range s.funcs {
		if fn.Kind == grounding.FuncGoal && fn.Role == a && fn.Index == 100 {
			f = x
		}
	}
	s.countNode()
	s.depthsOn, s.jumpTo = true, 6
	ok, err := s.refute(partial, f)
	if err != nil || ok {
		t.Fatalf("refute = %v, %v; want a refutation", ok, err)
	}
	if s.jumpTo != 4 {
		t.Errorf("backjump depth %d, want 4 (the depth that fixed the swapped cells)", s.jumpTo)
	}
}

// TestRefuteBlamesOwnVertex is TestRefuteBackjumpsToWitness with the
// roles fixed deepest (depth 5): the goal's image depends on its role's
// image, so the refutation must be blamed on depth 5, not on the swap's 4.
func TestRefuteBlamesOwnVertex(t *testing.T) {
	ctx := context.Background()
	p, err := grounding.Load(ctx, "sharedGoals", []byte(sharedGoals), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := groundgraph.Build(ctx, p, groundgraph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checker, err := satcheck.NewChecker(p, p, satcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{}.WithDefaults()
	s := newSearch(ctx, game{p, g}, game{p, g}, checker, &lim, &Report{})
	partial := make(isomorph.Mapping, g.Order())
	for v := range partial {
		partial[v] = -1
	}
	s.fixDepth = make([]int32, g.Order())
	for r := range p.Roles {
		partial[g.RoleVertex(r)] = int32(g.RoleVertex(r))
		s.fixDepth[g.RoleVertex(r)] = 5
	}
	for _, m := range []struct {
		a, b  string
		depth int32
	}{
		{"(cell 1 x)", "(cell 1 x)", 1},
		{"(cell 2 x)", "(cell 3 x)", 4},
		{"(cell 3 x)", "(cell 2 x)", 4},
	} {
		i, _ := p.PropID(m.a)
		j, _ := p.PropID(m.b)
		partial[g.PropVertex(i)] = int32(g.PropVertex(j))
		s.fixDepth[g.PropVertex(i)] = m.depth
	}
	a, _ := p.RoleID("a")
	f := -1
	for x, fn := range s.funcs {
		if fn.Kind == grounding.FuncGoal && fn.Role == a && fn.Index == 100 {
			f = x
		}
	}
	s.countNode()
	s.depthsOn, s.jumpTo = true, 6
	if ok, err := s.refute(partial, f); err != nil || ok {
		t.Fatalf("refute = %v, %v; want a refutation", ok, err)
	}
	if s.jumpTo != 5 {
		t.Errorf("backjump depth %d, want 5 (the depth that fixed the goal's role)", s.jumpTo)
	}
}
