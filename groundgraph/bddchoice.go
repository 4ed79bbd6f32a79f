package groundgraph

import (
	"context"
	"math"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// Semantic supports of next functions by move cofactors. A next function
// whose read roles have few joint choices is, for each joint choice (every
// read role does one of its read actions, or, when it has others, none of
// them), a function of the state alone: its cofactor. The function depends
// on a proposition exactly when some cofactor does, and on a role exactly
// when two choices that differ in that role alone give different
// cofactors. Reduced ordered BDDs make both questions exact and cheap: a
// cofactor's support is the set of its BDD's variables, and two cofactors
// are equal exactly when their edges are. A choice changes only the gates
// its actions reach, so each cofactor costs its actions' fanout, not the
// cone (skirmish's "capture count stays 0": 1,793 choices of white over a
// cone of 1,988 gates, where simulation's choice rounds took 11 s and the
// SAT question that the 384 pieces of white cannot matter 19 s).
//
// The managers are separate from the Build's shared one: the cofactors of
// one function are garbage for the next, so a manager is cleared once it
// is half full, and each worker has its own, so functions do not wait on
// one another.

// Per-call node bounds of supportByChoice: the cofactors of skirmish's
// capture counter need 2 nodes a gate, pacman3p's 13. Past
// bddChoiceProbe choices, every power of two checks that the rest would
// fit at the rate so far.
const (
	bddChoiceNodesPerGate = 16
	bddChoiceMinNodes     = 1 << 14
	bddChoiceProbe        = 16
)

// choiceBDDs hands out one cofactor manager per concurrent caller.
type choiceBDDs struct {
	free        chan *supportBDD
	maxNodes    int
	level, prop []int32 // the variable order (grounding.PropOrder)
}

func newChoiceBDDs(workers, maxNodes int, level, prop []int32) *choiceBDDs {
	return &choiceBDDs{free: make(chan *supportBDD, workers), maxNodes: maxNodes, level: level, prop: prop}
}

func (c *choiceBDDs) get() *supportBDD {
	select {
	case d := <-c.free:
		if 2*d.d.Len() > d.d.Limits().MaxNodes {
			d.clear()
		}
		return d
	default:
		return newSupportBDD(c.maxNodes, c.level, c.prop)
	}
}

func (c *choiceBDDs) put(d *supportBDD) {
	select {
	case c.free <- d:
	default:
	}
}

// jointChoices returns the number of joint choices of srs, or -1 when it
// exceeds limit.
func jointChoices(srs []simRole, limit int) int {
	n := 1
	for _, sr := range srs {
		if sr.radix > 0 && n > limit/sr.radix {
			return -1
		}
		n *= max(sr.radix, 1)
	}
	return n
}

// supportByChoice returns which of cone cn's first nP inputs (free
// propositions) and which of the roles srs (its other inputs are their
// read actions) its root depends on, as described above, or errBDDLimit
// when the cofactors need more nodes than one call may add.
func (d *supportBDD) supportByChoice(ctx context.Context, cn *cone, nP int, srs []simRole) (propDep, roleDep []bool, err error) {
	if err := d.begin(ctx, cn, bddChoiceNodesPerGate, bddChoiceMinNodes); err != nil {
		return nil, nil, err
	}
	// The base: every gate with no read action done.
	lit, err := d.evalCone(ctx, cn, nP)
	if err != nil {
		return nil, nil, err
	}
	first := cn.FirstGate()
	based := d.d.Len()
	// Every joint choice, in mixed radix (role 0 fastest): only the gates
	// its actions reach are evaluated again, then restored.
	total := jointChoices(srs, math.MaxInt)
	roots := make([]bddEdge, total)
	digit := make([]int, len(srs))
	var fanout []int32
	scratch := make([]int32, 0, 256)
	var saved []bddEdge
	for c := range total {
		if c%cancelCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		fanout = fanout[:0]
		for i, sr := range srs {
			if digit[i] < len(sr.ks) {
				k := sr.ks[digit[i]]
				lit[1+k] = bddTrue
				// CachedFanout may return the cone's cache, which the
				// next uncached call would overwrite: never keep it.
				fanout = append(fanout, cn.CachedFanout(k, scratch)...)
			}
		}
		if len(srs) > 1 {
			slices.Sort(fanout)
			fanout = slices.Compact(fanout)
		}
		saved = saved[:0]
		for _, gi := range fanout {
			saved = append(saved, lit[first+int(gi)])
			e, err := d.d.AndFanin(cn, int(gi), lit)
			if err != nil {
				return nil, nil, err
			}
			lit[first+int(gi)] = e
		}
		roots[c] = grounding.RootOf(cn, lit)
		// Cofactors that grow at this rate would not fit: give up now
		// rather than after most of them (kalaha's stores are sums).
		if c+1 >= bddChoiceProbe && (c+1)&c == 0 && int64(d.d.Len()-based)*int64(total) > int64(d.d.OperationNodes()-based)*int64(c+1) {
			return nil, nil, errBDDLimit
		}
		for j, gi := range fanout {
			lit[first+int(gi)] = saved[j]
		}
		for i, sr := range srs {
			if digit[i] < len(sr.ks) {
				lit[1+sr.ks[digit[i]]] = bddFalse
			}
			if digit[i]++; digit[i] < max(sr.radix, 1) {
				break
			}
			digit[i] = 0
		}
	}
	// A proposition matters when it is a variable of some cofactor.
	propDep = make([]bool, nP)
	d.levels(cn, roots, propDep)
	// A role matters when two choices differing in it alone differ.
	roleDep = make([]bool, len(srs))
	stride := 1
	for i, sr := range srs {
		r := max(sr.radix, 1)
		for c := range total {
			if (c/stride)%r != 0 {
				continue
			}
			for x := 1; x < r; x++ {
				if roots[c+x*stride] != roots[c] {
					roleDep[i] = true
					break
				}
			}
			if roleDep[i] {
				break
			}
		}
		stride *= r
	}
	return propDep, roleDep, nil
}
