package groundgraph

import "slices"

// Truth tables evaluate a cone word by word, and in every word each
// semantic role makes one fixed choice (role digits lie above the 64 rows
// of a word). A gate's fanins among a role's action inputs are then
// constants of the word: a positive literal of action a is true exactly in
// the words whose digit for the role is a's, a negated one everywhere else.
// A next function typically ORs hundreds of moves (checkersSmall: 350 per
// role), so evaluating those fanins as vectors cost most of a table. A
// tableEval instead reduces each gate's action fanins, once per table, to
// one condition per role on its digit, and folds the inputs the table
// fixes (non-semantic propositions and roles) into constants.
//
// The table's last role digit is its outer digit: the table is one block
// of inner words (propositions and the other roles) per outer value. A
// gate that does not read the outer digit has the same inner words in
// every block and is evaluated once; one that reads nothing else is one
// constant word per block. Only gates that read both are evaluated per
// block: in checkers' next functions over two roles of 1,145 moves, a few
// of a cone's 38 gates, where every gate cost the 1.3 M words of the
// table before. Its results are bit for bit those of evaluating the cone
// on the table's inputs.

// roleCond is the conjunction of a gate's literals of one role's actions:
// true in a word when the role's digit is pos (or pos < 0: any digit) and
// not in neg.
type roleCond struct {
	ri  int32   // role digit index in table.roles
	pos int32   // required digit, or -1
	neg []int32 // excluded digits, ascending
	// excl has bit d set for each d in neg: a word's digit is tested in
	// one step rather than a binary search per word and gate (roles of
	// hundreds of moves: chinesecheckers3's tables spent a sixth of their
	// time in that search).
	excl []uint64
}

// holds reports whether the condition holds for digit d.
func (c *roleCond) holds(d int32) bool {
	if c.pos >= 0 {
		return d == c.pos
	}
	q := int(d / 64)
	return q >= len(c.excl) || c.excl[q]>>(d%64)&1 == 0
}

// Which table dimensions a gate reads (tableGate.dep).
const (
	depInner uint8 = 1 << iota // propositions or an inner role digit
	depOuter                   // the outer role digit
)

// tableGate is one gate reduced for table evaluation.
type tableGate struct {
	// vlits are the fanins read as vectors: vector index<<1 | negated
	// (propositions, and gates that read inner dimensions).
	vlits []uint32
	// slits are the fanins that read the outer digit alone, one word per
	// block: gate index<<1 | negated.
	slits []uint32
	conds []roleCond // conditions on inner role digits
	outer *roleCond  // the condition on the outer digit, if any
	konst int8       // 0: evaluated; 1: constant false; 2: constant true
	dep   uint8      // depInner | depOuter, 0 for constants
}

// tableEval evaluates a cone on table words. Vectors (blk words each) are
// the semantic proposition inputs, then the gates.
type tableEval struct {
	gates    []tableGate
	propVecs []int // cone input position of each proposition vector
	outer    int32 // role digit index of the outer digit, -1 when none
	inner    []int // gates of dep depInner, in order
	perBlock []int // gates that read the outer digit, in order
	// outerConds are the conditions on the outer digit of the perBlock
	// gates: a block's values depend on its digit only through them (and
	// through rootDigit when the root is an outer action).
	outerConds []*roleCond
	// The root: a constant (rootConst 1 false, 2 true), an action input
	// of a semantic role (rootRole >= 0: true when its digit is rootDigit,
	// negated when rootLit is odd), or a literal of a vector or, when
	// rootScalar, of a gate that reads the outer digit alone.
	rootLit    uint32
	rootConst  int8
	rootScalar bool
	rootRole   int
	rootDigit  int32
}

// Kinds of cone inputs in a table (src.kind in newTable).
const (
	srcFalse = iota // fixed false
	srcTrue         // fixed true
	srcProp         // a semantic proposition digit
	srcRole         // an action of a semantic role: a role digit value
)

// newTableEval reduces cn's gates; kinds[k], role[k] and digit[k] describe
// cone input k (role and digit only for srcRole); outer is the role digit
// index of the outer digit (-1: none).
func newTableEval(cn *cone, kinds []uint8, role, digit []int, outer int) *tableEval {
	te := &tableEval{gates: make([]tableGate, len(cn.Gates)), outer: int32(outer), rootRole: -1}
	nIn := len(cn.Inputs)
	first := cn.FirstGate()
	vecOf := make([]int32, nIn) // vector index of each proposition input
	for k, kind := range kinds {
		if kind == srcProp {
			vecOf[k] = int32(len(te.propVecs))
			te.propVecs = append(te.propVecs, k)
		}
	}
	gateVec := len(te.propVecs) // vector index of gate 0
	// konst of a slot: 0 variable, 1 false, 2 true.
	slotConst := func(s int) int8 {
		switch {
		case s == 0:
			return 1
		case s <= nIn:
			switch kinds[s-1] {
			case srcFalse:
				return 1
			case srcTrue:
				return 2
			}
			return 0
		default:
			return te.gates[s-first].konst
		}
	}
	// The gates' vlits and slits are runs of two arrays of the cone's
	// fanins, which appends never outgrow: two allocations a table instead
	// of one or two a gate.
	vbuf, sbuf := make([]uint32, 0, len(cn.Fanin)), make([]uint32, 0, len(cn.Fanin))
	for gi := range cn.Gates {
		g := &te.gates[gi]
		zero := false
		var conds []roleCond
		v0, s0 := len(vbuf), len(sbuf)
		for _, l := range cn.GateFanin(gi) {
			s := int(l >> 1)
			if c := slotConst(s); c != 0 {
				if (c == 2) == (l&1 == 1) { // a false fanin literal
					zero = true
					break
				}
				continue
			}
			if s <= nIn && kinds[s-1] == srcRole {
				ri, d := int32(role[s-1]), int32(digit[s-1])
				ci := slices.IndexFunc(conds, func(c roleCond) bool { return c.ri == ri })
				if ci < 0 {
					conds = append(conds, roleCond{ri: ri, pos: -1})
					ci = len(conds) - 1
				}
				c := &conds[ci]
				if l&1 == 0 {
					if c.pos >= 0 && c.pos != d {
						zero = true // two different actions of one role
						break
					}
					c.pos = d
				} else {
					c.neg = append(c.neg, d)
				}
				continue
			}
			if s <= nIn { // a proposition
				vbuf = append(vbuf, uint32(vecOf[s-1])<<1|l&1)
				g.dep |= depInner
				continue
			}
			fg := &te.gates[s-first]
			if fg.dep == depOuter {
				sbuf = append(sbuf, uint32(s-first)<<1|l&1)
			} else {
				vbuf = append(vbuf, uint32(gateVec+s-first)<<1|l&1)
			}
			g.dep |= fg.dep
		}
		if len(vbuf) > v0 {
			g.vlits = vbuf[v0:len(vbuf):len(vbuf)]
		} else {
			g.vlits = nil
		}
		if len(sbuf) > s0 {
			g.slits = sbuf[s0:len(sbuf):len(sbuf)]
		} else {
			g.slits = nil
		}
		for ci := range conds {
			c := &conds[ci]
			slices.Sort(c.neg)
			c.neg = slices.Compact(c.neg)
			if c.pos >= 0 {
				if _, excluded := slices.BinarySearch(c.neg, c.pos); excluded {
					zero = true
				}
				c.neg = nil // implied by the digit being pos
			}
			if len(c.neg) > 0 {
				c.excl = make([]uint64, c.neg[len(c.neg)-1]/64+1)
				for _, d := range c.neg {
					c.excl[d/64] |= 1 << (d % 64)
				}
			}
			if c.ri == te.outer {
				g.outer = c
				g.dep |= depOuter
			} else {
				g.conds = append(g.conds, *c)
				g.dep |= depInner
			}
		}
		switch {
		case zero:
			*g = tableGate{konst: 1}
		case g.dep == 0:
			*g = tableGate{konst: 2}
		case g.dep == depInner:
			te.inner = append(te.inner, gi)
		default:
			te.perBlock = append(te.perBlock, gi)
			if g.outer != nil {
				te.outerConds = append(te.outerConds, g.outer)
			}
		}
	}
	s := int(cn.Root >> 1)
	switch c := slotConst(s); {
	case c != 0:
		te.rootConst = c
		if cn.Root&1 == 1 {
			te.rootConst = 3 - c
		}
	case s <= nIn && kinds[s-1] == srcRole:
		te.rootRole, te.rootDigit = role[s-1], int32(digit[s-1])
		te.rootLit = cn.Root & 1
	case s <= nIn:
		te.rootLit = uint32(vecOf[s-1])<<1 | cn.Root&1
	case te.gates[s-first].dep == depOuter:
		te.rootLit = uint32(s-first)<<1 | cn.Root&1
		te.rootScalar = true
	default:
		te.rootLit = uint32(gateVec+s-first)<<1 | cn.Root&1
	}
	return te
}

// numVecs is the number of vectors a block of evaluation holds.
func (te *tableEval) numVecs() int { return len(te.propVecs) + len(te.gates) }

// blockKey writes to key the bits that a block's values depend on, for
// outer digit c: each outer condition, and whether c is the root's digit.
// Blocks with equal keys have equal words (same inner words).
func (te *tableEval) blockKey(c int32, key []uint64) []uint64 {
	n := len(te.outerConds) + 1
	key = slices.Grow(key[:0], (n+63)/64)[:(n+63)/64]
	clear(key)
	for i, oc := range te.outerConds {
		if oc.holds(c) {
			key[i/64] |= 1 << (i % 64)
		}
	}
	if c == te.rootDigit && te.rootRole >= 0 && int32(te.rootRole) == te.outer {
		i := len(te.outerConds)
		key[i/64] |= 1 << (i % 64)
	}
	return key
}

// cost returns the gate evaluations (times words) of a table of inner
// words per block, outer the outer role digit (none when empty): the
// inner gates once, the per-block gates once per distinct block key. It
// stops counting past maxWork.
func (te *tableEval) cost(inner int, outer []roleDigit, maxWork int64) int64 {
	work := int64(len(te.inner)) * int64(inner)
	if len(outer) == 0 {
		return work + int64(len(te.perBlock))*int64(inner)
	}
	seen := map[uint64]bool{}
	var key []uint64
	for c := range outer[0].radix {
		key = te.blockKey(int32(c), key)
		if h := hashKey(key); !seen[h] {
			seen[h] = true
			if work += int64(len(te.perBlock)) * int64(inner); work > maxWork {
				break
			}
		}
	}
	return work
}

// evalInner evaluates the gates that do not read the outer digit on the
// first bw words of vals (blk words per vector; proposition vectors set).
// digits[ri][i] is inner role digit ri's value in word i.
func (te *tableEval) evalInner(vals []uint64, blk, bw int, digits [][]int32) {
	for _, gi := range te.inner {
		te.evalVec(gi, vals, blk, bw, digits)
	}
}

// evalOuter evaluates the gates that read the outer digit, with that digit
// c, after evalInner on the same words: scal[gi] gets the word of each gate
// that reads the outer digit alone.
func (te *tableEval) evalOuter(vals []uint64, blk, bw int, digits [][]int32, c int32, scal []uint64) {
	for _, gi := range te.perBlock {
		g := &te.gates[gi]
		s := ^uint64(0)
		if g.outer != nil && !g.outer.holds(c) {
			s = 0
		}
		for _, l := range g.slits {
			s &= scal[l>>1] ^ -uint64(l&1)
		}
		if g.dep == depOuter {
			scal[gi] = s
			continue
		}
		if s == 0 {
			clear(vals[(len(te.propVecs)+gi)*blk:][:bw])
			continue
		}
		te.evalVec(gi, vals, blk, bw, digits)
	}
}

// evalVec evaluates gate gi's vector literals and inner conditions.
func (te *tableEval) evalVec(gi int, vals []uint64, blk, bw int, digits [][]int32) {
	g := &te.gates[gi]
	dst := vals[(len(te.propVecs)+gi)*blk:][:bw]
	if len(g.vlits) == 0 {
		fill(dst, ^uint64(0))
	} else {
		l := g.vlits[0]
		src := vals[int(l>>1)*blk:][:bw]
		neg := -uint64(l & 1)
		for i := range dst {
			dst[i] = src[i] ^ neg
		}
		for _, l := range g.vlits[1:] {
			src := vals[int(l>>1)*blk:][:bw]
			neg := -uint64(l & 1)
			for i := range dst {
				dst[i] &= src[i] ^ neg
			}
		}
	}
	for ci := range g.conds {
		c := &g.conds[ci]
		ds := digits[c.ri][:bw]
		if c.pos >= 0 {
			for i, d := range ds {
				if d != c.pos {
					dst[i] = 0
				}
			}
			continue
		}
		for i, d := range ds {
			if q := int(d / 64); q < len(c.excl) && c.excl[q]>>(d%64)&1 == 1 {
				dst[i] = 0
			}
		}
	}
}

// rootValue writes the root's value on the block (after evalOuter with
// outer digit c) to out[:bw].
func (te *tableEval) rootValue(vals []uint64, blk, bw int, digits [][]int32, c int32, scal []uint64, out []uint64) {
	out = out[:bw]
	neg := -uint64(te.rootLit & 1)
	v := int(te.rootLit >> 1)
	switch {
	case te.rootConst != 0:
		fill(out, -uint64(te.rootConst-1))
	case te.rootRole >= 0 && int32(te.rootRole) == te.outer:
		fill(out, neg)
		if c == te.rootDigit {
			fill(out, ^neg)
		}
	case te.rootRole >= 0:
		for i, d := range digits[te.rootRole][:bw] {
			out[i] = neg
			if d == te.rootDigit {
				out[i] = ^neg
			}
		}
	case te.rootScalar:
		fill(out, scal[v]^neg)
	default:
		root := vals[v*blk:][:bw]
		for i := range out {
			out[i] = root[i] ^ neg
		}
	}
}

// maxDigitClassWork bounds the condition tests of digitClasses (role
// digits times the conditions on the role).
const maxDigitClassWork = 1 << 24

// digitClasses partitions the radix digits of role digit ri by what the
// cone reads of them: two digits are in one class when every condition on
// the role (and the root, when it is one of the role's actions) holds for
// both or for neither. The cone reads the digit only through those, so
// its value does not change when a row's digit is replaced by another of
// its class. classOf[d] is d's class, reps[k] the first digit of class k.
// Beyond maxDigitClassWork every digit is its own class.
func (te *tableEval) digitClasses(ri, radix int) (classOf, reps []int32) {
	conds := te.roleConds(ri)
	n := len(conds)
	if te.rootRole == ri {
		n++
	}
	if int64(n)*int64(radix) > maxDigitClassWork {
		classOf = make([]int32, radix)
		for d := range classOf {
			classOf[d] = int32(d)
			reps = append(reps, int32(d))
		}
		return classOf, reps
	}
	return te.condClasses(conds, ri, radix)
}

// roleConds lists the conditions of the cone's gates on role digit ri.
func (te *tableEval) roleConds(ri int) []*roleCond {
	var conds []*roleCond
	for gi := range te.gates {
		g := &te.gates[gi]
		if g.outer != nil && int(g.outer.ri) == ri {
			conds = append(conds, g.outer)
		}
		for ci := range g.conds {
			if int(g.conds[ci].ri) == ri {
				conds = append(conds, &g.conds[ci])
			}
		}
	}
	return conds
}
