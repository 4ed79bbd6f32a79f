package equiv

import (
	"context"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
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
	x := selfGame(t, p)
	s := selfSearch(t, x, true)
	partial, fixed := rolesFixed(x)
	if s.prune(partial, fixed) {
		t.Fatalf("prune cut the identity's roles: %v", s.err)
	}
	st := s.checker.Stats()
	if got, want := st.Exhaustive+st.Simulations, int64(len(lits)); got != want {
		t.Errorf("refute asked %d questions of the checker for the roles' goals, want %d (one per literal)", got, want)
	}
}

// TestRefuteBackjumpsToWitness: in sharedGoals, win reads (cell 1 x) and
// (cell 2 x). A partial mapping that swaps (cell 2 x) with (cell 3 x) is
// refuted on (goal a 100) by states that hold (cell 1 x) and one of the
// swapped cells; the node also maps (cell 1 b), which win does not read,
// deeper. The refutation must be blamed on the depth that fixed the swap
// (4), not on the node's (6); and when the roles were fixed deeper still
// (5), on theirs: the goal's image depends on its role's image.
func TestRefuteBackjumpsToWitness(t *testing.T) {
	p, err := grounding.Load(context.Background(), "sharedGoals", []byte(sharedGoals), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	x := selfGame(t, p)
	for _, tc := range []struct {
		roleDepth, want int32
	}{{0, 4}, {5, 5}} {
		s := selfSearch(t, x, true)
		partial, _ := rolesFixed(x)
		s.fixDepth = make([]int32, x.g.Order())
		for r := range p.Roles {
			s.fixDepth[x.g.RoleVertex(r)] = tc.roleDepth
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
			s.fixDepth[mapProp(t, x, partial, m.a, m.b)] = m.depth
		}
		a, _ := p.RoleID("a")
		f := -1
		for i, fn := range s.funcs {
			if fn.Kind == grounding.FuncGoal && fn.Role == a && fn.Index == 100 {
				f = i
			}
		}
		s.countNode()
		s.depthsOn, s.jumpTo = true, 6
		ok, err := s.refute(partial, f)
		if err != nil || ok {
			t.Fatalf("roles at depth %d: refute = %v, %v; want a refutation", tc.roleDepth, ok, err)
		}
		if s.jumpTo != int(tc.want) {
			t.Errorf("roles at depth %d: backjump depth %d, want %d", tc.roleDepth, s.jumpTo, tc.want)
		}
	}
}

// twoGoals: (goal a 100) is p1 ∧ p2, (goal b 100) is p1 ∨ p2.
const twoGoals = `
(role a) (role b)
(init (p 1)) (init (p 2)) (init (p 3)) (init (p 4))
(legal a noop) (legal b noop)
(<= (next (p ?x)) (true (p ?x)))
(<= (goal a 100) (true (p 1)) (true (p 2)))
(<= (goal b 100) (true (p 1)))
(<= (goal b 100) (true (p 2)))
(<= terminal (true (p 3)))
`

// TestPruneFuncsBlamesShallowest: a node at depth 6 maps (p 1) to itself
// under a swap of (p 2) and (p 4) fixed at depth 4. Both goals now read
// mapped inputs only and both differ from their images; a's (first in
// function order) needs (p 1) true to tell, b's only needs (p 2) or its
// image's preimage (p 4) true and (p 1) false, so the node must backjump
// to depth 4 whichever goal is checked first: the blame may not depend on
// the order of functions, which follows names. Without shallowestBlame
// the node blames its own depth.
func TestPruneFuncsBlamesShallowest(t *testing.T) {
	x, s, partial := depthSearch(t, "twoGoals", twoGoals)
	mapPropAt(t, x, s, partial, "(p 2)", "(p 4)", 4)
	mapPropAt(t, x, s, partial, "(p 4)", "(p 2)", 4)
	fixed := []int32{mapPropAt(t, x, s, partial, "(p 1)", "(p 1)", 6)}
	s.countNode()
	s.depthsOn, s.jumpTo = true, 6
	if !s.pruneFuncs(partial, fixed) {
		t.Fatal("pruneFuncs did not refute the swap")
	}
	if s.jumpTo != 4 {
		t.Errorf("backjump depth %d, want 4 (the swap's: (goal b 100) differs with (p 1) false)", s.jumpTo)
	}
}
