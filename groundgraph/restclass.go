package groundgraph

import "slices"

// The implicit class of a role with many actions.
//
// Beyond Options.MaxClassActions, listing every class would cost a vertex
// arc per action and per next function (amazons: 130,000 moves times 300
// functions), though most moves are in one class, the moves that leave
// the function's cell alone. So for such a role the strictly largest class
// is kept only as its size and first action (restClass), and its vertex
// gets no arcs from its actions: an action of the role is in it exactly
// when it has no arc to another class of the function. Which class that is
// follows from the partition alone, so the graph stays invariant, and its
// automorphisms are those of the graph with every arc drawn. Its vertex
// has an arc from the role's vertex instead (else the implicit classes of
// two roles of one function could be swapped alone, an automorphism that
// moves nothing of the game), and the role's arcs to the function stay
// one role arc.

// restClass is the implicit class of one role of a function: size 0 when
// every class is listed.
type restClass struct {
	size, first int
}

// bigRole reports whether role r's classes may have an implicit class.
func (b *builder) bigRole(r int) bool {
	return len(b.p.Actions[r]) > b.opt.MaxClassActions
}

// setClasses stores cs as ff's action classes, moving the strictly
// largest class of each big role into ff.actRest.
func (b *builder) setClasses(ff *FuncFeatures, cs [][][]int) {
	ff.actClasses, ff.actRest = cs, nil
	for ri, r := range ff.roles {
		if !b.bigRole(r) || len(cs[ri]) < 2 || b.opt.listClasses {
			continue
		}
		big, n := -1, 0
		for ci, c := range cs[ri] {
			switch {
			case len(c) > n:
				big, n = ci, len(c)
			case len(c) == n:
				big = -1 // a tie: no class is the largest
			}
		}
		if big < 0 {
			continue
		}
		if ff.actRest == nil {
			ff.actRest = make([]restClass, len(ff.roles))
		}
		ff.actRest[ri] = restClass{size: n, first: cs[ri][big][0]}
		cs[ri] = slices.Delete(cs[ri], big, big+1)
	}
}

// numClasses returns the number of action classes of role ff.roles[ri],
// the implicit one included (it is the last, index len(actClasses[ri])).
func numClasses(ff *FuncFeatures, ri int) int {
	n := len(ff.actClasses[ri])
	if ff.hasRest(ri) {
		n++
	}
	return n
}

// hasRest reports whether role ff.roles[ri] has an implicit class.
func (ff *FuncFeatures) hasRest(ri int) bool {
	return ri < len(ff.actRest) && ff.actRest[ri].size > 0
}

// classFirst returns the first action and the size of class ci of role
// ff.roles[ri] (see numClasses).
func classFirst(ff *FuncFeatures, ri, ci int) (first, size int) {
	if ci == len(ff.actClasses[ri]) {
		return ff.actRest[ri].first, ff.actRest[ri].size
	}
	c := ff.actClasses[ri][ci]
	return c[0], len(c)
}
