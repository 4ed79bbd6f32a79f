package satcheck

import (
	"math"
	"slices"
)

// semantics says how a function reads the does-inputs.
type semantics uint8

const (
	// oneHot: every role does exactly one of its actions (next functions).
	oneHot semantics = iota
	// noMoves: no does facts at all, every does-input is false (legal, goal,
	// terminal: D ∪ s_true ⊨ f in the paper's definition).
	noMoves
)

// jvar is one variable of the joint input space of a pair of functions: an
// input of the first program identified with its image in the second.
type jvar struct {
	aIn int32 // input of program A, or -1 when only B's function reads it
	bIn int32 // input of program B (its image)
}

// group is the exactly-one constraint of one role, stated over B's actions of
// that role (A's actions of the matching role are identified with them).
// Members are the actions some function reads; when the role has other actions,
// choosing one of those is the "other" choice, so the members are only at-most-one.
type group struct {
	role    int32   // role of B
	members []int32 // joint variables, by ascending B input
	other   bool    // the role has actions that no member stands for
}

func (g *group) radix() int {
	if g.other {
		return len(g.members) + 1
	}
	return len(g.members)
}

// joint is the input space shared by the two sides of a miter. Literals of
// the inputs are joint variables (or -1: constant false).
type joint struct {
	vars   []jvar
	aVar   []int32 // aVar[k]: variable of A's k-th support input, -1 for constant false
	bVar   []int32 // bVar[k]: variable of B's k-th support input
	props  []int32 // variables that are free (not in a group), ascending
	groups []group // by ascending B role
	group  []int32 // group[v]: index of v's group, or -1

	// lem keeps what sweeps over this joint prove for the other pairs of
	// the mapping im (lemmas.go); nil for joints of partial checks.
	lem *lemmaStore
	im  []int32

	// sweepCex holds the real counterexamples (joint assignments) the
	// last sweep of this joint found, for the next sweep of the same
	// pair (sweep.go): sweepCexN of them, bit i of variable v in word
	// v*k + i/64 (k = ⌈sweepCexN/64⌉).
	sweepCex  []uint64
	sweepCexN int

	// cutTried: a sweep of this joint already tried its roots' cut BDDs
	// over the cones as built (sweepbdd.go); the next sweep does not.
	cutTried bool
	// cutSweptTried: the same for the cut BDDs over a swept graph.
	cutSweptTried bool
}

// buildJoint identifies A's support inputs with B's through inputMap
// (nil: the identity, for a program compared with itself) and validates the
// mapping on A's support.
func buildJoint(a, b *side, suppA, suppB []int32, inputMap []int32, sem semantics) (*joint, error) {
	return buildRestrictedJoint(a, b, suppA, suppB, inputMap, nil, sem)
}

// buildRestrictedJoint is buildJoint for a partial mapping when bMapped is
// not nil (see Checker.Refutes): an input of A's support that inputMap
// leaves unmapped (-1) is constant false, and so is an input of B's support
// outside the mapping's image (bMapped false); a role chooses among its
// mapped actions only.
func buildRestrictedJoint(a, b *side, suppA, suppB []int32, inputMap []int32, bMapped []bool, sem semantics) (*joint, error) {
	j := &joint{aVar: make([]int32, len(suppA)), bVar: make([]int32, len(suppB)),
		vars: make([]jvar, 0, len(suppA)+len(suppB))}
	// B input -> variable, a dense index borrowed from b (the search's
	// Refutes builds a joint per check: maps were most of its CPU).
	byB := b.takeVarIndex()
	defer b.putVarIndex(byB, j)
	var rolePair, roleBack []int32 // A role -> B role, B role -> A role; -1 unset
	for k, i := range suppA {
		if sem == noMoves && a.isAction(i) {
			j.aVar[k] = -1
			continue
		}
		img := i
		if inputMap != nil {
			img = inputMap[i]
		}
		if img < 0 && bMapped != nil {
			j.aVar[k] = -1 // unmapped: restricted to false
			continue
		}
		if img < 0 || int(img) >= b.numInputs() {
			return nil, mappingErrorf("input %d of %q is read by the function but maps to %d (B has %d inputs)",
				i, a.p.Name, img, b.numInputs())
		}
		if a.isAction(i) != b.isAction(img) {
			return nil, mappingErrorf("input %d of %q and its image %d of %q are not both propositions or both actions",
				i, a.p.Name, img, b.p.Name)
		}
		if a.isAction(i) {
			ra, rb := a.role(i), b.role(img)
			if rolePair == nil {
				rolePair, roleBack = filled(len(a.base)-1, -1), filled(len(b.base)-1, -1)
			}
			if x := rolePair[ra]; x >= 0 && x != rb {
				return nil, mappingErrorf("actions of role %d of %q map to roles %d and %d", ra, a.p.Name, x, rb)
			}
			if x := roleBack[rb]; x >= 0 && x != ra {
				return nil, mappingErrorf("roles %d and %d of %q both map to role %d", x, ra, a.p.Name, rb)
			}
			if rolePair[ra] < 0 {
				if a.numActions(ra) != b.numActions(rb) {
					return nil, mappingErrorf("role %d of %q has %d actions but its image has %d",
						ra, a.p.Name, a.numActions(ra), b.numActions(rb))
				}
				rolePair[ra], roleBack[rb] = rb, ra
			}
		}
		if byB[img] >= 0 {
			return nil, mappingErrorf("two inputs of %q map to input %d", a.p.Name, img)
		}
		v := int32(len(j.vars))
		j.vars = append(j.vars, jvar{aIn: i, bIn: img})
		byB[img] = v
		j.aVar[k] = v
	}
	for k, i := range suppB {
		if sem == noMoves && b.isAction(i) {
			j.bVar[k] = -1
			continue
		}
		v := byB[i]
		if v < 0 && bMapped != nil && !bMapped[i] {
			j.bVar[k] = -1 // outside the image: restricted to false
			continue
		}
		if v < 0 {
			v = int32(len(j.vars))
			j.vars = append(j.vars, jvar{aIn: -1, bIn: i})
			byB[i] = v
		}
		j.bVar[k] = v
	}
	// Groups: every action variable belongs to the group of its B role.
	j.group = make([]int32, len(j.vars))
	order := make([]int32, len(j.vars))
	for v := range order {
		order[v] = int32(v)
	}
	slices.SortFunc(order, func(x, y int32) int { return int(j.vars[x].bIn - j.vars[y].bIn) })
	for _, v := range order {
		in := j.vars[v].bIn
		if !b.isAction(in) {
			j.props = append(j.props, v)
			j.group[v] = -1
			continue
		}
		r := b.role(in)
		if len(j.groups) == 0 || j.groups[len(j.groups)-1].role != r {
			j.groups = append(j.groups, group{role: r})
		}
		g := &j.groups[len(j.groups)-1]
		g.members = append(g.members, v)
		j.group[v] = int32(len(j.groups) - 1)
	}
	slices.Sort(j.props)
	for gi := range j.groups {
		g := &j.groups[gi]
		g.other = len(g.members) < b.availableActions(g.role, bMapped)
	}
	return j, nil
}

// log2Rows is log2 of the number of rows of the joint space's truth table,
// where a group counts as one digit of its radix.
func (j *joint) log2Rows() float64 {
	x := float64(len(j.props))
	for _, g := range j.groups {
		x += math.Log2(float64(g.radix()))
	}
	return x
}

// rows is the row count of the truth table (call only when log2Rows is small).
func (j *joint) rows() int {
	n := 1 << len(j.props)
	for _, g := range j.groups {
		n *= g.radix()
	}
	return n
}

// filled returns n copies of x.
func filled(n int, x int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = x
	}
	return s
}
