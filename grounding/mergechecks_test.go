package grounding_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
)

// racer's variant of seed 5 (all transformations) splits legal_speed's
// (or (distinct ?ndx p0) (distinct ?ndy p0)) into two rules and then folds
// three static literals of one of them into a relation of their own: 2.31x
// the original's circuit (222,805 nodes against 96,559) until the static
// relation was unfolded into its dynamic caller and the two rules were
// merged back into one (mergeChecks); 1.52x with the merge alone.
func TestCircuitSplitFolded(t *testing.T) {
	groundVariant(t, "racer.kif", 5, mutate.AllOps, grounding.Limits{Timeout: *corpusTimeout})
}

// mergeChecksCorpus are the corpus games whose Program mergeChecks changes
// (each smaller: two rules of a dynamic relation that differ in one
// distinct test), and racer, whose seed-5 variant it merges.
var mergeChecksCorpus = []string{"crissrace", "golden_rectangle", "max_knights", "minichess", "quad", "quad_5x5", "quad_7x7", "racetrackcorridor", "tictactoe_3player", "racer"}

// TestMergeChecksCorpusSameGame: those games and their variants of seed 5
// ground to the same game with and without mergeChecks, and the originals
// never larger with it. (A variant can be: quad_7x7's seed 5 has 2,619
// nodes merged against 2,595 apart; the original 2,334 against 2,362.)
func TestMergeChecksCorpusSameGame(t *testing.T) {
	for _, g := range mergeChecksCorpus {
		t.Run(g, func(t *testing.T) {
			if g == "racer" && testing.Short() {
				t.Skip("racer: about 5 s")
			}
			f := parseCorpusGame(t, g)
			v, err := mutate.Equivalent(f, 5, mutate.Options{Ops: mutate.AllOps})
			if err != nil {
				t.Fatal(err)
			}
			lim := grounding.Limits{LenientUnsafe: true, Timeout: *corpusTimeout}
			for k, f := range []*grounding.File{f, v.File} {
				with, err := grounding.Ground(context.Background(), f, lim)
				if err != nil {
					t.Fatal(err)
				}
				without, err := grounding.GroundNoMergeChecks(context.Background(), f, lim)
				if err != nil {
					t.Fatal(err)
				}
				if a, b := with.Circuit.NumNodes(), without.Circuit.NumNodes(); k == 0 && a > b {
					t.Errorf("%s: %d circuit nodes with mergeChecks, %d without", f.Name, a, b)
				}
				checkSameGame(t, without, with, rand.New(rand.NewPCG(22, 23)))
			}
		})
	}
}
