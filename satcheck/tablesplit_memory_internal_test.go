package satcheck

import (
	"math"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// wideChoiceJoint (from the review of issue-blotto21) is a joint of one free proposition (variable 0) and two
// roles of 1,024 actions each (variables 1..1024 and 1025..2048): 2^21
// rows, 2^20 of them per assignment of the proposition.
func wideChoiceJoint() *joint {
	const m = 1024
	j := &joint{props: []int32{0}, group: []int32{-1}, vars: []jvar{{aIn: 0, bIn: 0}}}
	for gi := range 2 {
		var g group
		for range m {
			v := int32(len(j.vars))
			g.members = append(g.members, v)
			j.group = append(j.group, int32(gi))
			j.vars = append(j.vars, jvar{aIn: v, bIn: v})
		}
		j.groups = append(j.groups, g)
	}
	for k := range j.vars {
		j.aVar = append(j.aVar, int32(k))
		j.bVar = append(j.bVar, int32(k))
	}
	return j
}

// wideChoiceCone is "p and (some i: x_i and y_i)" over wideChoiceJoint: 1,024
// two-fanin gates on the moves, one wide OR, one gate with the proposition.
func wideChoiceCone(j *joint, neg uint32) *grounding.Cone {
	const m = 1024
	n := len(j.vars)
	cn := &grounding.Cone{Start: []int32{0}}
	for k := range n {
		cn.Inputs = append(cn.Inputs, int32(k))
	}
	gate := func(fan ...uint32) uint32 {
		cn.Fanin = append(cn.Fanin, fan...)
		cn.Gates = append(cn.Gates, int32(n+1+len(cn.Gates)))
		cn.Start = append(cn.Start, int32(len(cn.Fanin)))
		return uint32(n + len(cn.Gates)) // slot
	}
	var ands []uint32
	for i := range m {
		ands = append(ands, gate(uint32(2+i)<<1, uint32(2+m+i)<<1)<<1|1) // negated
	}
	or := gate(ands...) // NOR of the ANDs
	root := gate(uint32(1)<<1, or<<1|1, uint32(2)<<1|neg)
	cn.Root = root << 1
	return cn
}

// TestSplitTableMemoryBound: a pair whose split table would fit TableWork
// (2^20 rows of choices a proposition, cones of about 1,026 gates) but
// hold about a gigabyte of slot values at once is no candidate for it;
// the chunked table bounds its chunks, and so must the split one.
func TestSplitTableMemoryBound(t *testing.T) {
	j := wideChoiceJoint()
	ca, cb := wideChoiceCone(j, 0), wideChoiceCone(j, 1)
	if w := splitTableWork(j, ca, cb); w != math.MaxInt64 {
		t.Fatalf("split table work %d (TableWork %d): a table of about 1 GiB is a candidate", w, DefaultTableWork)
	}
}
