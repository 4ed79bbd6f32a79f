package groundgraph

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// TestChoiceBDDSupports checks that cofactor BDDs (supportByChoice) give
// every next function of real games that reads moves the semantic support
// that simulation and SAT give.
func TestChoiceBDDSupports(t *testing.T) {
	games := []string{"tictactoe", "connectFour", "nim1", "breakthroughSmall", "pacman3p", "battle"}
	if testing.Short() {
		games = games[:4]
	}
	ctx := context.Background()
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			path := filepath.Join(testgames.Root(), "ggp-base", g+".kif")
			src, err := os.ReadFile(path)
			if err != nil {
				t.Skipf("game not available: %v", err)
			}
			p, err := grounding.Load(ctx, g+".kif", src, grounding.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			// The reference: no support tables and no cofactor BDDs.
			o := Options{SupportTableBits: -1, MaxBDDChoices: -1}.withDefaults()
			b := &builder{p: p, opt: o, moves: true, bdd: newSupportBDD(o.MaxBDDNodes)}
			d := newChoiceBDDs(1, o.MaxBDDNodes)
			nProps := len(p.Props)
			tried, limit := 0, 0
			for _, f := range p.Functions() {
				if f.Kind != grounding.FuncNext {
					continue
				}
				cn, err := b.cone(f.Lit)
				if err != nil {
					t.Fatal(err)
				}
				var props []int32
				var roles []int
				for _, in := range cn.Inputs {
					if int(in) < nProps {
						props = append(props, in)
					} else if r, _ := p.InputOf(int(in)); len(roles) == 0 || roles[len(roles)-1] != r {
						roles = append(roles, r)
					}
				}
				srs := b.simRoles(cn, roles)
				if len(srs) == 0 || jointChoices(srs, DefaultMaxBDDChoices) < 0 {
					continue
				}
				m := d.get()
				propDep, roleDep, err := m.supportByChoice(ctx, cn, len(props), srs)
				d.put(m)
				if errors.Is(err, errBDDLimit) {
					limit++
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				tried++
				got := b.supportOf(props, srs, &simState{propDep: propDep, roleDep: roleDep})
				want, err := b.semanticSupport(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: support %v by cofactor BDDs, %v by simulation and SAT", p.FunctionName(f), got, want)
				}
			}
			if tried == 0 {
				t.Fatalf("no next function within the cofactor BDDs' bounds")
			}
			t.Logf("%d next functions compared, %d over the node bound", tried, limit)
		})
	}
}
