package groundgraph

import (
	"math/bits"
	"math/rand/v2"
)

// Sensitized samples: for an input that random samples rarely show to
// matter (kalaha's store reads hundreds of pit counts, each through one
// sum term that must be true alone), build a sample where a path from the
// input to the root is sensitized: walk up from the input through random
// readers to the root, require every other fanin of the gates on the walk
// to be non-controlling (true), and justify those requirements back to the
// inputs as justify does. Flipping the input then usually flips the root.
// Samples are only candidates: simulation checks them, so they decide
// nothing by themselves, and SAT still settles what they miss.

// sensitizer builds sensitized samples of one cone.
type sensitizer struct {
	cn     *cone
	req    []int8 // 0 free, 1 false, 2 true
	onPath []bool
	stack  []int32
	cands  []uint32
	path   []int32
	srs    []simRole // the roles whose actions the cone reads
	inRole []bool    // cone input positions of their actions
	roleOf []int32   // roleOf[slot]: index in srs of an action input's role, or -1
	roleOn []int32   // roleOn[i]: slot of the action role srs[i] is required to do, or -1
	// A sample's requirements on the roles' actions, kept as they are
	// made so that a sample costs no pass over every action of a role
	// (amazons: 87,000 per role): reqOn[i] is the position in srs[i].ks
	// required true (or -1), off[i] the set of positions required false
	// (a bitset) and nOff[i] its size.
	reqOn []int
	off   [][]uint64
	nOff  []int
	free  []int // cone input positions of no role's actions, ascending
}

func newSensitizer(cn *cone, srs []simRole) *sensitizer {
	n := cn.NumSlots()
	z := &sensitizer{cn: cn, req: make([]int8, n), onPath: make([]bool, n), srs: srs}
	// Built once: a sample used to build it as a map, which was most of
	// knightazons' graph phase (7,385 action inputs per cone).
	z.inRole = make([]bool, len(cn.Inputs))
	z.roleOf = make([]int32, n)
	for s := range z.roleOf {
		z.roleOf[s] = -1
	}
	z.roleOn = make([]int32, len(srs))
	z.reqOn = make([]int, len(srs))
	z.off = make([][]uint64, len(srs))
	z.nOff = make([]int, len(srs))
	for i, sr := range srs {
		z.off[i] = make([]uint64, (len(sr.ks)+63)/64)
		for _, kk := range sr.ks {
			z.inRole[kk] = true
			z.roleOf[1+kk] = int32(i)
		}
	}
	for kk, in := range z.inRole {
		if !in {
			z.free = append(z.free, kk)
		}
	}
	return z
}

// sample returns a sample (cone input values) in which the walk from
// cone input k is sensitized, or nil when the attempt's requirements
// conflict or the roles cannot each do exactly one action. Inputs the
// requirements leave free are false, or random when dense is set.
func (z *sensitizer) sample(k int, dense bool, rng *rand.Rand) sample {
	cn, srs := z.cn, z.srs
	first := cn.FirstGate()
	clear(z.req)
	for i := range z.roleOn {
		z.roleOn[i] = -1
		z.reqOn[i] = -1
		clear(z.off[i])
		z.nOff[i] = 0
	}
	for _, s := range z.path {
		z.onPath[s] = false
	}
	z.path = z.path[:0]
	z.req[0] = 1
	root := int32(cn.Root >> 1)
	cur := int32(1 + k)
	if i := z.roleOf[cur]; i >= 0 {
		z.roleOn[i] = cur // the walk's action: its role does it
	}
	z.path = append(z.path, cur)
	z.onPath[cur] = true
	for cur != root {
		us := z.cn.Users(int(cur))
		if len(us) == 0 {
			return nil // cannot happen in a cone: every slot reaches the root
		}
		cur = int32(first) + us[rng.IntN(len(us))]
		z.path = append(z.path, cur)
		z.onPath[cur] = true
	}
	z.stack = z.stack[:0]
	push := func(slot int32, v bool) bool {
		if z.onPath[slot] {
			return false // reconvergence onto the walk: give up
		}
		r := int8(1)
		if v {
			r = 2
		}
		if z.req[slot] != 0 {
			return z.req[slot] == r
		}
		// A role does one action: requiring a second one conflicts.
		if i := z.roleOf[slot]; i >= 0 {
			c := int(slot) - 1 - srs[i].ks[0] // ks are consecutive
			if v {
				if z.roleOn[i] >= 0 {
					return false
				}
				z.roleOn[i] = slot
				z.reqOn[i] = c
			} else {
				z.forbid(int(i), c)
			}
		}
		z.req[slot] = r
		if int(slot) >= first {
			z.stack = append(z.stack, slot)
		}
		return true
	}
	for i := 1; i < len(z.path); i++ {
		g := int(z.path[i]) - first
		for _, l := range cn.GateFanin(g) {
			if int32(l>>1) == z.path[i-1] {
				continue
			}
			if !push(int32(l>>1), l&1 == 0) {
				return nil
			}
		}
	}
	for len(z.stack) > 0 {
		slot := z.stack[len(z.stack)-1]
		z.stack = z.stack[:len(z.stack)-1]
		fan := cn.GateFanin(int(slot) - first)
		if z.req[slot] == 2 {
			for _, l := range fan {
				if !push(int32(l>>1), l&1 == 0) {
					return nil
				}
			}
			continue
		}
		// Some fanin literal false.
		z.cands = z.cands[:0]
		done := false
		for _, l := range fan {
			s := int32(l >> 1)
			ctrl := int8(1)
			if l&1 == 1 {
				ctrl = 2
			}
			// An action of a role already required to do another is
			// false: the fanin's value is known.
			known := z.req[s]
			if i := z.roleOf[s]; known == 0 && i >= 0 && z.roleOn[i] >= 0 {
				known = 1
			}
			switch {
			case known == ctrl:
				done = true
			case known != 0:
			case z.req[s] == 0 && !z.onPath[s]:
				z.cands = append(z.cands, l)
			}
			if done {
				break
			}
		}
		if done {
			continue
		}
		if len(z.cands) == 0 {
			return nil
		}
		l := z.cands[rng.IntN(len(z.cands))]
		push(int32(l>>1), l&1 == 1)
	}
	nIn := len(cn.Inputs)
	x := make(sample, (nIn+63)/64)
	set := func(kk int) { x[kk/64] |= 1 << (kk % 64) }
	for _, kk := range z.free {
		switch z.req[1+kk] {
		case 2:
			set(kk)
		case 0:
			if kk == k || dense {
				if rng.IntN(2) == 1 {
					set(kk)
				}
			}
		}
	}
	for i, sr := range srs {
		// The action required (push allows one per role), else a random
		// choice the requirements allow, ascending ("another action",
		// when the role has one, last).
		on := z.reqOn[i]
		if on < 0 {
			n := sr.radix - z.nOff[i]
			if n == 0 {
				return nil
			}
			on = z.freeChoice(i, -1, rng.IntN(n))
		}
		if on < len(sr.ks) {
			set(sr.ks[on])
		}
	}
	return x
}

// forbid records that the sample requires position c of role srs[i]'s
// read actions false (once per position: push sets a requirement once).
func (z *sensitizer) forbid(i, c int) {
	z.off[i][c/64] |= 1 << (c % 64)
	z.nOff[i]++
}

// freeChoices counts the read actions of role srs[i] that the last sample
// does not require false.
func (z *sensitizer) freeChoices(i int) int { return len(z.srs[i].ks) - z.nOff[i] }

// freeChoice returns the j-th (from 0) position c, ascending, of a choice
// of role srs[i] that the last sample does not require false, other than
// position skip (-1: none, and skip is never required false); c =
// len(ks) is "another action".
func (z *sensitizer) freeChoice(i, skip, j int) int {
	nks := len(z.srs[i].ks)
	for wi, off := range z.off[i] {
		ok := ^off
		if rest := nks - 64*wi; rest < 64 {
			ok &= 1<<rest - 1
		}
		if skip >= 0 && skip/64 == wi {
			ok &^= 1 << (skip % 64)
		}
		if n := bits.OnesCount64(ok); j >= n {
			j -= n
			continue
		}
		for ; j > 0; j-- {
			ok &= ok - 1
		}
		return 64*wi + bits.TrailingZeros64(ok)
	}
	return nks + j
}
