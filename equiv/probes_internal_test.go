package equiv

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/mutate"
)

// TestProbeCheckKeepsVerifiedMappings checks the soundness of the probe
// check as TestCellCheckKeepsVerifiedMappings does the cell check's: among
// all graph isomorphisms, every one that verifies must still be reached
// with the probe check alone pruning the search, on games of one and of
// two roles whose ground graphs have more isomorphisms than the games have
// verified mappings, against themselves and against mutants (roles and
// actions renumbered). The check must prune somewhere.
func TestProbeCheckKeepsVerifiedMappings(t *testing.T) {
	probeRefuter := func(s *search) func(*isomorph.Node) bool {
		s.probes = newProbeCheck(s.ctx, s.a, s.b, s.lim)
		return s.probesRefute
	}
	pruned := int64(0)
	for _, path := range []string{"ggp-base-repo/ticTacToe.kif", "ggp-base/coins.kif", "ggp-base/pentago.kif",
		"ggp-base/buttons.kif", "ggp-base/sum15.kif", "ggp-base/tictactoe_3d_small_2player.kif"} {
		pa, pb, _ := gameAndMutant(t, path)
		pruned += keepsVerified(t, path+" vs itself", pa, pa, probeRefuter)
		pruned += keepsVerified(t, path+" vs mutant", pa, pb, probeRefuter)
	}
	if pruned == 0 {
		t.Error("the probe check refuted no node on any game")
	}
}

// TestProbeRelationsUnderTrueMapping checks the claim the probe check
// rests on: a game mapping maps the outcome of every two-move play (x, y)
// of A onto that of (σx, σy) in B. Each game is compared with a mutant
// (every transformation but pair-args, which may reorder roles and
// actions) under the mutation's own translation, the defaults of the other
// roles being an action and its image. The relations must also tell some
// actions apart (else the check could never prune): mapping x onto the
// image of another action changes some outcome.
func TestProbeRelationsUnderTrueMapping(t *testing.T) {
	for _, path := range []string{
		"ggp-base-repo/ticTacToe.kif",
		"ggp-base-repo/connectFour.kif",
		"ggp-base/nim1.kif",
		"ggp-base/breakthroughSmall.kif",
	} {
		t.Run(path, func(t *testing.T) {
			pa, pb, v := gameAndMutant(t, path)
			lim := Limits{}.WithDefaults()
			c := newProbeCheck(context.Background(), game{p: pa}, game{p: pb}, &lim)
			roleB := make([]int32, len(pa.Roles))
			da, db := make([]int32, len(pa.Roles)), make([]int32, len(pb.Roles))
			act := make([][]int32, len(pa.Roles)) // act[r][x]: σx in role roleB[r]
			for r, name := range pa.Roles {
				rb, ok := pb.RoleID(translate(t, v, name))
				if !ok {
					t.Fatalf("role %s has no image", name)
				}
				roleB[r] = int32(rb)
				for _, a := range pa.Actions[r] {
					ab, ok := pb.ActionID(rb, translate(t, v, a))
					if !ok {
						t.Fatalf("action %s of %s has no image", a, name)
					}
					act[r] = append(act[r], int32(ab))
				}
				da[r], db[rb] = 0, act[r][0]
			}
			c.setUp(roleB, da, db)
			c.computeRelations()
			if c.off {
				t.Fatal("the probe check is off")
			}
			moved := 0
			for r, rb := range c.roleB {
				n := len(pa.Actions[r])
				ra, rbRel := c.a.rel[r], c.b.rel[rb]
				for x := range n {
					for y := range n {
						if ra[x*n+y] != rbRel[int(act[r][x])*n+int(act[r][y])] {
							t.Fatalf("role %s: play (%s, %s) differs from its image's", pa.Roles[r], pa.Actions[r][x], pa.Actions[r][y])
						}
					}
				}
				// x sent onto the image of x+1: some outcome must change.
				for x := range n - 1 {
					for y := range n {
						if ra[x*n+y] != rbRel[int(act[r][x+1])*n+int(act[r][y])] {
							moved++
							break
						}
					}
				}
			}
			if moved == 0 {
				t.Errorf("no action told apart from its neighbour by its plays")
			}
		})
	}
}

// TestProbeCheckQueens compares a 6x6 queens puzzle (testdata/queens6.kif,
// the corpus game queens on a smaller board) with renamed copies. Its
// ground graph cannot tell the cells apart (each placement reads and sets
// its own cell alike); only the goal, which counts the queens that another
// attacks, can, and it reads every cell. Without the probe check the search
// ran 213,250 nodes in 300 s without a verdict (and stops at this test's
// node limit); with it, two-move plays show which placements attack each
// other and the search needs under 2,000 nodes. Under -short one renaming.
func TestProbeCheckQueens(t *testing.T) {
	src, err := os.ReadFile("testdata/queens6.kif")
	if err != nil {
		t.Fatal(err)
	}
	f, err := grounding.Parse("queens6.kif", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pa, err := grounding.Ground(ctx, f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	seeds := []int64{1, 2}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		v, err := mutate.Equivalent(f, seed, mutate.Options{Ops: mutate.RenameSymbols | mutate.ReorderRules})
		if err != nil {
			t.Fatal(err)
		}
		pb, err := grounding.Ground(ctx, v.File, grounding.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		lim := Limits{Timeout: 5 * time.Minute, Search: isomorph.Limits{MaxNodes: probeQueensMaxNodes}}
		rep, err := ComparePrograms(ctx, pa, pb, lim)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != Equivalent {
			t.Fatalf("seed %d: %s (%s) after %d nodes, want equivalent", seed, rep.Verdict, rep.Reason, rep.Stats.SearchNodes)
		}
		t.Logf("seed %d: equivalent after %d search nodes, %d pruned", seed, rep.Stats.SearchNodes, rep.Stats.Pruned)
	}
}

// probeQueensMaxNodes bounds TestProbeCheckQueens's searches.
const probeQueensMaxNodes = 20_000
