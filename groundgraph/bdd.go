package groundgraph

import (
	"context"
	"errors"
	"sync"
)

// Binary decision diagrams for semantic supports. The reduced ordered BDD
// of a function mentions exactly the variables the function depends on,
// so a function of free propositions alone gets its exact support from its
// BDD, in time that depends on BDD sizes, not on how hard a SAT solver
// finds the question: merrills' "legal white (move inner e inner n)" reads
// every pit through a piece count, and that the target's black stone
// cannot matter took gophersat minutes. One manager is shared by a Build's
// functions and keeps every circuit gate's BDD, so sub-circuits that many
// functions read (merrills' count) are built once. When the manager
// reaches Options.MaxBDDNodes it is given up for the rest of the Build,
// and simulation and SAT decide instead.

// errBDDLimit: the BDD manager is full.
var errBDDLimit = errors.New("groundgraph: BDD node bound reached")

// bddEdge is a node index << 1 | complemented. Node 0 is the constant
// true, so bddTrue is 0 and bddFalse 1.
type bddEdge uint32

const (
	bddTrue  bddEdge = 0
	bddFalse bddEdge = 1
)

type bddNode struct {
	v      int32   // variable: a proposition's level (grounding.PropOrder); the constant: bddNoVar
	lo, hi bddEdge // hi is never complemented (canonical form)
}

const bddNoVar = 1<<31 - 1

type bddCacheEntry struct{ a, b, r bddEdge }

// Per-call node bounds of supportBDD.support: merrills' first legal
// function (3,508 gates, the piece count) needs 336 k nodes, 96 a gate.
const (
	bddNodesPerGate = 128
	bddMinCallNodes = 1 << 16
)

// bddStepsPerNode bounds the work of one call: its AND steps that miss the
// cache, per node it may add. The node bound alone does not bound time:
// with a lossy cache, conjunctions of large BDDs can recompute the same
// subproblems, finding their nodes in the unique table, without end (a
// renaming of qyshinsu: 120 CPU s in one Build, past its deadline).
const bddStepsPerNode = 128

// bddCacheSize is the number of entries of the lossy AND cache (12 MiB).
const bddCacheSize = 1 << 20

// supportBDD is a Build's BDD manager (see above); safe for concurrent use.
type supportBDD struct {
	mu      sync.Mutex
	max     int
	callMax int // bound on the nodes of the current call
	steps   int // AND steps of the current call that missed the cache
	stepMax int // bound on steps: stepsPerNode per node the call may add
	// stepsPerNode is bddStepsPerNode (tests lower it).
	stepsPerNode int
	full         bool
	nodes        []bddNode
	slots        []uint32 // open-addressing unique table: node index, 0 empty
	cache        []bddCacheEntry
	gate         map[int32]bddEdge // circuit gate node -> its BDD
	level        []int32           // the variable order: level[in] of proposition in (grounding.PropOrder)
	prop         []int32           // the proposition at each level
}

// newSupportBDD returns a manager of at most maxNodes nodes whose variables
// are propositions in the order grounding.PropOrder returned.
func newSupportBDD(maxNodes int, level, prop []int32) *supportBDD {
	return &supportBDD{max: maxNodes, gate: map[int32]bddEdge{}, level: level, prop: prop, stepsPerNode: bddStepsPerNode}
}

func (d *supportBDD) varOf(e bddEdge) int32 { return d.nodes[e>>1].v }

func bddHash(v int32, lo, hi bddEdge) uint32 {
	h := uint64(v)*0x9e3779b97f4a7c15 ^ uint64(lo)*0xc2b2ae3d27d4eb4f ^ uint64(hi)*0x165667b19e3779f9
	h ^= h >> 29
	return uint32(h)
}

// mk returns the edge of the node (v, lo, hi), reduced and canonical.
func (d *supportBDD) mk(v int32, lo, hi bddEdge) (bddEdge, error) {
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
			return bddEdge(s << 1), nil
		}
	}
	if len(d.nodes) >= d.callMax {
		d.full = len(d.nodes) >= d.max
		return 0, errBDDLimit
	}
	id := uint32(len(d.nodes))
	d.nodes = append(d.nodes, bddNode{v: v, lo: lo, hi: hi})
	if 2*len(d.nodes) > len(d.slots) {
		d.rehash()
	} else {
		d.insert(id)
	}
	return bddEdge(id << 1), nil
}

func (d *supportBDD) insert(id uint32) {
	n := &d.nodes[id]
	mask := uint32(len(d.slots) - 1)
	i := bddHash(n.v, n.lo, n.hi) & mask
	for d.slots[i] != 0 {
		i = (i + 1) & mask
	}
	d.slots[i] = id
}

func (d *supportBDD) rehash() {
	d.slots = make([]uint32, 2*len(d.slots))
	for id := 1; id < len(d.nodes); id++ {
		d.insert(uint32(id))
	}
}

func bddCacheIndex(a, b bddEdge) uint32 {
	h := (uint64(a)*0x9e3779b97f4a7c15 ^ uint64(b)*0xc2b2ae3d27d4eb4f) >> 29
	return uint32(h) & (bddCacheSize - 1)
}

// and returns the conjunction of a and b.
func (d *supportBDD) and(a, b bddEdge) (bddEdge, error) {
	switch {
	case a == bddFalse || b == bddFalse || a == b^1:
		return bddFalse, nil
	case a == bddTrue || a == b:
		return b, nil
	case b == bddTrue:
		return a, nil
	}
	if a > b {
		a, b = b, a
	}
	ci := bddCacheIndex(a, b)
	ce := &d.cache[ci]
	if ce.a == a && ce.b == b {
		return ce.r, nil
	}
	if d.steps++; d.steps > d.stepMax {
		return 0, errBDDLimit
	}
	va, vb := d.varOf(a), d.varOf(b)
	v := min(va, vb)
	alo, ahi, blo, bhi := a, a, b, b
	if va == v {
		n := d.nodes[a>>1]
		alo, ahi = n.lo^a&1, n.hi^a&1
	}
	if vb == v {
		n := d.nodes[b>>1]
		blo, bhi = n.lo^b&1, n.hi^b&1
	}
	lo, err := d.and(alo, blo)
	if err != nil {
		return 0, err
	}
	hi, err := d.and(ahi, bhi)
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

// support returns, for each input of cn, whether the function of cn's
// root depends on it, or errBDDLimit. Every input of cn must be a free
// proposition. One call may add at most bddNodesPerGate nodes per gate of
// cn (plus bddMinCallNodes), and at most a quarter of the manager's
// bound: a function whose BDD blows up costs that much, and the manager
// stays usable for the others.
func (d *supportBDD) support(ctx context.Context, cn *cone) ([]bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin(cn, bddNodesPerGate, bddMinCallNodes); err != nil {
		return nil, err
	}
	lit, err := d.evalCone(ctx, cn, len(cn.Inputs))
	if err != nil {
		return nil, err
	}
	root := lit[cn.Root>>1] ^ bddEdge(cn.Root&1)
	// The variables of a reduced BDD are exactly its function's support.
	dep := d.vars(root)
	out := make([]bool, len(cn.Inputs))
	for k, in := range cn.Inputs {
		out[k] = dep[in]
	}
	return out, nil
}

// begin starts a call that may add at most perGate nodes per gate of cn
// plus minNodes, and at most a quarter of the manager's bound, or returns
// errBDDLimit when the manager is full.
func (d *supportBDD) begin(cn *cone, perGate, minNodes int) error {
	if d.full {
		return errBDDLimit
	}
	d.callMax = min(d.max, len(d.nodes)+min(d.max/4, perGate*len(cn.Gates)+minNodes))
	d.steps, d.stepMax = 0, d.stepsPerNode*max(d.callMax-len(d.nodes), 0)
	if d.nodes == nil {
		d.nodes = []bddNode{{v: bddNoVar}}
		d.slots = make([]uint32, 1<<10)
		d.cache = make([]bddCacheEntry, bddCacheSize)
	}
	return nil
}

// evalCone returns the BDD of every slot of cn, its first nP inputs
// variables and the others false. A gate that reads none of the others,
// directly or through gates, keeps its BDD in d.gate, so sub-circuits
// that many functions share are built once.
func (d *supportBDD) evalCone(ctx context.Context, cn *cone, nP int) (lit []bddEdge, err error) {
	lit = make([]bddEdge, cn.NumSlots())
	moved := make([]bool, cn.NumSlots()) // reads one of the others
	lit[0] = bddFalse
	for k, in := range cn.Inputs {
		if k >= nP {
			lit[1+k], moved[1+k] = bddFalse, true
			continue
		}
		if lit[1+k], err = d.mk(d.level[in], bddFalse, bddTrue); err != nil {
			return nil, err
		}
	}
	first := cn.FirstGate()
	for gi, node := range cn.Gates {
		if gi%cancelCheckEvery == 0 {
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
		if !moved[first+gi] {
			if e, ok := d.gate[node]; ok {
				lit[first+gi] = e
				continue
			}
		}
		e, err := d.andFanin(cn, gi, lit)
		if err != nil {
			return nil, err
		}
		lit[first+gi] = e
		if !moved[first+gi] {
			d.gate[node] = e
		}
	}
	return lit, nil
}

// vars returns the variables (propositions) of the BDDs roots.
func (d *supportBDD) vars(roots ...bddEdge) map[int32]bool {
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
			dep[d.prop[n.v]] = true
			stack = append(stack, uint32(n.lo>>1), uint32(n.hi>>1))
		}
	}
	return dep
}

// andFanin returns the BDD of gate gi of cn (the conjunction of its fanin
// literals) from the BDDs lit of its slots.
func (d *supportBDD) andFanin(cn *cone, gi int, lit []bddEdge) (bddEdge, error) {
	acc := bddTrue
	for _, l := range cn.GateFanin(gi) {
		var err error
		if acc, err = d.and(acc, lit[l>>1]^bddEdge(l&1)); err != nil {
			return 0, err
		}
		if acc == bddFalse {
			break
		}
	}
	return acc, nil
}
