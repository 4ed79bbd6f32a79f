package equiv

import (
	"context"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestCofactorCheckKeepsVerifiedMappings checks the soundness of the
// cofactor check as TestProbeCheckKeepsVerifiedMappings does the probe
// check's: among all graph isomorphisms, every one that verifies must
// still be reached with the cofactor check alone pruning the search, on
// games against themselves and against mutants (propositions renumbered).
// (On these games the graph already tells the cells apart, so the check
// need not prune; TestCofactorCheckLines checks that it does where it
// should.)
func TestCofactorCheckKeepsVerifiedMappings(t *testing.T) {
	cofactorRefuter := func(s *search) func(*isomorph.Node) bool {
		c := newCofactorCheck(s)
		return func(n *isomorph.Node) bool { return c.refutes(n.Depth(), n.Partial) }
	}
	for _, path := range []string{"ggp-base-repo/ticTacToe.kif", "ggp-base/sum15.kif", "ggp-base/pentago.kif",
		"ggp-base/pancakes6.kif", "ggp-base/roshambo2.kif", "ggp-base/beatMania.kif"} {
		pa, pb, _ := gameAndMutant(t, path)
		keepsVerified(t, path+" vs itself", pa, pa, cofactorRefuter)
		keepsVerified(t, path+" vs mutant", pa, pb, cofactorRefuter)
	}
}

// TestCofactorCheckLines maps two cells of Tic-tac-toe: onto two cells of
// a line (themselves, or their images under a rotation) the check must
// keep the node; onto two cells on no common line it must refute it,
// since in A one unmapped cell completes their line and in B none does.
func TestCofactorCheckLines(t *testing.T) {
	pa, _, _ := gameAndMutant(t, "ggp-base-repo/ticTacToe.kif")
	ctx := context.Background()
	g, err := groundgraph.Build(ctx, pa, groundgraph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checker, err := satcheck.NewChecker(pa, pa, satcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prop := map[string]int{}
	for i, name := range pa.Props {
		prop[name] = i
	}
	// rotate maps cell (x, y) to (y, 4-x).
	for _, tc := range []struct {
		name  string
		cells [][2]string // cell of A, its image
		want  bool
	}{
		{"identity", [][2]string{{"1 1", "1 1"}, {"1 2", "1 2"}}, false},
		{"rotation", [][2]string{{"1 1", "1 3"}, {"1 2", "2 3"}}, false},
		{"no common line", [][2]string{{"1 1", "1 1"}, {"1 2", "2 3"}}, true},
	} {
		lim := Limits{}.WithDefaults()
		s := newSearch(ctx, game{pa, g}, game{pa, g}, checker, &lim, &Report{})
		c := newCofactorCheck(s)
		partial := make(isomorph.Mapping, g.Order())
		for v := range partial {
			partial[v] = -1
		}
		for r := range pa.Roles {
			partial[g.RoleVertex(r)] = int32(g.RoleVertex(r))
		}
		for _, cell := range tc.cells {
			for _, mark := range []string{"x", "o", "b"} {
				a, okA := prop["(cell "+cell[0]+" "+mark+")"]
				b, okB := prop["(cell "+cell[1]+" "+mark+")"]
				if !okA || !okB {
					t.Fatalf("no proposition (cell %s %s) or (cell %s %s) in %v", cell[0], mark, cell[1], mark, pa.Props)
				}
				partial[g.PropVertex(a)] = int32(g.PropVertex(b))
			}
		}
		if got := c.refutes(0, partial); got != tc.want {
			t.Errorf("%s: refutes = %v, want %v", tc.name, got, tc.want)
		}
	}
}
