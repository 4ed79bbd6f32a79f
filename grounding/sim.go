package grounding

// Sim evaluates a Program's circuit on states and joint moves. It reads the
// ground circuit only, never the rules, so it tests the grounding itself.
// A Sim is not safe for concurrent use; make one per goroutine.
type Sim struct {
	p     *Program
	in    []bool
	vals  []bool
	state []bool
}

// NewSim returns a simulator positioned at the initial state.
func NewSim(p *Program) *Sim {
	s := &Sim{p: p, in: make([]bool, p.NumInputs())}
	s.SetState(p.InitialState())
	return s
}

// InitialState returns the initial state as one bool per proposition.
func (p *Program) InitialState() []bool {
	st := make([]bool, len(p.Props))
	for _, q := range p.Init {
		st[q] = true
	}
	return st
}

// SetState moves the simulator to a state (one bool per proposition).
func (s *Sim) SetState(state []bool) {
	s.state = append(s.state[:0], state...)
	clear(s.in)
	copy(s.in, state)
	s.vals = s.p.Circuit.Eval(s.in, s.vals)
}

// State returns the current state (owned by the simulator; copy to keep).
func (s *Sim) State() []bool { return s.state }

// StateProps lists the propositions true in the current state, sorted by name.
func (s *Sim) StateProps() []string {
	var out []string
	for q, v := range s.state {
		if v {
			out = append(out, s.p.Props[q]) // Props are sorted, so out is too
		}
	}
	return out
}

// Terminal reports whether the current state is terminal.
func (s *Sim) Terminal() bool { return Value(s.vals, s.p.Terminal) }

// Legal lists the legal action ids of role r in the current state, ascending
// (so their names are sorted too).
func (s *Sim) Legal(r int) []int {
	var out []int
	for a, l := range s.p.Legal[r] {
		if Value(s.vals, l) {
			out = append(out, a)
		}
	}
	return out
}

// IsLegal reports whether action a of role r is legal in the current state.
func (s *Sim) IsLegal(r, a int) bool { return Value(s.vals, s.p.Legal[r][a]) }

// Goals lists the goal values of role r that hold in the current state.
func (s *Sim) Goals(r int) []int {
	var out []int
	for _, g := range s.p.Goals[r] {
		if Value(s.vals, g.Lit) {
			out = append(out, g.Value)
		}
	}
	return out
}

// Step applies a joint move (one action id per role) and moves to the successor state.
func (s *Sim) Step(moves []int) {
	clear(s.in)
	copy(s.in, s.state)
	for r, a := range moves {
		s.in[s.p.ActionInputBase(r)+a] = true
	}
	s.vals = s.p.Circuit.Eval(s.in, s.vals)
	next := make([]bool, len(s.p.Props))
	for q, l := range s.p.Next {
		next[q] = Value(s.vals, l)
	}
	s.SetState(next)
}
