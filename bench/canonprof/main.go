// Command canonprof measures isomorph's searches on game ground graphs and
// on random renumberings of them: for each game, the canonical form
// (Canonize) and, with -aut, the automorphism group (Automorphisms) of its
// ground graph and of -perms renumbered copies, one line each with the
// search nodes, the order, the certificate's hash and the CPU seconds. The
// certificate and order must not change with the numbering; the nodes
// should not hinge on it (issue #11).
//
//	go run ./bench/canonprof -aut -perms 2 -timeout 10s GAME.kif...
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand"
	"os"
	"syscall"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

func main() {
	timeout := flag.Duration("timeout", 60*time.Second, "limit of each search")
	aut := flag.Bool("aut", false, "also compute the automorphism group")
	buildTimeout := flag.Duration("build-timeout", 20*time.Second, "limit of grounding and building each ground graph")
	perms := flag.Int("perms", 0, "also search this many random renumberings (seeds 1..perms) of each graph")
	flag.Parse()
	for _, fn := range flag.Args() {
		g, err := build(fn, *buildTimeout)
		if err != nil {
			log.Printf("skip %s: %v", fn, err)
			continue
		}
		search(fn, g, *aut, *timeout)
		for k := 1; k <= *perms; k++ {
			search(fmt.Sprintf("%s#%d", fn, k), relabel(g, int64(k)), *aut, *timeout)
		}
	}
}

func build(fn string, timeout time.Duration) (*isomorph.Graph, error) {
	src, err := os.ReadFile(fn)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	p, err := grounding.Load(ctx, fn, src, grounding.Limits{}.WithDefaults())
	if err != nil {
		return nil, fmt.Errorf("ground: %w", err)
	}
	g, err := groundgraph.Build(ctx, p, groundgraph.Options{})
	if err != nil {
		return nil, fmt.Errorf("ground graph: %w", err)
	}
	return isomorph.Convert(g)
}

func search(name string, g *isomorph.Graph, aut bool, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t0 := cpuSeconds()
	c, err := isomorph.Canonize(ctx, g, isomorph.Limits{})
	cancel()
	if err != nil {
		fmt.Printf("%s canon error %v after %.2f CPU s\n", name, err, cpuSeconds()-t0)
	} else {
		fmt.Printf("%s canon nodes %d leaves %d gens %d order %v cert %x cpu %.2f\n", name, c.Stats.Nodes, c.Stats.Leaves, c.Stats.Generators, c.Group.Order, c.Certificate.Sum(), cpuSeconds()-t0)
	}
	if !aut {
		return
	}
	ctx, cancel = context.WithTimeout(context.Background(), timeout)
	t0 = cpuSeconds()
	a, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{})
	cancel()
	if err != nil {
		fmt.Printf("%s aut error %v after %.2f CPU s\n", name, err, cpuSeconds()-t0)
	} else {
		fmt.Printf("%s aut nodes %d leaves %d gens %d order %v cpu %.2f\n", name, a.Stats.Nodes, a.Stats.Leaves, a.Stats.Generators, a.Order, cpuSeconds()-t0)
	}
}

// relabel renumbers g's vertices by a random permutation of seed (what
// renaming a game's symbols does to its ground graph).
func relabel(g *isomorph.Graph, seed int64) *isomorph.Graph {
	to := make([]int32, g.Order())
	for i, v := range rand.New(rand.NewSource(seed)).Perm(g.Order()) {
		to[v] = int32(i)
	}
	h, err := isomorph.Renumbered(g, to)
	if err != nil {
		log.Fatal(err)
	}
	return h
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
