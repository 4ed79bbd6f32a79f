package equiv

import (
	"context"
	"math/bits"
	"slices"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// probeCheck refutes a search node by how a role's actions combine in
// two-move plays. The probe (x, y) of two actions of one role plays, from
// the initial state, a joint move where the role does x and then one where
// it does y, every other role doing a fixed default action both times (one
// that every isomorphism maps alike: a singleton cell of the root). Its
// outcome is the state reached seen through the functions every mapping of
// roles preserves: terminal, each role's goals, each role's number of legal
// actions, the number of propositions true. A verified mapping σ maps A's
// initial state onto B's and commutes with the next functions, so it maps
// the state A reaches onto the state B reaches by the images: the outcome of
// (x, y) in A is the outcome of (σx, σy) in B. The outcomes are thus the
// colours of the edges of a complete graph on each role's actions that σ
// maps onto B's, and σ maps A's cell at position q onto B's cell at
// position q (isomorph.Node).
//
// At a node the check refines the actions' cells by that graph (colour
// refinement, a few rounds) in both games and compares the multisets of
// colours: where they differ, no completion verifies. The ground graph sees
// each action on its own; this sees how two actions interact (in a queens
// puzzle: whether two placements attack each other), so a search that maps
// a placement onto one that does not stand to the mapped ones as it does
// is pruned at once, and so is one whose unmapped placements cannot be
// matched, long before the goal's hundreds of inputs are all mapped.
//
// Outcomes are computed once per game (every ordered pair of a role's
// actions, 256 plays per evaluation of the circuit); the multisets are
// compared through sums of hashes, which equal multisets always give equal
// sums: a collision can only miss a refutation, never make a wrong one.
type probeCheck struct {
	a, b    probeSide
	roleB   []int32 // roleB[r]: B's role matched with A's role r
	isSetUp bool    // roles and defaults known (setUp)
	ready   bool    // relations computed (or off)
	off     bool
	joint   bool               // joint moves of two roles instead (probejoint.go)
	orbits  []int32            // refutesCoset's A cells
	sigA    map[int32][]uint64 // A's colour sums per round, by depth
	budget  int64              // lim.MaxProbeWork
	ctx     context.Context    // computeRelations stops when it is done
	nodes   int64              // nodes checked
	idle    int64              // nodes checked that it could not prune (unmoved)
	pruned  int64              // nodes refuted
	// bFull: the last call of refutes refined B's cells through every
	// round without a difference, so b.col holds B's final colours.
	bFull  bool
	spread probeSpread // restrictCoset's
}

// probeSide is one game's pair outcomes.
type probeSide struct {
	p      *grounding.Program
	g      game
	props  []grounding.Lit
	deflt  []int32    // deflt[r]: the default action of role r (-1: none needed)
	key    []uint64   // key[r]: the hash key of role r, its A role's index (so A's and B's outcomes agree)
	byKey  []int      // the roles in the order of their keys (outcomes hash them in that order)
	rel    [][]uint64 // rel[r][x*n+y]: outcome of (x, y) for role r (n actions); nil: not computed
	cells  []int32    // cell position by vertex, at the node
	col    [][]uint64 // colours by role, scratch
	nxt    [][]uint64
	vals   []uint64
	buf    []uint64
	planes []uint64 // bit-sliced counters (outcomes)
}

// probeWords is the number of 64-bit words of plays per evaluation.
const probeWords = 4

// newProbeCheck returns the probe check of a search from a to b, or nil when
// it is turned off.
func newProbeCheck(ctx context.Context, a, b game, lim *Limits) *probeCheck {
	if lim.NoProbeCheck || lim.MaxProbeWork <= 0 {
		return nil
	}
	return &probeCheck{a: newProbeSide(a), b: newProbeSide(b), sigA: map[int32][]uint64{}, budget: lim.MaxProbeWork, ctx: ctx}
}

func newProbeSide(gm game) probeSide {
	p := gm.p
	ps := probeSide{p: p, g: gm, props: make([]grounding.Lit, len(p.Props))}
	for i := range ps.props {
		ps.props[i] = p.TrueInput(i)
	}
	return ps
}

// probeWork is the cost of computing every pair outcome of one side, in
// word operations: per word of plays (each role's pairs in batches of
// 64·probeWords), three evaluations of the circuit and the outcome's
// literals (terminal, goals, legal actions, propositions) read into
// bit-sliced counters (about 4 operations a word).
func probeWork(p *grounding.Program) int64 {
	const batch = 64 * probeWords
	var words, lits int64
	for r, as := range p.Actions {
		n := int64(len(as))
		words += (n*n + batch - 1) / batch * probeWords
		lits += n + int64(len(p.Goals[r]))
	}
	lits += int64(len(p.Props)) + 1
	return words * (3*int64(p.Circuit.NumNodes()) + 4*lits)
}

// setUpRoot matches the roles and picks the defaults at the root node of
// Compare's search, where every singleton cell is mapped by every
// isomorphism: a role's default is its first action (A's order) mapped
// there, with its image. The check turns off when the roles cannot be
// matched or some role of several has no default.
func (c *probeCheck) setUpRoot(s *search, partial isomorph.Mapping) {
	pa, pb := s.a.p, s.b.p
	if len(pa.Roles) != len(pb.Roles) {
		c.off = true
		return
	}
	roleB := make([]int32, len(pa.Roles))
	da, db := make([]int32, len(pa.Roles)), make([]int32, len(pb.Roles))
	for r := range pa.Roles {
		roleB[r], da[r] = -1, -1
		if w := partial[s.a.g.RoleVertex(r)]; w >= 0 {
			if v := s.b.g.Vertex(int(w)); v.Kind == groundgraph.Role {
				roleB[r] = int32(v.Role)
			}
		}
		for a := range pa.Actions[r] {
			img, ok := s.image(partial, pa.DoesInput(r, a).Node()-1)
			if !ok || img < 0 {
				continue
			}
			rb, ab := pb.InputOf(int(img))
			if rb < 0 || (roleB[r] >= 0 && roleB[r] != int32(rb)) {
				c.off = true // the search's checks report it
				return
			}
			roleB[r], da[r], db[rb] = int32(rb), int32(a), int32(ab)
			break
		}
	}
	c.setUp(roleB, da, db)
}

// setUpFixed is setUpRoot for Symmetries' search of a graph group: the
// roles and the default actions are those every generator fixes.
func (c *probeCheck) setUpFixed(p *grounding.Program, g *groundgraph.Graph, gens []isomorph.Sparse) {
	fixed := func(v int) bool {
		for _, x := range gens {
			if int(x.Image(int32(v))) != v {
				return false
			}
		}
		return true
	}
	roleB := make([]int32, len(p.Roles))
	deflt := make([]int32, len(p.Roles))
	for r := range p.Roles {
		roleB[r], deflt[r] = -1, -1
		if fixed(g.RoleVertex(r)) {
			roleB[r] = int32(r)
		}
		for a := range p.Actions[r] {
			if fixed(g.ActionVertex(r, a)) {
				roleB[r], deflt[r] = int32(r), int32(a)
				break
			}
		}
	}
	c.setUp(roleB, deflt, slices.Clone(deflt))
}

// setUp takes the matched roles and the defaults (A's and B's, by role; -1
// where there is none); the check turns off where they do not suffice.
func (c *probeCheck) setUp(roleB, defltA, defltB []int32) {
	c.isSetUp = true
	for r := range roleB {
		if roleB[r] < 0 && len(roleB) == 1 {
			roleB[r] = 0 // one role: matched, and no default needed
		}
		if roleB[r] < 0 || (len(roleB) > 1 && defltA[r] < 0) {
			// Two roles need neither defaults nor matched roles for
			// the joint moves' outcomes.
			c.joint = len(roleB) == 2
			c.off = !c.joint
			return
		}
	}
	c.roleB, c.a.deflt, c.b.deflt = roleB, defltA, defltB
}

// computeRelations plays every pair of each role's actions in both games,
// once roleB and the defaults are set; the check turns off when that would
// cost more than its budget.
func (c *probeCheck) computeRelations() {
	c.ready = true
	if c.work() > c.budget {
		c.off = true
		return
	}
	if c.joint {
		if c.a.computeJoint(c.ctx) != nil || c.b.computeJoint(c.ctx) != nil {
			c.off = true // cancelled, or B has not two roles
		}
		return
	}
	c.a.key = make([]uint64, len(c.roleB))
	c.b.key = make([]uint64, len(c.roleB))
	for r, rb := range c.roleB {
		c.a.key[r], c.b.key[rb] = uint64(r)+1, uint64(r)+1
		c.a.byKey = append(c.a.byKey, r)
		c.b.byKey = append(c.b.byKey, int(rb))
	}
	if c.a.computeRelations(c.ctx) != nil || c.b.computeRelations(c.ctx) != nil {
		c.off = true // cancelled: the search reports it
	}
}

// work is the cost of the relations of both games (probeWork).
func (c *probeCheck) work() int64 {
	if c.joint {
		return jointWork(c.a.p) + jointWork(c.b.p)
	}
	return probeWork(c.a.p) + probeWork(c.b.p)
}

// eager reports whether the relations are cheap enough to compute before
// anything shows they are needed: a sixteenth of the budget.
func (c *probeCheck) eager() bool { return c.ready || c.work() <= c.budget/16 }

// probesRefute reports whether the pair outcomes show that the node of
// Compare's search has no completion that verifies. It runs from the root
// on: unlike the other checks it does not wait for a first pruned subtree,
// because the branches it prunes are wrong choices near the root (a
// placement mapped onto one that attacks other cells) that the other
// checks see only deep below, after the search has mapped most of the
// board: waiting for them cost a 6x6 queens puzzle 5,295 nodes and a
// timeout instead of 1,460 nodes. Relations that cost more than eager
// allows wait for a pruned subtree or a rejected candidate, like the other
// checks, so that a search that goes straight to a mapping that verifies
// does not pay for them.
func (s *search) probesRefute(n *isomorph.Node) bool {
	c := s.probes
	if !c.isSetUp {
		if n.Depth() != 0 {
			c.off = true
			return false
		}
		c.setUpRoot(s, n.Partial)
	}
	if c.off || (!c.eager() && s.pruned == 0 && s.rep.Stats.Candidates == 0) {
		return false
	}
	return c.refutes(n.Depth(), n.CellsG, func(dst []int32) {
		for v := range dst {
			dst[v] = n.CellH(v)
		}
	})
}

// forCosets returns a check for the cosets of Compare's coset search
// (coset.go): the same roles, defaults and relations, its own caches (A's
// cells are orbits there, not the reference path's cells); nil when c is
// nil or off.
func (c *probeCheck) forCosets() *probeCheck {
	if c == nil || c.off || !c.isSetUp {
		return nil
	}
	d := &probeCheck{a: c.a, b: c.b, roleB: c.roleB, isSetUp: true, ready: c.ready, joint: c.joint, sigA: map[int32][]uint64{}, budget: c.budget, ctx: c.ctx}
	d.a.cells, d.b.cells = nil, nil
	d.a.col, d.a.nxt, d.b.col, d.b.nxt = nil, nil, nil, nil
	return d
}

// refutesCoset is probesRefute for a coset of Symmetries' subgroup search
// or of Compare's coset search: its cells are the orbits of the level's stabiliser (A) and their images
// under the coset's representative (B).
func (c *probeCheck) refutesCoset(co *isomorph.Coset) bool {
	if c.off {
		return false
	}
	if c.orbits == nil {
		c.orbits = make([]int32, c.a.g.g.Order())
	}
	depth := int32(co.Level())
	_, cached := c.sigA[depth]
	refuted := c.refutes(co.Level(), func(dst []int32) { copy(dst, c.orbits) }, func(dst []int32) {
		co.Cells(c.orbits, dst)
	})
	if _, now := c.sigA[depth]; now && !cached {
		c.spreadBase(depth, co.BasePoint()) // A's colours are this depth's
	}
	return refuted
}

// refutes compares the colour sums of A's cells, filled by cellsA and the
// same for every node of one depth (cached), with B's, filled by cellsB.
func (c *probeCheck) refutes(depth int, cellsA, cellsB func(dst []int32)) bool {
	c.bFull = false
	if !c.ready {
		c.computeRelations()
		if c.off {
			return false
		}
	}
	if c.b.cells == nil {
		c.b.cells = make([]int32, c.b.g.g.Order())
	}
	cellsB(c.b.cells) // first: a coset writes A's orbits as it goes
	if c.pruned == 0 && (c.nodes >= probeGiveUp || c.idle >= probeIdleGiveUp) {
		c.off = true // it has not pruned where it could be expected to
		return false
	}
	if c.unmoved() {
		c.idle++ // it cannot prune here: no evidence against it
	} else {
		c.nodes++
	}
	sa, ok := c.sigA[int32(depth)]
	if !ok {
		if c.a.cells == nil {
			c.a.cells = make([]int32, c.a.g.g.Order())
		}
		cellsA(c.a.cells)
		sa = c.a.refine(c.joint, nil, nil)
		c.sigA[int32(depth)] = sa
	}
	if c.b.refine(c.joint, c.roleB, sa) != nil {
		c.bFull = true
		return false
	}
	c.pruned++
	return true
}

// probeGiveUp is the number of nodes the probe check runs without pruning
// any before it turns itself off: each node refines every pair of each
// role's actions (3.6 ms on a role of 576 actions), and where two-move
// plays tell the actions apart it prunes within the first few nodes (the
// queens puzzles: from depth 2).
const probeGiveUp = 64

// probeIdleGiveUp is the number of nodes where the check cannot prune
// (unmoved) that it runs through without pruning before it turns itself
// off: they cost a refinement each. colonelBlotto's subgroup search meets
// about 100 of them (roots of coset searches) among its first 130 nodes;
// counted as failures, they turned the check off before the searches of
// levels 9-2, whose roots it prunes.
const probeIdleGiveUp = 1024

// unmoved reports whether the node of a coset search of a game against
// itself maps every cell of actions onto itself: then B's colours are A's
// and the check passes it whatever the outcomes (a coset's root keeps the
// stabiliser's orbits where its representative lies in their group).
func (c *probeCheck) unmoved() bool {
	if c.orbits == nil || c.a.p != c.b.p {
		return false
	}
	g := c.a.g.g
	for r, as := range c.a.p.Actions {
		for x := range as {
			if v := g.ActionVertex(r, x); c.orbits[v] != c.b.cells[v] {
				return false
			}
		}
	}
	return true
}

// probeRounds is the number of rounds of colour refinement per node.
const probeRounds = 3

// refine runs colour refinement on the side's actions, by roles in A's
// order (roleOf: the side's role of A's role r; nil for A), or on the
// joint moves' graph (refineJoint). It returns the colour sum of every
// round; with want set, it stops and returns nil at the first round whose
// sum differs from want's.
func (ps *probeSide) refine(joint bool, roleOf []int32, want []uint64) []uint64 {
	p, g := ps.p, ps.g.g
	nr := len(p.Roles)
	if ps.col == nil {
		ps.col, ps.nxt = make([][]uint64, nr), make([][]uint64, nr)
		for r := range nr {
			ps.col[r], ps.nxt[r] = make([]uint64, len(p.Actions[r])), make([]uint64, len(p.Actions[r]))
		}
	}
	if joint {
		return ps.refineJoint(want)
	}
	role := func(r int) int {
		if roleOf == nil {
			return r
		}
		return int(roleOf[r])
	}
	for r := range nr {
		rr := role(r)
		for x := range p.Actions[rr] {
			ps.col[rr][x] = mix(uint64(ps.cells[g.ActionVertex(rr, x)])<<8 ^ uint64(r))
		}
	}
	var sums []uint64
	for round := range probeRounds {
		var sum uint64
		for r := range nr {
			rr := role(r)
			col, nxt, rel := ps.col[rr], ps.nxt[rr], ps.rel[rr]
			n := len(col)
			for x := range n {
				h := mix(col[x] ^ 0x5851f42d4c957f2d)
				row := rel[x*n : (x+1)*n]
				for y, o := range row {
					if y != x {
						h += mix(o ^ col[y]*0x9e3779b97f4a7c15)
					}
				}
				h = mix(h ^ rel[x*n+x]) // x twice in a row
				nxt[x] = h
				sum += mix(h ^ uint64(r)<<1)
			}
			ps.col[rr], ps.nxt[rr] = nxt, col
		}
		if want != nil && sum != want[round] {
			return nil
		}
		sums = append(sums, sum)
	}
	return sums
}

// computeRelations plays every pair of each role's actions; it stops with
// ctx's error.
func (ps *probeSide) computeRelations(ctx context.Context) error {
	const w = probeWords
	p := ps.p
	ps.rel = make([][]uint64, len(p.Roles))
	nn := p.Circuit.NumNodes()
	ps.vals = make([]uint64, nn*w)
	vals := ps.vals
	nProps := len(p.Props)
	doesBase := (nProps + 1) * w
	doesEnd := (p.NumInputs() + 1) * w
	for r, as := range p.Actions {
		n := len(as)
		ps.rel[r] = make([]uint64, n*n)
		for start := 0; start < n*n; start += 64 * w {
			if err := ctx.Err(); err != nil {
				return err
			}
			lanes := min(64*w, n*n-start)
			loadInitial(p, vals, w)
			for step := range 2 {
				clear(vals[doesBase:doesEnd])
				for l := range lanes {
					j, bit := l/64, uint64(1)<<(l%64)
					x, y := (start+l)/n, (start+l)%n
					a := x
					if step == 1 {
						a = y
					}
					vals[p.DoesInput(r, a).Node()*w+j] |= bit
					for o := range p.Roles {
						if o != r {
							vals[p.DoesInput(o, int(ps.deflt[o])).Node()*w+j] |= bit
						}
					}
				}
				ps.advance(vals, w)
			}
			clear(vals[doesBase:doesEnd])
			p.Circuit.EvalWords(vals, w)
			copy(ps.rel[r][start:start+lanes], ps.outcomes(vals, w, lanes))
		}
	}
	ps.vals, ps.buf, ps.planes = nil, nil, nil
	return nil
}

// outcomes hashes, per play, terminal, every role's goals and number of
// legal actions and the number of propositions true, the roles in A's
// order, each under its key (its A role's index), so that matched roles
// hash alike.
func (ps *probeSide) outcomes(vals []uint64, w, n int) []uint64 {
	p := ps.p
	out := make([]uint64, n)
	addBits := func(h uint64, l grounding.Lit) {
		ps.buf = grounding.WordsOf(ps.buf[:0], vals, w, l)
		for j, x := range ps.buf {
			for x != 0 {
				lane := j*64 + bits.TrailingZeros64(x)
				if lane < n {
					out[lane] = mix(out[lane] ^ h)
				}
				x &= x - 1
			}
		}
	}
	// Counts per lane, bit-sliced: plane b holds bit b of every lane's
	// count, so adding a word costs a few operations, not one per lane.
	addCounts := func(h uint64, ls []grounding.Lit) {
		planes := ps.planes[:0]
		for _, l := range ls {
			ps.buf = grounding.WordsOf(ps.buf[:0], vals, w, l)
			for j, carry := range ps.buf {
				for b := 0; carry != 0; b++ {
					if b == len(planes)/w {
						planes = append(planes, make([]uint64, w)...)
					}
					x := planes[b*w+j]
					planes[b*w+j] = x ^ carry
					carry &= x
				}
			}
		}
		ps.planes = planes
		for lane := range out {
			j, bit := lane/64, uint(lane%64)
			cnt := uint64(0)
			for b := range len(planes) / w {
				cnt |= (planes[b*w+j] >> bit & 1) << b
			}
			out[lane] = mix(out[lane] ^ h ^ cnt<<8)
		}
		clear(planes)
	}
	addBits(1, p.Terminal)
	for _, r := range ps.byKey {
		for _, gl := range p.Goals[r] {
			addBits(ps.key[r]<<40^uint64(uint32(gl.Value))<<8^2, gl.Lit)
		}
		addCounts(ps.key[r]<<40^3, p.Legal[r])
	}
	addCounts(4, ps.props)
	return out
}

// rejects reports whether a complete mapping m fails to map A's pair
// outcomes onto B's: such an m is no game mapping, and Verify need not run.
// A mapping that does not match the roles and defaults of the relations is
// never rejected here, nor is any while the relations would cost more
// than eager allows and are not computed yet.
func (c *probeCheck) rejects(m satcheck.Mapping) bool {
	if c.off || !c.isSetUp || !c.eager() {
		return false
	}
	if !c.ready {
		c.computeRelations()
		if c.off {
			return false
		}
	}
	if c.joint {
		return c.rejectsJoint(func(r int) int { return m.Roles[r] }, func(r, x int) int { return m.Actions[r][x] })
	}
	for r, rb := range c.roleB {
		if m.Roles[r] != int(rb) || (len(c.roleB) > 1 && m.Actions[r][c.a.deflt[r]] != int(c.b.deflt[rb])) {
			return false
		}
	}
	for r, rb := range c.roleB {
		acts := m.Actions[r]
		n := len(acts)
		ra, rbRel := c.a.rel[r], c.b.rel[rb]
		for x := range n {
			for y := range n {
				if ra[x*n+y] != rbRel[acts[x]*n+acts[y]] {
					return true
				}
			}
		}
	}
	return false
}

// advance evaluates the circuit on vals (w words a node) and makes each
// lane's successor state its current state; the moves' words stay.
func (ps *probeSide) advance(vals []uint64, w int) {
	p := ps.p
	p.Circuit.EvalWords(vals, w)
	ps.buf = ps.buf[:0]
	for _, l := range p.Next {
		ps.buf = grounding.WordsOf(ps.buf, vals, w, l)
	}
	propBase := p.TrueInput(0).Node() * w
	copy(vals[propBase:propBase+len(p.Props)*w], ps.buf)
}

// loadInitial clears every input's words in vals (w words a node, as
// grounding.Circuit.EvalWords reads them) and sets the initial state's
// propositions in every lane.
func loadInitial(p *grounding.Program, vals []uint64, w int) {
	propBase := p.TrueInput(0).Node() * w
	clear(vals[propBase : (p.NumInputs()+1)*w])
	for _, q := range p.Init {
		for j := range w {
			vals[propBase+int(q)*w+j] = ^uint64(0)
		}
	}
}
