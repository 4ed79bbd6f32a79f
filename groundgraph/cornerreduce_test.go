package groundgraph

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gamequiv/gamequiv/gamegen"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// TestBallConeAgrees checks ballCone against the whole cone on every
// point within k flips of the anchor, on random functions (random gates,
// lines, running-count thresholds) with random fixed inputs.
func TestBallConeAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 12))
	trials := 2000
	if testing.Short() {
		trials = 500
	}
	smaller, points := 0, 0
	for trial := range trials {
		w := randomCornersWork(t, rng)
		cn := w.cn
		n := len(w.props)
		if n == 0 {
			continue
		}
		d := 1 + rng.IntN(min(3, n))
		anchor := rng.IntN(2) == 1
		pos, s, base, _, _ := w.atAnchor(anchor)
		bd := flipBounds(cn, s, pos, d+1, maxBoundWords)
		in := func(k int) []uint64 { return s.In(k)[:1] }
		for k := 1; k <= d; k++ {
			bc := ballCone(cn, bd, k)
			if len(bc.Gates) < len(cn.Gates) {
				smaller++
			}
			// Every set of at most k positions, one point at a time.
			for size := 0; size <= k; size++ {
				set := firstComb(size)
				for {
					for _, q := range pos {
						s.In(q)[0] = base
					}
					for _, j := range set {
						s.In(pos[j])[0] ^= 1
					}
					want, _ := cn.Simulate(1, in, nil, nil)
					got, _ := bc.Simulate(1, in, nil, nil)
					if got[0]&1 != want[0]&1 {
						t.Fatalf("trial %d anchor %v k %d: ballCone = %d at %v, cone %d", trial, anchor, k, got[0]&1, set, want[0]&1)
					}
					points++
					if !nextComb(set, n) {
						break
					}
				}
			}
		}
	}
	if smaller < trials/4 {
		t.Errorf("ballCone dropped gates %d times in %d trials: the test no longer exercises it", smaller, trials)
	}
	t.Logf("%d smaller ball cones, %d points checked", smaller, points)
}

// TestCornersBallCones compares run and breakers on ball cones with
// sparse flips against the whole cone with coneSim.Flip (w.plain): the
// same corners, tooMany flags, counts, wantMore and breakers, on random
// functions and on corpus games' functions.
func TestCornersBallCones(t *testing.T) {
	type result struct {
		corners  [][]int
		tooMany  bool
		counts   *cornerCounts
		wantMore bool
		breakers [2][][]int // with DefaultMaxBreakerArcs, and with 3
	}
	balls := 0
	compare := func(t *testing.T, what string, w *cornersWork) {
		t.Helper()
		for _, anchor := range []bool{false, true} {
			var rs [2]result
			for i, full := range []bool{true, false} {
				w.plain = full
				cs, tm, err := w.run(context.Background(), anchor)
				if err != nil {
					t.Fatal(err)
				}
				rs[i] = result{corners: cs, tooMany: tm, counts: w.counts, wantMore: w.wantMore}
				for a, mx := range []int{DefaultMaxBreakerArcs, 3} {
					if rs[i].breakers[a], err = w.breakers(context.Background(), anchor, cs, mx); err != nil {
						t.Fatal(err)
					}
				}
			}
			if !reflect.DeepEqual(rs[0], rs[1]) {
				t.Fatalf("%s anchor %v: run on ball cones = %+v, on the cone %+v", what, anchor, rs[1], rs[0])
			}
		}
		balls += w.balls
	}
	rng := rand.New(rand.NewPCG(8, 21))
	trials := 2000
	if testing.Short() {
		trials = 500
	}
	for range trials {
		w := randomCornersWork(t, rng)
		w.countProps = []int{0, 64}[rng.IntN(2)]
		if len(w.props) == 0 {
			continue
		}
		w.d = 1 + rng.IntN(min(DefaultMaxCornerWeight, len(w.props)))
		for w.d > 1 && ballPoints(len(w.props), w.d) > 1<<16 {
			w.d--
		}
		w.max = []int{1, 3, 20, DefaultMaxCorners}[rng.IntN(4)]
		compare(t, "random", w)
	}
	if balls < trials/2 {
		t.Errorf("%d levels on ball cones in %d trials: the test no longer exercises them", balls, trials)
	}
	// Exactly two of 22: its 231 corners (the pairs) are broken by any
	// third proposition, which only a ball cone of radius 3 still sees.
	c := &grounding.Circuit{NumInputs: 22, Start: make([]int32, 24)}
	var sel []grounding.Lit
	for i := range 22 {
		sel = append(sel, grounding.Lit(1+i)<<1)
	}
	two := addGate(c, []grounding.Lit{thresholdCircuit(c, sel, 2), thresholdCircuit(c, sel, 3) ^ 1})
	cn, err := newCone(c, two)
	if err != nil {
		t.Fatal(err)
	}
	w := &cornersWork{cn: cn, d: 2, max: DefaultMaxCorners, props: cn.Inputs}
	balls = 0
	compare(t, "exactly two", w)
	if cs, _, _ := w.run(context.Background(), false); len(cs) != 231 {
		t.Fatalf("exactly two: %d corners, want 231", len(cs))
	}
	if balls < 2 {
		t.Errorf("exactly two: %d ball cones, want the level's and the breakers'", balls)
	}
	srcs := map[string][]byte{
		"connect4-7x6": gamegen.ConnectK(4, 7, 6),
	}
	for _, name := range []string{"ggp-base/3pConnectFour.kif", "ggp-base/checkLines.kif", "ggp-base/pentago.kif", "ggp-base-repo/ticTacToe.kif"} {
		if b, err := os.ReadFile(filepath.Join(testgames.Root(), name)); err == nil {
			srcs[name] = b
		}
	}
	balls = 0
	for name, src := range srcs {
		p, err := grounding.Load(context.Background(), name, src, grounding.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		g, err := Build(context.Background(), p, Options{MaxCornerWeight: -1})
		if err != nil {
			t.Fatal(err)
		}
		for _, ff := range g.Functions() {
			if ff.nProps == 0 || len(ff.roles) > 0 {
				continue
			}
			d := 1
			for d < min(fullCornerWeight, ff.nProps) && ballPoints(ff.nProps, d+1) <= 1<<20 {
				d++
			}
			cn, err := newCone(&p.Circuit, ff.Function.Lit)
			if err != nil {
				t.Fatal(err)
			}
			w := &cornersWork{cn: cn, d: d, max: DefaultMaxCorners, countProps: DefaultMaxCornerCountProps}
			for _, in := range ff.Support.Props() {
				w.props = append(w.props, int32(in))
			}
			compare(t, name+" "+p.FunctionName(ff.Function), w)
		}
	}
	if balls == 0 && len(srcs) > 1 { // without the corpus, connect4 alone may not
		t.Errorf("no corpus function searched a ball cone: the test no longer exercises them")
	}
}
