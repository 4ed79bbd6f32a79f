package equiv

import (
	"slices"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

// cellCheck refutes a search node on assignments that are constant on
// cells. Every isomorphism below the node maps A's cell at position q onto
// B's cell at position q (isomorph.Node), so if an assignment x of A's
// propositions gives every proposition of a cell the same value, its image
// under any completion σ is the assignment y of B that gives the matched
// cell that value, whichever bijection σ makes of the cells. A verified σ
// has f(x) = σ(f)(y) for every reasoning function f, and σ maps the
// functions owned by A's cell q (the next functions of its propositions,
// the legal functions of its actions, the goals of its roles) onto those
// owned by B's cell q. So the multiset of values of the functions owned by
// each cell, on 64·W such assignments at once, must be the same in A and B;
// where it is not, no completion verifies and the node is pruned. Unlike
// the checks of single functions, this sees functions whose inputs are not
// yet mapped, and functions of the whole board (a goal over every cell)
// long before the search reaches a leaf.
//
// Moves: legal, goal and terminal are evaluated with no move made, as
// satcheck reads them. Next functions need one action per role; each role
// chooses among its actions that are singleton cells (mapped), the same
// position in A and B on every lane, and next functions are skipped while
// some role has none.
//
// The multisets are compared through a sum of hashes of (owner cell, kind,
// goal value, value words), which equal multisets always give equal sums:
// a collision can only miss a refutation, never make a wrong one.
type cellCheck struct {
	a, b   cellSide
	w      int
	sigA   map[int32]uint64 // A's reference signature by depth
	nodes  int64            // nodes checked
	orbits []int32          // refutesCoset's A cells
}

// cellSide holds one game's evaluation buffers.
type cellSide struct {
	p         *grounding.Program
	g         *groundgraph.Graph
	funcs     []grounding.Function
	owner     []int32 // owner[f]: vertex whose cell owns function f; -1 for terminal
	movesRead bool    // some legal, goal or terminal function reads a does input
	cells     []int32 // cell start by vertex, for the node at hand
	cellSize  []int32 // vertices per cell start
	vals      []uint64
	words     []uint64
}

// cellWords is the number of 64-bit words of assignments per check (see
// cellWord).
const cellWords = 2

// newCellCheck returns the check of a search from a to b, or nil when it
// is turned off or the circuits are too large for lim.
func newCellCheck(a, b game, lim *Limits) *cellCheck {
	if lim.NoCellCheck || a.p.Circuit.NumNodes()+b.p.Circuit.NumNodes() > lim.MaxCellCheckNodes {
		return nil
	}
	return &cellCheck{a: newCellSide(a), b: newCellSide(b), w: cellWords, sigA: map[int32]uint64{}}
}

func newCellSide(gm game) cellSide {
	p, g := gm.p, gm.g
	s := cellSide{p: p, g: g, funcs: p.Functions()}
	s.owner = make([]int32, len(s.funcs))
	var noMove []grounding.Lit // legal, goal and terminal
	for f, fn := range s.funcs {
		switch fn.Kind {
		case grounding.FuncLegal:
			s.owner[f] = int32(g.ActionVertex(fn.Role, fn.Index))
		case grounding.FuncNext:
			s.owner[f] = int32(g.PropVertex(fn.Index))
		case grounding.FuncGoal:
			s.owner[f] = int32(g.RoleVertex(fn.Role))
		default:
			s.owner[f] = -1
		}
		if fn.Kind != grounding.FuncNext {
			noMove = append(noMove, fn.Lit)
		}
	}
	for _, in := range p.Circuit.Support(noMove...) {
		if role, _ := p.InputOf(in); role >= 0 {
			s.movesRead = true
			break
		}
	}
	s.cells = make([]int32, g.Order())
	s.cellSize = make([]int32, g.Order())
	return s
}

// refutes reports whether the search node has no completion that
// verifies.
func (c *cellCheck) refutes(n *isomorph.Node) bool {
	return c.refutesCells(n.Depth(), n.CellsG, func(dst []int32) {
		for v := range dst {
			dst[v] = n.CellH(v)
		}
	})
}

// refutesCoset reports whether no element of a coset of a coset search
// (Symmetries' subgroup search, Compare's coset search) verifies: its cells are the orbits of the level's stabiliser (A)
// and their images under the coset's representative (B).
func (c *cellCheck) refutesCoset(co *isomorph.Coset) bool {
	if c.orbits == nil {
		c.orbits = make([]int32, len(c.a.cells))
	}
	co.Cells(c.orbits, c.b.cells)
	return c.refutesCells(co.Level(), func(dst []int32) { copy(dst, c.orbits) }, nil)
}

// refutesCells compares the signature of A's cells, filled by cellsA and
// the same for every node of one depth (cached), with B's, filled by
// cellsB (nil: already in c.b.cells). Cells with the same id are matched.
func (c *cellCheck) refutesCells(depth int, cellsA, cellsB func(dst []int32)) bool {
	c.nodes++
	sa, ok := c.sigA[int32(depth)]
	if !ok {
		cellsA(c.a.cells)
		sa = c.a.signature(c.w)
		c.sigA[int32(depth)] = sa
	}
	if cellsB != nil {
		cellsB(c.b.cells)
	}
	return c.b.signature(c.w) != sa
}

// signature evaluates every reasoning function on the cell-constant
// assignments of s.cells and sums the hashes of their owners' cells and
// values.
func (s *cellSide) signature(w int) uint64 {
	p := s.p
	nn := p.Circuit.NumNodes()
	if len(s.vals) < nn*w {
		s.vals = make([]uint64, nn*w)
	}
	vals := s.vals[:nn*w]
	clear(s.cellSize)
	for v := range s.cells {
		s.cellSize[s.cells[v]]++
	}
	numProps := len(p.Props)
	for i := range numProps {
		q := uint64(s.cells[s.g.PropVertex(i)])
		for j := range w {
			vals[(i+1)*w+j] = cellWord(q, j)
		}
	}
	clear(vals[(numProps+1)*w : (p.NumInputs()+1)*w])
	if s.movesRead {
		// Legal, goal and terminal are read with every does false (as
		// satcheck reads them), then the next functions with the moves.
		p.Circuit.EvalWords(vals, w)
		sig := s.sum(vals, w, false)
		if !s.chooseMoves(vals, w) {
			return sig + noJointMove
		}
		p.Circuit.EvalWords(vals, w)
		return sig + s.sum(vals, w, true)
	}
	// No legal, goal or terminal function reads a move (valid GDL): one
	// evaluation with the moves serves both parts.
	moves := s.chooseMoves(vals, w)
	p.Circuit.EvalWords(vals, w)
	sig := s.sum(vals, w, false)
	if !moves {
		return sig + noJointMove
	}
	return sig + s.sum(vals, w, true)
}

// noJointMove marks a signature whose next functions were skipped because
// some role has no singleton action: the same in A and B, whichever side
// reads moves where it should not.
const noJointMove = 0x9e3779b97f4a7c15

// chooseMoves sets the does-inputs of vals: on each lane, every role does
// one of its actions that is a singleton cell, chosen from the lane and the
// cell positions alone. It returns false, leaving them false, when some
// role has no such action.
func (s *cellSide) chooseMoves(vals []uint64, w int) bool {
	p := s.p
	type choice struct{ pos, action int32 }
	byRole := make([][]choice, len(p.Roles))
	for r := range p.Roles {
		for a := range p.Actions[r] {
			if q := s.cells[s.g.ActionVertex(r, a)]; s.cellSize[q] == 1 {
				byRole[r] = append(byRole[r], choice{q, int32(a)})
			}
		}
		if len(byRole[r]) == 0 {
			return false
		}
	}
	for r, cs := range byRole {
		// By position, which A and B share; action indices they do not.
		slices.SortFunc(cs, func(x, y choice) int { return int(x.pos - y.pos) })
		for lane := range 64 * w {
			c := cs[mix(uint64(cs[0].pos)<<20^uint64(lane))%uint64(len(cs))]
			in := p.DoesInput(r, int(c.action)).Node()
			vals[in*w+lane/64] |= 1 << (lane % 64)
		}
	}
	return true
}

// sum hashes the functions of one part (next functions or the others)
// with their owners' cells.
func (s *cellSide) sum(vals []uint64, w int, next bool) uint64 {
	var sig uint64
	for f, fn := range s.funcs {
		if (fn.Kind == grounding.FuncNext) != next {
			continue
		}
		s.words = grounding.WordsOf(s.words[:0], vals, w, fn.Lit)
		h := uint64(fn.Kind)<<32 ^ uint64(uint32(fn.Index))
		if fn.Kind != grounding.FuncGoal {
			h = uint64(fn.Kind) << 32 // the index names the function, not its value
		}
		zero := true
		for _, x := range s.words {
			if x != 0 {
				zero = false
			}
			h = mix(h ^ x)
		}
		if zero {
			continue // a false function adds nothing, so a missing goal value matches it
		}
		if o := s.owner[f]; o >= 0 {
			h = mix(h ^ uint64(s.cells[o])<<1 ^ 1)
		}
		sig += mix(h)
	}
	return sig
}

// cellSeed seeds the cell values; it is fixed, so the check is
// deterministic.
const cellSeed = 0x6a09e667f3bcc909

// cellWord is the value of cell q on the 64 lanes of word j. Word 0 is
// drawn with density 1/2; word 1 with densities 1/4, 1/8, 1/16 and 3/4, a
// quarter of the lanes each. Functions of many inputs are often almost
// constant at density 1/2 (a block of four cells, each lit by one of four
// propositions, is lit with probability 0.77); at other densities they
// take both values.
func cellWord(q uint64, j int) uint64 {
	k := cellSeed ^ q<<8 ^ uint64(j)
	r1 := mix(k)
	if j%2 == 0 {
		return r1
	}
	r2, r3, r4 := mix(k^0x9e3779b97f4a7c15), mix(k^0x3c6ef372fe94f82b), mix(k^0xa54ff53a5f1d36f1)
	const (
		quarter   = 0x000000000000ffff
		eighth    = 0x00000000ffff0000
		sixteenth = 0x0000ffff00000000
		three     = 0xffff000000000000
	)
	return r1&r2&quarter | r1&r2&r3&eighth | r1&r2&r3&r4&sixteenth | (r1|r2)&three
}

// mix is splitmix64's finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
