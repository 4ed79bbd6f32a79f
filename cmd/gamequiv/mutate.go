package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
)

func init() {
	register("mutate", "print an equivalent (or, with --different, a different) variant of a game", runMutate)
}

// mutateReport is the --json output of `gamequiv mutate`.
type mutateReport struct {
	GDL      string            `json:"gdl"`
	Seed     int64             `json:"seed"`
	Applied  []string          `json:"applied,omitempty"`  // equivalent variants
	Renaming map[string]string `json:"renaming,omitempty"` // equivalent variants
	Change   string            `json:"change,omitempty"`   // --different
}

func runMutate(ctx context.Context, args []string, io stdio) int {
	fs := newFlags("mutate", "GAME", io)
	asJSON := fs.Bool("json", false, "print JSON: {gdl, seed, applied, renaming} or {gdl, seed, change}")
	seed := fs.Int64("seed", 1, "seed of the random choices (same seed, same variant)")
	different := fs.Bool("different", false, "print a different game instead (one goal value or one body literal changed); the change goes to stderr")
	ops := fs.String("ops", "all", "transformations of the equivalent variant, comma-separated: "+strings.Join(mutate.OpNames(), ", "))
	steps := fs.Int("steps", 0, "number of transformations applied (0: two per transformation in --ops)")
	pos, code, ok := parseArgs(fs, args, 1, 1)
	if !ok {
		return code
	}
	op, err := mutate.ParseOps(*ops)
	if err != nil {
		return fail(io, fmt.Errorf("%w: --ops: %v", errInvalidInput, err))
	}
	src, err := os.ReadFile(pos[0])
	if err != nil {
		return fail(io, err)
	}
	f, err := grounding.Parse(pos[0], src)
	if err != nil {
		return fail(io, err)
	}
	for _, w := range f.Warnings {
		fmt.Fprintf(io.err, "warning: %s\n", w)
	}
	rep := mutateReport{Seed: *seed}
	if *different {
		g, change, err := mutate.Different(ctx, f, *seed)
		if err != nil {
			return fail(io, err)
		}
		rep.GDL, rep.Change = g.String(), change
	} else {
		v, err := mutate.Equivalent(f, *seed, mutate.Options{Ops: op, Steps: *steps})
		if err != nil {
			return fail(io, err)
		}
		rep.GDL, rep.Applied, rep.Renaming = v.File.String(), v.Applied, v.Renaming
	}
	if *asJSON {
		return writeJSON(io, rep)
	}
	if rep.Change != "" {
		fmt.Fprintln(io.err, rep.Change)
	}
	fmt.Fprint(io.out, rep.GDL)
	return exitOK
}
