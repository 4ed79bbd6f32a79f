// Command cellcheck measures the search's refutation on cell-constant
// states (equiv/cells.go) by running each comparison, or each symmetry
// computation, twice: with the check and with Limits.NoCellCheck. For each
// game it compares the game with `gamequiv mutate` variants (seeds 1..N;
// -rename for renamings only) and prints one line per run with the
// verdict, search nodes, pruned subtrees, candidates, phase times, wall
// and CPU seconds of the process. CPU seconds are the figure to compare on
// a loaded machine. Runs go one at a time.
//
//	go run ./bench/cellcheck -seeds 2 -timeout 120s GAME.kif...
//	go run ./bench/cellcheck -sym -timeout 120s GAME.kif...
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"syscall"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
)

func main() {
	timeout := flag.Duration("timeout", 60*time.Second, "limit on each comparison or symmetry computation")
	seeds := flag.Int("seeds", 3, "mutation seeds 1..N per game")
	mode := flag.String("mode", "both", "on, off or both: with the cell check, without it, or both")
	rename := flag.Bool("rename", false, "variants rename symbols only (default: every equivalence-preserving transformation but pair-args)")
	sym := flag.Bool("sym", false, "compute symmetry groups instead of comparisons")
	flag.Parse()
	if flag.NArg() == 0 {
		log.Fatal("usage: cellcheck [flags] GAME.kif...")
	}
	var modes []bool // NoCellCheck values
	switch *mode {
	case "on":
		modes = []bool{false}
	case "off":
		modes = []bool{true}
	case "both":
		modes = []bool{false, true}
	default:
		log.Fatalf("-mode %q: want on, off or both", *mode)
	}
	ctx := context.Background()
	for _, path := range flag.Args() {
		src, err := os.ReadFile(path)
		if err != nil {
			log.Fatal(err)
		}
		f, err := grounding.Parse(path, src)
		if err != nil {
			log.Fatal(err)
		}
		pa, err := grounding.Ground(ctx, f, grounding.Limits{})
		if err != nil {
			fmt.Printf("%s: %v\n", path, err)
			continue
		}
		if *sym {
			for _, off := range modes {
				lim := equiv.Limits{Timeout: *timeout, NoCellCheck: off}
				t0, c0 := time.Now(), cpuSeconds()
				rep, err := equiv.ProgramSymmetries(ctx, pa, lim)
				wall, cpu := time.Since(t0).Seconds(), cpuSeconds()-c0
				if err != nil {
					fmt.Printf("%s symmetries cellcheck=%v error wall=%.1fs cpu=%.1fs: %v\n", path, !off, wall, cpu, err)
					continue
				}
				fmt.Printf("%s symmetries cellcheck=%v order=%s nodes=%d candidates=%d wall=%.1fs cpu=%.1fs\n",
					path, !off, rep.Order, rep.SearchNodes, rep.Candidates, wall, cpu)
			}
			continue
		}
		opt := mutate.Options{Ops: mutate.AllOps &^ mutate.PairArgs}
		if *rename {
			opt.Ops = mutate.RenameSymbols
		}
		for seed := int64(1); seed <= int64(*seeds); seed++ {
			v, err := mutate.Equivalent(f, seed, opt)
			if err != nil {
				log.Fatal(err)
			}
			pb, err := grounding.Ground(ctx, v.File, grounding.Limits{})
			if err != nil {
				fmt.Printf("%s seed %d: variant: %v\n", path, seed, err)
				continue
			}
			for _, off := range modes {
				lim := equiv.Limits{Timeout: *timeout, NoCellCheck: off}
				t0, c0 := time.Now(), cpuSeconds()
				rep, err := equiv.ComparePrograms(ctx, pa, pb, lim)
				wall, cpu := time.Since(t0).Seconds(), cpuSeconds()-c0
				if err != nil {
					fmt.Printf("%s seed %d cellcheck=%v error: %v\n", path, seed, !off, err)
					continue
				}
				st := rep.Stats
				fmt.Printf("%s seed=%d cellcheck=%v verdict=%s nodes=%d pruned=%d candidates=%d graph=%.0fms search=%.0fms verify=%.0fms wall=%.1fs cpu=%.1fs\n",
					path, seed, !off, rep.Verdict, st.SearchNodes, st.Pruned, st.Candidates,
					st.PhaseMs["graph"], st.PhaseMs["search"], st.PhaseMs["verify"], wall, cpu)
				if rep.Verdict == equiv.Unknown {
					fmt.Printf("  reason: %s\n", rep.Reason)
				}
			}
		}
	}
}

// cpuSeconds is the user and system time of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
