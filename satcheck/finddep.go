package satcheck

import (
	"context"
	"fmt"
	"slices"

	"github.com/crillab/gophersat/solver"

	"github.com/gamequiv/gamequiv/grounding"
)

// Witness shows that a function depends on Input: at Point (the circuit
// inputs true there, ascending), flipping Input (for an action: changing
// its role's action) changes the function's value.
type Witness struct {
	Input int
	Point []int
}

// FindDependence decides, with one SAT call, whether f depends (in the
// sense of DependsOn) on any of the candidate inputs, and if so names some
// with witnesses. An action input stands for its role: the role is a
// dependency when changing the role's action can change f.
//
// The formula asks for two points x and y of f's input space with
// f(x) ≠ f(y) that differ only on candidates: y is x with the inputs whose
// selector is set flipped (a role's whole action re-chosen). When it is
// unsatisfiable no candidate is a dependency; this settles all of them at
// the cost of one call instead of one call per candidate, and independence
// (every remaining candidate irrelevant) is the common case. When it is
// satisfiable, walking from x to y one selected candidate at a time (every
// intermediate point is in the space: whole roles are switched) changes f
// at least once, and each change is a witness for its candidate.
//
// It returns a witness for every change along that walk (at least one;
// for a role, Input is the first candidate given for it), or none when no
// candidate is a dependency. Inputs f cannot depend on (outside its cone's
// space) are ignored.
func FindDependence(ctx context.Context, p *grounding.Program, f grounding.Lit, cands []int) ([]Witness, error) {
	return findDependence(ctx, p, f, cands, false)
}

// FindDependenceShared is FindDependence (same question, same kind of
// answer) with the two sides of its miter encoded by sharedCones: only the
// fanout of the candidate inputs is encoded twice. The ground graph asks
// it (through Dependence) for the inputs that simulation could not show to
// matter, usually few of a big cone, so the formula is a fraction of
// FindDependence's.
func FindDependenceShared(ctx context.Context, p *grounding.Program, f grounding.Lit, cands []int) ([]Witness, error) {
	return findDependence(ctx, p, f, cands, true)
}

// findDependence is FindDependence, with the miter's sides encoded apart
// or, when shared, sharing every gate outside the candidates' fanout.
func findDependence(ctx context.Context, p *grounding.Program, f grounding.Lit, cands []int, shared bool) ([]Witness, error) {
	an, err := analyze(p, f)
	if err != nil {
		return nil, err
	}
	units, err := an.depUnits(cands)
	if err != nil || len(units) == 0 {
		return nil, err
	}
	q, err := an.depQuestion(units, shared)
	if err != nil || q.none {
		return nil, err
	}
	pool, _ := defaults()
	sat, model, err := pool.solve(ctx, q.fm)
	if err != nil || !sat {
		return nil, err
	}
	return an.depWitnesses(f, q, model, nil)
}

// Dependence is FindDependenceShared asked again and again of one
// function, each time about the candidates the answers so far left open
// (as the ground graph's semantic supports do: SAT names some
// dependencies, simulation from its witnesses decides more, SAT is asked
// about the rest). The first Find encodes the question about its
// candidates once and keeps the solver; a later Find about a subset of
// them adds, for each candidate dropped since, the unit clause that its
// selector is off, and solves again. Adding clauses is gophersat's sound
// incremental use (what it learned follows from the clauses it had, so
// it still follows): the formula is then exactly the question about the
// subset, without a second encoding, parse or watch lists, and with the
// clauses learned so far. A Find about a candidate outside the encoded
// ones encodes afresh. A Dependence is not safe for concurrent use.
type Dependence struct {
	p  *grounding.Program
	f  grounding.Lit
	an *analysis
	q  *depQuestion   // the encoded question, or nil
	s  *solver.Solver // q's solver, once solved
	// off[i]: unit i's selector is fixed off by a unit clause (in q.fm
	// and, once added, in s); added[i]: the clause is in s.
	off, added []bool
}

// NewDependence returns a Dependence for f, a literal of p's circuit.
func NewDependence(p *grounding.Program, f grounding.Lit) (*Dependence, error) {
	an, err := analyze(p, f)
	if err != nil {
		return nil, err
	}
	return &Dependence{p: p, f: f, an: an}, nil
}

// Find is FindDependenceShared(ctx, p, f, cands): the same question, the
// same kind of answer (witnesses, checked by simulating f, or none).
func (d *Dependence) Find(ctx context.Context, cands []int) ([]Witness, error) {
	an := d.an
	units, err := an.depUnits(cands)
	if err != nil || len(units) == 0 {
		return nil, err
	}
	idx := make([]int, len(units)) // position of each unit in d.q.units
	if d.q != nil {
		for i, u := range units {
			idx[i] = slices.IndexFunc(d.q.units, func(e depUnit) bool { return e.v == u.v && e.group == u.group })
			if idx[i] < 0 || d.off[idx[i]] {
				// A candidate the encoding lacks, or one whose selector
				// a unit clause fixed off: encode afresh.
				d.q = nil
				break
			}
		}
	}
	if d.q == nil {
		q, err := an.depQuestion(units, true)
		if err != nil {
			return nil, err
		}
		d.q, d.s = q, nil
		d.off, d.added = make([]bool, len(units)), make([]bool, len(units))
		for i := range idx {
			idx[i] = i
		}
	}
	q := d.q
	if q.none {
		return nil, nil
	}
	// active[i]: 1 + the input this call gives for unit i of q, or 0.
	active := make([]int, len(q.units))
	for i, qi := range idx {
		active[qi] = 1 + units[i].input
	}
	for i, a := range active {
		if a == 0 && !d.off[i] {
			d.off[i] = true
			q.fm.add(-q.sel[i])
		}
	}
	if d.s == nil {
		copy(d.added, d.off) // a fresh solver reads them from q.fm
	}
	pool, _ := defaults()
	sat, model, err := pool.solveMore(ctx, q.fm, &d.s, func(s *solver.Solver) {
		for i, o := range d.off {
			if o && !d.added[i] {
				d.added[i] = true
				s.AppendClause(solver.NewClause([]solver.Lit{solver.IntToLit(int32(-q.sel[i]))}))
			}
		}
	})
	if err != nil {
		d.q, d.s = nil, nil // an interrupted solver is not reused
		return nil, err
	}
	if !sat {
		return nil, nil
	}
	return an.depWitnesses(d.f, q, model, active)
}

// depUnit is one candidate unit of a dependence question: a free
// proposition or a group (a role's whole action).
type depUnit struct {
	input int   // the candidate input that stands for the unit
	v     int32 // free proposition variable, or -1
	group int32 // group, or -1
}

// depUnits returns the units of the candidates, in their order: a
// candidate f cannot depend on (outside its cone's space, a group of one
// choice) has none, and a group's first candidate stands for it.
func (an *analysis) depUnits(cands []int) ([]depUnit, error) {
	j := an.j
	var units []depUnit
	seenGroup := map[int32]bool{}
	for _, in := range cands {
		if in < 0 || in >= an.s.numInputs() {
			return nil, fmt.Errorf("satcheck: input %d out of range [0,%d)", in, an.s.numInputs())
		}
		u, ok := an.unitOf(int32(in))
		if !ok {
			continue
		}
		if u.group < 0 {
			units = append(units, depUnit{input: in, v: u.v, group: -1})
			continue
		}
		if seenGroup[u.group] || j.groups[u.group].radix() < 2 {
			continue
		}
		seenGroup[u.group] = true
		units = append(units, depUnit{input: in, v: -1, group: u.group})
	}
	return units, nil
}

// depQuestion is the encoded dependence question about units: x and y
// differ only on the units whose selector sel[i] is set, and f(x) ≠ f(y).
// none: the two sides are one literal, so no unit matters.
type depQuestion struct {
	units []depUnit
	fm    *cnf
	sel   []int
	yOf   map[int32]int // joint variable -> its literal in y, when it may differ from x
	none  bool
}

// x is the literal of joint variable k on the x side.
func (q *depQuestion) x(k int) int { return k + 2 }

// y is the literal of joint variable k on the y side.
func (q *depQuestion) y(k int) int {
	if l, ok := q.yOf[int32(k)]; ok {
		return l
	}
	return k + 2
}

// depQuestion encodes the question about units, within the CNF limits.
func (an *analysis) depQuestion(units []depUnit, shared bool) (*depQuestion, error) {
	j, cn := an.j, an.cn
	_, opt := defaults()
	z := size{vars: 1 + int64(len(j.vars)), clauses: 3}
	z.cone(cn)
	z.cone(cn)
	for _, g := range j.groups {
		z.amo(len(g.members))
		z.clauses++
	}
	for _, u := range units {
		if u.group < 0 {
			z.vars += 2
			z.clauses += 4
			continue
		}
		g := &j.groups[u.group]
		z.vars += 1 + int64(len(g.members))
		z.clauses += 2*int64(len(g.members)) + 1
		z.amo(len(g.members))
	}
	if err := z.check(opt); err != nil {
		return nil, err
	}

	fm := newCNF()
	for range j.vars {
		fm.newVar()
	}
	q := &depQuestion{units: units, fm: fm, sel: make([]int, len(units)), yOf: map[int32]int{}}
	for i, u := range units {
		q.sel[i] = fm.newVar()
		s := q.sel[i]
		if u.group < 0 {
			// y = x ⊕ s.
			xv, yv := q.x(int(u.v)), fm.newVar()
			q.yOf[u.v] = yv
			fm.add(-yv, xv, s)
			fm.add(-yv, -xv, -s)
			fm.add(yv, -xv, s)
			fm.add(yv, xv, -s)
			continue
		}
		// Unselected, the role does the same action in y; selected, any.
		g := &j.groups[u.group]
		ys := make([]int, len(g.members))
		for k, m := range g.members {
			ys[k] = fm.newVar()
			q.yOf[m] = ys[k]
			fm.add(s, -ys[k], q.x(int(m)))
			fm.add(s, ys[k], -q.x(int(m)))
		}
		fm.group(g, ys)
	}
	var fx, fy int
	if shared {
		roots := fm.sharedCones(cn, q.x, q.y)
		fx, fy = roots[0], roots[1]
		if fx == fy {
			q.none = true // the same literal: no candidate matters
			return q, nil
		}
	} else {
		fx, fy = fm.cone(cn, q.x), fm.cone(cn, q.y)
	}
	fm.add(fx, fy)
	fm.add(-fx, -fy)
	fm.groups(j, -1, nil)
	fm.what = fmt.Sprintf("finddep: cone of %d gates, %d inputs, %d candidates", len(cn.Gates), len(j.vars), len(units))
	return q, nil
}

// depWitnesses returns the witnesses of a model of q: walking from x to y
// one selected unit at a time, each change of f is a witness for its
// unit. active, when not nil, restricts the walk to the units i with
// active[i] > 0 and names unit i's witnesses input active[i]-1.
func (an *analysis) depWitnesses(f grounding.Lit, q *depQuestion, model []bool, active []int) ([]Witness, error) {
	j, cn, units := an.j, an.cn, q.units
	val := func(lit int) bool {
		if lit < 0 {
			return !model[-lit-1]
		}
		return model[lit-1]
	}
	// Points along the path: point 0 is x, point i+1 is point i with the
	// i-th selected unit switched to its value in y.
	nv := len(j.vars)
	var path []int // indices into units of the selected ones
	for i := range units {
		if val(q.sel[i]) && (active == nil || active[i] > 0) {
			path = append(path, i)
		}
	}
	npts := len(path) + 1
	w := (npts + 63) / 64
	vec := make([]uint64, nv*w)
	cur := make([]bool, nv)
	for v := range nv {
		cur[v] = val(q.x(v))
	}
	set := func(pt int) {
		for v, b := range cur {
			if b {
				vec[v*w+pt/64] |= 1 << (pt % 64)
			}
		}
	}
	set(0)
	for pi, i := range path {
		u := units[i]
		if u.group < 0 {
			cur[u.v] = val(q.y(int(u.v)))
		} else {
			for _, m := range j.groups[u.group].members {
				cur[m] = val(q.y(int(m)))
			}
		}
		set(pi + 1)
	}
	out, _ := cn.Simulate(w, func(k int) []uint64 { return vec[k*w : (k+1)*w] }, nil, nil)
	bit := func(pt int) bool { return out[pt/64]>>(pt%64)&1 == 1 }
	var ws []Witness
	for pi := range path {
		if bit(pi) == bit(pi+1) {
			continue
		}
		wt := Witness{Input: units[path[pi]].input}
		if active != nil {
			wt.Input = active[path[pi]] - 1
		}
		for k, in := range cn.Inputs {
			if vec[k*w+pi/64]>>(pi%64)&1 == 1 {
				wt.Point = append(wt.Point, int(in))
			}
		}
		ws = append(ws, wt)
	}
	if len(ws) == 0 {
		return nil, fmt.Errorf("satcheck: internal error: the dependence model of literal %d does not change it along its path", f)
	}
	return ws, nil
}
