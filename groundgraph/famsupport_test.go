package groundgraph_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestFamilySeededSupports: on a game whose Build runs family
// simulation, every function's support equals satcheck's. No existing
// test reaches the seeding (TestGolden and TestSupportMatchesSatcheck
// pass with seed marking every proposition).
func TestFamilySeededSupports(t *testing.T) {
	ctx := context.Background()
	g := mustBuild(t, "ggp-base/nineBoardTicTacToe.kif", groundgraph.Options{})
	if n := g.Stats().FamilyFunctions; n == 0 {
		t.Fatalf("FamilyFunctions = 0: the game no longer exercises family simulation")
	}
	p := g.Program()
	checked := 0
	for _, ff := range g.Functions() {
		if ff.Function.Kind == grounding.FuncNext || ff.Support.Len() == 0 {
			continue
		}
		if checked++; checked > 40 {
			break
		}
		want, err := satcheck.SemanticSupport(ctx, p, ff.Function.Lit)
		if err != nil {
			t.Fatal(err)
		}
		want = slices.DeleteFunc(want, func(i int) bool { return i >= len(p.Props) })
		if !slices.Equal(ff.Support.Inputs(), want) {
			t.Errorf("support of %s = %v, want %v", p.FunctionName(ff.Function), ff.Support.Inputs(), want)
		}
	}
}
