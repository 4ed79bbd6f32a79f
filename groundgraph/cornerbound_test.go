package groundgraph

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/gamegen"
	"github.com/gamequiv/gamequiv/grounding"
)

// TestFlipBound checks flipBound against brute force on random circuits:
// the fewest semantic propositions whose flip from the anchor changes the
// root is never below the bound, with and without support packing, and
// every set of that many flips that changes it lies within a family.
func TestFlipBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	above1, withFamilies := 0, 0
	for trial := range 400 {
		n := 2 + rng.IntN(10)
		c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
		for node := n + 1; node < n+1+1+rng.IntN(25); node++ {
			var fs []grounding.Lit
			for range 1 + rng.IntN(5) {
				fs = append(fs, grounding.Lit(1+rng.IntN(node-1))<<1|grounding.Lit(rng.IntN(2)))
			}
			slices.Sort(fs)
			fs = slices.CompactFunc(fs, func(a, b grounding.Lit) bool { return a.Node() == b.Node() })
			c.Fanin = append(c.Fanin, fs...)
			c.Start = append(c.Start, int32(len(c.Fanin)))
		}
		root := grounding.Lit(c.NumNodes()-1)<<1 | grounding.Lit(rng.IntN(2))
		cn, err := newCone(c, root)
		if err != nil {
			t.Fatal(err)
		}
		// Semantic propositions: a random subset of the cone's inputs; one
		// other input may be fixed true (a next function's move).
		w := &cornersWork{cn: cn}
		for k, in := range cn.Inputs {
			switch rng.IntN(6) {
			case 0:
			case 1:
				w.on = append(w.on, k)
			default:
				w.props = append(w.props, in)
			}
		}
		if len(w.props) == 0 {
			continue
		}
		anchor := rng.IntN(2) == 1
		pos, s, _, _, f0 := w.atAnchor(anchor)
		// Brute force over every subset of the semantic propositions.
		best := len(pos) + 1
		var changing []uint64
		for m := uint64(1); m < 1<<len(pos); m++ {
			out, _ := cn.Simulate(1, func(k int) []uint64 {
				v := slices.Contains(w.on, k)
				if j := slices.Index(pos, k); j >= 0 {
					v = anchor != (m>>j&1 == 1)
				}
				if v {
					return []uint64{1}
				}
				return nil
			}, nil, nil)
			if (out[0]&1 == 1) != f0 {
				best = min(best, bits.OnesCount64(m))
				changing = append(changing, m)
			}
		}
		limit := len(pos) + 1
		for _, words := range []int{maxBoundWords, 0} {
			if b := flipBound(cn, s, pos, limit, words); b > best {
				t.Fatalf("trial %d: flipBound(words %d) = %d, but %d flips change the root", trial, words, b, best)
			}
		}
		if flipBound(cn, s, pos, limit, maxBoundWords) > 1 {
			above1++
		}
		// Every changing set of lb(root) propositions lies within the
		// support of one of the families.
		bd := flipBounds(cn, s, pos, limit, maxBoundWords)
		fam := bd.families()
		if bd.root() < limit && fam == nil {
			t.Fatalf("trial %d: no families", trial)
		}
		for _, m := range changing {
			if bits.OnesCount64(m) != bd.root() {
				continue
			}
			in := false
			for _, f := range fam {
				in = in || m&^bd.sup[f*bd.nw] == 0
			}
			if !in {
				t.Fatalf("trial %d: changing set %b of %d flips in no family of %v", trial, m, bd.root(), fam)
			}
			withFamilies++
		}
	}
	if above1 < 40 || withFamilies < 100 {
		t.Errorf("the bound exceeded 1 in %d trials and %d sets were checked against families: the test no longer exercises them", above1, withFamilies)
	}
}

// TestCornersSkipBoundedLevels checks that a corner search evaluates no
// level the flip bound rules out: from the all-true state, "a line of x"
// on Connect Four's 7x6 board changes only when at least one cell of each
// of its disjoint lines is emptied (more than 6), so the search up to
// radius 6 costs the anchor's evaluation alone and finds nothing.
func TestCornersSkipBoundedLevels(t *testing.T) {
	p, err := grounding.Load(context.Background(), "connect4-7x6", gamegen.ConnectK(4, 7, 6), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var line *FuncFeatures
	for _, ff := range g.Functions() {
		if f := ff.Function; f.Kind == grounding.FuncGoal && f.Role == 0 && f.Index == 100 {
			line = &ff
		}
	}
	if line == nil || line.nProps != 42 {
		t.Fatalf("goal 100 of role 0: %+v, want a function of the 42 cells of role 0", line)
	}
	cn, err := newCone(&p.Circuit, line.Function.Lit)
	if err != nil {
		t.Fatal(err)
	}
	w := &cornersWork{cn: cn, d: 6, max: DefaultMaxCorners}
	for _, in := range line.Support {
		w.props = append(w.props, int32(in))
	}
	cs, tooMany, err := w.run(context.Background(), true)
	if err != nil || tooMany || len(cs) != 0 {
		t.Fatalf("run from all-true = %v, %v, %v; want no corners", cs, tooMany, err)
	}
	if want := int64(len(cn.Gates)); w.ops != want {
		t.Errorf("run from all-true evaluated %d gate-words, want %d (the anchor only)", w.ops, want)
	}
	if !w.wantMore {
		t.Errorf("wantMore = false, want true (no corners up to radius 6 of 42 propositions)")
	}
	// From the empty state the bound is 4 and level 4 is evaluated on
	// the families alone, the 69 lines: two words, not C(42,4) points.
	w = &cornersWork{cn: cn, d: 4, max: DefaultMaxCorners, props: w.props}
	cs, tooMany, err = w.run(context.Background(), false)
	if err != nil || tooMany || len(cs) != 69 {
		t.Fatalf("run from empty = %d corners, %v, %v; want the 69 lines", len(cs), tooMany, err)
	}
	if want := int64(3 * len(cn.Gates)); w.ops > want {
		t.Errorf("run from empty evaluated %d gate-words, want at most %d", w.ops, want)
	}
}
