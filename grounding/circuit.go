package grounding

import (
	"slices"
)

// Lit is a circuit literal: a node id shifted left by one, with the low bit
// set when the node's value is negated. Lit 0 is the constant false, Lit 1 true.
type Lit uint32

// Constant literals.
const (
	False Lit = 0
	True  Lit = 1
)

// InputLit is the positive literal of circuit input i.
func InputLit(i int) Lit { return Lit(i+1) << 1 }

// Node is the id of the literal's node.
func (l Lit) Node() int { return int(l >> 1) }

// IsNeg reports whether the literal negates its node.
func (l Lit) IsNeg() bool { return l&1 == 1 }

// Not is the negation of l.
func (l Lit) Not() Lit { return l ^ 1 }

// Circuit is a hash-consed Boolean circuit of n-ary AND gates with optional
// negation on every edge (so OR(a,b) is stored as NOT AND(NOT a, NOT b)).
//
// Node 0 is the constant false; nodes 1..NumInputs are the inputs (node i+1 is
// input i); every later node is an AND gate whose fanins all have smaller ids, so
// one pass in id order evaluates the whole circuit. Fanins of gate n are
// Fanin[Start[n]:Start[n+1]], sorted, duplicate-free, never constant, and never
// containing a literal together with its negation.
type Circuit struct {
	NumInputs int
	Start     []int32 // len NumNodes()+1; empty ranges for the constant and inputs
	Fanin     []Lit
}

// NumNodes counts all nodes: the constant, the inputs and the gates.
func (c *Circuit) NumNodes() int { return len(c.Start) - 1 }

// NumGates counts the AND gates.
func (c *Circuit) NumGates() int { return c.NumNodes() - 1 - c.NumInputs }

// IsInput reports whether node n is an input, and which.
func (c *Circuit) IsInput(n int) (input int, ok bool) {
	if n >= 1 && n <= c.NumInputs {
		return n - 1, true
	}
	return 0, false
}

// IsGate reports whether node n is an AND gate.
func (c *Circuit) IsGate(n int) bool { return n > c.NumInputs }

// Fanins returns the fanin literals of node n (empty unless n is a gate).
func (c *Circuit) Fanins(n int) []Lit { return c.Fanin[c.Start[n]:c.Start[n+1]] }

// Eval computes every node's value for the given inputs into vals (resized as
// needed) and returns it. Use Value to read a literal.
func (c *Circuit) Eval(inputs []bool, vals []bool) []bool {
	n := c.NumNodes()
	if cap(vals) < n {
		vals = make([]bool, n)
	}
	vals = vals[:n]
	vals[0] = false
	copy(vals[1:], inputs[:c.NumInputs])
	for g := c.NumInputs + 1; g < n; g++ {
		v := true
		for _, l := range c.Fanin[c.Start[g]:c.Start[g+1]] {
			if vals[l>>1] == (l&1 == 1) {
				v = false
				break
			}
		}
		vals[g] = v
	}
	return vals
}

// Value reads literal l from node values computed by Eval.
func Value(vals []bool, l Lit) bool { return vals[l>>1] != (l&1 == 1) }

// Support returns the inputs that the literals' cones reach, sorted (syntactic support).
func (c *Circuit) Support(roots ...Lit) []int {
	seen := make(map[int]bool)
	var out []int
	stack := make([]int, 0, len(roots))
	for _, r := range roots {
		stack = append(stack, r.Node())
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		if in, ok := c.IsInput(n); ok {
			out = append(out, in)
			continue
		}
		for _, l := range c.Fanins(n) {
			stack = append(stack, l.Node())
		}
	}
	slices.Sort(out)
	return out
}

// maxFlatten bounds the fanin count produced by flattening nested ANDs.
const maxFlatten = 64

// builder grows a Circuit with structural hashing.
type builder struct {
	c        Circuit
	gates    gateTable // the gates by their fanins
	maxNodes int       // limit on NumNodes, placeholder inputs included
	extra    int       // placeholder inputs: not counted against MaxCircuitNodes
	err      error
	scratch  []Lit
	// orScratch holds Or's negated literals: Or is called once per
	// derived atom and per join result.
	orScratch []Lit
}

// newBuilder starts a circuit of numInputs real and extra placeholder inputs
// with at most maxNodes nodes besides the placeholders.
func newBuilder(numInputs, extra, maxNodes int) *builder {
	b := &builder{maxNodes: maxNodes + extra, extra: extra}
	numInputs += extra
	b.c.NumInputs = numInputs
	b.c.Start = make([]int32, numInputs+2)
	return b
}

// And returns a literal for the conjunction of ls (True when empty).
func (b *builder) And(ls ...Lit) Lit {
	if b.err != nil {
		return False
	}
	// One literal besides True is its own conjunction: a gate's fanins were
	// flattened, sorted and hashed when it was made, so the lookup below
	// would find it again. Joins ask this often (True and a match's
	// literal), and each asking cost a sort and a map lookup.
	only, k := True, 0
	for _, l := range ls {
		switch l {
		case False:
			return False
		case True:
		default:
			only, k = l, k+1
		}
	}
	if k <= 1 {
		return only
	}
	buf := b.scratch[:0]
	for _, l := range ls {
		switch {
		case l == True:
			continue
		case l == False:
			return False
		}
		// Flatten a positive AND child so that AND(AND(a,b),c) and AND(a,b,c) coincide.
		if !l.IsNeg() && b.c.IsGate(l.Node()) {
			fs := b.c.Fanins(l.Node())
			if len(buf)+len(fs) <= maxFlatten {
				buf = append(buf, fs...)
				continue
			}
		}
		buf = append(buf, l)
	}
	slices.Sort(buf)
	buf = slices.Compact(buf)
	for i := 1; i < len(buf); i++ {
		if buf[i] == buf[i-1]^1 {
			b.scratch = buf
			return False
		}
	}
	b.scratch = buf
	switch len(buf) {
	case 0:
		return True
	case 1:
		return buf[0]
	}
	h := HashLits(buf)
	if g, ok := b.gates.find(h, buf, b.c.Fanins); ok {
		return Lit(g) << 1
	}
	n := b.c.NumNodes()
	if n >= b.maxNodes {
		// Report the configured limit: placeholders are not the user's nodes.
		b.err = &LimitError{What: "MaxCircuitNodes", Limit: int64(b.maxNodes - b.extra), Got: int64(n + 1 - b.extra)}
		return False
	}
	b.c.Fanin = append(b.c.Fanin, buf...)
	b.c.Start = append(b.c.Start, int32(len(b.c.Fanin)))
	b.gates.insert(h, int32(n))
	return Lit(n) << 1
}

// Or returns a literal for the disjunction of ls (False when empty).
func (b *builder) Or(ls ...Lit) Lit {
	neg := b.orScratch[:0]
	for _, l := range ls {
		neg = append(neg, l.Not())
	}
	b.orScratch = neg // And copies what it keeps
	return b.And(neg...).Not()
}

// substMemo remembers, per gate of a template, its substitute in the
// current round of substitutions and whether that changed since the round
// before. Only the gates that reach a placeholder whose value changed since
// the round before (dirty, found through the fanouts of the changed
// placeholders) are visited again; every other gate keeps its substitute,
// so a fixpoint's later rounds cost only what changes.
type substMemo struct {
	// The template's gates are lo..hi-1; dep[n-lo] says whether gate n
	// reaches a placeholder. Every other gate, and every template gate
	// that reaches none, is its own substitute.
	lo, hi  int
	first   int // the first placeholder input
	dep     []bool
	val     []Lit   // val[n-lo]: gate n's substitute as of round stamp[n-lo]
	changed []bool  // changed[n-lo]: val differs from the round before
	stamp   []int32 // round val was last computed; 0 for none
	dirty   []int32 // round in which gate n reaches a changed placeholder
	gen     int32   // the current round, from 1
	prev    []Lit   // the placeholders' values in the round before; nil in the first

	// Fanouts among the dependent gates, as offsets into fanout: those of
	// placeholder k at inStart[k], those of gate n at gateStart[n-lo].
	inStart, gateStart []int32
	inFanout, fanout   []int32
	queue              []int32

	rebuilt int64 // gates whose fanins were substituted (a counter for tests)
}

// newSubstMemo prepares substitutions into the template gates lo..hi-1
// of b, whose placeholders are the inputs first..first+nph-1.
func (b *builder) newSubstMemo(lo, hi, first, nph int) *substMemo {
	k := max(hi-lo, 0)
	m := &substMemo{lo: lo, hi: hi, first: first, dep: make([]bool, k), val: make([]Lit, k), changed: make([]bool, k), stamp: make([]int32, k), dirty: make([]int32, k)}
	inCount := make([]int32, nph+1)
	gateCount := make([]int32, k+1)
	for n := lo; n < hi; n++ {
		for _, f := range b.c.Fanins(n) {
			fn := f.Node()
			if in, ok := b.c.IsInput(fn); ok && in >= first || fn >= lo && fn < hi && m.dep[fn-lo] {
				m.dep[n-lo] = true
			}
		}
		if !m.dep[n-lo] {
			continue
		}
		for _, f := range b.c.Fanins(n) {
			fn := f.Node()
			if in, ok := b.c.IsInput(fn); ok && in >= first && in < first+nph {
				inCount[in-first+1]++
			} else if fn >= lo && fn < hi && m.dep[fn-lo] {
				gateCount[fn-lo+1]++
			}
		}
	}
	for i := 1; i < len(inCount); i++ {
		inCount[i] += inCount[i-1]
	}
	for i := 1; i < len(gateCount); i++ {
		gateCount[i] += gateCount[i-1]
	}
	m.inStart, m.gateStart = inCount, gateCount
	m.inFanout = make([]int32, inCount[nph])
	m.fanout = make([]int32, gateCount[k])
	inFill := slices.Clone(inCount[:nph])
	gateFill := slices.Clone(gateCount[:k])
	for n := lo; n < hi; n++ {
		if !m.dep[n-lo] {
			continue
		}
		for _, f := range b.c.Fanins(n) {
			fn := f.Node()
			if in, ok := b.c.IsInput(fn); ok && in >= first && in < first+nph {
				m.inFanout[inFill[in-first]] = int32(n)
				inFill[in-first]++
			} else if fn >= lo && fn < hi && m.dep[fn-lo] {
				m.fanout[gateFill[fn-lo]] = int32(n)
				gateFill[fn-lo]++
			}
		}
	}
	return m
}

// next starts a round with placeholder values cur, whose values were prev
// in the round before (nil before the first round): it marks dirty the
// gates that reach a placeholder that changed.
func (m *substMemo) next(prev, cur []Lit) {
	m.gen++
	m.prev = prev
	if prev == nil {
		return // the first round computes every gate it reaches
	}
	q := m.queue[:0]
	mark := func(n int32) {
		if i := n - int32(m.lo); m.dirty[i] != m.gen {
			m.dirty[i] = m.gen
			q = append(q, n)
		}
	}
	for k := range cur {
		if prev[k] != cur[k] {
			for _, n := range m.inFanout[m.inStart[k]:m.inStart[k+1]] {
				mark(n)
			}
		}
	}
	for len(q) > 0 {
		n := q[len(q)-1]
		q = q[:len(q)-1]
		i := n - int32(m.lo)
		for _, o := range m.fanout[m.gateStart[i]:m.gateStart[i+1]] {
			mark(o)
		}
	}
	m.queue = q
}

// substitute rebuilds the cone of l with placeholder input first+k replaced
// by cur[k]. Placeholders are inputs numbered from first; the other inputs,
// the constant and the gates that reach no placeholder stay as they are.
// changed says whether the result differs from the round before.
func (b *builder) substitute(l Lit, first int, cur []Lit, m *substMemo) (r Lit, changed bool) {
	n := l.Node()
	if in, ok := b.c.IsInput(n); ok && in >= first {
		k := in - first
		return cur[k] ^ l&1, m.prev == nil || m.prev[k] != cur[k]
	}
	if !b.c.IsGate(n) || n < m.lo || n >= m.hi || !m.dep[n-m.lo] {
		return l, false
	}
	i := n - m.lo
	if m.stamp[i] == m.gen {
		return m.val[i] ^ l&1, m.changed[i]
	}
	// Computed in an earlier round and no placeholder under it changed
	// since: the same substitute, unchanged.
	had := m.stamp[i] != 0
	if had && m.dirty[i] != m.gen {
		return m.val[i] ^ l&1, false
	}
	m.rebuilt++
	fs := b.c.Fanins(n)
	args := make([]Lit, len(fs))
	any := false
	for j, f := range fs {
		var c bool
		args[j], c = b.substitute(f, first, cur, m)
		any = any || c
	}
	m.stamp[i] = m.gen
	if had && !any {
		m.changed[i] = false
		return m.val[i] ^ l&1, false
	}
	r = b.And(args...)
	m.changed[i] = !had || r != m.val[i]
	m.val[i] = r
	return r ^ l&1, m.changed[i]
}

// compact keeps only the nodes that roots reach (plus the constant and the
// first numInputs inputs; later inputs were placeholders and must be
// unreachable), renumbers them in the same order, and rewrites roots in place.
func compact(c *Circuit, roots []*Lit, numInputs int) Circuit {
	n := c.NumNodes()
	live := make([]bool, n)
	for i := 0; i <= c.NumInputs; i++ {
		live[i] = i <= numInputs
	}
	stack := make([]int, 0, len(roots))
	for _, r := range roots {
		stack = append(stack, r.Node())
	}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if live[g] || g <= c.NumInputs {
			continue // inputs are decided above; a placeholder is never reached
		}
		live[g] = true
		for _, l := range c.Fanins(g) {
			stack = append(stack, l.Node())
		}
	}
	nodes, fanins := 0, 0
	for g := 0; g < n; g++ {
		if live[g] {
			nodes++
			fanins += len(c.Fanins(g))
		}
	}
	renum := make([]int32, n)
	out := Circuit{NumInputs: numInputs, Start: make([]int32, 1, nodes+1), Fanin: make([]Lit, 0, fanins)}
	for g := 0; g < n; g++ {
		if !live[g] {
			renum[g] = -1
			continue
		}
		renum[g] = int32(out.NumNodes())
		for _, l := range c.Fanins(g) {
			if renum[l.Node()] < 0 {
				panic("grounding: internal error: a placeholder input is reachable from a function")
			}
			out.Fanin = append(out.Fanin, Lit(renum[l.Node()])<<1|l&1)
		}
		out.Start = append(out.Start, int32(len(out.Fanin)))
	}
	for _, r := range roots {
		*r = Lit(renum[r.Node()])<<1 | *r&1
	}
	return out
}
