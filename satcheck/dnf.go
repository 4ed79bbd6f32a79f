package satcheck

import (
	"encoding/binary"
	"slices"
)

// Comparison of bounded disjunctive normal forms.
//
// flatEqual sees through the grouping of ANDs (and so of ORs), but not
// through distributivity: a game's "some square of x" is an OR of ANDs of
// four cells, and the grounder shares the joins it plans, so a square's
// cells end up under gates that also hold the cells of other squares.
// Under a board symmetry the same squares are joined in another order, so
// the two cones are different circuits of one disjunction, and a miter of
// them is hard for CDCL (quad's goals took minutes). dnfEqual expands both
// cones into sets of cubes within a budget and compares the sets.
//
// Each literal of a gate (an AND of fanin literals) gets the set of cubes
// of its function: the gate's is the cross product of its fanins' sets,
// its negation the union of its negated fanins' sets (De Morgan), with
// cubes holding x and ¬x dropped and repeated cubes merged. A literal
// whose product would grow past dnfMaxCubes keeps its conjuncts that are
// cubes or disjunctions and folds the others into one opaque atom: the
// negation of an atom named by the hash-consed set of what they deny, so
// the two cones share it exactly when they expand that to the same set
// (one game's "no square of o" is the other's). Every set
// denotes its literal's function exactly, for every assignment of the
// joint variables, so equal sets at the roots are equal functions.
// Unequal sets prove nothing (a disjunctive normal form is not
// canonical): the caller goes on to SAT.

// dnfAtomsPerFanin bounds the atoms of all cubes built in one comparison,
// as a multiple of the two cones' fanins, between dnfMinAtoms (a literal
// may fill dnfMaxCubes before it is found too big) and dnfMaxAtoms: a
// comparison that cannot finish within a small multiple of the cones must
// not cost more than the SAT call it may replace.
const (
	dnfAtomsPerFanin = 64
	dnfMinAtoms      = 1 << 20
	dnfMaxAtoms      = 1 << 23
)

// dnfMaxCubes bounds the cubes of one literal's set, and dnfMaxProduct
// those of a gate's product: past it, the gate folds conjuncts into an
// opaque atom (see above). Products are held smaller since the expansion
// of a conjunction of clauses grows exponentially (quad's "no open
// square" over 3-literal clauses), while a disjunction's set grows only
// with what it lists (quad's 4,692 open squares).
const (
	dnfMaxCubes   = 1 << 14
	dnfMaxProduct = 1 << 10
)

// dnfFailSlack: how many more failures than twice its proofs a Checker
// allows the normal forms before it stops trying them.
const dnfFailSlack = 16

// dnfCaps are the two bounds above (tests set small ones, to reach the
// fold path on small circuits).
type dnfCaps struct{ cubes, product int }

// dnfEqual reports whether ca and cb, with their inputs read as j's
// variables (constant false for -1), expand to the same set of cubes
// within the budget.
func dnfEqual(ca, cb *cone, j *joint) bool {
	return dnfEqualCaps(ca, cb, j, dnfCaps{dnfMaxCubes, dnfMaxProduct})
}

func dnfEqualCaps(ca, cb *cone, j *joint, caps dnfCaps) bool {
	fanins := len(ca.Fanin) + len(cb.Fanin) + 1
	dt := newDNFTable(len(j.vars), min(max(dnfAtomsPerFanin*fanins, dnfMinAtoms), dnfMaxAtoms), caps)
	ra, ok := dt.cone(ca, j.aVar)
	if !ok {
		return false
	}
	rb, ok := dt.cone(cb, j.bVar)
	return ok && ra == rb
}

// newDNFTable returns a table over nvars joint variables whose sets 0 and 1
// are false and true.
func newDNFTable(nvars, budget int, caps dnfCaps) *dnfTable {
	dt := &dnfTable{ids: map[string]int32{}, opaque: int32(nvars) + 1, budget: budget, caps: caps}
	dt.intern(dnf{})
	dt.intern(dnf{{}})
	return dt
}

// A dnf is a set of cubes: each cube a set of atoms, ascending; the cubes
// ascending in lexicographic order, none repeated. An atom is id<<1 |
// negated, id 1..len(vars) a joint variable and larger ids opaque
// functions. The empty set is false; the set of the empty cube is true.
type dnf [][]uint32

// dnfTable hash-conses the sets of one comparison, so that both cones
// name a function by the same id.
type dnfTable struct {
	ids    map[string]int32
	sets   []dnf
	opaque int32 // the atom id of set 0; set k is atom opaque+k
	budget int
	out    bool // the budget ran out: no answer
	caps   dnfCaps
	key    []byte
}

// Memo entries of dnfCone.set: unknown, too big, or 2+set id.
const (
	dnfUnknown = 0
	dnfTooBig  = 1
)

// dnfCone expands the literals of one cone.
type dnfCone struct {
	dt   *dnfTable
	cn   *cone
	vars []int32
	memo []int32 // per slot literal (slot<<1 | negated)
	opq  map[uint32]dnf
}

// cone returns the id of the set of cn's root, or false when the budget
// runs out.
func (dt *dnfTable) cone(cn *cone, vars []int32) (int32, bool) {
	dc := &dnfCone{dt: dt, cn: cn, vars: vars, memo: make([]int32, 2*cn.NumSlots())}
	s := dc.lit(cn.Root)
	if dt.out {
		return 0, false
	}
	return dt.intern(s), true
}

// lit returns the set of slot literal l, or an opaque cube for a literal
// whose set is too big; nil with dc.dt.out set when the budget ran out.
func (dc *dnfCone) lit(l uint32) dnf {
	if s, ok := dc.set(l); ok || dc.dt.out {
		return s
	}
	if o, ok := dc.opq[l]; ok {
		return o
	}
	other, ok := dc.set(l ^ 1)
	if !ok {
		dc.dt.out = true // neither side of the gate has a small set
		return nil
	}
	o := dnf{{uint32(dc.dt.opaque+dc.dt.intern(other))<<1 | 1}}
	if dc.opq == nil {
		dc.opq = map[uint32]dnf{}
	}
	dc.opq[l] = o
	return o
}

// set returns the set of slot literal l, or false when it is too big.
func (dc *dnfCone) set(l uint32) (dnf, bool) {
	switch m := dc.memo[l]; m {
	case dnfTooBig:
		return nil, false
	case dnfUnknown:
	default:
		return dc.dt.sets[m-2], true
	}
	s, ok := dc.expand(l)
	if dc.dt.out {
		return nil, false
	}
	if !ok {
		dc.memo[l] = dnfTooBig
		return nil, false
	}
	dc.memo[l] = 2 + dc.dt.intern(s)
	return s, true
}

// expand computes the set of slot literal l from its fanins.
func (dc *dnfCone) expand(l uint32) (dnf, bool) {
	slot, neg := int(l>>1), l&1 == 1
	first := dc.cn.FirstGate()
	switch {
	case slot == 0 || slot < first && dc.vars[slot-1] < 0: // false
		if neg {
			return dnf{{}}, true
		}
		return dnf{}, true
	case slot < first:
		return dnf{{uint32(dc.vars[slot-1]+1)<<1 | l&1}}, true
	}
	fan := dc.cn.GateFanin(slot - first)
	if neg {
		// ¬(a ∧ b ∧ ...) = ¬a ∨ ¬b ∨ ...
		var out dnf
		for _, f := range fan {
			s := dc.lit(f ^ 1)
			if dc.dt.out {
				return nil, false
			}
			out = append(out, s...)
			if len(out) > 2*dc.dt.caps.cubes {
				return nil, false
			}
		}
		return dc.dt.normalize(out)
	}
	// The product's size before contradictions drop cubes: past the
	// bound, multiplying would only spend the budget.
	size := 1
	for _, f := range fan {
		s, ok := dc.set(f)
		if dc.dt.out {
			return nil, false
		}
		if !ok {
			size = dc.dt.caps.product + 1
			break
		}
		if size *= max(len(s), 1); size > dc.dt.caps.product {
			break
		}
	}
	if size <= dc.dt.caps.product {
		acc, ok := dc.product(fan)
		if ok || dc.dt.out {
			return acc, ok
		}
	}
	// Too big. The conjuncts (nested ANDs flattened) whose negations have
	// small sets become one opaque atom, the negation of the union of
	// those sets, and the rest is multiplied as before: cubes stay cubes,
	// and a disjunction whose own negation is opaque stays a disjunction.
	// The atom names the whole disjunction the gate denies: the grounder
	// spreads ¬lose over quad's four rules of an open square, each of
	// them denying one factored part of it, and only the whole is
	// invariant under a symmetry, not how the rules split it.
	var rest []uint32
	var union dnf
	for _, f := range dc.flatten(fan) {
		s, sok := dc.set(f)
		if sok && len(s) <= 1 {
			rest = append(rest, f)
			continue
		}
		if c, ok := dc.set(f ^ 1); ok && !(sok && dc.dt.denies(c, s)) {
			union = append(union, c...)
			continue
		}
		if !sok || dc.dt.out {
			return nil, false // neither f nor ¬f has a small set
		}
		rest = append(rest, f)
	}
	if len(union) == 0 {
		return nil, false
	}
	u, ok := dc.dt.normalize(union)
	if !ok {
		return nil, false
	}
	acc, ok := dc.product(rest)
	if !ok {
		return nil, false
	}
	return dc.dt.product(acc, dnf{{uint32(dc.dt.opaque+dc.dt.intern(u))<<1 | 1}})
}

// flatten returns the literals of the AND of fan with every positive AND
// gate among them replaced by its fanins, recursively, each once: the
// grounder nests a rule's conjuncts as its joins are planned, and the
// grouping must not depend on how.
func (dc *dnfCone) flatten(fan []uint32) []uint32 {
	first := dc.cn.FirstGate()
	seen := map[uint32]bool{}
	var out []uint32
	var walk func(fan []uint32)
	walk = func(fan []uint32) {
		for _, f := range fan {
			if seen[f] {
				continue
			}
			seen[f] = true
			if slot := int(f >> 1); f&1 == 0 && slot >= first {
				walk(dc.cn.GateFanin(slot - first))
				continue
			}
			out = append(out, f)
		}
	}
	walk(fan)
	if dc.dt.budget -= len(seen); dc.dt.budget < 0 {
		dc.dt.out = true
	}
	return out
}

// denies reports whether c is the opaque negation of s: the set this
// path gives ¬s when s's negation is too big to expand.
func (dt *dnfTable) denies(c, s dnf) bool {
	if len(c) != 1 || len(c[0]) != 1 || c[0][0]&1 == 0 {
		return false
	}
	id := int32(c[0][0]>>1) - dt.opaque
	return id >= 0 && dt.intern(s) == id
}

// product returns the set of the AND of the slot literals fan, or false
// when it or a fanin is too big.
func (dc *dnfCone) product(fan []uint32) (dnf, bool) {
	acc := dnf{{}}
	for _, f := range fan {
		s, ok := dc.set(f)
		if !ok {
			return nil, false
		}
		if acc, ok = dc.dt.product(acc, s); !ok {
			return nil, false
		}
		if len(acc) == 0 {
			break // false
		}
	}
	return acc, true
}

// normalize sorts the cubes of a union, merges repeated ones and drops
// those another one absorbs (absorb); false when they are more than
// dnfMaxCubes.
func (dt *dnfTable) normalize(s dnf) (dnf, bool) {
	slices.SortFunc(s, slices.Compare)
	s = slices.CompactFunc(s, slices.Equal)
	if len(s) > dt.caps.cubes {
		return nil, false
	}
	if dt.budget -= len(s); dt.budget < 0 {
		dt.out = true
		return nil, false
	}
	return dt.absorb(s)
}

// absorb drops from s (sorted, no cube repeated) every cube that holds
// another cube of s: x ∨ (x ∧ y) is x, so the set denotes the same
// function. What is left, the cubes of s minimal under inclusion, does not
// depend on how s was reached: without it two cones that expand one
// function through other groupings kept different redundant cubes (quad's
// mutant: "no more white stones for x than for o" expanded from its
// clauses in two orders gave 120 different cubes among 7,166, and the
// atom naming that set differed). Cubes go shortest first against those
// kept, a 256-bit signature of each ruling out most pairs; the pairs
// compared and the atoms walked are charged to the budget as they go,
// dnfAbsorbWorkPerAtom to an atom. False when the budget runs out
// (dt.out).
func (dt *dnfTable) absorb(s dnf) (dnf, bool) {
	if len(s) < 2 {
		return s, true
	}
	order := make([]int32, len(s))
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortStableFunc(order, func(x, y int32) int { return len(s[x]) - len(s[y]) })
	type keptCube struct {
		sig [4]uint64
		c   []uint32
	}
	var kept []keptCube
	drop := make([]bool, len(s))
	// work counts pair comparisons and the atoms subset walks, charged as
	// they go (a set of 16,384 cubes of 40 atoms sharing most of them cost
	// 3.5 s when charged only at the end: review of issue-quad22).
	work := 0
	for _, k := range order {
		d := s[k]
		sd := cubeSig(d)
		for _, c := range kept {
			if len(c.c) >= len(d) {
				break // kept go shortest first; an equal cube is not repeated
			}
			work++
			if c.sig[0]&^sd[0]|c.sig[1]&^sd[1]|c.sig[2]&^sd[2]|c.sig[3]&^sd[3] == 0 {
				work += len(d)
				if subset(c.c, d) {
					drop[k] = true
					break
				}
			}
		}
		if !drop[k] {
			kept = append(kept, keptCube{sd, d})
		}
		if work >= dnfAbsorbWorkPerAtom {
			if dt.budget -= work / dnfAbsorbWorkPerAtom; dt.budget < 0 {
				dt.out = true
				return nil, false
			}
			work %= dnfAbsorbWorkPerAtom
		}
	}
	if len(kept) == len(s) {
		return s, true
	}
	out := make(dnf, 0, len(kept))
	for k, c := range s {
		if !drop[k] {
			out = append(out, c)
		}
	}
	return out, true
}

// dnfAbsorbWorkPerAtom is absorb's rate: pair comparisons and atoms walked
// by subset per atom of the budget (quad's 7,166-cube sets need about
// 25 M comparisons; at this rate they fit the least budget).
const dnfAbsorbWorkPerAtom = 64

// cubeSig sets one of 256 bits for each atom of c: a cube within another
// has its bits within the other's.
func cubeSig(c []uint32) (sig [4]uint64) {
	for _, a := range c {
		h := a * 0x9e3779b1 >> 24
		sig[h>>6&3] |= 1 << (h & 63)
	}
	return sig
}

// product returns the set of x ∧ y, or false when it would have more than
// dnfMaxProduct cubes (dnfMaxCubes for a cube times a set) or the budget
// ran out (dt.out).
func (dt *dnfTable) product(x, y dnf) (dnf, bool) {
	if len(x) == 1 && len(x[0]) == 0 {
		return y, true
	}
	if len(y) == 1 && len(y[0]) == 0 {
		return x, true
	}
	// A single cube multiplies a set without growing it.
	n := len(x) * len(y)
	if n > dt.caps.cubes || n > dt.caps.product && min(len(x), len(y)) > 1 {
		return nil, false
	}
	// Every pair of cubes costs a merge, kept or not.
	if dt.budget -= n; dt.budget < 0 {
		dt.out = true
		return nil, false
	}
	out := make(dnf, 0, len(x)*len(y))
	for _, cx := range x {
		for _, cy := range y {
			c, ok := mergeCube(cx, cy)
			if !ok {
				continue // x ∧ ¬x
			}
			if dt.budget -= len(c) + 1; dt.budget < 0 {
				dt.out = true
				return nil, false
			}
			out = append(out, c)
		}
	}
	slices.SortFunc(out, slices.Compare)
	return dt.absorb(slices.CompactFunc(out, slices.Equal))
}

// mergeCube returns the union of two cubes, or false when it holds an atom
// and its negation (adjacent once sorted, as id<<1 and id<<1|1).
func mergeCube(x, y []uint32) ([]uint32, bool) {
	out := make([]uint32, 0, len(x)+len(y))
	i, k := 0, 0
	for i < len(x) || k < len(y) {
		var a uint32
		switch {
		case k == len(y) || i < len(x) && x[i] < y[k]:
			a = x[i]
			i++
		case i == len(x) || y[k] < x[i]:
			a = y[k]
			k++
		default:
			a = x[i]
			i++
			k++
		}
		if n := len(out); n > 0 && out[n-1]^1 == a {
			return nil, false
		}
		out = append(out, a)
	}
	return out, true
}

// intern returns the id of set s, adding it when new.
func (dt *dnfTable) intern(s dnf) int32 {
	dt.key = dt.key[:0]
	for _, c := range s {
		dt.key = binary.AppendUvarint(dt.key, uint64(len(c)))
		for _, a := range c {
			dt.key = binary.AppendUvarint(dt.key, uint64(a))
		}
	}
	if id, ok := dt.ids[string(dt.key)]; ok {
		return id
	}
	id := int32(len(dt.sets))
	dt.ids[string(dt.key)] = id
	dt.sets = append(dt.sets, s)
	return id
}
