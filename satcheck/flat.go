package satcheck

import (
	"encoding/binary"
	"slices"
)

// Flattened structural comparison.
//
// Structural hashing (Checker.structurallyEqual) fails as soon as the two
// games group a disjunction differently: Connect Four's "a line of red"
// is an OR of its lines, nested by the rules that define them, and a
// rewritten version nests them otherwise. flatEqual compares both cones
// modulo the associativity, commutativity and idempotence of AND: each
// gate becomes the set of its fanin literals, a fanin that is an AND gate
// read positively contributing its own set instead, with constants folded
// (x ∧ ¬x is false, and so is a set holding ¬y and every member of a set
// y) and one-literal sets being that literal. Each set
// denotes its gate's function exactly, so equal sets at the roots are
// equal functions of the joint variables, for every assignment.

// maxFlatSize bounds the literals of all sets of one comparison, as a
// multiple of the two cones' fanins: nested sharing can make flattened
// sets much larger than the cones.
const maxFlatSize = 8

// flatEqual reports whether ca and cb, with their inputs read as j's
// variables (constant false for -1), are the same flattened formula.
func flatEqual(ca, cb *cone, j *joint) bool {
	ft := &flatTable{ids: map[string]int32{}, next: int32(len(j.vars)) + 1}
	ft.budget = maxFlatSize * (len(ca.Fanin) + len(cb.Fanin) + 1)
	ra, ok := ft.cone(ca, j.aVar)
	if !ok {
		return false
	}
	rb, ok := ft.cone(cb, j.bVar)
	return ok && ra == rb
}

// flatTable hash-conses flattened sets. A flat literal is id<<1|negated:
// id 0 is constant false, 1..len(vars) the joint variables, and the rest
// sets of at least two literals (members).
type flatTable struct {
	ids     map[string]int32
	members map[int32][]uint32
	next    int32
	budget  int
	key     []byte
}

// cone returns the flat literal of cn's root, or false when the budget
// runs out.
func (ft *flatTable) cone(cn *cone, vars []int32) (uint32, bool) {
	lit := make([]uint32, cn.NumSlots())
	for k := range cn.Inputs {
		if v := vars[k]; v >= 0 {
			lit[1+k] = uint32(v+1) << 1
		}
	}
	first := cn.FirstGate()
	var set []uint32
	for gi := range cn.Gates {
		set = set[:0]
		for _, l := range cn.GateFanin(gi) {
			fl := lit[l>>1] ^ l&1
			if m, ok := ft.members[int32(fl>>1)]; ok && fl&1 == 0 {
				set = append(set, m...)
			} else {
				set = append(set, fl)
			}
		}
		if ft.budget -= len(set); ft.budget < 0 {
			return 0, false
		}
		lit[first+gi] = ft.and(set)
	}
	return lit[cn.Root>>1] ^ cn.Root&1, true
}

// and returns the flat literal of the AND of set (reordered in place).
func (ft *flatTable) and(set []uint32) uint32 {
	slices.Sort(set)
	set = slices.Compact(set)
	out := set[:0]
	for i, l := range set {
		switch {
		case l == 0: // false
			return 0
		case l == 1: // true
			continue
		case i > 0 && set[i-1] == l^1: // x and ¬x, adjacent once sorted
			return 0
		}
		out = append(out, l)
	}
	switch len(out) {
	case 0:
		return 1
	case 1:
		return out[0]
	}
	// ¬y with every member of y in the set: y holds, so the AND is false
	// (a rewritten game's "some line and no line").
	for _, l := range out {
		if m, ok := ft.members[int32(l>>1)]; ok && l&1 == 1 {
			ft.budget -= len(m)
			if subset(m, out) {
				return 0
			}
		}
	}
	ft.key = ft.key[:0]
	for _, l := range out {
		ft.key = binary.LittleEndian.AppendUint32(ft.key, l)
	}
	if id, ok := ft.ids[string(ft.key)]; ok {
		return uint32(id) << 1
	}
	id := ft.next
	ft.next++
	ft.ids[string(ft.key)] = id
	if ft.members == nil {
		ft.members = map[int32][]uint32{}
	}
	ft.members[id] = slices.Clone(out)
	return uint32(id) << 1
}

// subset reports whether every element of a is in b, both ascending.
func subset(a, b []uint32) bool {
	i := 0
	for _, x := range a {
		for i < len(b) && b[i] < x {
			i++
		}
		if i == len(b) || b[i] != x {
			return false
		}
	}
	return true
}
