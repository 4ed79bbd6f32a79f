package equiv

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
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
			pa := loadCorpus(t, path)
			g, checker := selfGraphChecker(ctx, t, pa)
			rng := rand.New(rand.NewPCG(3, 4))
			lim := Limits{}.WithDefaults()
			s := newSearch(ctx, game{pa, g}, game{pa, g}, checker, &lim, &Report{})
			c := newCofactorCheck(s)
			for trial := range 10 {
				partial, _ := rolesFixed(game{pa, g})
				n := len(pa.Props)
				perm := rng.Perm(n)
				frac := rng.Float64()
				for i := range n {
					if rng.Float64() < frac {
						partial[g.PropVertex(i)] = int32(g.PropVertex(perm[i]))
					}
				}
				c.funcs, c.imgs = mappedGoals(t, s, partial)
				for _, a := range []bool{true, false} {
					want := signaturesByCircuit(c, a, partial)
					for way := range nWays {
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
