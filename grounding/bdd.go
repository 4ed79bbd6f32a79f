package grounding

import (
	"context"
	"errors"
)

// BDD is the circuit toolkit's one manager of reduced ordered binary
// decision diagrams with complement edges, over variables named by their
// level (a smaller level is nearer the root). Two functions built in one
// manager are equal exactly when their edges are (canonical form), and a
// function's BDD mentions exactly the variables it depends on: groundgraph
// reads supports from BDDs, satcheck decides the equality of two cones
// with them before SAT. The size, hence the effort, hinges on the
// variable order (PropOrder).
//
// Every bound is a setting (BDDLimits): the manager's nodes, and per
// operation (Begin) the nodes it may add and the AND steps that miss the
// cache, so that neither a blow-up nor a recomputing lossy cache runs
// without end. Past a bound an operation returns ErrBDDLimit and the
// caller decides another way; a bounded operation never answers. A BDD is
// not safe for concurrent use.
type BDD struct {
	lim      BDDLimits
	callMax  int // node bound of the current operation
	steps    int // AND steps of the current operation that missed the cache
	stepMax  int
	full     bool // an operation reached lim.MaxNodes
	nodes    []bddNode
	slots    []uint32 // open-addressing unique table: node index, 0 empty
	cache    []bddCacheEntry
	cacheAsk int          // the cache size GrowCache asked for before the first Begin allocated it
	stop     func() error // the context's Err during an operation
	stopErr  error        // the cancellation seen
	stopTick int          // steps until the next look at stop
}

// BDDLimits are a manager's bounds. The zero value of a field means its
// default.
type BDDLimits struct {
	// MaxNodes bounds the manager's nodes (12 bytes each, plus 8 in the
	// unique table). Default DefaultBDDNodes.
	MaxNodes int
	// StepsPerNode bounds an operation's AND steps that miss the cache, per
	// node it may add. Default DefaultBDDStepsPerNode; negative allows
	// none.
	StepsPerNode int
	// CacheEntries is the size of the lossy AND cache (12 bytes each), a
	// power of two. Default DefaultBDDCacheEntries.
	CacheEntries int
	// InitialCacheEntries, when positive, is the cache's size until
	// GrowCache enlarges it (a power of two); default CacheEntries.
	InitialCacheEntries int
}

// Default BDDLimits. The step bound: with a lossy cache, conjunctions of
// large BDDs can recompute the same subproblems, finding their nodes in
// the unique table, without end (a renaming of qyshinsu: 120 CPU s in one
// graph phase, past its deadline); 128 steps a node ended it.
const (
	DefaultBDDNodes        = 1 << 21
	DefaultBDDStepsPerNode = 128
	DefaultBDDCacheEntries = 1 << 20
)

// bddStopEvery: AND steps between two looks at the context, a few
// milliseconds of work.
const bddStopEvery = 1 << 14

// ErrBDDLimit is returned when an operation reaches a bound of its
// manager (BDDLimits) or of itself (Begin).
var ErrBDDLimit = errors.New("grounding: BDD bound reached")

// BDDEdge is a node index << 1 | complemented. Node 0 is the constant
// true, so BDDTrue is 0 and BDDFalse 1.
type BDDEdge uint32

// The constants.
const (
	BDDTrue  BDDEdge = 0
	BDDFalse BDDEdge = 1
)

type bddNode struct {
	v      int32   // level; the constant: bddNoVar
	lo, hi BDDEdge // hi is never complemented (canonical form)
}

const bddNoVar = 1<<31 - 1

type bddCacheEntry struct{ a, b, r BDDEdge }

// NewBDD returns an empty manager with bounds lim; its tables are
// allocated by the first Begin.
func NewBDD(lim BDDLimits) *BDD {
	if lim.MaxNodes == 0 {
		lim.MaxNodes = DefaultBDDNodes
	}
	if lim.StepsPerNode == 0 {
		lim.StepsPerNode = DefaultBDDStepsPerNode
	}
	if lim.CacheEntries <= 0 {
		lim.CacheEntries = DefaultBDDCacheEntries
	}
	for lim.CacheEntries&(lim.CacheEntries-1) != 0 {
		lim.CacheEntries &= lim.CacheEntries - 1 // round down to a power of two
	}
	for lim.InitialCacheEntries&(lim.InitialCacheEntries-1) != 0 {
		lim.InitialCacheEntries &= lim.InitialCacheEntries - 1
	}
	return &BDD{lim: lim}
}

// initCache is the cache's first size: lim.CacheEntries, or less when
// InitialCacheEntries says so.
func (d *BDD) initCache() int {
	if d.lim.InitialCacheEntries > 0 {
		return max(d.lim.InitialCacheEntries, d.cacheAsk)
	}
	return d.lim.CacheEntries
}

// Limits returns the manager's bounds, defaults filled in.
func (d *BDD) Limits() BDDLimits { return d.lim }

// Bytes is the memory the manager's tables hold (what Clear keeps): 12
// bytes a node, 4 a hash slot, 12 a cache entry.
func (d *BDD) Bytes() int {
	return 12*cap(d.nodes) + 4*cap(d.slots) + 12*cap(d.cache)
}

// Begin starts an operation (any number of calls) that may add at most
// nodes nodes and lim.StepsPerNode AND steps per node it may add, and
// that fails with ctx.Err() once ctx is done. It returns ErrBDDLimit when
// an earlier operation filled the manager (Clear empties it).
func (d *BDD) Begin(ctx context.Context, nodes int) error {
	if d.full {
		return ErrBDDLimit
	}
	if d.nodes == nil {
		d.nodes = []bddNode{{v: bddNoVar}}
		d.slots = make([]uint32, 1<<10)
		d.cache = make([]bddCacheEntry, min(d.lim.CacheEntries, d.initCache()))
	}
	d.callMax = min(d.lim.MaxNodes, len(d.nodes)+max(nodes, 0))
	d.steps, d.stepMax = 0, max(d.lim.StepsPerNode, 0)*max(d.callMax-len(d.nodes), 0)
	d.stop, d.stopErr, d.stopTick = ctx.Err, ctx.Err(), bddStopEvery
	return d.stopErr
}

// GrowCache enlarges the operation cache to n entries (rounded down to a
// power of two, at most lim.CacheEntries) when it is smaller, so that a
// manager for small functions does not clear a large cache.
func (d *BDD) GrowCache(n int) {
	n = min(n, d.lim.CacheEntries)
	for n&(n-1) != 0 {
		n &= n - 1
	}
	switch {
	case d.cache == nil:
		// Before the first Begin: that Begin allocates it (merrills' first
		// check ran with the initial 2^14 entries and took 41 s where 2^22
		// take 0.6 s).
		d.cacheAsk = max(d.cacheAsk, n)
	case n > len(d.cache):
		d.cache = make([]bddCacheEntry, n)
	}
}

// Clear empties the manager, keeping its allocations: every edge made so
// far is void.
func (d *BDD) Clear() {
	if d.nodes == nil {
		return
	}
	d.nodes = d.nodes[:1]
	clear(d.slots)
	clear(d.cache)
	d.full = false
}

// Len is the number of nodes made so far (the constant included).
func (d *BDD) Len() int { return len(d.nodes) }

// Full reports whether an operation reached the manager's node bound.
func (d *BDD) Full() bool { return d.full }

// OperationNodes is the node bound of the current operation.
func (d *BDD) OperationNodes() int { return d.callMax }

// Var returns the function of the variable at level v.
func (d *BDD) Var(v int32) (BDDEdge, error) { return d.mk(v, BDDFalse, BDDTrue) }

// Level is the level of e's top variable; a constant has none (ok false).
func (d *BDD) Level(e BDDEdge) (v int32, ok bool) {
	v = d.nodes[e>>1].v
	return v, v != bddNoVar
}

// Cofactors returns e with its top variable false and true.
func (d *BDD) Cofactors(e BDDEdge) (lo, hi BDDEdge) {
	n := &d.nodes[e>>1]
	return n.lo ^ e&1, n.hi ^ e&1
}

func bddHash(v int32, lo, hi BDDEdge) uint32 {
	h := uint64(v)*0x9e3779b97f4a7c15 ^ uint64(lo)*0xc2b2ae3d27d4eb4f ^ uint64(hi)*0x165667b19e3779f9
	h ^= h >> 29
	return uint32(h)
}

// mk returns the edge of the node (v, lo, hi), reduced and canonical.
func (d *BDD) mk(v int32, lo, hi BDDEdge) (BDDEdge, error) {
	if lo == hi {
		return lo, nil
	}
	if hi&1 == 1 {
		e, err := d.mk(v, lo^1, hi^1)
		return e ^ 1, err
	}
	mask := uint32(len(d.slots) - 1)
	for i := bddHash(v, lo, hi) & mask; ; i = (i + 1) & mask {
		s := d.slots[i]
		if s == 0 {
			break
		}
		if n := &d.nodes[s]; n.v == v && n.lo == lo && n.hi == hi {
			return BDDEdge(s << 1), nil
		}
	}
	if len(d.nodes) >= d.callMax {
		d.full = len(d.nodes) >= d.lim.MaxNodes
		return 0, ErrBDDLimit
	}
	id := uint32(len(d.nodes))
	d.nodes = append(d.nodes, bddNode{v: v, lo: lo, hi: hi})
	if 2*len(d.nodes) > len(d.slots) {
		d.slots = make([]uint32, 2*len(d.slots))
		for id := 1; id < len(d.nodes); id++ {
			d.insert(uint32(id))
		}
	} else {
		d.insert(id)
	}
	return BDDEdge(id << 1), nil
}

func (d *BDD) insert(id uint32) {
	n := &d.nodes[id]
	mask := uint32(len(d.slots) - 1)
	i := bddHash(n.v, n.lo, n.hi) & mask
	for d.slots[i] != 0 {
		i = (i + 1) & mask
	}
	d.slots[i] = id
}

func (d *BDD) cacheIndex(a, b BDDEdge) uint32 {
	h := (uint64(a)*0x9e3779b97f4a7c15 ^ uint64(b)*0xc2b2ae3d27d4eb4f) >> 29
	return uint32(h) & uint32(len(d.cache)-1)
}

// And returns the conjunction of a and b.
func (d *BDD) And(a, b BDDEdge) (BDDEdge, error) {
	switch {
	case a == BDDFalse || b == BDDFalse || a == b^1:
		return BDDFalse, nil
	case a == BDDTrue || a == b:
		return b, nil
	case b == BDDTrue:
		return a, nil
	}
	if a > b {
		a, b = b, a
	}
	ci := d.cacheIndex(a, b)
	if ce := &d.cache[ci]; ce.a == a && ce.b == b {
		return ce.r, nil
	}
	if d.steps++; d.steps > d.stepMax {
		return 0, ErrBDDLimit
	}
	if d.stopTick--; d.stopTick <= 0 {
		d.stopTick = bddStopEvery
		if d.stop != nil {
			d.stopErr = d.stop()
		}
		if d.stopErr != nil {
			return 0, d.stopErr
		}
	}
	va, vb := d.nodes[a>>1].v, d.nodes[b>>1].v
	v := min(va, vb)
	alo, ahi, blo, bhi := a, a, b, b
	if va == v {
		alo, ahi = d.Cofactors(a)
	}
	if vb == v {
		blo, bhi = d.Cofactors(b)
	}
	lo, err := d.And(alo, blo)
	if err != nil {
		return 0, err
	}
	hi, err := d.And(ahi, bhi)
	if err != nil {
		return 0, err
	}
	r, err := d.mk(v, lo, hi)
	if err != nil {
		return 0, err
	}
	d.cache[ci] = bddCacheEntry{a: a, b: b, r: r}
	return r, nil
}

// Or returns the disjunction of a and b.
func (d *BDD) Or(a, b BDDEdge) (BDDEdge, error) {
	r, err := d.And(a^1, b^1)
	return r ^ 1, err
}

// Xor returns the exclusive or of a and b.
func (d *BDD) Xor(a, b BDDEdge) (BDDEdge, error) {
	x, err := d.And(a, b^1)
	if err != nil {
		return 0, err
	}
	y, err := d.And(a^1, b)
	if err != nil {
		return 0, err
	}
	return d.Or(x, y)
}

// Compose returns e with the variable at every level v replaced by the
// function sub(v), all at once (a variable of another level, a constant,
// any BDD of the manager): the BDD of e's function read through a renaming
// or a restriction of its variables. sub may name levels that e also
// reads: the substitution is simultaneous, so a permutation of the levels
// is a renaming. The cost is an if-then-else per node of e, each on the
// composed halves; a function whose cofactors stay small in the new order
// (a count of the same items walked in another order) composes in about
// its size.
func (d *BDD) Compose(e BDDEdge, sub func(v int32) BDDEdge) (BDDEdge, error) {
	memo := map[uint32]BDDEdge{}
	var rec func(id uint32) (BDDEdge, error)
	rec = func(id uint32) (BDDEdge, error) {
		if id == 0 {
			return BDDTrue, nil
		}
		if r, ok := memo[id]; ok {
			return r, nil
		}
		n := d.nodes[id] // a copy: the recursion may grow d.nodes
		lo, err := rec(uint32(n.lo >> 1))
		if err != nil {
			return 0, err
		}
		hi, err := rec(uint32(n.hi >> 1))
		if err != nil {
			return 0, err
		}
		r, err := d.ite(sub(n.v), hi^n.hi&1, lo^n.lo&1)
		if err != nil {
			return 0, err
		}
		memo[id] = r
		return r, nil
	}
	r, err := rec(uint32(e >> 1))
	return r ^ e&1, err
}

// ite is if x then h else l.
func (d *BDD) ite(x, h, l BDDEdge) (BDDEdge, error) {
	switch {
	case x == BDDTrue || h == l:
		return h, nil
	case x == BDDFalse:
		return l, nil
	}
	a, err := d.And(x, h)
	if err != nil {
		return 0, err
	}
	b, err := d.And(x^1, l)
	if err != nil {
		return 0, err
	}
	return d.Or(a, b)
}

// AndFanin returns the BDD of gate gi of cn (the conjunction of its fanin
// literals) from the BDDs lit of cn's slots.
func (d *BDD) AndFanin(cn *Cone, gi int, lit []BDDEdge) (BDDEdge, error) {
	acc := BDDTrue
	for _, l := range cn.GateFanin(gi) {
		var err error
		if acc, err = d.And(acc, lit[l>>1]^BDDEdge(l&1)); err != nil {
			return 0, err
		}
		if acc == BDDFalse {
			break
		}
	}
	return acc, nil
}

// bddGateCheckEvery: gates between two looks at the context in EvalCone.
const bddGateCheckEvery = 16

// EvalCone returns the BDD of every slot of cn (RootOf gives the root's),
// input k of cn being in(k). When gates is not nil it keeps the BDDs of
// circuit gates (by node) across calls: a gate that reads no input for
// which in says keep false, directly or through gates, is looked up there
// and stored there, so sub-circuits that many functions share are built
// once. The caller must drop gates when the BDD of a kept input changes
// and when the manager is cleared.
func (d *BDD) EvalCone(ctx context.Context, cn *Cone, in func(k int) (e BDDEdge, keep bool), gates map[int32]BDDEdge) ([]BDDEdge, error) {
	lit := make([]BDDEdge, cn.NumSlots())
	moved := make([]bool, cn.NumSlots()) // reads an input not kept
	lit[0] = BDDFalse
	for k := range cn.Inputs {
		var keep bool
		lit[1+k], keep = in(k)
		moved[1+k] = !keep
	}
	first := cn.FirstGate()
	for gi, node := range cn.Gates {
		if gi%bddGateCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for _, l := range cn.GateFanin(gi) {
			if moved[l>>1] {
				moved[first+gi] = true
				break
			}
		}
		keep := !moved[first+gi] && gates != nil
		if keep {
			if e, ok := gates[node]; ok {
				lit[first+gi] = e
				continue
			}
		}
		e, err := d.AndFanin(cn, gi, lit)
		if err != nil {
			return nil, err
		}
		lit[first+gi] = e
		if keep {
			gates[node] = e
		}
	}
	return lit, nil
}

// RootOf returns the BDD of cn's root from the BDDs of its slots.
func RootOf(cn *Cone, lit []BDDEdge) BDDEdge { return lit[cn.Root>>1] ^ BDDEdge(cn.Root&1) }

// Levels returns the levels of the variables of the BDDs roots: for a
// reduced BDD, exactly its function's support.
func (d *BDD) Levels(roots ...BDDEdge) map[int32]bool {
	dep := map[int32]bool{}
	seen := map[uint32]bool{}
	var stack []uint32
	for _, r := range roots {
		stack = append(stack[:0], uint32(r>>1))
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if id == 0 || seen[id] {
				continue
			}
			seen[id] = true
			n := d.nodes[id]
			dep[n.v] = true
			stack = append(stack, uint32(n.lo>>1), uint32(n.hi>>1))
		}
	}
	return dep
}

// AnySat returns an assignment under which e is true, as the levels on one
// path from e's root to the constant true and their values (every other
// variable may take any value), or ok false when e is the constant false.
func (d *BDD) AnySat(e BDDEdge) (levels []int32, values []bool, ok bool) {
	if e == BDDFalse {
		return nil, nil, false
	}
	// In a reduced BDD every edge but the constant false reaches true.
	for e != BDDTrue {
		lo, hi := d.Cofactors(e)
		levels = append(levels, d.nodes[e>>1].v)
		if hi != BDDFalse {
			values, e = append(values, true), hi
		} else {
			values, e = append(values, false), lo
		}
	}
	return levels, values, true
}

// Collect frees every node that no edge of the maps keep reaches, and
// renumbers the others, rewriting the edges of keep in place: every other
// edge made so far is void. It keeps the order of the nodes (a node's
// children come before it), so the unique table holds each function once
// as before; the operation cache is emptied. It returns the nodes freed.
func (d *BDD) Collect(keep ...map[int32]BDDEdge) int {
	if d.nodes == nil {
		return 0
	}
	n := len(d.nodes)
	// newID[i] is 0 for a node not reached, else its new index (the
	// constant stays 0).
	newID := make([]uint32, n)
	const reached = 1
	var stack []uint32
	for _, m := range keep {
		for _, e := range m {
			stack = append(stack[:0], uint32(e>>1))
			for len(stack) > 0 {
				id := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if id == 0 || newID[id] != 0 {
					continue
				}
				newID[id] = reached
				nd := &d.nodes[id]
				stack = append(stack, uint32(nd.lo>>1), uint32(nd.hi>>1))
			}
		}
	}
	remap := func(e BDDEdge) BDDEdge { return BDDEdge(newID[e>>1])<<1 | e&1 }
	next := uint32(1)
	for id := 1; id < n; id++ {
		if newID[id] == 0 {
			continue
		}
		nd := d.nodes[id]
		newID[id] = next
		d.nodes[next] = bddNode{v: nd.v, lo: remap(nd.lo), hi: remap(nd.hi)}
		next++
	}
	d.nodes = d.nodes[:next]
	if cap(d.nodes) > 4*len(d.nodes) {
		d.nodes = append(make([]bddNode, 0, 2*len(d.nodes)), d.nodes...) // give the memory back
	}
	for _, m := range keep {
		for k, e := range m {
			m[k] = remap(e)
		}
	}
	size := 1 << 10
	for size < 2*len(d.nodes) {
		size <<= 1
	}
	if size < len(d.slots) {
		d.slots = make([]uint32, size)
	} else {
		clear(d.slots)
	}
	for id := 1; id < len(d.nodes); id++ {
		d.insert(uint32(id))
	}
	clear(d.cache)
	d.full = false
	return n - len(d.nodes)
}
