package isomorph

import (
	"context"
	"iter"
	"math"
	"slices"
)

// Find returns an isomorphism from g to h (colours preserved), or
// ErrNotIsomorphic. It compares cheap invariants first, then the canonical
// forms of both graphs; each of the two searches has its own Limits.
func Find(ctx context.Context, g, h Digraph, lim Limits) (Mapping, error) {
	gg, hh, err := convert2(g, h)
	if err != nil {
		return nil, err
	}
	m, _, err := find(ctx, gg, hh, lim)
	return m, err
}

func convert2(g, h Digraph) (*Graph, *Graph, error) {
	gg, err := Convert(g)
	if err != nil {
		return nil, nil, err
	}
	hh, err := Convert(h)
	if err != nil {
		return nil, nil, err
	}
	return gg, hh, nil
}

// find returns an isomorphism and g's canonical search result.
func find(ctx context.Context, g, h *Graph, lim Limits) (Mapping, *Canon, error) {
	if !sameInvariants(g, h) {
		return nil, nil, ErrNotIsomorphic
	}
	if !samePreference(g, h) {
		g, h = g.withoutPreference(), h.withoutPreference()
	}
	cg, err := Canonize(ctx, g, lim)
	if err != nil {
		return nil, nil, err
	}
	ch, err := Canonize(ctx, h, lim)
	if err != nil {
		return nil, nil, err
	}
	if !cg.Certificate.Equal(ch.Certificate) {
		return nil, cg, ErrNotIsomorphic
	}
	hAt := make([]int32, h.n) // canonical index -> vertex of h
	for v, i := range ch.Labeling {
		hAt[i] = int32(v)
	}
	m := make(Mapping, g.n)
	for v, i := range cg.Labeling {
		m[v] = hAt[i]
	}
	return m, cg, nil
}

// sameInvariants compares sizes, colour multisets, degrees per colour class
// and the refinement traces of the two colour partitions.
func sameInvariants(g, h *Graph) bool {
	if g.n != h.n || len(g.outAdj) != len(h.outAdj) {
		return false
	}
	pg, ph := newPartition(g.n), newPartition(h.n)
	pg.setColors(g)
	ph.setColors(h)
	for i := range pg.elems {
		if g.colors[pg.elems[i]] != h.colors[ph.elems[i]] {
			return false
		}
	}
	rg, rh := newRefiner(g, pg), newRefiner(h, ph)
	rg.enqueueAll()
	rh.enqueueAll()
	ctx := context.Background()
	if _, err := rg.refine(ctx); err != nil {
		return false
	}
	if _, err := rh.refine(ctx); err != nil {
		return false
	}
	if !slices.Equal(rg.tok, rh.tok) {
		return false
	}
	for i := range pg.elems {
		u, v := pg.elems[i], ph.elems[i]
		if len(g.Out(int(u))) != len(h.Out(int(v))) || len(g.In(int(u))) != len(h.In(int(v))) {
			return false
		}
	}
	return true
}

// All returns every isomorphism from g to h, each exactly once, as a
// stream: one isomorphism f composed with every automorphism a of g
// (v -> f(a(v))), enumerated through the stabiliser chain of Aut(g). The
// sequence is empty if the graphs are not isomorphic; a search error is
// yielded once, with a nil Mapping, and ends the sequence. Each yielded
// Mapping is a fresh slice. To reject partial mappings during the search,
// use Search.
func All(ctx context.Context, g, h Digraph, lim Limits) iter.Seq2[Mapping, error] {
	return func(yield func(Mapping, error) bool) {
		gg, hh, err := convert2(g, h)
		if err != nil {
			yield(nil, err)
			return
		}
		f, cg, err := find(ctx, gg, hh, lim)
		if err == ErrNotIsomorphic {
			return
		}
		if err != nil {
			yield(nil, err)
			return
		}
		k := 0
		for a := range cg.Group.Elements() {
			if k++; k&1023 == 0 {
				if err := ctx.Err(); err != nil {
					yield(nil, err)
					return
				}
			}
			m := make(Mapping, len(a))
			for v, w := range a {
				m[v] = f[w]
			}
			if !yield(m, nil) {
				return
			}
		}
	}
}

// PruneFunc is called by Search at every search-tree node it keeps. partial
// maps each vertex of g that the node fixes to its image in h and holds -1
// for the others; fixed lists the vertices of g fixed at this node and not
// at its parent (at the root: every vertex fixed by refinement alone). It
// returns true to prune: the search then skips the node's whole subtree.
// Both slices belong to the search and are valid only during the call.
type PruneFunc func(partial Mapping, fixed []int32) bool

// Search enumerates every isomorphism from g to h by walking the
// individualization-refinement tree of h against one reference path of g's
// tree: a node of h's tree is kept only while its refinement trace equals
// that of g's node at the same depth, and the singleton cells of the two
// partitions, matched by position, make the partial mapping handed to
// prune. A nil prune keeps every node. Each isomorphism that no prune call
// rejected is yielded once, as a fresh slice, after a full check of colours
// and arcs. Unlike All, Search uses no automorphism pruning (it would not
// be sound with an arbitrary prune), so its tree can be much larger than
// the number of isomorphisms; Limits.MaxNodes bounds it. Errors are
// yielded once with a nil Mapping and end the sequence.
func Search(ctx context.Context, g, h Digraph, lim Limits, prune PruneFunc) iter.Seq2[Mapping, error] {
	var visit NodeFunc
	if prune != nil {
		visit = func(n *Node) bool { return prune(n.Partial, n.Fixed) }
	}
	return SearchNodes(ctx, g, h, lim, visit)
}

// NodeFunc is PruneFunc with the whole node: besides the partial mapping,
// the two partitions whose cells every isomorphism below the node maps onto
// each other. It returns true to prune the node's subtree.
type NodeFunc func(n *Node) bool

// Node is a search-tree node of SearchNodes, valid only during the
// NodeFunc call.
type Node struct {
	// Partial and Fixed are PruneFunc's arguments.
	Partial Mapping
	Fixed   []int32

	hs    *hSearch
	depth int32
}

// Depth is the number of individualizations from the root to the node.
func (n *Node) Depth() int { return int(n.depth) }

// Backjump widens the node's refutation (visit returning true) to its
// ancestor at depth k (0 <= k <= Depth): the visit function has found that
// what refutes the node depends only on the mapping of vertices fixed at
// depth k or above, so every node below that ancestor fails too, and the
// search skips the ancestor's remaining subtree instead of refuting its
// nodes one by one (conflict-directed backjumping). At k = 0 the search
// ends. It has no effect unless visit returns true.
func (n *Node) Backjump(k int) {
	if n.hs != nil && k < n.hs.jump {
		n.hs.jump = max(k, 0)
	}
}

// CellsG writes to dst[v], for every vertex v of g, the start position of
// v's cell in g's partition at the node (g's reference partition at the
// same depth). CellH gives h's. Cells with the same start are matched:
// every isomorphism that the search reaches below the node maps g's cell
// at position q onto h's cell at position q, so a property that holds of
// every such isomorphism can be tested on cells before they are singletons.
// CellsG takes time linear in g's order.
func (n *Node) CellsG(dst []int32) {
	ref := n.hs.ref
	start := int32(0)
	for q, v := range ref.elems {
		if ref.born[q] <= n.depth {
			start = int32(q)
		}
		dst[v] = start
	}
}

// CellH returns the start position of vertex v's cell in h's partition at
// the node.
func (n *Node) CellH(v int) int32 { return n.hs.p.cellOf[v] }

// SearchNodes is Search with a NodeFunc.
func SearchNodes(ctx context.Context, g, h Digraph, lim Limits, visit NodeFunc) iter.Seq2[Mapping, error] {
	return func(yield func(Mapping, error) bool) {
		gg, hh, err := convert2(g, h)
		if err != nil {
			yield(nil, err)
			return
		}
		if !sameSizes(gg, hh) {
			return
		}
		ref, err := referencePath(ctx, gg)
		if err != nil {
			yield(nil, err)
			return
		}
		hs := &hSearch{g: gg, h: hh, ref: ref, visit: visit, maxNodes: lim.maxNodes(), yield: yield}
		if err := hs.run(ctx); err != nil {
			yield(nil, err)
		}
	}
}

// sameSizes compares sizes, colours by position of the colour partitions,
// and degrees.
func sameSizes(g, h *Graph) bool {
	if g.n != h.n || len(g.outAdj) != len(h.outAdj) {
		return false
	}
	pg, ph := newPartition(g.n), newPartition(h.n)
	pg.setColors(g)
	ph.setColors(h)
	for i := range pg.elems {
		u, v := pg.elems[i], ph.elems[i]
		if g.colors[u] != h.colors[v] {
			return false
		}
	}
	return true
}

// refPath is one root-to-leaf path of a graph's search tree.
type refPath struct {
	tok   []int32 // trace tokens along the path
	end   []int   // end[d]: end of the depth-d tokens
	cell  []int32 // target cell start at each non-leaf depth
	elems []int32 // the leaf's discrete partition
	// born[q]: the depth (number of individualizations) from which a cell
	// starts at position q; cells only split along the path, so the cell
	// of position x at depth k starts at the largest q <= x with born[q] <= k.
	born []int32
}

// referencePath descends g's tree always taking the first child.
func referencePath(ctx context.Context, g *Graph) (*refPath, error) {
	s := newSearcher(g, modeAut, Limits{})
	s.noFree = true // Search enumerates every mapping: it needs discrete leaves
	p, r := s.p, s.r
	p.setColors(g)
	r.enqueueAll()
	if _, err := r.refine(ctx); err != nil {
		return nil, err
	}
	ref := &refPath{born: make([]int32, g.n)}
	for q := range ref.born {
		ref.born[q] = math.MaxInt32
	}
	for c := int32(0); c < p.n; c += p.cellLen[c] {
		ref.born[c] = 0
	}
	mark := len(p.trail)
	s.ensureLevel(0)
	for d := 0; !p.discrete(); d++ {
		ref.end = append(ref.end, len(r.tok))
		s.ensureLevel(d)
		s.newNode(d, s.targetCell())
		lv := &s.levels[d]
		ref.cell = append(ref.cell, lv.cell)
		c := p.individualize(p.elems[lv.cell])
		r.emit(lv.cell)
		r.enqueue(c)
		if _, err := r.refine(ctx); err != nil {
			return nil, err
		}
		for _, c := range p.trail[mark:] {
			if c >= 0 && ref.born[c] > int32(d+1) {
				ref.born[c] = int32(d + 1)
			}
		}
		mark = len(p.trail)
	}
	ref.end = append(ref.end, len(r.tok))
	ref.tok = r.tok
	ref.elems = p.elems
	return ref, nil
}

// hSearch walks h's tree against a reference path of g's.
type hSearch struct {
	g, h     *Graph
	ref      *refPath
	visit    NodeFunc
	node     Node
	maxNodes int64
	nodes    int64
	yield    func(Mapping, error) bool
	stopped  bool

	p     *partition
	r     *refiner
	m     Mapping
	fixed []int32 // g-vertices fixed, node by node
	stamp []uint32
	epoch uint32
	// jump is the depth Node.Backjump asked for at the node being visited
	// (math.MaxInt32: none).
	jump int
}

type hLevel struct {
	mark     int
	tokEnd   int
	fixedEnd int
	verts    []int32
	next     int
}

func (hs *hSearch) run(ctx context.Context) error {
	g, h, ref := hs.g, hs.h, hs.ref
	hs.p = newPartition(h.n)
	hs.r = newRefiner(h, hs.p)
	hs.m = make(Mapping, g.n)
	for i := range hs.m {
		hs.m[i] = -1
	}
	hs.stamp = make([]uint32, h.n)
	p, r := hs.p, hs.r
	p.setColors(h)
	r.trackSingles = true
	for c := int32(0); c < p.n; c += p.cellLen[c] {
		if p.cellLen[c] == 1 {
			r.singles = append(r.singles, c)
		}
	}
	r.enqueueAll()
	r.compare, r.eqFirst, r.cmpBest = true, true, -1
	r.tokBase = 0
	r.first = ref.tok[:ref.end[0]]
	hs.nodes = 1
	alive, err := r.refine(ctx)
	if err != nil || !alive {
		return err
	}
	if !hs.accept(0, 0) {
		return nil
	}
	if p.discrete() {
		hs.leaf()
		return nil
	}
	var levels []hLevel // reused across nodes; levels[:depth] are live
	depth := 0
	push := func() {
		if depth == len(levels) {
			levels = append(levels, hLevel{})
		}
		lv := &levels[depth]
		c := ref.cell[depth]
		lv.mark, lv.tokEnd, lv.fixedEnd, lv.next = len(p.trail), len(r.tok), len(hs.fixed), 0
		lv.verts = append(lv.verts[:0], p.elems[c:c+p.cellLen[c]]...)
		depth++
	}
	push()
	for depth > 0 && !hs.stopped {
		d := depth - 1
		lv := &levels[d]
		hs.restore(lv)
		if lv.next == len(lv.verts) {
			depth--
			continue
		}
		x := lv.verts[lv.next]
		lv.next++
		if hs.nodes >= hs.maxNodes {
			return &LimitError{What: "search nodes", Limit: hs.maxNodes, Got: hs.nodes + 1}
		}
		hs.nodes++
		if hs.nodes&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		r.tokBase = len(r.tok)
		r.eqFirst, r.cmpBest = true, -1
		r.first = ref.tok[ref.end[d]:ref.end[d+1]]
		r.singles = r.singles[:0]
		c := p.individualize(x)
		r.singles = append(r.singles, c)
		if p.cellLen[ref.cell[d]] == 1 {
			r.singles = append(r.singles, ref.cell[d])
		}
		r.emit(ref.cell[d])
		r.enqueue(c)
		alive, err := r.refine(ctx)
		if err != nil {
			return err
		}
		if !alive {
			continue
		}
		if hs.jump = math.MaxInt32; !hs.accept(len(hs.fixed), d+1) {
			if hs.jump <= d {
				// The ancestor at depth jump is refuted: drop the levels
				// of its children and go on with its next sibling.
				depth = hs.jump
			}
			continue
		}
		if p.discrete() {
			hs.leaf()
			continue
		}
		push()
	}
	return nil
}

// restore brings the partition, trace and mapping back to the node lv.
func (hs *hSearch) restore(lv *hLevel) {
	hs.p.undo(lv.mark)
	hs.r.tok = hs.r.tok[:lv.tokEnd]
	for _, v := range hs.fixed[lv.fixedEnd:] {
		hs.m[v] = -1
	}
	hs.fixed = hs.fixed[:lv.fixedEnd]
}

// accept extends the mapping with the new singleton cells and asks visit
// about the node at the given depth.
func (hs *hSearch) accept(from, depth int) bool {
	for _, q := range hs.r.singles {
		v := hs.ref.elems[q]
		hs.m[v] = hs.p.elems[q]
		hs.fixed = append(hs.fixed, v)
	}
	hs.r.singles = hs.r.singles[:0]
	if hs.visit == nil {
		return true
	}
	hs.node = Node{Partial: hs.m, Fixed: hs.fixed[from:], hs: hs, depth: int32(depth)}
	return !hs.visit(&hs.node)
}

// leaf checks the complete mapping and yields it.
func (hs *hSearch) leaf() {
	g, h, m := hs.g, hs.h, hs.m
	for u := 0; u < g.n; u++ {
		hu := m[u]
		out := g.Out(u)
		hout := h.Out(int(hu))
		if len(out) != len(hout) {
			return
		}
		if len(out) == 0 {
			continue
		}
		hs.epoch++
		if hs.epoch == 0 {
			clear(hs.stamp)
			hs.epoch = 1
		}
		e := hs.epoch
		for _, w := range hout {
			hs.stamp[w] = e
		}
		for _, w := range out {
			if hs.stamp[m[w]] != e {
				return
			}
		}
	}
	if !hs.yield(slices.Clone(m), nil) {
		hs.stopped = true
	}
}
