package equiv

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// loadCorpus grounds a corpus game.
func loadCorpus(t *testing.T, path string) *grounding.Program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(testgames.Root(), path))
	if err != nil {
		t.Skipf("game corpus not available: %v", err)
	}
	p, err := grounding.Load(context.Background(), path, src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func propInput(t *testing.T, p *grounding.Program, name string) int32 {
	t.Helper()
	i, ok := p.PropID(name)
	if !ok {
		t.Fatalf("no proposition %s", name)
	}
	return int32(p.TrueInput(i).Node() - 1)
}

// TestCornerPairCounts counts the squares of quad_5x5's (goal x 100) that
// hold two cells, by hand: two cells on a unit square's diagonal are
// corners of three squares (the unit square and two tilted ones), two
// neighbours of two (the unit squares on either side). Pair types cannot
// tell these pairs apart (each pair completes some square); the counts can.
func TestCornerPairCounts(t *testing.T) {
	p := loadCorpus(t, "ggp-base/quad_5x5.kif")
	win := goalLit(p, 0, 100)
	cs := cornerSide{p: p, cones: map[grounding.Lit]*cornerCone{}, counts: map[cornerKey]cornerCounts{}}
	for _, tc := range []struct {
		a, b string
		want cornerCounts
	}{
		{"(cell r2 c2 x)", "(cell r3 c3 x)", cornerCounts{0, 0, 3}},
		{"(cell r2 c2 x)", "(cell r2 c3 x)", cornerCounts{0, 0, 2}},
		{"(cell r2 c2 x)", "(cell r2 c4 x)", cornerCounts{0, 0, 2}}, // a square of side 2, and one with them as its diagonal
		{"(cell r2 c2 x)", "(cell r2 c3 o)", cornerCounts{}},
	} {
		got, _, ok := cs.count(win, propInput(t, p, tc.a), propInput(t, p, tc.b))
		if !ok || got != tc.want {
			t.Errorf("count(win, %s, %s) = %v, %v, want %v", tc.a, tc.b, got, ok, tc.want)
		}
	}
}

// TestCornerPairsUnderTrueMapping: under a mutant's own translation every
// pair of every goal and terminal function has the counts of its image
// (soundness: the check must never prune the true mapping).
func TestCornerPairsUnderTrueMapping(t *testing.T) {
	pa, pb, sigma, funcs := gameMutantAndMapping(t, "ggp-base/quad_5x5.kif")
	ca := cornerSide{p: pa, cones: map[grounding.Lit]*cornerCone{}, counts: map[cornerKey]cornerCounts{}}
	cb := cornerSide{p: pb, cones: map[grounding.Lit]*cornerCone{}, counts: map[cornerKey]cornerCounts{}}
	in := func(p *grounding.Program, i int32) int32 { return int32(p.TrueInput(int(i)).Node() - 1) }
	pairs, nonzero := 0, 0
	for _, pf := range funcs {
		fn, fb, props := pf.fn, pf.fb, pf.props
		if len(props) > 64 {
			continue // seconds: the square goals are what the check is for
		}
		for x, i := range props {
			for _, j := range props[x+1:] {
				na, _, oka := ca.count(fn.Lit, in(pa, i), in(pa, j))
				nb, _, okb := cb.count(fb, in(pb, sigma[i]), in(pb, sigma[j]))
				if !oka || !okb || na != nb {
					t.Fatalf("%s: pair %s, %s: counts %v against %v under the true mapping", pa.FunctionName(fn), pa.Props[i], pa.Props[j], na, nb)
				}
				pairs++
				if na != (cornerCounts{}) {
					nonzero++
				}
			}
		}
	}
	if nonzero == 0 {
		t.Fatalf("no pair of %d is in any corner", pairs)
	}
	t.Logf("%d pairs, %d in some corner", pairs, nonzero)
}

// TestCornerPairCheckRefutes maps quad_5x5 onto itself with two cells on a
// diagonal sent to two neighbours: the check must refute it, and must not
// refute the identity on the same cells.
func TestCornerPairCheckRefutes(t *testing.T) {
	x := selfGame(t, loadCorpus(t, "ggp-base/quad_5x5.kif"))
	for _, tc := range []struct {
		name    string
		img     map[string]string
		refuted bool
	}{
		{"identity", map[string]string{"(cell r2 c2 x)": "(cell r2 c2 x)", "(cell r3 c3 x)": "(cell r3 c3 x)"}, false},
		{"diagonal onto neighbours", map[string]string{"(cell r2 c2 x)": "(cell r2 c2 x)", "(cell r3 c3 x)": "(cell r2 c3 x)"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := selfSearch(t, x, false)
			s.corners = newCornerPairCheck(x, x)
			partial, fixed := rolesFixed(x)
			for a, b := range tc.img {
				fixed = append(fixed, mapProp(t, x, partial, a, b))
			}
			if got := s.cornerPairsRefute(partial, fixed); got != tc.refuted {
				t.Errorf("cornerPairsRefute = %v, want %v", got, tc.refuted)
			}
		})
	}
}

// TestCornerPairRefutationBackjumps: the corner counts that refute quad_5x5's
// diagonal sent to neighbours depend only on the two cells and the goal's
// role, so the refutation must name the depth at which the later of them
// was fixed (3), not the node's (7), where a third cell was mapped.
func TestCornerPairRefutationBackjumps(t *testing.T) {
	x := selfGame(t, loadCorpus(t, "ggp-base/quad_5x5.kif"))
	s := selfSearch(t, x, false)
	s.corners = newCornerPairCheck(x, x)
	partial, fixed := rolesFixed(x)
	s.fixDepth = make([]int32, x.g.Order())
	for _, m := range []struct {
		a, b  string
		depth int32
	}{
		{"(cell r2 c2 x)", "(cell r2 c2 x)", 1},
		{"(cell r3 c3 x)", "(cell r2 c3 x)", 3},
		{"(cell r4 c4 o)", "(cell r4 c4 o)", 7},
	} {
		v := mapProp(t, x, partial, m.a, m.b)
		s.fixDepth[v] = m.depth
		fixed = append(fixed, v)
	}
	s.depthsOn, s.jumpTo = true, 7
	if !s.cornerPairsRefute(partial, fixed) {
		t.Fatal("cornerPairsRefute did not refute a diagonal sent to neighbours")
	}
	if s.jumpTo != 3 {
		t.Errorf("backjump depth %d, want 3 (the depth that fixed (cell r3 c3 x))", s.jumpTo)
	}
}

// overlapCorners has goals whose terms overlap, so that sets of three and
// four propositions change the goal while some of their subsets do too.
const overlapCorners = `(role r)
(p 1) (p 2) (p 3) (p 4) (p 5) (p 6) (p 7)
(init (x 1))
(<= (legal r (set ?i)) (p ?i))
(<= (next (x ?i)) (does r (set ?i)))
(<= (next (x ?i)) (true (x ?i)))
(<= terminal (true (x 7)))
(<= win (true (x 1)) (true (x 2)))
(<= win (true (x 1)) (true (x 3)) (true (x 4)))
(<= win (true (x 2)) (true (x 3)) (true (x 5)))
(<= win (true (x 3)) (true (x 4)) (true (x 5)) (true (x 6)))
(<= win (true (x 2)) (true (x 4)) (true (x 6)))
(<= win (true (x 4)) (true (x 7)))
(<= win (true (x 1)) (true (x 5)) (true (x 6)) (true (x 7)))
(<= win (true (x 3)) (true (x 6)) (not (true (x 7))) (not (true (x 2))))
(<= (goal r 100) win)
(<= (goal r 0) (not win))
`

// TestCornerCountsBruteForce: count agrees with the definition (a set of
// two to four propositions that changes f while no set of one fewer does),
// evaluated set by set on the circuit, for every pair of every goal and
// terminal function of small games.
func TestCornerCountsBruteForce(t *testing.T) {
	var seen cornerCounts // pairs in some corner of each size, over the games
	for _, path := range []string{"overlap", "ggp-base/quad_5x5.kif", "ggp-base/tictactoe.kif", "ggp-base/blocks.kif"} {
		var p *grounding.Program
		if path == "overlap" {
			var err error
			if p, err = grounding.Load(context.Background(), path, []byte(overlapCorners), grounding.Limits{}); err != nil {
				t.Fatal(err)
			}
		} else {
			p = loadCorpus(t, path)
		}
		cs := cornerSide{p: p, cones: map[grounding.Lit]*cornerCone{}, counts: map[cornerKey]cornerCounts{}}
		inputs := make([]bool, p.NumInputs())
		var vals []bool
		eval := func(f grounding.Lit, set ...int32) bool {
			for _, i := range set {
				inputs[i] = true
			}
			vals = p.Circuit.Eval(inputs, vals)
			for _, i := range set {
				inputs[i] = false
			}
			return grounding.Value(vals, f)
		}
		for _, fn := range p.Functions() {
			if fn.Kind != grounding.FuncGoal && fn.Kind != grounding.FuncTerminal {
				continue
			}
			cn, err := grounding.NewCone(&p.Circuit, fn.Lit)
			if err != nil {
				t.Fatal(err)
			}
			var props []int32 // circuit inputs
			for _, in := range cn.Inputs {
				if role, _ := p.InputOf(int(in)); role < 0 {
					props = append(props, in)
				}
			}
			if len(props) > 40 {
				continue
			}
			f0 := eval(fn.Lit)
			changes := func(set ...int32) bool { return eval(fn.Lit, set...) != f0 }
			corner := func(set []int32) bool {
				if !changes(set...) {
					return false
				}
				for k := range set {
					sub := append(append([]int32(nil), set[:k]...), set[k+1:]...)
					if changes(sub...) {
						return false
					}
				}
				return true
			}
			for x, i := range props {
				for _, j := range props[x+1:] {
					var want cornerCounts
					if corner([]int32{i, j}) {
						want[0]++
					}
					var rest []int32
					for _, u := range props {
						if u != i && u != j {
							rest = append(rest, u)
						}
					}
					for a, u := range rest {
						if corner([]int32{i, j, u}) {
							want[1]++
						}
						for _, v := range rest[a+1:] {
							if corner([]int32{i, j, u, v}) {
								want[2]++
							}
						}
					}
					got, _, ok := cs.count(fn.Lit, i, j)
					if !ok || got != want {
						t.Fatalf("%s %s, pair %s, %s: count %v (%v), by definition %v", path, p.FunctionName(fn), p.Props[i], p.Props[j], got, ok, want)
					}
					for k := range want {
						if want[k] > 0 {
							seen[k]++
						}
					}
				}
			}
		}
	}
	for k, n := range seen {
		if n == 0 {
			t.Errorf("no pair in a corner of %d propositions: that size went untested", k+2)
		}
	}
	t.Logf("pairs in a corner of two, three, four propositions: %v", seen)
}
