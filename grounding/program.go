package grounding

import (
	"fmt"
	"slices"
)

// Program is a ground game: the single structure that the graph, SAT and
// simulation code work on.
//
// Roles, state propositions and actions are dense integer ids; their names are
// canonical KIF strings (constants bare, compounds "(f a b)" with single spaces).
// Props and each role's Actions are sorted by byte order, so ids are canonical
// for a given game whatever the rule order of its description.
//
// Every reasoning function (legal, next, goal, terminal) is a literal of one
// shared circuit whose inputs are the propositions "true p" (input i = prop i)
// and the moves "does r a" (input NumProps + ActionOffset[r] + a).
type Program struct {
	Name     string
	Roles    []string   // in declaration order
	Props    []string   // state propositions P, sorted
	Actions  [][]string // Actions[r] = actions of role r, sorted
	Init     []int32    // propositions true in the initial state, sorted ids
	Circuit  Circuit
	Legal    [][]Lit  // Legal[r][a]: action a of role r is legal
	Next     []Lit    // Next[p]: proposition p holds in the successor state
	Goals    [][]Goal // Goals[r]: goal values of role r, sorted by Value
	Terminal Lit
	Warnings ErrorList // problems of the description that grounding worked around
	Notes    ErrorList // how valid but unusual forms were read (e.g. unbound role variables)

	actionOffset []int32 // actionOffset[r]: first does-input of role r, relative to NumProps
	propIndex    map[string]int32
	actionIndex  []map[string]int32
	roleIndex    map[string]int32
}

// Goal is one goal value of a role and the function that says it holds.
type Goal struct {
	Value int
	Lit   Lit
}

// NumInputs is the number of circuit inputs: one per proposition and one per action.
func (p *Program) NumInputs() int { return p.Circuit.NumInputs }

// TrueInput is the circuit literal of "true p".
func (p *Program) TrueInput(prop int) Lit { return InputLit(prop) }

// DoesInput is the circuit literal of "does r a".
func (p *Program) DoesInput(role, action int) Lit {
	return InputLit(len(p.Props) + int(p.actionOffset[role]) + action)
}

// InputOf says what circuit input i stands for: a proposition (role < 0, index
// = prop id) or an action (role >= 0, index = action id of that role).
func (p *Program) InputOf(i int) (role, index int) {
	if i < len(p.Props) {
		return -1, i
	}
	i -= len(p.Props)
	r, _ := slices.BinarySearch(p.actionOffset, int32(i)+1)
	r--
	return r, i - int(p.actionOffset[r])
}

// ActionInputBase returns the input index of the first action of role r.
func (p *Program) ActionInputBase(role int) int { return len(p.Props) + int(p.actionOffset[role]) }

// ActionInputBases returns the first circuit input of each role's actions,
// in role order, then the number of inputs: role r's actions are inputs
// bases[r] to bases[r+1]-1.
func (p *Program) ActionInputBases() []int32 {
	base := make([]int32, len(p.Actions)+1)
	n := int32(len(p.Props))
	for r, as := range p.Actions {
		base[r] = n
		n += int32(len(as))
	}
	base[len(p.Actions)] = n
	return base
}

// PropID returns the id of a proposition given its canonical KIF text.
func (p *Program) PropID(name string) (int, bool) {
	i, ok := p.propIndex[name]
	return int(i), ok
}

// RoleID returns the id of a role.
func (p *Program) RoleID(name string) (int, bool) {
	i, ok := p.roleIndex[name]
	return int(i), ok
}

// ActionID returns the id of an action of role r.
func (p *Program) ActionID(role int, name string) (int, bool) {
	i, ok := p.actionIndex[role][name]
	return int(i), ok
}

// FuncKind is the keyword of a reasoning function.
type FuncKind uint8

// Kinds of reasoning functions.
const (
	FuncLegal FuncKind = iota
	FuncNext
	FuncGoal
	FuncTerminal
)

func (k FuncKind) String() string {
	return [...]string{"legal", "next", "goal", "terminal"}[k]
}

// Function is one reasoning function of a Program.
type Function struct {
	Kind  FuncKind
	Role  int // legal, goal
	Index int // legal: action id; next: prop id; goal: value
	Lit   Lit
}

// Name renders the function as its keyword proposition, e.g. "(legal xplayer (mark 1 1))".
func (p *Program) FunctionName(f Function) string {
	switch f.Kind {
	case FuncLegal:
		return fmt.Sprintf("(legal %s %s)", p.Roles[f.Role], p.Actions[f.Role][f.Index])
	case FuncNext:
		return fmt.Sprintf("(next %s)", p.Props[f.Index])
	case FuncGoal:
		return fmt.Sprintf("(goal %s %d)", p.Roles[f.Role], f.Index)
	}
	return "terminal"
}

// Functions lists every reasoning function in a fixed order: legal (by role,
// action), next (by prop), goal (by role, value), terminal.
func (p *Program) Functions() []Function {
	fs := make([]Function, 0, p.NumFunctions())
	for r, ls := range p.Legal {
		for a, l := range ls {
			fs = append(fs, Function{Kind: FuncLegal, Role: r, Index: a, Lit: l})
		}
	}
	for q, l := range p.Next {
		fs = append(fs, Function{Kind: FuncNext, Index: q, Lit: l})
	}
	for r, gs := range p.Goals {
		for _, g := range gs {
			fs = append(fs, Function{Kind: FuncGoal, Role: r, Index: g.Value, Lit: g.Lit})
		}
	}
	return append(fs, Function{Kind: FuncTerminal, Lit: p.Terminal})
}

// NumFunctions counts the reasoning functions that Functions lists.
func (p *Program) NumFunctions() int {
	n := len(p.Next) + 1
	for r := range p.Legal {
		n += len(p.Legal[r]) + len(p.Goals[r])
	}
	return n
}

// index builds the name lookups and action offsets; called once by the grounder.
func (p *Program) index() {
	p.roleIndex = make(map[string]int32, len(p.Roles))
	for i, r := range p.Roles {
		p.roleIndex[r] = int32(i)
	}
	p.propIndex = make(map[string]int32, len(p.Props))
	for i, q := range p.Props {
		p.propIndex[q] = int32(i)
	}
	p.actionOffset = make([]int32, len(p.Roles))
	p.actionIndex = make([]map[string]int32, len(p.Roles))
	off := int32(0)
	for r, as := range p.Actions {
		p.actionOffset[r] = off
		off += int32(len(as))
		p.actionIndex[r] = make(map[string]int32, len(as))
		for i, a := range as {
			p.actionIndex[r][a] = int32(i)
		}
	}
}
