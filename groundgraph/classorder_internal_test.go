package groundgraph

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestClassesBySATOrBDD checks the order of classesBySATOrBDD: functions
// satcheck settles without SAT (206 of slidingpieces' 220 shapes) never
// reach a BDD, functions that need SAT (tttcc4's cells) are decided by
// one, and when that BDD outgrows its bound satcheck decides after all.
// The classes are always satcheck's.
func TestClassesBySATOrBDD(t *testing.T) {
	ctx := context.Background()
	// shapes returns one next function reading moves per cone shape.
	shapes := func(b *builder, limit int) []int {
		var out []int
		seen := map[int]bool{}
		for i := range b.funcs {
			ff := &b.funcs[i]
			if ff.Function.Kind != grounding.FuncNext || len(ff.roles) == 0 || seen[b.shapeOf[i]] || len(out) == limit {
				continue
			}
			seen[b.shapeOf[i]] = true
			out = append(out, i)
		}
		return out
	}
	classes := func(b *builder, i int) [][][]int {
		t.Helper()
		ff := &b.funcs[i]
		cn, err := b.cone(ff.Function.Lit)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := b.classesBySATOrBDD(ctx, ff, cn)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	same := func(b *builder, i int, got, want [][][]int) {
		t.Helper()
		for ri := range want {
			if !slices.EqualFunc(got[ri], want[ri], slices.Equal) {
				t.Fatalf("%s, role %d: got %v, want %v", b.p.FunctionName(b.funcs[i].Function), ri, sizesOf(got[ri]), sizesOf(want[ri]))
			}
		}
	}

	t.Run("simulation settles", func(t *testing.T) {
		p := loadGame(t, "ggp-base/slidingpieces.kif")
		b := supportedBuilder(ctx, t, p)
		fs := shapes(b, -1)
		needSAT := 0
		for _, i := range fs {
			ff := &b.funcs[i]
			cn, err := b.cone(ff.Function.Lit)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := satcheck.ActionClassesSimulated(ctx, p, ff.Function.Lit, ff.roles, func(open int) [][]int { return b.classHints(ctx, ff, cn, open) }); errors.Is(err, satcheck.ErrNeedsSAT) {
				needSAT++
			} else if err != nil {
				t.Fatal(err)
			}
			want, err := satcheck.ActionClassesIncremental(ctx, p, ff.Function.Lit, ff.roles)
			if err != nil {
				t.Fatal(err)
			}
			same(b, i, classes(b, i), want)
		}
		// BDDs only where satcheck needs SAT (slidingpieces' blow up).
		w, f, s := b.bddClassWins.Load(), b.bddClassFails.Load(), b.simClassWins.Load()
		if needSAT == 0 || w+f != int64(needSAT) || s != int64(len(fs)-needSAT) {
			t.Fatalf("%d functions, %d need SAT: %d decided by BDDs, %d BDDs over their bound, %d settled by simulation", len(fs), needSAT, w, f, s)
		}
	})

	t.Run("BDDs where SAT would be needed", func(t *testing.T) {
		if testing.Short() {
			t.Skip("tttcc4's supports and SAT calls take seconds")
		}
		p := loadGame(t, "ggp-base/tttcc4.kif")
		b := supportedBuilder(ctx, t, p)
		d := newSupportBDD(grounding.DefaultBDDNodes, b.choiceBDDs.level, b.choiceBDDs.prop)
		fs := shapes(b, 4)
		decided := 0
		for _, i := range fs {
			cn, err := b.cone(b.funcs[i].Function.Lit)
			if err != nil {
				t.Fatal(err)
			}
			d.clear()
			want, err := d.classesByBDD(ctx, p, cn, b.funcs[i].roles)
			if err != nil {
				continue // over the bound: satcheck's case below
			}
			decided++
			same(b, i, classes(b, i), want)
		}
		if w := b.bddClassWins.Load(); decided == 0 || w != int64(decided) {
			t.Fatalf("%d of %d functions fit a BDD, %d decided by BDDs in classesBySATOrBDD", decided, len(fs), w)
		}

		// A manager too small for any of them: satcheck decides, with SAT.
		b.choiceBDDs = newChoiceBDDs(1, 256, b.choiceBDDs.level, b.choiceBDDs.prop)
		b.bddClassWins.Store(0)
		i := fs[0]
		want, err := satcheck.ActionClassesIncremental(ctx, p, b.funcs[i].Function.Lit, b.funcs[i].roles)
		if err != nil {
			t.Fatal(err)
		}
		same(b, i, classes(b, i), want)
		if w, f := b.bddClassWins.Load(), b.bddClassFails.Load(); w != 0 || f != 1 {
			t.Fatalf("small manager: %d decided by BDDs, %d over their bound; want 0 and 1", w, f)
		}
	})
}
