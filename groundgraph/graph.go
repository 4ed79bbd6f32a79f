package groundgraph

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// Kind says what a vertex stands for.
type Kind uint8

// Kinds of vertices. A Graph numbers its Prop, Action, Role, Goal and
// Terminal vertices first, in this order; Interaction and Corner vertices
// follow, function by function.
const (
	// Prop is a state proposition p: "true p" merged with "next p".
	Prop Kind = iota
	// Action is an action a of a role r: "does r a" merged with "legal r a".
	Action
	// Role is a role.
	Role
	// Goal is the function "goal r n" of a role r and a utility n (only for
	// goal functions that are not constantly false).
	Goal
	// Terminal is the function "terminal".
	Terminal
	// Interaction is a pair of semantic propositions of one function whose
	// second derivative is not zero: the pair interacts in the function.
	Interaction
	// Corner is a corner of a function: a locally minimal set of
	// propositions whose flip from the all-false (or all-true) state changes
	// it. Arcs p → c for its propositions, c → the function.
	Corner
	// Influence is the set of a tabled function's semantic inputs that share
	// one influence value (Value), when the function's inputs have several:
	// it labels the dependency arcs by influence. Arcs u → i for its inputs,
	// i → the function.
	Influence
	// CornerPair is a pair of propositions of a function with too many
	// corners from an anchor (Corner: 0 all false, 1 all true) to list,
	// that share Value of them. Arcs p → c, q → c, c → the function.
	CornerPair
	// ActionClass is a class of the actions of a role (Role) with equal
	// cofactors in a next function that has no table (Value: its size).
	// Arcs a → c for its actions, c → the function.
	ActionClass
	// CornerBreakers is the set of breakers of a Corner (Corner: its index
	// in the function's Corners): the propositions whose flip on top of
	// the corner gives the function its anchor value back. Arcs q → b for
	// its propositions, b → the corner.
	CornerBreakers
	// JointMove is a legal joint move of the initial state of a game of
	// two roles that both have a choice there (joint.go): Pair holds its
	// two action vertices, the one of role 0 first. Its colour is the
	// outcome seen from each of them; arcs from the action with the
	// smaller view to it and from it to the other (from both when the
	// views are equal).
	JointMove
	// Play is a two-move play from the initial state of a game where one
	// role moves at a time (plays.go): Pair holds the action vertices of
	// its first and its second move. Its colour is the play's outcome;
	// arcs from the first move to it and from it to the second.
	Play
)

// NumKinds is the number of vertex kinds.
const NumKinds = int(Play) + 1

var kindNames = [NumKinds]string{"prop", "action", "role", "goal", "terminal", "interaction", "corner", "influence", "corner-pair", "action-class", "corner-breakers", "joint-move", "play"}

// String returns the kind's name as written by WriteJSON: "prop", "action",
// "role", "goal", "terminal", "interaction", "corner", "influence",
// "corner-pair", "action-class", "corner-breakers" or "joint-move".
func (k Kind) String() string {
	if int(k) < NumKinds {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Vertex is what one vertex of a Graph stands for.
type Vertex struct {
	Kind Kind
	// Role is the role id of an Action, Role or Goal vertex, -1 otherwise.
	Role int
	// Index is the proposition id of a Prop, the action id (within its role)
	// of an Action, the position in Program.Goals[Role] of a Goal, and the
	// index in Graph.Functions of an Interaction's, a Corner's or an
	// Influence's function; -1
	// otherwise.
	Index int
	// Value is the utility of a Goal, the influence of an Influence and the
	// number of shared corners of a CornerPair.
	Value int
	// Pair holds the two proposition vertices of an Interaction (ascending)
	// or a CornerPair.
	Pair [2]int
	// Corner is the index of a Corner vertex's set in the Corners of its
	// function (Graph.Functions()[Index].Corners), and the anchor of a
	// CornerPair (0: all false, 1: all true).
	Corner int
}

// Graph is the coloured ground graph of a Program (see the package
// documentation). It satisfies isomorph.Digraph. It is immutable once built
// and safe for concurrent reads.
type Graph struct {
	prog      *grounding.Program
	verts     []Vertex
	out       [][]int32
	colors    []int32 // final colours (semantic colours refined to stability)
	semColors []int32 // semantic colours before refinement
	funcs     []FuncFeatures
	nEdges    int

	actionBase []int // actionBase[r]: vertex of action 0 of role r
	roleBase   int
	goalVertex []map[int]int // goalVertex[r][value]
	terminal   int
	stats      Stats
}

var _ isomorph.Digraph = (*Graph)(nil)

// Order returns the number of vertices.
func (g *Graph) Order() int { return len(g.verts) }

// Color returns the colour of vertex v: a hash of its semantic features,
// refined by its neighbourhood until the colour classes are stable. Equal
// features give equal colours in every game, so colours of two graphs can be
// compared directly.
func (g *Graph) Color(v int) int32 { return g.colors[v] }

// SemanticColor returns the colour of vertex v computed from its own
// semantic features only, before the neighbourhood refinement that Color
// applies. It is what the heuristic grouping alone tells apart.
func (g *Graph) SemanticColor(v int) int32 { return g.semColors[v] }

// Preferred leaves the action vertices to the last (isomorph.Preferrer):
// every graph search individualizes the cells of the other vertices first.
// Actions are often many and alike (factoringTypedefDestruct's 4,096
// presses, many with one effect) and are fixed by refinement once the
// propositions they set have images; individualized first, they made the
// search's effort depend on how the second game numbered them. Preferring
// propositions only was worse: queens6's search needs its corner pairs.
// Joint moves (joint.go) and plays (plays.go) are left to the last with
// the actions: each stands for two of them.
func (g *Graph) Preferred(v int) bool {
	k := g.verts[v].Kind
	return k != Action && k != JointMove && k != Play
}

// Out returns the out-neighbours of v, ascending. The slice must not be
// modified.
func (g *Graph) Out(v int) []int32 { return g.out[v] }

// Vertex returns what vertex v stands for.
func (g *Graph) Vertex(v int) Vertex { return g.verts[v] }

// Program returns the program the graph was built from.
func (g *Graph) Program() *grounding.Program { return g.prog }

// Stats returns the size of the graph and the work Build spent on it.
func (g *Graph) Stats() Stats { return g.stats }

// Functions returns the features of every reasoning function that Build
// analysed, in the order of grounding.Program.Functions (next functions are
// left out when some role has no action, see the package documentation).
// The slice must not be modified.
func (g *Graph) Functions() []FuncFeatures { return g.funcs }

// PropVertex returns the vertex of proposition p.
func (g *Graph) PropVertex(p int) int { return p }

// ActionVertex returns the vertex of action a of role r.
func (g *Graph) ActionVertex(r, a int) int { return g.actionBase[r] + a }

// RoleVertex returns the vertex of role r.
func (g *Graph) RoleVertex(r int) int { return g.roleBase + r }

// GoalVertex returns the vertex of goal value `value` of role r, if the goal
// function exists and is not constantly false.
func (g *Graph) GoalVertex(r, value int) (int, bool) {
	v, ok := g.goalVertex[r][value]
	return v, ok
}

// TerminalVertex returns the vertex of the terminal function.
func (g *Graph) TerminalVertex() int { return g.terminal }

// Label renders vertex v in KIF: the proposition "(cell 1 1 b)", the move
// "(does xplayer (mark 1 1))", the role "xplayer", "(goal xplayer 100)",
// "terminal", "(interaction F P Q)" for the function F and its
// propositions P and Q, or "(corner F from-false P...)" (from-true) for a
// corner of F.
func (g *Graph) Label(v int) string {
	x := g.verts[v]
	p := g.prog
	switch x.Kind {
	case Prop:
		return p.Props[x.Index]
	case Action:
		return fmt.Sprintf("(does %s %s)", p.Roles[x.Role], p.Actions[x.Role][x.Index])
	case Role:
		return p.Roles[x.Role]
	case Goal:
		return fmt.Sprintf("(goal %s %d)", p.Roles[x.Role], x.Value)
	case Terminal:
		return "terminal"
	case Interaction:
		f := g.funcs[x.Index].Function
		return fmt.Sprintf("(interaction %s %s %s)", p.FunctionName(f), g.Label(x.Pair[0]), g.Label(x.Pair[1]))
	case Corner:
		ff := &g.funcs[x.Index]
		t := ff.Corners[x.Corner]
		var b strings.Builder
		fmt.Fprintf(&b, "(corner %s from-%t", p.FunctionName(ff.Function), t.FromTrue)
		for _, q := range t.Props {
			b.WriteByte(' ')
			b.WriteString(p.Props[q])
		}
		// A cofactor's corner: the joint move, each role's class by its
		// first action and size.
		for ri, ci := range t.Classes {
			first, size := classFirst(ff, ri, ci)
			r := ff.roles[ri]
			fmt.Fprintf(&b, " under (does %s %s)×%d", p.Roles[r], p.Actions[r][first], size)
		}
		b.WriteByte(')')
		return b.String()
	case Influence:
		return fmt.Sprintf("(influence %s %d)", p.FunctionName(g.funcs[x.Index].Function), x.Value)
	case ActionClass:
		return fmt.Sprintf("(action-class %s %s %d)", p.FunctionName(g.funcs[x.Index].Function), g.Label(x.Pair[0]), x.Value)
	case CornerBreakers:
		ff := &g.funcs[x.Index]
		t := ff.Corners[x.Corner]
		var b strings.Builder
		fmt.Fprintf(&b, "(breakers %s from-%t", p.FunctionName(ff.Function), t.FromTrue)
		for _, q := range t.Props {
			b.WriteByte(' ')
			b.WriteString(p.Props[q])
		}
		b.WriteString(" :")
		for _, q := range t.Breakers {
			b.WriteByte(' ')
			b.WriteString(p.Props[q])
		}
		b.WriteByte(')')
		return b.String()
	case JointMove:
		return fmt.Sprintf("(joint-move %s %s)", g.Label(x.Pair[0]), g.Label(x.Pair[1]))
	case Play:
		return fmt.Sprintf("(play %s %s)", g.Label(x.Pair[0]), g.Label(x.Pair[1]))
	case CornerPair:
		return fmt.Sprintf("(corner-pair %s from-%t %s %s %d)", p.FunctionName(g.funcs[x.Index].Function), x.Corner == 1, g.Label(x.Pair[0]), g.Label(x.Pair[1]), x.Value)
	}
	return "?"
}

// FunctionVertex returns the vertex that stands for reasoning function f:
// p's vertex for next(p), (r,a)'s vertex for legal(r,a), the goal or the
// terminal vertex; false for a constantly false goal, which has none.
func (g *Graph) FunctionVertex(f grounding.Function) (int, bool) {
	switch f.Kind {
	case grounding.FuncNext:
		return g.PropVertex(f.Index), true
	case grounding.FuncLegal:
		return g.ActionVertex(f.Role, f.Index), true
	case grounding.FuncGoal:
		return g.GoalVertex(f.Role, f.Index)
	}
	return g.terminal, true
}

// ErrNotGameMapping is matched by Mapping's error for a graph isomorphism
// that maps the actions of one role onto actions of a role other than the
// image of that role: a graph isomorphism the game cannot have.
var ErrNotGameMapping = errors.New("groundgraph: not a game mapping")

// Mapping turns an isomorphism m from g to h (as found by isomorph.Find,
// All or Search on the two graphs) into the candidate equivalence it
// induces: roles, propositions and each role's actions of g's program onto
// h's. It returns an error if m does not map every role, proposition and
// action vertex onto a vertex of the same kind.
func (g *Graph) Mapping(h *Graph, m isomorph.Mapping) (satcheck.Mapping, error) {
	var sm satcheck.Mapping
	if len(m) != len(g.verts) {
		return sm, fmt.Errorf("groundgraph: mapping has %d vertices, graph %d", len(m), len(g.verts))
	}
	img := func(v int, k Kind) (Vertex, error) {
		w := int(m[v])
		if w < 0 || w >= len(h.verts) || h.verts[w].Kind != k {
			return Vertex{}, fmt.Errorf("groundgraph: vertex %d (%s) maps to %d, not a %s vertex", v, g.Label(v), w, k)
		}
		return h.verts[w], nil
	}
	p := g.prog
	sm.Roles = make([]int, len(p.Roles))
	for r := range p.Roles {
		x, err := img(g.RoleVertex(r), Role)
		if err != nil {
			return sm, err
		}
		sm.Roles[r] = x.Role
	}
	sm.Props = make([]int, len(p.Props))
	for i := range p.Props {
		x, err := img(g.PropVertex(i), Prop)
		if err != nil {
			return sm, err
		}
		sm.Props[i] = x.Index
	}
	sm.Actions = make([][]int, len(p.Roles))
	for r, as := range p.Actions {
		sm.Actions[r] = make([]int, len(as))
		for a := range as {
			x, err := img(g.ActionVertex(r, a), Action)
			if err != nil {
				return sm, err
			}
			if x.Role != sm.Roles[r] {
				return sm, fmt.Errorf("%w: action %s maps to an action of role %d, not of the image %d of its role", ErrNotGameMapping, g.Label(g.ActionVertex(r, a)), x.Role, sm.Roles[r])
			}
			sm.Actions[r][a] = x.Index
		}
	}
	return sm, nil
}
