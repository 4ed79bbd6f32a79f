package groundgraph_test

import (
	"context"
	"math/big"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/isomorph"
)

// TestPlaysQueens: queens6's goal counts the attacked queens over the
// whole board, so without plays the graph group permutes the 36 cells
// freely (36!, with the propositions and actions alike); its 36×35
// two-move plays show which placements attack each other, and the graph
// group becomes the board's 8 symmetries. At MaxJointMoves one below the
// number of plays it gets none (the limit is on the plays of the game,
// which every equivalence keeps).
func TestPlaysQueens(t *testing.T) {
	path, err := filepath.Abs("../equiv/testdata/queens6.kif")
	if err != nil {
		t.Fatal(err)
	}
	p := mustLoad(t, path)
	order := func(opt groundgraph.Options) (*big.Int, int) {
		g, err := groundgraph.Build(context.Background(), p, opt)
		if err != nil {
			t.Fatal(err)
		}
		grp, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return grp.Order, g.Stats().ByKind[groundgraph.Play]
	}
	const plays = 36 * 35
	for _, tc := range []struct {
		max, plays int
		order      string
	}{
		{0, plays, "8"},
		{plays, plays, "8"},
		{plays - 1, 0, ""},
		{-1, 0, ""},
	} {
		if testing.Short() && tc.plays == 0 {
			continue
		}
		got, n := order(groundgraph.Options{MaxJointMoves: tc.max})
		if n != tc.plays {
			t.Errorf("MaxJointMoves %d: %d plays, want %d", tc.max, n, tc.plays)
		}
		if tc.order != "" && got.String() != tc.order {
			t.Errorf("MaxJointMoves %d: graph group order %s, want %s", tc.max, got, tc.order)
		}
		if tc.order == "" && got.Cmp(big.NewInt(1000)) <= 0 {
			t.Errorf("MaxJointMoves %d: graph group order %s without plays, want far more than 8", tc.max, got)
		}
	}
}
