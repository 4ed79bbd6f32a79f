package equiv_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/mutate"
)

var gamesDir = testgames.Root() + string(filepath.Separator)

func source(t testing.TB, path string) equiv.Source {
	t.Helper()
	src, err := os.ReadFile(gamesDir + path)
	if err != nil {
		t.Skipf("game corpus not available: %v", err)
	}
	return equiv.Source{Name: path, GDL: src}
}

// TestTicTacToeNumberScrabble compares the classic pair with both ground
// graphs built at once (the default for small games) and one after the
// other (MaxConcurrentGraphNodes below the games' size).
func TestTicTacToeNumberScrabble(t *testing.T) {
	a, b := source(t, "ggp-base-repo/ticTacToe.kif"), source(t, "ggp-base/sum15.kif")
	for _, maxNodes := range []int{0, 1} {
		rep, err := equiv.Compare(context.Background(), a, b, equiv.Limits{MaxConcurrentGraphNodes: maxNodes})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != equiv.Equivalent {
			t.Fatalf("MaxConcurrentGraphNodes %d: verdict %s: %s", maxNodes, rep.Verdict, rep.Reason)
		}
		// The magic square: the centre cell is the number 5.
		if got := rep.Mapping.Propositions["(cell 2 2 x)"]; got != "(num 5 white)" {
			t.Errorf("MaxConcurrentGraphNodes %d: centre maps to %s, want (num 5 white)", maxNodes, got)
		}
		t.Logf("%+v", rep.Stats)
	}
}

func TestTicTacToeChangedGoal(t *testing.T) {
	a := source(t, "ggp-base-repo/ticTacToe.kif")
	b := a
	b.GDL = []byte(strings.Replace(string(a.GDL), "(<= (goal xplayer 50)", "(<= (goal xplayer 40)", 1))
	rep, err := equiv.Compare(context.Background(), a, b, equiv.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != equiv.NotEquivalent {
		t.Fatalf("verdict %s: %s", rep.Verdict, rep.Reason)
	}
	t.Log(rep.Reason)
}

func TestSymmetriesTicTacToe(t *testing.T) {
	rep, err := equiv.Symmetries(context.Background(), source(t, "ggp-base-repo/ticTacToe.kif"), equiv.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Order != "8" || rep.RoleSymmetric {
		t.Fatalf("order %s role symmetric %v, want 8 false", rep.Order, rep.RoleSymmetric)
	}
	t.Logf("%d generators, %d candidates, %v", len(rep.Generators), rep.Candidates, rep.PhaseMs)
}

// TestUnknownNamesPruningFunction: when the search runs out of nodes after
// early checks failed, the reason names the function that failed most. The
// factoring puzzle's goal needs corners of 4 to show its blocks; without
// corners its renamed copy prunes on terminal or the goal until the node
// limit (without backjumps: with them it finds the mapping within the
// limit, TestBackjumpsDecideWithinNodeLimit). Without plays either: the
// two-move plays (groundgraph's plays.go) show the blocks too.
func TestUnknownNamesPruningFunction(t *testing.T) {
	a, b := factoringRenamed(t)
	rep, err := equiv.Compare(context.Background(), a, b, equiv.Limits{
		Graph:      groundgraph.Options{MaxCornerWeight: -1, MaxJointMoves: -1},
		Search:     isomorph.Limits{MaxNodes: 300},
		NoBackjump: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	named := strings.Contains(rep.Reason, "; terminal differed from its image in ") || strings.Contains(rep.Reason, "; (goal robot ")
	if rep.Verdict != equiv.Unknown || !named || !strings.Contains(rep.Reason, "pruned subtrees") {
		t.Errorf("verdict %s: %s; want unknown naming terminal or a goal, which read the blocks", rep.Verdict, rep.Reason)
	}
}

// factoringRenamed is factoringTheTurk and its seed-1 renamed copy.
func factoringRenamed(t *testing.T) (a, b equiv.Source) {
	t.Helper()
	a = source(t, "ggp-base/factoringTheTurk.kif")
	f, err := grounding.Parse(a.Name, a.GDL)
	if err != nil {
		t.Fatal(err)
	}
	v, err := mutate.Equivalent(f, 1, mutate.Options{Ops: mutate.RenameSymbols})
	if err != nil {
		t.Fatal(err)
	}
	return a, equiv.Source{Name: "renamed", GDL: []byte(v.File.String())}
}

// TestBackjumpsDecideWithinNodeLimit: TestUnknownNamesPruningFunction's
// comparison with backjumps. The refutations there (terminal or the goal
// differing under the partial mapping, shown by a state of a few mapped
// blocks) depend on blocks fixed far above the refuted node; backjumping to
// them leaves the wrong subtrees at once, and the mapping is found and
// verified within the 300 nodes that the search without them spends
// refuting one subtree node by node. Over a minute of CPU: not under
// -short. Without plays, as TestUnknownNamesPruningFunction (with plays
// and without corners the graph search alone passes the 300 nodes).
func TestBackjumpsDecideWithinNodeLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute of CPU")
	}
	a, b := factoringRenamed(t)
	rep, err := equiv.Compare(context.Background(), a, b, equiv.Limits{
		Graph:  groundgraph.Options{MaxCornerWeight: -1, MaxJointMoves: -1},
		Search: isomorph.Limits{MaxNodes: 300},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != equiv.Equivalent || rep.Stats.Backjumps == 0 {
		t.Errorf("verdict %s after %d nodes and %d backjumps: %s; want equivalent, with backjumps", rep.Verdict, rep.Stats.SearchNodes, rep.Stats.Backjumps, rep.Reason)
	}
	t.Logf("%d nodes, %d pruned, %d backjumps, %v", rep.Stats.SearchNodes, rep.Stats.Pruned, rep.Stats.Backjumps, rep.Stats.PhaseMs)
}

// TestMixedRoleIsomorphisms compares ad_game_2x2 with its seed-1 mutant,
// whose ground graphs have isomorphisms that map one role's actions onto
// two roles' actions: such partial mappings are pruned and such complete
// ones are no candidates. The comparison used to stop with "invalid
// mapping: actions of role 0 ... map to roles 1 and 0" in the search. Its
// verification then takes minutes (thousands of SAT sweeping questions),
// so the test stops it after 10 s and wants no error: equivalent, or
// unknown at the time limit.
func TestMixedRoleIsomorphisms(t *testing.T) {
	src := source(t, "ggp-base/ad_game_2x2.kif")
	f, err := grounding.Parse(src.Name, src.GDL)
	if err != nil {
		t.Fatal(err)
	}
	v, err := mutate.Equivalent(f, 1, mutate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pa, err := grounding.Ground(ctx, f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	pb, err := grounding.Ground(ctx, v.File, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := equiv.ComparePrograms(ctx, pa, pb, equiv.Limits{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict == equiv.NotEquivalent {
		t.Fatalf("verdict %s: %s", rep.Verdict, rep.Reason)
	}
}
