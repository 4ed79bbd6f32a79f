package satcheck

import (
	"slices"
	"testing"
)

// TestProofCNFProjectsGroups: a sweep proof about AND(action 0, p) against
// false, in a joint space where the role has 2,000 actions, encodes the two
// variables it reaches and "at most one" of the one reached action, not the
// role's exactly-one over all 2,000 (4,000 clauses and 2,000 ladder
// variables before); its model completes to a one-hot choice of the role.
func TestProofCNFProjectsGroups(t *testing.T) {
	const acts = 2000
	j := &joint{}
	addTestRole(j, acts)
	p := int32(len(j.vars))
	j.props = []int32{p}
	j.group = append(j.group, -1)
	j.vars = append(j.vars, jvar{aIn: -1})

	sg := newSweepGraph(len(j.vars))
	x := sg.and([]uint32{1 << 1, uint32(p+1) << 1}) // joint variable v is node v+1
	nn := sg.numNodes()
	s := &sweeper{c: &Checker{opt: Options{}.withDefaults()}, j: j, g: sg, rfan: make([][]uint32, nn), gen: make([]int32, nn)}
	s.rfan[x>>1] = sg.gateFanin(x >> 1)

	f, leaves, varOfLeaf, cut, err := s.proofCNF(x, litFalse, 0)
	if err != nil {
		t.Fatal(err)
	}
	if cut || len(leaves) != 2 || len(f.clauses) > 10 || f.nvars > 5 {
		t.Fatalf("proofCNF: %d clauses, %d vars, leaves %v, cut %v; want the 2 reached variables only", len(f.clauses), f.nvars, leaves, cut)
	}
	sat, m, err := solveCNF(t.Context(), f)
	if err != nil || sat.String() != "SAT" {
		t.Fatalf("solve = %v, %v; want SAT", sat, err)
	}
	model := make([]bool, len(j.vars))
	reached := make([]bool, len(j.vars))
	for k, v := range leaves {
		model[v] = m[varOfLeaf[k]-1]
		reached[v] = true
	}
	completeGroups(j, model, reached)
	if !model[0] || !model[p] {
		t.Fatalf("model sets action 0 %v, p %v; want both (AND(action 0, p) true)", model[0], model[p])
	}
	if n := len(slices.DeleteFunc(slices.Clone(model[:acts]), func(b bool) bool { return !b })); n != 1 {
		t.Errorf("model sets %d actions of the role, want exactly 1", n)
	}

	// The proof that p alone differs from false: the action is not reached,
	// and completeGroups picks one for the role.
	f, leaves, varOfLeaf, _, err = s.proofCNF(uint32(p+1)<<1, litFalse, 0)
	if err != nil || len(leaves) != 1 || len(f.clauses) > 5 {
		t.Fatalf("proofCNF(p) = %d clauses, leaves %v, %v", len(f.clauses), leaves, err)
	}
	clear(model)
	clear(reached)
	model[p], reached[p] = true, true
	completeGroups(j, model, reached)
	if n := len(slices.DeleteFunc(slices.Clone(model[:acts]), func(b bool) bool { return !b })); n != 1 {
		t.Errorf("completed model sets %d actions of the role, want exactly 1", n)
	}
}
