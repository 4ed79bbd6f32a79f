package groundgraph

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"reflect"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// bruteForce computes the features of ff by evaluating the whole circuit on
// every point of the semantic input space, straight from the definitions.
// Roles read but not semantic do their last action (Build fixes the first:
// the value must not depend on it).
func bruteForce(p *grounding.Program, ff *FuncFeatures) (models int64, inf, inter []int64) {
	props := ff.Support.Props()
	moves := ff.Function.Kind == grounding.FuncNext
	choice := make([]int, len(p.Roles)) // action of each role
	for r := range choice {
		choice[r] = len(p.Actions[r]) - 1
	}
	in := make([]bool, p.NumInputs())
	var vals []bool
	eval := func(bits uint64, ch []int) bool {
		clear(in)
		for j, q := range props {
			in[q] = bits>>j&1 == 1
		}
		if moves {
			for r, a := range ch {
				if a >= 0 {
					in[p.ActionInputBase(r)+a] = true
				}
			}
		}
		vals = p.Circuit.Eval(in, vals)
		return grounding.Value(vals, ff.Function.Lit)
	}
	inf = make([]int64, ff.Support.Len())
	k := len(props)
	inter = make([]int64, k*(k-1)/2)
	// Enumerate the semantic roles' choices as a mixed-radix counter.
	var each func(ri int, fn func())
	each = func(ri int, fn func()) {
		if ri == len(ff.roles) {
			fn()
			return
		}
		r := ff.roles[ri]
		for a := range p.Actions[r] {
			choice[r] = a
			each(ri+1, fn)
		}
	}
	each(0, func() {
		for x := uint64(0); x < 1<<k; x++ {
			fx := eval(x, choice)
			if fx {
				models++
			}
			for j := range k {
				if fx != eval(x^1<<j, choice) {
					inf[j]++
				}
			}
			n := 0
			for i := range k {
				for j := i + 1; j < k; j++ {
					if fx != eval(x^1<<i, choice) != eval(x^1<<j, choice) != eval(x^1<<i^1<<j, choice) {
						inter[n]++
					}
					n++
				}
			}
			// Action a of role r: f with r's choice replaced by a.
			for s := k; s < ff.Support.Len(); s++ {
				r, a := p.InputOf(ff.Support.At(s))
				old := choice[r]
				choice[r] = a
				if eval(x, choice) != fx {
					inf[s]++
				}
				choice[r] = old
			}
		}
	})
	return models, inf, inter
}

// bruteForceGames are the games whose small functions the brute-force tests
// check; longBruteForce are skipped in -short mode.
var (
	bruteForceGames = []string{
		"ggp-base-repo/ticTacToe.kif",
		"ggp-base/buttons.kif",
		"ggp-base/roshambo2.kif",
		"ggp-base/gt_prisoner.kif",
		"ggp-base/blocksWorldParallel.kif",
		"ggp-base/beatMania.kif",
		"testdata/goalFalse.kif",
		"testdata/moveIndependent.kif",
	}
	longBruteForce = []string{"ggp-base/gt_prisoner.kif", "ggp-base/blocksWorldParallel.kif"}
)

// loadBuild grounds and builds a test game.
func loadBuild(t *testing.T, name string, opt Options) (*grounding.Program, *Graph) {
	t.Helper()
	p := loadGame(t, name)
	g, err := Build(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	return p, g
}

func TestTableMatchesBruteForce(t *testing.T) {
	for _, name := range bruteForceGames {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && slices.Contains(longBruteForce, name) {
				t.Skip("slow in -short mode")
			}
			p, g := loadBuild(t, name, Options{})
			checked := 0
			for i := range g.funcs {
				ff := &g.funcs[i]
				if !ff.Tabled || ff.Rows > 1<<10 {
					continue
				}
				checked++
				models, inf, inter := bruteForce(p, ff)
				if ff.Interaction == nil {
					inter = nil
				}
				if len(inter) == 0 && len(ff.Interaction) == 0 {
					inter, ff.Interaction = nil, nil
				}
				if ff.Models != models || !slices.Equal(ff.Influence, inf) || !slices.Equal(ff.Interaction, inter) {
					t.Errorf("%s: models %d, influence %v, interaction %v; brute force %d, %v, %v",
						p.FunctionName(ff.Function), ff.Models, ff.Influence, ff.Interaction, models, inf, inter)
				}
			}
			if checked == 0 {
				t.Error("no function checked")
			}
			t.Logf("%d functions checked", checked)
		})
	}
}

// bruteCorners finds the corners of ff by definition: every set T of at
// most d semantic propositions, flipped from the anchor, that changes f
// while no T minus one proposition does.
func bruteCorners(p *grounding.Program, ff *FuncFeatures, d int) []CornerSet {
	props := ff.Support.Props()
	in := make([]bool, p.NumInputs())
	var vals []bool
	eval := func(anchor bool, set uint64) bool {
		clear(in)
		if ff.Function.Kind == grounding.FuncNext {
			// Any joint move (the function depends on none): each role's last action.
			for r, as := range p.Actions {
				in[p.ActionInputBase(r)+len(as)-1] = true
			}
		}
		for j, q := range props {
			in[q] = anchor != (set>>j&1 == 1)
		}
		vals = p.Circuit.Eval(in, vals)
		return grounding.Value(vals, ff.Function.Lit)
	}
	var out []CornerSet
	for _, anchor := range []bool{false, true} {
		f0 := eval(anchor, 0)
		var found []uint64
		for set := uint64(1); set < 1<<len(props); set++ {
			if bits.OnesCount64(set) > d || eval(anchor, set) == f0 {
				continue
			}
			minimal := true
			for rest := set; rest != 0; rest &= rest - 1 {
				if eval(anchor, set&^(rest&-rest)) != f0 {
					minimal = false
				}
			}
			if minimal {
				found = append(found, set)
			}
		}
		// Colex order of the sets by size, as Build lists them.
		slices.SortFunc(found, func(a, b uint64) int {
			if c := bits.OnesCount64(a) - bits.OnesCount64(b); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		for _, set := range found {
			c := CornerSet{FromTrue: anchor}
			for j, q := range props {
				if set>>j&1 == 1 {
					c.Props = append(c.Props, q)
				}
			}
			out = append(out, c)
		}
	}
	return out
}

func TestCornersMatchBruteForce(t *testing.T) {
	for _, name := range bruteForceGames {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && slices.Contains(longBruteForce, name) {
				t.Skip("slow in -short mode")
			}
			p, g := loadBuild(t, name, Options{MaxCorners: 1 << 20})
			checked := 0
			for i := range g.funcs {
				ff := &g.funcs[i]
				if ff.CornerRadius == 0 || ff.nProps > 12 {
					continue
				}
				checked++
				want := searchedLevels(bruteCorners(p, ff, ff.CornerRadius))
				if !slices.EqualFunc(ff.Corners, want, func(a, b CornerSet) bool {
					return a.FromTrue == b.FromTrue && slices.Equal(a.Props, b.Props)
				}) {
					t.Errorf("%s: corners %v, brute force %v", p.FunctionName(ff.Function), ff.Corners, want)
				}
			}
			if checked == 0 {
				t.Error("no function checked")
			}
		})
	}
}

// searchedLevels keeps the corners of the levels that the corner search
// visits: up to fullCornerWeight, and beyond it up to one level past the
// first level with corners, for each anchor.
func searchedLevels(cs []CornerSet) []CornerSet {
	var first [2]int
	for _, c := range cs {
		a := 0
		if c.FromTrue {
			a = 1
		}
		if first[a] == 0 || len(c.Props) < first[a] {
			first[a] = len(c.Props)
		}
	}
	var out []CornerSet
	for _, c := range cs {
		a := 0
		if c.FromTrue {
			a = 1
		}
		if len(c.Props) <= max(fullCornerWeight, first[a]+1) {
			out = append(out, c)
		}
	}
	return out
}

// TestTicTacToeCorners checks that the corners of "a line of x" from the
// empty state are the eight lines. (Terminal is true in the empty state,
// which has no blank cell: its corners are the nine blank cells.)
func TestTicTacToeCorners(t *testing.T) {
	p, g := loadBuild(t, "ggp-base-repo/ticTacToe.kif", Options{})
	lines := map[string]bool{}
	for _, l := range [][3]string{
		{"1 1", "1 2", "1 3"}, {"2 1", "2 2", "2 3"}, {"3 1", "3 2", "3 3"},
		{"1 1", "2 1", "3 1"}, {"1 2", "2 2", "3 2"}, {"1 3", "2 3", "3 3"},
		{"1 1", "2 2", "3 3"}, {"1 3", "2 2", "3 1"},
	} {
		for _, m := range []string{"x", "o"} {
			var ids []int
			for _, c := range l {
				id, _ := p.PropID("(cell " + c + " " + m + ")")
				ids = append(ids, id)
			}
			slices.Sort(ids)
			lines[fmt.Sprint(ids)] = true
		}
	}
	for _, ff := range g.funcs {
		name := p.FunctionName(ff.Function)
		var want int
		switch name {
		case "(goal xplayer 100)", "(goal oplayer 0)", "(goal oplayer 100)", "(goal xplayer 0)":
			want = 8
		default:
			continue
		}
		n := 0
		for _, c := range ff.Corners {
			if c.FromTrue {
				continue
			}
			n++
			if !lines[fmt.Sprint(c.Props)] {
				t.Errorf("%s: corner %v is not a line", name, c.Props)
			}
		}
		if n != want {
			t.Errorf("%s: %d corners from the empty state, want %d lines", name, n, want)
		}
	}
}

// TestTableClassesMatchSatcheck checks the action classes tabulate reads
// off a function's table against satcheck.ActionClassesIncremental (which
// a tabled function no longer calls).
func TestTableClassesMatchSatcheck(t *testing.T) {
	games := []string{"ggp-base-repo/ticTacToe.kif", "ggp-base/roshambo2.kif", "ggp-base/coins.kif", "ggp-base/chinesecheckers1.kif", "testdata/moveIndependent.kif"}
	for _, name := range games {
		t.Run(name, func(t *testing.T) {
			p, g := loadBuild(t, name, Options{})
			n := 0
			for i := range g.funcs {
				ff := &g.funcs[i]
				if !ff.Tabled || ff.actClasses == nil {
					continue
				}
				n++
				want, err := satcheck.ActionClassesIncremental(context.Background(), p, ff.Function.Lit, ff.roles)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(ff.actClasses, want) {
					t.Errorf("classes of %s = %v, want %v", p.FunctionName(ff.Function), ff.actClasses, want)
				}
			}
			if n == 0 {
				t.Errorf("no tabled function with action classes in %s", name)
			}
		})
	}
}

// TestBlockMemo checks that a memo finds the words kept under each key,
// padded with zeros to its block, finds no other key, and keeps nothing
// of an earlier chunk after reset (its arrays are reused).
func TestBlockMemo(t *testing.T) {
	var m blockMemo
	m.on = true
	for _, blk := range []int{3, 5} {
		m.reset(blk)
		for i := range 200 {
			key := []uint64{uint64(i % 7), uint64(i / 7)}
			if _, ok := m.find(key); ok {
				t.Fatalf("blk %d: key %v found before it was added", blk, key)
			}
			words := make([]uint64, 1+i%blk)
			for j := range words {
				words[j] = uint64(1000*blk + 10*i + j + 1)
			}
			m.add(key, words)
			m.on = true // find turns a memo of misses off
		}
		for i := range 200 {
			key := []uint64{uint64(i % 7), uint64(i / 7)}
			got, ok := m.find(key)
			if !ok {
				t.Fatalf("blk %d: key %v not found", blk, key)
			}
			for j := range blk {
				want := uint64(0)
				if j < 1+i%blk {
					want = uint64(1000*blk + 10*i + j + 1)
				}
				if got[j] != want {
					t.Fatalf("blk %d: key %v word %d = %d, want %d", blk, key, j, got[j], want)
				}
			}
		}
		if _, ok := m.find([]uint64{7, 0}); ok {
			t.Fatalf("blk %d: a key never added was found", blk)
		}
	}
}
