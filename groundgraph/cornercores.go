package groundgraph

import (
	"cmp"
	"math/bits"
	"slices"
	"sort"
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

// maxCoreProps is the most semantic propositions flipCores handles. A set
// takes (n+63)/64 words for n propositions, and maxCoreWork counts word
// operations, so wider sets cost their width. Connect Four's lines on the
// 9x8 and 10x9 boards (72 and 90 propositions) were past the former bound
// of one word: their level 5, one past the lines, was a search of every
// 5-set (C(90,5) = 44 M points, most of their Build) where the cores, the
// 207 lines, leave 17,802.
const maxCoreProps = 256

// coreSets is a family of sets of positions, each w words long (position
// j is bit j%64 of word j/64), stored one after the other.
type coreSets struct {
	w    int
	sets []uint64
}

// count returns the number of sets (none in the zero value).
func (cs coreSets) count() int {
	if cs.w == 0 {
		return 0
	}
	return len(cs.sets) / cs.w
}

// at returns set i.
func (cs coreSets) at(i int) []uint64 { return cs.sets[i*cs.w : (i+1)*cs.w] }

// setSize returns the number of members of a set.
func setSize(s []uint64) int {
	n := 0
	for _, x := range s {
		n += bits.OnesCount64(x)
	}
	return n
}

// flipCores returns a core family of the cone's root (position j of pos,
// at most maxCoreProps of them) for flips of at most d propositions from
// the anchor (val gives each slot's value there), or ok = false when it is
// unknown.
func flipCores(cn *cone, val func(slot int) bool, pos []int, d int) (cores coreSets, ok bool) {
	if len(pos) > maxCoreProps {
		return coreSets{}, false
	}
	w := max(1, (len(pos)+63)/64)
	nSlots := cn.NumSlots()
	fam := make([][]uint64, nSlots)
	known := make([]bool, nSlots)
	for slot := range cn.FirstGate() {
		known[slot] = true // the constant and fixed inputs never change
	}
	for j, k := range pos {
		fam[1+k] = make([]uint64, w)
		fam[1+k][j/64] = 1 << (j % 64)
	}
	work := 0
	first := cn.FirstGate()
	var next []uint64
	u := make([]uint64, w)
	for gi := range cn.Gates {
		slot := first + gi
		fan := cn.GateFanin(gi)
		if val(slot) {
			// Any fanin may change it.
			var un []uint64
			all := true
			for _, l := range fan {
				if !known[l>>1] {
					all = false
					break
				}
				un = append(un, fam[l>>1]...)
			}
			if !all || len(un)/w > maxCores {
				continue
			}
			work += len(un) / w * len(un)
			fam[slot], known[slot] = minimalSets(un, w), true
		} else {
			// Every false fanin must change.
			cur := make([]uint64, w) // the empty set
			any := false
			for _, l := range fan {
				f := int(l >> 1)
				if val(f) != (l&1 == 1) || !known[f] { // a true literal, or unknown
					continue
				}
				next = next[:0]
				for a := 0; a < len(cur); a += w {
					for b := 0; b < len(fam[f]); b += w {
						size := 0
						for i := range u {
							u[i] = cur[a+i] | fam[f][b+i]
							size += bits.OnesCount64(u[i])
						}
						if size <= d {
							next = append(next, u...)
						}
					}
				}
				work += len(cur) / w * len(fam[f])
				if len(next)/w > 4*maxCores {
					continue // too many: leave this fanin out
				}
				work += len(next) / w * len(next)
				if m := minimalSets(next, w); len(m)/w <= maxCores {
					cur = slices.Clone(m)
					any = true
				}
			}
			if any {
				fam[slot], known[slot] = cur, true
			}
		}
		if work > maxCoreWork {
			return coreSets{}, false
		}
	}
	root := int(cn.Root >> 1)
	return coreSets{w: w, sets: fam[root]}, known[root]
}

// minimalSets sorts sets (of w words each) by size, then by value (the
// last word first), drops duplicates and sets that hold another, and
// returns what is left (in place). A set is compared with the kept sets
// of fewer members only (one of as many members holds it only when
// equal, and equal sets are neighbours).
func minimalSets(sets []uint64, w int) []uint64 {
	if w == 1 {
		slices.SortFunc(sets, func(a, b uint64) int {
			if c := bits.OnesCount64(a) - bits.OnesCount64(b); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
	} else {
		sort.Sort(wideSets{w: w, sets: sets, tmp: make([]uint64, w)})
	}
	out := sets[:0]
	smaller, size := 0, -1 // out[:smaller] hold sets of fewer members than size
	for i := 0; i < len(sets); i += w {
		s := sets[i : i+w]
		if c := setSize(s); c != size {
			smaller, size = len(out), c
		} else if slices.Equal(out[len(out)-w:], s) {
			continue
		}
		keep := true
		if w == 1 { // the common case, without a call per kept set
			for _, t := range out[:smaller] {
				if t&^s[0] == 0 {
					keep = false
					break
				}
			}
		} else {
			for j := 0; j < smaller && keep; j += w {
				keep = !subset(out[j:j+w], s)
			}
		}
		if keep {
			out = append(out, s...) // out never passes s: copy is safe
		}
	}
	return out
}

// subset reports t ⊆ s.
func subset(t, s []uint64) bool {
	for i, x := range t {
		if x&^s[i] != 0 {
			return false
		}
	}
	return true
}

// wideSets sorts sets of w words for minimalSets.
type wideSets struct {
	w         int
	sets, tmp []uint64
}

func (ws wideSets) Len() int { return len(ws.sets) / ws.w }

func (ws wideSets) Less(i, j int) bool {
	a, b := ws.sets[i*ws.w:(i+1)*ws.w], ws.sets[j*ws.w:(j+1)*ws.w]
	if c := setSize(a) - setSize(b); c != 0 {
		return c < 0
	}
	for k := ws.w - 1; k >= 0; k-- {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return false
}

func (ws wideSets) Swap(i, j int) {
	a, b := ws.sets[i*ws.w:(i+1)*ws.w], ws.sets[j*ws.w:(j+1)*ws.w]
	copy(ws.tmp, a)
	copy(a, b)
	copy(b, ws.tmp)
}
