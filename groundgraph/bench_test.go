package groundgraph_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/gamegen"
	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

// benchGames are the games of BenchmarkBuild; big ones are skipped in
// -short mode.
var benchGames = []struct {
	name string
	big  bool
}{
	{ticTacToe, false},
	{sum15, false},
	{connectFour, false},
	{"ggp-base/breakthroughSmall.kif", false},
	{"ggp-base/bidding-tictactoe_10coins.kif", true},
	{"ggp-base/3pffa.kif", true},
	{"ggp-base/breakthrough.kif", true},
}

// BenchmarkBuild measures Build (semantic supports, truth tables, colours)
// on games already grounded, and reports the graph's size.
func BenchmarkBuild(b *testing.B) {
	for _, bg := range benchGames {
		b.Run(bg.name, func(b *testing.B) {
			if bg.big && testing.Short() {
				b.Skip("big game skipped in -short mode")
			}
			p := mustLoad(b, bg.name)
			var g *groundgraph.Graph
			for b.Loop() {
				var err error
				if g, err = groundgraph.Build(context.Background(), p, groundgraph.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			s := g.Stats()
			b.ReportMetric(float64(s.Vertices), "vertices")
			b.ReportMetric(float64(s.Edges), "edges")
			b.ReportMetric(float64(s.Colors), "colors")
			b.ReportMetric(float64(s.TableRows), "rows")
		})
	}
}

// BenchmarkAutomorphisms measures the group computation on built graphs and
// reports the search-tree leaves.
func BenchmarkAutomorphisms(b *testing.B) {
	for _, name := range []string{ticTacToe, connectFour} {
		b.Run(name, func(b *testing.B) {
			g := mustBuild(b, name, groundgraph.Options{})
			var gr *isomorph.Group
			for b.Loop() {
				var err error
				if gr, err = isomorph.Automorphisms(context.Background(), g, isomorph.Limits{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(gr.Stats.Leaves), "leaves")
		})
	}
}

// BenchmarkBuildConnectK measures Build on generated Connect-k boards (the
// largest as big as the equiv Connect Four benchmarks go).
func BenchmarkBuildConnectK(b *testing.B) {
	for _, sz := range [][3]int{{4, 7, 6}, {4, 10, 9}} {
		b.Run(fmt.Sprintf("connect%d-%dx%d", sz[0], sz[1], sz[2]), func(b *testing.B) {
			p, err := grounding.Load(context.Background(), "connectk", gamegen.ConnectK(sz[0], sz[1], sz[2]), grounding.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			var g *groundgraph.Graph
			for b.Loop() {
				if g, err = groundgraph.Build(context.Background(), p, groundgraph.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			s := g.Stats()
			b.ReportMetric(float64(s.Vertices), "vertices")
			b.ReportMetric(float64(s.Colors), "colors")
		})
	}
}

// midsizeGames are the mid-size corpus games whose graph phase starved the
// whole-corpus run (bench/completeness/corpus-2026-11-26.md).
var midsizeGames = []string{
	"ggp-base/knightazons.kif", "ggp-base/brawl.kif", "ggp-base/tttcc4.kif",
	"ggp-base/hallway.kif", "ggp-base/chinesecheckers6.kif", "ggp-base/quad.kif",
}

// BenchmarkBuildMidsize measures Build on midsizeGames (skipped in -short
// mode) and reports its process CPU seconds (all goroutines, GC
// included), which a loaded machine changes far less than wall time, and
// its SAT questions.
func BenchmarkBuildMidsize(b *testing.B) {
	for _, name := range midsizeGames {
		b.Run(name, func(b *testing.B) {
			if testing.Short() {
				b.Skip("big game skipped in -short mode")
			}
			p := mustLoad(b, name)
			var g *groundgraph.Graph
			cpu0 := processCPU()
			for b.Loop() {
				var err error
				if g, err = groundgraph.Build(context.Background(), p, groundgraph.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((processCPU()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(g.Stats().DependsOnCalls), "sat-calls")
			b.ReportMetric(float64(g.Stats().Colors), "colors")
		})
	}
}

// processCPU returns the CPU time (user and system) of this process.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
