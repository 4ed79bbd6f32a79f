package isomorph_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

// benchGraphs are the benchmark inputs; -short skips the large ones.
var benchGraphs = []struct {
	name  string
	large bool
	graph func(tb testing.TB) *isomorph.Graph
}{
	{"Q6", false, func(tb testing.TB) *isomorph.Graph { return hypercube(tb, 6) }},
	{"Q8", false, func(tb testing.TB) *isomorph.Graph { return hypercube(tb, 8) }},
	{"Q10", true, func(tb testing.TB) *isomorph.Graph { return hypercube(tb, 10) }},
	{"TicTacToe3x3", false, func(tb testing.TB) *isomorph.Graph { return board(tb, 3, 3, 3) }},
	{"Connect7x6", false, func(tb testing.TB) *isomorph.Graph { return board(tb, 6, 7, 4) }},
	{"Gomoku19x19", false, func(tb testing.TB) *isomorph.Graph { return board(tb, 19, 19, 5) }},
	{"Gomoku61x61", true, func(tb testing.TB) *isomorph.Graph { return board(tb, 61, 61, 5) }},
	{"CFIPrism30", false, func(tb testing.TB) *isomorph.Graph {
		nv, e := prismEdges(30)
		return uncolor(tb, cfi(tb, nv, e, false))
	}},
	{"Paley101", false, func(tb testing.TB) *isomorph.Graph { return paley(tb, 101) }},
	{"Regular1000x3", false, func(tb testing.TB) *isomorph.Graph {
		return randomRegular(tb, rand.New(rand.NewPCG(1, 1)), 1000, 3)
	}},
	{"Empty1000", false, func(tb testing.TB) *isomorph.Graph { return mustNew(tb, 1000, nil, nil) }},
}

func BenchmarkAutomorphisms(b *testing.B) {
	for _, bc := range benchGraphs {
		b.Run(bc.name, func(b *testing.B) {
			if bc.large && testing.Short() {
				b.Skip("large graph skipped in -short mode")
			}
			g := bc.graph(b)
			var st isomorph.Stats
			b.ResetTimer()
			for b.Loop() {
				gr, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{MaxNodes: -1})
				if err != nil {
					b.Fatal(err)
				}
				st = gr.Stats
			}
			b.ReportMetric(float64(st.Nodes), "nodes")
			b.ReportMetric(float64(st.Leaves), "leaves")
			b.ReportMetric(float64(g.Order()), "vertices")
		})
	}
}

func BenchmarkCanonical(b *testing.B) {
	for _, bc := range benchGraphs {
		b.Run(bc.name, func(b *testing.B) {
			if bc.large && testing.Short() {
				b.Skip("large graph skipped in -short mode")
			}
			g := bc.graph(b)
			var st isomorph.Stats
			b.ResetTimer()
			for b.Loop() {
				c, err := isomorph.Canonize(ctx, g, isomorph.Limits{MaxNodes: -1})
				if err != nil {
					b.Fatal(err)
				}
				st = c.Stats
			}
			b.ReportMetric(float64(st.Nodes), "nodes")
			b.ReportMetric(float64(st.Leaves), "leaves")
		})
	}
}

func BenchmarkRefine(b *testing.B) {
	for _, bc := range benchGraphs {
		b.Run(bc.name, func(b *testing.B) {
			if bc.large && testing.Short() {
				b.Skip("large graph skipped in -short mode")
			}
			g := bc.graph(b)
			p := isomorph.ColorPartition(g)
			b.ResetTimer()
			for b.Loop() {
				if _, _, err := isomorph.Refine(g, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestWriteBenchGraphs writes the benchmark graphs in bliss and dreadnaut
// format to $ISOMORPH_DUMP, to time the external tools on the same inputs.
func TestWriteBenchGraphs(t *testing.T) {
	dir := os.Getenv("ISOMORPH_DUMP")
	if dir == "" {
		t.Skip("set ISOMORPH_DUMP to a directory to write the benchmark graphs")
	}
	for _, bc := range benchGraphs {
		g := bc.graph(t)
		for ext, write := range map[string]func(*os.File, *isomorph.Graph) error{
			".bliss": func(f *os.File, g *isomorph.Graph) error { return isomorph.WriteBliss(f, g) },
			".dre":   func(f *os.File, g *isomorph.Graph) error { return isomorph.WriteDreadnaut(f, g) },
		} {
			f, err := os.Create(filepath.Join(dir, bc.name+ext))
			if err != nil {
				t.Fatal(err)
			}
			if err := write(f, g); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func BenchmarkFind(b *testing.B) {
	for _, bc := range benchGraphs {
		b.Run(bc.name, func(b *testing.B) {
			if bc.large && testing.Short() {
				b.Skip("large graph skipped in -short mode")
			}
			g := bc.graph(b)
			h := relabel(b, g, randPerm(rand.New(rand.NewPCG(2, 2)), g.Order()))
			b.ResetTimer()
			for b.Loop() {
				if _, err := isomorph.Find(ctx, g, h, isomorph.Limits{MaxNodes: -1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearchBoard enumerates every isomorphism of a board graph onto a
// relabelled copy through the search-tree form (no prune hook).
func BenchmarkSearchBoard(b *testing.B) {
	for _, bc := range benchGraphs[3:5] {
		b.Run(bc.name, func(b *testing.B) {
			g := bc.graph(b)
			h := relabel(b, g, randPerm(rand.New(rand.NewPCG(3, 3)), g.Order()))
			n := 0
			for b.Loop() {
				n = 0
				for _, err := range isomorph.Search(ctx, g, h, isomorph.Limits{}, nil) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
			}
			b.ReportMetric(float64(n), "mappings")
		})
	}
}
