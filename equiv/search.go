package equiv

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// search verifies reasoning functions during the isomorphism search: a
// function of A is checked against its image in B at the first search node
// where its own vertex and every input it reads are mapped, and a failure
// prunes the whole subtree (no completion of that partial mapping can work).
type search struct {
	ctx     context.Context
	a, b    game
	checker *satcheck.Checker
	lim     *Limits
	rep     *Report

	funcs    []grounding.Function
	need     []grounding.Runs // need[f]: vertices of A that must be mapped to check f, its own vertex first
	own      []int32          // own[f]: f's own vertex (action, proposition, role); -1 for terminal
	ownedBy  [][]int32        // ownedBy[v]: the functions whose own vertex is v
	inputs   []grounding.Runs // inputs[f]: circuit inputs of A whose images f's check reads
	byVertex *vertexFuncs     // the functions whose need contains a vertex
	stamp    []int64          // stamp[f] = node at which f was last considered
	inputMap []int32
	// Scratch of byVertex.funcs for pruneFuncs and shallowestBlame.
	pruneBuf, blameBuf []int32

	nodes, pruned int64
	checkTime     time.Duration
	firstFailure  string
	failures      []int64 // failures[f]: partial mappings pruned because f differs from its image
	bMapped       []bool  // bMapped[i]: B's input i is the image of a mapped input of A
	bPre          []int32 // bPre[i]: the vertex of A mapped onto B's input i, where bMapped[i]
	bMappedAt     int64   // the node bMapped was computed at
	cells         *cellCheck
	cellPruned    int64 // subtrees pruned by cells.refutes
	pairPruned    int64 // subtrees pruned by pairsRefute
	corners       *cornerPairCheck
	cornerPruned  int64 // subtrees pruned by cornerPairsRefute
	probes        *probeCheck
	probePruned   int64 // subtrees pruned by probesRefute
	cofPruned     int64 // cosets pruned by Symmetries' cofactorCheck
	pairs         pairState
	coset         *coset
	refuted       map[refuteKey]refuteAnswer // refute's answers at node refuteAt
	refuteAt      int64
	cosetVerify   func(satcheck.Mapping) (bool, error)
	err           error
	// pruneMoved's scratch: the moved vertices of a root, and those with
	// their images.
	movedBuf, touchedBuf []int32
	// witnesses[v]: functions that differed from their images under a
	// rejected generator of the graph group moving vertex v (Symmetries).
	witnesses map[int32][]int32

	// fixDepth[v]: the depth of the node of Compare's search that fixed
	// vertex v of A on the current path (valid while v is mapped; nil in
	// the coset searches, which have no depths). jumpTo is the depth of
	// the shallowest ancestor the current node's refutation also refutes
	// (backjump): the node's own depth unless a check found that only
	// vertices fixed higher up decide it.
	fixDepth  []int32
	depthsOn  bool // fixDepth holds for the partial mapping being checked
	jumpTo    int
	backjumps int64 // refutations that skipped an ancestor's subtree

	// bounded: the checks are bounded (Compare's first pass); aside
	// counts the nodes and candidates a bounded check set aside.
	bounded bool
	aside   int64
	// asideStop: the node count at which a pass that set something aside
	// ends (Limits.AsideSlackNodes).
	asideStop int64
}

// refuteAnswer is refute's answer, with the depth its refutation is blamed
// on (witnessDepth; -1: the node's own).
type refuteAnswer struct {
	refuted bool
	depth   int32
	noImage bool // f's image is not a function of B: not asked
}

// refuteKey is refute's question: a literal of A against one of B, with
// the semantics of next functions or of the others, under the node's
// mapping.
type refuteKey struct {
	a, b grounding.Lit
	next bool
}

func newSearch(ctx context.Context, a, b game, checker *satcheck.Checker, lim *Limits, rep *Report) *search {
	s := &search{ctx: ctx, a: a, b: b, checker: checker, lim: lim, rep: rep}
	p, g := a.p, a.g
	s.funcs = p.Functions()
	s.need = make([]grounding.Runs, len(s.funcs))
	s.own = make([]int32, len(s.funcs))
	s.ownedBy = make([][]int32, g.Order())
	s.inputs = make([]grounding.Runs, len(s.funcs))
	s.stamp = make([]int64, len(s.funcs))
	s.failures = make([]int64, len(s.funcs))
	s.inputMap = make([]int32, p.NumInputs())
	for i := range s.inputMap {
		s.inputMap[i] = -1
	}
	for f, fn := range s.funcs {
		// A support walk per function: 8 s wall (load 15) on racer4's
		// 22,550 functions over 576,359 circuit nodes.
		if f%64 == 0 && ctx.Err() != nil {
			s.err = ctx.Err()
			return s
		}
		var need grounding.Runs
		own := int32(-1)
		switch fn.Kind {
		case grounding.FuncLegal:
			own = int32(g.ActionVertex(fn.Role, fn.Index))
		case grounding.FuncNext:
			own = int32(g.PropVertex(fn.Index))
		case grounding.FuncGoal:
			own = int32(g.RoleVertex(fn.Role))
		}
		if s.own[f] = own; own >= 0 {
			need = need.Add(own)
			s.ownedBy[own] = append(s.ownedBy[own], int32(f))
		}
		for _, in := range p.Circuit.Support(fn.Lit) {
			role, idx := p.InputOf(in)
			if role >= 0 && fn.Kind != grounding.FuncNext {
				continue // legal, goal and terminal are read with no move made
			}
			s.inputs[f] = s.inputs[f].Add(int32(in))
			if role < 0 {
				need = need.Add(int32(g.PropVertex(idx)))
			} else {
				need = need.Add(int32(g.ActionVertex(role, idx)))
			}
		}
		s.need[f] = need
	}
	s.byVertex = newVertexFuncs(g.Order(), s.need)
	return s
}

// internLists makes equal lists of ls share one array (they are read
// only). The actions of a role are all read by the same next functions,
// often: amazons' 173,962 action vertices each listed its 302 next
// functions, 374 MB.
func internLists(ls [][]int32) {
	seen := map[uint64][][]int32{}
	for i, l := range ls {
		if len(l) < 2 {
			continue
		}
		h := uint64(len(l))
		for _, x := range l {
			h = (h ^ uint64(uint32(x))) * 0x100000001b3
		}
		if j := slices.IndexFunc(seen[h], func(u []int32) bool { return slices.Equal(u, l) }); j >= 0 {
			ls[i] = seen[h][j]
		} else {
			seen[h] = append(seen[h], slices.Clip(l))
		}
	}
}

// visit is the isomorph.NodeFunc of Compare: the checks of single
// functions first, then, when they pass, the check on cell-constant
// assignments (cells.go). A refutation that depends only on vertices
// fixed above the node refutes their ancestor's whole subtree (refutedBy,
// isomorph.Node.Backjump).
func (s *search) visit(n *isomorph.Node) bool {
	if s.fixDepth == nil {
		s.fixDepth = make([]int32, s.a.g.Order())
	}
	d := n.Depth()
	for _, v := range n.Fixed {
		s.fixDepth[v] = int32(d)
	}
	s.jumpTo = d
	if s.visitChecks(n) {
		if s.jumpTo < d && !s.lim.NoBackjump {
			s.backjumps++
			n.Backjump(s.jumpTo)
		}
		return true
	}
	return false
}

// refutedBy records that the current refutation depends only on the
// images of function f and of the vertices vs: the backjump depth is the
// deepest depth at which one of them was fixed.
func (s *search) refutedBy(f int32, vs ...int32) {
	if !s.depthsOn {
		return
	}
	d := int32(0)
	for _, v := range vs {
		d = max(d, s.fixDepth[v])
	}
	s.refutedAt(f, d)
}

// refutedAt is refutedBy for vertices fixed at depth d or above.
func (s *search) refutedAt(f int32, d int32) {
	if !s.depthsOn {
		return
	}
	if s.funcs[f].Kind != grounding.FuncTerminal {
		// The terminal's image does not depend on the mapping.
		d = max(d, s.fixDepth[s.own[f]])
	}
	s.jumpTo = min(s.jumpTo, int(d))
}

// visitChecks runs the checks of visit; true prunes.
func (s *search) visitChecks(n *isomorph.Node) bool {
	if c := s.coset; c != nil {
		if c.found != nil || c.proven || c.err != nil {
			return true // decided by the coset search: unwind
		}
		if !c.done && s.nodes >= s.lim.CosetAfterNodes {
			s.runCoset(s.lim, s.cosetVerify)
			if c.found != nil || c.proven || c.err != nil {
				return true
			}
		}
	}
	if s.err == nil && s.probes != nil && s.probesRefute(n) {
		s.countNode()
		s.pruned++
		s.probePruned++
		return true
	}
	// Only prune's refutations name what they depend on (refutedBy).
	s.depthsOn = true
	pruned := s.prune(n.Partial, n.Fixed)
	s.depthsOn = false
	if pruned {
		return true
	}
	if !s.cellsActive() {
		return false
	}
	if err := s.ctx.Err(); err != nil {
		s.err = err // the cell check costs a whole evaluation: stop at once
		return true
	}
	if s.cells.refutes(n) {
		s.pruned++
		s.cellPruned++
		return true
	}
	return false
}

// cellsActive reports whether the cell check runs at this node: once the
// search has pruned a subtree (other than by the probe check, which is
// cheaper; see pairsActive) or verification rejected a candidate. A
// search that goes straight down one path to a mapping that verifies (most
// equivalent pairs) never pays for it.
func (s *search) cellsActive() bool {
	return s.cells != nil && (s.pruned > s.probePruned || s.rep.Stats.Candidates > 0)
}

// prune is the isomorph.PruneFunc: it returns true to cut the subtree.
func (s *search) prune(partial isomorph.Mapping, fixed []int32) bool {
	if s.err == nil && s.aside > 0 && s.nodes >= s.asideStop {
		s.err = errEnoughAside
	}
	if s.err != nil {
		return true
	}
	s.countNode()
	if s.pruneFuncs(partial, fixed) {
		return true
	}
	if s.pairsActive() && s.pairsRefute(partial, fixed) {
		s.pruned++
		s.pairPruned++
		return true
	}
	if s.pairsActive() && s.cornerPairsRefute(partial, fixed) {
		s.pruned++
		s.cornerPruned++
		return true
	}
	return false
}

// pruneFuncs checks the functions whose need contains a vertex of vs, each
// once per node (check when all of it is mapped, else refute); it returns
// true to cut the subtree.
func (s *search) pruneFuncs(partial isomorph.Mapping, vs []int32) bool {
	for _, v := range vs {
		for _, f := range s.byVertex.funcs(v, &s.pruneBuf) {
			if aside := s.aside; s.pruneFunc(partial, f) {
				if s.aside == aside { // refuted, not set aside
					s.shallowestBlame(partial, vs, f)
				}
				return true
			}
		}
	}
	return false
}

// errEnoughAside stops a bounded pass that set Limits.MaxSetAside nodes
// and candidates aside: the unbounded pass follows at once.
var errEnoughAside = errors.New("equiv: bounded pass set enough aside")

// setsAside reports whether err is a bounded check's limit in a bounded
// pass, and then counts the node or candidate set aside (stopping the
// pass at Limits.MaxSetAside). Set aside is neither refuted nor verified:
// the pass gives no verdict but a verified mapping.
func (s *search) setsAside(err error) bool {
	if !s.bounded || !errors.Is(err, satcheck.ErrLimit) {
		return false
	}
	s.aside++
	if s.aside == 1 {
		// What the bounded pass set aside may be the only mapping there
		// is: it searches on for a cheaper one for a bounded number of
		// nodes, then the unbounded pass decides.
		s.asideStop = s.nodes + s.lim.AsideSlackNodes
	}
	if s.aside >= s.lim.MaxSetAside && s.err == nil {
		s.err = errEnoughAside
	}
	return true
}

// shallowestBlame lowers the backjump depth of a node that function first
// refuted in pruneFuncs to the shallowest among the refutations of the
// functions pruneFuncs looks at, so that it does not depend on which came
// first (the order of vertices and functions follows names). check blames
// every vertex a function needs, one of them fixed at this node; a
// separating assignment (refute, also for a function whose inputs are all
// mapped) may need only vertices fixed higher up. Only the cheap stages run
// (refute: no SAT question is added at a pruned node), and only for
// functions whose own vertex was fixed above the current backjump depth;
// those that passed a check at this node are equal to their images.
func (s *search) shallowestBlame(partial isomorph.Mapping, vs []int32, first int32) {
	if !s.depthsOn || s.lim.NoBackjump || s.err != nil {
		return
	}
	firstDone := !s.ready(partial, int(first)) // refute already blamed its witness
	for _, v := range vs {
		for _, f := range s.byVertex.funcs(v, &s.blameBuf) {
			if f == first {
				if firstDone {
					continue
				}
				firstDone = true
			} else if s.stamp[f] == s.nodes || !s.ownMapped(partial, int(f)) {
				continue
			}
			if s.ownDepth(f) >= int32(s.jumpTo) {
				continue // its blame cannot be shallower
			}
			s.stamp[f] = s.nodes
			ans, err := s.refuteAnswer(partial, int(f))
			if errors.Is(err, satcheck.ErrLimit) || errors.Is(err, satcheck.ErrInvalidMapping) {
				continue // no blame from it (pruneFunc: a limit, or mixed roles)
			}
			if err != nil {
				s.err = err
				return
			}
			if ans.refuted && ans.depth >= 0 {
				s.refutedAt(f, ans.depth)
			}
		}
	}
}

// pruneFunc checks function f unless it was considered at this node
// already: check when all of it is mapped, refute when its own vertex is;
// it returns true to cut the subtree.
func (s *search) pruneFunc(partial isomorph.Mapping, f int32) bool {
	if s.stamp[f] == s.nodes {
		return false
	}
	s.stamp[f] = s.nodes
	var ok bool
	var err error
	switch {
	case s.ready(partial, int(f)):
		ok, err = s.check(partial, int(f))
	case s.ownMapped(partial, int(f)):
		ok, err = s.refute(partial, int(f))
	default:
		return false
	}
	if err != nil {
		// A limit or cancellation: stop the search and report it. A
		// limit on one check leaves that function to the final Verify,
		// or, in a bounded pass, sets the node aside.
		if s.setsAside(err) {
			return true
		}
		if errors.Is(err, satcheck.ErrLimit) {
			return false
		}
		if errors.Is(err, satcheck.ErrInvalidMapping) {
			// The partial mapping mixes roles (actions of one role
			// onto two roles' actions, which the ground graph need
			// not rule out): no completion is a game mapping.
			s.pruned++
			if s.firstFailure == "" {
				s.firstFailure = err.Error()
			}
			return true
		}
		s.err = err
		return true
	}
	if !ok {
		s.pruned++
		return true
	}
	return false
}

// countNode counts a search node, with progress every 256 nodes.
func (s *search) countNode() {
	s.nodes++
	if s.nodes%256 == 0 {
		s.lim.progress(Progress{Phase: "search", Candidates: s.rep.Stats.Candidates, Fraction: 0.5,
			Step: "searching for a mapping that verifies", Done: s.nodes, Unit: UnitNodes})
	}
}

// ownMapped reports whether f's own vertex (its action, proposition or
// role; terminal has none) is mapped, so that its image is known.
func (s *search) ownMapped(partial isomorph.Mapping, f int) bool {
	if s.funcs[f].Kind == grounding.FuncTerminal {
		return true
	}
	return partial[s.own[f]] >= 0
}

// refute checks f against its image on the joint moves and states that
// leave A's unmapped inputs and B's inputs outside the image false
// (satcheck.Checker.Refutes): a difference there holds for every completion
// of the partial mapping, so the subtree is pruned before all of f's inputs
// are mapped. It returns false to prune.
func (s *search) refute(partial isomorph.Mapping, f int) (bool, error) {
	ans, err := s.refuteAnswer(partial, f)
	if err != nil || ans.noImage {
		return false, err
	}
	if !ans.refuted {
		return true, nil
	}
	if ans.depth >= 0 {
		s.refutedAt(int32(f), ans.depth)
	}
	fn := s.funcs[f]
	s.failures[f]++
	if s.firstFailure == "" {
		s.firstFailure = s.a.p.FunctionName(fn) + " differs from its image under the partial mapping"
	}
	return false, nil
}

// refuteAnswer asks refute's question (once per node and pair of
// literals), without counting a failure.
func (s *search) refuteAnswer(partial isomorph.Mapping, f int) (refuteAnswer, error) {
	t0 := time.Now()
	defer func() { s.checkTime += time.Since(t0) }()
	fn := s.funcs[f]
	fb, ok := s.images(partial, f)
	if !ok {
		return refuteAnswer{noImage: true}, nil
	}
	if s.bMappedAt != s.nodes {
		s.markImage(partial)
	}
	// Functions that share a literal (a game's goals of two roles written
	// with one body: quad's (goal x 100) and (goal o 0)) ask the same
	// question at a node when their images share one too: ask it once.
	key := refuteKey{a: fn.Lit, b: fb, next: fn.Kind == grounding.FuncNext}
	if s.refuteAt != s.nodes {
		clear(s.refuted)
		s.refuteAt = s.nodes
	}
	ans, seen := s.refuted[key]
	if !seen {
		var rank satcheck.Rank
		if s.depthsOn {
			rank = s.inputDepth
		}
		refuted, w, err := s.checker.RefutesWitness(s.ctx, fn.Kind, fn.Lit, fb, s.inputMap, s.bMapped, rank)
		if err != nil {
			return refuteAnswer{}, err
		}
		ans = refuteAnswer{refuted: refuted, depth: s.witnessDepth(w)}
		if s.refuted == nil {
			s.refuted = map[refuteKey]refuteAnswer{}
		}
		s.refuted[key] = ans
	}
	return ans, nil
}

// ownDepth is the depth that fixed function f's own vertex (0 for the
// terminal, whose image does not depend on the mapping).
func (s *search) ownDepth(f int32) int32 {
	if s.funcs[f].Kind == grounding.FuncTerminal {
		return 0
	}
	return s.fixDepth[s.own[f]]
}

// inputDepth is the satcheck.Rank of refute's witnesses: the depth that
// fixed a mapped input of A (aIn) or the preimage of an input of B in the
// image (bIn).
func (s *search) inputDepth(aIn, bIn int32) int32 {
	if aIn >= 0 {
		return s.fixDepth[s.inputVertex(aIn)]
	}
	return s.fixDepth[s.bPre[bIn]]
}

// witnessDepth is the deepest depth at which a vertex of A that the
// separating assignment w depends on was fixed: the inputs of A true in w
// and the preimages of the inputs of B true in w (satcheck.Separation).
// -1 when there is no witness or no depths.
func (s *search) witnessDepth(w *satcheck.Separation) int32 {
	if w == nil || !s.depthsOn {
		return -1
	}
	d := int32(0)
	for _, in := range w.A {
		d = max(d, s.fixDepth[s.inputVertex(in)])
	}
	for _, in := range w.B {
		d = max(d, s.fixDepth[s.bPre[in]])
	}
	return d
}

// inputVertex is the vertex of A's circuit input in.
func (s *search) inputVertex(in int32) int32 {
	role, idx := s.a.p.InputOf(int(in))
	if role < 0 {
		return int32(s.a.g.PropVertex(idx))
	}
	return int32(s.a.g.ActionVertex(role, idx))
}

// markImage fills bMapped for the current node.
func (s *search) markImage(partial isomorph.Mapping) {
	pa := s.a.p
	if s.bMapped == nil {
		s.bMapped = make([]bool, s.b.p.NumInputs())
		s.bPre = make([]int32, s.b.p.NumInputs())
	}
	clear(s.bMapped)
	for in := range pa.NumInputs() {
		if img, ok := s.image(partial, in); ok && img >= 0 {
			s.bMapped[img] = true
			s.bPre[img] = s.inputVertex(int32(in))
		}
	}
	s.bMappedAt = s.nodes
}

func (s *search) ready(partial isomorph.Mapping, f int) bool {
	for v := range s.need[f].All() {
		if partial[v] < 0 {
			return false
		}
	}
	return true
}

// check compares function f of A with its image under the partial mapping.
func (s *search) check(partial isomorph.Mapping, f int) (bool, error) {
	t0 := time.Now()
	defer func() { s.checkTime += time.Since(t0) }()
	fn := s.funcs[f]
	fb, ok := s.images(partial, f)
	if !ok {
		return false, nil
	}
	equal, err := s.checker.CheckFunc(s.ctx, fn.Kind, fn.Lit, fb, s.inputMap)
	if err == nil && !equal {
		s.refutedBy(int32(f), s.need[f].AppendTo(nil)...)
		s.failures[f]++
		if s.firstFailure == "" {
			s.firstFailure = s.a.p.FunctionName(fn) + " has no equal counterpart under the partial mapping"
		}
	}
	return equal, err
}

// mostFailed names the function that pruned the search most often, for the
// reason of an unknown verdict: where the ground graph is coarser than the
// game, so that a finer feature of that function would help.
func (s *search) mostFailed() string {
	best := -1
	for f, n := range s.failures {
		if n > 0 && (best < 0 || n > s.failures[best]) {
			best = f
		}
	}
	var why string
	if best >= 0 {
		why = fmt.Sprintf("%s differed from its image in %d of %d pruned subtrees", s.a.p.FunctionName(s.funcs[best]), s.failures[best], s.pruned)
	}
	if s.pairPruned > 0 {
		if why != "" {
			why += "; "
		}
		why += fmt.Sprintf("two propositions acted differently together in some function in %d of %d pruned subtrees", s.pairPruned, s.pruned)
	}
	if s.cornerPruned > 0 {
		if why != "" {
			why += "; "
		}
		why += fmt.Sprintf("two propositions were together in a different number of corners of some function in %d of %d pruned subtrees", s.cornerPruned, s.pruned)
	}
	if s.probePruned > 0 {
		if why != "" {
			why += "; "
		}
		why += fmt.Sprintf("actions combined differently in two-move plays from the initial state in %d of %d pruned subtrees", s.probePruned, s.pruned)
	}
	if s.cofPruned > 0 {
		if why != "" {
			why += "; "
		}
		why += fmt.Sprintf("the goals differed on states of the mapped propositions and one more in %d of %d pruned subtrees", s.cofPruned, s.pruned)
	}
	if s.cellPruned > 0 {
		if why != "" {
			why += "; "
		}
		why += fmt.Sprintf("the functions of some cell differed on cell-constant states in %d of %d pruned subtrees", s.cellPruned, s.pruned)
	}
	return why
}

// images fills inputMap with the images of f's inputs (-1 for those not
// mapped yet) and returns f's counterpart in B; false when some vertex maps
// to one of another kind.
func (s *search) images(partial isomorph.Mapping, f int) (grounding.Lit, bool) {
	for in := range s.inputs[f].All() {
		img, ok := s.image(partial, int(in))
		if !ok {
			return 0, false
		}
		s.inputMap[in] = img
	}
	return s.imageFunc(partial, s.funcs[f])
}

// image maps a circuit input of A through the vertex mapping to B's input
// (-1 when it is not mapped yet); false when the kinds do not match.
func (s *search) image(partial isomorph.Mapping, in int) (int32, bool) {
	pa, ga, pb, gb := s.a.p, s.a.g, s.b.p, s.b.g
	role, idx := pa.InputOf(in)
	var v int
	if role < 0 {
		v = ga.PropVertex(idx)
	} else {
		v = ga.ActionVertex(role, idx)
	}
	if partial[v] < 0 {
		return -1, true // unmapped
	}
	w := gb.Vertex(int(partial[v]))
	switch {
	case role < 0 && w.Kind == groundgraph.Prop:
		return int32(pb.TrueInput(w.Index).Node() - 1), true
	case role >= 0 && w.Kind == groundgraph.Action:
		return int32(pb.DoesInput(w.Role, w.Index).Node() - 1), true
	}
	return -1, false
}

// imageFunc finds B's counterpart of A's function under the partial mapping.
func (s *search) imageFunc(partial isomorph.Mapping, fn grounding.Function) (grounding.Lit, bool) {
	ga, pb, gb := s.a.g, s.b.p, s.b.g
	switch fn.Kind {
	case grounding.FuncLegal:
		w := gb.Vertex(int(partial[ga.ActionVertex(fn.Role, fn.Index)]))
		if w.Kind != groundgraph.Action {
			return 0, false
		}
		return pb.Legal[w.Role][w.Index], true
	case grounding.FuncNext:
		w := gb.Vertex(int(partial[ga.PropVertex(fn.Index)]))
		if w.Kind != groundgraph.Prop {
			return 0, false
		}
		return pb.Next[w.Index], true
	case grounding.FuncGoal:
		w := gb.Vertex(int(partial[ga.RoleVertex(fn.Role)]))
		if w.Kind != groundgraph.Role {
			return 0, false
		}
		for _, g := range pb.Goals[w.Role] {
			if g.Value == fn.Index {
				return g.Lit, true
			}
		}
		return grounding.False, true
	}
	return pb.Terminal, true
}
