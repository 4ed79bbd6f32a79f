package equiv

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
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
	ctx := context.Background()
	pa, g, checker, prop := ticTacToeSelf(ctx, t)
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
		partial, _ := rolesFixed(game{pa, g})
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

// TestCofactorSignaturesMatchCircuit checks the cone simulations of
// cofactorCheck.signatures against an evaluation of the whole circuit per
// unmapped proposition (how the check computed them before), on both
// sides and both ways (flips and batches), for random sets of Tic-tac-toe's cells mapped onto their images
// under a rotation.
func TestCofactorSignaturesMatchCircuit(t *testing.T) {
	ctx := context.Background()
	pa, g, checker, prop := ticTacToeSelf(ctx, t)
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		lim := Limits{}.WithDefaults()
		s := newSearch(ctx, game{pa, g}, game{pa, g}, checker, &lim, &Report{})
		c := newCofactorCheck(s)
		partial, _ := rolesFixed(game{pa, g})
		for x := 1; x <= 3; x++ {
			for y := 1; y <= 3; y++ {
				if rng.IntN(2) == 0 {
					continue
				}
				for _, mark := range []string{"x", "o", "b"} {
					a := prop[fmt.Sprintf("(cell %d %d %s)", x, y, mark)]
					b := prop[fmt.Sprintf("(cell %d %d %s)", y, 4-x, mark)]
					partial[g.PropVertex(a)] = int32(g.PropVertex(b))
				}
			}
		}
		c.funcs, c.imgs = mappedGoals(t, s, partial)
		if len(c.funcs) == 0 {
			t.Fatal("no goal or terminal function mapped")
		}
		for _, a := range []bool{true, false} {
			want := signaturesByCircuit(c, a, partial)
			for way := range nWays {
				c.way = way
				if got := c.signatures(a, partial); !slices.Equal(got, want) {
					t.Fatalf("trial %d side A %v way %d: signatures %x, want %x", trial, a, way, got, want)
				}
			}
		}
	}
}

// signaturesByCircuit is cofactorCheck.signatures by evaluating the whole
// circuit once per unmapped proposition.
func signaturesByCircuit(c *cofactorCheck, a bool, partial isomorph.Mapping) []uint64 {
	s := c.s
	pa, ga, gb := s.a.p, s.a.g, s.b.g
	p, lits := s.b.p, c.imgs
	if a {
		p, lits = pa, nil
		for _, f := range c.funcs {
			lits = append(lits, s.funcs[f].Lit)
		}
	}
	vals := make([]uint64, p.Circuit.NumNodes())
	mapped := make([]bool, len(p.Props))
	for i := range pa.Props {
		w0 := partial[ga.PropVertex(i)]
		if w0 < 0 {
			continue
		}
		j := i
		if !a {
			j = gb.Vertex(int(w0)).Index
		}
		mapped[j] = true
		vals[p.TrueInput(j).Node()] = mix(uint64(i)*0x9e3779b97f4a7c15 + 0x2545f4914f6cdd1d)
	}
	var out []uint64
	for j := range p.Props {
		if mapped[j] {
			continue
		}
		vals[p.TrueInput(j).Node()] = ^uint64(0)
		p.Circuit.EvalWords(vals, 1)
		h := uint64(len(lits))
		for _, l := range lits {
			h = mix(h ^ vals[l.Node()] ^ -uint64(l&1))
		}
		out = append(out, h)
		vals[p.TrueInput(j).Node()] = 0
	}
	slices.Sort(out)
	return out
}

// ticTacToeSelf grounds Tic-tac-toe, builds its graph and a checker of it
// against itself, and indexes its propositions by name.
func ticTacToeSelf(ctx context.Context, t *testing.T) (*grounding.Program, *groundgraph.Graph, *satcheck.Checker, map[string]int) {
	t.Helper()
	pa, _, _ := gameAndMutant(t, "ggp-base-repo/ticTacToe.kif")
	g, checker := selfGraphChecker(ctx, t, pa)
	prop := map[string]int{}
	for i, name := range pa.Props {
		prop[name] = i
	}
	return pa, g, checker, prop
}

// mappedGoals lists the goal and terminal functions whose own vertex
// partial maps, with their images: what the cofactor check compares.
func mappedGoals(t *testing.T, s *search, partial isomorph.Mapping) (funcs []int32, imgs []grounding.Lit) {
	t.Helper()
	for f, fn := range s.funcs {
		if fn.Kind != grounding.FuncGoal && fn.Kind != grounding.FuncTerminal || !s.ownMapped(partial, f) {
			continue
		}
		fb, ok := s.imageFunc(partial, fn)
		if !ok {
			t.Fatalf("no image of %s", s.a.p.FunctionName(fn))
		}
		funcs, imgs = append(funcs, int32(f)), append(imgs, fb)
	}
	return funcs, imgs
}

// selfGraphChecker builds p's ground graph and a checker of p against
// itself.
func selfGraphChecker(ctx context.Context, t *testing.T, p *grounding.Program) (*groundgraph.Graph, *satcheck.Checker) {
	t.Helper()
	g, err := groundgraph.Build(ctx, p, groundgraph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checker, err := satcheck.NewChecker(p, p, satcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, checker
}
