package equiv

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestCofactorSignaturesWideGates (from the review of issue-quad20) checks cofactorCheck.signatures (both
// ways) against the whole-circuit evaluation on games with wide gates
// (quad, quarto and others), for random partial mappings: a random subset
// of A's propositions mapped onto random distinct propositions of B (the
// same program), roles fixed. Flip's event-driven and wide-gate paths must
// give the whole circuit's values.
func TestCofactorSignaturesWideGates(t *testing.T) {
	if testing.Short() {
		t.Skip("builds quad's ground graph")
	}
	// quad's goals have gates of more than 24 fanins (Flip's wide-gate
	// path); quarto's take 100 s more and were checked once by the review.
	for _, path := range []string{
		"ggp-base/quad.kif",
		"ggp-base-repo/connectFour.kif",
	} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ctx := context.Background()
			src, err := os.ReadFile(filepath.Join(testgames.Root(), path))
			if err != nil {
				t.Skipf("game corpus not available: %v", err)
			}
			f, err := grounding.Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			pa, err := grounding.Ground(ctx, f, grounding.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			g, err := groundgraph.Build(ctx, pa, groundgraph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			checker, err := satcheck.NewChecker(pa, pa, satcheck.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			lim := Limits{}.WithDefaults()
			s := newSearch(ctx, game{pa, g}, game{pa, g}, checker, &lim, &Report{})
			c := newCofactorCheck(s)
			for trial := range 10 {
				partial := make(isomorph.Mapping, g.Order())
				for v := range partial {
					partial[v] = -1
				}
				for r := range pa.Roles {
					partial[g.RoleVertex(r)] = int32(g.RoleVertex(r))
				}
				n := len(pa.Props)
				perm := rng.Perm(n)
				frac := rng.Float64()
				for i := range n {
					if rng.Float64() < frac {
						partial[g.PropVertex(i)] = int32(g.PropVertex(perm[i]))
					}
				}
				c.funcs, c.imgs = c.funcs[:0], c.imgs[:0]
				for f, fn := range s.funcs {
					if fn.Kind != grounding.FuncGoal && fn.Kind != grounding.FuncTerminal || !s.ownMapped(partial, f) {
						continue
					}
					fb, ok := s.imageFunc(partial, fn)
					if !ok {
						t.Fatalf("no image of %s", pa.FunctionName(fn))
					}
					c.funcs, c.imgs = append(c.funcs, int32(f)), append(c.imgs, fb)
				}
				for _, a := range []bool{true, false} {
					want := signaturesByCircuit(c, a, partial)
					for way := range int8(3) {
						c.way = way
						if got := c.signatures(a, partial); !slices.Equal(got, want) {
							t.Fatalf("trial %d side A %v way %d: signatures differ from the circuit's", trial, a, way)
						}
					}
				}
			}
		})
	}
}
