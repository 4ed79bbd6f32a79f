package satcheck

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/gamequiv/gamequiv/grounding"
)

// DependsOn and SemanticSupport use complete truth tables when the
// function's input space has at most 2^supportExhaustiveBits rows, and random
// simulation before SAT when supportSim is set (variables only for tests).
var (
	supportExhaustiveBits = 16
	supportSim            = true
)

var (
	defaultOnce  sync.Once
	defaultStats counters
	defaultPool  *pool
	defaultOpt   Options
)

func defaults() (*pool, *Options) {
	defaultOnce.Do(func() {
		defaultOpt = Options{}.withDefaults()
		defaultPool = newPool(defaultOpt.MaxConcurrentSolves, &defaultStats)
	})
	return defaultPool, &defaultOpt
}

// DependsOn reports whether f, a literal of p's circuit, depends semantically
// on circuit input `input`: whether its value can change when only that input
// changes. For a proposition that means flipping "true p". For an action
// "does r a" it means changing which action role r does, from a to another
// action of r, every role doing exactly one action: so when f reads some
// action of r, the actions of r that it does not read can be dependencies too
// (f = does(r,a1) depends on a2 and a3 when r's actions are a1, a2, a3,
// exactly like its one-hot equivalent ¬does(r,a2) ∧ ¬does(r,a3)). This makes
// the semantic support invariant under rewriting f into an equivalent
// function. A role with a single action is never a dependency, and roles that
// f does not read are ignored (so the answer does not depend on roles without
// actions).
//
// Small input spaces (at most 2^16 rows) are decided by a truth table,
// larger ones by random simulation and then SAT, under the default Options.
func DependsOn(ctx context.Context, p *grounding.Program, f grounding.Lit, input int) (bool, error) {
	an, err := analyze(p, f)
	if err != nil {
		return false, err
	}
	if input < 0 || input >= an.s.numInputs() {
		return false, fmt.Errorf("satcheck: input %d out of range [0,%d)", input, an.s.numInputs())
	}
	u, ok := an.unitOf(int32(input))
	if !ok {
		return false, nil
	}
	if an.small() {
		return an.table()[u], nil
	}
	return an.depends(ctx, u)
}

// SemanticSupport returns, ascending, the inputs that f depends on in the
// sense of DependsOn: the propositions among its syntactic support
// (grounding.Circuit.Support) whose flip can change it, and the actions of
// the roles it reads whose change can change it.
func SemanticSupport(ctx context.Context, p *grounding.Program, f grounding.Lit) ([]int, error) {
	an, err := analyze(p, f)
	if err != nil {
		return nil, err
	}
	var dep map[unit]bool
	if an.small() {
		dep = an.table()
	} else {
		dep = map[unit]bool{}
		for _, u := range an.units() {
			d, err := an.depends(ctx, u)
			if err != nil {
				return nil, err
			}
			dep[u] = d
		}
	}
	var out []int
	for i := range an.s.numInputs() {
		if u, ok := an.unitOf(int32(i)); ok && dep[u] {
			out = append(out, i)
		}
	}
	return out, nil
}

// unit is one thing a function can depend on: a free proposition (group < 0,
// v its variable) or one choice of a role's group (choice len(members) is
// "any action no member stands for").
type unit struct {
	group  int32
	v      int32
	choice int
}

// analysis is one function's cone with its input space (joint variable k is
// support input k).
type analysis struct {
	s   *side
	cn  *cone
	j   *joint
	rng *rand.Rand
	sim []uint64 // base random vectors, drawn on first use
	w   int
}

func analyze(p *grounding.Program, f grounding.Lit) (*analysis, error) {
	s, err := newSide(p)
	if err != nil {
		return nil, err
	}
	cn, err := s.cone(f)
	if err != nil {
		return nil, err
	}
	j, err := buildJoint(s, s, cn.Inputs, cn.Inputs, nil, oneHot)
	if err != nil {
		return nil, err
	}
	_, opt := defaults()
	return &analysis{s: s, cn: cn, j: j, rng: rand.New(rand.NewPCG(opt.Seed, uint64(f))), w: opt.SimWords}, nil
}

// unitOf says which unit input i belongs to, if any.
func (an *analysis) unitOf(i int32) (unit, bool) {
	if k, ok := slices.BinarySearch(an.cn.Inputs, i); ok {
		v := int32(k)
		if g := an.j.group[v]; g >= 0 {
			return unit{group: g, v: -1, choice: slices.Index(an.j.groups[g].members, v)}, true
		}
		return unit{group: -1, v: v}, true
	}
	if !an.s.isAction(i) {
		return unit{}, false
	}
	r := an.s.role(i)
	for gi, g := range an.j.groups {
		if g.role == r {
			return unit{group: int32(gi), v: -1, choice: len(g.members)}, true
		}
	}
	return unit{}, false
}

// units lists every unit of the analysis.
func (an *analysis) units() []unit {
	var us []unit
	for _, v := range an.j.props {
		us = append(us, unit{group: -1, v: v})
	}
	for gi, g := range an.j.groups {
		for c := range g.radix() {
			us = append(us, unit{group: int32(gi), v: -1, choice: c})
		}
	}
	return us
}

func (an *analysis) small() bool { return an.j.log2Rows() <= float64(supportExhaustiveBits) }

// table decides every unit from the complete truth table.
func (an *analysis) table() map[unit]bool {
	j := an.j
	vec, w, rows := j.exhaustiveVectors()
	tt, _ := an.cn.Simulate(w, func(k int) []uint64 { return vec[k*w : (k+1)*w] }, nil, nil)
	bit := func(r int) bool { return tt[r/64]>>(r%64)&1 == 1 }
	dep := map[unit]bool{}
	ps, gs := j.digitStrides()
	for i, v := range j.props {
		st := ps[i]
		for r := range rows {
			if r/st%2 == 0 && bit(r) != bit(r+st) {
				dep[unit{group: -1, v: v}] = true
				break
			}
		}
	}
	for gi, g := range j.groups {
		st, rad := gs[gi], g.radix()
		for r := range rows {
			if r/st%rad != 0 {
				continue
			}
			for c := range rad {
				u := unit{group: int32(gi), v: -1, choice: c}
				if dep[u] {
					continue
				}
				x := bit(r + c*st)
				for c2 := range rad {
					if bit(r+c2*st) != x {
						dep[u] = true
						break
					}
				}
			}
		}
	}
	return dep
}

// depends decides one unit: random simulation looks for a witness, SAT
// proves independence.
func (an *analysis) depends(ctx context.Context, u unit) (bool, error) {
	if u.group >= 0 && an.j.groups[u.group].radix() == 1 {
		return false, nil // the role's only action: it cannot change
	}
	if supportSim && an.w > 0 && an.simDepends(u) {
		return true, nil
	}
	pool, opt := defaults()
	f, err := an.dependsCNF(u, opt)
	if err != nil {
		return false, err
	}
	f.what = fmt.Sprintf("depends: cone of %d gates, %d inputs", len(an.cn.Gates), len(an.j.vars))
	sat, _, err := pool.solve(ctx, f)
	return sat, err
}

func (an *analysis) simDepends(u unit) bool {
	j, w := an.j, an.w
	if an.sim == nil {
		an.sim = j.randomVectors(w, nil, an.rng)
	}
	x := slices.Clone(an.sim)
	y := slices.Clone(an.sim)
	vv := func(vec []uint64, v int32) []uint64 { return vec[int(v)*w : int(v+1)*w] }
	if u.group < 0 {
		for i, b := range vv(y, u.v) {
			vv(y, u.v)[i] = ^b
		}
	} else {
		// x: the role makes choice u.choice; y: any other choice.
		g := &j.groups[u.group]
		for _, m := range g.members {
			clear(vv(x, m))
			clear(vv(y, m))
		}
		if u.choice < len(g.members) {
			for i := range vv(x, g.members[u.choice]) {
				vv(x, g.members[u.choice])[i] = ^uint64(0)
			}
		}
		rad := g.radix()
		for bit := range 64 * w {
			c := an.rng.IntN(rad - 1)
			if c >= u.choice {
				c++
			}
			if c < len(g.members) {
				vv(y, g.members[c])[bit/64] |= 1 << (bit % 64)
			}
		}
	}
	in := func(vec []uint64) func(k int) []uint64 {
		return func(k int) []uint64 { return vv(vec, int32(k)) }
	}
	fx, vals := an.cn.Simulate(w, in(x), nil, nil)
	fy, _ := an.cn.Simulate(w, in(y), vals, nil)
	return firstDiff(fx, fy, 64*w) >= 0
}

// dependsCNF encodes "f(x) ≠ f(y)" where y equals x except on the unit: a
// proposition is negated; for a role's choice, x makes it and y makes another.
func (an *analysis) dependsCNF(u unit, o *Options) (*cnf, error) {
	j, cn := an.j, an.cn
	z := size{vars: 1 + int64(len(j.vars)), clauses: 3}
	z.cone(cn)
	z.cone(cn)
	for i, g := range j.groups {
		n := 1
		if int32(i) == u.group {
			n = 2
			z.vars += int64(len(g.members))
			if u.choice < len(g.members) {
				z.clauses += 2 // x makes the choice, y does not
			} else {
				z.clauses += int64(len(g.members)) + 1 // x: no member; y: some member
			}
		}
		for range n {
			z.amo(len(g.members))
			if !g.other {
				z.clauses++
			}
		}
	}
	if err := z.check(o); err != nil {
		return nil, err
	}
	f := newCNF()
	for range j.vars {
		f.newVar()
	}
	x := func(k int) int { return k + 2 }
	y := x
	var yg []int // copy of the unit's group in y
	if u.group < 0 {
		y = func(k int) int {
			if int32(k) == u.v {
				return -(k + 2)
			}
			return k + 2
		}
	} else {
		g := &j.groups[u.group]
		ys := map[int32]int{}
		for _, m := range g.members {
			ys[m] = f.newVar()
			yg = append(yg, ys[m])
		}
		y = func(k int) int {
			if l, ok := ys[int32(k)]; ok {
				return l
			}
			return k + 2
		}
		if u.choice < len(g.members) {
			f.add(x(int(g.members[u.choice])))
			f.add(-yg[u.choice])
		} else {
			for _, m := range g.members {
				f.add(-x(int(m)))
			}
			f.add(yg...) // y does one of the members
		}
	}
	fx := f.cone(cn, x)
	fy := f.cone(cn, y)
	f.add(fx, fy)
	f.add(-fx, -fy)
	f.groups(j, int(u.group), yg)
	return f, nil
}
