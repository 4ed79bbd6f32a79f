package groundgraph

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// supportsBothWays returns, for every next function of p that reads
// moves, its semantic support with cofactor BDDs (bddchoice.go) and
// without, and how many took the cofactor path.
func supportsBothWays(t *testing.T, p *grounding.Program, opt Options) (withBDD, without map[string][]int, byChoice int64) {
	t.Helper()
	ctx := context.Background()
	run := func(o Options) (map[string][]int, int64) {
		o = o.withDefaults()
		b := &builder{p: p, opt: o, moves: true}
		if o.MaxBDDNodes > 0 {
			b.bdd = newSupportBDD(o.MaxBDDNodes)
			if o.MaxBDDChoices > 0 {
				b.choiceBDDs = newChoiceBDDs(o.Workers, o.MaxBDDNodes)
			}
		}
		out := map[string][]int{}
		for _, f := range p.Functions() {
			if f.Kind != grounding.FuncNext {
				continue
			}
			supp, err := b.semanticSupport(ctx, f)
			if err != nil {
				t.Fatalf("semantic support of %s: %v", p.FunctionName(f), err)
			}
			out[p.FunctionName(f)] = supp
		}
		return out, b.choiceSupports.Load()
	}
	withBDD, byChoice = run(opt)
	opt.MaxBDDChoices = -1
	without, _ = run(opt)
	return withBDD, without, byChoice
}

// TestChoiceBDDSupports checks that cofactor BDDs give every next
// function of real games the support that simulation, truth tables and
// SAT give.
func TestChoiceBDDSupports(t *testing.T) {
	games := []string{"tictactoe", "connectFour", "nim1", "pacman3p", "battle", "breakthroughSmall"}
	if testing.Short() {
		games = games[:3]
	}
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			path := filepath.Join(testgames.Root(), "ggp-base", g+".kif")
			src, err := os.ReadFile(path)
			if err != nil {
				t.Skipf("game not available: %v", err)
			}
			p, err := grounding.Load(context.Background(), g+".kif", src, grounding.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			// Without support tables, so that the other path is simulation.
			withBDD, without, n := supportsBothWays(t, p, Options{SupportTableBits: -1})
			if n == 0 {
				t.Fatalf("no next function took the cofactor path")
			}
			for name, s := range without {
				if !slices.Equal(withBDD[name], s) {
					t.Errorf("%s: support %v by cofactor BDDs, %v without", name, withBDD[name], s)
				}
			}
			t.Logf("%d of %d next functions by cofactor BDDs", n, len(without))
		})
	}
}
