package satcheck

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// From the review of lead21's dnf.go: every set a dnfCone gives a slot literal
// (memo and opaque cache) and every root set must denote exactly that
// literal's function of the joint variables, for random circuits with
// deep nesting, negations, shared gates, constant inputs and inputs
// restricted to false, both cones over one table, with tiny caps so that
// the fold path (flatten, denies, union of negations) runs, and random
// budgets so that it runs out mid-way. dnfEqual's "equal" must be equal.
// The caps come per trial (dnfEqualCaps, newDNFTable).

// dnfConeBuilder builds a grounding.Cone slot by slot.
type dnfConeBuilder struct {
	nIn   int
	start []int32
	fanin []uint32
}

func (b *dnfConeBuilder) gate(fan ...uint32) uint32 {
	if len(b.start) == 0 {
		b.start = append(b.start, 0)
	}
	slot := 1 + b.nIn + len(b.start) - 1
	b.fanin = append(b.fanin, fan...)
	b.start = append(b.start, int32(len(b.fanin)))
	return uint32(slot) << 1
}

func (b *dnfConeBuilder) done(root uint32) *cone {
	if len(b.start) == 0 {
		b.start = []int32{0}
	}
	cn := &cone{Start: b.start, Fanin: b.fanin, Root: root}
	for k := range b.nIn {
		cn.Inputs = append(cn.Inputs, int32(k+1))
	}
	for g := range len(b.start) - 1 {
		cn.Gates = append(cn.Gates, int32(1+b.nIn+g))
	}
	return cn
}

// dnfRandomCone: nIn inputs, nG gates with 1..maxFan fanins drawn mostly
// from recent gates (deep nesting), some inputs, rarely the constant.
func dnfRandomCone(rng *rand.Rand, nIn, nG, maxFan int) *cone {
	b := &dnfConeBuilder{nIn: nIn}
	last := uint32(2)
	for g := range nG {
		slot := 1 + nIn + g
		k := 1 + rng.IntN(maxFan)
		var fan []uint32
		for range k {
			var s int
			switch r := rng.IntN(20); {
			case r == 0:
				s = 0
			case r < 8 || g == 0:
				s = 1 + rng.IntN(nIn)
			case r < 14:
				s = slot - 1 - rng.IntN(min(3, g))
			default:
				s = 1 + nIn + rng.IntN(g)
			}
			fan = append(fan, uint32(s)<<1|uint32(rng.IntN(2)))
		}
		last = b.gate(fan...)
	}
	return b.done(last | uint32(rng.IntN(2)))
}

// dnfCopy copies cone src's literal l into b as the same function in
// another circuit: fanins shuffled, ANDs regrouped, ANDs distributed over
// a negated AND fanin (an OR), double negations, gates unshared; inputs
// through perm.
type dnfCopy struct {
	rng  *rand.Rand
	src  *cone
	b    *dnfConeBuilder
	perm []int
	memo map[uint32]uint32
	flip bool // negate one fanin somewhere (another function, most often)
}

func (c *dnfCopy) lit(l uint32) uint32 {
	return c.node(l>>1) ^ l&1
}

func (c *dnfCopy) node(slot uint32) uint32 {
	first := uint32(c.src.FirstGate())
	switch {
	case slot == 0:
		return 0
	case slot < first:
		return uint32(c.perm[slot-1]+1) << 1
	}
	if out, ok := c.memo[slot]; ok && c.rng.IntN(4) != 0 {
		return out
	}
	src := c.src.GateFanin(int(slot - first))
	var fs []uint32
	or := -1
	for i, f := range src {
		g := c.lit(f)
		if c.flip && c.rng.IntN(6) == 0 {
			g ^= 1
			c.flip = false
		}
		if or < 0 && f&1 == 1 && f>>1 >= first && c.rng.IntN(2) == 0 {
			or = i
		}
		fs = append(fs, g)
	}
	var out uint32
	switch r := c.rng.IntN(4); {
	case or >= 0 && r < 2:
		// AND(rest, ¬AND(ms)) = OR_m AND(rest, ¬m) = ¬AND_m ¬AND(rest, ¬m)
		rest := append(append([]uint32(nil), fs[:or]...), fs[or+1:]...)
		var negTerms []uint32
		for _, m := range c.src.GateFanin(int(src[or]>>1 - first)) {
			t := c.b.gate(append(append([]uint32(nil), rest...), c.lit(m)^1)...)
			negTerms = append(negTerms, t^1)
		}
		out = c.b.gate(negTerms...) ^ 1
	case len(fs) >= 3 && r == 2:
		c.rng.Shuffle(len(fs), func(i, k int) { fs[i], fs[k] = fs[k], fs[i] })
		cut := 1 + c.rng.IntN(len(fs)-1)
		inner := c.b.gate(fs[cut:]...)
		out = c.b.gate(append(append([]uint32(nil), fs[:cut]...), inner)...)
	case r == 3:
		g0 := c.b.gate(fs...)
		out = c.b.gate(g0^1) ^ 1
	default:
		c.rng.Shuffle(len(fs), func(i, k int) { fs[i], fs[k] = fs[k], fs[i] })
		out = c.b.gate(fs...)
	}
	c.memo[slot] = out
	return out
}

// dnfTT is a truth table over nv ≤ 12 joint variables.
type dnfTT []uint64

func dnfVarTT(nv, v int) dnfTT {
	n := 1 << nv
	t := make(dnfTT, (n+63)/64)
	for a := range n {
		if a>>v&1 == 1 {
			t[a/64] |= 1 << (a % 64)
		}
	}
	return t
}

func dnfMask(nv int) dnfTT {
	n := 1 << nv
	t := make(dnfTT, (n+63)/64)
	for a := range n {
		t[a/64] |= 1 << (a % 64)
	}
	return t
}

func (t dnfTT) equal(u dnfTT) bool {
	for i := range t {
		if t[i] != u[i] {
			return false
		}
	}
	return true
}

// dnfConeTT returns the truth table of every slot of cn.
func dnfConeTT(cn *cone, vars []int32, varTT []dnfTT, mask dnfTT) []dnfTT {
	out := make([]dnfTT, cn.NumSlots())
	out[0] = make(dnfTT, len(mask))
	for k := range cn.Inputs {
		if v := vars[k]; v >= 0 {
			out[1+k] = varTT[v]
		} else {
			out[1+k] = out[0]
		}
	}
	first := cn.FirstGate()
	for gi := range cn.Gates {
		t := append(dnfTT(nil), mask...)
		for _, f := range cn.GateFanin(gi) {
			ft := out[f>>1]
			for i := range t {
				x := ft[i]
				if f&1 == 1 {
					x = ^x & mask[i]
				}
				t[i] &= x
			}
		}
		out[first+gi] = t
	}
	return out
}

func dnfLitTT(slots []dnfTT, l uint32, mask dnfTT) dnfTT {
	t := append(dnfTT(nil), slots[l>>1]...)
	if l&1 == 1 {
		for i := range t {
			t[i] = ^t[i] & mask[i]
		}
	}
	return t
}

// dnfSetEval evaluates dnf sets, opaque atoms through the table.
type dnfSetEval struct {
	dt    *dnfTable
	nv    int
	varTT []dnfTT
	mask  dnfTT
	memo  map[int32]dnfTT
}

func (e *dnfSetEval) atom(a uint32) dnfTT {
	id := int32(a >> 1)
	var t dnfTT
	if id >= 1 && id <= int32(e.nv) {
		t = e.varTT[id-1]
	} else if k := id - e.dt.opaque; k >= 0 && int(k) < len(e.dt.sets) {
		t = e.set(k)
	} else {
		panic("atom " + strconv.Itoa(int(a)) + " names nothing")
	}
	if a&1 == 1 {
		n := make(dnfTT, len(t))
		for i := range t {
			n[i] = ^t[i] & e.mask[i]
		}
		return n
	}
	return t
}

func (e *dnfSetEval) set(k int32) dnfTT {
	if t, ok := e.memo[k]; ok {
		return t
	}
	t := e.eval(e.dt.sets[k])
	e.memo[k] = t
	return t
}

func (e *dnfSetEval) eval(s dnf) dnfTT {
	out := make(dnfTT, len(e.mask))
	for _, c := range s {
		t := append(dnfTT(nil), e.mask...)
		for _, a := range c {
			at := e.atom(a)
			for i := range t {
				t[i] &= at[i]
			}
		}
		for i := range t {
			out[i] |= t[i]
		}
	}
	return out
}

func TestDNFSetsDenoteTheirLiterals(t *testing.T) {
	seeds := 20
	if s, err := strconv.Atoi(os.Getenv("GAMEQUIV_DNF_SEEDS")); err == nil {
		seeds = s
	}
	trials := 500
	var equalRoots, provedEqual, folded, outs, checkedLits, opaqueLits int
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 2121))
		for trial := range trials {
			caps := []int{1, 2, 3, 4, 8, 16, 64, 1 << 10, 1 << 14}
			var c dnfCaps
			c.cubes = caps[rng.IntN(len(caps))]
			c.product = min(c.cubes, caps[rng.IntN(len(caps))])
			nv := 2 + rng.IntN(8)
			nIn := 2 + rng.IntN(9)
			ca := dnfRandomCone(rng, nIn, 3+rng.IntN(40), 1+rng.IntN(5))
			aVar := make([]int32, nIn)
			for k := range aVar {
				aVar[k] = int32(rng.IntN(nv+1)) - 1 // -1: constant false; repeats allowed
			}
			perm := rng.Perm(nIn)
			bld := &dnfConeBuilder{nIn: nIn}
			cp := &dnfCopy{rng: rng, src: ca, b: bld, perm: perm, memo: map[uint32]uint32{}, flip: rng.IntN(3) != 0}
			root := cp.lit(ca.Root)
			var cb *cone
			if root>>1 < uint32(1+nIn) { // the copy's root is an input or constant: wrap it
				g := bld.gate(root)
				cb = bld.done(g)
			} else {
				cb = bld.done(root)
			}
			bVar := make([]int32, nIn)
			for k := range nIn {
				bVar[perm[k]] = aVar[k]
			}
			j := &joint{vars: make([]jvar, nv), aVar: aVar, bVar: bVar}

			varTT := make([]dnfTT, nv)
			for v := range nv {
				varTT[v] = dnfVarTT(nv, v)
			}
			mask := dnfMask(nv)
			ttA := dnfConeTT(ca, aVar, varTT, mask)
			ttB := dnfConeTT(cb, bVar, varTT, mask)
			wantA := dnfLitTT(ttA, ca.Root, mask)
			wantB := dnfLitTT(ttB, cb.Root, mask)
			same := wantA.equal(wantB)
			if same {
				equalRoots++
			}

			// 1. dnfEqual as the checker calls it.
			if dnfEqualCaps(ca, cb, j, c) {
				if !same {
					t.Fatalf("seed %d trial %d: dnfEqual = true, functions differ (caps %d/%d)", seed, trial, c.cubes, c.product)
				}
				provedEqual++
			}

			// 2. Every literal's set, both cones on one table, random budget.
			budget := 1 << 20
			if rng.IntN(3) == 0 {
				budget = rng.IntN(200)
			}
			dt := newDNFTable(nv, budget, c)
			ev := &dnfSetEval{dt: dt, nv: nv, varTT: varTT, mask: mask, memo: map[int32]dnfTT{}}
			var ids [2]int32
			var oks [2]bool
			for side, x := range []struct {
				cn   *cone
				vars []int32
				tt   []dnfTT
			}{{ca, aVar, ttA}, {cb, bVar, ttB}} {
				dc := &dnfCone{dt: dt, cn: x.cn, vars: x.vars, memo: make([]int32, 2*x.cn.NumSlots())}
				s := dc.lit(x.cn.Root)
				if dt.out {
					outs++
					break
				}
				if got, want := ev.eval(s), dnfLitTT(x.tt, x.cn.Root, mask); !got.equal(want) {
					t.Fatalf("seed %d trial %d side %d: root set %v does not denote the root (caps %d/%d)", seed, trial, side, s, c.cubes, c.product)
				}
				for _, c := range s {
					for _, a := range c {
						if int32(a>>1) >= dt.opaque {
							folded++
							break
						}
					}
				}
				ids[side], oks[side] = dt.intern(s), true
				for l, m := range dc.memo {
					if m < 2 {
						continue
					}
					checkedLits++
					if got, want := ev.set(m-2), dnfLitTT(x.tt, uint32(l), mask); !got.equal(want) {
						t.Fatalf("seed %d trial %d side %d: set %d of literal %d = %v does not denote it", seed, trial, side, m-2, l, dt.sets[m-2])
					}
				}
				for l, o := range dc.opq {
					opaqueLits++
					if got, want := ev.eval(o), dnfLitTT(x.tt, l, mask); !got.equal(want) {
						t.Fatalf("seed %d trial %d side %d: opaque set of literal %d does not denote it", seed, trial, side, l)
					}
				}
			}
			if oks[0] && oks[1] && ids[0] == ids[1] && !same {
				t.Fatalf("seed %d trial %d: same set id, functions differ", seed, trial)
			}
		}
	}
	t.Logf("%d trials: %d equal roots, %d proven by dnfEqual, %d root sets with opaque atoms, %d runs out of budget, %d memo literals and %d opaque literals checked",
		seeds*trials, equalRoots, provedEqual, folded, outs, checkedLits, opaqueLits)
	if provedEqual == 0 || folded == 0 {
		t.Errorf("nothing proven or nothing folded: the test tests nothing")
	}
}
