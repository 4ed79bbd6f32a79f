// Command graphphase measures the ground-graph phase (groundgraph.Build) on
// corpus games: for each game it grounds it (default limits), builds the
// graph, and prints the grounding and graph times (wall and CPU), the SAT calls of the
// semantic supports and a digest of everything Build produced (the graph's
// JSON, semantic colours and every function's features), so that two
// builds of the package can be compared for speed and for identical graphs.
//
// Usage:
//
//	go run ./bench/graphphase [-timeout 2m] [-ground-timeout 1m] [-repeat 1] [-cpuprofile f] [-memprofile f] [-stages] game.kif...
//
// -memprofile writes a heap profile each time the live heap reaches a new
// high (sampled every second, 10% steps), so that the file holds the
// allocations live near the peak, not the garbage left when Build returns.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gamequiv/gamequiv/bench/internal/heapwatch"
	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
)

func main() {
	timeout := flag.Duration("timeout", 2*time.Minute, "bound on one game's Build")
	flag.DurationVar(&groundTimeout, "ground-timeout", grounding.DefaultTimeout, "bound on one game's grounding (grounding.Limits.Timeout)")
	repeat := flag.Int("repeat", 1, "Builds per game (the fastest is reported)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the Builds to this file")
	memprofile := flag.String("memprofile", "", "write a heap profile taken near the highest live heap to this file")
	flag.BoolVar(&stages, "stages", false, "print the wall and CPU seconds of each stage of the last Build (from Options.Progress)")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *memprofile != "" {
		stop := heapwatch.Watch(*memprofile)
		defer stop()
	}
	fmt.Printf("%-28s %9s %10s %10s %10s %10s %8s %8s %s\n", "game", "ground_s", "graph_s", "graph_cpu", "support_s", "feature_s", "sat", "bdd", "digest")
	for _, path := range flag.Args() {
		if err := run(path, *timeout, *repeat); err != nil {
			fmt.Printf("%-28s error: %v\n", strings.TrimSuffix(filepath.Base(path), ".kif"), err)
		}
	}
}

// groundTimeout is the grounding's Timeout: chess grounds in about a minute
// of wall time on a loaded machine.
var groundTimeout time.Duration

// stages asks run to print the time of each stage of Build.
var stages bool

// stageClock records, from Options.Progress, when each stage started and
// ended (wall and process CPU time).
type stageClock struct {
	mu    sync.Mutex
	names []string
	t     map[string][4]time.Duration // wall start, wall end, CPU start, CPU end
	count map[string][2]int           // the last progress reported: done, total
	t0    time.Time
}

func (sc *stageClock) progress(stage string, done, total int) {
	sc.mu.Lock()
	sc.count[stage] = [2]int{done, total}
	sc.mu.Unlock()
	if done != 0 && done != total {
		return
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	now, cpu := time.Since(sc.t0), cpuTime()
	x, ok := sc.t[stage]
	if !ok {
		sc.names = append(sc.names, stage)
		x = [4]time.Duration{now, now, cpu, cpu}
	}
	x[1], x[3] = now, cpu
	sc.t[stage] = x
}

func (sc *stageClock) print(name string) {
	for _, s := range sc.names {
		x := sc.t[s]
		n := sc.count[s]
		fmt.Printf("  %-26s stage %-18q wall %8.3f s  cpu %8.3f s  done %d of %d\n", name, s, (x[1] - x[0]).Seconds(), (x[3] - x[2]).Seconds(), n[0], n[1])
	}
}

func run(path string, timeout time.Duration, repeat int) error {
	name := strings.TrimSuffix(filepath.Base(path), ".kif")
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	t0 := time.Now()
	p, err := grounding.Load(context.Background(), name, src, grounding.Limits{Timeout: groundTimeout})
	if err != nil {
		return fmt.Errorf("ground: %w", err)
	}
	ground := time.Since(t0)
	var best, bestCPU time.Duration
	var g *groundgraph.Graph
	for i := range repeat {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		c1 := cpuTime()
		t1 := time.Now()
		sc := &stageClock{t: map[string][4]time.Duration{}, count: map[string][2]int{}, t0: time.Now()}
		opt := groundgraph.Options{}
		if stages {
			opt.Progress = sc.progress
		}
		g, err = groundgraph.Build(ctx, p, opt)
		if stages {
			defer sc.print(name)
		}
		d := time.Since(t1)
		c := cpuTime() - c1
		cancel()
		if err != nil {
			return fmt.Errorf("graph after %.1fs (%.1fs CPU): %w", d.Seconds(), c.Seconds(), err)
		}
		if i == 0 || d < best {
			best = d
		}
		if i == 0 || c < bestCPU {
			bestCPU = c
		}
	}
	st := g.Stats()
	if stages {
		fmt.Printf("  %-26s family-simulated functions %d\n", name, st.FamilyFunctions)
	}
	dg, err := digest(g)
	if err != nil {
		return err
	}
	fmt.Printf("%-28s %9.3f %10.3f %10.3f %10.3f %10.3f %8d %8d %s\n", name, ground.Seconds(), best.Seconds(), bestCPU.Seconds(),
		st.Support.Seconds(), st.Features.Seconds(), st.DependsOnCalls, st.SupportBDDs, dg[:16])
	return nil
}

// cpuTime is the process's user and system CPU time so far: on a shared,
// loaded machine it measures the work of a Build better than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// digest hashes what Build produced, as groundgraph's TestGolden does.
func digest(g *groundgraph.Graph) (string, error) {
	h := sha256.New()
	w := bufio.NewWriter(h)
	if err := g.WriteJSON(w, nil); err != nil {
		return "", err
	}
	for v := range g.Order() {
		fmt.Fprintf(w, "%d:%d ", v, g.SemanticColor(v))
	}
	enc := json.NewEncoder(w)
	for _, ff := range g.Functions() {
		if err := enc.Encode(ff); err != nil {
			return "", err
		}
	}
	if err := w.Flush(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
