package satcheck

import (
	"encoding/binary"
	"slices"
)

// Shared miter encoding for the ground graph's questions (action classes,
// dependence): the two sides of such a miter read the same inputs except a
// few (one role's choice, some candidate inputs), so most of their gates
// compute the same thing. sharedCones Tseitin-encodes both sides with
// constant propagation and structural hashing across them: a gate whose
// folded fanins are those of a gate already encoded reuses its variable,
// so only the fanout of the inputs where the sides differ is encoded twice,
// and gates fixed by constant inputs disappear. The formula has the same
// models on the input variables as cone(x) and cone(y) side by side.

// sharedCones encodes cn once per input map of ins (each returning the
// DIMACS literal of cone input k; falseVar and -falseVar are the
// constants) and returns the root literals.
func (f *cnf) sharedCones(cn *cone, ins ...func(k int) int) []int {
	table := map[string]int{}
	var key []byte
	var fan []int
	roots := make([]int, len(ins))
	lit := make([]int, cn.NumSlots())
	first := cn.FirstGate()
	for i, in := range ins {
		lit[0] = falseVar
		for k := range cn.Inputs {
			lit[1+k] = in(k)
		}
		of := func(l uint32) int {
			if l&1 == 1 {
				return -lit[l>>1]
			}
			return lit[l>>1]
		}
		for gi := range cn.Gates {
			fan = fan[:0]
			val := 0 // 0: a gate; falseVar or -falseVar: a constant
			for _, l := range cn.GateFanin(gi) {
				x := of(l)
				if x == falseVar {
					val = falseVar
					break
				}
				if x == -falseVar {
					continue
				}
				fan = append(fan, x)
			}
			if val == 0 {
				slices.Sort(fan)
				fan = slices.Compact(fan)
				if hasComplement(fan) {
					val = falseVar // x ∧ ¬x
				}
			}
			switch {
			case val != 0:
				lit[first+gi] = val
				continue
			case len(fan) == 0:
				lit[first+gi] = -falseVar
				continue
			case len(fan) == 1:
				lit[first+gi] = fan[0]
				continue
			}
			key = key[:0]
			for _, x := range fan {
				key = binary.AppendVarint(key, int64(x))
			}
			if g, ok := table[string(key)]; ok {
				lit[first+gi] = g
				continue
			}
			g := f.newVar()
			table[string(key)] = g
			lit[first+gi] = g
			long := make([]int, 0, len(fan)+1)
			long = append(long, g)
			for _, x := range fan {
				f.add(-g, x)
				long = append(long, -x)
			}
			f.add(long...)
		}
		roots[i] = of(cn.Root)
	}
	return roots
}

// hasComplement reports whether the sorted literals xs hold some v and -v.
func hasComplement(xs []int) bool {
	for _, x := range xs {
		if x >= 0 {
			break
		}
		if _, ok := slices.BinarySearch(xs, -x); ok {
			return true
		}
	}
	return false
}
