package satcheck

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestSplitTableDecide: the split table decides random pairs of cones over
// joints of every shape with free propositions and groups exactly as the
// chunked table does (equal or not), and a row it reports is one where the
// cones differ. The pairs are a cone against itself, against a copy with one
// fanin complemented, and against a copy whose gates on the propositions
// are built differently, over cones where many gates read the moves only.
func TestSplitTableDecide(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ctx := context.Background()
	var decided, differ int
	for _, tc := range jointShapes {
		if tc.props == 0 || len(tc.groups) == 0 {
			continue // nothing to split
		}
		for range 40 {
			j := shuffledJoint(rng, tc.props, tc.groups)
			// shuffledJoint leaves group[v] unshuffled; cone input k is
			// variable k on both sides.
			for k := range j.vars {
				j.aVar = append(j.aVar, int32(k))
				j.bVar = append(j.bVar, int32(k))
			}
			for _, v := range j.props {
				j.group[v] = -1
			}
			for gi, g := range j.groups {
				for _, v := range g.members {
					j.group[v] = int32(gi)
				}
			}
			ca := randomSplitCone(rng, j)
			for _, cb := range []*grounding.Cone{ca, flipOneFanin(rng, ca), randomSplitCone(rng, j)} {
				want, err := tableDecide(ctx, j, ca, cb)
				if err != nil {
					t.Fatal(err)
				}
				got, err := splitTableDecide(ctx, j, ca, cb)
				if err != nil {
					t.Fatal(err)
				}
				decided++
				if (got == nil) != (want == nil) {
					t.Fatalf("props %d groups %v: split table says equal %v, chunked table %v", tc.props, tc.groups, got == nil, want == nil)
				}
				if got == nil {
					continue
				}
				differ++
				if va, vb := evalAt(j, ca, got, true), evalAt(j, cb, got, false); va == vb {
					t.Fatalf("props %d groups %v: the split table's row %v gives both cones %v", tc.props, tc.groups, got, va)
				}
			}
		}
	}
	if decided < 100 || differ == 0 || differ == decided {
		t.Fatalf("%d pairs decided, %d different: want many of both", decided, differ)
	}
}

// randomSplitCone is a random AND cone over j's variables (cone input k is
// variable k on both sides) whose first gates read the groups' members
// only, as a sum over the moves does, and whose last gates mix in the
// free propositions.
func randomSplitCone(rng *rand.Rand, j *joint) *grounding.Cone {
	n := len(j.vars)
	cn := &grounding.Cone{}
	for k := range n {
		cn.Inputs = append(cn.Inputs, int32(k))
	}
	var moves, props []uint32
	for k := range n {
		if j.group[k] >= 0 {
			moves = append(moves, uint32(1+k))
		} else {
			props = append(props, uint32(1+k))
		}
	}
	cn.Start = []int32{0}
	gate := func(from []uint32) uint32 {
		for range 2 + rng.IntN(2) {
			cn.Fanin = append(cn.Fanin, from[rng.IntN(len(from))]<<1|uint32(rng.IntN(2)))
		}
		cn.Gates = append(cn.Gates, int32(n+1+len(cn.Gates)))
		cn.Start = append(cn.Start, int32(len(cn.Fanin)))
		return uint32(n + len(cn.Gates))
	}
	for range 12 {
		moves = append(moves, gate(moves))
	}
	mixed := append(append([]uint32{}, moves[len(moves)-6:]...), props...)
	for range 6 {
		mixed = append(mixed, gate(mixed))
	}
	cn.Root = mixed[len(mixed)-1]<<1 | uint32(rng.IntN(2))
	return cn
}

// flipOneFanin copies cn with one fanin literal complemented.
func flipOneFanin(rng *rand.Rand, cn *grounding.Cone) *grounding.Cone {
	c := *cn
	c.Fanin = append([]uint32{}, cn.Fanin...)
	c.Fanin[rng.IntN(len(c.Fanin))] ^= 1
	return &c
}

// evalAt evaluates cn (A's side when isA) on one joint assignment.
func evalAt(j *joint, cn *grounding.Cone, m []bool, isA bool) bool {
	vars := j.bVar
	if isA {
		vars = j.aVar
	}
	out, _ := cn.Simulate(1, func(k int) []uint64 {
		if v := vars[k]; v >= 0 && m[v] {
			return []uint64{1}
		}
		return []uint64{0}
	}, nil, nil)
	return out[0]&1 == 1
}
