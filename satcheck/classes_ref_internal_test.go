package satcheck

import (
	"context"
	"fmt"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// referenceActionClasses is the first implementation of ActionClasses,
// kept as the tests' reference on functions too big for brute force:
// simulation of the whole cone once per choice, structural cofactor groups,
// and SAT on a miter whose two sides are encoded apart. ActionClasses
// (ActionClassesIncremental) must give the same classes by cheaper paths.
func referenceActionClasses(ctx context.Context, p *grounding.Program, f grounding.Lit, r int) ([][]int, error) {
	if r < 0 || r >= len(p.Roles) {
		return nil, fmt.Errorf("satcheck: role %d out of range [0,%d)", r, len(p.Roles))
	}
	an, err := analyze(p, f)
	if err != nil {
		return nil, err
	}
	nActs := len(p.Actions[r])
	all := make([]int, nActs)
	for a := range all {
		all[a] = a
	}
	gi := slices.IndexFunc(an.j.groups, func(g group) bool { return int(g.role) == r })
	if gi < 0 {
		return [][]int{all}, nil
	}
	g := &an.j.groups[gi]
	// choiceActions[c]: the actions of choice c; the last choice, when the
	// role has actions f does not read, is all of those.
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
	// Simulation: choices with different outputs are in different classes.
	// A small input space is simulated whole, which decides the classes
	// with no SAT call.
	exact := an.small()
	var base []uint64
	w, rows := an.w, 64*an.w
	switch {
	case exact:
		base, w, rows = an.j.exhaustiveVectors()
	case supportSim && an.w > 0:
		if an.sim == nil {
			an.sim = an.j.randomVectors(an.w, nil, an.rng)
		}
		base = an.sim
	}
	pending := grounding.GroupBy(allChoices(g.radix()), func(c int) string {
		if base == nil {
			return ""
		}
		return an.simChoice(base, w, rows, gi, c)
	})
	// SAT: one call proves a candidate class's members equal to its first,
	// or names a member that differs, which is split off with those
	// simulation could not tell from it.
	var classes [][]int
	var hasher *grounding.CofactorHasher
	for len(pending) > 0 {
		cand := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		same, rest := slices.Clone(cand), []int(nil)
		if len(same) > 1 && !exact {
			// Choices whose cofactor circuits simplify to the same one (a
			// move's other arguments feed nothing f reads) are equal by
			// structural hashing; SAT only compares one representative of
			// each such group.
			if hasher == nil {
				hasher = grounding.NewCofactorHasher(an.cn)
			}
			groups := an.cofactorGroups(hasher, gi, same)
			reps := make([]int, len(groups))
			for i, grp := range groups {
				reps[i] = grp[0]
			}
			var split []int
			for len(reps) > 1 {
				c, assign, err := an.choiceDiffers(ctx, gi, reps[0], reps[1:], false)
				if err != nil {
					return nil, err
				}
				if c < 0 {
					break
				}
				// The assignment where reps[0] and c differ separates every
				// representative whose output there differs from reps[0]'s.
				out := an.evalChoices(gi, assign, reps)
				if out[slices.Index(reps, c)] == out[0] {
					return nil, fmt.Errorf("satcheck: action classes: SAT's witness does not separate choices %d and %d", reps[0], c)
				}
				kept := reps[:1]
				for i, r := range reps[1:] {
					if out[i+1] != out[0] {
						split = append(split, r)
					} else {
						kept = append(kept, r)
					}
				}
				reps = kept
			}
			same = same[:0]
			for _, grp := range groups {
				if slices.Contains(split, grp[0]) {
					rest = append(rest, grp...)
				} else {
					same = append(same, grp...)
				}
			}
		}
		if len(rest) > 0 {
			pending = append(pending, rest)
		}
		var class []int
		for _, c := range same {
			class = append(class, choiceActions[c]...)
		}
		slices.Sort(class)
		classes = append(classes, class)
	}
	slices.SortFunc(classes, func(x, y []int) int { return x[0] - y[0] })
	return classes, nil
}

// cofactorGroups groups the choices of set by the circuit f's cofactor
// rebuilds to when the role of group gi makes the choice: choices of one
// group are equal for f. Groups are in order of their first choice.
func (an *analysis) cofactorGroups(h *grounding.CofactorHasher, gi int, set []int) [][]int {
	g := &an.j.groups[gi]
	member := map[int]int{} // cone input -> position in g.members
	for k, m := range g.members {
		member[int(m)] = k
	}
	return grounding.GroupBy(set, func(c int) uint32 {
		return h.Literal(func(k int) (bool, bool) {
			pos, ok := member[k]
			return pos == c, ok
		})
	})
}

// evalChoices evaluates f at the assignment of the joint variables with
// the role of group gi making each choice of choices (64 at a time, one
// bit each), and returns the outputs.
func (an *analysis) evalChoices(gi int, assign []bool, choices []int) []bool {
	g := &an.j.groups[gi]
	member := map[int32]int{}
	for k, m := range g.members {
		member[m] = k
	}
	out := make([]bool, len(choices))
	var in []uint64
	for lo := 0; lo < len(choices); lo += 64 {
		batch := choices[lo:min(lo+64, len(choices))]
		in = in[:0]
		for k, v := range assign {
			var word uint64
			if pos, ok := member[int32(k)]; ok {
				for b, c := range batch {
					if c == pos {
						word |= 1 << b
					}
				}
			} else if v {
				word = ^uint64(0)
			}
			in = append(in, word)
		}
		res, _ := an.cn.Simulate(1, func(k int) []uint64 { return in[k : k+1] }, nil, nil)
		for b := range batch {
			out[lo+b] = res[0]>>b&1 == 1
		}
	}
	return out
}

// simChoice evaluates f on the first rows of the vectors base (w words
// per variable) with the role of group gi making choice c, and returns the
// outputs as a string.
func (an *analysis) simChoice(base []uint64, w, rows, gi, c int) string {
	j := an.j
	x := slices.Clone(base)
	g := &j.groups[gi]
	for k, m := range g.members {
		dst := x[int(m)*w : int(m+1)*w]
		if k == c {
			fill64(dst, ^uint64(0))
		} else {
			clear(dst)
		}
	}
	out, _ := an.cn.Simulate(w, func(k int) []uint64 { return x[k*w : (k+1)*w] }, nil, nil)
	if r := rows % 64; r != 0 {
		out[rows/64] &= 1<<r - 1 // rows past the space are not inputs
	}
	b := make([]byte, 0, 8*len(out))
	for _, o := range out {
		for s := 0; s < 64; s += 8 {
			b = append(b, byte(o>>s))
		}
	}
	return string(b)
}
