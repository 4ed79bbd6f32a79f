package groundgraph

import (
	"cmp"
	"context"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// Action classes by BDDs. Actions a and b of role r are in one class when
// f with r doing a is the same function of the state and of the other
// roles' moves as f with r doing b (actions.go). One BDD of f, with every
// proposition and every read action a variable, ANDed with the space
// (each role does one action: one of its read ones, or at most one when
// it has others), holds every choice's cofactor: r's variables are
// consecutive levels, so f with r doing a is reached by walking each path
// through them along a's assignment, and two choices give the same
// function exactly when every walk ends on the same node (roleClasses).
// Reduced ordered BDDs are canonical, so this is exact, and its cost does
// not grow with the joint choices of the roles: tttcc4's cells read about
// 290 moves of each of three roles (2.4e7 joint choices, far beyond
// supportByChoice), and satcheck.ActionClassesHinted proved each of their
// classes with a SAT call on a miter of the cone (10.7 of the 15.6 CPU s
// of its graph phase).

// Per-call node bounds of classesByBDD: 231 of tttcc4's 240 shapes of
// cells (211 to 346 gates) need at most 27,005 nodes, the other 9 blow
// past 500 k. A function whose BDDs outgrow the bound goes to satcheck,
// and the nodes it made are lost: bddClassMaxNodes caps a call whatever
// its cone (attritionWar's 202 score functions, cones of 2,800 to 10,700
// gates, all blow up in their first few hundred gates; at 64 nodes a gate
// each made 200 k to 524 k nodes before satcheck). The bound grows with
// the cone from a small minimum, since a small cone's SAT call is cheap:
// slidingpieces' 14 shapes that need SAT (57-79 gates, 0.5 ms of SAT
// each) all blow up, and at 16 k nodes plus 64 a gate their BDDs cost
// three times what they cost at 4 k plus 128 a gate (the same bound from
// 192 gates on). The cache stays at 64 entries a gate: at 128 it took
// the full 12 MB for every cone of 128 gates or more (tttcc4: action
// classes +18% CPU, peak RSS 57 -> 105 MB).
const (
	bddClassNodesPerGate = 128
	bddClassMinNodes     = 1 << 12
	bddClassMaxNodes     = 1 << 15
	bddClassCachePerGate = 64
)

// bddClassFailSlack: a Build stops trying BDDs for action classes once
// they have outgrown their bound this many times more than twice the
// functions they decided (effort only: satcheck decides the rest, exactly
// as BDDs would). attritionWar's BDDs outgrow the bound on nearly every
// function: its action classes took 26.5 CPU s before BDDs and 51.1 with
// them on every function; tttcc4's fit on 231 of 240.
const bddClassFailSlack = 16

// bddClassFirstSlack: a Build tries BDDs before satcheck's simulation
// once they have decided this many functions more than twice those the
// simulation settled (classesBySATOrBDD; effort only). Small, since each
// simulation before a BDD that fits is wasted (tttcc4: about 20 ms of
// CPU a cell shape at 870 inputs); slidingpieces' BDDs fit none, and
// four_way_battle needs SAT on one function of 44.
const bddClassFirstSlack = 4

// classesByBDD returns, for each role of roles (ascending, each read by
// cn), the action classes of cn's root as satcheck.ActionClassesHinted
// gives them (each class ascending, classes by their first action), or
// errBDDLimit.
func (d *supportBDD) classesByBDD(ctx context.Context, p *grounding.Program, cn *cone, roles []int) ([][][]int, error) {
	if err := d.beginAtMost(ctx, cn, bddClassNodesPerGate, bddClassMinNodes, bddClassMaxNodes, bddClassCachePerGate); err != nil {
		return nil, err
	}
	nProps := len(p.Props)
	nP, _ := slices.BinarySearch(cn.Inputs, int32(nProps))
	// Every input is a variable: a proposition at its level, an action
	// below every proposition, in input order (a role's actions are
	// consecutive, so its constraint is a chain).
	vars := make([]bddEdge, len(cn.Inputs))
	for k, in := range cn.Inputs {
		v := int32(in)
		if k < nP {
			v = d.level[in]
		}
		var err error
		if vars[k], err = d.d.Var(v); err != nil {
			return nil, err
		}
	}
	// The space: each role read does one of its read actions, or at most
	// one when it has others. Roles are ANDed from the last, whose
	// variables are lowest, so each AND only extends a chain.
	space := bddTrue
	for k := len(cn.Inputs); k > nP; {
		r, _ := p.InputOf(int(cn.Inputs[k-1]))
		lo, hi := roleSpan(p, cn, r)
		c, err := d.oneOf(vars[lo:hi], hi-lo < len(p.Actions[r]))
		if err != nil {
			return nil, err
		}
		if space, err = d.d.And(c, space); err != nil {
			return nil, err
		}
		k = lo
	}
	// The cone, every input a variable, on the space.
	lit := make([]bddEdge, cn.NumSlots())
	lit[0] = bddFalse
	copy(lit[1:], vars)
	first := cn.FirstGate()
	for gi := range cn.Gates {
		if gi%bddGateCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		e, err := d.andFanin(cn, gi, lit)
		if err != nil {
			return nil, err
		}
		lit[first+gi] = e
	}
	f, err := d.d.And(grounding.RootOf(cn, lit), space)
	if err != nil {
		return nil, err
	}
	out := make([][][]int, len(roles))
	for ri, r := range roles {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lo, hi := roleSpan(p, cn, r)
		out[ri] = d.roleClasses(p, cn, f, r, lo, hi)
	}
	return out, nil
}

// roleClasses returns the action classes of role r (read at cone inputs
// lo to hi-1) in f, a BDD whose variables are cn's inputs (an action's
// level its circuit input) and which is false off the space.
//
// f with r doing action a is f with a's variable true and r's other
// variables false. r's variables are consecutive levels (its actions are
// consecutive inputs), so every path of f crosses them in one stretch:
// f with r doing a is f with each cut node (a node at r's levels whose
// parent is above them, or f itself) replaced by the node that the walk
// along a's assignment leaves r's levels at. That walk makes no node, and
// two choices give the same function exactly when they reach the same
// node from every cut node, since the nodes above the cut are a decision
// tree over the levels above r's and each cut node is reached on some
// path.
func (d *supportBDD) roleClasses(p *grounding.Program, cn *cone, f bddEdge, r, lo, hi int) [][]int {
	base := p.ActionInputBase(r)
	top, end := int32(base), int32(base+len(p.Actions[r])) // r's levels
	inBlock := func(e bddEdge) bool {
		v, ok := d.d.Level(e)
		return ok && v >= top && v < end
	}
	// zero follows e's false branches out of r's levels.
	zero := func(e bddEdge) bddEdge {
		for inBlock(e) {
			e, _ = d.d.Cofactors(e)
		}
		return e
	}
	// The cut nodes, by a walk of the nodes above r's levels.
	var cut []bddEdge
	seen := map[bddEdge]bool{}
	stack := []bddEdge{f}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[e] {
			continue
		}
		seen[e] = true
		if v, ok := d.d.Level(e); !ok || v >= top {
			if inBlock(e) {
				cut = append(cut, e) // below r's levels: the same for every choice
			}
			continue
		}
		l, h := d.d.Cofactors(e)
		stack = append(stack, l, h)
	}
	// Choices: the read actions (inputs lo..hi-1), then "another
	// action" when r has others. A choice whose variable is not on a cut
	// node's false path reaches where "another action" does; each cut
	// node splits the choices on its false path from the others by the
	// node they reach, and keeps the rest in their classes.
	n := hi - lo
	if n < len(p.Actions[r]) {
		n++
	}
	choiceAt := make([]int32, end-top) // level - top -> read choice
	for k := lo; k < hi; k++ {
		choiceAt[cn.Inputs[k]-top] = int32(k - lo)
	}
	class := make([]int, n)
	next := 1 // the next class id
	ids := map[[2]uint64]int{}
	for _, c := range cut {
		z := zero(c)
		clear(ids)
		for e := c; inBlock(e); {
			v, _ := d.d.Level(e)
			l, h := d.d.Cofactors(e)
			if rh := zero(h); rh != z {
				i := choiceAt[v-top]
				key := [2]uint64{uint64(class[i]), uint64(rh)}
				id, ok := ids[key]
				if !ok {
					id = next
					next++
					ids[key] = id
				}
				class[i] = id
			}
			e = l
		}
	}
	// The classes of actions: an unread action is in the class of
	// "another action".
	var others []int
	if n > hi-lo {
		read := make([]bool, len(p.Actions[r]))
		for k := lo; k < hi; k++ {
			read[int(cn.Inputs[k])-base] = true
		}
		for a, ok := range read {
			if !ok {
				others = append(others, a)
			}
		}
	}
	byID := map[int]int{}
	var cs [][]int
	for i, id := range class {
		ci, ok := byID[id]
		if !ok {
			ci = len(cs)
			byID[id] = ci
			cs = append(cs, nil)
		}
		if i < hi-lo {
			cs[ci] = append(cs[ci], int(cn.Inputs[lo+i])-base)
		} else {
			cs[ci] = append(cs[ci], others...)
		}
	}
	for _, c := range cs {
		slices.Sort(c)
	}
	slices.SortFunc(cs, func(x, y []int) int { return x[0] - y[0] })
	return cs
}

// oneOf returns the BDD of "exactly one of xs" (consecutive variables,
// ascending levels), or of "at most one" when atMost.
func (d *supportBDD) oneOf(xs []bddEdge, atMost bool) (bddEdge, error) {
	none, one := bddTrue, bddFalse // over the variables after the current one
	for i := len(xs) - 1; i >= 0; i-- {
		x := xs[i]
		// one: x and none after it, or not x and one after it.
		a, err := d.d.And(x, none)
		if err != nil {
			return 0, err
		}
		b, err := d.d.And(x^1, one)
		if err != nil {
			return 0, err
		}
		if one, err = d.d.Or(a, b); err != nil {
			return 0, err
		}
		if none, err = d.d.And(x^1, none); err != nil {
			return 0, err
		}
	}
	if atMost {
		return d.d.Or(one, none)
	}
	return one, nil
}

// bddGateCheckEvery: gates between two looks at the context.
const bddGateCheckEvery = 16

// andFanin is grounding.BDD.AndFanin with the fanin ANDed as a balanced
// tree over the fanin sorted by top variable, lowest first: a gate over
// hundreds of action variables (tttcc4's cell "no move touches it") ANDed
// in fanin order made a node per fanin and per variable below it.
func (d *supportBDD) andFanin(cn *cone, gi int, lit []bddEdge) (bddEdge, error) {
	in := d.fanin[:0]
	for _, l := range cn.GateFanin(gi) {
		e := lit[l>>1] ^ bddEdge(l&1)
		if e == bddFalse {
			d.fanin = in
			return bddFalse, nil
		}
		in = append(in, e)
	}
	d.fanin = in
	slices.SortFunc(in, func(x, y bddEdge) int {
		vx, _ := d.d.Level(x)
		vy, _ := d.d.Level(y)
		return cmp.Compare(vy, vx)
	})
	// Pairs of neighbours in that order, then pairs of pairs: a chain
	// ANDed one fanin at a time is rebuilt above each fanin whose BDD
	// reaches below it (quadratic in the fanin).
	for len(in) > 1 {
		n := 0
		for i := 0; i < len(in); i += 2 {
			e := in[i]
			if i+1 < len(in) {
				var err error
				if e, err = d.d.And(e, in[i+1]); err != nil || e == bddFalse {
					return e, err
				}
			}
			in[n] = e
			n++
		}
		in = in[:n]
	}
	if len(in) == 0 {
		return bddTrue, nil
	}
	return in[0], nil
}
