package satcheck

import (
	"context"

	"github.com/gamequiv/gamequiv/grounding"
)

// ActionClasses partitions the actions of role r by what f, a literal of
// p's circuit, does when r makes them: two actions are in one class when f
// with r doing the one is the same function of the state and of the other
// roles' moves as with r doing the other (every role doing exactly one
// action). The actions f does not read are all alike, so they share a
// class (with the read actions equal to them). Classes hold action indexes
// of r, ascending, and are ordered by their first action.
//
// The partition is a property of f's semantics, so every SCGE maps the
// classes of f onto those of its image. A small input space (at most
// 2^16 rows) is simulated whole, which decides it; otherwise random
// simulation separates most classes and SAT proves the members of each
// remaining class equal (one call per class, and one more per member
// split off).
func ActionClasses(ctx context.Context, p *grounding.Program, f grounding.Lit, r int) ([][]int, error) {
	cs, err := ActionClassesIncremental(ctx, p, f, []int{r})
	if err != nil {
		return nil, err
	}
	return cs[0], nil
}

// choiceDiffers asks SAT whether f can differ between the role of group gi
// making choice c1 and making some choice of set, everything else equal;
// it returns such a choice of set and the assignment of the joint
// variables (with c1 made) where f differs, or -1 when there is none.
// With shared, both sides are encoded by sharedCones: they differ only in
// the role's choice, so only the fanout of its actions is encoded twice
// and the x side's fixed choice folds away.
func (an *analysis) choiceDiffers(ctx context.Context, gi, c1 int, set []int, shared bool) (int, []bool, error) {
	pool, opt := defaults()
	j, cn := an.j, an.cn
	g := &j.groups[gi]
	z := size{vars: 1 + int64(len(j.vars)) + int64(len(g.members)), clauses: 3 + 2*int64(len(g.members))}
	z.cone(cn)
	z.cone(cn)
	for i, gr := range j.groups {
		n := 1
		if i == gi {
			n = 2
		}
		for range n {
			z.amo(len(gr.members))
			if !gr.other {
				z.clauses++
			}
		}
	}
	if err := z.check(opt); err != nil {
		return -1, nil, err
	}
	// The members of group gi are constants on the x side (choice c1)
	// and, outside set, on the y side: constants, not unit clauses, which
	// gophersat's parser would propagate through every clause one by one.
	f := newCNF()
	for range j.vars {
		f.newVar()
	}
	const trueLit = -falseVar
	pos := map[int32]int{} // joint variable -> position in g.members
	for k, m := range g.members {
		pos[m] = k
	}
	in := make([]bool, g.radix())
	for _, c := range set {
		in[c] = true
	}
	x := func(k int) int {
		if p, ok := pos[int32(k)]; ok {
			if p == c1 {
				return trueLit
			}
			return falseVar
		}
		return k + 2
	}
	ys := map[int32]int{}
	var yg []int    // literals of the y side's members in set
	var ygPos []int // their positions in g.members
	for k, m := range g.members {
		if in[k] {
			ys[m] = f.newVar()
			yg = append(yg, ys[m])
			ygPos = append(ygPos, k)
		}
	}
	y := func(k int) int {
		if l, ok := ys[int32(k)]; ok {
			return l
		}
		if _, ok := pos[int32(k)]; ok {
			return falseVar // a member outside set
		}
		return k + 2
	}
	// y makes a choice of set: unless the "other" choice is in it, some
	// member in set is on.
	if !g.other || !in[len(g.members)] {
		f.add(yg...)
	}
	var fx, fy int
	if shared {
		roots := f.sharedCones(cn, x, y)
		fx, fy = roots[0], roots[1]
		if fx == fy {
			return -1, nil, nil // the same literal: equal everywhere
		}
	} else {
		fx, fy = f.cone(cn, x), f.cone(cn, y)
	}
	f.add(fx, fy)
	f.add(-fx, -fy)
	for i := range j.groups {
		if i == gi {
			f.amo(yg)
			continue
		}
		gr := &j.groups[i]
		ls := make([]int, len(gr.members))
		for k, m := range gr.members {
			ls[k] = int(m) + 2
		}
		f.group(gr, ls)
	}
	sat, model, err := pool.solve(ctx, f)
	if err != nil || !sat {
		return -1, nil, err
	}
	assign := make([]bool, len(j.vars))
	for k := range assign {
		if p, ok := pos[int32(k)]; ok {
			assign[k] = p == c1
		} else {
			assign[k] = model[k+1]
		}
	}
	for i, l := range yg {
		if model[l-1] {
			return ygPos[i], assign, nil
		}
	}
	return len(g.members), assign, nil // no member: the "other" choice
}

func fill64(dst []uint64, v uint64) {
	for i := range dst {
		dst[i] = v
	}
}
