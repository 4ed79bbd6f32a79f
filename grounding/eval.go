package grounding

import (
	"context"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"time"
)

// factSet holds the ground tuples of one relation, in insertion order.
type factSet struct {
	arity   int
	n       int32
	data    []int32 // flat tuples; arity 0 relations store nothing
	set     map[string]int32
	indexes map[string]*index
	key     []byte
}

func newFactSet(arity int) *factSet {
	return &factSet{arity: arity, set: map[string]int32{}, indexes: map[string]*index{}}
}

func (f *factSet) tuple(i int32) []int32 {
	return f.data[int(i)*f.arity : int(i+1)*f.arity]
}

func (f *factSet) encode(tuple []int32) []byte {
	k := f.key[:0]
	for _, t := range tuple {
		k = binary.LittleEndian.AppendUint32(k, uint32(t))
	}
	f.key = k
	return k
}

func (f *factSet) lookup(tuple []int32) (int32, bool) {
	id, ok := f.set[string(f.encode(tuple))]
	return id, ok
}

// add inserts a tuple; it reports the tuple's id and whether it is new.
func (f *factSet) add(tuple []int32) (int32, bool) {
	k := f.encode(tuple)
	if id, ok := f.set[string(k)]; ok {
		return id, false
	}
	id := f.n
	f.set[string(k)] = id
	f.data = append(f.data, tuple...)
	f.n++
	return id, true
}

// probe is one known position of an atom pattern at join time: either a
// functor check (fn/arity of the compound at path) or a leaf value (a ground
// term, or a variable bound by an earlier step).
type probe struct {
	path    []int32
	functor bool
	fn      int32
	arity   int32
	ground  int32 // >= 0: fixed value
	v       int32 // >= 0: bound variable
}

// index maps the hash of probe values to fact ids (ascending).
type index struct {
	probes []probe
	built  int32
	m      map[uint64][]int32
}

func probeSig(ps []probe) string {
	var b strings.Builder
	for _, p := range ps {
		for _, x := range p.path {
			b.WriteString(strconv.Itoa(int(x)))
			b.WriteByte('.')
		}
		if p.functor {
			b.WriteString("f" + strconv.Itoa(int(p.fn)) + "/" + strconv.Itoa(int(p.arity)))
		}
		b.WriteByte(';')
	}
	return b.String()
}

func mix(h, x uint64) uint64 {
	h ^= x + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	return h
}

// factKey computes a fact's probe hash; ok is false when its shape does not fit.
func factKey(ts *termStore, tuple []int32, ps []probe) (uint64, bool) {
	h := uint64(1469598103934665603)
	for _, p := range ps {
		t := tuple[p.path[0]]
		for _, i := range p.path[1:] {
			args := ts.args(t)
			t = args[i] // the functor probe on the prefix guarantees the arity
		}
		if p.functor {
			if ts.fn[t] != p.fn || int32(len(ts.args(t))) != p.arity {
				return 0, false
			}
			h = mix(h, uint64(p.fn)<<20|uint64(p.arity))
			continue
		}
		h = mix(h, uint64(t))
	}
	return h, true
}

func (ix *index) update(ts *termStore, f *factSet) {
	for ; ix.built < f.n; ix.built++ {
		if k, ok := factKey(ts, f.tuple(ix.built), ix.probes); ok {
			ix.m[k] = append(ix.m[k], ix.built)
		}
	}
}

// step joins one positive atom, then runs the checks whose variables are now bound.
type step struct {
	lit    int // index into the rule body
	rel    int32
	probes []probe
	ix     *index
	delta  bool // ranges over the delta of its relation
	old    bool // ranges over facts older than the delta
	checks []int
}

// plan is a join order for one rule (and one delta literal in semi-naive rounds).
type plan struct {
	rule   *nrule
	pre    []int // checks with ground arguments
	steps  []step
	nvars  int
	negDyn []int // negated atoms over fluent relations (instantiation only)
}

// engine evaluates rules over fact sets.
type engine struct {
	ctx      context.Context
	deadline time.Time
	lim      Limits
	ts       *termStore
	c        *compiler
	facts    []*factSet
	atoms    int64
	work     int64
	err      error
	lo, hi   []int32 // per relation: delta range of the current round
	dropNeg  func(rel int32) bool
	tuple    []int32
}

func (e *engine) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// tick counts join work and checks cancellation and time at coarse intervals.
func (e *engine) tick() bool {
	e.work++
	if e.work&4095 != 0 {
		return e.err == nil
	}
	if err := e.ctx.Err(); err != nil {
		e.fail(err)
	} else if !e.deadline.IsZero() && time.Now().After(e.deadline) {
		e.fail(&LimitError{What: "Timeout", Limit: e.lim.Timeout.Milliseconds(), Got: time.Since(e.deadline.Add(-e.lim.Timeout)).Milliseconds()})
	}
	return e.err == nil
}

// makePlan orders the positive atoms of r greedily (most bound positions first,
// then fewest facts), starting with the delta literal if any.
func (e *engine) makePlan(r *nrule, deltaLit int, inScope func(rel int32) bool) *plan {
	p := &plan{rule: r, nvars: len(r.varNames)}
	bound := make([]bool, len(r.varNames))
	used := make([]bool, len(r.body))
	var atoms []int
	for i, b := range r.body {
		if b.kind == bPos {
			atoms = append(atoms, i)
		}
	}
	checks := make([]int, 0, len(r.body))
	for i, b := range r.body {
		if b.kind != bPos {
			checks = append(checks, i)
		}
	}
	placeChecks := func() []int {
		var ready []int
		rest := checks[:0]
		for _, i := range checks {
			if patsBound(bound, r.body[i]) {
				ready = append(ready, i)
			} else {
				rest = append(rest, i)
			}
		}
		checks = rest
		return ready
	}
	p.pre = placeChecks()
	for len(p.steps) < len(atoms) {
		best, bestScore := -1, int64(math.MinInt64)
		for _, i := range atoms {
			if used[i] {
				continue
			}
			var score int64
			if i == deltaLit {
				score = 1 << 62
			} else {
				known, total := countKnown(bound, r.body[i].args)
				score = int64(known)<<40 - int64(total)<<32 + (1<<31 - int64(min(e.facts[r.body[i].rel].n, 1<<30)))
			}
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		used[best] = true
		b := r.body[best]
		s := step{lit: best, rel: b.rel}
		for ai, a := range b.args {
			s.probes = appendProbes(s.probes, []int32{int32(ai)}, a, bound)
		}
		if deltaLit >= 0 {
			s.delta = best == deltaLit
			// Literals before the delta literal in body order see only old facts,
			// so each new combination is derived in exactly one variant.
			s.old = !s.delta && best < deltaLit && inScope(b.rel)
		}
		for _, a := range b.args {
			markBound(bound, a)
		}
		s.checks = placeChecks()
		f := e.facts[b.rel]
		sig := probeSig(s.probes)
		ix, ok := f.indexes[sig]
		if !ok && len(s.probes) > 0 {
			ix = &index{probes: s.probes, m: map[uint64][]int32{}}
			f.indexes[sig] = ix
		}
		s.ix = ix
		p.steps = append(p.steps, s)
	}
	return p
}

func patsBound(bound []bool, b basic) bool {
	switch b.kind {
	case bDistinct, bEqual:
		return patBound(bound, b.a) && patBound(bound, b.b)
	}
	for _, a := range b.args {
		if !patBound(bound, a) {
			return false
		}
	}
	return true
}

func patBound(bound []bool, p pat) bool {
	switch {
	case p.v >= 0:
		return bound[p.v]
	case p.t >= 0:
		return true
	}
	for _, a := range p.args {
		if !patBound(bound, a) {
			return false
		}
	}
	return true
}

func markBound(bound []bool, p pat) {
	if p.v >= 0 {
		bound[p.v] = true
	}
	for _, a := range p.args {
		markBound(bound, a)
	}
}

func countKnown(bound []bool, ps []pat) (known, total int) {
	for _, p := range ps {
		k, t := countKnownPat(bound, p)
		known += k
		total += t
	}
	return
}

func countKnownPat(bound []bool, p pat) (known, total int) {
	switch {
	case p.v >= 0:
		if bound[p.v] {
			return 1, 1
		}
		return 0, 1
	case p.t >= 0:
		return 1, 1
	}
	known, total = 1, 1 // the functor itself
	for _, a := range p.args {
		k, t := countKnownPat(bound, a)
		known += k
		total += t
	}
	return
}

func appendProbes(ps []probe, path []int32, p pat, bound []bool) []probe {
	switch {
	case p.v >= 0:
		if bound[p.v] {
			return append(ps, probe{path: path, v: p.v, ground: -1})
		}
		return ps
	case p.t >= 0:
		return append(ps, probe{path: path, v: -1, ground: p.t})
	}
	ps = append(ps, probe{path: path, functor: true, fn: p.fn, arity: int32(len(p.args)), v: -1, ground: -1})
	for i, a := range p.args {
		sub := append(append([]int32(nil), path...), int32(i))
		ps = appendProbes(ps, sub, a, bound)
	}
	return ps
}

// binding is the variable assignment of a join in progress.
type binding struct {
	vals  []int32 // -1 unbound
	trail []int32
}

// match unifies pattern p with ground term t, recording new bindings on the trail.
func (e *engine) match(b *binding, p pat, t int32) bool {
	switch {
	case p.v >= 0:
		if v := b.vals[p.v]; v >= 0 {
			return v == t
		}
		b.vals[p.v] = t
		b.trail = append(b.trail, p.v)
		return true
	case p.t >= 0:
		return p.t == t
	}
	args := e.ts.args(t)
	if e.ts.fn[t] != p.fn || len(args) != len(p.args) {
		return false
	}
	for i, a := range p.args {
		if !e.match(b, a, args[i]) {
			return false
		}
	}
	return true
}

func (b *binding) undo(mark int) {
	for _, v := range b.trail[mark:] {
		b.vals[v] = -1
	}
	b.trail = b.trail[:mark]
}

// inst builds the ground term of a bound pattern.
func (e *engine) inst(b *binding, p pat) int32 {
	switch {
	case p.v >= 0:
		return b.vals[p.v]
	case p.t >= 0:
		return p.t
	}
	args := make([]int32, len(p.args))
	for i, a := range p.args {
		args[i] = e.inst(b, a)
	}
	t := e.ts.intern(p.fn, args)
	if d := e.ts.depth[t]; int(d) > e.lim.MaxTermDepth {
		e.fail(&LimitError{What: "MaxTermDepth", Limit: int64(e.lim.MaxTermDepth), Got: int64(d)})
	}
	return t
}

func (e *engine) instArgs(b *binding, ps []pat) []int32 {
	e.tuple = e.tuple[:0]
	for _, p := range ps {
		e.tuple = append(e.tuple, e.inst(b, p))
	}
	return e.tuple
}

// check evaluates a non-join body literal under b; negated fluent atoms are
// left to the caller (they pass here).
func (e *engine) check(b *binding, l *basic) bool {
	switch l.kind {
	case bDistinct:
		return e.inst(b, l.a) != e.inst(b, l.b)
	case bEqual:
		return e.inst(b, l.a) == e.inst(b, l.b)
	case bNeg:
		if e.dropNeg(l.rel) {
			return true
		}
		_, found := e.facts[l.rel].lookup(e.instArgs(b, l.args))
		return !found
	}
	return true
}

// join enumerates the bindings that satisfy p, calling emit with each (and the
// matched fact id of every step, in step order). It stops when emit returns false.
func (e *engine) join(p *plan, emit func(b *binding, matched []int32) bool) {
	b := &binding{vals: make([]int32, p.nvars)}
	for i := range b.vals {
		b.vals[i] = -1
	}
	for _, ci := range p.pre {
		if !e.check(b, &p.rule.body[ci]) {
			return
		}
	}
	matched := make([]int32, len(p.steps))
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == len(p.steps) {
			return emit(b, matched)
		}
		s := &p.steps[k]
		f := e.facts[s.rel]
		lo, hi := int32(0), f.n
		if e.hi != nil {
			hi = min(hi, e.hi[s.rel])
			if s.delta {
				lo = e.lo[s.rel]
			} else if s.old {
				hi = min(hi, e.lo[s.rel])
			}
		}
		if lo >= hi {
			return true
		}
		lit := &p.rule.body[s.lit]
		try := func(id int32) bool {
			if !e.tick() {
				return false
			}
			mark := len(b.trail)
			ok := true
			tuple := f.tuple(id)
			for i, a := range lit.args {
				if !e.match(b, a, tuple[i]) {
					ok = false
					break
				}
			}
			if ok {
				for _, ci := range s.checks {
					if !e.check(b, &p.rule.body[ci]) {
						ok = false
						break
					}
				}
			}
			cont := true
			if ok {
				matched[k] = id
				cont = rec(k + 1)
			}
			b.undo(mark)
			return cont && e.err == nil
		}
		if s.ix == nil {
			for id := lo; id < hi; id++ {
				if !try(id) {
					return false
				}
			}
			return true
		}
		s.ix.update(e.ts, f)
		h := uint64(1469598103934665603)
		for _, pr := range s.probes {
			switch {
			case pr.functor:
				h = mix(h, uint64(pr.fn)<<20|uint64(pr.arity))
			case pr.ground >= 0:
				h = mix(h, uint64(pr.ground))
			default:
				h = mix(h, uint64(b.vals[pr.v]))
			}
		}
		for _, id := range s.ix.m[h] {
			if id < lo {
				continue
			}
			if id >= hi {
				break
			}
			if !try(id) {
				return false
			}
		}
		return true
	}
	rec(0)
}

// addFact inserts a derived fact, enforcing MaxAtoms.
func (e *engine) addFact(rel int32, tuple []int32) (int32, bool) {
	id, isNew := e.facts[rel].add(tuple)
	if isNew {
		e.atoms++
		if e.atoms > e.lim.MaxAtoms {
			e.fail(&LimitError{What: "MaxAtoms", Limit: e.lim.MaxAtoms, Got: e.atoms})
		}
	}
	return id, isNew
}

// fixpoint evaluates rules semi-naively until no new facts appear. Relations
// in scope are the ones whose facts the rules may still add to.
func (e *engine) fixpoint(rules []*nrule, inScope func(rel int32) bool) {
	n := len(e.facts)
	e.lo = make([]int32, n)
	e.hi = make([]int32, n)
	defer func() { e.lo, e.hi = nil, nil }()
	derive := func(p *plan) {
		r := p.rule
		e.join(p, func(b *binding, _ []int32) bool {
			e.addFact(r.head, e.instArgs(b, r.headArgs))
			return e.err == nil
		})
	}
	// Round 0: everything known so far.
	for i, f := range e.facts {
		e.lo[i], e.hi[i] = 0, f.n
	}
	for _, r := range rules {
		derive(e.makePlan(r, -1, inScope))
		if e.err != nil {
			return
		}
	}
	plans := map[[2]int]*plan{}
	for {
		changed := false
		for i, f := range e.facts {
			e.lo[i], e.hi[i] = e.hi[i], f.n
			if e.lo[i] < e.hi[i] && inScope(int32(i)) {
				changed = true
			}
		}
		if !changed {
			return
		}
		for ri, r := range rules {
			for li, b := range r.body {
				if b.kind != bPos || !inScope(b.rel) || e.lo[b.rel] >= e.hi[b.rel] {
					continue
				}
				key := [2]int{ri, li}
				p, ok := plans[key]
				if !ok {
					p = e.makePlan(r, li, inScope)
					plans[key] = p
				}
				derive(p)
				if e.err != nil {
					return
				}
			}
		}
	}
}
