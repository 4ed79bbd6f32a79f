package groundgraph

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// loadGame grounds testdata/name, a corpus game, or skips.
func loadGame(t *testing.T, name string) *grounding.Program {
	t.Helper()
	path := name
	if filepath.Dir(name) != "testdata" {
		path = filepath.Join(testgames.Root(), name)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("game not available: %v", err)
	}
	p, err := grounding.Load(context.Background(), name, src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClassTableMatchesSAT checks the class table against
// satcheck.ActionClassesIncremental on every next function that reads
// moves (one per cone shape) of games with one and with two roles moving
// at once.
func TestClassTableMatchesSAT(t *testing.T) {
	games := []string{"testdata/amazons5.kif", "ggp-base-repo/ticTacToe.kif", "ggp-base/coins.kif", "ggp-base/roshambo2.kif"}
	maxChecks := 4 // amazons5's SAT calls take seconds a function
	if !testing.Short() {
		games = append(games, "ggp-base/SimultaneousWin2.kif", "ggp-base/beatMania.kif")
		maxChecks = 1 << 30
	}
	ctx := context.Background()
	for _, name := range games {
		t.Run(filepath.Base(name), func(t *testing.T) {
			p := loadGame(t, name)
			b := supportedBuilder(ctx, t, p)
			seen := map[int]bool{}
			checked := 0
			for i := range b.funcs {
				ff := &b.funcs[i]
				if ff.Function.Kind != grounding.FuncNext || len(ff.roles) == 0 || seen[b.shapeOf[i]] || checked == maxChecks {
					continue
				}
				seen[b.shapeOf[i]] = true
				cn, err := b.cone(ff.Function.Lit)
				if err != nil {
					t.Fatal(err)
				}
				got, err := b.classTable(ctx, ff, cn, 1<<30)
				if err != nil {
					t.Fatal(err)
				}
				if got == nil {
					continue // beyond the bounds
				}
				want, err := satcheck.ActionClassesIncremental(ctx, p, ff.Function.Lit, ff.roles)
				if err != nil {
					t.Fatal(err)
				}
				for ri := range want {
					if !slices.EqualFunc(got[ri], want[ri], slices.Equal) {
						t.Fatalf("%s, role %s: class table %v, SAT %v", p.FunctionName(ff.Function), p.Roles[ff.roles[ri]], sizesOf(got[ri]), sizesOf(want[ri]))
					}
				}
				checked++
			}
			if checked == 0 {
				t.Fatal("no function checked")
			}
			t.Logf("%d functions", checked)
		})
	}
}

func sizesOf(cs [][]int) []int {
	var out []int
	for _, c := range cs {
		out = append(out, len(c))
	}
	return out
}

// TestImplicitClassKeepsGroup builds graphs where the roles count as
// having many actions (MaxClassActions below their sizes: class tables
// and implicit classes) and checks that their automorphism group is that
// of the graph with every class listed, and smaller than without classes
// where classes matter: on amazons5 (whose roles are beyond the default
// bound) they are what leaves the group trivial.
func TestImplicitClassKeepsGroup(t *testing.T) {
	games := []struct {
		name string
		want string // |Aut| with classes
		less bool   // whether the group without classes is larger
	}{
		{"ggp-base/coins.kif", "16", true},
		{"ggp-base-repo/ticTacToe.kif", "8", false},
	}
	if !testing.Short() {
		games = append(games, struct {
			name string
			want string
			less bool
		}{"testdata/amazons5.kif", "1", true})
	}
	ctx := context.Background()
	for _, gm := range games {
		t.Run(filepath.Base(gm.name), func(t *testing.T) {
			p := loadGame(t, gm.name)
			order := func(opt Options) (string, *Graph) {
				g, err := Build(ctx, p, opt)
				if err != nil {
					t.Fatal(err)
				}
				a, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				return a.Order.String(), g
			}
			// Without plays (plays.go), which also tell coins' jumps apart.
			big := Options{MaxClassActions: 2, MaxBigClassProps: 1 << 10, MaxClassTableWork: 1 << 30, MaxJointMoves: -1}
			implicit, g := order(big)
			big.listClasses = true
			listed, _ := order(big)
			none, _ := order(Options{MaxClassActions: -1, MaxJointMoves: -1})
			rests := 0
			for i := range g.funcs {
				for ri := range g.funcs[i].actClasses {
					if g.funcs[i].hasRest(ri) {
						rests++
					}
				}
			}
			t.Logf("|Aut|: %s listed, %s implicit (%d implicit classes), %s without classes", listed, implicit, rests, none)
			if rests == 0 {
				t.Fatal("no implicit class")
			}
			if implicit != listed {
				t.Errorf("|Aut| = %s with implicit classes, %s with every class listed", implicit, listed)
			}
			if implicit != gm.want || (none != gm.want) != gm.less {
				t.Errorf("|Aut| = %s with classes, %s without; want %s, larger without: %v", implicit, none, gm.want, gm.less)
			}
		})
	}
}

// supportedBuilder returns a builder of p's features with every function
// listed and its semantic supports computed, as actionClasses finds them.
func supportedBuilder(ctx context.Context, t *testing.T, p *grounding.Program) *builder {
	t.Helper()
	b := &builder{p: p, opt: Options{}.withDefaults(), moves: true}
	for _, f := range p.Functions() {
		b.funcs = append(b.funcs, FuncFeatures{Function: f})
	}
	if err := b.supports(ctx); err != nil {
		t.Fatal(err)
	}
	return b
}
