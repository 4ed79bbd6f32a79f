package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/service"
)

func init() {
	register("ground", "parse, validate and ground a game; print its size", runGround)
}

// groundReport is the --json output of `gamequiv ground`: the game's
// statistics as the server stores them, the time and the warnings.
type groundReport struct {
	gamequiv.GameStats
	Ms       float64  `json:"ms"`
	Warnings []string `json:"warnings,omitempty"`
}

func runGround(ctx context.Context, args []string, io stdio) int {
	fs := newFlags("ground", "GAME", io)
	asJSON := fs.Bool("json", false, "print JSON")
	lim := groundFlags(fs)
	pos, code, ok := parseArgs(fs, args, 1, 1)
	if !ok {
		return code
	}
	start := time.Now()
	p, err := loadGame(ctx, pos[0], *lim, io.err)
	if err != nil {
		return fail(io, err)
	}
	rep := groundReport{GameStats: service.StatsOf(p), Ms: ms(time.Since(start))}
	for _, w := range p.Warnings {
		rep.Warnings = append(rep.Warnings, w.Error())
	}
	if *asJSON {
		return writeJSON(io, rep)
	}
	fmt.Fprintf(io.out, "%s: %d roles, %d propositions, %d functions, %d circuit nodes, %.1f ms\n",
		pos[0], len(p.Roles), rep.Propositions, rep.Functions, rep.CircuitNodes, rep.Ms)
	for r, role := range p.Roles {
		fmt.Fprintf(io.out, "  %s: %d actions\n", role, len(p.Actions[r]))
	}
	return exitOK
}

// writeJSON prints v as one line of JSON.
func writeJSON(io stdio, v any) int {
	enc := json.NewEncoder(io.out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fail(io, err)
	}
	return exitOK
}
