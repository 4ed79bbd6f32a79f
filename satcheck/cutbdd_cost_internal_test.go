package satcheck

import "testing"

// TestCutBDDOnlyInUnboundedSweep (from the review of issue-leafsat18): A
// and B compute the middle bit of an n×n product of items, B's items
// written another way (x∧(y∨z) against (x∧y)∨(x∧z)) except item 0: the
// sweep merges the items with tiny proofs and the roots then hash
// together, but a cut BDD over the inputs (and item 0) finds no small BDD
// for a multiplier's middle bit; at n = 11 trying it first cost 40x the
// budgeted sweep that decides the pair, at n = 12 73x. So the budgeted
// sweep, which comes first, decides the pair without cut BDDs; only the
// unbounded sweep tries them.
func TestCutBDDOnlyInUnboundedSweep(t *testing.T) {
	const n = 7
	j := &joint{}
	for range 6 * n {
		j.props = append(j.props, int32(len(j.vars)))
		j.group = append(j.group, -1)
		j.vars = append(j.vars, jvar{aIn: -1})
	}
	sg := newSweepGraph(len(j.vars))
	in := func(v int) uint32 { return uint32(v+1) << 1 }
	or := func(a, b uint32) uint32 { return sg.and([]uint32{a ^ 1, b ^ 1}) ^ 1 }
	xor := func(a, b uint32) uint32 { return or(sg.and([]uint32{a, b ^ 1}), sg.and([]uint32{a ^ 1, b})) }
	mult := func(items []uint32) uint32 {
		// Column sums of the partial products, ripple style; bit n-1.
		var carry []uint32
		var bit uint32
		for col := 0; col < n; col++ {
			var bits []uint32
			for i := 0; i <= col; i++ {
				bits = append(bits, sg.and([]uint32{items[i], items[n+col-i]}))
			}
			bits = append(bits, carry...)
			carry = nil
			for len(bits) > 1 {
				a, b := bits[0], bits[1]
				bits = append(bits[2:], xor(a, b))
				carry = append(carry, sg.and([]uint32{a, b}))
			}
			bit = bits[0]
		}
		return bit
	}
	var ia, ib []uint32
	for i := range 2 * n {
		x, y, z := in(3*i), in(3*i+1), in(3*i+2)
		ia = append(ia, sg.and([]uint32{x, or(y, z)}))
		if i == 0 {
			ib = append(ib, ia[0])
		} else {
			ib = append(ib, or(sg.and([]uint32{x, y}), sg.and([]uint32{x, z})))
		}
	}
	ra, rb := mult(ia), mult(ib)
	cone := sg.wholeCone
	j.aVar, j.bVar = sg.identityVars()
	for _, budget := range []int{Options{}.withDefaults().SweepConflictsBeforeBDD, -1} {
		c := &Checker{opt: Options{}.withDefaults()}
		c.pool = newPool(1, &c.stats)
		j.cutTried, j.cutSweptTried = false, false
		j.sweepCex, j.sweepCexN = nil, 0
		o, err := c.sweepMiter(t.Context(), j, cone(ra), cone(rb), budget)
		if err != nil {
			t.Fatal(err)
		}
		if !o.equal {
			t.Fatalf("budget %d: the pair is not proven equal", budget)
		}
		if tried := j.cutTried || j.cutSweptTried; tried != (budget < 0) {
			t.Errorf("budget %d: cut BDDs tried %v, want %v", budget, tried, budget < 0)
		}
	}
}
