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
	// classOf[ri] and reps[ri]: role digit ri's digit classes
	// (tableEval.digitClasses); nil when each digit is its own class.
	classOf, reps [][]int32
}

// digitClasses returns role digit ri's classes: each digit's class and the
// first digit of each class.
func (t *table) digitClasses(ri int) (classOf, reps []int32) {
	if t.classOf != nil && t.classOf[ri] != nil {
		return t.classOf[ri], t.reps[ri]
	}
	n := t.roles[ri].radix
	classOf = make([]int32, n)
	for d := range classOf {
		classOf[d] = int32(d)
	}
	return classOf, classOf
}

// evalBlockWords is the number of words per vector evaluated at once
// (bounds memory to vectors × evalBlockWords words whatever the table
// size).
const evalBlockWords = 256

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
	return newTableBlk(ctx, p, cn, sp, moves, evalBlockWords, 0, 0)
}

// newTableWithin is newTable, or nil when the table would have more than
// maxWords words or cost more than maxWork words and gate-words (its
// words, plus its gates' evaluations as the block keys predict them).
func newTableWithin(ctx context.Context, p *grounding.Program, cn *cone, sp fnSpace, moves bool, maxWords, maxWork int64) (*table, error) {
	return newTableBlk(ctx, p, cn, sp, moves, evalBlockWords, min(maxWords, maxWork), maxWork)
}

// newTableBlk is newTable evaluating at most maxBlk words per vector at
// once, or nil beyond maxWords or maxWork (when > 0, see newTableWithin).
func newTableBlk(ctx context.Context, p *grounding.Program, cn *cone, sp fnSpace, moves bool, maxBlk int, maxWords, maxWork int64) (*table, error) {
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
	// A bounded table checks its proposition words before the shift
	// (skirmish's capture counters read 300 propositions).
	if maxWords > 0 && (t.kk-6 >= 62 || int64(1)<<(t.kk-6) > maxWords) {
		return nil, nil
	}
	t.words = 1 << (t.kk - 6)
	for _, r := range sp.roles {
		t.addRole(r, readBy[r], len(p.Actions[r]))
		if maxWords > 0 && int64(t.words) > maxWords {
			return nil, nil
		}
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
	outer := len(t.roles) - 1 // -1: no role, every word is inner
	inner := t.words          // words of one block (one outer digit value)
	if outer >= 0 {
		inner = t.roles[outer].stride
	}
	te := newTableEval(cn, kinds, roleOf, digitOf, outer)
	if maxWork > 0 && te.cost(inner, t.roles[max(outer, 0):outer+1], maxWork)+int64(t.words) > maxWork {
		return nil, nil
	}
	t.classOf, t.reps = make([][]int32, len(t.roles)), make([][]int32, len(t.roles))
	for ri := range t.roles {
		t.classOf[ri], t.reps[ri] = te.digitClasses(ri, t.roles[ri].radix)
	}
	t.bits = make([]uint64, t.words)
	// Words per vector: the inner words in chunks of at most
	// evalBlockWords, fewer when the cone is big, so that the scratch
	// stays within maxTableScratchWords.
	nVecs := max(te.numVecs(), 1)
	blk := max(1, min(maxBlk, inner, maxTableScratchWords/nVecs))
	vals := make([]uint64, nVecs*blk)
	scal := make([]uint64, len(cn.Gates))
	// Propositions of digit 6 and up change from word to word.
	var highProps []int
	for v, k := range te.propVecs {
		if j := srcs[k].v; j < 6 {
			fill(vals[v*blk:(v+1)*blk], propPattern[j])
		} else {
			highProps = append(highProps, v)
		}
	}
	digits := make([][]int32, len(t.roles))
	for ri := range digits {
		digits[ri] = make([]int32, blk)
	}
	radix := 1
	if outer >= 0 {
		radix = t.roles[outer].radix
	}
	memo := blockMemo{on: radix > 1 && len(te.perBlock) > 0}
	for w0 := 0; w0 < inner; w0 += blk {
		// A chunk costs its words times the cone, once per outer value:
		// cheap next to a look at the context, and a big cone makes even
		// one chunk take a while.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bw := min(blk, inner-w0)
		for _, v := range highProps {
			dst, j := vals[v*blk:][:bw], srcs[te.propVecs[v]].v
			for i := range dst {
				dst[i] = -uint64((w0 + i) >> (j - 6) & 1)
			}
		}
		for ri := range t.roles {
			if ri == outer {
				continue
			}
			d := &t.roles[ri]
			for i := range bw {
				digits[ri][i] = int32((w0 + i) / d.stride % d.radix)
			}
		}
		te.evalInner(vals, blk, bw, digits)
		t.gateOps += int64(len(te.inner) * bw)
		memo.reset(blk)
		for c := range radix {
			if c&1023 == 1023 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			o := c*inner + w0
			out := t.bits[o : o+bw]
			var key []uint64
			if memo.on {
				key = te.blockKey(int32(c), memo.key)
				memo.key = key
				if words, ok := memo.find(key); ok {
					copy(out, words[:bw])
					continue
				}
			}
			te.evalOuter(vals, blk, bw, digits, int32(c), scal)
			te.rootValue(vals, blk, bw, digits, int32(c), scal, out)
			t.gateOps += int64(len(te.perBlock) * bw)
			if memo.on {
				memo.add(key, out)
			}
		}
	}
	return t, nil
}

// blockMemo keeps, for one chunk of inner words, the root's words of each
// distinct block key seen (tableEval.blockKey): blocks with equal keys
// have equal words, so a table evaluates its per-block gates once per key
// rather than once per outer value. In checkers' next functions the outer
// role's 1,145 moves fall into a handful of keys (which of the cone's
// move sets the move is in).
type blockMemo struct {
	on     bool             // memoize; turned off when keys rarely repeat
	blk    int              // words per entry
	key    []uint64         // scratch key
	byHash map[uint64]int32 // key hash -> its last entry
	// Entry e's key is keys[e*keyLen:], its words words[e*blk:], and the
	// entry before it with the same hash next[e] (-1: none): flat arrays,
	// not a slice per entry and per hash.
	keyLen int
	keys   []uint64
	next   []int32
	words  []uint64
	hits   int
	misses int
}

// Bounds of a blockMemo: the words it keeps, and the lookups after which
// it turns itself off when it missed more often than it hit.
const (
	maxBlockMemoWords = 1 << 21
	blockMemoProbe    = 256
)

// reset empties the memo for a chunk of blk words.
func (m *blockMemo) reset(blk int) {
	m.blk = blk
	clear(m.byHash)
	m.keys = m.keys[:0]
	m.next = m.next[:0]
	m.words = m.words[:0]
}

func hashKey(key []uint64) uint64 {
	h := uint64(len(key))
	for _, w := range key {
		h = mix64(h ^ w)
	}
	return h
}

// find returns the words of key, if kept. Every key of one memo has the
// same length (tableEval.blockKey).
func (m *blockMemo) find(key []uint64) ([]uint64, bool) {
	if e, ok := m.byHash[hashKey(key)]; ok && len(key) == m.keyLen {
		for ; e >= 0; e = m.next[e] {
			if slices.Equal(m.keys[int(e)*m.keyLen:int(e+1)*m.keyLen], key) {
				m.hits++
				return m.words[int(e)*m.blk:], true
			}
		}
	}
	m.misses++
	if m.hits+m.misses >= blockMemoProbe && m.misses > 2*m.hits {
		m.on = false
	}
	return nil, false
}

// add keeps words under key, within maxBlockMemoWords.
func (m *blockMemo) add(key, words []uint64) {
	if len(m.words)+m.blk > maxBlockMemoWords {
		return
	}
	if m.byHash == nil {
		m.byHash = map[uint64]int32{}
	}
	if len(m.next) == 0 {
		m.keyLen = len(key)
	} else if len(key) != m.keyLen {
		return // not expected: blockKey's keys have one length
	}
	e := int32(len(m.next))
	h := hashKey(key)
	prev, ok := m.byHash[h]
	if !ok {
		prev = -1
	}
	m.byHash[h] = e
	m.next = append(m.next, prev)
	m.keys = append(m.keys, key...)
	n := len(m.words)
	m.words = append(m.words, words...)
	m.words = slices.Grow(m.words, m.blk-len(words))[:n+m.blk]
	clear(m.words[n+len(words):])
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

func fill[T any](s []T, x T) {
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

// setWeights fills weight from the role digits, once every role is added:
// word group q's weight is the product of its digits' weights, built role
// by role (the first role's digit varies fastest).
func (t *table) setWeights() {
	t.weight = append(make([]int64, 0, t.words>>(t.kk-6)), 1)
	for i := range t.roles {
		d := &t.roles[i]
		n := len(t.weight)
		for c := 1; c < d.radix; c++ {
			t.weight = append(t.weight, t.weight[:n]...)
		}
		for c := range d.radix {
			if w := d.weight(c); w != 1 {
				for q := c * n; q < (c+1)*n; q++ {
					t.weight[q] *= w
				}
			}
		}
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
// Σ_{b ∈ x_c} (wtot − 2·w1[b]). The counts w1 are kept bit-sliced (plane
// j holds bit j of every bit position's count), so Σ_{b ∈ x_c} w1[b] is a
// few popcounts per choice rather than a loop over x_c's set bits
// (chinesecheckers3's next functions: roles of hundreds of moves, dense
// words). Digits of one class (digitClasses) have equal words: each class
// counts once, weighted by its digits (checkers: 1,145 moves, a few dozen
// classes).
func (t *table) actionInfluence(ri int, numActions int) []int64 {
	d := &t.roles[ri]
	classOf, reps := t.digitClasses(ri)
	cw := make([]int64, len(reps)) // weight of each class
	var wtot int64
	for c := range d.radix {
		cw[classOf[c]] += d.weight(c)
		wtot += d.weight(c)
	}
	byClass := make([]int64, len(reps))
	span := d.stride * d.radix
	planes := make([]uint64, bits.Len64(uint64(wtot)))
	for base := 0; base < t.words; base += span {
		for off := range d.stride {
			w := base + off
			// Weight of the word without this role's digit (digit 0 has weight 1
			// when the role reads an action, else it is the "other" value).
			wo := t.wordWeight(w) / d.weight(0)
			clear(planes)
			for k, c := range reps {
				x := t.bits[w+int(c)*d.stride]
				if x == 0 {
					continue
				}
				for wk := uint64(cw[k]); wk != 0; wk &= wk - 1 {
					carry := x
					for j := bits.TrailingZeros64(wk); carry != 0; j++ {
						planes[j], carry = planes[j]^carry, planes[j]&carry
					}
				}
			}
			// sum = Σ_b w1[b]; class k adds Σ_{b ∈ x_k} (wtot − 2·w1[b]).
			var sum int64
			for j, pl := range planes {
				sum += int64(bits.OnesCount64(pl)) << j
			}
			for k, c := range reps {
				n := sum
				if x := t.bits[w+int(c)*d.stride]; x != 0 {
					var dot int64
					for j, pl := range planes {
						dot += int64(bits.OnesCount64(x&pl)) << j
					}
					n += wtot*int64(bits.OnesCount64(x)) - 2*dot
				}
				byClass[k] += n * wo
			}
		}
	}
	inf := make([]int64, numActions)
	for a := range inf {
		inf[a] = byClass[classOf[d.digitOf(int32(a))]] / t.scale
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
	_, reps := t.digitClasses(ri) // reps[0] is digit 0
	span := d.stride * d.radix
	for base := 0; base < t.words; base += span {
		for off := range d.stride {
			x := t.bits[base+off]
			for _, c := range reps[1:] {
				if t.bits[base+off+int(c)*d.stride] != x {
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
	classOf, reps0 := t.digitClasses(ri)
	for c := range d.radix {
		if r := int(reps0[classOf[c]]); r != c {
			group[c] = group[r] // equal words (digitClasses)
			continue
		}
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
