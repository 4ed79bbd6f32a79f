package grounding_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
)

// orderGames are corpus games whose rules have long bodies of independent
// static literals (connect5's nextcol chains) or a frame rule whose circuit
// size depends on the join order (skirmish), or lines of 15-16 atoms
// (pentago: its domain joins are planned greedily, and a plan made while
// the board was nearly empty joined five cells as a cross product).
var orderGames = []string{"connect5", "connectFour", "quarto", "breakthroughSmall", "tictactoe", "pentago"}

// permuteBodies returns f with the body literals of every rule permuted:
// reversed when seed is 0, shuffled by seed otherwise.
func permuteBodies(f *grounding.File, seed uint64) *grounding.File {
	g := *f
	g.Rules = make([]*grounding.Rule, len(f.Rules))
	rng := rand.New(rand.NewPCG(seed, 7))
	for i, r := range f.Rules {
		nr := *r
		nr.Body = slices.Clone(r.Body)
		if seed == 0 {
			slices.Reverse(nr.Body)
		} else {
			rng.Shuffle(len(nr.Body), func(a, b int) { nr.Body[a], nr.Body[b] = nr.Body[b], nr.Body[a] })
		}
		g.Rules[i] = &nr
	}
	return &g
}

// The join planner does not depend on the order of body literals: every
// permutation grounds to the same game with a circuit within 2x of the
// original's size (reorder-body variants used to run into MaxInstances).
func TestBodyOrderIndependent(t *testing.T) {
	for _, name := range orderGames {
		path := filepath.Join(corpusDir, "ggp-base", name+".kif")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("corpus not found: %v", err)
		}
		f, err := grounding.Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		orig, err := grounding.Ground(context.Background(), f, grounding.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		origDur := time.Since(start)
		for seed := uint64(0); seed < 3; seed++ {
			start := time.Now()
			p, err := grounding.Ground(context.Background(), permuteBodies(f, seed), grounding.Limits{})
			if err != nil {
				t.Fatalf("%s with bodies permuted (seed %d): %v", name, seed, err)
			}
			dur := time.Since(start)
			checkSameGame(t, orig, p, rand.New(rand.NewPCG(seed, 1)))
			if a, b := orig.Circuit.NumNodes(), p.Circuit.NumNodes(); b > 2*a || a > 2*b {
				t.Errorf("%s seed %d: %d circuit nodes, original %d", name, seed, b, a)
			}
			// Time is noisy on a loaded machine: only a gross difference fails.
			if dur > 10*origDur+time.Second {
				t.Errorf("%s seed %d: %v to ground, original %v", name, seed, dur, origDur)
			}
		}
	}
}
