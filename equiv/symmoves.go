package equiv

import (
	"fmt"
	"slices"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// Symmetries verifies each graph automorphism by what it moves
// (satcheck.Checker.VerifyMoves): a generator of a big game's graph group
// moves a few of its hundreds of thousands of vertices, and a full Verify
// per generator compared every reasoning function, ~130k on
// amazonsSuicide, for each of its ~32k generators.

// movesOf turns an automorphism of g, given by the vertices it moves, into
// the self-mapping of g's program it induces, by what it moves; ok is false
// when it maps an action outside its role's image (no game mapping).
func movesOf(g *groundgraph.Graph, base []int32, sp isomorph.Sparse) (mv satcheck.Moves, ok bool, err error) {
	p := g.Program()
	mv.Roles = make([]int, len(p.Roles))
	for r := range mv.Roles {
		mv.Roles[r] = r
	}
	type move struct{ in, img int32 }
	var moves []move
	img := func(k int) (v, w groundgraph.Vertex, err error) {
		v, w = g.Vertex(int(sp.Points[k])), g.Vertex(int(sp.Images[k]))
		if v.Kind != w.Kind {
			return v, w, fmt.Errorf("groundgraph: vertex %d (%s) maps to %d, not a %s vertex", sp.Points[k], g.Label(int(sp.Points[k])), sp.Images[k], v.Kind)
		}
		return v, w, nil
	}
	for k := range sp.Points {
		v, w, err := img(k)
		if err != nil && v.Kind == groundgraph.Role {
			return mv, false, err
		}
		if v.Kind == groundgraph.Role {
			mv.Roles[v.Role] = w.Role
		}
	}
	moved := make([]int, len(p.Roles))
	for k := range sp.Points {
		v, w, err := img(k)
		switch v.Kind {
		case groundgraph.Prop:
			if err != nil {
				return mv, false, err
			}
			moves = append(moves, move{int32(v.Index), int32(w.Index)})
		case groundgraph.Action:
			if err != nil {
				return mv, false, err
			}
			if w.Role != mv.Roles[v.Role] {
				return mv, false, nil
			}
			moved[v.Role]++
			moves = append(moves, move{base[v.Role] + int32(v.Index), base[w.Role] + int32(w.Index)})
		}
	}
	for r, rb := range mv.Roles {
		if rb != r && moved[r] != len(p.Actions[r]) {
			return mv, false, nil // an action stays in a role that moves
		}
	}
	slices.SortFunc(moves, func(x, y move) int { return int(x.in) - int(y.in) })
	mv.Inputs = make([]int32, len(moves))
	mv.Images = make([]int32, len(moves))
	for k, m := range moves {
		mv.Inputs[k], mv.Images[k] = m.in, m.img
	}
	return mv, true, nil
}

// movedNamesOf names a symmetry by what it moves, as movedNames does.
func movedNamesOf(p *grounding.Program, base []int32, mv satcheck.Moves) *Mapping {
	out := &Mapping{Roles: map[string]string{}, Propositions: map[string]string{}, Actions: map[string]map[string]string{}}
	for r, rb := range mv.Roles {
		out.Roles[p.Roles[r]] = p.Roles[rb]
	}
	nProps := int32(len(p.Props))
	for k, i := range mv.Inputs {
		j := mv.Images[k]
		if i < nProps {
			out.Propositions[p.Props[i]] = p.Props[j]
			continue
		}
		r, _ := slices.BinarySearch(base, i+1)
		r-- // the role whose actions start at or before i
		rb := mv.Roles[r]
		acts := out.Actions[p.Roles[r]]
		if acts == nil {
			acts = map[string]string{}
			out.Actions[p.Roles[r]] = acts
		}
		acts[p.Actions[r][i-base[r]]] = p.Actions[rb][j-base[rb]]
	}
	return out
}

// movesIdentity reports whether mv moves nothing.
func movesIdentity(mv satcheck.Moves) bool {
	for r, rb := range mv.Roles {
		if r != rb {
			return false
		}
	}
	return len(mv.Inputs) == 0
}

// rejectsMoves is probeCheck.rejects on a self-mapping given by what it
// moves: the outcomes of pairs of actions that both stay are their own
// images, so only pairs with a moved action are compared.
func (c *probeCheck) rejectsMoves(mv satcheck.Moves, base []int32) bool {
	if c.off || !c.isSetUp || !c.eager() {
		return false
	}
	if !c.ready {
		c.computeRelations()
		if c.off {
			return false
		}
	}
	// The actions of role r that mv moves: a run of mv.Inputs.
	run := func(r int) (lo, hi int) {
		lo, _ = slices.BinarySearch(mv.Inputs, base[r])
		hi, _ = slices.BinarySearch(mv.Inputs, base[r+1])
		return lo, hi
	}
	act := func(r, rb, x int) int { // σ of action x of role r, within rb
		i := base[r] + int32(x)
		if k, ok := slices.BinarySearch(mv.Inputs, i); ok {
			return int(mv.Images[k] - base[rb])
		}
		return x
	}
	if c.joint {
		return c.rejectsJoint(func(r int) int { return mv.Roles[r] }, func(r, x int) int { return act(r, mv.Roles[r], x) })
	}
	for r, rb := range c.roleB {
		if mv.Roles[r] != int(rb) || (len(c.roleB) > 1 && act(r, int(rb), int(c.a.deflt[r])) != int(c.b.deflt[rb])) {
			return false
		}
	}
	for r, rb := range c.roleB {
		n := int(base[r+1] - base[r])
		ra, rbRel := c.a.rel[r], c.b.rel[rb]
		lo, hi := run(r)
		for k := lo; k < hi; k++ {
			x := int(mv.Inputs[k] - base[r])
			sx := int(mv.Images[k] - base[rb])
			for y := range n {
				sy := act(r, int(rb), y)
				if ra[x*n+y] != rbRel[sx*n+sy] || ra[y*n+x] != rbRel[sy*n+sx] {
					return true
				}
			}
		}
	}
	return false
}

// pruneMoved is prune at the root of a coset search of Symmetries, where
// fixed lists every vertex whose image is determined. A function can
// differ from its image under a self-mapping only if the mapping moves
// its own vertex or one of its inputs, or one of its inputs is the image
// of a moved vertex: any other is itself on the same inputs, in check and
// in refute's restricted space alike. So only the functions next to a
// moved vertex or to its image are checked, where prune would check
// every function next to fixed: all of them at a root.
func (s *search) pruneMoved(partial isomorph.Mapping, fixed []int32) bool {
	if s.err != nil {
		return true
	}
	s.countNode()
	s.movedBuf, s.touchedBuf = s.movedBuf[:0], s.touchedBuf[:0]
	for _, v := range fixed {
		if w := partial[v]; w >= 0 && w != v {
			s.movedBuf = append(s.movedBuf, v)
			s.touchedBuf = append(s.touchedBuf, v, w)
		}
	}
	// The functions that told a generator moving the same vertices apart
	// first: when a coset swaps two moves that hundreds of functions read,
	// one of them usually tells them apart.
	for _, v := range s.movedBuf {
		for _, f := range s.witnesses[v] {
			if s.pruneFunc(partial, f) {
				return true
			}
		}
	}
	if s.pruneFuncs(partial, s.touchedBuf) {
		return true
	}
	if s.pairsActive() && s.pairsRefute(partial, s.movedBuf) {
		s.pruned++
		s.pairPruned++
		return true
	}
	if s.pairsActive() && s.cornerPairsRefute(partial, s.movedBuf) {
		s.pruned++
		s.cornerPruned++
		return true
	}
	return false
}

// maxWitnesses bounds the functions witnessTable keeps per vertex.
const maxWitnesses = 2

// witnessTable records, for the vertices a rejected generator moves, the
// function VerifyMoves found to differ from its image, for pruneMoved to
// check first: a coset that moves the same vertices alike is likely
// refuted by it.
type witnessTable struct {
	p     *grounding.Program
	index map[grounding.Function]int32 // a function's index in Functions(), built on first use
	by    map[int32][]int32
}

func newWitnessTable(p *grounding.Program) *witnessTable {
	return &witnessTable{p: p, by: map[int32][]int32{}}
}

// add records fn, which differed from its image under sp.
func (w *witnessTable) add(sp isomorph.Sparse, fn grounding.Function) {
	if w.index == nil {
		w.index = map[grounding.Function]int32{}
		for f, fn := range w.p.Functions() {
			w.index[fn] = int32(f)
		}
	}
	f, ok := w.index[fn]
	if !ok {
		return
	}
	for _, v := range sp.Points {
		fs := w.by[v]
		if len(fs) < maxWitnesses && !slices.Contains(fs, f) {
			w.by[v] = append(fs, f)
		}
	}
}
