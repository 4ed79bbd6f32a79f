// Command gsat solves DIMACS files with the gophersat copy satcheck uses, so
// its CPU time can be set against external solvers' on dumped formulas
// (satcheck/dump.go). It prints one line per file: answer, conflicts,
// decisions, restarts and CPU seconds.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/crillab/gophersat/solver"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	prof := flag.String("cpuprofile", "", "write a CPU profile here")
	flag.Parse()
	if *prof != "" {
		pf, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(pf)
		defer pprof.StopCPUProfile()
	}
	for _, path := range flag.Args() {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pb, err := solver.ParseCNF(f)
		f.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, fmt.Errorf("%s: %w", path, err))
			os.Exit(1)
		}
		t0 := cpu()
		s := solver.New(pb)
		st := s.Solve()
		el := cpu() - t0
		fmt.Printf("%s\t%s\tconflicts %d\tdecisions %d\trestarts %d\t%.3f\n", path, st, s.Stats.NbConflicts, s.Stats.NbDecisions, s.Stats.NbRestarts, el.Seconds())
	}
}
