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
