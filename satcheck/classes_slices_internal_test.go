package satcheck

import (
	"context"
	"fmt"
	"iter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

func loadCorpusGame(t *testing.T, rel string) *grounding.Program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(testgames.Root(), rel))
	if err != nil {
		t.Skipf("game corpus not available: %v", err)
	}
	p, err := grounding.Load(context.Background(), rel, src, grounding.Limits{})
	if err != nil {
		t.Fatalf("Load(%s): %v", rel, err)
	}
	return p
}

// TestSliceHasherMatchesCofactorHasher checks sliceHasher, which rebuilds
// only the gates whose fanins changed, against grounding.CofactorHasher,
// which rebuilds a whole fanout: on corpus cones, with a quarter of the
// inputs fixed at random in the base and then one input at a time fixed,
// two cofactors get one literal from the one exactly when they do from
// the other (it fails when a changed gate does not pass the change on).
func TestSliceHasherMatchesCofactorHasher(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, game := range []string{"ggp-base/attritionWar.kif", "ggp-base/breakthroughSmall.kif", "ggp-base/tictactoe.kif"} {
		p := loadCorpusGame(t, game)
		for trial := range 12 {
			f := p.Next[rng.IntN(len(p.Next))]
			an, err := analyze(p, f)
			if err != nil {
				t.Fatal(err)
			}
			cn := an.cn
			if len(cn.Inputs) == 0 {
				continue
			}
			fixed := make([]int8, len(cn.Inputs)) // -1 free, else the constant
			for k := range fixed {
				fixed[k] = -1
				if rng.IntN(4) == 0 {
					fixed[k] = int8(rng.IntN(2))
				}
			}
			fix := func(k int) (bool, bool) { return fixed[k] == 1, fixed[k] >= 0 }
			ch := grounding.NewCofactorHasher(cn)
			sh := newSliceHasher(cn)
			want := []uint32{ch.SetBase(fix)} // the base, then each flip
			got := []uint32{sh.setBase(fix)}
			ks := []int{-1}
			for range 30 {
				k := rng.IntN(len(cn.Inputs))
				v := rng.IntN(2) == 1
				ks = append(ks, k)
				want = append(want, ch.LiteralWith(k, v))
				got = append(got, sh.with(k, v))
			}
			for i := range want {
				for j := range i {
					if (want[i] == want[j]) != (got[i] == got[j]) {
						t.Fatalf("%s trial %d: inputs %d and %d flipped: CofactorHasher says equal %v, sliceHasher %v",
							game, trial, ks[i], ks[j], want[i] == want[j], got[i] == got[j])
					}
				}
			}
		}
	}
}

// TestActionClassesSlicesNoUnsat: in attritionWar, a score's next
// function has a class of some 80 bids of each role that SAT proved equal
// by one UNSAT miter each (45 ms and 105 ms for (blackscore 93); 26 s
// for white in (whitescore 67)); on every slice of the other role's bids
// they are one circuit, so no UNSAT call remains, and the classes are
// those of the reference implementation.
func TestActionClassesSlicesNoUnsat(t *testing.T) {
	p := loadCorpusGame(t, "ggp-base/attritionWar.kif")
	ctx := context.Background()
	for _, name := range []string{"(blackscore 93)", "(whitescore 95)"} {
		id, ok := p.PropID(name)
		if !ok {
			t.Fatalf("no proposition %s", name)
		}
		unsat := defaultStats.satUnsat.Load()
		got, err := ActionClassesIncremental(ctx, p, p.Next[id], []int{0, 1})
		if err != nil {
			t.Fatal(err)
		}
		if d := defaultStats.satUnsat.Load() - unsat; d != 0 {
			t.Errorf("%s: %d UNSAT calls, want none", name, d)
		}
		for r := range 2 {
			want, err := referenceActionClasses(ctx, p, p.Next[id], r)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got[r]) != fmt.Sprint(want) {
				t.Errorf("%s role %d: ActionClassesIncremental = %v, reference %v", name, r, got[r], want)
			}
			if len(got[r]) < 2 || len(got[r]) == len(p.Actions[r]) {
				t.Errorf("%s role %d: %d classes of %d actions, want a class of several", name, r, len(got[r]), len(p.Actions[r]))
			}
		}
	}
}

// sliceRows returns, for every choice of group gi, its literals on every
// joint move of the other groups (all of them, not one per cofactor
// circuit as sliceKeys takes), rebuilt by one sliceHasher.
func sliceRows(an *analysis, gi int) []string {
	j := an.j
	h := newSliceHasher(an.cn)
	h.setBase(func(k int) (bool, bool) { return false, j.group[k] >= 0 })
	g := &j.groups[gi]
	rows := make([]string, g.radix())
	move := make([]int, len(j.groups))
	for {
		for o := range j.groups {
			if ms := j.groups[o].members; o != gi && move[o] < len(ms) {
				h.apply(int(ms[move[o]]), true)
			}
		}
		for c := range rows {
			l := h.root()
			if c < len(g.members) {
				l = h.with(int(g.members[c]), true)
			}
			rows[c] += fmt.Sprint(l, " ")
		}
		h.undo(0)
		o := 0
		for ; o < len(j.groups); o++ {
			if o == gi {
				continue
			}
			if move[o]++; move[o] < j.groups[o].radix() {
				break
			}
			move[o] = 0
		}
		if o == len(j.groups) {
			return rows
		}
	}
}

// TestSliceKeysOneChoicePerCircuit checks sliceKeys, which slices one
// choice per cofactor circuit of the group and of every other group,
// against slicing every choice on every joint move of the others: on
// every next function of two or more groups of small corpus games, the
// choices it groups are exactly those whose literals agree on every
// slice (it fails when a representative stands for a choice whose
// circuit differs).
func TestSliceKeysOneChoicePerCircuit(t *testing.T) {
	checked := 0
	for _, game := range []string{"ggp-base/checkersTiny.kif", "ggp-base/breakthroughSmall.kif", "ggp-base/tictactoe.kif"} {
		p := loadCorpusGame(t, game)
		for _, f := range p.Next {
			an, err := analyze(p, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(an.j.groups) < 2 {
				continue
			}
			for gi := range an.j.groups {
				rows := sliceRows(an, gi)
				all := allChoices(len(rows))
				want := grounding.GroupBy(all, func(c int) string { return rows[c] })
				got := an.newSliceKeys(gi).group(all)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s function %d group %d: sliceKeys groups %v, every slice %v", game, f, gi, got, want)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no function of two groups")
	}
}

// TestSliceKeysCost: a next function of checkersTiny reads some 125 moves
// of each role but as only 8 or 9 circuits per role; sliceKeys rebuilds
// one choice per circuit per circuit of the other role, not every move
// per move (checkers: 600 x 600 rebuilds per function, 25 s of its graph
// phase).
func TestSliceKeysCost(t *testing.T) {
	p := loadCorpusGame(t, "ggp-base/checkersTiny.kif")
	checked := 0
	for f, an := range twoGroupAnalyses(t, p) {
		radix := an.j.groups[0].radix()
		all := allChoices(radix)
		sk := an.newSliceKeys(0)
		if sk.group(all) == nil {
			t.Fatalf("function %d: no slice classes within maxSliceWork", f)
		}
		full := int64(radix) * int64(an.j.groups[1].radix())
		if got := sk.h.withs; 16*got > full {
			t.Errorf("function %d: %d choices rebuilt on slices, want at most 1/16 of the %d choices x joint moves", f, got, full)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no function of two groups beyond the exhaustive bound")
	}
}

// twoGroupAnalyses yields the analyses of p's next functions that read
// two groups and are beyond the exhaustive bound, with their functions.
func twoGroupAnalyses(t *testing.T, p *grounding.Program) iter.Seq2[grounding.Lit, *analysis] {
	return func(yield func(grounding.Lit, *analysis) bool) {
		for _, f := range p.Next {
			an, err := analyze(p, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(an.j.groups) == 2 && !an.small() && !yield(f, an) {
				return
			}
		}
	}
}

// TestSliceKeysCircuitWork: finding one choice per circuit within
// exactly its work slices the function; one gate less slices nothing.
func TestSliceKeysCircuitWork(t *testing.T) {
	p := loadCorpusGame(t, "ggp-base/checkersTiny.kif")
	for f, an := range twoGroupAnalyses(t, p) {
		all := allChoices(an.j.groups[0].radix())
		w := an.circuitWork()
		if got := an.newSliceKeysWithin(0, w).group(all); got == nil {
			t.Errorf("function %d: no slice classes within exactly the circuit work %d", f, w)
		}
		if got := an.newSliceKeysWithin(0, w-1).group(all); got != nil {
			t.Errorf("function %d: slice classes %v one gate past the circuit work %d, want none", f, got, w)
		}
		return
	}
	t.Fatal("no function of two groups beyond the exhaustive bound")
}
