package equiv

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// pairState is the search's bookkeeping for pair types (pairsRefute).
type pairState struct {
	// validated: some node has had every pair of its mapped propositions
	// checked. Until then each node checks all of its pairs, since the
	// nodes above it were visited before the check was active; after that
	// a node checks only the pairs with a proposition it fixes, as every
	// node the search visits later descends from a checked node's
	// ancestors or from the node itself.
	validated bool
	// last is the pair that refuted last: checked first, since the
	// siblings of a refuted node often share the pair that refuted it.
	last    pairAt
	hasLast bool
	isNew   []int64 // isNew[i] == stamp: input i of A is fixed at this node
	stamp   int64
	size    []int32 // size[f]: gates in the cone of function f, -1 until known
	us, ubs []int32 // scratch: a proposition's partners and their images
	workAt  int64   // the checker's PairWork when this node's check began
}

// pairTask is one function to check at a node: only the pairs with a new
// proposition, or all of them.
type pairTask struct {
	f    int32
	all  bool
	size int32
}

// coneSize returns the number of gates in the cone of A's function f.
func (s *search) coneSize(f int32) int32 {
	ps := &s.pairs
	if ps.size == nil {
		ps.size = make([]int32, len(s.funcs))
		for x := range ps.size {
			ps.size[x] = -1
		}
	}
	if ps.size[f] < 0 {
		_, gates, err := grounding.CollectCone(&s.a.p.Circuit, s.funcs[f].Lit)
		ps.size[f] = int32(len(gates))
		if err != nil {
			ps.size[f] = math.MaxInt32 // last; the checker reports the error
		}
	}
	return ps.size[f]
}

// pairAt is a pair of A's inputs read by function f.
type pairAt struct {
	f    int32
	i, u int32
}

// pairsActive reports whether the pair check runs at this node: like the
// cell check, once the search has pruned a subtree or verification
// rejected a candidate, so a search that goes straight to a mapping that
// verifies never pays for it. Subtrees the probe check pruned do not count:
// it runs first and costs far less, and where it prunes every wrong
// branch (two-move plays tell the actions apart) the pair types' SAT
// questions only slow the search down.
func (s *search) pairsActive() bool {
	return !s.lim.NoPairCheck && (s.pruned > s.probePruned || s.rep.Stats.Candidates > 0)
}

// pairsRefute compares pair types (satcheck.Checker.PairsDiffer): for each
// function of the state (legal, goal, terminal) whose image is known, and
// two propositions it reads that are mapped, the way they act together in
// the function must be the way their images act together in the image. A
// difference holds for every completion of the partial mapping, so it
// prunes the subtree; unlike the checks of single functions it needs only
// the two propositions mapped, not every input of the function.
func (s *search) pairsRefute(partial isomorph.Mapping, fixed []int32) bool {
	t0 := time.Now()
	defer func() { s.checkTime += time.Since(t0) }()
	ps := &s.pairs
	if ps.isNew == nil {
		ps.isNew = make([]int64, s.a.p.NumInputs())
	}
	ps.stamp++
	ps.workAt = s.checker.PairWork()
	pa, ga := s.a.p, s.a.g
	var props []int32  // A's propositions fixed here (all mapped ones until validated)
	var owners []int32 // functions whose own vertex (action, role) is fixed here
	for _, v := range fixed {
		switch vx := ga.Vertex(int(v)); vx.Kind {
		case groundgraph.Prop:
			i := int32(pa.TrueInput(vx.Index).Node() - 1)
			ps.isNew[i] = ps.stamp
			props = append(props, i)
		case groundgraph.Action, groundgraph.Role:
			for _, f := range s.ownedBy[v] {
				if s.funcs[f].Kind != grounding.FuncNext {
					owners = append(owners, f)
				}
			}
		}
	}
	if ps.hasLast {
		if refuted, done := s.pairDiffers(partial, ps.last); done {
			return refuted
		}
	}
	if !ps.validated {
		props = props[:0]
		for in := range pa.Circuit.NumInputs {
			if role, _ := pa.InputOf(in); role < 0 {
				if img, ok := s.image(partial, in); ok && img >= 0 {
					ps.isNew[in] = ps.stamp
					props = append(props, int32(in))
				}
			}
		}
	}
	// The functions to check, the smallest cones first: their questions
	// are the cheapest, and one refutation decides the node.
	var todo []pairTask
	seen := map[int32]bool{}
	for _, f := range owners {
		// Every pair of a function whose image is new here is new.
		seen[f] = true
		todo = append(todo, pairTask{f: f, all: true})
	}
	var buf []int32
	for _, i := range props {
		_, idx := pa.InputOf(int(i))
		for _, f := range s.byVertex.funcs(int32(ga.PropVertex(idx)), &buf) {
			if seen[f] {
				continue
			}
			seen[f] = true
			if s.funcs[f].Kind == grounding.FuncNext || !s.ownMapped(partial, int(f)) {
				continue
			}
			todo = append(todo, pairTask{f: f})
		}
	}
	for x := range todo {
		todo[x].size = s.coneSize(todo[x].f)
	}
	slices.SortFunc(todo, func(x, y pairTask) int { return cmp.Or(cmp.Compare(x.size, y.size), cmp.Compare(x.f, y.f)) })
	for _, t := range todo {
		if refuted, done := s.pairsOf(partial, t.f, t.all); done {
			return refuted
		}
		if s.checker.PairWork()-ps.workAt > s.lim.MaxPairWork {
			// The rest of this node's pairs go unchecked here; the next
			// node checks all of its pairs again (those known are cached),
			// so that none is skipped for a whole subtree.
			ps.validated = false
			return false
		}
	}
	ps.validated = true
	return false
}

// pairsOf checks function f's pairs that hold a new proposition (all its
// mapped pairs if all); done reports that the node is decided (refuted, or
// the search must stop).
func (s *search) pairsOf(partial isomorph.Mapping, f int32, all bool) (refuted, done bool) {
	ps := &s.pairs
	fb, ok := s.images(partial, int(f))
	if !ok {
		return false, false
	}
	in := s.inputs[f].AppendTo(nil)
	for x, i := range in {
		if s.inputMap[i] < 0 || !(all || ps.isNew[i] == ps.stamp) {
			continue
		}
		us, ubs := ps.us[:0], ps.ubs[:0]
		for y, u := range in {
			// Each unordered pair once.
			if y == x || s.inputMap[u] < 0 || ((all || ps.isNew[u] == ps.stamp) && y < x) {
				continue
			}
			us, ubs = append(us, u), append(ubs, s.inputMap[u])
		}
		ps.us, ps.ubs = us, ubs
		if refuted, done := s.pairsDiffer(f, fb, i, us, ubs); done {
			return refuted, true
		}
		if s.checker.PairWork()-ps.workAt > s.lim.MaxPairWork {
			return false, false
		}
	}
	return false, false
}

// pairDiffers re-checks a remembered pair at this node, if f's image and
// both propositions are mapped here.
func (s *search) pairDiffers(partial isomorph.Mapping, p pairAt) (refuted, done bool) {
	if !s.ownMapped(partial, int(p.f)) {
		return false, false
	}
	fb, ok := s.images(partial, int(p.f))
	if !ok || s.inputMap[p.i] < 0 || s.inputMap[p.u] < 0 {
		return false, false
	}
	return s.pairsDiffer(p.f, fb, p.i, []int32{p.u}, []int32{s.inputMap[p.u]})
}

// pairsDiffer asks the checker about the pairs (i, us[x]) of f against
// (image of i, ubs[x]) of fb; done reports a refutation or an error (kept
// in s.err).
func (s *search) pairsDiffer(f int32, fb grounding.Lit, i int32, us, ubs []int32) (refuted, done bool) {
	if len(us) == 0 {
		return false, false
	}
	if err := s.ctx.Err(); err != nil {
		s.err = err
		return true, true
	}
	fn := s.funcs[f]
	left := s.lim.MaxPairWork - (s.checker.PairWork() - s.pairs.workAt)
	if left <= 0 {
		return false, false
	}
	x, err := s.checker.PairsDiffer(s.ctx, fn.Kind, fn.Lit, fb, i, us, s.inputMap[i], ubs, left)
	switch {
	case errors.Is(err, satcheck.ErrLimit):
		return false, false
	case err != nil:
		s.err = err
		return true, true
	case x < 0:
		return false, false
	}
	s.refutedBy(f, s.inputVertex(i), s.inputVertex(us[x]))
	s.failures[f]++
	if s.firstFailure == "" {
		s.firstFailure = s.a.p.FunctionName(fn) + " treats two propositions together unlike its image"
	}
	s.pairs.last, s.pairs.hasLast = pairAt{f: f, i: i, u: us[x]}, true
	return true, true
}
