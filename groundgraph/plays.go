package groundgraph

import (
	"context"

	"github.com/gamequiv/gamequiv/grounding"
)

// Two-move plays. In a game where one role moves at a time, what tells its
// actions apart is often how two moves combine, hidden inside one big
// function: in queens the goal counts the attacked queens over the whole
// board, so the graph sees each placement alike (its group is S100 on the
// cells of the 10x10 board) while how two placements stand to each other
// (attacking or not) is visible only after both are played. So such a game
// gets one Play vertex per two-move play from the initial state: the role
// that has a choice there does x, the role that has a choice in the state
// reached does y (every other role doing its only legal action, both
// times), coloured by the outcome of the play: the state reached seen
// through the functions every game mapping preserves (terminal, the goal
// values that hold and the number of legal actions of x's role, then of
// y's role, the multiset of those of the other roles, and the number of
// propositions true). Arcs x → play → y.
//
// An SCGE σ maps the initial state onto the initial state, the legal
// functions onto the legal functions (so a role's only legal action onto
// its image's only legal action) and commutes with the next functions, so
// (σx, σy) is a play of B whose outcome is that of (x, y): σ extended to
// the plays is an isomorphism of the graphs. Which states qualify (exactly
// one role with two legal actions or more, every other role with exactly
// one; not terminal) and the number of plays are kept by every SCGE, so
// two equivalent games are always treated alike: a game gets plays when it
// has at most Options.MaxJointMoves of them, and is not one of the games
// that get joint moves (joint.go).

// play is one two-move play: action x of role rx, then y of role ry.
type play struct {
	rx, x, ry, y int
	view         uint64
}

// chooser is, in one state, the role that has a choice and the only legal
// action of every other role (-1 for the chooser), or ok false when the
// state does not qualify.
type chooser struct {
	role  int
	only  []int
	legal []int // the chooser's legal actions
}

// chooserOf reads the chooser of lane of the states evaluated in vals
// (w words a node, no move made); nil when the state is terminal or not
// exactly one role has a choice while every other role has exactly one
// legal action.
func chooserOf(p *grounding.Program, vals []uint64, w, lane int) *chooser {
	if litLane(vals, w, p.Terminal, lane) {
		return nil
	}
	c := &chooser{role: -1, only: make([]int, len(p.Roles))}
	for r := range p.Roles {
		var legal []int
		for a, l := range p.Legal[r] {
			if litLane(vals, w, l, lane) {
				legal = append(legal, a)
			}
		}
		switch {
		case len(legal) == 0:
			return nil
		case len(legal) == 1:
			c.only[r] = legal[0]
		case c.role >= 0:
			return nil
		default:
			c.role, c.legal, c.only[r] = r, legal, -1
		}
	}
	if c.role < 0 {
		return nil
	}
	return c
}

// setMoves sets, in lane of vals, the joint move where the chooser does a
// and every other role its only legal action.
func (c *chooser) setMoves(p *grounding.Program, vals []uint64, w, lane, a int) {
	j, bit := lane/64, uint64(1)<<(lane%64)
	for r, only := range c.only {
		if r == c.role {
			only = a
		}
		vals[p.DoesInput(r, only).Node()*w+j] |= bit
	}
}

// plays returns every two-move play from the initial state with its
// outcome, when the initial state qualifies, the game does not get joint
// moves, and there are at most opt.MaxJointMoves plays; nil otherwise.
func (b *builder) plays(ctx context.Context) ([]play, error) {
	p := b.p
	if b.opt.MaxJointMoves < 0 || len(p.Props) == 0 {
		return nil, nil
	}
	vals := make([]uint64, p.Circuit.NumNodes())
	loadInitialWords(p, vals, 1)
	p.Circuit.EvalWords(vals, 1)
	first := chooserOf(p, vals, 1, 0)
	if first == nil || len(first.legal) > b.opt.MaxJointMoves {
		return nil, nil
	}
	// Words per evaluation: up to jointWords, as few as the plays need
	// (a board game's first moves fit one word).
	words := func(n int) int { return min(jointWords, (n+63)/64) }
	w := words(len(first.legal))
	batch := 64 * w
	vals = make([]uint64, p.Circuit.NumNodes()*w)
	// The second move's chooser after each first move.
	seconds := make([]*chooser, len(first.legal))
	total := 0
	var buf []uint64
	for start := 0; start < len(first.legal); start += batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		xs := first.legal[start:min(start+batch, len(first.legal))]
		loadInitialWords(p, vals, w)
		for l, x := range xs {
			first.setMoves(p, vals, w, l, x)
		}
		buf = successors(p, vals, w, buf)
		for l := range xs {
			c := chooserOf(p, vals, w, l)
			seconds[start+l] = c
			if c != nil {
				total += len(c.legal)
			}
		}
		if total > b.opt.MaxJointMoves {
			return nil, nil
		}
	}
	if total == 0 {
		return nil, nil
	}
	plays := make([]play, 0, total)
	owner := make([]*chooser, 0, total) // the second move's chooser of each play
	for i, c := range seconds {
		if c == nil {
			continue
		}
		for _, y := range c.legal {
			plays = append(plays, play{rx: first.role, x: first.legal[i], ry: c.role, y: y})
			owner = append(owner, c)
		}
	}
	// The plays in batches: lane l of a batch plays its first move, then
	// its second, then reads the outcome.
	if w2 := words(total); w2 > w {
		w, batch = w2, 64*w2
		vals = make([]uint64, p.Circuit.NumNodes()*w)
	}
	for start := 0; start < len(plays); start += batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ps := plays[start:min(start+batch, len(plays))]
		loadInitialWords(p, vals, w)
		for l, pl := range ps {
			first.setMoves(p, vals, w, l, pl.x)
		}
		buf = successors(p, vals, w, buf)
		for l, pl := range ps {
			owner[start+l].setMoves(p, vals, w, l, pl.y)
		}
		buf = successors(p, vals, w, buf)
		o := outcomesOf(p, vals, w, len(ps))
		for l := range ps {
			ps[l].view = o.playView(ps[l].rx, ps[l].ry, l)
		}
	}
	return plays, nil
}

// successors evaluates the moves set in vals from the states set there,
// loads the successor states in their place with no move made, and
// evaluates them (buf is scratch, returned for reuse).
func successors(p *grounding.Program, vals []uint64, w int, buf []uint64) []uint64 {
	p.Circuit.EvalWords(vals, w)
	buf = buf[:0]
	for _, l := range p.Next {
		buf = grounding.WordsOf(buf, vals, w, l)
	}
	propBase := p.TrueInput(0).Node() * w
	clear(vals[propBase : (p.NumInputs()+1)*w])
	copy(vals[propBase:propBase+len(p.Props)*w], buf)
	p.Circuit.EvalWords(vals, w)
	return buf
}

// playView hashes the outcome of a play whose moves were role rx's and
// role ry's: the roles are named by the moves, the others by their
// outcomes only.
func (o *outcomes) playView(rx, ry, lane int) uint64 {
	h := newHasher(tagPlay)
	h.add(o.terminalWord(lane))
	h.add(o.own[rx][lane])
	h.add(o.own[ry][lane])
	if rx == ry {
		h.add(1)
	} else {
		h.add(0)
	}
	var others []uint64
	for r, own := range o.own {
		if r != rx && r != ry {
			others = append(others, own[lane])
		}
	}
	h.addMultiset(others)
	h.addInt(o.nProps[lane])
	return h.sum()
}

// addPlays adds a Play vertex for each play, its arcs x → play → y, and its
// colour's hash to inters.
func addPlays(g *Graph, plays []play, add func(Vertex) int, addArc func(u, v int), inter func(v int, h uint64)) {
	for _, pl := range plays {
		ux, uy := g.ActionVertex(pl.rx, pl.x), g.ActionVertex(pl.ry, pl.y)
		v := add(Vertex{Kind: Play, Role: -1, Index: -1, Pair: [2]int{ux, uy}})
		addArc(ux, v)
		addArc(v, uy)
		inter(v, pl.view)
	}
}
