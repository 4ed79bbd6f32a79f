package grounding

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// Demand-driven domains: a magic-set rewrite of the domain computation.
//
// The domain of a fluent relation is an over-approximation of its atoms
// that ignores negation; for an auxiliary relation with many arguments it
// can be far larger than what the game ever asks. chess's 7-ary
// threatened_with_capture is the case in point: its rules range over every
// owner, cell, threatened cell and ignored cell (MaxAtoms), while the legal
// rules that ask for it only ever ask about the moves they consider.
//
// Each rule body gets a sideways-information-passing order (sip): the
// caller's own demand first, then its positive literals (those of static
// and keyword relations before auxiliary ones, each most bound arguments
// first), then its negative literals. For an auxiliary relation R
// (no keyword, not recursive) a demand relation D_R gets, per call of R, the
// rule D_R(args) :- (the literals before the call in the caller's sip), and
// every rule of R gets D_R(head args) as a positive literal; args are the
// argument positions that every call binds by those literals (threatened
// calls rook_threatens with the attacker's cell free). Callers are rewritten
// before the relations they call, so demand passes down chains of auxiliary
// relations (legal -> threatened_with_capture -> queen_threatens ->
// queen_move_ig).
//
// This is the magic-set rewrite: by induction along the sip, every atom that
// a true rule instance of a demanded head uses is demanded and, being true,
// derived. So R keeps every atom that a keyword function can reach and the
// ground Program is the same. D_R is a pure domain filter: in the circuit it
// stands for true.
//
// The demand positions are chosen from the rules, so a demand can hold far
// more atoms than the relation it restricts: chess's rook_move_ig(u, v, x,
// y, ix, iy) is demanded on the rook's cell (u, v), bound by (true (cell ?u
// ?v ?rook)), whose domain has every rook on every cell, and on (x, y, ix,
// iy) from its caller's demand; D_rook_move_ig is the product of the 64
// cells and 4,096 demanded tuples, 262,144 atoms, for 57,344 atoms of
// rook_move_ig. When the domain phase runs out of atoms (MaxAtoms), each
// large demand relation that has outgrown its relation is measured
// (demandFactors): if it is the product of its projections on groups of
// positions, Ground starts over with one demand relation per group, each fed
// by the same calls and read together wherever D_R was. The product of the
// groups' projections contains D_R whatever the measurement saw (a subset of
// the final D_R, at MaxAtoms), so the rewrite stays a magic-set rewrite with
// a larger demand, and where D_R is the product it is the same filter:
// 4,096 + 64 atoms instead of 262,144. The same measurement runs while
// the domain phase grows (measureDemand, measureProduct): a demand
// relation is measured once it reaches MaxAtoms/demandFactorShare atoms
// and again each time it doubles, and the first outgrown product stops the
// pass at once, so that Ground starts over before spending a pass up to
// MaxAtoms. A game none of whose demand relations reaches that size never
// starts over.

// call is one occurrence of a relation in a rule body.
type call struct {
	rule *nrule
	lit  int
}

// sipBefore returns, for each body literal of r, the literals that come
// before it in r's sip. The order is chosen from the bound arguments, so it
// depends on body order only among literals that bind alike.
func (c *compiler) sipBefore(r *nrule) [][]int {
	before := make([][]int, len(r.body))
	bound := make([]bool, len(r.varNames))
	var done []int
	// The demand literal, if any, is the last one (addDemand appends it):
	// it comes first.
	for i, b := range r.body {
		if b.kind == bPos && b.demand {
			before[i] = nil
			done = append(done, i)
			for _, a := range b.args {
				markBound(bound, a)
			}
		}
	}
	used := make([]bool, len(r.body))
	for _, i := range done {
		used[i] = true
	}
	// Relations whose domains need no demand (static ones, keywords) come
	// before auxiliary ones, so that the calls of auxiliary relations get as
	// many bound arguments as the body can give them (bishop_threatens binds
	// the bishop's cell from true (cell ...) before it calls bishop_move_ig).
	aux := func(b basic) int {
		if rel := c.rels[b.rel]; rel.static || rel.kw != kwNone {
			return 0
		}
		return 1
	}
	for {
		best, bestKnown, bestTotal := -1, -1, 0
		for i, b := range r.body {
			if used[i] || b.kind != bPos {
				continue
			}
			known, total := countKnown(bound, b.args)
			if best < 0 || aux(b) < aux(r.body[best]) ||
				aux(b) == aux(r.body[best]) && known*max(bestTotal, 1) > bestKnown*max(total, 1) {
				best, bestKnown, bestTotal = i, known, total
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		before[best] = slices.Clone(done)
		done = append(done, best)
		for _, a := range r.body[best].args {
			markBound(bound, a)
		}
	}
	for i := range r.body {
		if !used[i] {
			before[i] = slices.Clone(done) // negative literals and checks: after every positive one
		}
	}
	return before
}

// demandPositions returns the argument positions of fluent relation rel on
// which its domain can be restricted to its demand: rel must be an auxiliary
// relation (no keyword) whose component is itself alone, and a position
// counts when in every call its variables are bound by the literals before
// the call in the caller's sip. A recursive call (merrills' count_loop) has
// rel's own demand literal first in its sip, over the positions being
// decided: they shrink until every call binds them. None means no
// restriction.
func (c *compiler) demandPositions(rel int32, sccs [][]int32, calls []call, sips map[*nrule][][]int) []int {
	r := c.rels[rel]
	if r.static || r.kw != kwNone || r.demand || len(r.rules) == 0 || r.arity == 0 || len(calls) == 0 {
		return nil
	}
	if comp := sccs[r.scc]; len(comp) > 1 {
		return nil
	}
	ok := make([]bool, r.arity)
	for i := range ok {
		ok[i] = true
	}
	boundAt := func(cl call, before []int, demand []pat) {
		bound := make([]bool, len(cl.rule.varNames))
		for _, a := range demand {
			markBound(bound, a)
		}
		for _, j := range before {
			if j < len(cl.rule.body) {
				for _, a := range cl.rule.body[j].args {
					markBound(bound, a)
				}
			}
		}
		for i, a := range cl.rule.body[cl.lit].args {
			ok[i] = ok[i] && patBound(bound, a)
		}
	}
	for _, cl := range calls {
		if cl.rule.head != rel {
			boundAt(cl, sips[cl.rule][cl.lit], nil)
		}
	}
	for changed := true; changed; {
		changed = false
		before := positions(ok)
		for _, cl := range calls {
			if cl.rule.head == rel && len(before) > 0 {
				// The sip of the recursive rule with its demand literal to come.
				nr := cl.rule
				demand := pick(nr.headArgs, before)
				nr.body = append(nr.body, basic{kind: bPos, rel: -1, args: demand, demand: true})
				sip := c.sipBefore(nr)
				nr.body = nr.body[:len(nr.body)-1]
				boundAt(cl, sip[cl.lit], demand)
			}
		}
		changed = len(positions(ok)) != len(before)
	}
	return positions(ok)
}

func positions(ok []bool) []int {
	var pos []int
	for i, o := range ok {
		if o {
			pos = append(pos, i)
		}
	}
	return pos
}

func pick(args []pat, pos []int) []pat {
	out := make([]pat, len(pos))
	for k, i := range pos {
		out[k] = args[i]
	}
	return out
}

// Factoring demand (see above): a demand relation is measured when it holds
// at least MaxAtoms/demandFactorShare atoms, a share of the limit large
// enough to matter, and more than demandOutgrowth times the atoms of the
// relation it restricts; demandFactorArity bounds the arity measured and
// demandFactorGroup the size of a group split off (a cell's two
// coordinates), so that each group split off costs at most 2 x arity + 1
// counts of a projection, and a relation that is no product one such
// round. demandFactorPasses bounds how
// often Ground starts over; each pass factors at least one more relation.
const (
	demandFactorShare  = 64
	demandOutgrowth    = 2
	demandFactorArity  = 10
	demandFactorGroup  = 2
	demandFactorPasses = 4
	// demandProductSlack: a demand relation still growing (measureDemand)
	// is split when the product of its groups' projections holds at most
	// this many times its atoms; the last atoms of a product arrive late
	// (chess's rook_move_ig demand at its first measure: 1.6x).
	demandProductSlack = 2
)

// demandFactors returns, by relKey of the restricted relation, the groups
// of argument positions whose projections the outgrown demand relations are
// the product of; a relation that is no product is left out.
func (e *engine) demandFactors() map[string][][]int {
	out := map[string][][]int{}
	for i, r := range e.c.rels {
		if !r.demand || r.arity < 2 || r.arity > demandFactorArity || len(r.demandPos) != r.arity {
			continue
		}
		f := e.facts[i]
		n, of := int64(f.n), int64(e.facts[r.demandRel].n)
		var groups [][]int
		if st := e.stopped; st != nil && st.rel == int32(i) {
			// The join that stopped at MaxAtoms derives this relation: its
			// tuples count, and either its rows are measured with the facts
			// or its product's groups are the measurement.
			n += st.n
			if st.rows != nil {
				g := newFactSet(f.arity)
				for id := range f.n {
					g.add(f.tuple(id))
				}
				for _, t := range st.rows {
					g.add(t)
				}
				f = g
			} else {
				groups = st.groups
			}
		}
		if n < e.lim.MaxAtoms/demandFactorShare || n <= demandOutgrowth*of {
			continue
		}
		if groups == nil {
			groups = productGroups(f)
		}
		if len(groups) < 2 {
			continue
		}
		for _, g := range groups {
			for k, col := range g {
				g[k] = r.demandPos[col]
			}
		}
		rr := e.c.rels[r.demandRel]
		out[relKey(rr.name, rr.arity)] = groups
	}
	return out
}

// productGroups splits the columns of f into groups whose projections f is
// the product of: f = π_G1(f) x π_G2(f) x ... It splits off, one at a
// time, the smallest group of at most demandFactorGroup columns that holds
// the first remaining column, and stops at the first column whose group is
// larger; the last group is what remains.
func productGroups(f *factSet) [][]int { return nearProductGroups(f, 1) }

// nearProductGroups is productGroups for a relation that is still growing:
// the product of the groups' projections may hold up to slack times f's
// tuples (it always holds all of them).
func nearProductGroups(f *factSet, slack int64) [][]int {
	counts := map[uint32]int64{}
	count := func(mask uint32) int64 {
		if c, ok := counts[mask]; ok {
			return c
		}
		var cols []int
		for k := range f.arity {
			if mask&(1<<k) != 0 {
				cols = append(cols, k)
			}
		}
		p := newFactSet(len(cols))
		t := make([]int32, len(cols))
		for i := range f.n {
			row := f.tuple(i)
			for k, c := range cols {
				t[k] = row[c]
			}
			p.add(t)
		}
		counts[mask] = int64(p.n)
		return counts[mask]
	}
	var groups [][]int
	rest := uint32(1)<<f.arity - 1
	// split: the product of the groups split off so far; the split
	// groups' product times the rest's projection stays within bound.
	split, bound := int64(1), slack*count(rest)
	for bits.OnesCount32(rest) > 1 {
		first := rest & -rest
		others := rest &^ first
		found := uint32(0)
		// Subsets of the other columns, smallest first, joined to the first.
		for size := 0; size < min(bits.OnesCount32(others), demandFactorGroup) && found == 0; size++ {
			for sub := others; ; sub = (sub - 1) & others {
				if bits.OnesCount32(sub) == size {
					a := first | sub
					if mulAtMost(mulAtMost(split, count(a), bound+1), count(rest&^a), bound+1) <= bound {
						found = a
						break
					}
				}
				if sub == 0 {
					break
				}
			}
		}
		if found == 0 {
			break
		}
		groups = append(groups, columns(found))
		split *= count(found)
		rest &^= found
	}
	return append(groups, columns(rest))
}

// mulAtMost returns a*b, or limit when that is larger (a, b >= 0).
func mulAtMost(a, b, limit int64) int64 {
	if b != 0 && a > limit/b {
		return limit
	}
	return min(a*b, limit)
}

func columns(mask uint32) []int {
	var cols []int
	for k := 0; mask != 0; k++ {
		if mask&1 != 0 {
			cols = append(cols, k)
		}
		mask >>= 1
	}
	return cols
}

// addDemand rewrites every auxiliary fluent relation that some position of
// its calls binds, as described above; a relation in factors (by relKey)
// gets one demand relation per group of its demand positions
// (demandFactors). It runs after analysis (static flags and
// components known) and adds the demand relations after the analysed ones,
// outside every component.
func (c *compiler) addDemand(sccs [][]int32, factors map[string][][]int) {
	calls := make([][]call, len(c.rels))
	for _, r := range c.rules {
		for i, b := range r.body {
			if b.kind == bPos || b.kind == bNeg {
				calls[b.rel] = append(calls[b.rel], call{r, i})
			}
		}
	}
	sips := map[*nrule][][]int{}
	// Tarjan emits a component after the components it calls: callers come
	// first in reverse, so a caller has its own demand literal before the
	// relations it calls get theirs.
	for ci := len(sccs) - 1; ci >= 0; ci-- {
		comp := sccs[ci]
		if len(comp) != 1 {
			continue
		}
		rel := comp[0]
		for _, cl := range calls[rel] {
			if _, ok := sips[cl.rule]; !ok {
				sips[cl.rule] = c.sipBefore(cl.rule)
			}
		}
		pos := c.demandPositions(rel, sccs, calls[rel], sips)
		if len(pos) == 0 {
			continue
		}
		r := c.rels[rel]
		groups := [][]int{pos}
		if fs := factors[relKey(r.name, r.arity)]; partitions(fs, pos) {
			groups = fs
		}
		ds := make([]int32, len(groups))
		for gi, gpos := range groups {
			name := " demand " + relKey(r.name, r.arity)
			if len(groups) > 1 {
				name += " #" + strconv.Itoa(gi)
			}
			d := c.relation(name, len(gpos), r.pos)
			ds[gi] = d
			c.rels[d].demand = true
			c.rels[d].demandOf = r.name
			c.rels[d].demandRel = rel
			c.rels[d].demandPos = slices.Clone(gpos)
			c.rels[d].scc = -1
			// Appended, not prepended: the calls recorded above keep their
			// indexes. Before the demand rules, so that a recursive call's
			// demand rule starts from the demand of its own rule.
			for _, ri := range r.rules {
				nr := c.rules[ri]
				nr.body = append(nr.body, basic{kind: bPos, pos: nr.src.Pos, rel: d, args: pick(nr.headArgs, gpos), demand: true})
				delete(sips, nr)
			}
		}
		for _, cl := range calls[rel] {
			if _, ok := sips[cl.rule]; !ok {
				sips[cl.rule] = c.sipBefore(cl.rule)
			}
			for gi, gpos := range groups {
				dr := &nrule{head: ds[gi], headArgs: pick(cl.rule.body[cl.lit].args, gpos), varNames: cl.rule.varNames, src: cl.rule.src}
				for _, j := range sips[cl.rule][cl.lit] {
					dr.body = append(dr.body, cl.rule.body[j])
				}
				c.rels[ds[gi]].rules = append(c.rels[ds[gi]].rules, int32(len(c.rules)))
				c.rules = append(c.rules, dr)
			}
		}
	}
}

// partitions reports whether groups split pos exactly (each position of
// pos in one group, nothing else).
func partitions(groups [][]int, pos []int) bool {
	if len(groups) < 2 {
		return false
	}
	var all []int
	for _, g := range groups {
		all = append(all, g...)
	}
	slices.Sort(all)
	return slices.Equal(all, pos)
}

// errDemandOutgrown stops a domain phase as soon as measureDemand finds an
// outgrown demand relation that is a product: Ground starts over with it
// factored at once, instead of running the pass on until MaxAtoms.
var errDemandOutgrown = errors.New("grounding: a demand relation outgrew its relation (starting over with it factored)")

// watchDemand arms measureDemand for the demand relations not factored
// yet (factors holds, by relKey, the relations already factored): each
// is measured when it reaches MaxAtoms/demandFactorShare atoms, the size
// demandFactors measures at, and again each time it doubles.
func (e *engine) watchDemand(factors map[string][][]int) {
	first := int32(min(e.lim.MaxAtoms/demandFactorShare, math.MaxInt32))
	e.measureAt = make([]int32, len(e.c.rels))
	for i, r := range e.c.rels {
		e.measureAt[i] = math.MaxInt32
		if !r.demand || r.arity < 2 || r.arity > demandFactorArity || len(r.demandPos) != r.arity {
			continue
		}
		rr := e.c.rels[r.demandRel]
		if _, ok := factors[relKey(rr.name, rr.arity)]; ok {
			continue
		}
		e.measureAt[i] = max(first, 1)
	}
}

// measureDemand measures demand relation rel the way demandFactors does at
// MaxAtoms, on the facts it holds so far: if it has outgrown its relation
// and is a product, the domain phase stops with errDemandOutgrown, and
// e.outgrown holds its groups and those of every other watched demand
// relation that has reached the first measure and is outgrown and a
// product now; otherwise it is measured again at twice its atoms, so that
// its measurements cost at most about twice the last one. A demand still
// growing may look like a product the final one is not; the factors'
// product contains the demand all the same (see above).
func (e *engine) measureDemand(rel int32) {
	e.measureAt[rel] = int32(min(2*int64(e.facts[rel].n), math.MaxInt32))
	if e.err != nil {
		return
	}
	groups := e.outgrownGroups(rel)
	if groups == nil {
		return
	}
	rr := e.c.rels[e.c.rels[rel].demandRel]
	e.outgrown = map[string][][]int{relKey(rr.name, rr.arity): groups}
	e.addOutgrown(rel)
	e.fail(errDemandOutgrown)
}

// addOutgrown adds to e.outgrown every watched demand relation but rel
// that has reached the first measure and is outgrown and a product now.
func (e *engine) addOutgrown(rel int32) {
	first := int32(min(e.lim.MaxAtoms/demandFactorShare, math.MaxInt32))
	for i, at := range e.measureAt {
		if int32(i) == rel || at == math.MaxInt32 || e.facts[i].n < first {
			continue
		}
		if groups := e.outgrownGroups(int32(i)); groups != nil {
			rr := e.c.rels[e.c.rels[i].demandRel]
			e.outgrown[relKey(rr.name, rr.arity)] = groups
		}
	}
}

// measureProduct is measureDemand for a domain join whose head tuples are
// a product (productSize), before they are enumerated: when the watched
// demand relation would reach its next measure, the join's head groups
// are the measurement, as at MaxAtoms (stoppedJoin). It reports whether
// the domain phase stopped.
func (e *engine) measureProduct(p *plan) bool {
	rel := p.rule.head
	at := int64(e.measureAt[rel])
	if at == math.MaxInt32 {
		return false
	}
	have := int64(e.facts[rel].n)
	n, ok := e.productSize(p, at-have-1)
	if !ok || have+n < at {
		return false
	}
	r := e.c.rels[rel]
	if have+n <= demandOutgrowth*int64(e.facts[r.demandRel].n) {
		return false
	}
	groups := productHeadGroups(p)
	if len(groups) < 2 {
		return false
	}
	toDemandPositions(groups, r.demandPos)
	rr := e.c.rels[r.demandRel]
	e.outgrown = map[string][][]int{relKey(rr.name, rr.arity): groups}
	e.addOutgrown(rel)
	e.fail(errDemandOutgrown)
	return true
}

// toDemandPositions rewrites groups of a demand relation's columns, in
// place, as the positions of the relation it restricts (demandPos).
func toDemandPositions(groups [][]int, demandPos []int) {
	for _, g := range groups {
		for k, col := range g {
			g[k] = demandPos[col]
		}
	}
}

// outgrownGroups returns the groups of positions of the restricted relation
// that demand relation rel's facts are the product of, if rel has outgrown
// that relation; otherwise nil.
func (e *engine) outgrownGroups(rel int32) [][]int {
	f, r := e.facts[rel], e.c.rels[rel]
	if int64(f.n) <= demandOutgrowth*int64(e.facts[r.demandRel].n) {
		return nil
	}
	groups := nearProductGroups(f, e.productSlack)
	if len(groups) < 2 {
		return nil
	}
	toDemandPositions(groups, r.demandPos)
	return groups
}
