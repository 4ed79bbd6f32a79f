// Command cmpprof profiles equiv.Compare after its graph phase: a CPU
// profile from the start of the search to the verdict, with the progress
// steps (phase, candidates, wall and CPU seconds) on stderr; with -heap, a
// heap profile of the whole comparison near its peak live heap.
//
//	go run ./bench/cmpprof -cpu cpu.prof -heap heap.prof -timeout 60s a.kif b.kif
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"os"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"

	"github.com/gamequiv/gamequiv/bench/internal/heapwatch"
	"github.com/gamequiv/gamequiv/equiv"
)

func main() {
	cpu := flag.String("cpu", "", "CPU profile from the search phase on to this file")
	heap := flag.String("heap", "", "heap profile near the peak live heap of the whole comparison to this file (rewritten at each 10% step)")
	timeout := flag.Duration("timeout", 60*time.Second, "limit on the comparison")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: cmpprof [-cpu FILE] [-heap FILE] [-timeout D] A.kif B.kif")
	}
	var src [2][]byte
	for i := range src {
		b, err := os.ReadFile(flag.Arg(i))
		if err != nil {
			log.Fatal(err)
		}
		src[i] = b
	}
	start := time.Now()
	lim := equiv.Limits{Timeout: *timeout}
	var once sync.Once
	var last string
	var lastAt time.Time
	profiling := false
	lim.Progress = func(p equiv.Progress) {
		if k := p.Phase + ": " + p.Step; k != last || time.Since(lastAt) > 5*time.Second {
			last, lastAt = k, time.Now()
			log.Printf("%s (%d candidates, %d/%d done) at %v wall, %.1f CPU s", k, p.Candidates, p.Done, p.Total, time.Since(start).Round(time.Millisecond), cpuSeconds())
		}
		if p.Phase != "search" || *cpu == "" {
			return
		}
		once.Do(func() {
			f, err := os.Create(*cpu)
			if err != nil {
				log.Fatal(err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				log.Fatal(err)
			}
			profiling = true
		})
	}
	if *heap != "" {
		defer heapwatch.Watch(*heap)()
	}
	rep, err := equiv.Compare(context.Background(), equiv.Source{Name: flag.Arg(0), GDL: src[0]}, equiv.Source{Name: flag.Arg(1), GDL: src[1]}, lim)
	if profiling {
		pprof.StopCPUProfile()
	}
	if err != nil {
		log.Fatal(err)
	}
	rep.Mapping = nil
	out, _ := json.MarshalIndent(rep, "", "  ")
	os.Stdout.Write(append(out, '\n'))
	log.Printf("done at %v wall, %.1f CPU s", time.Since(start).Round(time.Millisecond), cpuSeconds())
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
