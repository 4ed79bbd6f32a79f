package equiv

import (
	"fmt"
	"sync"

	"github.com/gamequiv/gamequiv/groundgraph"
)

// graphProgress sums the function analysis of the two ground graphs,
// built at once, into one Progress of the graph phase.
type graphProgress struct {
	lim *Limits

	mu          sync.Mutex
	stage       [2]string
	done, total [2]int
}

func newGraphProgress(lim *Limits) *graphProgress { return &graphProgress{lim: lim} }

// options returns opt with a Progress hook for game side (0 for A, 1 for
// B), or opt itself when nobody listens.
func (g *graphProgress) options(side int, opt groundgraph.Options) groundgraph.Options {
	if g.lim.Progress == nil {
		return opt
	}
	opt.Progress = func(stage string, done, total int) { g.report(side, stage, done, total) }
	return opt
}

func (g *graphProgress) report(side int, stage string, done, total int) {
	g.mu.Lock()
	g.stage[side], g.done[side], g.total[side] = stage, done, total
	step := "analysing reasoning functions: " + g.stage[0]
	if g.stage[1] != g.stage[0] {
		step = fmt.Sprintf("analysing reasoning functions: %s (A), %s (B)", orWaiting(g.stage[0]), orWaiting(g.stage[1]))
	}
	p := Progress{Phase: "graph", Fraction: 0.1, Step: step,
		Done: int64(g.done[0] + g.done[1]), Total: int64(g.total[0] + g.total[1]), Unit: UnitFunctions}
	g.mu.Unlock()
	g.lim.progress(p)
}

func orWaiting(stage string) string {
	if stage == "" {
		return "starting"
	}
	return stage
}
