package grounding_test

import (
	"fmt"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
)

// laikLee_hex's visited list is recognised through mutate's rewrites
// (renamed symbols, permuted and paired arguments, folded element
// relations, tautologies, duplicated rules and literals, the append
// call folded into a relation of its own), so its
// variants ground within issue 12's 2x of the original.
func TestVisitedHexVariants(t *testing.T) {
	ops := []mutate.Op{mutate.RenameSymbols, mutate.ReorderBody, mutate.PermuteArgs, mutate.PairArgs,
		mutate.SplitOr, mutate.Unfold, mutate.Fold, mutate.Tautology, mutate.Duplicate}
	// All transformations at once: seeds 1-30 (23 folds the element's
	// lookup and the recursive call into a relation of their own:
	// dropVisitedFolded).
	for seed := int64(1); seed <= 30; seed++ {
		t.Run(fmt.Sprintf("all/%d", seed), func(t *testing.T) {
			groundVariant(t, "laikLee_hex.kif", seed, mutate.AllOps, grounding.Limits{})
		})
	}
	for _, op := range ops {
		for seed := int64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%v/%d", op, seed), func(t *testing.T) {
				groundVariant(t, "laikLee_hex.kif", seed, op, grounding.Limits{})
			})
		}
	}
}
