package satcheck

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// Cut BDDs: two roots that read the same internal nodes but combine them
// differently, such as a count of the same items taken in another order
// (queens' goal under the board's diagonal reflection: the count of
// attacked queens walks the cells column by column in one cone and row by
// row in the other; both read the same 100 "attacked" gates), are a miter
// no CDCL solver finishes (a 6x6 board's whole-cone question ran 96 s in
// gophersat and 100 s in CaDiCaL without an answer), and the BDDs of the
// whole cones over the inputs blow up in the shared gates. Over the shared
// nodes as free variables the two roots are small BDDs: a count of n items
// has O(n·k) nodes in any order that keeps each item's variables together,
// which the depth-first order of the first root gives.
//
// Soundness: every node both roots read (other than the roots themselves)
// becomes a free variable, an over-approximation of the values it takes;
// the inputs keep their groups' constraints. So when x XOR y is false over
// every value of the cut, x and y are equal on every input the functions
// are compared on. Any other answer proves nothing, and the pair goes on to
// SAT: the cut only ever proves equalities, never a difference.

// Node budget of one cut check: cutBDDNodesPerGate per gate of the two
// cones plus cutBDDMinNodes, at most Options.MaxBDDNodes (Mode NoBDD turns
// cut BDDs off with the others). A cut check has its own manager, freed
// when it returns, beside the Checker's kept one: BDD memory stays within
// twice MaxBDDNodes. queens6's goals under the diagonal
// reflection (820 gates outside the cut) need 17,585 to 1,838,587 nodes
// (about 2,240 a gate for "goal 0", a count of at least 8 of 36); a pair
// whose cut BDDs blow up gives up after about what building a good one of
// its size would cost.
const (
	cutBDDNodesPerGate = 4096
	cutBDDMinNodes     = 1 << 16
)

// cutBDDCacheEntries is the cut check's operation cache (12 bytes each).
const cutBDDCacheEntries = 1 << 16

// cutEqual reports whether literals x and y of the sweep graph are equal
// as functions of the nodes both read, taken as free variables, and of
// the inputs, under the groups' constraints. fan(n) gives gate n's
// fanins. false means only "not shown this way"; a cut with no shared
// gate is not tried (that is the BDD stage's question over the inputs).
func (s *sweeper) cutEqual(ctx context.Context, x, y uint32, fan func(n uint32) []uint32) (bool, error) {
	g := s.g
	nn := g.numNodes()
	mark := make([]uint8, nn)
	var stack []uint32
	reach := func(root uint32, bit uint8) {
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if mark[n]&bit != 0 {
				continue
			}
			mark[n] |= bit
			if g.isGate(n) {
				for _, l := range fan(n) {
					stack = append(stack, l>>1)
				}
			}
		}
	}
	rx, ry := x>>1, y>>1
	reach(rx, 1)
	reach(ry, 2)
	cutAt := func(n uint32) bool {
		return n != 0 && (!g.isGate(n) || mark[n] == 3 && n != rx && n != ry)
	}
	shared, gates := 0, 0
	for n := range nn {
		switch {
		case mark[n] == 0:
		case g.isGate(uint32(n)) && cutAt(uint32(n)):
			shared++
		case g.isGate(uint32(n)):
			gates++
		}
	}
	if shared == 0 {
		return false, nil
	}
	// Levels: the non-cut gates in depth-first post-order from x, then y,
	// and each cut node at the first of its readers to finish. A chain
	// step reads its items in several gates (pass, count one), the first
	// of them before the rest of the chain is visited and the others
	// after: first-seen orders split a step's items across the rest of
	// the chain (the BDDs then remember every half-read step: queens6's
	// goal passed 100,000 nodes), while the readers' post-order puts them
	// together, the deepest step first.
	post := make(map[uint32]int32, gates)
	var order []uint32 // gates to build, fanins first
	type frame struct {
		n    uint32
		next int
	}
	var fs []frame
	for _, root := range []uint32{rx, ry} {
		if root == 0 || cutAt(root) {
			continue
		}
		if _, ok := post[root]; ok {
			continue
		}
		post[root] = -1 // on the stack
		fs = append(fs[:0], frame{n: root})
		for len(fs) > 0 {
			f := &fs[len(fs)-1]
			fi := fan(f.n)
			if f.next < len(fi) {
				c := fi[f.next] >> 1
				f.next++
				if _, ok := post[c]; !ok && c != 0 && !cutAt(c) {
					post[c] = -1
					fs = append(fs, frame{n: c})
				}
				continue
			}
			post[f.n] = int32(len(order))
			order = append(order, f.n)
			fs = fs[:len(fs)-1]
		}
	}
	firstReader := make(map[uint32]int32, 2*shared)
	for i, n := range order {
		for _, l := range fan(n) {
			c := l >> 1
			if !cutAt(c) {
				continue
			}
			if _, ok := firstReader[c]; !ok {
				firstReader[c] = int32(i)
			}
		}
	}
	for _, root := range []uint32{rx, ry} {
		if _, ok := firstReader[root]; !ok && cutAt(root) {
			firstReader[root] = int32(len(order))
		}
	}
	cuts := make([]uint32, 0, len(firstReader))
	for c := range firstReader {
		cuts = append(cuts, c)
	}
	slices.SortFunc(cuts, func(a, b uint32) int {
		if d := firstReader[a] - firstReader[b]; d != 0 {
			return int(d)
		}
		return int(a) - int(b)
	})
	level := make(map[uint32]int32, len(cuts))
	for i, c := range cuts {
		level[c] = int32(i)
	}

	budget := min(cutBDDNodesPerGate*gates+cutBDDMinNodes, s.c.opt.MaxBDDNodes)
	d := grounding.NewBDD(grounding.BDDLimits{MaxNodes: budget, CacheEntries: cutBDDCacheEntries})
	if err := d.Begin(ctx, budget); err != nil {
		return false, notLimit(err)
	}
	val := make(map[uint32]grounding.BDDEdge, len(level)+len(order))
	val[0] = grounding.BDDFalse
	for n, lv := range level {
		e, err := d.Var(lv)
		if err != nil {
			return false, notLimit(err)
		}
		val[n] = e
	}
	for _, n := range order {
		acc := grounding.BDDTrue
		for _, l := range fan(n) {
			var err error
			e, ok := val[l>>1]
			if !ok { // order puts every gate after its fanins
				return false, fmt.Errorf("satcheck: cut BDD of node %d before its fanin %d", n, l>>1)
			}
			if acc, err = d.And(acc, e^grounding.BDDEdge(l&1)); err != nil {
				return false, notLimit(err)
			}
			if acc == grounding.BDDFalse {
				break
			}
		}
		val[n] = acc
	}
	vx, okx := val[rx]
	vy, oky := val[ry]
	if !okx || !oky {
		return false, fmt.Errorf("satcheck: cut BDD without a root (%d, %d)", rx, ry)
	}
	fx, fy := vx^grounding.BDDEdge(x&1), vy^grounding.BDDEdge(y&1)
	if fx == fy {
		return true, nil
	}
	diff, err := d.Xor(fx, fy)
	if err != nil {
		return false, notLimit(err)
	}
	// The inputs' groups, projected on the inputs reached (projectGroups).
	var leaves []int32
	vars := make([]grounding.BDDEdge, len(s.j.vars))
	for n := uint32(1); n <= uint32(g.nv); n++ {
		if e, ok := val[n]; ok {
			leaves = append(leaves, int32(n)-1)
			vars[n-1] = e
		}
	}
	slices.Sort(leaves)
	for _, gr := range projectGroups(s.j, leaves) {
		c, err := groupBDD(d, gr, vars)
		if err != nil {
			return false, notLimit(err)
		}
		if diff, err = d.And(diff, c); err != nil {
			return false, notLimit(err)
		}
	}
	return diff == grounding.BDDFalse, nil
}

// notLimit turns a BDD bound into "not shown" (nil) and keeps any other
// error (a cancellation).
func notLimit(err error) error {
	if errors.Is(err, grounding.ErrBDDLimit) {
		return nil
	}
	return err
}
