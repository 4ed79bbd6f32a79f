package satcheck

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// ActionClassesIncremental is ActionClasses for several roles of one
// function at once: classes[i] is ActionClasses(ctx, p, f, roles[i]). It
// is the ground graph's entry point (groundgraph calls it for every next
// function that reads moves). How it keeps the cost down:
//
//   - the function's cone, input space and random vectors are built once
//     for all its roles;
//   - simulation evaluates the cone once with none of the role's read
//     actions made (the "other" choice) and then, for each read action,
//     re-evaluates only that action's fanout with the action made
//     (grounding.ConeSim.Flip), instead of simulating the whole cone once
//     per action;
//   - SAT compares one representative of each group of choices whose
//     cofactor circuits hash alike, on a miter whose sides share every
//     gate outside the role's fanout, and a witness splits the
//     candidates by their outputs near it.
//
// The tests check it against brute force and, on corpus functions, against
// the first implementation (whole-cone simulation per choice, miters
// encoded apart), kept as referenceActionClasses in the tests.
func ActionClassesIncremental(ctx context.Context, p *grounding.Program, f grounding.Lit, roles []int) ([][][]int, error) {
	return ActionClassesHinted(ctx, p, f, roles, nil)
}

// Hints returns the hints of ActionClassesHinted; it is called at most
// once, and only when some class would otherwise need SAT. open is the
// number of choices still in question then (see openChoices): each hint
// costs about a pass over the cone and may save a SAT call, so a caller
// can build about as many as there are calls to save. open counts every
// member of a pending class, so it can exceed the calls left (a class of
// 2,700 moves over 2 circuits counts 2,700), and the hints built for the
// first role that needs them serve the later roles: both cost time only.
type Hints func(open int) [][]int

// ActionClassesHinted is ActionClassesIncremental with hints: points of the
// input space (each the circuit inputs true there, ascending) that the
// simulation evaluates besides its random ones, before the first SAT call
// (hints is called then, at most once; nil means none). Every choice of a role is
// evaluated on every hint with the role's action replaced, so a hint where
// two choices give different values separates them without SAT. The
// ground graph builds hints where a path from an action to the function
// is sensitized (four_way_battle: two moves onto one cell differ only
// when another role attacks the cell one of them leaves, which random
// samples almost never show). The classes are the same whatever the
// hints: only points of the function's space are used (one action per
// role, or none for a role with unread actions; inputs outside the cone
// are ignored), and SAT still proves every class.
func ActionClassesHinted(ctx context.Context, p *grounding.Program, f grounding.Lit, roles []int, hints Hints) ([][][]int, error) {
	return actionClassesHinted(ctx, p, f, roles, hints, true)
}

// ErrNeedsSAT is ActionClassesSimulated's answer for a function whose
// classes need a SAT call.
var ErrNeedsSAT = errors.New("satcheck: action classes need SAT")

// ActionClassesSimulated is ActionClassesHinted up to its first SAT call:
// where it would make one (after the hints), it returns ErrNeedsSAT, so
// that a caller can decide such functions another way (the ground graph's
// BDDs) and leave the rest, which simulation, structural hashing and the
// hints settle, to this cheaper path.
func ActionClassesSimulated(ctx context.Context, p *grounding.Program, f grounding.Lit, roles []int, hints Hints) ([][][]int, error) {
	return actionClassesHinted(ctx, p, f, roles, hints, false)
}

func actionClassesHinted(ctx context.Context, p *grounding.Program, f grounding.Lit, roles []int, hints Hints, useSAT bool) ([][][]int, error) {
	for _, r := range roles {
		if r < 0 || r >= len(p.Roles) {
			return nil, fmt.Errorf("satcheck: role %d out of range [0,%d)", r, len(p.Roles))
		}
	}
	an, err := analyze(p, f)
	if err != nil {
		return nil, err
	}
	out := make([][][]int, len(roles))
	var sim *grounding.ConeSim // the cone on the simulation vectors, shared by the roles
	var base []uint64
	var hsim *grounding.ConeSim // the cone on the hints, built on first use
	var hvec []uint64
	hw := -1
	w, rows := an.w, 64*an.w
	exact := an.small()
	for ri, r := range roles {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		nActs := len(p.Actions[r])
		gi := slices.IndexFunc(an.j.groups, func(g group) bool { return int(g.role) == r })
		if gi < 0 {
			all := make([]int, nActs)
			for a := range all {
				all[a] = a
			}
			out[ri] = [][]int{all}
			continue
		}
		if sim == nil {
			switch {
			case exact:
				base, w, rows = an.j.exhaustiveVectors()
			case supportSim && an.w > 0:
				if an.sim == nil {
					an.sim = an.j.randomVectors(an.w, nil, an.rng)
				}
				base = an.sim
			}
			if base != nil {
				sim = grounding.NewConeSim(an.cn, w)
			}
		}
		var keys []string
		if sim != nil {
			keys = an.choiceOutputs(sim, base, rows, gi)
		}
		// The hints are simulated only for a role whose classes would
		// otherwise need SAT: each costs every choice's fanout.
		var hintKeys func(open int) []string
		if !exact && hints != nil {
			hintKeys = func(open int) []string {
				if hsim == nil {
					if hw < 0 {
						hvec, hw = an.hintedVectors(hints(open))
					}
					if hw == 0 {
						return nil
					}
					hsim = grounding.NewConeSim(an.cn, hw)
				}
				if hw == 0 {
					return nil
				}
				return an.choiceOutputs(hsim, hvec, 64*hw, gi)
			}
		}
		cs, err := an.settleClasses(ctx, r, gi, exact, keys, hintKeys, useSAT)
		if err != nil {
			return nil, err
		}
		out[ri] = cs
	}
	return out, nil
}

// choiceOutputs returns, for each choice of group gi, f's outputs on the
// vectors base (laid out as sim's inputs, w words per joint variable, rows
// valid rows) with the role making that choice, as strings (the keys of
// ActionClasses's simChoice). One evaluation with every member off gives
// the "other" choice; each member's choice flips that member on and
// re-evaluates its fanout only.
func (an *analysis) choiceOutputs(sim *grounding.ConeSim, base []uint64, rows, gi int) []string {
	w := sim.W
	g := &an.j.groups[gi]
	for k := range an.cn.Inputs {
		copy(sim.In(k), base[k*w:(k+1)*w])
	}
	for _, m := range g.members {
		clear(sim.In(int(m)))
	}
	res := make([]uint64, w)
	key := func() string {
		if r := rows % 64; r != 0 {
			res[rows/64] &= 1<<r - 1 // rows past the space are not inputs
		}
		b := make([]byte, 0, 8*len(res))
		for _, o := range res {
			for s := 0; s < 64; s += 8 {
				b = append(b, byte(o>>s))
			}
		}
		return string(b)
	}
	keys := make([]string, g.radix())
	sim.Eval(res)
	if g.other {
		keys[len(g.members)] = key()
	}
	for c, m := range g.members {
		sim.Flip(int(m), w, res)
		keys[c] = key()
	}
	return keys
}

// settleClasses is the SAT half of ActionClasses: it partitions the
// choices of group gi (of role r), starting from the candidate classes of
// equal simulation keys (all choices together when keys is nil), into the
// classes of equal cofactors, and returns them as action classes, or
// ErrNeedsSAT where it would make a SAT call and useSAT is false.
func (an *analysis) settleClasses(ctx context.Context, r, gi int, exact bool, keys []string, hintKeys func(open int) []string, useSAT bool) ([][]int, error) {
	p := an.s.p
	nActs := len(p.Actions[r])
	g := &an.j.groups[gi]
	choiceActions := make([][]int, g.radix())
	read := map[int]bool{}
	for c, m := range g.members {
		a := int(an.j.vars[m].bIn - an.s.base[r])
		choiceActions[c] = []int{a}
		read[a] = true
	}
	if g.other {
		for a := range nActs {
			if !read[a] {
				choiceActions[len(g.members)] = append(choiceActions[len(g.members)], a)
			}
		}
	}
	pending := grounding.GroupBy(allChoices(g.radix()), func(c int) string {
		if keys == nil {
			return ""
		}
		return keys[c]
	})
	var classes [][]int
	emit := func(cs []int) {
		var class []int
		for _, c := range cs {
			class = append(class, choiceActions[c]...)
		}
		slices.Sort(class)
		classes = append(classes, class)
	}
	var hk []string                      // the hints' outputs per choice, once computed
	var hasher *grounding.CofactorHasher // on the base of the other choice, literal none
	var none uint32
	var wsim *grounding.ConeSim // simulator of the witness neighbourhoods
	var sk *sliceKeys           // the choices' cofactors slice by slice, as computed
	for len(pending) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cand := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if len(cand) == 1 || exact {
			emit(cand)
			continue
		}
		// Choices whose cofactor circuits simplify to the same one are
		// equal by structural hashing; SAT compares one representative
		// of each such group.
		if hasher == nil {
			hasher = grounding.NewCofactorHasher(an.cn)
			none = an.setChoiceBase(hasher, gi)
		}
		groups := an.cofactorGroupsOn(hasher, gi, none, cand)
		reps := make([]int, len(groups))
		for i, grp := range groups {
			reps[i] = grp[0]
		}
		// Representatives equal on every slice of the other roles' moves
		// are merged, when there are enough of them for the miter to be
		// hard (see sliceMinReps).
		if len(reps) >= sliceMinReps {
			if sk == nil {
				// Every choice a candidate class may ask about: those of
				// cand and of the pending classes as big.
				sk = an.newSliceKeys(gi)
				need := [][]int{cand}
				for _, p := range pending {
					if len(p) >= sliceMinReps {
						need = append(need, p)
					}
				}
				sk.prepare(need)
			}
			if parts := sk.group(reps); parts != nil && len(parts) < len(reps) {
				merged := make([][]int, len(parts))
				for i, part := range parts {
					for _, r := range part {
						merged[i] = append(merged[i], groups[slices.Index(reps, r)]...)
					}
				}
				groups, reps = merged, reps[:len(parts)]
				for i, grp := range groups {
					reps[i] = grp[0]
				}
			}
		}
		if len(reps) == 1 {
			emit(cand)
			continue
		}
		// Before the first SAT call, the hints' outputs split the
		// candidates further.
		if hintKeys != nil && hk == nil {
			if hk = hintKeys(openChoices(reps, pending)); hk == nil {
				hintKeys = nil
			}
		}
		if hk != nil {
			if parts := grounding.GroupBy(cand, func(c int) string { return hk[c] }); len(parts) > 1 {
				pending = append(pending, parts...)
				continue
			}
		}
		if !useSAT {
			return nil, ErrNeedsSAT
		}
		c, assign, err := an.choiceDiffers(ctx, gi, reps[0], reps[1:], true)
		if err != nil {
			return nil, err
		}
		if c < 0 {
			emit(cand) // every representative equals the first
			continue
		}
		// The witness separates reps[0] from c. Choices that differ there
		// often differ near it too: the representatives are split by
		// their outputs on the witness and on random neighbours of it,
		// and each part is settled again.
		if wsim == nil {
			wsim = grounding.NewConeSim(an.cn, witnessWords)
		}
		keys := an.choiceOutputs(wsim, an.witnessVectors(gi, assign, witnessWords), 64*witnessWords, gi)
		if keys[c] == keys[reps[0]] {
			return nil, fmt.Errorf("satcheck: action classes: SAT's witness does not separate choices %d and %d", reps[0], c)
		}
		parts := grounding.GroupBy(reps, func(r int) string { return keys[r] })
		for _, part := range parts {
			var members []int
			for _, r := range part {
				members = append(members, groups[slices.Index(reps, r)]...)
			}
			pending = append(pending, members)
		}
	}
	slices.SortFunc(classes, func(x, y []int) int { return x[0] - y[0] })
	return classes, nil
}

// openChoices counts the choices whose classes are still in question
// when the candidate class of representatives reps needs SAT: reps and
// the members of every pending class of two or more (brawl: 2 of 2,693
// choices in one class, whose cofactors hash to 2 circuits;
// four_way_battle: a few in each of up to 72 pending classes).
func openChoices(reps []int, pending [][]int) int {
	n := len(reps)
	for _, p := range pending {
		if len(p) > 1 {
			n += len(p)
		}
	}
	return n
}

// witnessWords is the number of 64-sample words of a witness's
// neighbourhood (settleClasses).
const witnessWords = 4

// witnessVectors returns w words of samples of the joint variables near
// assign: sample 0 is assign itself; in the others each free proposition
// is flipped with probability 1/8 and each other role re-chooses with
// probability 1/4. Group gi's members are left false (choiceOutputs sets
// them).
func (an *analysis) witnessVectors(gi int, assign []bool, w int) []uint64 {
	j := an.j
	vec := make([]uint64, len(j.vars)*w)
	for v, b := range assign {
		if b {
			fill64(vec[v*w:(v+1)*w], ^uint64(0))
		}
	}
	keep := ^uint64(1) // bit 0 of word 0: assign unchanged
	for _, v := range j.props {
		for i := range w {
			flip := an.rng.Uint64() & an.rng.Uint64() & an.rng.Uint64()
			if i == 0 {
				flip &= keep
			}
			vec[int(v)*w+i] ^= flip
		}
	}
	for g2 := range j.groups {
		if g2 == gi {
			continue
		}
		g := &j.groups[g2]
		for bit := 1; bit < 64*w; bit++ {
			if an.rng.IntN(4) != 0 {
				continue
			}
			for _, m := range g.members {
				vec[int(m)*w+bit/64] &^= 1 << (bit % 64)
			}
			if c := an.rng.IntN(g.radix()); c < len(g.members) {
				vec[int(g.members[c])*w+bit/64] |= 1 << (bit % 64)
			}
		}
	}
	return vec
}

// cofactorGroupsWith is cofactorGroups with each choice's cofactor rebuilt
// from the one with no member made, over the made member's fanout only
// (grounding.CofactorHasher.LiteralWith): the same literals, hence the same
// groups.
func (an *analysis) cofactorGroupsWith(h *grounding.CofactorHasher, gi int, set []int) [][]int {
	return an.cofactorGroupsOn(h, gi, an.setChoiceBase(h, gi), set)
}

// setChoiceBase makes group gi's "other" choice (no member made) h's base
// for LiteralWith and returns its literal.
func (an *analysis) setChoiceBase(h *grounding.CofactorHasher, gi int) uint32 {
	g := &an.j.groups[gi]
	member := make(map[int]bool, len(g.members)) // cone inputs of the members
	for _, m := range g.members {
		member[int(m)] = true
	}
	return h.SetBase(func(k int) (bool, bool) { return false, member[k] })
}

// cofactorGroupsOn is cofactorGroupsWith on a hasher whose base group gi's
// other choice already is (setChoiceBase returned none): settleClasses
// groups every candidate class of one role on one base, and setting it
// again per class cost a pass over the cone each (blobwars: 2.2 of its
// 7.5 CPU s in action classes).
func (an *analysis) cofactorGroupsOn(h *grounding.CofactorHasher, gi int, none uint32, set []int) [][]int {
	g := &an.j.groups[gi]
	return grounding.GroupBy(set, func(c int) uint32 {
		if c == len(g.members) {
			return none // the "other" choice: no member made
		}
		return h.LiteralWith(int(g.members[c]), true)
	})
}

// hintedVectors returns the hints that are points of the space as
// simulation vectors (w words per joint variable, one sample each, padded
// with random samples); w is 0 when there are none.
func (an *analysis) hintedVectors(hints [][]int) (vec []uint64, w int) {
	j, cn := an.j, an.cn
	var ok [][]int32 // the hints' true joint variables
	for _, h := range hints {
		var vs []int32
		for _, in := range h {
			if k, found := slices.BinarySearch(cn.Inputs, int32(in)); found {
				vs = append(vs, int32(k))
			}
		}
		if j.inSpace(vs) {
			ok = append(ok, vs)
		}
	}
	w = (len(ok) + 63) / 64
	if w == 0 {
		return nil, 0
	}
	vec = j.randomVectors(w, nil, an.rng)
	for i, vs := range ok {
		bit := i
		for v := range j.vars {
			vec[v*w+bit/64] &^= 1 << (bit % 64)
		}
		for _, v := range vs {
			vec[int(v)*w+bit/64] |= 1 << (bit % 64)
		}
	}
	return vec, w
}

// inSpace reports whether the joint variables vs (the true ones) are a
// point of j's space: per group at most one member, and one when the role
// has no other action.
func (j *joint) inSpace(vs []int32) bool {
	on := make([]int, len(j.groups))
	for _, v := range vs {
		if g := j.group[v]; g >= 0 {
			on[g]++
		}
	}
	for gi, g := range j.groups {
		if on[gi] > 1 || on[gi] == 0 && !g.other {
			return false
		}
	}
	return true
}
