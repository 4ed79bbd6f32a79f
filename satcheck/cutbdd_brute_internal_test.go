package satcheck

import (
	"math/rand/v2"
	"testing"
)

// revLeafsatAssignments calls f with every assignment of j's variables that
// respects its groups (exactly one member, or at most one with "other").
func revLeafsatAssignments(j *joint, f func(m []bool) bool) {
	m := make([]bool, len(j.vars))
	var rec func(gi int) bool
	rec = func(gi int) bool {
		if gi == len(j.groups) {
			for s := range 1 << len(j.props) {
				for i, v := range j.props {
					m[v] = s>>i&1 == 1
				}
				if !f(m) {
					return false
				}
			}
			return true
		}
		g := &j.groups[gi]
		for _, v := range g.members {
			m[v] = false
		}
		if g.other && !rec(gi+1) {
			return false
		}
		for _, v := range g.members {
			m[v] = true
			ok := rec(gi + 1)
			m[v] = false
			if !ok {
				return false
			}
		}
		return true
	}
	rec(0)
}

func revLeafsatBruteEqual(j *joint, g *sweepGraph, x, y uint32) bool {
	eq := true
	revLeafsatAssignments(j, func(m []bool) bool {
		if evalSweepLit(g, x, m) != evalSweepLit(g, y, m) {
			eq = false
		}
		return eq
	})
	return eq
}

// TestRevCutBDDAgreesWithBruteForce: random joints (free propositions,
// groups with and without "other"), random shared items over them, and two
// roots that count the items in different orders, sometimes with an item
// swapped for a near-copy, a different k, or an extra conjunct that only a
// group makes redundant. Every "equal" from cutEqual (graph as built) and
// every verdict of sweepMiter (which also runs cutEqual over the swept
// graph) must agree with brute force over the group-respecting inputs.
func TestRevCutBDDAgreesWithBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 18))
	cutEq, sweepEq, sweepDiff := 0, 0, 0
	var cutStat int64
	swept := 0 // pairs the swept graph's cut proved
	for trial := range revLeafsatTrials {
		j := &joint{}
		nprops := 3 + rng.IntN(5)
		for range nprops {
			j.props = append(j.props, int32(len(j.vars)))
			j.group = append(j.group, -1)
			j.vars = append(j.vars, jvar{aIn: -1})
		}
		for gi := range 1 + rng.IntN(2) {
			g := group{role: int32(gi), other: rng.IntN(2) == 0}
			for range 2 + rng.IntN(3) {
				g.members = append(g.members, int32(len(j.vars)))
				j.group = append(j.group, int32(gi))
				j.vars = append(j.vars, jvar{aIn: -1})
			}
			j.groups = append(j.groups, g)
		}
		sg := newSweepGraph(len(j.vars))
		nv := uint32(sg.nv)
		randLit := func() uint32 { return (1+rng.Uint32N(nv))<<1 | rng.Uint32N(2) }
		// Items: small random gates over the inputs (sometimes an input).
		nItems := 4 + rng.IntN(5)
		items := make([]uint32, nItems)
		for i := range items {
			if rng.IntN(4) == 0 {
				items[i] = randLit()
				continue
			}
			items[i] = sg.and([]uint32{randLit(), randLit()})
		}
		count := func(order []int, its []uint32, k int) uint32 {
			c := []uint32{litTrue}
			for _, i := range order {
				h := its[i]
				next := make([]uint32, len(c)+1)
				for m := range next {
					stay, up := litFalse, litFalse
					if m < len(c) {
						stay = sg.and([]uint32{c[m], h ^ 1})
					}
					if m > 0 {
						up = sg.and([]uint32{c[m-1], h})
					}
					next[m] = sg.and([]uint32{stay ^ 1, up ^ 1}) ^ 1
				}
				c = next
			}
			return c[k]
		}
		k := rng.IntN(nItems)
		x := count(rng.Perm(nItems), items, k)
		ky, its := k, items
		switch rng.IntN(5) {
		case 0: // a different count
			ky = rng.IntN(nItems)
		case 1: // one item swapped for a near-copy
			its = append([]uint32(nil), items...)
			i := rng.IntN(nItems)
			its[i] = sg.and([]uint32{items[i] ^ 1, randLit() ^ 1, randLit() ^ 1}) ^ 1
		}
		y := count(rng.Perm(nItems), its, ky)
		if rng.IntN(3) == 0 && len(j.groups) > 0 {
			// x AND a, y AND a AND NOT b for two members of one group.
			g := j.groups[rng.IntN(len(j.groups))]
			a, b := g.members[0], g.members[1]
			x = sg.and([]uint32{x, uint32(a+1) << 1})
			y = sg.and([]uint32{y, uint32(a+1) << 1, uint32(b+1)<<1 | 1})
		}
		if rng.IntN(4) == 0 {
			y ^= 1
		}
		want := revLeafsatBruteEqual(j, sg, x, y)

		nn := sg.numNodes()
		c := &Checker{opt: Options{Seed: uint64(trial)}.withDefaults()}
		c.pool = newPool(1, &c.stats)
		s := &sweeper{c: c, j: j, g: sg, rfan: make([][]uint32, nn), gen: make([]int32, nn), budget: -1}
		eq, err := s.cutEqual(t.Context(), x, y, sg.gateFanin)
		if err != nil {
			t.Fatal(err)
		}
		if eq {
			cutEq++
			if !want {
				t.Fatalf("trial %d: cutEqual proved %d == %d, brute force says different", trial, x, y)
			}
		}

		// End to end: both roots as cones over the whole graph.
		cone := sg.wholeCone
		j.aVar, j.bVar = sg.identityVars()
		// Sometimes only the swept graph's cut, with internal proofs capped
		// at one conflict so that the roots stay apart more often.
		preset := rng.IntN(2) == 0
		if preset {
			c.opt.SweepProofConflicts = 1
		}
		j.cutTried = preset
		before := c.Stats().CutBDD
		o, err := c.sweepMiter(t.Context(), j, cone(x), cone(y), -1)
		if err != nil {
			t.Fatal(err)
		}
		if o.equal != want {
			t.Fatalf("trial %d: sweepMiter equal=%v, brute force %v (stats %+v)", trial, o.equal, want, c.Stats())
		}
		if want {
			sweepEq++
		} else {
			sweepDiff++
		}
		cutStat += c.Stats().CutBDD
		if preset && c.Stats().CutBDD > before {
			swept++
		}
	}
	t.Logf("cutEqual proved %d pairs; sweepMiter %d equal, %d different; CutBDD %d (%d over the swept graph)", cutEq, sweepEq, sweepDiff, cutStat, swept)
	if cutEq == 0 || cutStat == 0 || swept == 0 {
		t.Fatal("cut BDDs proved nothing: the test exercises nothing")
	}
}

// revLeafsatTrials is the number of random pairs of TestRevCutBDDAgreesWithBruteForce.
var revLeafsatTrials = 400
