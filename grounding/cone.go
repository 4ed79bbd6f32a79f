package grounding

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// Cone is the part of a circuit that one literal reaches, renumbered densely
// into slots: slot 0 is the constant false, slots 1..len(Inputs) are the
// inputs in ascending order, and the gates follow in ascending (hence
// topological) order. It is the circuit toolkit's unit of work: bit-parallel
// simulation (ConeSim), Tseitin encodings and truth tables all run on cones.
//
// A Cone is not safe for concurrent use once Fanout has been called (it
// keeps its fanout index and scratch space).
type Cone struct {
	Inputs []int32  // circuit inputs, ascending (the syntactic support)
	Gates  []int32  // gate nodes, ascending
	Start  []int32  // len(Gates)+1 offsets into Fanin
	Fanin  []uint32 // slot<<1 | negated
	Root   uint32   // slot<<1 | negated

	// Fanout index, built on first use: the gates reading slot s are
	// users[userStart[s]:userStart[s+1]].
	userStart []int32
	users     []int32
	userLit   []uint32 // userLit[u]: the fanin literal through which users[u] reads its slot
	seen      []uint64 // scratch bitset over gates
	stack     []int32  // scratch
	// Cached fanouts of inputs, within maxFanoutCache: input k's is
	// fanBuf[fanAt[k] : fanAt[k]+fanBuf[fanAt[k]-1]] when fanAt[k] > 0.
	// Offsets, not one slice per input: a slice header per input of a
	// cone of 172,000 inputs was 4 MB for the GC to clear and scan per cone.
	fanAt  []int32
	fanBuf []int32
}

// maxFanoutCache bounds the gate indices one cone keeps in its fanout cache
// (4 bytes each): enough for every input of a big function's cone to be
// flipped repeatedly without recomputing, without keeping inputs × gates.
const maxFanoutCache = 1 << 24

// NumSlots counts the cone's slots: the constant, the inputs and the gates.
func (cn *Cone) NumSlots() int { return 1 + len(cn.Inputs) + len(cn.Gates) }

// FirstGate is the slot of the first gate.
func (cn *Cone) FirstGate() int { return 1 + len(cn.Inputs) }

// GateFanin returns the fanin slot literals of gate index gi (an index into
// Gates, not a slot).
func (cn *Cone) GateFanin(gi int) []uint32 { return cn.Fanin[cn.Start[gi]:cn.Start[gi+1]] }

// CollectCone walks the cone of root and returns its circuit inputs and
// gate nodes, both ascending. It checks the circuit on the way (fanin ranges,
// fanins below their gate), so that a hand-built Circuit gives an error,
// never a crash.
func CollectCone(c *Circuit, root Lit) (inputs, gates []int32, err error) {
	sc := getConeScratch(c.NumNodes())
	defer coneScratches.Put(sc)
	return collectCone(c, root, sc)
}

// coneScratch is the working space of one cone walk over a circuit of up
// to len(slot) nodes: a node bitset, clear between walks, and a slot per
// node, written for every node of a cone before it is read, so never
// cleared. A map per walk cost most of the walk on cones of 172,000 inputs
// (amazons' next functions).
type coneScratch struct {
	mark  []uint64
	slot  []uint32
	stack []int32
}

var coneScratches = sync.Pool{New: func() any { return new(coneScratch) }}

// getConeScratch returns a scratch space for a circuit of nn nodes.
func getConeScratch(nn int) *coneScratch {
	sc := coneScratches.Get().(*coneScratch)
	if len(sc.slot) < nn {
		sc.mark = make([]uint64, (nn+63)/64)
		sc.slot = make([]uint32, nn)
	}
	return sc
}

// collectCone is CollectCone with scratch space sc, which it leaves clear.
func collectCone(c *Circuit, root Lit, sc *coneScratch) (inputs, gates []int32, err error) {
	nn := c.NumNodes()
	r := root.Node()
	if r >= nn {
		return nil, nil, fmt.Errorf("literal %d beyond %d nodes", root, nn)
	}
	if r == 0 {
		return nil, nil, nil
	}
	if r <= c.NumInputs {
		return []int32{int32(r - 1)}, nil, nil
	}
	mark := sc.mark
	lo, hi := r, r // range of marked nodes
	nIn, nGates := 0, 0
	mark[r>>6] |= 1 << (r & 63)
	stack := append(sc.stack[:0], int32(r))
	defer func() {
		// Clear the marks left when the walk stops on an error.
		if err != nil {
			clear(mark[lo>>6 : hi>>6+1])
		}
		sc.stack = stack[:0]
	}()
	// Inputs are only marked: the walk pushes gates alone.
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nGates++
		lo0, hi0 := c.Start[n], c.Start[n+1]
		if lo0 > hi0 || int(hi0) > len(c.Fanin) {
			return nil, nil, fmt.Errorf("bad fanin range of gate %d", n)
		}
		for _, l := range c.Fanin[lo0:hi0] {
			m := l.Node()
			if m >= int(n) {
				return nil, nil, fmt.Errorf("gate %d has fanin node %d, not below it", n, m)
			}
			if m == 0 || mark[m>>6]&(1<<(m&63)) != 0 {
				continue
			}
			mark[m>>6] |= 1 << (m & 63)
			lo, hi = min(lo, m), max(hi, m)
			if m <= c.NumInputs {
				nIn++
			} else {
				stack = append(stack, int32(m))
			}
		}
	}
	inputs = make([]int32, 0, nIn)
	gates = make([]int32, 0, nGates)
	// Read the marks out in order, clearing them.
	for w := lo >> 6; w <= hi>>6; w++ {
		for x := mark[w]; x != 0; x &= x - 1 {
			n := int32(w<<6 + bits.TrailingZeros64(x))
			if int(n) <= c.NumInputs {
				inputs = append(inputs, n-1)
			} else {
				gates = append(gates, n)
			}
		}
		mark[w] = 0
	}
	return inputs, gates, nil
}

// NewCone builds the renumbered cone of root (see CollectCone for the checks).
func NewCone(c *Circuit, root Lit) (*Cone, error) {
	sc := getConeScratch(c.NumNodes())
	defer coneScratches.Put(sc)
	inputs, gates, err := collectCone(c, root, sc)
	if err != nil {
		return nil, err
	}
	cn := &Cone{Inputs: inputs, Gates: gates, Start: make([]int32, 1, len(gates)+1)}
	slotOf := sc.slot
	for k, in := range inputs {
		slotOf[in+1] = uint32(1 + k)
	}
	for k, g := range gates {
		slotOf[g] = uint32(1 + len(inputs) + k)
	}
	nFanin := 0
	for _, g := range gates {
		nFanin += int(c.Start[g+1] - c.Start[g])
	}
	cn.Fanin = make([]uint32, 0, nFanin)
	for _, g := range gates {
		for _, l := range c.Fanins(int(g)) {
			cn.Fanin = append(cn.Fanin, slotOf[l.Node()]<<1|uint32(l&1))
		}
		cn.Start = append(cn.Start, int32(len(cn.Fanin)))
	}
	cn.Root = slotOf[root.Node()]<<1 | uint32(root&1)
	return cn, nil
}

// Clone returns a cone that shares cn's slots and fanins (never changed
// once NewCone returns) with its own fanout index and scratch space, so
// that clones of one cone can be used concurrently.
func (cn *Cone) Clone() *Cone {
	return &Cone{Inputs: cn.Inputs, Gates: cn.Gates, Start: cn.Start, Fanin: cn.Fanin, Root: cn.Root}
}

// buildUsers builds the fanout index (compressed rows of gate indices).
func (cn *Cone) buildUsers() {
	n := cn.NumSlots()
	cn.userStart = make([]int32, n+1)
	for _, l := range cn.Fanin {
		cn.userStart[l>>1+1]++
	}
	for s := range n {
		cn.userStart[s+1] += cn.userStart[s]
	}
	cn.users = make([]int32, len(cn.Fanin))
	cn.userLit = make([]uint32, len(cn.Fanin))
	fill := slices.Clone(cn.userStart[:n])
	for gi := range cn.Gates {
		for _, l := range cn.GateFanin(gi) {
			s := l >> 1
			cn.users[fill[s]] = int32(gi)
			cn.userLit[fill[s]] = l
			fill[s]++
		}
	}
	cn.seen = make([]uint64, (len(cn.Gates)+63)/64)
}

// Users returns the gates (indices into Gates, ascending) that read slot
// s directly. The index is built on first use; the slice must not be
// changed.
func (cn *Cone) Users(s int) []int32 {
	if cn.userStart == nil {
		cn.buildUsers()
	}
	return cn.users[cn.userStart[s]:cn.userStart[s+1]]
}

// Fanout appends to buf[:0] the gates (indices into Gates, ascending) that
// cone input k reaches, and returns it. It costs time linear in the fanout
// (plus one bit per gate between its first and last gate), and no allocation
// once buf is large enough.
func (cn *Cone) Fanout(k int, buf []int32) []int32 {
	if cn.userStart == nil {
		cn.buildUsers()
	}
	buf = buf[:0]
	first := cn.FirstGate()
	lo, hi := len(cn.Gates), -1
	stack := cn.stack[:0]
	push := func(slot int) {
		for _, gi := range cn.users[cn.userStart[slot]:cn.userStart[slot+1]] {
			if cn.seen[gi>>6]&(1<<(gi&63)) == 0 {
				cn.seen[gi>>6] |= 1 << (gi & 63)
				stack = append(stack, gi)
				lo, hi = min(lo, int(gi)), max(hi, int(gi))
			}
		}
	}
	push(1 + k)
	for len(stack) > 0 {
		gi := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		push(first + int(gi))
	}
	cn.stack = stack
	if hi < 0 {
		return buf
	}
	// Read the bits out in order, clearing them for the next call.
	for w := lo >> 6; w <= hi>>6; w++ {
		for x := cn.seen[w]; x != 0; x &= x - 1 {
			buf = append(buf, int32(w<<6+bits.TrailingZeros64(x)))
		}
		cn.seen[w] = 0
	}
	return buf
}

// CachedFanout returns the fanout of cone input k (as Fanout) from a cache
// kept while it holds at most maxFanoutCache entries in all; the caller
// must not modify it.
func (cn *Cone) CachedFanout(k int, buf []int32) []int32 {
	if fo, ok := cn.cachedFanout(k); ok {
		return fo
	}
	buf = cn.Fanout(k, buf)
	if cn.fanAt == nil {
		cn.fanAt = make([]int32, len(cn.Inputs))
	}
	if len(cn.fanBuf)+1+len(buf) <= maxFanoutCache {
		cn.fanBuf = append(cn.fanBuf, int32(len(buf)))
		cn.fanAt[k] = int32(len(cn.fanBuf))
		cn.fanBuf = append(cn.fanBuf, buf...)
	}
	return buf
}

// cachedFanout returns the cached fanout of input k, if any; the caller
// must not modify it.
func (cn *Cone) cachedFanout(k int) ([]int32, bool) {
	if cn.fanAt == nil || cn.fanAt[k] == 0 {
		return nil, false
	}
	at := cn.fanAt[k]
	return cn.fanBuf[at : at+cn.fanBuf[at-1] : at+cn.fanBuf[at-1]], true
}
