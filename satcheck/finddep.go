package satcheck

import (
	"context"
	"fmt"

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
// fanout of the candidate inputs is encoded twice. The ground graph asks it
// for the inputs that simulation could not show to matter, usually few of
// a big cone, so the formula is a fraction of FindDependence's.
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
	j, cn := an.j, an.cn
	// The candidate units: free propositions and groups.
	type cand struct {
		input int   // the candidate input that stands for the unit
		v     int32 // free proposition variable, or -1
		group int32 // group, or -1
	}
	var units []cand
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
			units = append(units, cand{input: in, v: u.v, group: -1})
			continue
		}
		if seenGroup[u.group] || j.groups[u.group].radix() < 2 {
			continue
		}
		seenGroup[u.group] = true
		units = append(units, cand{input: in, v: -1, group: u.group})
	}
	if len(units) == 0 {
		return nil, nil
	}
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
	x := func(k int) int { return k + 2 }
	yOf := map[int32]int{} // joint variable -> its literal in y, when it may differ from x
	sel := make([]int, len(units))
	for i, u := range units {
		sel[i] = fm.newVar()
		s := sel[i]
		if u.group < 0 {
			// y = x ⊕ s.
			xv, yv := x(int(u.v)), fm.newVar()
			yOf[u.v] = yv
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
			yOf[m] = ys[k]
			fm.add(s, -ys[k], x(int(m)))
			fm.add(s, ys[k], -x(int(m)))
		}
		fm.group(g, ys)
	}
	y := func(k int) int {
		if l, ok := yOf[int32(k)]; ok {
			return l
		}
		return x(k)
	}
	var fx, fy int
	if shared {
		roots := fm.sharedCones(cn, x, y)
		fx, fy = roots[0], roots[1]
		if fx == fy {
			return nil, nil // the same literal: no candidate matters
		}
	} else {
		fx, fy = fm.cone(cn, x), fm.cone(cn, y)
	}
	fm.add(fx, fy)
	fm.add(-fx, -fy)
	fm.groups(j, -1, nil)
	fm.what = fmt.Sprintf("finddep: cone of %d gates, %d inputs, %d candidates", len(cn.Gates), len(j.vars), len(units))
	pool, _ := defaults()
	sat, model, err := pool.solve(ctx, fm)
	if err != nil || !sat {
		return nil, err
	}
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
		if val(sel[i]) {
			path = append(path, i)
		}
	}
	npts := len(path) + 1
	w := (npts + 63) / 64
	vec := make([]uint64, nv*w)
	cur := make([]bool, nv)
	for v := range nv {
		cur[v] = val(x(v))
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
			cur[u.v] = val(y(int(u.v)))
		} else {
			for _, m := range j.groups[u.group].members {
				cur[m] = val(y(int(m)))
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
