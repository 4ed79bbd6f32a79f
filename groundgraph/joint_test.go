package groundgraph_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/isomorph"
)

// TestJointMovesBlotto: colonelBlotto's 66×66 legal joint moves of the
// initial state become JointMove vertices, and the graph group is the
// game's (order 12: exchange the colonels × permute the battlefields), one
// of its generators exchanging the roles; without them the graph group
// permutes the troop triples within their orbits far more freely
// (2.27×10^55). The role exchange is an automorphism only because a joint
// move's colour does not say which role's view is which.
func TestJointMovesBlotto(t *testing.T) {
	p := mustLoad(t, "ggp-base/colonelBlotto.kif")
	order := func(opt groundgraph.Options) (*isomorph.Group, *groundgraph.Graph) {
		g, err := groundgraph.Build(context.Background(), p, opt)
		if err != nil {
			t.Fatal(err)
		}
		grp, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return grp, g
	}
	grp, g := order(groundgraph.Options{})
	if got := g.Stats().ByKind[groundgraph.JointMove]; got != 66*66 {
		t.Errorf("%d joint-move vertices, want %d", got, 66*66)
	}
	if got := grp.Order.String(); got != "12" {
		t.Errorf("graph group order %s, want 12", got)
	}
	exchanges := false
	for _, sp := range grp.Generators {
		if int(sp.Image(int32(g.RoleVertex(0)))) == g.RoleVertex(1) {
			exchanges = true
		}
	}
	if !exchanges {
		t.Error("no generator exchanges the roles")
	}
	if testing.Short() {
		return
	}
	grp, g = order(groundgraph.Options{MaxJointMoves: -1})
	if g.Stats().ByKind[groundgraph.JointMove] != 0 || grp.Order.Cmp(big.NewInt(12)) <= 0 {
		t.Errorf("without joint moves: %d joint-move vertices, order %s; want none and a larger group", g.Stats().ByKind[groundgraph.JointMove], grp.Order)
	}
}

// TestJointMovesLimits: a turn-taking game (one role has a single legal
// action in the initial state) gets no joint moves, and neither does
// colonelBlotto when its 4,356 joint moves are over MaxJointMoves; at
// exactly the limit it gets them all.
func TestJointMovesLimits(t *testing.T) {
	for _, tc := range []struct {
		game string
		max  int
		want int
	}{
		{"ggp-base/tictactoe.kif", 0, 0},
		{"ggp-base/colonelBlotto.kif", 66*66 - 1, 0},
		{"ggp-base/colonelBlotto.kif", 66 * 66, 66 * 66},
	} {
		if testing.Short() && tc.want == 0 && tc.max > 0 {
			continue // a second build of colonelBlotto
		}
		p := mustLoad(t, tc.game)
		g, err := groundgraph.Build(context.Background(), p, groundgraph.Options{MaxJointMoves: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Stats().ByKind[groundgraph.JointMove]; got != tc.want {
			t.Errorf("%s, MaxJointMoves %d: %d joint-move vertices, want %d", tc.game, tc.max, got, tc.want)
		}
	}
}
