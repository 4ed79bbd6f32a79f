package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gamequiv/gamequiv/grounding"
)

func init() {
	register("replay", "play joint moves read from stdin; print every state", runReplay)
}

// replayState is one line of `gamequiv replay` output.
type replayState struct {
	State    []string            `json:"state"`
	Terminal bool                `json:"terminal"`
	Goals    map[string]*int     `json:"goals"`
	Legal    map[string][]string `json:"legal"`
}

// maxReplayLine bounds one line of joint-move input.
const maxReplayLine = 1 << 20

func runReplay(ctx context.Context, args []string, io stdio) int {
	fs := newFlags("replay", "GAME < moves", io)
	fs.Bool("json", true, "print JSON (the only output format of replay)")
	lim := groundFlags(fs)
	pos, code, ok := parseArgs(fs, args, 1, 1)
	if !ok {
		return code
	}
	p, err := loadGame(ctx, pos[0], *lim, io.err)
	if err != nil {
		return fail(io, err)
	}
	sim := grounding.NewSim(p)
	enc := json.NewEncoder(io.out)
	enc.SetEscapeHTML(false)
	emit := func() error { return enc.Encode(describeState(p, sim)) }
	if err := emit(); err != nil {
		return fail(io, err)
	}
	sc := bufio.NewScanner(io.in)
	sc.Buffer(make([]byte, 64<<10), maxReplayLine)
	for line := 1; sc.Scan(); line++ {
		if err := ctx.Err(); err != nil {
			return fail(io, err)
		}
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		moves, err := jointMove(p, sim, text)
		if err != nil {
			return fail(io, fmt.Errorf("stdin:%d: %w", line, err))
		}
		sim.Step(moves)
		if err := emit(); err != nil {
			return fail(io, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fail(io, fmt.Errorf("stdin: %w: %w", errInvalidInput, err))
	}
	return exitOK
}

// jointMove decodes one JSON array of moves (one per role, in role order) and
// checks that each is legal in the current state.
func jointMove(p *grounding.Program, sim *grounding.Sim, text string) ([]int, error) {
	if sim.Terminal() {
		return nil, fmt.Errorf("%w: the game is over (terminal state)", errInvalidInput)
	}
	var raw []string
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, fmt.Errorf("%w: want a JSON array of move strings: %v", errInvalidInput, err)
	}
	if len(raw) != len(p.Roles) {
		return nil, fmt.Errorf("%w: want %d moves (roles %s), got %d", errInvalidInput, len(p.Roles), strings.Join(p.Roles, ", "), len(raw))
	}
	moves := make([]int, len(raw))
	for r, m := range raw {
		name, err := grounding.CanonicalTerm(m)
		if err != nil {
			return nil, fmt.Errorf("%w: move %q of %s: %v", errInvalidInput, m, p.Roles[r], err)
		}
		a, ok := p.ActionID(r, name)
		if !ok || !sim.IsLegal(r, a) {
			return nil, fmt.Errorf("%w: move %s is not legal for %s", errInvalidInput, name, p.Roles[r])
		}
		moves[r] = a
	}
	return moves, nil
}

func describeState(p *grounding.Program, sim *grounding.Sim) replayState {
	st := replayState{
		State:    sim.StateProps(),
		Terminal: sim.Terminal(),
		Goals:    map[string]*int{},
		Legal:    map[string][]string{},
	}
	if st.State == nil {
		st.State = []string{}
	}
	for r, role := range p.Roles {
		// A well-formed game has exactly one goal value per role where it is
		// defined; with several, the highest is reported.
		if gs := sim.Goals(r); len(gs) > 0 {
			v := gs[len(gs)-1]
			st.Goals[role] = &v
		} else {
			st.Goals[role] = nil
		}
		legal := []string{}
		for _, a := range sim.Legal(r) {
			legal = append(legal, p.Actions[r][a])
		}
		st.Legal[role] = legal
	}
	return st
}
