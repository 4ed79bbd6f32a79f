package equiv

import (
	"context"
	"errors"

	"github.com/gamequiv/gamequiv/grounding"
)

// The joint probe check is the probe check of a two-role game whose
// two-move plays have no default action to pair with (probes.go): the
// graph group of a simultaneous game such as colonelBlotto fixes no action
// and exchanges the roles. It plays, from the initial state, the joint move
// of x (an action of one role) and y (of the other) and records its outcome
// seen from x's role: terminal, x's role's goals and number of legal
// actions, then the other role's, and the number of propositions true. A
// verified mapping σ maps the roles onto the roles (exchanged or not), A's
// initial state onto B's, and commutes with the next functions, so the
// joint move (σx, σy) of B reaches the image of the state (x, y) reaches in
// A, and its outcome seen from σx's role is that of (x, y) seen from x's.
// The outcomes thus colour the edges of a complete bipartite graph between
// the two roles' actions that σ maps onto B's, whichever way it maps the
// roles; colour refinement on it (no role tags: a role may go to the
// other) tells actions apart by how they fare against each other
// (colonelBlotto: the troop triples by the scores they get).

// errNotTwoRoles: the joint moves need two roles on both sides.
var errNotTwoRoles = errors.New("joint probe: not two roles")

// jointWork is the cost of computing every joint move's outcome of one
// side, in word operations (probeWork's terms): two evaluations of the
// circuit per word of plays and the outcome's literals read twice (one
// hash per role's view).
func jointWork(p *grounding.Program) int64 {
	if len(p.Roles) != 2 {
		return 0 // computeJoint refuses it
	}
	const batch = 64 * probeWords
	n := int64(len(p.Actions[0])) * int64(len(p.Actions[1]))
	lits := int64(len(p.Actions[0])+len(p.Actions[1])+len(p.Goals[0])+len(p.Goals[1])+len(p.Props)) + 1
	words := (n + batch - 1) / batch * probeWords
	return words * (2*int64(p.Circuit.NumNodes()) + 8*lits)
}

// computeJoint plays every joint move of the two roles from the initial
// state: rel[0][x*n1+y] is the outcome of (x of role 0, y of role 1) seen
// from role 0, rel[1][y*n0+x] the same play seen from role 1. It stops
// with ctx's error.
func (ps *probeSide) computeJoint(ctx context.Context) error {
	const w = probeWords
	p := ps.p
	if len(p.Roles) != 2 {
		return errNotTwoRoles
	}
	n0, n1 := len(p.Actions[0]), len(p.Actions[1])
	ps.rel = [][]uint64{make([]uint64, n0*n1), make([]uint64, n1*n0)}
	ps.vals = make([]uint64, p.Circuit.NumNodes()*w)
	vals := ps.vals
	nProps := len(p.Props)
	doesBase := (nProps + 1) * w
	doesEnd := (p.NumInputs() + 1) * w
	for start := 0; start < n0*n1; start += 64 * w {
		if err := ctx.Err(); err != nil {
			return err
		}
		lanes := min(64*w, n0*n1-start)
		loadInitial(p, vals, w)
		for l := range lanes {
			j, bit := l/64, uint64(1)<<(l%64)
			x, y := (start+l)/n1, (start+l)%n1
			vals[p.DoesInput(0, x).Node()*w+j] |= bit
			vals[p.DoesInput(1, y).Node()*w+j] |= bit
		}
		ps.advance(vals, w)
		clear(vals[doesBase:doesEnd])
		p.Circuit.EvalWords(vals, w)
		for self := range 2 {
			// outcomes hashes the roles in byKey's order under their
			// keys: the viewing role first.
			ps.key = []uint64{1, 1}
			ps.key[1-self] = 2
			ps.byKey = []int{self, 1 - self}
			out := ps.outcomes(vals, w, lanes)
			for l, o := range out {
				x, y := (start+l)/n1, (start+l)%n1
				if self == 0 {
					ps.rel[0][x*n1+y] = o
				} else {
					ps.rel[1][y*n0+x] = o
				}
			}
		}
	}
	ps.vals, ps.buf, ps.planes, ps.key, ps.byKey = nil, nil, nil, nil, nil
	return nil
}

// refineJoint is refine on the joint moves' bipartite graph: an action's
// colour is its cell's, then the sum over the other role's actions y of
// the outcome against y with y's colour. Nothing depends on the roles'
// numbering, so A's and B's sums agree under a mapping that exchanges
// them.
func (ps *probeSide) refineJoint(want []uint64) []uint64 {
	g := ps.g.g
	for r := range 2 {
		for x := range ps.col[r] {
			ps.col[r][x] = mix(uint64(ps.cells[g.ActionVertex(r, x)])<<8 ^ 0x1f)
		}
	}
	var sums []uint64
	for round := range probeRounds {
		var sum uint64
		for r := range 2 {
			col, nxt, rel, oc := ps.col[r], ps.nxt[r], ps.rel[r], ps.col[1-r]
			no := len(oc)
			for x := range col {
				h := mix(col[x] ^ 0x5851f42d4c957f2d)
				for y, o := range rel[x*no : (x+1)*no] {
					h += mix(o ^ oc[y]*0x9e3779b97f4a7c15)
				}
				nxt[x] = mix(h)
				sum += mix(nxt[x] ^ 0x2545f4914f6cdd1d)
			}
		}
		ps.col[0], ps.nxt[0] = ps.nxt[0], ps.col[0]
		ps.col[1], ps.nxt[1] = ps.nxt[1], ps.col[1]
		if want != nil && sum != want[round] {
			return nil
		}
		sums = append(sums, sum)
	}
	return sums
}

// rejectsJoint reports whether a complete mapping (role: the image of each
// of A's roles; act(r, x): the image of action x of role r, in role(r))
// fails to map A's joint outcomes onto B's.
func (c *probeCheck) rejectsJoint(role func(r int) int, act func(r, x int) int) bool {
	for r := range 2 {
		rb, ob := role(r), role(1-r)
		if rb == ob || rb < 0 || ob < 0 || rb > 1 || ob > 1 {
			return false // mixes roles: verify reports it
		}
		ra, rbRel := c.a.rel[r], c.b.rel[rb]
		no, nbo := len(c.a.p.Actions[1-r]), len(c.b.p.Actions[ob])
		for x := range len(c.a.p.Actions[r]) {
			sx := act(r, x)
			for y := range no {
				if ra[x*no+y] != rbRel[sx*nbo+act(1-r, y)] {
					return true
				}
			}
		}
	}
	return false
}
