package equiv_test

import (
	"context"
	"errors"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// symmetryGames are games with known symmetry groups, and games whose
// ground graphs have automorphisms that are not symmetries, so that
// Symmetries must search for the subgroup (coins: graph group 16, game
// group 2; pentago: 2048 and 8).
var symmetryGames = []struct {
	path  string
	order int64 // the known order, or 0 to rely on brute force alone
}{
	{"ggp-base-repo/ticTacToe.kif", 8},
	{"ggp-base-repo/connectFour.kif", 2},
	{"ggp-base/breakthroughSmall.kif", 2},
	{"ggp-base/coins.kif", 0},
	{"ggp-base/coins_atomic.kif", 0},
	{"ggp-base/pentago.kif", 0},
	// Graph groups larger than the game group, small enough for brute force.
	{"ggp-base/roshambo2.kif", 2},
	{"ggp-base/test_case_2b.kif", 1},
	{"ggp-base/simpleMutex.kif", 1},
	{"ggp-base/buttons.kif", 1},
	{"ggp-base/pancakes.kif", 1},
}

// maxBruteElements bounds the graph groups whose elements are verified one
// by one.
const maxBruteElements = 4096

// TestSymmetriesBrute checks the order of Symmetries against the number of
// the ground graph's automorphisms that satcheck verifies one by one (every
// symmetry is an automorphism), against the known order where there is
// one, and verifies every generator it reports.
func TestSymmetriesBrute(t *testing.T) {
	searched := 0
	for _, tc := range symmetryGames {
		t.Run(tc.path, func(t *testing.T) {
			src := source(t, tc.path)
			p, err := grounding.Load(context.Background(), tc.path, src.GDL, grounding.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := equiv.ProgramSymmetries(context.Background(), p, equiv.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.order != 0 && rep.Order != big.NewInt(tc.order).String() {
				t.Errorf("order %s, want %d", rep.Order, tc.order)
			}
			for i, gen := range rep.Generators {
				for q, img := range gen.Propositions {
					if q == img {
						t.Errorf("generator %d lists %s, which it does not move", i, q)
					}
				}
				m, err := gen.SymmetryIndexes(p)
				if err != nil {
					t.Fatal(err)
				}
				res, err := satcheck.Verify(context.Background(), p, p, m, satcheck.Options{})
				if err != nil || res.Verdict != satcheck.Equivalent {
					t.Fatalf("generator %d does not verify: %v %v", i, res, err)
				}
			}
			g, err := groundgraph.Build(context.Background(), p, groundgraph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			grp, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Order != grp.Order.String() {
				searched++
			}
			if grp.Order.Cmp(big.NewInt(maxBruteElements)) > 0 {
				t.Logf("graph group %v: brute force skipped", grp.Order)
				return
			}
			verified := 0
			for perm := range grp.Elements() {
				m, err := g.Mapping(g, isomorph.Mapping(perm))
				if err != nil {
					t.Fatal(err)
				}
				res, err := satcheck.Verify(context.Background(), p, p, m, satcheck.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict == satcheck.Equivalent {
					verified++
				}
			}
			if got := big.NewInt(int64(verified)).String(); rep.Order != got {
				t.Errorf("order %s, brute force over the %v automorphisms %s", rep.Order, grp.Order, got)
			}
			t.Logf("order %s of graph group %v; %d generators, %d search nodes", rep.Order, grp.Order, len(rep.Generators), rep.SearchNodes)
		})
	}
	if searched < 2 {
		t.Errorf("only %d games needed the subgroup search: the test does not exercise it", searched)
	}
}

// TestProgramSymmetriesTimeout checks that ProgramSymmetries keeps
// lim.Timeout on its own, as ComparePrograms does (it once relied on
// Symmetries' context): queens' subgroup search runs for many minutes.
func TestProgramSymmetriesTimeout(t *testing.T) {
	src := source(t, "ggp-base/queens.kif")
	p, err := grounding.Load(context.Background(), src.Name, src.GDL, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	const limit = 2 * time.Second
	start := time.Now()
	_, err = equiv.ProgramSymmetries(context.Background(), p, equiv.Limits{Timeout: limit})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ProgramSymmetries = %v, want the deadline", err)
	}
	// Generous: the machine's load can delay the return, never by minutes.
	if d := time.Since(start); d > limit+30*time.Second {
		t.Errorf("ProgramSymmetries returned after %v with a %v limit", d, limit)
	}
}

// TestSymmetriesProbeRestrict: on games whose subgroup search descends
// into cosets where the pair outcomes of two-move plays tell the board's
// cells apart, choosing a coset's children by the probe colours
// (Coset.Restrict) must give the same exact order with fewer search nodes
// than entering every child (NoProbeRestrict). Without the restriction the
// node counts are equal and the test fails.
// TestSymmetriesProbeRestrictCuts: on a 4x4 queens puzzle (from the
// review of issue-sym16) the restriction cuts children of cosets and the
// search still reaches the exact group, 8 (47 nodes against 672). The
// ground graph is built without plays here: with them its group is the
// game's and no coset is searched (checked last).
func TestSymmetriesProbeRestrictCuts(t *testing.T) {
	gdl, err := os.ReadFile("testdata/queens4.kif")
	if err != nil {
		t.Fatal(err)
	}
	src := equiv.Source{Name: "queens4.kif", GDL: gdl}
	rep, err := equiv.Symmetries(context.Background(), src, noPlays)
	if err != nil {
		t.Fatal(err)
	}
	all, err := equiv.Symmetries(context.Background(), src, equiv.Limits{Graph: noPlays.Graph, NoProbeRestrict: true})
	if err != nil {
		t.Fatal(err)
	}
	withPlays, err := equiv.Symmetries(context.Background(), src, equiv.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if withPlays.Order != "8" || withPlays.GraphOrder != "8" || withPlays.SearchNodes != 0 {
		t.Errorf("with plays: order %s, graph order %s, %d search nodes; want 8, 8 and none", withPlays.Order, withPlays.GraphOrder, withPlays.SearchNodes)
	}
	if rep.Order != "8" || all.Order != "8" {
		t.Fatalf("order %s, %s without the restriction; want 8", rep.Order, all.Order)
	}
	if 2*rep.SearchNodes >= all.SearchNodes {
		t.Errorf("%d search nodes with the restriction, %d without", rep.SearchNodes, all.SearchNodes)
	}
}

// noPlays builds ground graphs without plays (groundgraph's plays.go), whose
// group can then be larger than the game's, as the subgroup search's tests
// need.
var noPlays = equiv.Limits{Graph: groundgraph.Options{MaxJointMoves: -1}}

func TestSymmetriesProbeRestrict(t *testing.T) {
	for _, path := range []string{"ggp-base/tictactoex9.kif", "ggp-base/nineBoardTicTacToe.kif"} {
		src := source(t, path)
		rep, err := equiv.Symmetries(context.Background(), src, noPlays)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		all, err := equiv.Symmetries(context.Background(), src, equiv.Limits{Graph: noPlays.Graph, NoProbeRestrict: true})
		if err != nil {
			t.Fatalf("%s without the restriction: %v", path, err)
		}
		if rep.Order != "8" || all.Order != "8" {
			t.Fatalf("%s: order %s, %s without the restriction; want 8", path, rep.Order, all.Order)
		}
		if rep.SearchNodes >= all.SearchNodes {
			t.Errorf("%s: %d search nodes with the restriction, %d without", path, rep.SearchNodes, all.SearchNodes)
		}
		t.Logf("%s: %d search nodes with the restriction, %d without", path, rep.SearchNodes, all.SearchNodes)
	}
}
