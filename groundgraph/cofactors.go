package groundgraph

import (
	"context"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// Cofactor corners: the corners of a next function under each kind of move.
//
// A next function that reads moves has no corners of its own: its value at
// a state depends on the joint move. But it has one function of the state
// per joint choice of action classes (see actions.go: every action of a
// class gives the same cofactor), and an SCGE maps the cofactor of classes
// c onto the cofactor of the image classes. So each cofactor's corners (and
// their breakers) are as invariant as a state function's, once they are tied
// to the classes that made them: a cofactor corner has arcs from the
// ActionClass vertices of its classes. In coloredtrails, "spot s holds
// colour c next" reads the accept move, the open offers and every spot's
// colour; only under "accept" do its corners pair each offered spot with
// that spot's colour, the pairing that tells the spots apart.

// DefaultMaxCornerCofactors: corners for the cofactors of a next function
// when it has at most 64 joint action classes.
const DefaultMaxCornerCofactors = 64

// cofactorCount returns the number of corner searches of one anchor that
// ff needs: 1 for a function of the state, the number of joint action
// classes for a next function without a table that reads moves (at most
// Options.MaxCornerCofactors), 0 when it gets no corners.
func (b *builder) cofactorCount(ff *FuncFeatures) int64 {
	if len(ff.roles) == 0 {
		return 1
	}
	if ff.Tabled || ff.Function.Kind != grounding.FuncNext || len(ff.actClasses) != len(ff.roles) {
		return 0
	}
	// Not for roles beyond Options.MaxClassActions: a corner search
	// evaluates the whole cone per point, and such a cone reads every move
	// (amazonsSuicide's 300 cells: 93 of 125 CPU s of the graph phase).
	if slices.ContainsFunc(ff.roles, b.bigRole) {
		return 0
	}
	n := int64(1)
	for ri := range ff.actClasses {
		n *= int64(numClasses(ff, ri))
		if n > int64(b.opt.MaxCornerCofactors) {
			return 0
		}
	}
	return n
}

// cofactors lists the joint action classes whose cofactors ff's corner
// search covers: {nil} for a function of the state, else every choice of
// one class index per role of ff.roles.
func cofactors(ff *FuncFeatures) [][]int {
	if len(ff.roles) == 0 {
		return [][]int{nil}
	}
	out := [][]int{make([]int, len(ff.roles))}
	for {
		next := slices.Clone(out[len(out)-1])
		ri := 0
		for ri < len(next) {
			next[ri]++
			if next[ri] < numClasses(ff, ri) {
				break
			}
			next[ri] = 0
			ri++
		}
		if ri == len(next) {
			return out
		}
		out = append(out, next)
	}
}

// cofactorInputs returns the cone input positions set to true for the
// joint move of a corner search: each role of ff.roles makes the first
// action of its class in classes, every other role its first action (ff
// does not depend on it, but a joint move has one action of each role).
// A chosen action the cone does not read sets nothing.
func (b *builder) cofactorInputs(ff *FuncFeatures, cn *cone, classes []int) []int {
	if ff.Function.Kind != grounding.FuncNext {
		return nil // functions of the state see no moves
	}
	var on []int
	for k, in := range cn.Inputs {
		if int(in) < len(b.p.Props) {
			continue
		}
		r, a := b.p.InputOf(int(in))
		want := 0
		if ri := slices.Index(ff.roles, r); ri >= 0 && classes != nil {
			want, _ = classFirst(ff, ri, classes[ri])
		}
		if a == want {
			on = append(on, k)
		}
	}
	return on
}

// cofactorCorners searches the cofactor corners of the next functions
// that read moves, have no table and still take part in symmetry in g,
// the graph built without them: those whose own vertex or some vertex of
// their support shares its colour with another vertex after refinement.
// Elsewhere the colours are already unique and the corners could split
// nothing. Colour refinement is canonical, so the choice is the same in
// both games of an SCGE. It reports whether it searched any (the graph
// must then be built again).
func (b *builder) cofactorCorners(ctx context.Context, g *Graph) (bool, error) {
	if b.opt.MaxCornerWeight < 0 || b.opt.MaxCornerCofactors < 0 {
		return false, nil
	}
	classSize := map[int32]int{}
	for v := range g.Order() {
		classSize[g.colors[v]]++
	}
	shared := func(v int) bool { return classSize[g.colors[v]] > 1 }
	var cand []int
	for i := range b.funcs {
		ff := &b.funcs[i]
		if len(ff.roles) == 0 || b.cofactorCount(ff) == 0 {
			continue
		}
		fv, ok := g.FunctionVertex(ff.Function)
		need := ok && shared(fv)
		for k := range ff.Support.Len() {
			in := ff.Support.At(k)
			if need {
				break
			}
			if in < len(b.p.Props) {
				need = shared(in)
			} else {
				r, a := b.p.InputOf(in)
				need = shared(g.ActionVertex(r, a))
			}
		}
		if need {
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 {
		return false, nil
	}
	if err := b.planCorners(ctx, cand); err != nil {
		return false, err
	}
	for _, i := range cand {
		if b.funcs[i].CornerRadius > 0 { // searched: its colour changes
			return true, nil
		}
	}
	return false, nil
}
