package satcheck_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// circ grows a hash-consed AND/NOT circuit that keeps grounding.Circuit's
// invariants (sorted duplicate-free constant-free fanins, topological ids).
type circ struct {
	c    grounding.Circuit
	hash map[string]grounding.Lit
}

func newCirc(numInputs int) *circ {
	return &circ{
		c:    grounding.Circuit{NumInputs: numInputs, Start: make([]int32, numInputs+2)},
		hash: map[string]grounding.Lit{},
	}
}

func (b *circ) and(ls ...grounding.Lit) grounding.Lit {
	var fs []grounding.Lit
	for _, l := range ls {
		switch l {
		case grounding.True:
			continue
		case grounding.False:
			return grounding.False
		}
		fs = append(fs, l)
	}
	slices.Sort(fs)
	fs = slices.Compact(fs)
	for i := 1; i < len(fs); i++ {
		if fs[i] == fs[i-1]^1 {
			return grounding.False
		}
	}
	switch len(fs) {
	case 0:
		return grounding.True
	case 1:
		return fs[0]
	}
	key := fmt.Sprint(fs)
	if l, ok := b.hash[key]; ok {
		return l
	}
	n := b.c.NumNodes()
	b.c.Fanin = append(b.c.Fanin, fs...)
	b.c.Start = append(b.c.Start, int32(len(b.c.Fanin)))
	l := grounding.Lit(n) << 1
	b.hash[key] = l
	return l
}

func (b *circ) or(ls ...grounding.Lit) grounding.Lit {
	ns := make([]grounding.Lit, len(ls))
	for i, l := range ls {
		ns[i] = l.Not()
	}
	return b.and(ns...).Not()
}

func (b *circ) xor(x, y grounding.Lit) grounding.Lit {
	return b.or(b.and(x, y.Not()), b.and(x.Not(), y))
}

// prog is a Program under construction: its functions default to false.
type prog struct {
	p *grounding.Program
	*circ
}

func newProg(name string, roles, props []string, actions [][]string) *prog {
	n := len(props)
	for _, as := range actions {
		n += len(as)
	}
	p := &grounding.Program{Name: name, Roles: roles, Props: props, Actions: actions}
	p.Legal = make([][]grounding.Lit, len(roles))
	for r := range roles {
		p.Legal[r] = make([]grounding.Lit, len(actions[r]))
	}
	p.Next = make([]grounding.Lit, len(props))
	p.Goals = make([][]grounding.Goal, len(roles))
	return &prog{p: p, circ: newCirc(n)}
}

func (q *prog) propID(name string) int {
	i := slices.Index(q.p.Props, name)
	if i < 0 {
		panic("no proposition " + name)
	}
	return i
}

func (q *prog) roleID(name string) int {
	i := slices.Index(q.p.Roles, name)
	if i < 0 {
		panic("no role " + name)
	}
	return i
}

func (q *prog) actionInput(role, action string) int {
	r := q.roleID(role)
	a := slices.Index(q.p.Actions[r], action)
	if a < 0 {
		panic("no action " + action)
	}
	i := len(q.p.Props)
	for _, as := range q.p.Actions[:r] {
		i += len(as)
	}
	return i + a
}

// t is the input literal of "true p", d of "does r a".
func (q *prog) t(name string) grounding.Lit { return grounding.InputLit(q.propID(name)) }
func (q *prog) d(role, action string) grounding.Lit {
	return grounding.InputLit(q.actionInput(role, action))
}

func (q *prog) done() *grounding.Program {
	q.p.Circuit = q.c
	return q.p
}

// identity is the identity mapping of a program onto one of the same shape.
func identity(p *grounding.Program) satcheck.Mapping {
	m := satcheck.Mapping{Roles: make([]int, len(p.Roles)), Props: make([]int, len(p.Props)), Actions: make([][]int, len(p.Roles))}
	for r := range m.Roles {
		m.Roles[r] = r
		m.Actions[r] = make([]int, len(p.Actions[r]))
		for a := range m.Actions[r] {
			m.Actions[r][a] = a
		}
	}
	for i := range m.Props {
		m.Props[i] = i
	}
	return m
}

// bruteEqual decides fa == fb under the input map by enumerating every state
// and, with moves, every joint move (one action per role).
func bruteEqual(a, b *grounding.Program, fa, fb grounding.Lit, im []int32, moves bool) bool {
	na, nb := a.Circuit.NumInputs, b.Circuit.NumInputs
	inA := make([]bool, na)
	inB := make([]bool, nb)
	var va, vb []bool
	base := len(a.Props)
	var choices []int // per role
	if moves {
		for _, as := range a.Actions {
			if len(as) == 0 {
				return true // no joint move
			}
			choices = append(choices, len(as))
		}
	}
	total := 1
	for _, c := range choices {
		total *= c
	}
	for s := range 1 << len(a.Props) {
		for mv := range total {
			clear(inA)
			for i := range a.Props {
				inA[i] = s>>i&1 == 1
			}
			x, off := mv, base
			for r, c := range choices {
				inA[off+x%c] = true
				x /= c
				off += len(a.Actions[r])
			}
			clear(inB)
			for i, v := range inA {
				inB[im[i]] = v
			}
			va = a.Circuit.Eval(inA, va)
			vb = b.Circuit.Eval(inB, vb)
			if grounding.Value(va, fa) != grounding.Value(vb, fb) {
				return false
			}
		}
	}
	return true
}

// ticTacToe3 is a one-line tic-tac-toe: cells 1..3, marks x/o/b, two players.
// style 0 writes the rules plainly; style 1 in De Morgan and distributed forms
// (the same functions, other circuits). perm renumbers the cells and rename
// scrambles every name, so that B is A in disguise.
func ticTacToe3(name string, style int, perm [3]int, rename func(string) string) *grounding.Program {
	cell := func(i int, m string) string { return rename(fmt.Sprintf("(cell %d %s)", perm[i], m)) }
	var props []string
	for i := range 3 {
		for _, m := range []string{"b", "o", "x"} {
			props = append(props, cell(i, m))
		}
	}
	props = append(props, rename("(control oplayer)"), rename("(control xplayer)"))
	roles := []string{rename("xplayer"), rename("oplayer")}
	mark := func(i int) string { return rename(fmt.Sprintf("(mark %d)", perm[i])) }
	acts := []string{mark(0), mark(1), mark(2), rename("noop")}
	sort := func(xs []string) []string { ys := slices.Clone(xs); slices.Sort(ys); return ys }
	props = sort(props)
	q := newProg(name, roles, props, [][]string{sort(acts), sort(acts)})
	t := func(i int, m string) grounding.Lit { return q.t(cell(i, m)) }
	ctl := func(r string) grounding.Lit { return q.t(rename("(control " + r + ")")) }
	do := func(r string, a string) grounding.Lit { return q.d(rename(r), a) }
	for ri, r := range []string{"xplayer", "oplayer"} {
		other := []string{"oplayer", "xplayer"}[ri]
		for i := range 3 {
			id := slices.Index(q.p.Actions[ri], mark(i))
			if style == 0 {
				q.p.Legal[ri][id] = q.and(t(i, "b"), ctl(r))
			} else {
				q.p.Legal[ri][id] = q.or(t(i, "b").Not(), ctl(r).Not()).Not()
			}
		}
		q.p.Legal[ri][slices.Index(q.p.Actions[ri], rename("noop"))] = ctl(other)
	}
	line := func(m string) grounding.Lit {
		if style == 0 {
			return q.and(t(0, m), t(1, m), t(2, m))
		}
		return q.or(t(0, m).Not(), q.or(t(1, m).Not(), t(2, m).Not())).Not()
	}
	for i := range 3 {
		mk := func(r string) grounding.Lit { return do(r, mark(i)) }
		for _, m := range []string{"x", "o"} {
			r := map[string]string{"x": "xplayer", "o": "oplayer"}[m]
			if style == 0 {
				q.p.Next[q.propID(cell(i, m))] = q.or(t(i, m), q.and(t(i, "b"), mk(r)))
			} else {
				q.p.Next[q.propID(cell(i, m))] = q.and(q.or(t(i, m), t(i, "b")), q.or(t(i, m), mk(r)))
			}
		}
		if style == 0 {
			q.p.Next[q.propID(cell(i, "b"))] = q.and(t(i, "b"), mk("xplayer").Not(), mk("oplayer").Not())
		} else {
			q.p.Next[q.propID(cell(i, "b"))] = q.or(t(i, "b").Not(), mk("xplayer"), mk("oplayer")).Not()
		}
	}
	q.p.Next[q.propID(rename("(control xplayer)"))] = ctl("oplayer")
	q.p.Next[q.propID(rename("(control oplayer)"))] = ctl("xplayer")
	open := q.or(t(0, "b"), t(1, "b"), t(2, "b"))
	for ri, m := range []string{"x", "o"} {
		win := line(m)
		lose := line(map[string]string{"x": "o", "o": "x"}[m])
		q.p.Goals[ri] = []grounding.Goal{
			{Value: 0, Lit: lose},
			{Value: 50, Lit: q.and(win.Not(), lose.Not())},
			{Value: 100, Lit: win},
		}
	}
	if style == 0 {
		q.p.Terminal = q.or(line("x"), line("o"), open.Not())
	} else {
		q.p.Terminal = q.and(line("x").Not(), line("o").Not(), open).Not()
	}
	q.p.Init = []int32{int32(q.propID(cell(0, "b"))), int32(q.propID(cell(1, "b"))), int32(q.propID(cell(2, "b"))), int32(q.propID(rename("(control xplayer)")))}
	slices.Sort(q.p.Init)
	return q.done()
}

// scramble renames every symbol of a KIF term.
func scramble(s string) string {
	r := strings.NewReplacer("cell", "square", "control", "turn", "xplayer", "white", "oplayer", "black",
		"mark", "put", "noop", "pass", " b)", " e)", " x)", " w)", " o)", " k)")
	return r.Replace(s)
}

// ticTacToeMapping maps ticTacToe3(..., [0 1 2], id) onto a disguise built with perm and rename.
func ticTacToeMapping(a, b *grounding.Program, perm [3]int, rename func(string) string) satcheck.Mapping {
	m := satcheck.Mapping{Roles: []int{0, 1}}
	for _, p := range a.Props {
		q := p
		for i := range 3 {
			if strings.HasPrefix(p, fmt.Sprintf("(cell %d ", i)) {
				q = fmt.Sprintf("(cell %d %s", perm[i], p[len("(cell 0 "):])
			}
		}
		m.Props = append(m.Props, slices.Index(b.Props, rename(q)))
	}
	for r := range a.Roles {
		var as []int
		for _, x := range a.Actions[r] {
			y := x
			var i int
			if _, err := fmt.Sscanf(x, "(mark %d)", &i); err == nil {
				y = fmt.Sprintf("(mark %d)", perm[i])
			}
			as = append(as, slices.Index(b.Actions[r], rename(y)))
		}
		m.Actions = append(m.Actions, as)
	}
	return m
}

func id(s string) string { return s }

// shapedCircuitProgram is randomCircuitProgram on the action shape
// shapes[trial%len(shapes)] with 2 to maxIn-1 inputs in all (propositions
// and actions), 20 gates; it returns the shape too.
func shapedCircuitProgram(rng *rand.Rand, shapes [][]int, trial, maxIn int) (*prog, []grounding.Lit, []int) {
	shape := shapes[trial%len(shapes)]
	nActs := 0
	for _, k := range shape {
		nActs += k
	}
	q, pool := randomCircuitProgram(rng, "p", 2+rng.IntN(maxIn-nActs), shape, 20)
	return q, pool, shape
}

// randomCircuitProgram is a program with nProps propositions and roles with
// the given action counts, plus nGates random gates; its functions are left
// false. It returns the program and its builder.
func randomCircuitProgram(rng *rand.Rand, name string, nProps int, actions []int, nGates int) (*prog, []grounding.Lit) {
	var props []string
	for i := range nProps {
		props = append(props, fmt.Sprintf("p%02d", i))
	}
	var roles []string
	var acts [][]string
	for r, k := range actions {
		roles = append(roles, fmt.Sprintf("r%d", r))
		var as []string
		for a := range k {
			as = append(as, fmt.Sprintf("a%d", a))
		}
		acts = append(acts, as)
	}
	q := newProg(name, roles, props, acts)
	pool := []grounding.Lit{}
	for i := range q.c.NumInputs {
		pool = append(pool, grounding.InputLit(i))
	}
	for range nGates {
		k := 2 + rng.IntN(3)
		var fs []grounding.Lit
		for range k {
			fs = append(fs, pool[rng.IntN(len(pool))]^grounding.Lit(rng.IntN(2)))
		}
		if l := q.and(fs...); l.Node() > 0 {
			pool = append(pool, l)
		}
	}
	return q, pool
}

// rebuild copies the cone of l from circuit src into q, renaming inputs
// through im, and returns the copy's literal.
func rebuild(q *prog, src *grounding.Circuit, l grounding.Lit, im []int32, memo map[int]grounding.Lit) grounding.Lit {
	return copyCone(src, l, im, memo, func(n int, cp func(grounding.Lit) grounding.Lit) grounding.Lit {
		var fs []grounding.Lit
		for _, f := range src.Fanins(n) {
			fs = append(fs, cp(f))
		}
		return q.and(fs...)
	})
}

// copyCone copies the cone of l from circuit src, renaming inputs through
// im: gate(n, cp) writes the copy of gate node n, with cp copying a literal
// of src (each node once: memo holds the copies made).
func copyCone(src *grounding.Circuit, l grounding.Lit, im []int32, memo map[int]grounding.Lit, gate func(n int, cp func(grounding.Lit) grounding.Lit) grounding.Lit) grounding.Lit {
	var cp func(grounding.Lit) grounding.Lit
	cp = func(l grounding.Lit) grounding.Lit {
		n := l.Node()
		out, ok := memo[n]
		if !ok {
			switch {
			case n == 0:
				out = grounding.False
			case n <= src.NumInputs:
				out = grounding.InputLit(int(im[n-1]))
			default:
				out = gate(n, cp)
			}
			memo[n] = out
		}
		if l.IsNeg() {
			return out.Not()
		}
		return out
	}
	return cp(l)
}

func mustChecker(tb testing.TB, a, b *grounding.Program, opt satcheck.Options) *satcheck.Checker {
	tb.Helper()
	c, err := satcheck.NewChecker(a, b, opt)
	if err != nil {
		tb.Fatalf("NewChecker: %v", err)
	}
	return c
}

// multiplier returns the product bits of the n-bit numbers xs and ys
// (array multiplier of full adders).
func multiplier(q *prog, xs, ys []grounding.Lit) []grounding.Lit {
	n := len(xs)
	acc := make([]grounding.Lit, 2*n) // running sum, starts at 0
	for i := range acc {
		acc[i] = grounding.False
	}
	for i := range n {
		carry := grounding.False
		for j := range n {
			pp := q.and(xs[j], ys[i])
			s := acc[i+j]
			sum := q.xor(q.xor(s, pp), carry)
			carry = q.or(q.and(s, pp), q.and(carry, q.xor(s, pp)))
			acc[i+j] = sum
		}
		for k := i + n; k < 2*n && carry != grounding.False; k++ {
			s := acc[k]
			acc[k] = q.xor(s, carry)
			carry = q.and(s, carry)
		}
	}
	return acc
}

// multipliers builds programs a and b over 2n propositions where a computes
// bit k of x·y and b bit k of y·x: equal functions that are hard for SAT.
func multipliers(n, k int) (a, b *grounding.Program, fa, fb grounding.Lit) {
	a, b, fas, fbs := allMultiplierBits(n)
	return a, b, fas[k], fbs[k]
}

// allMultiplierBits: programs a (x·y) and b (y·x) over 2n propositions, and
// every product bit of each.
func allMultiplierBits(n int) (a, b *grounding.Program, fa, fb []grounding.Lit) {
	var props []string
	for i := range 2 * n {
		props = append(props, fmt.Sprintf("v%02d", i))
	}
	build := func(name string, swap bool) (*prog, []grounding.Lit) {
		q := newProg(name, nil, props, nil)
		var xs, ys []grounding.Lit
		for i := range n {
			xs = append(xs, grounding.InputLit(i))
			ys = append(ys, grounding.InputLit(n+i))
		}
		if swap {
			xs, ys = ys, xs
		}
		return q, multiplier(q, xs, ys)
	}
	qa, fa := build("xy", false)
	qb, fb := build("yx", true)
	return qa.done(), qb.done(), fa, fb
}

// randomInputMap returns a random input map of n inputs that permutes the
// nProps propositions among themselves and each role's actions (shape:
// the roles' action counts, after the propositions) among themselves.
func randomInputMap(rng *rand.Rand, n, nProps int, shape []int) []int32 {
	im := make([]int32, n)
	for i, j := range rng.Perm(nProps) {
		im[i] = int32(j)
	}
	off := nProps
	for _, k := range shape {
		for i, j := range rng.Perm(k) {
			im[off+i] = int32(off + j)
		}
		off += k
	}
	return im
}

// imagesOf maps each of names (a game's propositions or one role's
// actions) to the index of its image under f, failing the test when one
// has none; moved counts the names not mapped to themselves.
func imagesOf(t *testing.T, names []string, f func(string) string) (img []int, moved int) {
	t.Helper()
	idx := make(map[string]int, len(names))
	for i, s := range names {
		idx[s] = i
	}
	img = make([]int, len(names))
	for i, s := range names {
		j, ok := idx[f(s)]
		if !ok {
			t.Fatalf("no image of %s", s)
		}
		img[i] = j
		if j != i {
			moved++
		}
	}
	return img, moved
}

// goalPair builds two games of one role with one action over props whose
// goal 100 is goalA(A) and goalB(B) (terminal: y, the action always legal),
// and returns them with A's builder.
func goalPair(props []string, goalA, goalB func(q *prog) grounding.Lit) (a, b *grounding.Program, qa *prog) {
	build := func(name string, goal func(q *prog) grounding.Lit) (*grounding.Program, *prog) {
		q := newProg(name, []string{"r"}, props, [][]string{{"noop"}})
		q.p.Goals[0] = []grounding.Goal{{Value: 100, Lit: goal(q)}}
		q.p.Terminal = q.t("y")
		q.p.Legal[0][0] = grounding.True
		return q.done(), q
	}
	a, qa = build("a", goalA)
	b, _ = build("b", goalB)
	return a, b, qa
}
