package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
)

// newFlags makes a flag set for a subcommand that reports to io.err.
func newFlags(name, args string, io stdio) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.err)
	fs.Usage = func() {
		fmt.Fprintf(io.err, "usage: gamequiv %s [flags] %s\n\nflags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses flags given before, between or after the positional
// arguments (flag stops at the first positional one) and returns the
// positionals, of which there must be at least minPos and at most maxPos (no
// upper bound when maxPos < 0); otherwise it prints the usage. ok is false
// when the flags or the count were wrong (the status to return is in code).
func parseArgs(fs *flag.FlagSet, args []string, minPos, maxPos int) (pos []string, code int, ok bool) {
	pos, code, ok = parseFlags(fs, args)
	if ok && (len(pos) < minPos || maxPos >= 0 && len(pos) > maxPos) {
		fs.Usage()
		return nil, exitInvalid, false
	}
	return pos, code, ok
}

// parseFlags is parseArgs without the count check.
func parseFlags(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, false
			}
			return nil, exitInvalid, false
		}
		args = fs.Args()
		if len(args) == 0 {
			applyMemoryLimit(fs)
			return pos, exitOK, true
		}
		if args[0] == "--" {
			applyMemoryLimit(fs)
			return append(pos, args[1:]...), exitOK, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// groundFlags registers the grounding limits; the zero values mean the defaults.
func groundFlags(fs *flag.FlagSet) *grounding.Limits {
	var lim grounding.Limits
	fs.Int64Var(&lim.MaxAtoms, "max-atoms", grounding.DefaultMaxAtoms, "limit on ground atoms (MaxAtoms)")
	fs.Int64Var(&lim.MaxInstances, "max-instances", grounding.DefaultMaxInstances, "limit on rule matches while building the circuit (MaxInstances)")
	fs.IntVar(&lim.MaxCircuitNodes, "max-circuit-nodes", grounding.DefaultMaxCircuitNodes, "limit on circuit nodes (MaxCircuitNodes)")
	fs.DurationVar(&lim.Timeout, "ground-timeout", grounding.DefaultTimeout, "limit on the time to ground one game (Timeout)")
	fs.BoolVar(&lim.LenientUnsafe, "lenient-unsafe", false, "read an unsafe variable of a fluent rule as ranging over every ground term, with a warning, as ggp-base's prover plays it (default: reject)")
	memoryLimitFlag(fs)
	return &lim
}

// loadGame reads, parses and grounds a game file. Warnings go to w.
func loadGame(ctx context.Context, path string, lim grounding.Limits, w io.Writer) (*grounding.Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := grounding.Load(ctx, path, src, lim)
	if err != nil {
		return nil, err
	}
	for _, warn := range p.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	return p, nil
}

// exitCode maps an error to the documented exit status.
func exitCode(err error) int {
	var el grounding.ErrorList
	var pe *grounding.Error
	switch {
	case err == nil:
		return exitOK
	case equiv.IsLimit(err), errors.Is(err, context.DeadlineExceeded):
		return exitLimit
	case errors.As(err, &el), errors.As(err, &pe), errors.Is(err, errInvalidInput):
		return exitInvalid
	}
	return exitOther
}

// errInvalidInput marks errors in what the user gave (bad moves, bad arguments).
var errInvalidInput = errors.New("invalid input")

// fail prints an error the way the exit status says and returns the status.
func fail(io stdio, err error) int {
	msg := err.Error()
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	fmt.Fprint(io.err, msg)
	return exitCode(err)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
