// Command cancellatency measures how soon groundgraph.Build returns after
// its context is cancelled at a chosen point of the graph phase: it grounds
// one game, builds its ground graph, and cancels a given time after a
// progress stage (default "corners", the last analysis before the layout
// and colour refinement) reports its last function.
//
//	go build -o /tmp/cancellatency ./bench/cancellatency
//	/tmp/cancellatency -after 1s ../shared/games/ggp-base/racer4.kif
//
// It prints the stage's end, the cancel and the return as offsets from the
// start of Build, the latency (return - cancel) and Build's error.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"sync"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
)

func main() {
	stage := flag.String("stage", "corners", "progress stage whose end starts the clock")
	after := flag.Duration("after", time.Second, "time from the stage's end to the cancel")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: cancellatency [-stage S] [-after D] GAME.kif")
	}
	src, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	f, err := grounding.Parse(flag.Arg(0), src)
	if err != nil {
		log.Fatal(err)
	}
	p, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	var once sync.Once
	var stageEnd, cancelled time.Time
	done := make(chan struct{})
	opt := groundgraph.Options{Progress: func(s string, n, total int) {
		if s == *stage && n == total {
			once.Do(func() {
				stageEnd = time.Now()
				go func() {
					select {
					case <-time.After(*after):
						cancelled = time.Now()
						cancel()
					case <-done:
					}
				}()
			})
		}
	}}
	_, err = groundgraph.Build(ctx, p, opt)
	ret := time.Now()
	close(done)
	if cancelled.IsZero() {
		fmt.Printf("Build returned at %.3fs before the cancel (stage %q ended at %v), err %v\n",
			ret.Sub(start).Seconds(), *stage, !stageEnd.IsZero(), err)
		return
	}
	fmt.Printf("stage %q ended %.3fs, cancel %.3fs, return %.3fs: latency %.3fs, err %v\n", *stage,
		stageEnd.Sub(start).Seconds(), cancelled.Sub(start).Seconds(), ret.Sub(start).Seconds(), ret.Sub(cancelled).Seconds(), err)
}
