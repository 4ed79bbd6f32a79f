package grounding_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// depthGame writes a ruleDepth-like game of depth n: prereqK has K bit
// arguments and holds at step K, or when both (quadratic: the one whose last
// bit matches) of its extensions hold. Quadratic makes the last bit matter
// (a position that is not free); extra adds a relation whose argument is
// tested by distinct (not free), one called with a constant outside its
// domain (never true), and a recursive one.
func depthGame(n int, quadratic, extra bool) string {
	var b strings.Builder
	b.WriteString("(role robot) (init (step 1)) (bit 0) (bit 1) (other 2)\n")
	b.WriteString("(<= (legal robot giveUp)) (<= (legal robot continue) (prereq1 0))\n")
	b.WriteString("(<= (next (step ?m)) (true (step ?k)) (succ ?k ?m)) (<= (next over) (does robot giveUp))\n")
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "(succ %d %d)\n", k, k+1)
	}
	fmt.Fprintf(&b, "(<= terminal (true over)) (<= terminal (true (step %d)))\n", n)
	b.WriteString("(<= (goal robot 100) (true (step ?k)) (prereq1 1)) (<= (goal robot 0) (not (prereq1 1)))\n")
	vars := func(k int) string {
		var vs []string
		for i := k - 1; i >= 0; i-- {
			vs = append(vs, fmt.Sprintf("?b%d", i))
		}
		return strings.Join(vs, " ")
	}
	bits := func(k int) string {
		var vs []string
		for i := k - 1; i >= 0; i-- {
			vs = append(vs, fmt.Sprintf("(bit ?b%d)", i))
		}
		return strings.Join(vs, " ")
	}
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "(<= (prereq%d %s) %s (true (step %d)))\n", k, vars(k), bits(k), k)
		if k == n {
			continue
		}
		if quadratic {
			for _, bit := range []string{"0", "1"} {
				fmt.Fprintf(&b, "(<= (prereq%d %s) %s (not (true (step %d))) (not (distinct ?b0 %s)) (prereq%d %s %s))\n", k, vars(k), bits(k), k, bit, k+1, vars(k), bit)
			}
			continue
		}
		fmt.Fprintf(&b, "(<= (prereq%d %s) %s (not (true (step %d))) (prereq%d %s 0) (prereq%d %s 1))\n", k, vars(k), bits(k), k, k+1, vars(k), k+1, vars(k))
	}
	if extra {
		b.WriteString("(<= (tested ?x) (bit ?x) (true (step 2)) (distinct ?x 1))\n")
		b.WriteString("(<= (legal robot (probe ?x)) (bit ?x) (tested ?x))\n")
		b.WriteString("(<= (legal robot never) (prereq2 2 0))\n")
		b.WriteString("(<= (legal robot (via ?y)) (other ?y) (prereq2 ?y 1))\n")
		b.WriteString("(<= (count ?x) (bit ?x) (true (step 1)))\n")
		b.WriteString("(<= (count ?x) (bit ?x) (true (step ?k)) (succ ?j ?k) (count ?x))\n")
		b.WriteString("(<= (legal robot wait) (count 1))\n")
	}
	return b.String()
}

// Dropping free argument positions changes no keyword function: with and
// without it the game grounds to the same propositions, actions and
// functions, with far fewer atoms.
func TestDropFreeArgsSameGame(t *testing.T) {
	for _, tc := range []struct {
		name             string
		quadratic, extra bool
	}{{"exponential", false, false}, {"quadratic", true, false}, {"exponential+extra", false, true}, {"quadratic+extra", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			src := depthGame(8, tc.quadratic, tc.extra)
			f, err := grounding.Parse("depth.kif", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			with, err := grounding.Ground(context.Background(), f, grounding.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			without, err := grounding.GroundNoArgFree(context.Background(), f, grounding.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			checkSameGame(t, without, with, rand.New(rand.NewPCG(11, 12)))
			// The circuits are the same size (the structural hash merges the
			// copies); the atoms are not.
			small := grounding.Limits{MaxAtoms: 150}
			if _, err := grounding.Ground(context.Background(), f, small); err != nil {
				t.Errorf("with free arguments dropped, not within 150 atoms: %v", err)
			}
			if _, err := grounding.GroundNoArgFree(context.Background(), f, small); err == nil {
				t.Error("grounds within 150 atoms as written: the game no longer shows what dropping gains")
			}
			if tc.extra {
				if _, ok := with.ActionID(0, "never"); ok {
					t.Error("(legal robot never) calls prereq2 with 2, no bit: it must not be an action")
				}
			}
		})
	}
}

// The corpus games whose relations have free positions (ruleDepthExponential
// and ruleDepthQuadratic only ground with them dropped) ground under the
// default limits; sudoku's is compared with the description as written.
func TestDropFreeArgsCorpus(t *testing.T) {
	for _, g := range []string{"ruleDepthExponential", "ruleDepthQuadratic", "sudoku"} {
		path := filepath.Join(corpusDir, "ggp-base", g+".kif")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("corpus not found: %v", err)
		}
		t.Run(g, func(t *testing.T) {
			f, err := grounding.Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			lim := grounding.Limits{LenientUnsafe: true}
			with, err := grounding.Ground(context.Background(), f, lim)
			if err != nil {
				t.Fatal(err)
			}
			if g != "sudoku" {
				return
			}
			without, err := grounding.GroundNoArgFree(context.Background(), f, lim)
			if err != nil {
				t.Fatal(err)
			}
			checkSameGame(t, without, with, rand.New(rand.NewPCG(13, 14)))
		})
	}
}
