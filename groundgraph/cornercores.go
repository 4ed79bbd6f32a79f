package groundgraph

import (
	"cmp"
	"math/bits"
	"slices"
)

// Flip cores: sets that every change of a small function holds.
//
// For a slot of a cone, a core family is a list of sets of semantic
// propositions such that every set T of at most d flips from the anchor
// that changes the slot holds one of them. For an input it is the input
// itself; a true AND gate changes only when a fanin does, so the union of
// the fanins' families is one; a false AND gate changes only when each
// false fanin does, so T holds one set of each false fanin's family, and
// their unions are one (a fanin whose family is unknown, or would make too
// many, is left out: the unions of the others still are). Sets of more
// than d propositions are dropped, and sets that hold another: both are
// never needed. A corner level k then needs only the k-sets that hold a
// core of the root, and none at all when every core is larger than k. From
// the all-true state, Number Scrabble's terminal (a sum of 15 for either
// player, its triples grouped by their smallest number) changes only when
// both players' triples are all broken: its cores are the four unions of
// a smallest blocking set of each player, so level 5, which its flip
// bound (2) left to search, holds none, and level 6 is the four cores.

// maxCores bounds the core family of one slot.
const maxCores = 1 << 10

// maxCoreWork bounds the set operations of one flipCores call.
const maxCoreWork = 1 << 22

// maxCoreProps is the most semantic propositions flipCores handles (one
// machine word per set).
const maxCoreProps = 64

// flipCores returns a core family of the cone's root (bit j of a set is
// position j of pos, at most maxCoreProps of them) for flips of at most d
// propositions from the anchor (val gives each slot's value there), or
// ok = false when it is unknown.
func flipCores(cn *cone, val func(slot int) bool, pos []int, d int) (cores []uint64, ok bool) {
	if len(pos) > maxCoreProps {
		return nil, false
	}
	nSlots := cn.NumSlots()
	fam := make([][]uint64, nSlots)
	known := make([]bool, nSlots)
	for slot := range cn.FirstGate() {
		known[slot] = true // the constant and fixed inputs never change
	}
	for j, k := range pos {
		fam[1+k] = []uint64{1 << j}
	}
	work := 0
	first := cn.FirstGate()
	var next []uint64
	for gi := range cn.Gates {
		slot := first + gi
		fan := cn.GateFanin(gi)
		if val(slot) {
			// Any fanin may change it.
			var u []uint64
			all := true
			for _, l := range fan {
				if !known[l>>1] {
					all = false
					break
				}
				u = append(u, fam[l>>1]...)
			}
			if !all || len(u) > maxCores {
				continue
			}
			work += len(u) * len(u)
			fam[slot], known[slot] = minimalSets(u), true
		} else {
			// Every false fanin must change.
			cur := []uint64{0}
			any := false
			for _, l := range fan {
				f := int(l >> 1)
				if val(f) != (l&1 == 1) || !known[f] { // a true literal, or unknown
					continue
				}
				next = next[:0]
				for _, a := range cur {
					for _, b := range fam[f] {
						if u := a | b; bits.OnesCount64(u) <= d {
							next = append(next, u)
						}
					}
				}
				work += len(cur) * len(fam[f])
				if len(next) > 4*maxCores {
					continue // too many: leave this fanin out
				}
				work += len(next) * len(next)
				if m := minimalSets(next); len(m) <= maxCores {
					cur = slices.Clone(m)
					any = true
				}
			}
			if any {
				fam[slot], known[slot] = cur, true
			}
		}
		if work > maxCoreWork {
			return nil, false
		}
	}
	root := int(cn.Root >> 1)
	return fam[root], known[root]
}

// minimalSets sorts sets by size, drops duplicates and sets that hold
// another, and returns what is left (in place). A set is compared with the
// kept sets of fewer members only (one of as many members holds it only
// when equal, and equal sets are neighbours).
func minimalSets(sets []uint64) []uint64 {
	slices.SortFunc(sets, func(a, b uint64) int {
		if c := bits.OnesCount64(a) - bits.OnesCount64(b); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := sets[:0]
	smaller, size := 0, -1 // out[:smaller] have fewer members than size
	for _, s := range sets {
		if c := bits.OnesCount64(s); c != size {
			smaller, size = len(out), c
		} else if out[len(out)-1] == s {
			continue
		}
		keep := true
		for _, t := range out[:smaller] {
			if t&^s == 0 { // t ⊆ s
				keep = false
				break
			}
		}
		if keep {
			out = append(out, s)
		}
	}
	return out
}
