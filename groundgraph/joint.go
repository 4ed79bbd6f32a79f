package groundgraph

import (
	"context"
	"math/bits"

	"github.com/gamequiv/gamequiv/grounding"
)

// Joint moves. The graph sees each action through the functions that read
// it, one at a time; in a simultaneous game of two roles what tells the
// actions apart is often how they fare against each other (colonelBlotto:
// a troop triple by the scores it gets against each other triple), which
// no single function shows until the search has mapped every action it
// reads. So a game of two roles that both have a choice in the initial
// state gets one JointMove vertex per legal joint move there, (x of one
// role, y of the other), coloured by the outcome of playing it: the
// successor state seen through the functions every game mapping preserves
// (terminal, the goals true and the number of legal actions of the role
// whose view it is, then of the other role, and the number of
// propositions true), once from x's role and once from y's.
//
// An SCGE σ maps the roles onto the roles (exchanged or not), A's initial
// state onto B's, the legal functions onto the legal functions and the
// next functions onto the next functions for every joint move (legal or
// not), so (σx, σy) is a legal joint move of B's initial state whose
// outcome seen from σx's role is that of (x, y) seen from x's. The vertex
// carries both views without saying which role is which: its colour is
// the pair of views in increasing order, and the arcs say which action
// has which view (the action with the smaller view points to the vertex,
// the vertex points to the other; two arcs into the vertex when the views
// are equal). So σ extended to the joint moves is an isomorphism of the
// two graphs, whichever way it maps the roles: the construction stays an
// invariant of every SCGE, and the graph group becomes that of the ground
// graph and of the joint outcomes together.
//
// Only games whose two roles both have at least two legal actions in the
// initial state get them (a turn-taking game's first move is one role's,
// which the probe check of equiv plays), and only when the legal joint
// moves are at most Options.MaxJointMoves; both are properties every SCGE
// preserves, so two equivalent games are always treated alike.

// DefaultMaxJointMoves: up to 16,384 legal joint moves in the initial
// state (colonelBlotto has 66×66 = 4,356).
const DefaultMaxJointMoves = 1 << 14

// jointWords is the number of 64-bit words of joint moves per evaluation
// of the circuit.
const jointWords = 4

// jointMove is one legal joint move of the initial state: x of role 0, y
// of role 1, and its outcome seen from each role.
type jointMove struct {
	x, y int
	view [2]uint64
}

// jointMoves plays every legal joint move of the initial state of a game
// of two roles that both have a choice there, when there are at most
// opt.MaxJointMoves of them; nil otherwise.
func (b *builder) jointMoves(ctx context.Context) ([]jointMove, error) {
	p := b.p
	if len(p.Roles) != 2 || b.opt.MaxJointMoves < 0 {
		return nil, nil
	}
	// Which game qualifies is told by one word a node (most two-role
	// games are turn-taking and do not): the batches' words come after.
	vals := make([]uint64, p.Circuit.NumNodes())
	loadInitialWords(p, vals, 1)
	p.Circuit.EvalWords(vals, 1)
	var legal [2][]int
	for r := range 2 {
		for a, l := range p.Legal[r] {
			if litLane(vals, 1, l, 0) {
				legal[r] = append(legal[r], a)
			}
		}
	}
	n0, n1 := len(legal[0]), len(legal[1])
	if n0 < 2 || n1 < 2 || n0*n1 > b.opt.MaxJointMoves {
		return nil, nil
	}
	const w = jointWords
	vals = make([]uint64, p.Circuit.NumNodes()*w)
	moves := make([]jointMove, n0*n1)
	for i := range moves {
		moves[i].x, moves[i].y = legal[0][i/n1], legal[1][i%n1]
	}
	var buf []uint64
	for start := 0; start < len(moves); start += 64 * w {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch := moves[start:min(start+64*w, len(moves))]
		loadInitialWords(p, vals, w)
		for l, m := range batch {
			j, bit := l/64, uint64(1)<<(l%64)
			vals[p.DoesInput(0, m.x).Node()*w+j] |= bit
			vals[p.DoesInput(1, m.y).Node()*w+j] |= bit
		}
		buf = successors(p, vals, w, buf)
		views := jointViews(p, vals, w, len(batch))
		for l := range batch {
			batch[l].view = [2]uint64{views[0][l], views[1][l]}
		}
	}
	return moves, nil
}

// jointViews hashes, per lane of the successor states in vals, the outcome
// seen from each role: terminal, the role's goal values that hold and its
// number of legal actions, the same of the other role, and the number of
// propositions true. Nothing in it names a role: the viewing role comes
// first.
func jointViews(p *grounding.Program, vals []uint64, w, n int) [2][]uint64 {
	o := outcomesOf(p, vals, w, n)
	var views [2][]uint64
	for r := range 2 {
		views[r] = make([]uint64, n)
		for lane := range n {
			h := newHasher(tagJointMove)
			h.add(o.terminalWord(lane))
			h.add(o.own[r][lane])
			h.add(o.own[1-r][lane])
			h.addInt(o.nProps[lane])
			views[r][lane] = h.sum()
		}
	}
	return views
}

// outcomes are the features of states, one a lane, that every game
// mapping preserves: whether the state is terminal, per role the goal
// values that hold and the number of legal actions (own[r][lane], a hash),
// and the number of propositions true.
type outcomes struct {
	terminal []bool
	own      [][]uint64
	nProps   []int64
}

func (o *outcomes) terminalWord(lane int) uint64 {
	if o.terminal[lane] {
		return 1
	}
	return 0
}

// outcomesOf reads the outcomes of the first n lanes of the states in
// vals, evaluated with no move made.
func outcomesOf(p *grounding.Program, vals []uint64, w, n int) *outcomes {
	var buf []uint64
	lanes := func(l grounding.Lit, fn func(lane int)) {
		buf = grounding.WordsOf(buf[:0], vals, w, l)
		for j, x := range buf {
			for x != 0 {
				if lane := j*64 + bits.TrailingZeros64(x); lane < n {
					fn(lane)
				}
				x &= x - 1
			}
		}
	}
	count := func(ls []grounding.Lit) []int64 {
		c := make([]int64, n)
		for _, l := range ls {
			lanes(l, func(lane int) { c[lane]++ })
		}
		return c
	}
	props := make([]grounding.Lit, len(p.Props))
	for i := range props {
		props[i] = p.TrueInput(i)
	}
	o := &outcomes{terminal: make([]bool, n), own: make([][]uint64, len(p.Roles)), nProps: count(props)}
	lanes(p.Terminal, func(lane int) { o.terminal[lane] = true })
	for r := range p.Roles {
		// The role's goal values that hold (a hash of the sorted values:
		// p.Goals[r] is sorted by value) and its legal actions.
		goals := make([]hasher, n)
		for i := range goals {
			goals[i] = newHasher(tagGoal)
		}
		for _, gl := range p.Goals[r] {
			lanes(gl.Lit, func(lane int) { goals[lane].addInt(int64(gl.Value)) })
		}
		nLegal := count(p.Legal[r])
		o.own[r] = make([]uint64, n)
		for lane := range n {
			goals[lane].addInt(nLegal[lane])
			o.own[r][lane] = goals[lane].sum()
		}
	}
	return o
}

// addJointMoves adds a JointMove vertex for each move, its arcs, and its
// colour's hash to inters (see the comment at the top of the file).
func addJointMoves(g *Graph, moves []jointMove, add func(Vertex) int, addArc func(u, v int), inter func(v int, h uint64)) {
	for _, m := range moves {
		ux, uy := g.ActionVertex(0, m.x), g.ActionVertex(1, m.y)
		v := add(Vertex{Kind: JointMove, Role: -1, Index: -1, Pair: [2]int{ux, uy}})
		lo, hi := m.view[0], m.view[1]
		switch {
		case lo < hi:
			addArc(ux, v)
			addArc(v, uy)
		case lo > hi:
			lo, hi = hi, lo
			addArc(uy, v)
			addArc(v, ux)
		default:
			addArc(ux, v)
			addArc(uy, v)
		}
		h := newHasher(tagJointMove)
		h.add(lo)
		h.add(hi)
		inter(v, h.sum())
	}
}

// loadInitialWords clears every input's words in vals (w words a node, as
// grounding.Circuit.EvalWords reads them) and sets the initial state's
// propositions in every lane.
func loadInitialWords(p *grounding.Program, vals []uint64, w int) {
	propBase := p.TrueInput(0).Node() * w
	clear(vals[propBase : (p.NumInputs()+1)*w])
	for _, q := range p.Init {
		for j := range w {
			vals[propBase+int(q)*w+j] = ^uint64(0)
		}
	}
}

// litLane reports literal l's value in lane of vals.
func litLane(vals []uint64, w int, l grounding.Lit, lane int) bool {
	x := vals[l.Node()*w+lane/64] >> (lane % 64) & 1
	return x^uint64(l&1) == 1
}
