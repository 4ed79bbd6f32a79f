package isomorph

import (
	"context"
	"fmt"
	"slices"
)

// partition is an ordered partition of 0..n-1 in the nauty/bliss layout:
// elems lists the vertices cell by cell, a cell is named by the position of
// its first element, and every change is recorded on a trail so that a
// search can undo it when it backtracks. The non-singleton cells are also
// kept in a doubly linked list in position order (dancing links: a removed
// cell keeps its links, so undoing re-inserts it in O(1)).
type partition struct {
	n       int32
	elems   []int32 // position -> vertex
	pos     []int32 // vertex -> position
	cellOf  []int32 // vertex -> start of its cell
	cellLen []int32 // cell start -> cell length (only valid at starts)
	cells   int32   // number of cells
	nsNext  []int32 // non-singleton list: next cell start; index n is the head
	nsPrev  []int32 // non-singleton list: previous cell start
	// trail records, in order: c >= 0 for the cell created at c by a split,
	// -(2c+2) for c inserted into the non-singleton list, -(2c+3) for c
	// removed from it.
	trail []int32
}

func newPartition(n int) *partition {
	// One allocation for the six arrays: large allocations take the heap
	// lock, and a search whose root partition is discrete is dominated by
	// this setup.
	buf := make([]int32, 6*n+2)
	return &partition{
		n:       int32(n),
		elems:   buf[0*n : 1*n : 1*n],
		pos:     buf[1*n : 2*n : 2*n],
		cellOf:  buf[2*n : 3*n : 3*n],
		cellLen: buf[3*n : 4*n : 4*n],
		nsNext:  buf[4*n : 5*n+1 : 5*n+1],
		nsPrev:  buf[5*n+1 : 6*n+2 : 6*n+2],
	}
}

// setColors makes the partition whose cells are the colour classes of g in
// increasing colour order, each cell in increasing vertex order.
func (p *partition) setColors(g *Graph) {
	n := int(p.n)
	p.cells = 0
	if n == 0 {
		p.initList()
		return
	}
	colors := g.colors
	copy(p.elems, g.byColor)
	start := int32(0)
	prev := colors[p.elems[0]]
	for i, v := range p.elems {
		if c := colors[v]; c != prev {
			p.cellLen[start] = int32(i) - start
			p.cells++
			start = int32(i)
			prev = c
		}
		p.pos[v] = int32(i)
		p.cellOf[v] = start
	}
	p.cellLen[start] = int32(n) - start
	p.cells++
	p.initList()
}

// sortByColor sets order to the vertices 0..len(order)-1 sorted by colour,
// then by vertex. An already sorted colouring is recognised in one pass;
// otherwise a stable LSD radix sort on the colours (3 digits of 11 bits)
// ping-pongs between order and scratch (of the same length).
func sortByColor(colors, order, scratch []int32) {
	n := len(order)
	if n == 0 {
		return
	}
	sorted := true
	for v := range order {
		order[v] = int32(v)
		if sorted && v > 0 && colors[v] < colors[v-1] {
			sorted = false
		}
	}
	if sorted {
		return
	}
	const bits = 11
	const radix = 1 << bits
	var hist [3][radix]int32
	for _, c := range colors[:n] {
		k := uint32(c) ^ 0x80000000
		hist[0][k&(radix-1)]++
		hist[1][(k>>bits)&(radix-1)]++
		hist[2][k>>(2*bits)]++
	}
	src, dst := order, scratch[:n]
	for d := 0; d < 3; d++ {
		h := &hist[d]
		shift := uint(d * bits)
		if h[(uint32(colors[0])^0x80000000)>>shift&(radix-1)] == int32(n) {
			continue // every colour has the same digit
		}
		sum := int32(0)
		for i := range h {
			sum, h[i] = sum+h[i], sum
		}
		for _, v := range src {
			k := (uint32(colors[v]) ^ 0x80000000) >> shift & (radix - 1)
			dst[h[k]] = v
			h[k]++
		}
		src, dst = dst, src
	}
	if &src[0] != &order[0] {
		copy(order, src)
	}
}

// setCells makes the partition with the given cells (a list of vertices cell
// by cell and the start of every cell). The caller has validated them.
func (p *partition) setCells(order, starts []int32) {
	p.cells = int32(len(starts))
	copy(p.elems, order)
	for i, s := range starts {
		end := p.n
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		p.cellLen[s] = end - s
		for j := s; j < end; j++ {
			v := p.elems[j]
			p.pos[v] = j
			p.cellOf[v] = s
		}
	}
	p.initList()
}

// initList builds the non-singleton list and clears the trail.
func (p *partition) initList() {
	p.trail = p.trail[:0]
	last := p.n // the head
	for c := int32(0); c < p.n; c += p.cellLen[c] {
		if p.cellLen[c] > 1 {
			p.nsNext[last] = c
			p.nsPrev[c] = last
			last = c
		}
	}
	p.nsNext[last] = p.n
	p.nsPrev[p.n] = last
}

// nsInsert inserts cell c into the non-singleton list after cell after.
func (p *partition) nsInsert(c, after int32) {
	next := p.nsNext[after]
	p.nsNext[after] = c
	p.nsPrev[c] = after
	p.nsNext[c] = next
	p.nsPrev[next] = c
	p.trail = append(p.trail, -(2*c + 2))
}

// nsRemove removes cell c from the non-singleton list.
func (p *partition) nsRemove(c int32) {
	p.nsNext[p.nsPrev[c]] = p.nsNext[c]
	p.nsPrev[p.nsNext[c]] = p.nsPrev[c]
	p.trail = append(p.trail, -(2*c + 3))
}

// undo reverts every change recorded after the trail had length mark.
// Splits are undone in reverse order, so each new cell merges with its
// left neighbour, the cell it was split from.
func (p *partition) undo(mark int) {
	for i := len(p.trail) - 1; i >= mark; i-- {
		c := p.trail[i]
		if c < 0 {
			e := -c - 2
			c = e >> 1
			if e&1 == 0 { // undo an insertion
				p.nsNext[p.nsPrev[c]] = p.nsNext[c]
				p.nsPrev[p.nsNext[c]] = p.nsPrev[c]
			} else { // undo a removal
				p.nsNext[p.nsPrev[c]] = c
				p.nsPrev[p.nsNext[c]] = c
			}
			continue
		}
		parent := p.cellOf[p.elems[c-1]]
		l := p.cellLen[c]
		for _, v := range p.elems[c : c+l] {
			p.cellOf[v] = parent
		}
		p.cellLen[parent] += l
		p.cells--
	}
	p.trail = p.trail[:mark]
}

// discrete reports whether every cell is a singleton.
func (p *partition) discrete() bool { return p.cells == p.n }

// individualize splits vertex v off its cell c (|c| >= 2), placing it last.
// It returns the start of the new singleton cell.
func (p *partition) individualize(v int32) int32 {
	c := p.cellOf[v]
	l := p.cellLen[c]
	last := c + l - 1
	pv := p.pos[v]
	if pv != last {
		x := p.elems[last]
		p.elems[last] = v
		p.pos[v] = last
		p.elems[pv] = x
		p.pos[x] = pv
	}
	p.cellLen[c] = l - 1
	p.cellLen[last] = 1
	p.cellOf[v] = last
	p.trail = append(p.trail, last)
	p.cells++
	if l == 2 {
		p.nsRemove(c)
	}
	return last
}

// refiner computes equitable refinements of a partition of g's vertices.
//
// A splitter cell W splits every cell by the number of out-neighbours its
// vertices have in W, then by the number of in-neighbours they have in W.
// Splitters wait in two FIFO queues, singleton cells first; when a cell that
// is not queued splits, every piece but the first largest is queued
// (Hopcroft's trick, valid because the partition is already stable with
// respect to the old cell). Touched cells are split in increasing position
// order and the pieces are ordered by increasing count, so the result and
// the trace depend only on the isomorphism class of (graph, partition).
//
// The trace is a sequence of int32 tokens: for every split, the cell start,
// the number of pieces, and the count and size of each piece. Equal traces
// from equal partition shapes give equal partition shapes. A node's trace
// is compared token by token with the first path's and the best path's so a
// search can stop refining a node as soon as it is known to be useless.
type refiner struct {
	g *Graph
	p *partition

	count      []int32 // per vertex: neighbours in the current splitter
	touchedN   []int32 // per cell start: number of touched vertices
	touched    []int32 // touched cell starts
	inQueue    []bool  // per cell start
	qs, qm     []int32 // queued singleton / larger cells
	qsHead     int
	qmHead     int
	ws         []int32  // copy of the splitter's vertices
	keys       []uint64 // sort scratch
	bucket     []int32  // counting sort scratch
	touchedTmp []int32  // radix sort scratch
	segTmp     []int32  // counting sort scratch
	pstart     []int32  // piece starts scratch
	pcount     []int32  // piece counts scratch

	tok     []int32 // trace tokens of the current path
	tokBase int     // where the current node's tokens start in tok

	// Comparison of the current node's trace with reference traces.
	compare bool
	first   []int32 // first path's tokens at this level
	best    []int32 // best path's tokens at this level
	eqFirst bool    // equal to first so far
	cmpBest int8    // compared with best so far: -1 less, 0 equal, 1 greater

	// Positions of the singleton cells created, when trackSingles is set.
	trackSingles bool
	singles      []int32

	work      int64 // arcs scanned, for polling ctx
	nextCheck int64
}

const pollWork = 1 << 18

func newRefiner(g *Graph, p *partition) *refiner {
	return &refiner{
		g:         g,
		p:         p,
		nextCheck: pollWork,
	}
}

// alloc allocates the per-vertex arrays on first use, so that a partition
// that is already discrete costs nothing.
func (r *refiner) alloc() {
	if r.inQueue == nil {
		n := r.g.n
		r.count = make([]int32, n)
		r.touchedN = make([]int32, n)
		r.inQueue = make([]bool, n)
	}
}

// enqueue adds cell c to the splitter queue.
func (r *refiner) enqueue(c int32) {
	if r.inQueue == nil {
		r.alloc()
	}
	if r.inQueue[c] {
		return
	}
	r.inQueue[c] = true
	if r.p.cellLen[c] == 1 {
		r.qs = append(r.qs, c)
	} else {
		r.qm = append(r.qm, c)
	}
}

// enqueueAll queues every cell of the partition in position order.
func (r *refiner) enqueueAll() {
	p := r.p
	if p.discrete() {
		return // refine would only empty the queue
	}
	for c := int32(0); c < p.n; c += p.cellLen[c] {
		r.enqueue(c)
	}
}

func (r *refiner) clearQueue() {
	for _, c := range r.qs[r.qsHead:] {
		r.inQueue[c] = false
	}
	for _, c := range r.qm[r.qmHead:] {
		r.inQueue[c] = false
	}
	r.qs, r.qm = r.qs[:0], r.qm[:0]
	r.qsHead, r.qmHead = 0, 0
}

// emit appends a trace token and updates the comparisons.
func (r *refiner) emit(t int32) {
	k := len(r.tok) - r.tokBase
	r.tok = append(r.tok, t)
	if !r.compare {
		return
	}
	if r.eqFirst && (k >= len(r.first) || r.first[k] != t) {
		r.eqFirst = false
	}
	if r.cmpBest == 0 {
		switch {
		case k >= len(r.best) || t > r.best[k]:
			r.cmpBest = 1
		case t < r.best[k]:
			r.cmpBest = -1
		}
	}
}

// dead reports whether the node being refined can be abandoned: its trace
// differs from the first path's and is worse than the best path's.
func (r *refiner) dead() bool { return r.compare && !r.eqFirst && r.cmpBest < 0 }

// finishCompare accounts for a trace that ended before a reference.
func (r *refiner) finishCompare() {
	if !r.compare {
		return
	}
	k := len(r.tok) - r.tokBase
	if r.eqFirst && k != len(r.first) {
		r.eqFirst = false
	}
	if r.cmpBest == 0 && k < len(r.best) {
		r.cmpBest = -1
	}
}

// refine refines the partition until it is equitable, consuming the queue.
// It returns false if the comparison made the node dead (the partition is
// then only partly refined and must be undone). It returns ctx.Err() if ctx
// is cancelled.
func (r *refiner) refine(ctx context.Context) (bool, error) {
	alive, err := r.refineOpen(ctx)
	if !alive || err != nil {
		return alive, err
	}
	r.finishCompare()
	return !r.dead(), nil
}

// refineOpen is refine without the final comparison: the caller may emit
// more tokens for the node (the search's complete-node marker) before it
// calls finishCompare and checks dead.
func (r *refiner) refineOpen(ctx context.Context) (bool, error) {
	p := r.p
	for !p.discrete() {
		var w int32
		switch {
		case r.qsHead < len(r.qs):
			w = r.qs[r.qsHead]
			r.qsHead++
		case r.qmHead < len(r.qm):
			w = r.qm[r.qmHead]
			r.qmHead++
		default:
			r.clearQueue()
			return true, nil
		}
		r.inQueue[w] = false
		r.splitBy(w)
		if r.dead() {
			r.clearQueue()
			return false, nil
		}
		if r.work >= r.nextCheck {
			r.nextCheck = r.work + pollWork
			if err := ctx.Err(); err != nil {
				r.clearQueue()
				return false, err
			}
		}
	}
	r.clearQueue()
	return true, nil
}

// splitBy splits every cell by its vertices' numbers of out-neighbours in
// the cell W at w, then (for a directed graph) of in-neighbours in W.
func (r *refiner) splitBy(w int32) {
	g, p := r.g, r.p
	lw := p.cellLen[w]
	ws := append(r.ws[:0], p.elems[w:w+lw]...)
	r.ws = ws
	r.touch(ws, g.inStart, g.inAdj)
	r.splitTouched()
	if !g.sym && !p.discrete() {
		r.touch(ws, g.outStart, g.outAdj)
		r.splitTouched()
	}
}

// touch counts, for every vertex v in a non-singleton cell, how many of the
// vertices of ws are adjacent to v through adj, and moves each touched
// vertex to the touched region at the end of its cell.
func (r *refiner) touch(ws []int32, start, adj []int32) {
	p := r.p
	elems, pos, cellOf, cellLen := p.elems, p.pos, p.cellOf, p.cellLen
	count, touchedN := r.count, r.touchedN
	for _, u := range ws {
		nb := adj[start[u]:start[u+1]]
		r.work += int64(len(nb)) + 1
		for _, v := range nb {
			c := cellOf[v]
			l := cellLen[c]
			if l == 1 {
				continue
			}
			k := count[v]
			if k == 0 {
				t := touchedN[c]
				if t == 0 {
					r.touched = append(r.touched, c)
				}
				touchedN[c] = t + 1
				dst := c + l - 1 - t
				if pv := pos[v]; pv != dst {
					x := elems[dst]
					elems[dst] = v
					pos[v] = dst
					elems[pv] = x
					pos[x] = pv
				}
			}
			count[v] = k + 1
		}
	}
}

// splitTouched splits the touched cells in increasing position order. The
// cells that do not split (every vertex touched, all with one count) are
// set aside first: a splitter often touches many cells and splits few, and
// only those need sorting.
func (r *refiner) splitTouched() {
	split := r.touched[:0]
	for _, c := range r.touched {
		if r.splits(c) {
			split = append(split, c)
		}
	}
	if len(split) > 1 {
		r.touchedTmp = sortPositions(split, r.touchedTmp, r.p.n)
	}
	for _, c := range split {
		r.splitCell(c)
	}
	r.touched = r.touched[:0]
}

// splits reports whether the touched cell c splits. If not, it clears the
// cell's counts.
func (r *refiner) splits(c int32) bool {
	p := r.p
	l := p.cellLen[c]
	t := r.touchedN[c]
	if t < l {
		return true
	}
	seg := p.elems[c : c+l]
	k := r.count[seg[0]]
	for _, v := range seg[1:] {
		if r.count[v] != k {
			return true
		}
	}
	for _, v := range seg {
		r.count[v] = 0
	}
	r.touchedN[c] = 0
	return false
}

// splitCell splits cell c by the counts of its touched vertices (untouched
// vertices count 0) into pieces of increasing count. The cell must split
// (see splits).
func (r *refiner) splitCell(c int32) {
	p := r.p
	count := r.count
	l := p.cellLen[c]
	t := r.touchedN[c]
	r.touchedN[c] = 0
	s0 := c + l - t
	seg := p.elems[s0 : c+l]
	mn, mx := count[seg[0]], count[seg[0]]
	for _, v := range seg[1:] {
		k := count[v]
		mn = min(mn, k)
		mx = max(mx, k)
	}
	if mn != mx {
		r.sortSeg(seg, s0, mn, mx)
	}
	ps, pc := r.pstart[:0], r.pcount[:0]
	if t < l {
		ps = append(ps, c)
		pc = append(pc, 0)
	}
	prev := int32(-1)
	for i, v := range seg {
		k := count[v]
		if k != prev {
			ps = append(ps, s0+int32(i))
			pc = append(pc, k)
			prev = k
		}
		count[v] = 0
	}
	ps = append(ps, c+l)
	r.pstart, r.pcount = ps, pc
	np := len(ps) - 1

	r.emit(c)
	r.emit(int32(np))
	for i := 0; i < np; i++ {
		r.emit(pc[i])
		r.emit(ps[i+1] - ps[i])
	}

	p.cellLen[c] = ps[1] - c
	after := c
	for i := 1; i < np; i++ {
		s := ps[i]
		size := ps[i+1] - s
		p.cellLen[s] = size
		for _, v := range p.elems[s : s+size] {
			p.cellOf[v] = s
		}
		p.trail = append(p.trail, s)
		if size > 1 {
			p.nsInsert(s, after)
			after = s
		}
	}
	p.cells += int32(np - 1)
	if ps[1]-c == 1 {
		p.nsRemove(c)
	}

	if r.inQueue[c] {
		for i := 1; i < np; i++ {
			r.enqueue(ps[i])
		}
	} else {
		big := 0
		for i := 1; i < np; i++ {
			if ps[i+1]-ps[i] > ps[big+1]-ps[big] {
				big = i
			}
		}
		for i := 0; i < np; i++ {
			if i != big {
				r.enqueue(ps[i])
			}
		}
	}
	if r.trackSingles {
		for i := 0; i < np; i++ {
			if ps[i+1]-ps[i] == 1 {
				r.singles = append(r.singles, ps[i])
			}
		}
	}
}

// sortPositions sorts a, whose values lie in 0..n-1, in place: short
// lists by comparison, long ones (a splitter that touches thousands of
// cells) by an LSD radix sort of 11-bit digits through scratch. It returns
// scratch, grown if needed, for reuse.
func sortPositions(a, scratch []int32, n int32) []int32 {
	if len(a) <= 256 {
		slices.Sort(a)
		return scratch
	}
	const bits = 11
	const radix = 1 << bits
	if cap(scratch) < len(a) {
		scratch = make([]int32, len(a))
	}
	src, dst := a, scratch[:len(a)]
	var hist [radix]int32
	for shift := uint(0); shift < 32 && n-1>>shift > 0; shift += bits {
		clear(hist[:])
		for _, x := range src {
			hist[x>>shift&(radix-1)]++
		}
		sum := int32(0)
		for i, h := range hist {
			hist[i] = sum
			sum += h
		}
		for _, x := range src {
			k := x >> shift & (radix - 1)
			dst[hist[k]] = x
			hist[k]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
	return scratch
}

// sortSeg sorts the vertices of seg (positions s0...) by count, whose
// values lie in mn..mx, and updates their positions. Short segments are
// sorted by (count, vertex); longer ones with few distinct counts (the
// usual case: counts are bounded by degrees) by a stable counting sort;
// the rest by (count, vertex) keys. The order inside a piece is not part of
// the trace, so any deterministic order will do.
func (r *refiner) sortSeg(seg []int32, s0, mn, mx int32) {
	count := r.count
	if span := int(mx-mn) + 1; len(seg) > 24 && span <= len(seg) {
		if cap(r.bucket) < span+1 {
			r.bucket = make([]int32, span+1)
		}
		bk := r.bucket[:span+1]
		clear(bk)
		for _, v := range seg {
			bk[count[v]-mn+1]++
		}
		for i := 1; i < span; i++ {
			bk[i] += bk[i-1]
		}
		tmp := append(r.segTmp[:0], seg...)
		r.segTmp = tmp
		for _, v := range tmp {
			k := count[v] - mn
			seg[bk[k]] = v
			bk[k]++
		}
	} else if len(seg) <= 24 {
		for i := 1; i < len(seg); i++ {
			v := seg[i]
			k := count[v]
			j := i
			for ; j > 0 && (count[seg[j-1]] > k || count[seg[j-1]] == k && seg[j-1] > v); j-- {
				seg[j] = seg[j-1]
			}
			seg[j] = v
		}
	} else {
		keys := r.keys[:0]
		for _, v := range seg {
			keys = append(keys, uint64(count[v])<<32|uint64(v))
		}
		slices.Sort(keys)
		for i, k := range keys {
			seg[i] = int32(uint32(k))
		}
		r.keys = keys
	}
	for i, v := range seg {
		r.p.pos[v] = s0 + int32(i)
	}
}

// Partition is an ordered partition of the vertices of a graph: Order lists
// every vertex exactly once, cell by cell, and Starts holds the index in
// Order at which each cell begins (Starts[0] == 0, strictly increasing).
type Partition struct {
	Order  []int32
	Starts []int32
}

// Len returns the number of cells.
func (p Partition) Len() int { return len(p.Starts) }

// Cell returns the vertices of cell i.
func (p Partition) Cell(i int) []int32 {
	end := len(p.Order)
	if i+1 < len(p.Starts) {
		end = int(p.Starts[i+1])
	}
	return p.Order[p.Starts[i]:end]
}

// CellOf returns, for every vertex, the index of its cell.
func (p Partition) CellOf() []int32 {
	c := make([]int32, len(p.Order))
	for i := range p.Starts {
		for _, v := range p.Cell(i) {
			c[v] = int32(i)
		}
	}
	return c
}

// ColorPartition returns the partition of g's vertices into colour classes,
// ordered by increasing colour value, each cell in increasing vertex order.
func ColorPartition(g *Graph) Partition {
	p := newPartition(g.n)
	p.setColors(g)
	return p.export()
}

func (p *partition) export() Partition {
	out := Partition{Order: slices.Clone(p.elems), Starts: make([]int32, 0, p.cells)}
	for c := int32(0); c < p.n; c += p.cellLen[c] {
		out.Starts = append(out.Starts, c)
		slices.Sort(out.Order[c : c+p.cellLen[c]])
	}
	return out
}

// Refine returns the coarsest equitable refinement of p for the directed
// graph g: two vertices stay in the same cell only if, for every cell, they
// have as many out-neighbours and as many in-neighbours in it. Cells are
// ordered in an isomorphism-invariant way (for an isomorphism f of g onto h,
// Refine(h, f(p)) is f applied to Refine(g, p) cell by cell), and the
// returned trace hash is isomorphism-invariant too, so different hashes prove
// that (g, p) and (h, q) are not isomorphic. A nil Partition (no cells)
// stands for ColorPartition(g). It returns an error if p is not a partition
// of g's vertices.
func Refine(g *Graph, p Partition) (Partition, uint64, error) {
	q := newPartition(g.n)
	if p.Order == nil && p.Starts == nil {
		q.setColors(g)
	} else {
		if err := checkPartition(g.n, p); err != nil {
			return Partition{}, 0, err
		}
		q.setCells(p.Order, p.Starts)
	}
	r := newRefiner(g, q)
	for c := int32(0); c < q.n; c += q.cellLen[c] {
		r.tok = append(r.tok, q.cellLen[c]) // the initial shape is part of the trace
	}
	r.enqueueAll()
	if _, err := r.refine(context.Background()); err != nil {
		return Partition{}, 0, err
	}
	return q.export(), hashTokens(r.tok), nil
}

func checkPartition(n int, p Partition) error {
	if len(p.Order) != n {
		return fmt.Errorf("isomorph: partition lists %d vertices, graph has %d", len(p.Order), n)
	}
	if n > 0 && (len(p.Starts) == 0 || p.Starts[0] != 0) {
		return fmt.Errorf("isomorph: partition cells must start at index 0")
	}
	for i := 1; i < len(p.Starts); i++ {
		if p.Starts[i] <= p.Starts[i-1] || int(p.Starts[i]) >= n {
			return fmt.Errorf("isomorph: partition cell starts must increase within 0..%d", n-1)
		}
	}
	seen := make([]bool, n)
	for _, v := range p.Order {
		if v < 0 || int(v) >= n || seen[v] {
			return fmt.Errorf("isomorph: partition lists vertex %d twice or out of range", v)
		}
		seen[v] = true
	}
	return nil
}

// hashTokens is FNV-1a over the tokens.
func hashTokens(tok []int32) uint64 {
	h := uint64(14695981039346656037)
	for _, t := range tok {
		for i := 0; i < 4; i++ {
			h ^= uint64(byte(t >> (8 * i)))
			h *= 1099511628211
		}
	}
	return h
}
