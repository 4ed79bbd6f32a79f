package satcheck_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestPairsWitnessReplay: A's goal is ¬y ∧ ¬w ∧ ¬v ∧ x0, B's is
// ¬y ∧ ¬w ∧ ¬v ∧ x0 ∧ … ∧ x199. Both pairs (y, w) and (y, v) have the
// patterns (0,0,0,0) and (1,0,0,0) on both sides, but the second is common
// in A and never sampled in B (all 200 x true), so the first pair asks SAT,
// which finds it. The state it finds (every x true, w and v false) shows the
// same pattern for (y, v): the second pair must be settled by replaying it,
// with no second SAT question.
func TestPairsWitnessReplay(t *testing.T) {
	const nx = 200
	props := []string{"y", "w", "v"}
	for k := range nx {
		props = append(props, fmt.Sprintf("x%d", k))
	}
	a, b, qa := goalPair(props, func(q *prog) grounding.Lit {
		return q.and(q.t("y").Not(), q.t("w").Not(), q.t("v").Not(), q.t("x0"))
	}, func(q *prog) grounding.Lit {
		all := []grounding.Lit{q.t("y").Not(), q.t("w").Not(), q.t("v").Not()}
		for k := range nx {
			all = append(all, q.t(fmt.Sprintf("x%d", k)))
		}
		return q.and(all...)
	})

	c := mustChecker(t, a, b, satcheck.Options{})
	y, w, v := int32(qa.propID("y")), int32(qa.propID("w")), int32(qa.propID("v"))
	at, err := c.PairsDiffer(context.Background(), grounding.FuncGoal, a.Goals[0][0].Lit, b.Goals[0][0].Lit, y, []int32{w, v}, y, []int32{w, v}, math.MaxInt64)
	if err != nil || at >= 0 {
		t.Fatalf("PairsDiffer = %d, %v; want -1 (the types are equal)", at, err)
	}
	st := c.Stats()
	if st.PairSAT != 1 || st.PairReplayed != 1 {
		t.Fatalf("pair SAT questions %d, replayed %d; want 1 and 1 (the second pair answered by the first's state)", st.PairSAT, st.PairReplayed)
	}
}
