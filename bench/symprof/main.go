// Command symprof profiles equiv.Symmetries' verify phase on one game: a CPU
// profile of the verify phase, and heap profiles at given offsets into it.
//
//	go run ./bench/symprof -cpu cpu.prof -heap heap -at 20s,60s -timeout 300s game.kif
//
// -max-nodes bounds every graph search (the graph group's and the subgroup
// search) to a number of nodes, so that the CPU seconds of two builds can be
// compared on a loaded machine; a search stopped there prints no summary.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
)

func main() {
	cpu := flag.String("cpu", "", "CPU profile of the verify phase to this file")
	heap := flag.String("heap", "", "heap profiles to this prefix (+offset)")
	at := flag.String("at", "20s", "offsets into the verify phase for heap profiles, comma separated")
	timeout := flag.Duration("timeout", 300*time.Second, "limit")
	maxNodes := flag.Int64("max-nodes", 0, "search-node limit of each graph search (isomorph.Limits.MaxNodes; 0: its default): stops the subgroup search after as many nodes whatever the load, for CPU per node")
	flag.Parse()
	src, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	var once sync.Once
	start := time.Now()
	lim := equiv.Limits{Timeout: *timeout}
	lim.Ground.Timeout = *timeout
	lim.Search.MaxNodes = *maxNodes
	var last string
	var lastAt time.Time
	lim.Progress = func(p equiv.Progress) {
		if k := p.Phase + ": " + p.Step; k != last || time.Since(lastAt) > 10*time.Second {
			last, lastAt = k, time.Now()
			log.Printf("%s (%d candidates, %d done) at %v wall, %.1f CPU s", k, p.Candidates, p.Done, time.Since(start).Round(time.Millisecond), cpuSeconds())
		}
		if p.Phase != "verify" {
			return
		}
		once.Do(func() {
			log.Printf("verify phase at %v", time.Since(start))
			if *cpu != "" {
				f, err := os.Create(*cpu)
				if err != nil {
					log.Fatal(err)
				}
				if err := pprof.StartCPUProfile(f); err != nil {
					log.Fatal(err)
				}
			}
			if *heap != "" {
				for _, s := range strings.Split(*at, ",") {
					d, err := time.ParseDuration(s)
					if err != nil {
						log.Fatal(err)
					}
					time.AfterFunc(d, func() {
						runtime.GC()
						var ms runtime.MemStats
						runtime.ReadMemStats(&ms)
						log.Printf("heap at %s: inuse %d MB, sys %d MB", s, ms.HeapInuse>>20, ms.Sys>>20)
						f, err := os.Create(*heap + s)
						if err != nil {
							log.Fatal(err)
						}
						pprof.WriteHeapProfile(f)
						f.Close()
					})
				}
			}
		})
	}
	rep, err := equiv.Symmetries(context.Background(), equiv.Source{Name: flag.Arg(0), GDL: src}, lim)
	pprof.StopCPUProfile()
	if err != nil {
		log.Printf("error: %v", err)
	}
	if rep != nil {
		fmt.Printf("order %s graph %s generators %d candidates %d nodes %d phases %v\n", short(rep.Order), short(rep.GraphOrder), len(rep.Generators), rep.Candidates, rep.SearchNodes, rep.PhaseMs)
	}
	fmt.Printf("total %v wall, %.1f CPU s\n", time.Since(start), cpuSeconds())
}

// cpuSeconds is the process's user+sys time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func short(s string) string {
	if len(s) > 30 {
		return fmt.Sprintf("%s.%s×10^%d", s[:1], s[1:4], len(s)-1)
	}
	return s
}
