package groundgraph

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// coneValue evaluates cone cn gate by gate on the circuit inputs in.
func coneValue(cn *cone, in []bool, slots []bool) bool {
	slots = slots[:cn.NumSlots()]
	slots[0] = false
	for k, q := range cn.Inputs {
		slots[1+k] = in[q]
	}
	for gi := range cn.Gates {
		v := true
		for _, l := range cn.GateFanin(gi) {
			if slots[l>>1] == (l&1 == 1) {
				v = false
				break
			}
		}
		slots[cn.FirstGate()+gi] = v
	}
	return slots[cn.Root>>1] != (cn.Root&1 == 1)
}

// tableRowValue evaluates f's cone on row (word w, bit b) of table t,
// laid out over space sp, straight from the layout's definition: inputs
// the table does not vary are fixed as newTable documents.
func tableRowValue(p *grounding.Program, cn *cone, f grounding.Function, sp fnSpace, t *table, w, b int, in []bool, slots []bool) bool {
	clear(in)
	for j, q := range sp.props {
		if j < 6 {
			in[q] = b>>j&1 == 1
		} else {
			in[q] = (w%(1<<(t.kk-6)))>>(j-6)&1 == 1
		}
	}
	if f.Kind == grounding.FuncNext {
		for r := range p.Roles {
			a := 0 // a role the table does not vary does its first action
			if ri := slices.Index(sp.roles, r); ri >= 0 {
				d := &t.roles[ri]
				c := w / d.stride % d.radix
				if c < len(d.read) {
					a = int(d.read[c])
				} else {
					// The "other" digit: an action the cone does not read.
					for a = 0; ; a++ {
						if _, ok := slices.BinarySearch(cn.Inputs, int32(p.ActionInputBase(r)+a)); !ok {
							break
						}
					}
				}
			}
			in[p.ActionInputBase(r)+a] = true
		}
	}
	return coneValue(cn, in, slots)
}

// TestTableBitsMatchCircuit checks every bit of the tables of next
// functions over two roles (the outer-digit split, block keys and their
// memo, in chunks of 4 words and of the default size) against the circuit,
// and their action influences against the definition (at most 16
// functions a game).
func TestTableBitsMatchCircuit(t *testing.T) {
	for _, name := range []string{"ggp-base/checkersTiny.kif", "ggp-base/roshambo2.kif", "ggp-base/gt_prisoner.kif", "ggp-base-repo/ticTacToe.kif"} {
		t.Run(name, func(t *testing.T) {
			p, g := loadBuild(t, name, Options{})
			rng := rand.New(rand.NewPCG(7, 8))
			checked, split := 0, 0
			in := make([]bool, p.NumInputs())
			for i := range g.funcs {
				ff := &g.funcs[i]
				if !ff.Tabled || len(ff.roles) == 0 || ff.Rows > 1<<22 || checked == 16 {
					continue
				}
				cn, err := newCone(&p.Circuit, ff.Function.Lit)
				if err != nil {
					t.Fatal(err)
				}
				sp := fnSpace{roles: ff.roles}
				for _, q := range ff.Support.Props() {
					sp.props = append(sp.props, int32(q))
				}
				slots := make([]bool, cn.NumSlots())
				for _, blk := range []int{4, evalBlockWords} {
					tb, err := newTableBlk(context.Background(), p, cn, sp, true, blk, 0, 0)
					if err != nil {
						t.Fatal(err)
					}
					// Every word when few, else 512 random ones.
					words := make([]int, 0, tb.words)
					if tb.words <= 512 {
						for w := range tb.words {
							words = append(words, w)
						}
					} else {
						for range 512 {
							words = append(words, rng.IntN(tb.words))
						}
					}
					for _, w := range words {
						for b := range 64 {
							want := tableRowValue(p, cn, ff.Function, sp, tb, w, b, in, slots)
							if got := tb.bits[w]>>b&1 == 1; got != want {
								t.Fatalf("%s (block %d): word %d bit %d = %v, circuit %v", p.FunctionName(ff.Function), blk, w, b, got, want)
							}
						}
					}
					for ri := range tb.roles {
						n := len(p.Actions[tb.roles[ri].role])
						if got, want := tb.actionInfluence(ri, n), actionInfluenceDef(tb, ri, n); !slices.Equal(got, want) {
							t.Fatalf("%s role %d: actionInfluence = %v, want %v", p.FunctionName(ff.Function), ri, got, want)
						}
					}
					if tb.roles[len(tb.roles)-1].stride > blk {
						split++
					}
				}
				checked++
			}
			if checked == 0 {
				t.Fatal("no function over roles tabled")
			}
			t.Logf("%d functions checked, %d tables in several chunks", checked, split)
		})
	}
}

// TestTableOuterBlocks checks that the tables of checkersTiny's next
// functions over both roles evaluate their gates once per block key, not
// once per outer move: their gate evaluations stay below a quarter of
// gates times words (every gate on every word before the split: 1.3 M
// gate-words for (next (cell c 2 b)), 130 k now) (a cone of moves of both roles: the outer role's moves fall
// into a few keys).
func TestTableOuterBlocks(t *testing.T) {
	p, g := loadBuild(t, "ggp-base/checkersTiny.kif", Options{})
	checked := 0
	for i := range g.funcs {
		ff := &g.funcs[i]
		if !ff.Tabled || len(ff.roles) != 2 || ff.Rows < 1<<14 {
			continue
		}
		cn, err := newCone(&p.Circuit, ff.Function.Lit)
		if err != nil {
			t.Fatal(err)
		}
		sp := fnSpace{roles: ff.roles}
		for _, q := range ff.Support.Props() {
			sp.props = append(sp.props, int32(q))
		}
		tb, err := newTable(context.Background(), p, cn, sp, true)
		if err != nil {
			t.Fatal(err)
		}
		if full := int64(len(cn.Gates) * tb.words); tb.gateOps*4 > full {
			t.Errorf("%s: %d gate-words, gates × words %d", p.FunctionName(ff.Function), tb.gateOps, full)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no next function over both roles tabled")
	}
	t.Logf("%d functions checked", checked)
}

// TestSupportTablesBeyondBits checks the supports of checkersTiny's next
// functions whose syntactic space exceeds Options.SupportTableBits: some
// now come from a truth table (newTableWithin), and every one equals the
// support simulation and SAT give (MaxResidueTableWork < 0).
func TestSupportTablesBeyondBits(t *testing.T) {
	p, _ := loadBuild(t, "ggp-base/checkersTiny.kif", Options{MaxTableBits: -1, MaxCornerWeight: -1})
	withTable := &builder{p: p, opt: Options{}.withDefaults(), moves: true}
	withSim := &builder{p: p, opt: Options{MaxResidueTableWork: -1}.withDefaults(), moves: true}
	tabled, checked := 0, 0
	for _, f := range p.Functions() {
		if f.Kind != grounding.FuncNext || checked == 24 {
			continue
		}
		before, residues := withTable.gateWords.Load(), withTable.residueTables.Load()
		got, err := withTable.semanticSupport(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if withTable.gateWords.Load() == before || withTable.residueTables.Load() != residues {
			continue // simulation, maybe with a residue table
		}
		cn, err := newCone(&p.Circuit, f.Lit)
		if err != nil {
			t.Fatal(err)
		}
		logRows := 0.0
		for _, in := range cn.Inputs {
			if int(in) < len(p.Props) {
				logRows++
			}
		}
		for r := range p.Roles {
			if n := roleRadix(p, cn, r); n > 1 {
				logRows += math.Log2(float64(n))
			}
		}
		if logRows <= float64(withTable.opt.SupportTableBits) {
			continue
		}
		tabled++
		want, err := withSim.semanticSupport(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(&want) {
			t.Errorf("%s: support %v from its table, %v by simulation and SAT", p.FunctionName(f), got.Inputs(), want.Inputs())
		}
		checked++
	}
	if tabled == 0 {
		t.Fatal("no next function beyond SupportTableBits got its support from a table")
	}
	t.Logf("%d supports from tables checked", checked)
}

// TestSamplesSimWidth checks that a few samples are simulated on as few
// words as hold them, not on the width asked for (each flip costs every
// word).
func TestSamplesSimWidth(t *testing.T) {
	p, _ := loadBuild(t, "ggp-base-repo/ticTacToe.kif", Options{MaxTableBits: -1, MaxCornerWeight: -1})
	f := p.Functions()[0]
	cn, err := newCone(&p.Circuit, f.Lit)
	if err != nil {
		t.Fatal(err)
	}
	x := make(sample, (len(cn.Inputs)+63)/64)
	for _, n := range []int{1, 64, 65, 200} {
		samples := make([]sample, n)
		for i := range samples {
			samples[i] = x
		}
		if got, want := samplesSim(cn, samples, boundaryWords).W, (n+63)/64; got != want {
			t.Errorf("samplesSim of %d samples: %d words, want %d", n, got, want)
		}
	}
}

// TestTableWithinManyProps checks that a bounded table over more
// propositions than a word count can hold is refused, not built with
// zero words (skirmish's capture counters: 300 propositions and two
// roles; a zero-word table read as "depends on nothing").
func TestTableWithinManyProps(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testgames.Root(), "ggp-base/skirmish.kif"))
	if err != nil {
		t.Skip(err)
	}
	p, err := grounding.Load(context.Background(), "skirmish.kif", src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range p.Functions() {
		if f.Kind != grounding.FuncNext || checked == 4 {
			continue
		}
		cn, err := newCone(&p.Circuit, f.Lit)
		if err != nil {
			t.Fatal(err)
		}
		nP, _ := slices.BinarySearch(cn.Inputs, int32(len(p.Props)))
		if nP < 64 {
			continue
		}
		sp := fnSpace{props: slices.Clone(cn.Inputs[:nP])}
		for r := range p.Roles {
			if roleRadix(p, cn, r) > 1 {
				sp.roles = append(sp.roles, r)
			}
		}
		tb, err := newTableWithin(context.Background(), p, cn, sp, true, maxSupportTableWords, 1<<25)
		if err != nil {
			t.Fatal(err)
		}
		if tb != nil {
			t.Errorf("%s: %d propositions: a table of %d words, want none", p.FunctionName(f), nP, tb.words)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no next function of skirmish reads 64 propositions")
	}
}
