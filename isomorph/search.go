package isomorph

import (
	"context"
	"math/big"
	"slices"
)

// searchMode selects what the individualization-refinement search computes.
type searchMode int8

const (
	// modeAut finds a strong generating set of the automorphism group: a
	// node is kept only if its trace equals the first path's.
	modeAut searchMode = iota
	// modeCanon also finds the canonical leaf: the leaf with the largest
	// (trace sequence, permuted graph), keeping nodes whose trace equals the
	// first path's or is not smaller than the best path's.
	modeCanon
)

// level is the state of the search-tree node at one depth of the current
// path: its partition (by trail mark), its target cell and the children
// already explored, grouped into orbits of the generators that fix the
// node's path.
type level struct {
	mark     int     // trail length of the node's partition
	tokEnd   int     // end of the node's tokens in refiner.tok
	cell     int32   // target cell start
	verts    []int32 // target cell vertices; children are tried in this order
	uf       []int32 // union-find over indices of verts
	expl     []bool  // per union-find root: an explored child lies in the class
	size     []int32 // per union-find root: class size
	next     int     // next index of verts to consider
	started  bool    // the first child has been tried
	ready    bool    // verts (and uf, expl, size off the first path) are set up
	scan     bool    // no room for verts: children are found by scanning the cell
	last     int32   // in scan mode: the last child returned
	stamp    int32   // on the first path: the orbMark stamp of this level
	first    int32   // the first child tried
	firstIdx int32   // its index in verts once ready
	gensDone int     // automorphisms of searcher.auts already merged into uf
	eqFirst  bool    // the node's trace equals the first path's
	cmpBest  int8    // the node's trace compared with the best path's
	onFirst  bool    // the node is on the first path
}

// searcher runs one individualization-refinement search on one graph.
type searcher struct {
	g        *Graph
	mode     searchMode
	maxNodes int64
	p        *partition
	r        *refiner
	levels   []level
	path     []int32 // path[d] is the vertex individualized below depth d
	stats    Stats

	haveFirst  bool
	firstElems []int32
	firstPath  []int32
	firstEnd   []int // firstEnd[d]: end of the depth-d tokens in firstTok
	firstTok   []int32

	bestElems []int32
	bestPath  []int32
	bestEnd   []int
	bestTok   []int32
	// localElems and localPath are a leaf with the first leaf's trace
	// that is no image of it, in the subtree of the current path's child
	// of the first path (see localAutomorphism).
	localElems []int32
	localPath  []int32
	rowStart   []int32 // row offsets of the permuted graph, the same for every leaf
	bestRows   []int32 // permuted out-lists of the best leaf
	candRows   []int32
	rowFill    []int32 // scratch of transposeRows
	bestStale  bool    // bestRows do not hold the best leaf's rows yet
	bestPos    []int32 // scratch: vertex -> position in the best leaf

	gens []Sparse
	// auts are the automorphisms that prune children off the first path:
	// gens, and those found at a leaf equal to the best one that join no
	// orbits (not generators, but they fix the path up to where the leaf
	// left the best path, so they merge the children there).
	auts      []Sparse
	autWords  int64   // int32s held by auts beyond gens
	orb       []int32 // union-find of the orbits of all generators (root = minimum)
	orbSize   []int32 // per root: orbit size
	orbMark   []int32 // per root: stamp of the first-path level that explored the orbit
	markStamp int32
	order     *big.Int

	// noFree makes targetCell treat free cells like any other (the
	// reference path of Search, which must reach discrete leaves).
	noFree   bool
	freeBase []int32 // base points of the free cells of the first leaf
	// freeAt[c] is the trail length of the node on the current path at
	// which cell c was found free (-1: not known): a free cell stays free,
	// unsplit, in every node below, so the test is not repeated there.
	// freeStack lists those cells by increasing trail length, for backtrack
	// to forget the ones found below the node it returns to.
	freeAt    []int32
	freeStack []int32
	genWords  int64 // int32s held by gens (two per moved point)
	maxWords  int64

	held  int      // int32s held by the levels' child lists
	idxOf []int32  // scratch: vertex -> index in a level's verts
	stamp []uint32 // scratch for automorphism tests
	epoch uint32
	perm  []int32 // scratch permutation
	// Scratch of nodeAutomorphism: nodePerm is the identity between calls.
	nodePerm []int32
	cellBuf  []int32
	domBuf   []int32
}

func newSearcher(g *Graph, mode searchMode, lim Limits) *searcher {
	p := newPartition(g.n)
	s := &searcher{
		g:        g,
		mode:     mode,
		maxNodes: lim.maxNodes(),
		maxWords: lim.maxGenWords(),
		p:        p,
		r:        newRefiner(g, p),
		order:    big.NewInt(1),
	}
	return s
}

// needOrbits allocates the orbit union-find on first use: a search whose
// root partition is discrete never needs it.
func (s *searcher) needOrbits() {
	if s.orb != nil {
		return
	}
	n := s.g.n
	s.orb = make([]int32, n)
	s.orbSize = make([]int32, n)
	s.orbMark = make([]int32, n)
	for v := range s.orb {
		s.orb[v] = int32(v)
		s.orbSize[v] = 1
	}
}

// needScratch allocates the per-vertex scratch arrays of leaves beyond the
// first on first use.
func (s *searcher) needScratch() {
	if s.perm != nil {
		return
	}
	n := s.g.n
	s.idxOf = make([]int32, n)
	s.stamp = make([]uint32, n)
	s.perm = make([]int32, n)
}

// run searches the whole tree.
func (s *searcher) run(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p, r := s.p, s.r
	p.setColors(s.g)
	r.enqueueAll()
	r.compare = false
	s.stats.Nodes = 1
	if _, err := r.refine(ctx); err != nil {
		return err
	}
	s.ensureLevel(0)
	s.levels[0].eqFirst, s.levels[0].cmpBest = true, 0
	cell := s.nodeCell()
	if cell == cellComplete {
		r.emit(completeToken)
	}
	d := 0
	fresh := true
	for {
		if fresh {
			fresh = false
			if cell < 0 {
				t, err := s.leaf(d)
				if err != nil {
					return err
				}
				if d == 0 {
					return nil
				}
				s.backtrack(t)
				d = t
				continue
			}
			if d > 0 && s.levels[d-1].onFirst && s.levels[d].eqFirst {
				found, err := s.nodeAutomorphism(s.levels[d-1].mark)
				if err != nil {
					return err
				}
				if found {
					d = divergence(s.path[:d], s.firstPath)
					s.backtrack(d)
					continue
				}
			}
			s.newNode(d, cell)
		}
		lv := &s.levels[d]
		x, ok := s.nextChild(d)
		if !ok {
			if lv.onFirst {
				s.needOrbits()
				s.order.Mul(s.order, big.NewInt(int64(s.orbSize[s.orbFind(lv.first)])))
			}
			if d == 0 {
				return nil
			}
			d--
			s.backtrack(d)
			continue
		}
		if s.stats.Nodes >= s.maxNodes {
			return &LimitError{What: "search nodes", Limit: s.maxNodes, Got: s.stats.Nodes + 1}
		}
		s.stats.Nodes++
		if s.stats.Nodes&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		r.tokBase = len(r.tok)
		r.compare = s.haveFirst
		if s.haveFirst {
			r.eqFirst = lv.eqFirst
			if r.eqFirst {
				r.first = s.firstTok[s.firstEnd[d]:s.firstEnd[d+1]]
			}
			r.cmpBest = -1
			if s.mode == modeCanon {
				r.cmpBest = lv.cmpBest
				if r.cmpBest == 0 {
					r.best = s.bestTok[s.bestEnd[d]:s.bestEnd[d+1]]
				}
			}
		}
		c := p.individualize(x)
		r.emit(lv.cell)
		r.enqueue(c)
		alive, err := r.refineOpen(ctx)
		if err != nil {
			return err
		}
		if alive {
			cell = s.nodeCell()
			if cell == cellComplete {
				r.emit(completeToken)
			}
			r.finishCompare()
			alive = !r.dead()
		}
		if !alive {
			s.stats.Pruned++
			s.backtrack(d)
			continue
		}
		s.path = append(s.path[:d], x)
		s.ensureLevel(d + 1)
		child := &s.levels[d+1]
		child.eqFirst, child.cmpBest = true, 0
		if s.haveFirst {
			child.eqFirst, child.cmpBest = r.eqFirst, r.cmpBest
		}
		d++
		s.stats.MaxDepth = max(s.stats.MaxDepth, d)
		fresh = true
	}
}

func (s *searcher) ensureLevel(d int) {
	for len(s.levels) <= d {
		s.levels = append(s.levels, level{})
	}
}

// backtrack restores the partition and trace of the node at depth d.
func (s *searcher) backtrack(d int) {
	lv := &s.levels[d]
	s.p.undo(lv.mark)
	for k := len(s.freeStack) - 1; k >= 0 && int(s.freeAt[s.freeStack[k]]) > lv.mark; k-- {
		s.freeAt[s.freeStack[k]] = -1
		s.freeStack = s.freeStack[:k]
	}
	s.r.tok = s.r.tok[:lv.tokEnd]
}

// Special results of nodeCell.
const (
	cellDiscrete = -1 // the partition is discrete: the node is a leaf
	cellComplete = -2 // every non-singleton cell is free: see nodeCell
)

// completeToken ends the trace of a complete node, so that a complete node
// and an incomplete one never have equal traces.
const completeToken = -1

// nodeCell returns the target cell of the node whose refinement just
// ended, or cellDiscrete, or cellComplete when every non-singleton cell is
// free (see cellFree). A complete node is a leaf of the search: every
// permutation of the vertices inside its free cells is an automorphism
// fixing its path, and refinement would split nothing below it, so all
// leaves of its subtree are images of each other and any one ordering of
// the cells, such as the current one, stands for them all.
func (s *searcher) nodeCell() int32 {
	if s.p.discrete() {
		return cellDiscrete
	}
	c := s.targetCell()
	if c < 0 {
		return cellComplete
	}
	return c
}

// newNode prepares the node at depth d (not a leaf) with the given target
// cell.
func (s *searcher) newNode(d int, cell int32) {
	p := s.p
	lv := &s.levels[d]
	lv.mark = len(p.trail)
	lv.tokEnd = len(s.r.tok)
	lv.onFirst = false
	lv.cell = cell
	lv.started = false
	lv.ready = false
}

// maxHeld bounds the int32s held by the levels' child lists (verts, and
// uf, size and expl off the first path); beyond it a level scans its cell
// for children instead of copying it, so a deep path through big cells
// (such as the empty graph's) does not need memory quadratic in n.
var maxHeld = 1 << 24

// maxPruneWords bounds the int32s held by the automorphisms kept only to
// prune (two per moved point), within Limits.MaxGenWords with the
// generators; beyond it they are dropped, which costs nodes, not
// correctness.
var maxPruneWords int64 = 1 << 24

// hold makes room for a child list of l vertices at level lv, with the
// orbit arrays if withUF is set. It returns false if the budget is
// exhausted.
func (s *searcher) hold(lv *level, l int32, withUF bool) bool {
	need := int(l)
	grow := max(need-cap(lv.verts), 0)
	if withUF {
		grow += 3 * max(need-cap(lv.uf), 0)
	}
	if grow == 0 {
		return true
	}
	if s.held+grow > maxHeld {
		return false
	}
	s.held += grow
	if need > cap(lv.verts) {
		lv.verts = make([]int32, 0, need)
	}
	if withUF && need > cap(lv.uf) {
		lv.uf = make([]int32, 0, need)
		lv.size = make([]int32, 0, need)
		lv.expl = make([]bool, 0, need)
	}
	return true
}

// setupChildren copies the target cell of the node at depth d (whose
// partition is current) and starts its orbit classes. It is done only when
// a second child is needed: most nodes off the first path are left after
// their first child.
func (s *searcher) setupChildren(d int) {
	p := s.p
	lv := &s.levels[d]
	l := p.cellLen[lv.cell]
	lv.ready = true
	lv.last = -1
	lv.scan = !s.hold(lv, l, true)
	if lv.scan {
		return
	}
	lv.verts = append(lv.verts[:0], p.elems[lv.cell:lv.cell+l]...)
	lv.uf = lv.uf[:0]
	lv.size = lv.size[:0]
	lv.expl = lv.expl[:0]
	for k := int32(0); k < l; k++ {
		lv.uf = append(lv.uf, k)
		lv.size = append(lv.size, 1)
		lv.expl = append(lv.expl, false)
		if lv.verts[k] == lv.first {
			lv.firstIdx = k
		}
	}
	lv.expl[lv.firstIdx] = true
	lv.next = 0
	lv.gensDone = 0
}

// scanNext returns the smallest vertex of the node's target cell above
// lv.last that is not the first child and that ok accepts. The partition
// must be the node's.
func (s *searcher) scanNext(lv *level, ok func(int32) bool) (int32, bool) {
	p := s.p
	best := int32(-1)
	for _, x := range p.elems[lv.cell : lv.cell+p.cellLen[lv.cell]] {
		if x > lv.last && x != lv.first && (best < 0 || x < best) && ok(x) {
			best = x
		}
	}
	if best < 0 {
		return 0, false
	}
	lv.last = best
	return best, true
}

// Target-cell heuristics.
const (
	cellFirstLargest     = iota // first largest non-singleton cell
	cellFirst                   // first non-singleton cell
	cellFirstSmallest           // first smallest non-singleton cell
	cellMaxJoinsLargest         // most non-trivially joined cells; largest, first
	cellMaxJoinsSmallest        // most non-trivially joined cells; smallest, first
)

// targetHeuristic selects the target-cell heuristic (tests change it).
var targetHeuristic = cellFirstLargest

// targetCell picks the cell to individualize in, scanning the
// non-singleton cells in position order and skipping free cells (unless
// noFree is set). It returns -1 if every non-singleton cell is free.
func (s *searcher) targetCell() int32 {
	p := s.p
	head := p.n
	if s.g.prefer != nil {
		if c := s.preferredCell(); c >= 0 {
			return c
		}
	}
	switch targetHeuristic {
	case cellMaxJoinsLargest, cellMaxJoinsSmallest:
		return s.maxJoinsCell(targetHeuristic == cellMaxJoinsSmallest)
	}
	best, bl := int32(-1), int32(0)
	for c := p.nsNext[head]; c != head; c = p.nsNext[c] {
		l := p.cellLen[c]
		if best >= 0 && !(targetHeuristic == cellFirstSmallest && l < bl || targetHeuristic != cellFirstSmallest && l > bl) {
			continue
		}
		// Freeness is tested only for a cell that would be chosen.
		if !s.noFree && s.knownFree(c) {
			continue
		}
		best, bl = c, l
		if targetHeuristic == cellFirst {
			break
		}
	}
	return best
}

// preferredCell returns the first largest non-singleton cell of preferred
// vertices (Preferrer) that is not free, or -1 if there is none.
func (s *searcher) preferredCell() int32 {
	p := s.p
	head := p.n
	best, bl := int32(-1), int32(0)
	for c := p.nsNext[head]; c != head; c = p.nsNext[c] {
		l := p.cellLen[c]
		if l <= bl || !s.g.prefer[p.elems[c]] {
			continue
		}
		if !s.noFree && s.knownFree(c) {
			continue
		}
		best, bl = c, l
	}
	return best
}

// knownFree is cellFree, remembered for the nodes below the current one.
func (s *searcher) knownFree(c int32) bool {
	if s.freeAt == nil {
		s.freeAt = make([]int32, s.g.n)
		for i := range s.freeAt {
			s.freeAt[i] = -1
		}
	}
	if s.freeAt[c] >= 0 {
		return true
	}
	if !s.cellFree(c) {
		return false
	}
	s.freeAt[c] = int32(len(s.p.trail))
	s.freeStack = append(s.freeStack, c)
	return true
}

// cellFree reports whether the non-singleton cell c of the current
// equitable partition is free: for every cell D (c itself included), the
// arcs from c to D, and those from D to c, are all present or all absent
// (within c, between distinct vertices, with no self-loop or all of them).
// Then every permutation of c that fixes the other vertices is an
// automorphism of the graph, which also fixes every cell; a free cell stays
// free in every finer equitable partition, and individualizing one of its
// vertices splits nothing else.
//
// Because the partition is equitable, one vertex v of c tells, once every
// vertex of c is known to have a self-loop exactly when v has: v has 0 or
// |D| out- and in-neighbours in every non-singleton cell D other than c,
// and 0 or |c|-1 in c itself, not counting its own loop.
func (s *searcher) cellFree(c int32) bool {
	p, g := s.p, s.g
	v := p.elems[c]
	self := int32(0)
	if g.loop != nil {
		if g.loop[v] {
			self = 1
		}
		for _, x := range p.elems[c : c+p.cellLen[c]] {
			if g.loop[x] != g.loop[v] {
				return false
			}
		}
	}
	free := true
	s.eachJoin(v, func(d, k int32) {
		if d == c {
			k -= self
			free = free && (k == 0 || k == p.cellLen[c]-1)
		} else {
			free = free && k == p.cellLen[d]
		}
	})
	return free
}

// eachJoin calls f(d, k) for every non-singleton cell d that holds k > 0
// out-neighbours of v, then, for a directed graph, for every one that
// holds k > 0 in-neighbours of v.
func (s *searcher) eachJoin(v int32, f func(d, k int32)) {
	p, g := s.p, s.g
	s.r.alloc()
	cnt := s.r.touchedN // all zero outside refinement
	touched := s.r.touched[:0]
	for pass := 0; pass < 2; pass++ {
		nb := g.Out(int(v))
		if pass == 1 {
			if g.sym {
				break
			}
			nb = g.In(int(v))
		}
		touched = touched[:0]
		for _, w := range nb {
			d := p.cellOf[w]
			if p.cellLen[d] == 1 {
				continue
			}
			if cnt[d] == 0 {
				touched = append(touched, d)
			}
			cnt[d]++
		}
		for _, d := range touched {
			k := cnt[d]
			cnt[d] = 0
			f(d, k)
		}
	}
	s.r.touched = touched[:0]
}

// maxJoinsCell returns the first cell, among the non-singleton cells with
// the most non-trivial joins (another non-singleton cell D such that a
// vertex of the cell has some but not all of D as out- or in-neighbours),
// that is largest (or smallest).
func (s *searcher) maxJoinsCell(smallest bool) int32 {
	p := s.p
	best, bj, bl := int32(-1), int32(-1), int32(0)
	for c := p.nsNext[p.n]; c != p.n; c = p.nsNext[c] {
		l := p.cellLen[c]
		joins := int32(0)
		s.eachJoin(p.elems[c], func(d, k int32) {
			if k != p.cellLen[d] {
				joins++
			}
		})
		better := joins > bj || joins == bj && (smallest && l < bl || !smallest && l > bl)
		// A free cell's only non-trivial joins are with itself (one per
		// direction); test the others no further.
		if better && joins <= 2 && !s.noFree && s.knownFree(c) {
			better = false
		}
		if better {
			best, bj, bl = c, joins, l
		}
	}
	return best
}

// nextChild returns the next child of the node at depth d that is not in
// the orbit of an explored child under the generators fixing the node's
// path.
func (s *searcher) nextChild(d int) (int32, bool) {
	lv := &s.levels[d]
	if !lv.started {
		lv.started = true
		lv.first = s.p.elems[lv.cell]
		return lv.first, true
	}
	if lv.onFirst {
		return s.nextFirstPathChild(lv)
	}
	if !lv.ready {
		s.setupChildren(d)
	}
	if lv.scan {
		// No orbit pruning without the child list.
		return s.scanNext(lv, func(int32) bool { return true })
	}
	if lv.gensDone < len(s.auts) {
		s.incorporate(d)
	}
	for lv.next < len(lv.verts) {
		k := int32(lv.next)
		lv.next++
		root := s.find(lv, k)
		if lv.expl[root] {
			continue
		}
		lv.expl[root] = true
		return lv.verts[k], true
	}
	return 0, false
}

// nextFirstPathChild is nextChild for a node on the first path. Every
// generator found so far fixes the node's path (they were all found in its
// subtree), so the orbits of all generators, kept incrementally in s.orb,
// are the orbits of the node's stabiliser, as in nauty.
func (s *searcher) nextFirstPathChild(lv *level) (int32, bool) {
	if !lv.ready {
		s.needOrbits()
		p := s.p
		l := p.cellLen[lv.cell]
		lv.scan = !s.hold(lv, l, false)
		if !lv.scan {
			lv.verts = append(lv.verts[:0], p.elems[lv.cell:lv.cell+l]...)
		}
		lv.next = 0
		lv.last = -1
		s.markStamp++
		lv.stamp = s.markStamp
		s.orbMark[s.orbFind(lv.first)] = lv.stamp
		lv.ready = true
	}
	if lv.scan {
		x, ok := s.scanNext(lv, func(x int32) bool { return s.orbMark[s.orbFind(x)] != lv.stamp })
		if ok {
			s.orbMark[s.orbFind(x)] = lv.stamp
		}
		return x, ok
	}
	for lv.next < len(lv.verts) {
		x := lv.verts[lv.next]
		lv.next++
		root := s.orbFind(x)
		if s.orbMark[root] == lv.stamp {
			continue
		}
		s.orbMark[root] = lv.stamp
		return x, true
	}
	return 0, false
}

// incorporate merges into the node's orbit classes the generators found
// since the last call that fix the node's path pointwise.
func (s *searcher) incorporate(d int) {
	lv := &s.levels[d]
	prefix := s.path[:d]
	indexed := false
	s.needScratch()
	var e uint32
	for _, gen := range s.auts[lv.gensDone:] {
		fixes := true
		for _, u := range prefix {
			if gen.Image(u) != u {
				fixes = false
				break
			}
		}
		if !fixes {
			continue
		}
		if !indexed {
			// stamp marks the cell's vertices: a generator's moved points
			// outside it are skipped without a lookup.
			if s.epoch > 1<<31 {
				clear(s.stamp)
				s.epoch = 0
			}
			s.epoch++
			e = s.epoch
			for k, v := range lv.verts {
				s.idxOf[v] = int32(k)
				s.stamp[v] = e
			}
			indexed = true
		}
		for k, v := range gen.Points {
			if w := gen.Images[k]; s.stamp[v] == e && s.stamp[w] == e {
				s.union(lv, s.idxOf[v], s.idxOf[w])
			}
		}
	}
	lv.gensDone = len(s.auts)
}

func (s *searcher) find(lv *level, k int32) int32 {
	uf := lv.uf
	for uf[k] != k {
		uf[k] = uf[uf[k]]
		k = uf[k]
	}
	return k
}

func (s *searcher) union(lv *level, a, b int32) {
	a, b = s.find(lv, a), s.find(lv, b)
	if a == b {
		return
	}
	if lv.size[a] < lv.size[b] {
		a, b = b, a
	}
	lv.uf[b] = a
	lv.size[a] += lv.size[b]
	lv.expl[a] = lv.expl[a] || lv.expl[b]
}

// leaf handles the leaf at depth d (a discrete partition or a complete
// node, whose current order stands for its leaves) and returns the depth of
// the node whose remaining children the search continues with.
func (s *searcher) leaf(d int) (int, error) {
	s.stats.Leaves++
	p := s.p
	lvEq, lvCmp := s.levels[d].eqFirst, s.levels[d].cmpBest
	if !s.haveFirst {
		s.haveFirst = true
		if err := s.addFree(); err != nil {
			return 0, err
		}
		if d == 0 && s.mode == modeAut {
			// The root is a leaf: the tree is this one leaf, and no other
			// leaf will be compared with it, so nothing of it is kept
			// (the group is that of its free cells, its base theirs).
			s.firstPath = slices.Clone(s.path[:0])
			return -1, nil
		}
		s.firstElems = slices.Clone(p.elems)
		s.firstPath = slices.Clone(s.path[:d])
		s.firstTok = slices.Clone(s.r.tok)
		s.firstEnd = s.tokEnds(s.firstEnd[:0], d)
		for k := 0; k < d; k++ {
			s.levels[k].onFirst = true
		}
		s.rowStart = make([]int32, p.n+1)
		for i, u := range p.elems {
			s.rowStart[i+1] = s.rowStart[i] + int32(len(s.g.Out(int(u))))
		}
		s.setBest(d)
		s.bestStale = true // built when a leaf is first compared with it
		return d - 1, nil
	}
	s.needScratch()
	if lvEq {
		for i, v := range s.firstElems {
			s.perm[v] = p.elems[i]
		}
		if s.isAutomorphism(s.perm) {
			if err := s.addGen(s.perm, true); err != nil {
				return 0, err
			}
			return divergence(s.path[:d], s.firstPath), nil
		}
	}
	if s.mode == modeCanon && lvCmp > 0 {
		s.setBest(d)
		s.bestStale = true
		return d - 1, nil
	}
	if lvEq {
		if t, ok, err := s.localAutomorphism(d); ok || err != nil {
			return t, err
		}
	}
	// In modeCanon the leaf's trace equals the best leaf's (lvCmp == 0) or
	// is smaller (then it is kept only for the first-leaf test above). In
	// modeAut every kept leaf has the first leaf's trace, and the best leaf
	// is the largest permuted graph among those leaves: comparing with it
	// finds automorphisms inside subtrees that hold no image of the first
	// leaf, which nauty's first-leaf-only search would explore in full.
	if s.mode == modeCanon && lvCmp < 0 {
		return d - 1, nil
	}
	s.freshBestRows()
	switch s.buildRows(s.candRows, p.elems, p.pos, true) {
	case 1:
		s.bestRows, s.candRows = s.candRows, s.bestRows
		s.setBest(d)
	case 0:
		for i, v := range s.bestElems {
			s.perm[v] = p.elems[i]
		}
		if err := s.addGen(s.perm, false); err != nil {
			return 0, err
		}
		return divergence(s.path[:d], s.bestPath), nil
	}
	return d - 1, nil
}

// localAutomorphism compares the leaf at depth d, whose trace is the first
// leaf's but which is no image of it, with the local leaf, an earlier such
// leaf below the same child of the first path. An automorphism between the
// two fixes the path down to where they part, and the subtree there holding
// the current leaf is an image of the local leaf's, already searched: the
// search resumes at that node (returned, with true). Otherwise the leaf
// becomes the local one unless the local one is already below the same
// child. Without it, below a child of the first path whose subtree holds
// no image of the first or best leaf, only those two leaves find
// automorphisms, and the subtree is searched leaf by leaf (a renamed
// colonelBlotto: thousands of leaves, every one with the same trace).
func (s *searcher) localAutomorphism(d int) (int, bool, error) {
	p := s.p
	path := s.path[:d]
	if s.localElems != nil {
		// j < d always (two leaves never share their whole path); the
		// test keeps the jump inside the path all the same.
		j := divergence(path, s.localPath)
		if j > divergence(path, s.firstPath) && j < d {
			for i, v := range s.localElems {
				s.perm[v] = p.elems[i]
			}
			if s.isAutomorphism(s.perm) {
				return j, true, s.addGen(s.perm, false)
			}
			return 0, false, nil
		}
	}
	s.localElems = append(s.localElems[:0], p.elems...)
	s.localPath = append(s.localPath[:0], path...)
	return 0, false, nil
}

// addFree adds, for the first leaf, the symmetric group of each of its free
// cells (none if it is discrete). For a free cell listed c_1..c_k in the
// partition, the base is extended by c_1..c_{k-1} and the generators are
// the transpositions (c_i c_{i+1}): those moving only c_{i+1}..c_k generate
// the stabiliser of c_1..c_i, so the generators stay a strong generating
// set, and the orbit lengths k, k-1, ..., 2 multiply the order by k!.
// Every generator found later fixes the first path, so they are the first.
func (s *searcher) addFree() error {
	p := s.p
	if p.discrete() {
		return nil
	}
	s.needOrbits()
	var fact big.Int
	for c := p.nsNext[p.n]; c != p.n; c = p.nsNext[c] {
		cell := p.elems[c : c+p.cellLen[c]]
		for i := 0; i+1 < len(cell); i++ {
			a, b := min(cell[i], cell[i+1]), max(cell[i], cell[i+1])
			if err := s.keepGen(Sparse{Points: []int32{a, b}, Images: []int32{b, a}}); err != nil {
				return err
			}
			s.orbUnion(a, b)
		}
		s.freeBase = append(s.freeBase, cell[:len(cell)-1]...)
		s.order.Mul(s.order, fact.MulRange(1, int64(len(cell))))
	}
	return nil
}

// nodeAutomorphism looks for an automorphism that maps the first path's
// node at the current depth onto the current node, a child of a first-path
// node with the first path's trace, without descending to a leaf: the
// permutation that maps each singleton cell of the first path's partition
// to the current one at the same position and fixes the vertices of every
// other cell, where the two partitions have the same non-singleton cells.
// The first leaf's order gives the first path's partition at any depth,
// since refinement only splits cells in place. When the arcs confirm it,
// it is kept as a generator (it maps the first child to this one, as an
// automorphism found at a leaf of this subtree would) and it returns true.
// This is the common case of symmetries that act on few cells, such as
// independent swaps. mark is the parent's trail length: the work is
// linear in the cells split at this node and the arcs at the vertices
// moved, not in n.
func (s *searcher) nodeAutomorphism(mark int) (bool, error) {
	p := s.p
	s.needScratch()
	if s.nodePerm == nil {
		s.nodePerm = make([]int32, s.g.n)
		for v := range s.nodePerm {
			s.nodePerm[v] = int32(v)
		}
	}
	perm := s.nodePerm
	if s.epoch > 1<<30 {
		clear(s.stamp)
		s.epoch = 0
	}
	// Only the cells of the parent (a first-path node, whose partition is
	// the first path's) that split at this node can differ from the
	// first path's partition: the candidate is the identity elsewhere.
	// A split recorded at t left the cells holding t and t-1 (the piece
	// that kept the old start); so the positions to map are the current
	// cells at t and t-1 for every split t of this node, not all n.
	s.epoch++
	ce := s.epoch
	cells := s.cellBuf[:0]
	for _, t := range p.trail[mark:] {
		if t <= 0 {
			continue
		}
		for _, c := range [2]int32{p.cellOf[p.elems[t]], p.cellOf[p.elems[t-1]]} {
			if s.stamp[c] != ce {
				s.stamp[c] = ce
				cells = append(cells, c)
			}
		}
	}
	s.cellBuf = cells
	dom := s.domBuf[:0]
	defer func() {
		for _, v := range dom {
			perm[v] = v
		}
		s.domBuf = dom[:0]
	}()
	// Each cell of the first path's partition must map onto the current
	// cell at the same position. In a non-singleton cell, the vertices in
	// both stay; the one vertex a only in the first path's cell maps to the
	// one vertex b only in the current cell (a swap of two interchangeable
	// parts moves one vertex per cell); more than one gives up. b's own
	// image comes from b's cell in the first path's partition.
	for _, c := range cells {
		l := p.cellLen[c]
		first, cur := s.firstElems[c:c+l], p.elems[c:c+l]
		if l == 1 {
			if first[0] != cur[0] {
				perm[first[0]] = cur[0]
				dom = append(dom, first[0])
			}
			continue
		}
		s.epoch++
		e := s.epoch
		for _, v := range first {
			s.stamp[v] = e
		}
		b := int32(-1)
		for _, v := range cur {
			if s.stamp[v] != e {
				if b >= 0 {
					return false, nil
				}
				b = v
			}
		}
		if b < 0 {
			continue
		}
		s.epoch++
		e = s.epoch
		for _, v := range cur {
			s.stamp[v] = e
		}
		for _, v := range first {
			if s.stamp[v] != e {
				perm[v] = b
				dom = append(dom, v)
			}
		}
	}
	// isAutomorphism checks arcs only: make sure of the bijection, which
	// the construction promises, since a wrong generator would corrupt the
	// whole group. The moved vertices must be the images of the moved
	// vertices, each once.
	s.epoch++
	e := s.epoch
	for _, v := range dom {
		s.stamp[v] = e
	}
	s.epoch++
	for _, v := range dom {
		w := perm[v]
		if s.stamp[w] != e {
			return false, nil
		}
		s.stamp[w] = s.epoch
	}
	slices.Sort(dom)
	if !s.movedAutomorphism(perm, dom) {
		return false, nil
	}
	sp := Sparse{Points: slices.Clone(dom), Images: make([]int32, len(dom))}
	for i, v := range dom {
		sp.Images[i] = perm[v]
	}
	return true, s.addSparse(sp, true)
}

// divergence returns the length of the common prefix of a and b.
func divergence(a, b []int32) int {
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	return k
}

// tokEnds appends the token end of every depth 0..d of the current path.
func (s *searcher) tokEnds(dst []int, d int) []int {
	for k := 0; k < d; k++ {
		dst = append(dst, s.levels[k].tokEnd)
	}
	return append(dst, len(s.r.tok))
}

// setBest records the current leaf as best. The caller either has its rows
// in bestRows or sets bestStale.
func (s *searcher) setBest(d int) {
	s.bestElems = append(s.bestElems[:0], s.p.elems...)
	s.bestPath = append(s.bestPath[:0], s.path[:d]...)
	s.bestTok = append(s.bestTok[:0], s.r.tok...)
	s.bestEnd = s.tokEnds(s.bestEnd[:0], d)
	for k := 0; k <= d; k++ {
		s.levels[k].cmpBest = 0
	}
}

// freshBestRows makes bestRows hold the best leaf's rows, building them
// from bestElems if they were left unbuilt: many searches never compare a
// leaf with the best one (every leaf but the first is an automorphism, or
// the root is discrete), and then never pay for the rows.
func (s *searcher) freshBestRows() {
	if s.bestRows == nil {
		s.bestRows = make([]int32, len(s.g.outAdj))
		s.candRows = make([]int32, len(s.g.outAdj))
	}
	if !s.bestStale {
		return
	}
	if s.bestPos == nil {
		s.bestPos = make([]int32, s.g.n)
	}
	for i, v := range s.bestElems {
		s.bestPos[v] = int32(i)
	}
	s.buildRows(s.bestRows, s.bestElems, s.bestPos, false)
	s.bestStale = false
}

// buildRows writes the out-lists of the permuted graph of the leaf with the
// given elems and pos into dst. With cmp set it compares them with bestRows as it goes and returns
// -1 as soon as they are smaller, or 1 (all rows built) if larger, or 0 if
// equal.
func (s *searcher) buildRows(dst, elems, pos []int32, cmp bool) int {
	g := s.g
	if len(g.outAdj) > denseDegree*g.n {
		s.transposeRows(dst, elems, pos)
		if !cmp {
			return 0
		}
		return slices.Compare(dst, s.bestRows)
	}
	res := 0
	for i, u := range elems {
		row := dst[s.rowStart[i]:s.rowStart[i+1]]
		for j, w := range g.outAdj[g.outStart[u]:g.outStart[u+1]] {
			row[j] = pos[w]
		}
		sortSmall(row)
		if cmp && res == 0 {
			res = slices.Compare(row, s.bestRows[s.rowStart[i]:s.rowStart[i+1]])
			if res < 0 {
				return -1
			}
		}
	}
	return res
}

// denseDegree is the average out-degree above which buildRows fills the
// rows by transposition instead of sorting each row.
var denseDegree = 16

// transposeRows writes the same rows as buildRows, sorted, without sorting:
// it visits the leaf's vertices in position order and appends each one's
// position to the rows of its in-neighbours, in O(n + m). The rows have the
// same lengths for every leaf with the first leaf's trace, so comparing the
// whole arrays compares the rows in order.
func (s *searcher) transposeRows(dst, elems, pos []int32) {
	g := s.g
	n := g.n
	if len(s.rowFill) < n {
		s.rowFill = make([]int32, n)
	}
	fill := s.rowFill[:n]
	copy(fill, s.rowStart[:n])
	for i, x := range elems {
		for _, y := range g.inAdj[g.inStart[x]:g.inStart[x+1]] {
			j := pos[y]
			dst[fill[j]] = int32(i)
			fill[j]++
		}
	}
}

func sortSmall(a []int32) {
	if len(a) > 16 {
		slices.Sort(a)
		return
	}
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for ; j > 0 && a[j-1] > x; j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
}

// isAutomorphism tests a colour-preserving candidate (it maps cells of equal
// traces onto each other) against the arcs at the vertices it moves: on a
// big graph an automorphism found by the search often moves a few.
func (s *searcher) isAutomorphism(perm []int32) bool {
	moved := s.domBuf[:0]
	for u, pu := range perm {
		if int(pu) != u {
			moved = append(moved, int32(u))
		}
	}
	s.domBuf = moved[:0]
	return s.movedAutomorphism(perm, moved)
}

// movedAutomorphism is isAutomorphism for a perm that moves only the
// vertices in moved (and maps them among themselves). It tests the arcs
// out of each moved vertex, and that each fixed in-neighbour of a moved
// vertex w is an in-neighbour of w's image; arcs between fixed vertices
// stay. So every arc maps to an arc, and perm, a bijection, maps the arcs
// onto themselves. The cost is the degrees of the moved vertices, never
// the out-list of a fixed hub that points at them.
func (s *searcher) movedAutomorphism(perm []int32, moved []int32) bool {
	g := s.g
	if !s.arcsMap(perm, moved) {
		return false
	}
	if s.epoch > 1<<31 {
		clear(s.stamp)
		s.epoch = 0
	}
	for _, w := range moved {
		in, pin := g.In(int(w)), g.In(int(perm[w]))
		if len(in) != len(pin) {
			return false
		}
		s.epoch++
		e := s.epoch
		for _, u := range pin {
			s.stamp[u] = e
		}
		for _, u := range in {
			if perm[u] == u && s.stamp[u] != e {
				return false
			}
		}
	}
	return true
}

// arcsMap reports whether perm maps the out-list of every vertex in us
// onto the out-list of its image.
func (s *searcher) arcsMap(perm []int32, us []int32) bool {
	g := s.g
	if s.epoch > 1<<31 {
		clear(s.stamp)
		s.epoch = 0
	}
	for _, u := range us {
		pu := perm[u]
		out := g.outAdj[g.outStart[u]:g.outStart[u+1]]
		pout := g.outAdj[g.outStart[pu]:g.outStart[pu+1]]
		if len(out) != len(pout) {
			return false
		}
		if len(out) == 0 {
			continue
		}
		s.epoch++
		e := s.epoch
		for _, w := range pout {
			s.stamp[w] = e
		}
		for _, w := range out {
			if s.stamp[perm[w]] != e {
				return false
			}
		}
	}
	return true
}

// addGen records an automorphism. Automorphisms found from the first leaf
// always join two orbits of the group found so far and are kept;
// automorphisms from the best leaf are kept as generators only if they do.
// This bounds the generators by n-1. The others still prune (auts), within
// maxPruneWords: without them a subtree whose leaves are all images of the
// best one is searched again from each of its children, exponentially in
// its depth (a renamed colonelBlotto: 2.3×10^55 automorphisms).
func (s *searcher) addGen(perm []int32, fromFirst bool) error {
	return s.addSparse(SparseOf(perm), fromFirst)
}

// addSparse is addGen for an automorphism given sparse.
func (s *searcher) addSparse(sp Sparse, fromFirst bool) error {
	s.needOrbits()
	joined := false
	for k, v := range sp.Points {
		joined = s.orbUnion(v, sp.Images[k]) || joined
	}
	if !joined && !fromFirst {
		// Within MaxGenWords too, which bounds all the automorphisms held.
		if w := 2 * int64(sp.Len()); s.autWords+w <= maxPruneWords && s.genWords+s.autWords+w <= s.maxWords {
			s.autWords += w
			s.auts = append(s.auts, sp)
		}
		return nil
	}
	return s.keepGen(sp)
}

// keepGen appends g to the generators, within Limits.MaxGenWords (two
// words per moved point).
func (s *searcher) keepGen(g Sparse) error {
	s.genWords += 2 * int64(g.Len())
	if s.genWords > s.maxWords {
		return &LimitError{What: "generator words", Limit: s.maxWords, Got: s.genWords}
	}
	s.gens = append(s.gens, g)
	s.auts = append(s.auts, g)
	return nil
}

// orbUnion merges the orbits of v and w and reports whether they were
// different.
func (s *searcher) orbUnion(v, w int32) bool {
	a, b := s.orbFind(v), s.orbFind(w)
	if a == b {
		return false
	}
	if b < a {
		a, b = b, a
	}
	s.orb[b] = a
	s.orbSize[a] += s.orbSize[b]
	s.orbMark[a] = max(s.orbMark[a], s.orbMark[b])
	return true
}

func (s *searcher) orbFind(v int32) int32 {
	if s.orb == nil {
		return v
	}
	for s.orb[v] != v {
		s.orb[v] = s.orb[s.orb[v]]
		v = s.orb[v]
	}
	return v
}

// group returns the automorphism group found by a completed search.
func (s *searcher) group() *Group {
	orbits := make([]int32, s.g.n)
	for v := range orbits {
		orbits[v] = s.orbFind(int32(v))
	}
	st := s.stats
	st.Generators = len(s.gens)
	return &Group{
		n:          s.g.n,
		Generators: s.gens,
		Order:      s.order,
		Base:       append(slices.Clip(s.firstPath), s.freeBase...),
		Orbits:     orbits,
		Stats:      st,
	}
}
