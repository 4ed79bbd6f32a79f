// Command grounddigest grounds games and prints, per game, the wall and CPU
// seconds of the grounding, the circuit size and a sha256 over the whole
// Program (roles, propositions, actions, init, circuit, every function's
// literal, warnings), so that two builds of the grounder can be compared for
// identical output, atom and gate order included.
//
// Usage:
//
//	go run ./bench/grounddigest [-ground-timeout 1m] [-lenient-unsafe] [-cpuprofile f] [-memprofile f] [-mallocs] game.kif...
//
// -mallocs adds the heap objects and bytes each grounding allocated, a
// measure of allocation work that a loaded machine does not blur.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
)

func main() {
	var lim grounding.Limits
	flag.DurationVar(&lim.Timeout, "ground-timeout", grounding.DefaultTimeout, "limit on the time to ground one game (Timeout)")
	flag.Int64Var(&lim.MaxAtoms, "max-atoms", 0, "MaxAtoms (0: default)")
	flag.Int64Var(&lim.MaxInstances, "max-instances", 0, "MaxInstances (0: default)")
	flag.IntVar(&lim.MaxCircuitNodes, "max-circuit-nodes", 0, "MaxCircuitNodes (0: default)")
	flag.BoolVar(&lim.LenientUnsafe, "lenient-unsafe", false, "read unsafe variables leniently")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the groundings to this file")
	memprofile := flag.String("memprofile", "", "write an allocation profile of the groundings to this file")
	mallocs := flag.Bool("mallocs", false, "print the heap objects and bytes each grounding allocated")
	flag.Parse()
	if *memprofile != "" {
		defer writeMemProfile(*memprofile)
	}
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
	fail := false
	for _, path := range flag.Args() {
		name := strings.TrimSuffix(filepath.Base(path), ".kif")
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Printf("%s error: %v\n", name, err)
			fail = true
			continue
		}
		var m0, m1 runtime.MemStats
		if *mallocs {
			runtime.ReadMemStats(&m0)
		}
		c0, t0 := cpu(), time.Now()
		p, err := grounding.Load(context.Background(), path, src, lim)
		wall, c := time.Since(t0), cpu()-c0
		if *mallocs {
			runtime.ReadMemStats(&m1)
			fmt.Printf("%s allocated %d objects %d MiB\n", name, m1.Mallocs-m0.Mallocs, (m1.TotalAlloc-m0.TotalAlloc)>>20)
		}
		if err != nil {
			fmt.Printf("%s error: %v (%.2f s wall, %.2f s CPU)\n", name, firstLine(err.Error()), wall.Seconds(), c.Seconds())
			fail = true
			continue
		}
		fmt.Printf("%s %d nodes %.2f s wall %.2f s CPU %s\n", name, p.Circuit.NumNodes(), wall.Seconds(), c.Seconds(), Digest(p))
	}
	if fail {
		os.Exit(1)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// writeMemProfile writes the allocation profile (every allocation since
// the start, sampled at the default rate) to path.
func writeMemProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}

// cpu is the process's user plus system time.
func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Digest is a sha256 over everything a Program says (names, circuit, the
// functions' literals and the warnings), first 16 hex digits.
func Digest(p *grounding.Program) string {
	h := sha256.New()
	str := func(s string) { num(h, int64(len(s))); h.Write([]byte(s)) }
	strs := func(ss []string) {
		num(h, int64(len(ss)))
		for _, s := range ss {
			str(s)
		}
	}
	strs(p.Roles)
	strs(p.Props)
	num(h, int64(len(p.Actions)))
	for _, a := range p.Actions {
		strs(a)
	}
	num(h, int64(len(p.Init)))
	for _, i := range p.Init {
		num(h, int64(i))
	}
	num(h, int64(p.Circuit.NumInputs))
	num(h, int64(len(p.Circuit.Start)))
	for _, s := range p.Circuit.Start {
		num(h, int64(s))
	}
	num(h, int64(len(p.Circuit.Fanin)))
	for _, l := range p.Circuit.Fanin {
		num(h, int64(l))
	}
	for _, ls := range p.Legal {
		num(h, int64(len(ls)))
		for _, l := range ls {
			num(h, int64(l))
		}
	}
	num(h, int64(len(p.Next)))
	for _, l := range p.Next {
		num(h, int64(l))
	}
	for _, gs := range p.Goals {
		num(h, int64(len(gs)))
		for _, g := range gs {
			num(h, int64(g.Value))
			num(h, int64(g.Lit))
		}
	}
	num(h, int64(p.Terminal))
	for _, w := range p.Warnings {
		str(w.Error())
	}
	for _, w := range p.Notes {
		str(w.Error())
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func num(h hash.Hash, v int64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	h.Write(b[:])
}
