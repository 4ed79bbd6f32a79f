package satcheck

import "testing"

// TestProofCNFPartialGroupIsAtMostOne (found by review): a role of three actions
// whose proof window reaches two of them. OR(a0, a1) against true differs
// (the role may do a2), so the projected formula must be SAT; treating the
// two reached members as exactly-one would prove them equal.
func TestProofCNFPartialGroupIsAtMostOne(t *testing.T) {
	j := &joint{}
	g := group{role: 0}
	for range 3 {
		g.members = append(g.members, int32(len(j.vars)))
		j.group = append(j.group, 0)
		j.vars = append(j.vars, jvar{aIn: -1})
	}
	j.groups = []group{g}
	sg := newSweepGraph(len(j.vars))
	// OR(a0, a1) = NOT AND(NOT a0, NOT a1); joint variable v is node v+1.
	nor := sg.and([]uint32{1<<1 | 1, 2<<1 | 1})
	nn := sg.numNodes()
	s := &sweeper{c: &Checker{opt: Options{}.withDefaults()}, j: j, g: sg, rfan: make([][]uint32, nn), gen: make([]int32, nn)}
	s.rfan[nor>>1] = sg.gateFanin(nor >> 1)
	// OR(a0,a1) vs true  <=>  NOR vs false.
	f, leaves, _, _, err := s.proofCNF(nor, litFalse, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 2 {
		t.Fatalf("leaves %v, want the two reached actions", leaves)
	}
	sat, _, err := solveCNF(t.Context(), f)
	if err != nil || sat.String() != "SAT" {
		t.Fatalf("solve = %v, %v; want SAT (the role may do its third action)", sat, err)
	}
}
