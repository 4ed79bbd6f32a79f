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
// fixes (non-semantic propositions and roles) into constants. Its results
// are bit for bit those of evaluating the cone on the table's inputs.

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

// tableGate is one gate reduced for table evaluation.
type tableGate struct {
	lits  []uint32   // remaining fanin slot literals (propositions, gates)
	conds []roleCond // conditions on role digits
	konst int8       // 0: evaluated; 1: constant false; 2: constant true
}

// tableEval evaluates a cone on table words.
type tableEval struct {
	gates []tableGate
	first int // slot of the first gate
	// The root, when it is an action input of a semantic role (its slot
	// is never set): rootRole's digit is rootDigit. rootRole is -1
	// otherwise.
	root      uint32
	rootRole  int
	rootDigit int32
}

// Kinds of cone inputs in a table (src.kind in newTable).
const (
	srcFalse = iota // fixed false
	srcTrue         // fixed true
	srcProp         // a semantic proposition digit
	srcRole         // an action of a semantic role: a role digit value
)

// newTableEval reduces cn's gates; kinds[k], role[k] and digit[k] describe
// cone input k (role and digit only for srcRole).
func newTableEval(cn *cone, kinds []uint8, role, digit []int) *tableEval {
	te := &tableEval{gates: make([]tableGate, len(cn.Gates)), first: cn.FirstGate(), root: cn.Root, rootRole: -1}
	nIn := len(cn.Inputs)
	if s := int(cn.Root >> 1); s >= 1 && s <= nIn && kinds[s-1] == srcRole {
		te.rootRole, te.rootDigit = role[s-1], int32(digit[s-1])
	}
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
			return te.gates[s-te.first].konst
		}
	}
	for gi := range cn.Gates {
		g := &te.gates[gi]
		zero := false
		for _, l := range cn.GateFanin(gi) {
			s := int(l >> 1)
			if c := slotConst(s); c != 0 {
				if (c == 2) == (l&1 == 1) { // a false fanin literal
					zero = true
					break
				}
				continue
			}
			if s >= 1 && s <= nIn && kinds[s-1] == srcRole {
				ri, d := int32(role[s-1]), int32(digit[s-1])
				ci := slices.IndexFunc(g.conds, func(c roleCond) bool { return c.ri == ri })
				if ci < 0 {
					g.conds = append(g.conds, roleCond{ri: ri, pos: -1})
					ci = len(g.conds) - 1
				}
				c := &g.conds[ci]
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
			g.lits = append(g.lits, l)
		}
		for ci := range g.conds {
			c := &g.conds[ci]
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
		}
		switch {
		case zero:
			g.konst, g.lits, g.conds = 1, nil, nil
		case len(g.lits) == 0 && len(g.conds) == 0:
			g.konst = 2
		}
	}
	return te
}

// eval evaluates the gates on the first bw words of vals (blk words per
// slot; constant and proposition input slots set). digits[ri][i] is role
// digit ri's value in word i of the block.
func (te *tableEval) eval(vals []uint64, blk, bw int, digits [][]int32) {
	for gi := range te.gates {
		g := &te.gates[gi]
		dst := vals[(te.first+gi)*blk:][:bw]
		switch g.konst {
		case 1:
			clear(dst)
			continue
		case 2:
			fill(dst, ^uint64(0))
			continue
		}
		if len(g.lits) == 0 {
			fill(dst, ^uint64(0))
		} else {
			l := g.lits[0]
			src := vals[int(l>>1)*blk:][:bw]
			neg := -uint64(l & 1)
			for i := range dst {
				dst[i] = src[i] ^ neg
			}
			for _, l := range g.lits[1:] {
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
}

// rootValue writes the root's value on the block (after eval) to out[:bw].
func (te *tableEval) rootValue(vals []uint64, blk, bw int, digits [][]int32, out []uint64) {
	neg := -uint64(te.root & 1)
	if te.rootRole >= 0 {
		for i, d := range digits[te.rootRole][:bw] {
			out[i] = neg
			if d == te.rootDigit {
				out[i] = ^neg
			}
		}
		return
	}
	root := vals[int(te.root>>1)*blk:][:bw]
	for i := range bw {
		out[i] = root[i] ^ neg
	}
}
