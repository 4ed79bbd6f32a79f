package groundgraph

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestClassesByBDDMatchSAT checks classesByBDD against
// satcheck.ActionClassesIncremental on next functions that read moves
// (one per cone shape): tttcc4's cells (three roles of ~290 read moves,
// the case it is for), and games with unread moves ("another action"),
// with roles moving at once, with one mover, and where a class holds only
// because every role does one move (otherRoleOneMove).
func TestClassesByBDDMatchSAT(t *testing.T) {
	games := []string{"ggp-base/tttcc4.kif", "ggp-base-repo/ticTacToe.kif", "ggp-base/coins.kif", "ggp-base/roshambo2.kif", "testdata/crowdedPut.kif", "testdata/otherRoleOneMove.kif"}
	maxChecks := 12 // tttcc4's SAT calls take up to a second a function
	if !testing.Short() {
		games = append(games, "ggp-base/SimultaneousWin2.kif", "ggp-base/beatMania.kif", "ggp-base/four_way_battle.kif")
		maxChecks = 60
	}
	ctx := context.Background()
	for _, name := range games {
		t.Run(filepath.Base(name), func(t *testing.T) {
			p := loadGame(t, name)
			b := supportedBuilder(ctx, t, p)
			d := newSupportBDD(grounding.DefaultBDDNodes, b.choiceBDDs.level, b.choiceBDDs.prop)
			seen := map[int]bool{}
			checked, split := 0, 0
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
				d.clear()
				got, err := d.classesByBDD(ctx, p, cn, ff.roles)
				if errors.Is(err, errBDDLimit) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				want, err := satcheck.ActionClassesIncremental(ctx, p, ff.Function.Lit, ff.roles)
				if err != nil {
					t.Fatal(err)
				}
				for ri := range want {
					if !slices.EqualFunc(got[ri], want[ri], slices.Equal) {
						t.Fatalf("%s, role %s: BDDs %v, SAT %v", p.FunctionName(ff.Function), p.Roles[ff.roles[ri]], sizesOf(got[ri]), sizesOf(want[ri]))
					}
					if len(want[ri]) > 1 {
						split++
					}
				}
				checked++
			}
			if checked == 0 || split == 0 {
				t.Fatalf("%d functions checked, %d roles with two classes or more", checked, split)
			}
			t.Logf("%d functions, %d roles split", checked, split)
		})
	}
}
