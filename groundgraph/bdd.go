package groundgraph

import (
	"context"
	"sync"

	"github.com/gamequiv/gamequiv/grounding"
)

// Binary decision diagrams for semantic supports. The reduced ordered BDD
// of a function mentions exactly the variables the function depends on,
// so a function of free propositions alone gets its exact support from its
// BDD, in time that depends on BDD sizes, not on how hard a SAT solver
// finds the question: merrills' "legal white (move inner e inner n)" reads
// every pit through a piece count, and that the target's black stone
// cannot matter took gophersat minutes. One manager (grounding.BDD, the
// toolkit's) is shared by a Build's functions and keeps every circuit
// gate's BDD, so sub-circuits that many functions read (merrills' count)
// are built once. When the manager reaches Options.MaxBDDNodes it is given
// up for the rest of the Build, and simulation and SAT decide instead.

// errBDDLimit: a bound of the BDD manager or of one call was reached.
var errBDDLimit = grounding.ErrBDDLimit

// bddEdge is a BDD (grounding.BDDEdge).
type bddEdge = grounding.BDDEdge

const (
	bddTrue  = grounding.BDDTrue
	bddFalse = grounding.BDDFalse
)

// Per-call node bounds of supportBDD.support: merrills' first legal
// function (3,508 gates, the piece count) needs 336 k nodes, 96 a gate.
// A call's AND steps are bounded too (grounding.DefaultBDDStepsPerNode).
const (
	bddNodesPerGate = 128
	bddMinCallNodes = 1 << 16
)

// The bound of a trial call, made on a small cone before simulation
// (simSupport): a function whose BDD is small or mostly built already is
// settled at once, and one whose BDD would grow large costs a sixteenth
// of the full bound before samples take over (connectFour's four goal and
// terminal BDDs failed at the full bound, 90% of its graph phase, where
// samples show every input).
const (
	bddTrialNodesPerGate = bddNodesPerGate / 16
	bddTrialMinNodes     = bddMinCallNodes / 16
)

// bddFirstCacheEntries is a manager's first AND cache (12 bytes an
// entry); begin grows it with the nodes the manager may hold, up to
// grounding.DefaultBDDCacheEntries. A cache of the full size from the
// start cost each Build 12 MB to zero and to fault in: half the
// allocations of Tic-tac-toe against Number Scrabble, whose functions
// need a few thousand nodes.
const bddFirstCacheEntries = 1 << 12

// bddFullCacheGates: a call with the full bound (bddNodesPerGate) on a
// cone of this many gates or more grows the cache to its full size at
// once. A cache sized by the nodes alone made Connect Four's supports
// (cones of hundreds of gates, 84% of its CPU in BDD ANDs) a quarter
// slower through lost entries. A trial call (simSupport) sizes the cache
// by its bound like a small cone: the Connect Four boards' goals and
// terminal fail their trials, and the full cache (12 MB to allocate, zero
// and fault in, every Build) was a tenth of their Build's CPU.
const bddFullCacheGates = 128

// supportBDD is a Build's BDD manager (see above); safe for concurrent use.
type supportBDD struct {
	mu    sync.Mutex
	d     *grounding.BDD
	gate  map[int32]bddEdge // circuit gate node -> its BDD
	level []int32           // the variable order: level[in] of proposition in (grounding.PropOrder)
	prop  []int32           // the proposition at each level

	// Scratch of levels: a node bitset and a level bitset, left all zero
	// between calls, and the nodes to visit.
	seen, used     []uint64
	stack, visited []uint32
	fanin          []bddEdge // scratch of andFanin
}

// newSupportBDD returns a manager of at most maxNodes nodes whose variables
// are propositions in the order grounding.PropOrder returned.
func newSupportBDD(maxNodes int, level, prop []int32) *supportBDD {
	return newSupportBDDLimits(grounding.BDDLimits{MaxNodes: maxNodes}, level, prop)
}

func newSupportBDDLimits(lim grounding.BDDLimits, level, prop []int32) *supportBDD {
	if lim.InitialCacheEntries == 0 {
		lim.InitialCacheEntries = bddFirstCacheEntries
	}
	return &supportBDD{d: grounding.NewBDD(lim), gate: map[int32]bddEdge{}, level: level, prop: prop}
}

// A free list of support managers across Builds (as freeCornerBufs): a
// small game's manager was a fifth of the bytes a Tic-tac-toe against
// Number Scrabble comparison allocated (its node and hash tables grown
// afresh, its cache zeroed), hence of its garbage collections. It keeps
// at most maxFreeSupportBDDs managers of at most maxFreeSupportBDDBytes
// each: a big game's manager goes to the collector.
const (
	maxFreeSupportBDDs     = 4
	maxFreeSupportBDDBytes = 1 << 20
)

var freeSupportBDDs = make(chan *supportBDD, maxFreeSupportBDDs)

// getSupportBDD is newSupportBDD, on a manager from the free list when
// one with the same bound is there. A reused manager is empty; only its
// tables are larger, which changes no BDD (they are canonical).
func getSupportBDD(maxNodes int, level, prop []int32) *supportBDD {
	select {
	case d := <-freeSupportBDDs:
		if d.d.Limits().MaxNodes == maxNodes {
			d.level, d.prop = level, prop
			return d
		}
	default:
	}
	return newSupportBDD(maxNodes, level, prop)
}

// putSupportBDD empties d and keeps it for another Build when it is
// small; d must not be used afterwards.
func putSupportBDD(d *supportBDD) {
	if d == nil || d.d.Bytes() > maxFreeSupportBDDBytes {
		return
	}
	d.clear()
	d.level, d.prop = nil, nil
	select {
	case freeSupportBDDs <- d:
	default:
	}
}

// support returns, for each input of cn, whether the function of cn's
// root depends on it, or errBDDLimit. Every input of cn must be a free
// proposition. One call may add at most bddNodesPerGate nodes per gate of
// cn (plus bddMinCallNodes), and at most a quarter of the manager's
// bound: a function whose BDD blows up costs that much, and the manager
// stays usable for the others.
func (d *supportBDD) support(ctx context.Context, cn *cone) ([]bool, error) {
	return d.supportWithin(ctx, cn, bddNodesPerGate, bddMinCallNodes)
}

// supportWithin is support with a call bound of perGate nodes per gate of
// cn plus minNodes.
func (d *supportBDD) supportWithin(ctx context.Context, cn *cone, perGate, minNodes int) ([]bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.begin(ctx, cn, perGate, minNodes); err != nil {
		return nil, err
	}
	lit, err := d.evalCone(ctx, cn, len(cn.Inputs))
	if err != nil {
		return nil, err
	}
	// The variables of a reduced BDD are exactly its function's support.
	out := make([]bool, len(cn.Inputs))
	d.levels(cn, []bddEdge{grounding.RootOf(cn, lit)}, out)
	return out, nil
}

// levels sets dep[k] when the first len(dep) inputs of cn are variables of
// the BDDs roots (grounding.BDD.Levels, with bitsets that are reused
// instead of two fresh maps a call: a tenth of Tic-tac-toe's graph phase).
func (d *supportBDD) levels(cn *cone, roots []bddEdge, dep []bool) {
	if w := (d.d.Len() + 63) / 64; len(d.seen) < w {
		d.seen = make([]uint64, w)
	}
	if w := (len(d.prop) + 63) / 64; len(d.used) < w {
		d.used = make([]uint64, w)
	}
	visited := d.visited[:0] // nodes set in d.seen, cleared at the end
	for _, r := range roots {
		stack := append(d.stack[:0], uint32(r>>1))
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if id == 0 || d.seen[id/64]&(1<<(id%64)) != 0 {
				continue
			}
			d.seen[id/64] |= 1 << (id % 64)
			visited = append(visited, id)
			e := bddEdge(id << 1)
			v, _ := d.d.Level(e)
			d.used[v/64] |= 1 << (v % 64)
			lo, hi := d.d.Cofactors(e)
			stack = append(stack, uint32(lo>>1), uint32(hi>>1))
		}
		d.stack = stack
	}
	for k := range dep {
		v := d.level[cn.Inputs[k]]
		dep[k] = d.used[v/64]&(1<<(v%64)) != 0
	}
	for _, id := range visited {
		d.seen[id/64] = 0
		v, _ := d.d.Level(bddEdge(id << 1))
		d.used[v/64] = 0
	}
	d.visited = visited
}

// begin starts a call that may add at most perGate nodes per gate of cn
// plus minNodes, and at most a quarter of the manager's bound, or returns
// errBDDLimit when the manager is full. The cache grows to the nodes the
// manager holds plus perGate per gate of cn (the minimum left out: small
// cones rarely use it), or to its full size for a large cone with the
// full bound; trial and choice calls, whose perGate is lower, keep the
// smaller cache whatever the cone.
func (d *supportBDD) begin(ctx context.Context, cn *cone, perGate, minNodes int) error {
	return d.beginAtMost(ctx, cn, perGate, minNodes, d.d.Limits().MaxNodes/4, perGate)
}

// beginAtMost is begin with a call bound of at most maxNodes nodes
// (and still at most a quarter of the manager's bound), its cache sized
// by cachePerGate instead of perGate.
func (d *supportBDD) beginAtMost(ctx context.Context, cn *cone, perGate, minNodes, maxNodes, cachePerGate int) error {
	if err := d.d.Begin(ctx, min(d.d.Limits().MaxNodes/4, maxNodes, perGate*len(cn.Gates)+minNodes)); err != nil {
		return err
	}
	if len(cn.Gates) >= bddFullCacheGates && cachePerGate >= bddNodesPerGate {
		d.d.GrowCache(d.d.Limits().CacheEntries)
	} else {
		d.d.GrowCache(d.d.Len() + min(maxNodes, cachePerGate*len(cn.Gates)))
	}
	return nil
}

// clear empties d, keeping its allocations.
func (d *supportBDD) clear() {
	d.d.Clear()
	clear(d.gate)
}

// evalCone returns the BDD of every slot of cn, its first nP inputs
// variables and the others false. A gate that reads none of the others,
// directly or through gates, keeps its BDD in d.gate, so sub-circuits
// that many functions share are built once.
func (d *supportBDD) evalCone(ctx context.Context, cn *cone, nP int) ([]bddEdge, error) {
	vars := make([]bddEdge, nP)
	for k := range vars {
		var err error
		if vars[k], err = d.d.Var(d.level[cn.Inputs[k]]); err != nil {
			return nil, err
		}
	}
	return d.d.EvalCone(ctx, cn, func(k int) (bddEdge, bool) {
		if k < nP {
			return vars[k], true
		}
		return bddFalse, false
	}, d.gate)
}
