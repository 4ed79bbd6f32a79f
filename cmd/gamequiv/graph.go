package main

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

func init() {
	register("graph", "print a game's coloured ground graph (json, dot, dreadnaut, bliss)", runGraph)
}

func runGraph(ctx context.Context, args []string, io stdio) int {
	fs := newFlags("graph", "GAME", io)
	format := fs.String("format", "", "output format: json, dot, dreadnaut or bliss (default: a short summary, or json with --json)")
	asJSON := fs.Bool("json", false, "print JSON (same as --format json)")
	var opt groundgraph.Options
	fs.IntVar(&opt.MaxTableBits, "max-table-bits", groundgraph.DefaultMaxTableBits, "exact truth-table features for functions of at most 2^N semantic rows (negative: none)")
	fs.Int64Var(&opt.MaxTableRows, "max-table-rows", groundgraph.DefaultMaxTableRows, "bound on the rows of all truth tables (negative: none)")
	fs.IntVar(&opt.MaxInteractionProps, "max-interaction-props", groundgraph.DefaultMaxInteractionProps, "interaction vertices for functions of at most N semantic propositions (negative: none)")
	fs.IntVar(&opt.MaxCornerWeight, "max-corner-weight", groundgraph.DefaultMaxCornerWeight, "corners of at most N propositions (negative: none)")
	fs.Int64Var(&opt.MaxCornerTotal, "max-corner-points", groundgraph.DefaultMaxCornerTotal, "bound on the points of all corner searches (negative: none)")
	var iso isomorph.Limits
	fs.Int64Var(&iso.MaxNodes, "max-search-nodes", isomorph.DefaultMaxNodes, "search-tree node limit of the automorphism group computation")
	fs.Int64Var(&iso.MaxGenWords, "max-generator-words", isomorph.DefaultMaxGenWords, "limit on the automorphism generators kept, in int32 words (two per vertex a generator moves)")
	timeout := fs.Duration("timeout", 0, "limit on the time to ground, build and compute the group (0: none)")
	lim := groundFlags(fs)
	pos, code, ok := parseArgs(fs, args, 1, 1)
	if !ok {
		return code
	}
	if *asJSON && *format == "" {
		*format = "json"
	}
	switch *format {
	case "", "json", "dot", "dreadnaut", "bliss":
	default:
		fmt.Fprintf(io.err, "gamequiv graph: unknown format %q (want json, dot, dreadnaut or bliss)\n", *format)
		return exitInvalid
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	start := time.Now()
	p, err := loadGame(ctx, pos[0], *lim, io.err)
	if err != nil {
		return graphFail(io, err)
	}
	tGround := time.Since(start)
	g, err := groundgraph.Build(ctx, p, opt)
	if err != nil {
		return graphFail(io, err)
	}
	switch *format {
	case "dot":
		return graphWritten(io, g.WriteDOT(io.out))
	case "dreadnaut", "bliss":
		ig, err := isomorph.Convert(g)
		if err != nil {
			return graphFail(io, err)
		}
		if *format == "dreadnaut" {
			return graphWritten(io, isomorph.WriteDreadnaut(io.out, ig))
		}
		return graphWritten(io, isomorph.WriteBliss(io.out, ig))
	}
	tAut := time.Now()
	gr, err := isomorph.Automorphisms(ctx, g, iso)
	if err != nil {
		return graphFail(io, err)
	}
	if *format == "json" {
		return graphWritten(io, g.WriteJSON(io.out, gr.Order))
	}
	printGraphSummary(io, pos[0], g, gr.Order, gr.Stats, tGround, time.Since(tAut))
	return exitOK
}

func printGraphSummary(io stdio, name string, g *groundgraph.Graph, order *big.Int, st isomorph.Stats, tGround, tAut time.Duration) {
	s := g.Stats()
	fmt.Fprintf(io.out, "%s: %d vertices, %d edges, %d colour classes\n", name, s.Vertices, s.Edges, s.Colors)
	for k := range groundgraph.NumKinds {
		if n := s.ByKind[k]; n > 0 {
			fmt.Fprintf(io.out, "  %-12s %d\n", groundgraph.Kind(k), n)
		}
	}
	fmt.Fprintf(io.out, "functions: %d, %d with exact truth tables (%d rows, %d skipped by the bounds)\n",
		s.Functions, s.Tabled, s.TableRows, s.SkippedTables)
	fmt.Fprintf(io.out, "corners searched for %d functions (%d points, %d skipped by the bounds)\n",
		s.CornerFuncs, s.CornerPoints, s.SkippedCorners)
	fmt.Fprintf(io.out, "automorphism group order: %s (%d search nodes, %d leaves)\n", order, st.Nodes, st.Leaves)
	fmt.Fprintf(io.out, "time: ground %.1f ms, supports %.1f ms, features %.1f ms, group %.1f ms\n",
		ms(tGround), ms(s.Support), ms(s.Features), ms(tAut))
}

// graphWritten reports a writer's error, if any.
func graphWritten(io stdio, err error) int {
	if err != nil {
		return graphFail(io, err)
	}
	return exitOK
}

// graphFail is fail with the limits of satcheck and isomorph also mapped
// to the limit status.
func graphFail(io stdio, err error) int {
	code := fail(io, err)
	if errors.Is(err, satcheck.ErrLimit) || errors.Is(err, isomorph.ErrLimit) {
		return exitLimit
	}
	return code
}
