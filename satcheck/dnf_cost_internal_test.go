package satcheck

import "testing"

// TestDNFChargesEveryMerge (from the review of lead21): a product of a cube
// with a set whose cubes all contradict it keeps nothing but still merges
// every pair, and n equal gates in distinct slots pay it n times. The
// budget must be charged for the merges, not for the cubes kept, or it
// does not bound the work. Cone: x, y1..y12, a, b; S = OR over the 2^12
// minterms m of the y's of (¬x ∧ m); g_i = AND(x, S, ¬AND(a, b)) for
// i < n; root = OR of the g_i (false).
func TestDNFChargesEveryMerge(t *testing.T) {
	const ny = 12
	charged := func(n int) int {
		nIn := 1 + ny + 2
		x, a, b := uint32(1)<<1, uint32(1+ny+1)<<1, uint32(1+ny+2)<<1
		bl := &dnfConeBuilder{nIn: nIn}
		var terms []uint32
		for m := range 1 << ny {
			fan := []uint32{x | 1}
			for k := range ny {
				fan = append(fan, uint32(2+k)<<1|uint32(m>>k&1))
			}
			terms = append(terms, bl.gate(fan...)|1)
		}
		notS := bl.gate(terms...)
		var gs []uint32
		for range n {
			h := bl.gate(a, b)
			gs = append(gs, bl.gate(x, notS|1, h|1)|1)
		}
		cn := bl.done(bl.gate(gs...) | 1)
		vars := make([]int32, nIn)
		for k := range vars {
			vars[k] = int32(k)
		}
		const budget = 1 << 30
		dt := newDNFTable(nIn, budget, dnfCaps{dnfMaxCubes, dnfMaxProduct})
		if _, ok := dt.cone(cn, vars); !ok {
			t.Fatal("the cone ran out of a budget of 2^30")
		}
		return budget - dt.budget
	}
	c32, c64 := charged(32), charged(64)
	if c64-c32 < 32<<ny {
		t.Errorf("32 more gates, each a product of a cube with %d contradicting cubes, charged %d: the merges are not charged", 1<<ny, c64-c32)
	}
}
