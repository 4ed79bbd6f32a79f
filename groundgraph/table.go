package groundgraph

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// Exact truth-table features of one reasoning function.
//
// The table of a function f is laid out over its semantic input space only:
// k semantic propositions (binary digits, padded with phantom digits up to
// at least 6 so that one 64-bit word holds 64 rows that differ only in
// propositions) and one mixed-radix digit per semantic role. A role's digit
// ranges over the actions of that role that f's cone reads, plus one "other"
// value standing for all the actions it does not read (they are
// interchangeable for f), weighted by their number. Counts are weighted sums
// over rows, divided by 2^phantom at the end, so they equal the counts over
// the plain semantic input space {0,1}^k × Π_r A_r, whatever the description
// reads syntactically.

// cone is the circuit toolkit's cone (grounding.Cone).
type cone = grounding.Cone

// newCone builds the cone of root.
func newCone(c *grounding.Circuit, root grounding.Lit) (*cone, error) {
	cn, err := grounding.NewCone(c, root)
	if err != nil {
		return nil, fmt.Errorf("groundgraph: malformed circuit: %w", err)
	}
	return cn, nil
}

// roleDigit is one semantic role of a table.
type roleDigit struct {
	role   int     // role id
	read   []int32 // action ids of the role that the cone reads, ascending
	other  int64   // number of actions it does not read (weight of the last value)
	radix  int     // len(read), plus one when other > 0
	stride int     // distance in words between consecutive values of the digit
}

func (d *roleDigit) weight(c int) int64 {
	if c < len(d.read) {
		return 1
	}
	return d.other
}

// digitOf returns the digit value of action a.
func (d *roleDigit) digitOf(a int32) int {
	if i, ok := slices.BinarySearch(d.read, a); ok {
		return i
	}
	return len(d.read)
}

// table is a function's complete truth table over its semantic input space.
type table struct {
	k       int // semantic propositions
	kk      int // proposition digits including phantom ones: max(k, 6)
	roles   []roleDigit
	words   int      // len(bits)
	weight  []int64  // weight[q]: weight of every word w with w>>(kk-6) == q
	bits    []uint64 // the truth table
	scale   int64    // 2^(kk-k)
	gateOps int64    // gate evaluations × words, for the cost report
}

// evalBlockWords is the number of words evaluated at once (bounds memory to
// slots × evalBlockWords words whatever the table size).
const evalBlockWords = 64

// maxTableScratchWords bounds the words of a table's evaluation scratch
// (slots × words per slot), 32 MiB.
const maxTableScratchWords = 1 << 22

// fnSpace describes the semantic input space of a function for newTable.
type fnSpace struct {
	props []int32 // semantic propositions (prop ids = input ids), ascending
	roles []int   // semantic roles, ascending
}

// newTable evaluates cn on every row of the space. Inputs of the cone that are
// not semantic are fixed: propositions to false, a role that is read but not
// semantic to its first action (any choice gives the same value), every
// action to false when moves is false (functions of the state alone).
func newTable(ctx context.Context, p *grounding.Program, cn *cone, sp fnSpace, moves bool) (*table, error) {
	t := &table{k: len(sp.props), kk: max(len(sp.props), 6)}
	t.scale = 1 << (t.kk - t.k)
	nProps := len(p.Props)
	// Semantic roles and the actions the cone reads.
	readBy := map[int][]int32{}
	for _, in := range cn.Inputs {
		if int(in) >= nProps {
			r, a := p.InputOf(int(in))
			readBy[r] = append(readBy[r], int32(a))
		}
	}
	t.words = 1 << (t.kk - 6)
	for _, r := range sp.roles {
		t.addRole(r, readBy[r], len(p.Actions[r]))
	}
	t.setWeights()
	// What each cone input is: -1-v for semantic proposition v, role digit
	// index and action digit, or a constant.
	type src struct {
		kind  uint8 // srcFalse, srcTrue, srcProp or srcRole
		v     int   // prop digit, or role digit index
		digit int   // action's digit value
	}
	srcs := make([]src, len(cn.Inputs))
	semRole := map[int]int{}
	for i, d := range t.roles {
		semRole[d.role] = i
	}
	for k, in := range cn.Inputs {
		if int(in) < nProps {
			if v, ok := slices.BinarySearch(sp.props, in); ok {
				srcs[k] = src{kind: srcProp, v: v}
			}
			continue
		}
		if !moves {
			continue
		}
		r, a := p.InputOf(int(in))
		if i, ok := semRole[r]; ok {
			srcs[k] = src{kind: srcRole, v: i, digit: t.roles[i].digitOf(int32(a))}
		} else if a == 0 {
			srcs[k] = src{kind: srcTrue}
		}
	}
	kinds := make([]uint8, len(srcs))
	roleOf := make([]int, len(srcs))
	digitOf := make([]int, len(srcs))
	for k, sr := range srcs {
		kinds[k] = sr.kind
		if sr.kind == srcRole {
			roleOf[k], digitOf[k] = sr.v, sr.digit
		}
	}
	te := newTableEval(cn, kinds, roleOf, digitOf)
	t.bits = make([]uint64, t.words)
	nSlots := 1 + len(cn.Inputs) + len(cn.Gates)
	// Words per slot: small tables need less, and a big cone gets fewer so
	// that its scratch stays within maxTableScratchWords.
	blk := max(1, min(evalBlockWords, t.words, maxTableScratchWords/nSlots))
	vals := make([]uint64, nSlots*blk)
	// Inputs that are the same in every block are set once (vals starts
	// all false: the constant and the false inputs); propositions of digit
	// 6 and up change from block to block. Role inputs are never read:
	// tableEval turns them into conditions on each word's role digits.
	var highProps []int
	for k, sr := range srcs {
		dst := vals[(1+k)*blk : (2+k)*blk]
		switch {
		case sr.kind == srcTrue:
			fill(dst, ^uint64(0))
		case sr.kind == srcProp && sr.v < 6:
			fill(dst, propPattern[sr.v])
		case sr.kind == srcProp:
			highProps = append(highProps, k)
		}
	}
	digits := make([][]int32, len(t.roles))
	for ri := range digits {
		digits[ri] = make([]int32, blk)
	}
	for w0 := 0; w0 < t.words; w0 += blk {
		// A block costs its words times the cone: cheap next to a look at
		// the context, and a big cone makes even one block take a while.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bw := min(blk, t.words-w0)
		at := func(s int) []uint64 { return vals[s*blk : s*blk+bw] }
		for _, k := range highProps {
			dst, v := at(1+k), srcs[k].v
			for i := range dst {
				dst[i] = -uint64((w0 + i) >> (v - 6) & 1)
			}
		}
		for ri := range t.roles {
			d := &t.roles[ri]
			for i := range bw {
				digits[ri][i] = int32((w0 + i) / d.stride % d.radix)
			}
		}
		te.eval(vals, blk, bw, digits)
		te.rootValue(vals, blk, bw, digits, t.bits[w0:w0+bw])
		t.gateOps += int64(len(cn.Gates) * bw)
	}
	return t, nil
}

// propPattern[j] is the word of proposition digit j < 6: bit b is bit j of b.
var propPattern = [6]uint64{
	0xAAAAAAAAAAAAAAAA,
	0xCCCCCCCCCCCCCCCC,
	0xF0F0F0F0F0F0F0F0,
	0xFF00FF00FF00FF00,
	0xFFFF0000FFFF0000,
	0xFFFFFFFF00000000,
}

func fill(s []uint64, x uint64) {
	for i := range s {
		s[i] = x
	}
}

// wordWeight returns the weight of word w (the number of plain rows each of
// its bits stands for).
func (t *table) wordWeight(w int) int64 { return t.weight[w>>(t.kk-6)] }

// addRole appends the digit of a role that reads the actions read of its
// numActions (the others, if any, are one more digit value), the words
// multiplied by its radix; t.words starts at the proposition words.
func (t *table) addRole(role int, read []int32, numActions int) {
	d := roleDigit{role: role, read: read, stride: t.words}
	d.other = int64(numActions - len(read))
	d.radix = len(read)
	if d.other > 0 {
		d.radix++
	}
	t.roles = append(t.roles, d)
	t.words *= d.radix
}

// setWeights fills weight from the role digits, once every role is added.
func (t *table) setWeights() {
	nq := t.words >> (t.kk - 6)
	t.weight = make([]int64, nq)
	for q := range nq {
		w := int64(1)
		for i := range t.roles {
			d := &t.roles[i]
			w *= d.weight(q * (1 << (t.kk - 6)) / d.stride % d.radix)
		}
		t.weight[q] = w
	}
}

// count returns the weighted number of rows where x is 1.
func (t *table) count(x []uint64) int64 {
	var n int64
	for w, b := range x {
		if b != 0 {
			n += int64(bits.OnesCount64(b)) * t.wordWeight(w)
		}
	}
	return n / t.scale
}

// models counts the rows where the function is true.
func (t *table) models() int64 { return t.count(t.bits) }

// derivative returns x(row) XOR x(row with proposition digit j flipped).
func (t *table) derivative(x []uint64, j int, out []uint64) []uint64 {
	out = slices.Grow(out[:0], len(x))[:len(x)]
	if j < 6 {
		s := uint(1) << j
		m := ^propPattern[j] // bits whose digit j is 0
		for w, b := range x {
			out[w] = b ^ ((b>>s)&m | (b&m)<<s)
		}
		return out
	}
	st := 1 << (j - 6)
	for w, b := range x {
		out[w] = b ^ x[w^st]
	}
	return out
}

// propInfluence returns, for each semantic proposition digit, the number of
// rows x with f(x) ≠ f(x with that proposition flipped).
func (t *table) propInfluence() []int64 {
	inf := make([]int64, t.k)
	var d []uint64
	for j := range t.k {
		d = t.derivative(t.bits, j, d)
		inf[j] = t.count(d)
	}
	return inf
}

// interactions returns, for each pair i < j of semantic propositions (in
// the order (0,1), (0,2), ..., (1,2), ...), the number of rows x where
// f(x) ⊕ f(x^i) ⊕ f(x^j) ⊕ f(x^ij) = 1.
func (t *table) interactions(ctx context.Context) ([]int64, error) {
	var out []int64
	var di, dij []uint64
	for i := range t.k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		di = t.derivative(t.bits, i, di)
		for j := i + 1; j < t.k; j++ {
			dij = t.derivative(di, j, dij)
			out = append(out, t.count(dij))
		}
	}
	return out, nil
}

// actionInfluence returns, for semantic role digit ri, the influence of each
// of the role's actions (indexed by action id): the number of pairs (row,
// action a') with f(row with a) ≠ f(row with a'), the row's own choice for
// the role being a'.
//
// For one column of words (the rows that differ only in the role's digit)
// with x_c the word of choice c and w1[b] = Σ_c weight(c)·x_c[b], choice c
// counts Σ_b Σ_c2 weight(c2)·(x_c[b] ⊕ x_c2[b]) = Σ_b w1[b] +
// Σ_{b ∈ x_c} (wtot − 2·w1[b]). The counts of the weight-1 choices are
// kept bit-sliced (plane j holds bit j of every bit position's count), so
// Σ_{b ∈ x_c} w1[b] is a few popcounts per choice rather than a loop over
// x_c's set bits (chinesecheckers3's next functions: roles of hundreds of
// moves, dense words).
func (t *table) actionInfluence(ri int, numActions int) []int64 {
	d := &t.roles[ri]
	byDigit := make([]int64, d.radix)
	span := d.stride * d.radix
	nRead := len(d.read) // choices of weight 1; the "other" one, if any, is last
	var planes []uint64  // bit-sliced counts of the weight-1 choices
	for n := nRead; n > 0; n >>= 1 {
		planes = append(planes, 0)
	}
	var wtot int64
	for c := range d.radix {
		wtot += d.weight(c)
	}
	for base := 0; base < t.words; base += span {
		for off := range d.stride {
			w := base + off
			// Weight of the word without this role's digit (digit 0 has weight 1
			// when the role reads an action, else it is the "other" value).
			wo := t.wordWeight(w) / d.weight(0)
			clear(planes)
			for c := range nRead {
				carry := t.bits[w+c*d.stride]
				for j := 0; carry != 0; j++ {
					planes[j], carry = planes[j]^carry, planes[j]&carry
				}
			}
			var xo uint64 // the "other" choice's word, weight d.other
			if nRead < d.radix {
				xo = t.bits[w+nRead*d.stride]
			}
			// sum = Σ_b w1[b]; choice c adds Σ_{b ∈ x_c} (wtot − 2·w1[b]).
			sum := d.other * int64(bits.OnesCount64(xo))
			for j, pl := range planes {
				sum += int64(bits.OnesCount64(pl)) << j
			}
			for c := range d.radix {
				n := sum
				if x := t.bits[w+c*d.stride]; x != 0 {
					dot := d.other * int64(bits.OnesCount64(x&xo))
					for j, pl := range planes {
						dot += int64(bits.OnesCount64(x&pl)) << j
					}
					n += wtot*int64(bits.OnesCount64(x)) - 2*dot
				}
				byDigit[c] += n * wo
			}
		}
	}
	inf := make([]int64, numActions)
	for a := range inf {
		inf[a] = byDigit[d.digitOf(int32(a))] / t.scale
	}
	return inf
}

// dependsOnProp reports whether the function changes when proposition digit
// j alone is flipped in some row.
func (t *table) dependsOnProp(j int) bool {
	if j < 6 {
		s := uint(1) << j
		m := ^propPattern[j]
		for _, b := range t.bits {
			if (b^b>>s)&m != 0 {
				return true
			}
		}
		return false
	}
	st := 1 << (j - 6)
	for w, b := range t.bits {
		if w&st == 0 && b != t.bits[w|st] {
			return true
		}
	}
	return false
}

// dependsOnRole reports whether the function changes, in some row, when
// role digit ri alone changes: when some choice of the role matters.
func (t *table) dependsOnRole(ri int) bool {
	d := &t.roles[ri]
	span := d.stride * d.radix
	for base := 0; base < t.words; base += span {
		for off := range d.stride {
			x := t.bits[base+off]
			for c := 1; c < d.radix; c++ {
				if t.bits[base+off+c*d.stride] != x {
					return true
				}
			}
		}
	}
	return false
}

// actionClasses returns the classes of the actions of role digit ri (of
// numActions actions) with equal cofactors, as
// satcheck.ActionClassesIncremental defines them: actions a and b are in
// one class when the table's rows with the role doing a equal those with
// it doing b, row for row. The actions the cone does not read share the
// "other" digit, hence one class. Classes hold action indexes, ascending,
// and are ordered by their first action. Exact: digits are grouped by a
// hash of their rows, and each is compared word by word with its group's
// first digit.
func (t *table) actionClasses(ri, numActions int) [][]int {
	d := &t.roles[ri]
	span := d.stride * d.radix
	equal := func(c1, c2 int) bool {
		for base := 0; base < t.words; base += span {
			o1, o2 := base+c1*d.stride, base+c2*d.stride
			if !slices.Equal(t.bits[o1:o1+d.stride], t.bits[o2:o2+d.stride]) {
				return false
			}
		}
		return true
	}
	var reps []int               // first digit of each group
	repsOf := map[uint64][]int{} // hash -> indexes into reps
	group := make([]int, d.radix)
	for c := range d.radix {
		// One multiply a word: equal keys are checked word by word, so a
		// weak hash only costs a comparison.
		key := uint64(0)
		for base := 0; base < t.words; base += span {
			for _, w := range t.bits[base+c*d.stride : base+(c+1)*d.stride] {
				key = (key ^ w) * 0x9e3779b97f4a7c15
			}
		}
		g := -1
		for _, gi := range repsOf[key] {
			if equal(reps[gi], c) {
				g = gi
				break
			}
		}
		if g < 0 {
			g = len(reps)
			reps = append(reps, c)
			repsOf[key] = append(repsOf[key], g)
		}
		group[c] = g
	}
	classes := make([][]int, len(reps))
	for a := range numActions {
		g := group[d.digitOf(int32(a))]
		classes[g] = append(classes[g], a)
	}
	classes = slices.DeleteFunc(classes, func(c []int) bool { return len(c) == 0 })
	slices.SortFunc(classes, func(x, y []int) int { return x[0] - y[0] })
	return classes
}
