package equiv

import (
	"slices"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/isomorph"
)

// probeSpread carries the probe check's colours of the actions to every
// vertex of the ground graph, so that Symmetries' subgroup search can
// choose the children of a coset by them (restrictCoset): each vertex
// starts from its cell and, for an action, its final colour after
// probeCheck.refine; then spreadRounds rounds of colour refinement along
// the arcs (a vertex's colour with the sums of its out- and in-neighbours'
// colours). Every step is a function of the graph, the cells and the pair
// outcomes alone, and sums do not depend on the order of the arcs, so an
// automorphism that maps A's cells onto B's and preserves the pair
// outcomes (every symmetry in the coset) maps each vertex onto one of B's
// with the same colour.
type probeSpread struct {
	// baseA[depth]: the colour in A of the base point of the coset level
	// at that depth (absent where the spread costs over maxSpreadWork).
	baseA           map[int32]uint64
	cur, nxt, sums  []uint64
	outSum, inSum   []uint64
	arcs            int64 // the graph's arcs, counted once
	counted, tooBig bool
}

// spreadRounds is the number of rounds of refinement along the arcs: a
// queens puzzle's base points are corner pairs, two arcs from the actions
// whose pair outcomes tell the board's cells apart.
const spreadRounds = 3

// maxSpreadWork bounds the work of one spread (vertices and arcs visited
// over all rounds): it runs at every node the probe check passes.
const maxSpreadWork = 1 << 24

// colours returns the side's spread colours (ps.cells and ps.col set by
// refutes), or nil when the graph is too big for maxSpreadWork.
func (sp *probeSpread) colours(ps *probeSide) []uint64 {
	g := ps.g.g
	n := g.Order()
	if !sp.counted {
		sp.counted = true
		for v := range n {
			sp.arcs += int64(len(g.Out(v)))
		}
		sp.tooBig = int64(spreadRounds)*(2*int64(n)+sp.arcs) > maxSpreadWork
	}
	if sp.tooBig {
		return nil
	}
	if sp.cur == nil {
		sp.cur, sp.nxt = make([]uint64, n), make([]uint64, n)
		sp.outSum, sp.inSum = make([]uint64, n), make([]uint64, n)
	}
	cur, nxt := sp.cur, sp.nxt
	for v := range n {
		cur[v] = mix(uint64(ps.cells[v])<<8 ^ uint64(g.Color(v)))
		if x := g.Vertex(v); x.Kind == groundgraph.Action {
			cur[v] = mix(cur[v] ^ ps.col[x.Role][x.Index])
		}
	}
	for range spreadRounds {
		clear(sp.outSum)
		clear(sp.inSum)
		for v := range n {
			hv := mix(cur[v] ^ 0x2545f4914f6cdd1d)
			for _, w := range g.Out(v) {
				sp.outSum[v] += mix(cur[w] ^ 0x9e3779b97f4a7c15)
				sp.inSum[w] += hv
			}
		}
		for v := range n {
			nxt[v] = mix(cur[v] ^ mix(sp.outSum[v]^0x5851f42d4c957f2d) ^ mix(sp.inSum[v]^0x14057b7ef767814f)*3)
		}
		cur, nxt = nxt, cur
	}
	sp.cur, sp.nxt = cur, nxt
	return cur
}

// spreadBase records the colour in A of base, the base point of the
// coset level at depth, right after refutes has refined A's cells there.
func (c *probeCheck) spreadBase(depth int32, base int32) {
	if base < 0 {
		return
	}
	col := c.spread.colours(&c.a)
	if col == nil {
		return
	}
	if c.spread.baseA == nil {
		c.spread.baseA = map[int32]uint64{}
	}
	c.spread.baseA[depth] = col[base]
}

// restrictCoset restricts the children of a coset that refutesCoset has
// just passed to the images of its base point whose spread colour in B
// is the base point's in A (Coset.Restrict): a symmetry in the coset maps
// the base point onto one of them (probeSpread). Where the pair outcomes
// tell the board's cells apart (the queens puzzles), one child or a few
// are entered instead of every image of the orbit, each refuted only
// once entered.
func (c *probeCheck) restrictCoset(co *isomorph.Coset) {
	full := c.bFull
	c.bFull = false
	want, ok := c.spread.baseA[int32(co.Level())]
	if !full || !ok {
		return
	}
	col := c.spread.colours(&c.b)
	if col == nil {
		return
	}
	// The images of the base point are the vertices of its cell in B; a
	// restriction that keeps all of them is not set (it would only make
	// the search test every level's G_i).
	cell := c.orbits[co.BasePoint()]
	excludes := false
	var allowed []int32 // ascending
	for w, h := range col {
		if h == want {
			allowed = append(allowed, int32(w))
		} else if c.b.cells[w] == cell {
			excludes = true
		}
	}
	if !excludes {
		return
	}
	co.Restrict(func(w int32) bool {
		_, in := slices.BinarySearch(allowed, w)
		return in
	})
}
