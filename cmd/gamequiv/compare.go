package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

func init() {
	register("compare", "decide whether two games are equivalent; print the mapping", runCompare)
	register("symmetries", "list a game's verified self-equivalences", runSymmetries)
}

// equivFlags registers the limits of a comparison; call the result after
// parsing to get them.
func equivFlags(fs *flag.FlagSet) func() equiv.Limits {
	var lim equiv.Limits
	fs.DurationVar(&lim.Timeout, "timeout", equiv.DefaultTimeout, "limit on the whole comparison (Timeout)")
	fs.Int64Var(&lim.MaxCandidates, "max-candidates", equiv.DefaultMaxCandidates, "limit on complete candidate mappings verified (MaxCandidates)")
	ground := groundFlags(fs)
	return func() equiv.Limits {
		lim.Ground = *ground
		return lim
	}
}

func readSource(path string) (equiv.Source, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return equiv.Source{}, err
	}
	return equiv.Source{Name: path, GDL: src}, nil
}

func runCompare(ctx context.Context, args []string, io stdio) int {
	fs := newFlags("compare", "A B", io)
	asJSON := fs.Bool("json", false, "print JSON")
	dumpCNF := fs.String("dump-cnf", "", "after an equivalent verdict, write the miter of every mapped pair of reasoning functions as DIMACS into this directory (each must be UNSAT; index.txt lists them)")
	lim := equivFlags(fs)
	pos, code, ok := parseArgs(fs, args, 2, 2)
	if !ok {
		return code
	}
	a, err := readSource(pos[0])
	if err != nil {
		return fail(io, err)
	}
	b, err := readSource(pos[1])
	if err != nil {
		return fail(io, err)
	}
	rep, err := equiv.Compare(ctx, a, b, lim())
	if err != nil {
		return fail(io, err)
	}
	status := exitOK
	if rep.Verdict == equiv.Unknown {
		status = exitLimit
	}
	if *dumpCNF != "" {
		if rep.Verdict != equiv.Equivalent {
			fmt.Fprintf(io.err, "gamequiv: --dump-cnf: verdict %s, no verified mapping: nothing written\n", rep.Verdict)
		} else if n, err := dumpMiters(ctx, *dumpCNF, pos[0], pos[1], rep.Mapping, lim().Ground); err != nil {
			return fail(io, fmt.Errorf("--dump-cnf: %w", err))
		} else {
			fmt.Fprintf(io.err, "gamequiv: wrote %d miters (each UNSAT for a verified mapping) to %s\n", n, *dumpCNF)
		}
	}
	if *asJSON {
		if c := writeJSON(io, rep); c != exitOK {
			return c
		}
		return status
	}
	fmt.Fprintf(io.out, "%s: %s\n", rep.Verdict, rep.Reason)
	if rep.Mapping != nil {
		for ra, rb := range rep.Mapping.Roles {
			fmt.Fprintf(io.out, "  role %s -> %s\n", ra, rb)
		}
		fmt.Fprintf(io.out, "  %d propositions and %d roles' actions mapped (use --json for the full mapping)\n", len(rep.Mapping.Propositions), len(rep.Mapping.Actions))
	}
	fmt.Fprintf(io.out, "  candidates %d, SAT calls %d, time %v ms\n", rep.Stats.Candidates, rep.Stats.SATCalls, rep.Stats.PhaseMs)
	return status
}

// dumpMiters grounds both games again (grounding is deterministic, so the
// ids match the comparison's), and writes the DIMACS miter of every pair of
// functions under the mapping into dir, numbered in Verify's order, with an
// index.txt of "file<TAB>pair<TAB>expected" lines.
func dumpMiters(ctx context.Context, dir, pathA, pathB string, m *equiv.Mapping, lim grounding.Limits) (int, error) {
	a, err := loadGame(ctx, pathA, lim, ioDiscard{})
	if err != nil {
		return 0, err
	}
	b, err := loadGame(ctx, pathB, lim, ioDiscard{})
	if err != nil {
		return 0, err
	}
	im, err := m.Indexes(a, b)
	if err != nil {
		return 0, err
	}
	c, err := satcheck.NewChecker(a, b, satcheck.Options{})
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	inputs := im.InputMap(a, b)
	var index bytes.Buffer
	pairs := satcheck.Pairs(a, b, im)
	for i, pr := range pairs {
		name := fmt.Sprintf("%04d.cnf", i+1)
		var buf bytes.Buffer
		if err := c.WriteDIMACS(&buf, pr.Kind, pr.A, pr.B, inputs); err != nil {
			return i, fmt.Errorf("%s: %w", pr.Name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			return i, err
		}
		fmt.Fprintf(&index, "%s\t%s\tUNSAT\n", name, pr.Name)
	}
	return len(pairs), os.WriteFile(filepath.Join(dir, "index.txt"), index.Bytes(), 0o644)
}

// ioDiscard drops grounding warnings (the comparison already printed none).
type ioDiscard struct{}

func (ioDiscard) Write(p []byte) (int, error) { return len(p), nil }

func runSymmetries(ctx context.Context, args []string, io stdio) int {
	fs := newFlags("symmetries", "GAME", io)
	asJSON := fs.Bool("json", false, "print JSON")
	lim := equivFlags(fs)
	pos, code, ok := parseArgs(fs, args, 1, 1)
	if !ok {
		return code
	}
	src, err := readSource(pos[0])
	if err != nil {
		return fail(io, err)
	}
	rep, err := equiv.Symmetries(ctx, src, lim())
	if err != nil {
		return fail(io, err)
	}
	if *asJSON {
		return writeJSON(io, rep)
	}
	fmt.Fprintf(io.out, "%s: %s verified symmetries (graph automorphisms: %s), %d generators, role symmetric: %v\n",
		pos[0], rep.Order, rep.GraphOrder, len(rep.Generators), rep.RoleSymmetric)
	return exitOK
}
