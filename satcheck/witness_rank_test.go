package satcheck_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestRefutesWitnessLowestRank: f = x1 ∨ x2 against itself under a partial
// mapping that swaps x2 and x4 (x3 unmapped) differs on exactly two
// assignments with x1 false: A's x2 true (B's x4), or B's x2 true (the
// image of A's x4, which f does not read). The separation returned must be
// the one whose true input ranks lowest, whichever the rank puts first:
// a search ranks inputs by the depth that mapped them and blames the
// refutation on that depth. Returning the first differing row (ordered by
// input numbering) fails one of the two cases.
func TestRefutesWitnessLowestRank(t *testing.T) {
	q := newProg("a", []string{"r"}, []string{"x1", "x2", "x3", "x4"}, [][]string{{"noop"}})
	q.p.Goals[0] = []grounding.Goal{{Value: 100, Lit: q.or(q.t("x1"), q.t("x2"))}}
	q.p.Legal[0][0] = grounding.True
	p := q.done()
	x1, x2, x4 := int32(q.propID("x1")), int32(q.propID("x2")), int32(q.propID("x4"))
	inputMap := make([]int32, p.NumInputs())
	for i := range inputMap {
		inputMap[i] = -1
	}
	bMapped := make([]bool, p.NumInputs())
	for a, b := range map[int32]int32{x1: x1, x2: x4, x4: x2} {
		inputMap[a], bMapped[b] = b, true
	}
	for _, tc := range []struct {
		name         string
		aX2, bX2     int32 // ranks of A's x2 and of B's x2
		wantA, wantB []int32
	}{
		{"A's x2 deeper", 5, 1, nil, []int32{x2}},
		{"B's x2 deeper", 1, 5, []int32{x2}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rank := func(aIn, bIn int32) int32 {
				switch {
				case aIn == x2:
					return tc.aX2
				case bIn == x2:
					return tc.bX2
				}
				return 0
			}
			c := mustChecker(t, p, p, satcheck.Options{})
			lit := p.Goals[0][0].Lit
			refuted, w, err := c.RefutesWitness(context.Background(), grounding.FuncGoal, lit, lit, inputMap, bMapped, rank)
			if err != nil || !refuted || w == nil {
				t.Fatalf("RefutesWitness = %v, %v, %v; want a separation", refuted, w, err)
			}
			if !slices.Equal(w.A, tc.wantA) || !slices.Equal(w.B, tc.wantB) {
				t.Errorf("separation A %v B %v, want A %v B %v (the lower-ranked true input)", w.A, w.B, tc.wantA, tc.wantB)
			}
		})
	}
}
