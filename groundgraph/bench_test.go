package groundgraph_test

import (
	"context"
	"fmt"
	"testing"

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
