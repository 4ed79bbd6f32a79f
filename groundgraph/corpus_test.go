package groundgraph_test

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
)

// corpusGroundTimeout: corpus games that do not ground within it are
// skipped (TestCorpus is about graphs, not grounding).
const corpusGroundTimeout = 2 * time.Second

// A few corpus games spend minutes in SAT calls for semantic supports (see
// the package doc, Cost), and the external tools can take a minute on
// others: the flags below keep TestCorpus inside the CI budget of the
// whole test command. Games run smallest file first, so a budget cuts off
// the largest ones; every game left out is reported with SKIPPED.
var (
	corpusBuildTimeout = flag.Duration("corpus.build-timeout", time.Minute,
		"TestCorpus: bound on one Build (a game over it is skipped with a notice)")
	corpusBudget = flag.Duration("corpus.budget", 6*time.Minute,
		"TestCorpus: start no new game after this much time (0: no budget)")
)

// shortCorpus lists the corpus games TestCorpus builds in -short mode:
// small ones of varied kinds (all build in well under a second).
var shortCorpus = []string{
	"ggp-base-repo/ticTacToe.kif", "ggp-base-repo/connectFour.kif", "ggp-base-repo/maze.kif",
	"ggp-base/sum15.kif", "ggp-base/buttons.kif", "ggp-base/blocks.kif", "ggp-base/beatMania.kif",
	"ggp-base/asteroids.kif", "ggp-base/breakthroughSmall.kif", "ggp-base/3pConnectFour.kif",
	"ggp-base/checkLines.kif", "ggp-base/roshambo2.kif", "ggp-base/gt_prisoner.kif",
	"ggp-base/tictactoe_3player.kif", "ggp-base/nim1.kif", "ggp-base/hanoi.kif",
}

// TestCorpus builds the graph of every corpus game that grounds within
// corpusGroundTimeout (in -short mode only shortCorpus), checks its shape
// and compares isomorph with nauty and bliss on it (checkExternal).
func TestCorpus(t *testing.T) {
	var names []string
	for _, dir := range []string{"ggp-base", "ggp-base-repo"} {
		files, _ := filepath.Glob(filepath.Join(gamesDir, dir, "*.kif"))
		for _, f := range files {
			names = append(names, filepath.Join(dir, filepath.Base(f)))
		}
	}
	if len(names) == 0 {
		t.Skip("no corpus at " + gamesDir)
	}
	size := func(name string) int64 {
		fi, err := os.Stat(filepath.Join(gamesDir, name))
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(size(a), size(b)) })
	start := time.Now()
	built, overBudget, overBuild := 0, 0, 0
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && !slices.Contains(shortCorpus, name) {
				t.Skip("not in shortCorpus")
			}
			if *corpusBudget > 0 && time.Since(start) > *corpusBudget {
				overBudget++
				t.Skipf("SKIPPED: -corpus.budget=%v used up", *corpusBudget)
			}
			src, err := os.ReadFile(filepath.Join(gamesDir, name))
			if err != nil {
				t.Fatal(err)
			}
			p, err := grounding.Load(context.Background(), name, src, grounding.Limits{Timeout: corpusGroundTimeout})
			if errors.Is(err, grounding.ErrLimit) {
				t.Skipf("does not ground within the limits: %v", err)
			}
			if err != nil {
				t.Skipf("does not ground: %.200v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), *corpusBuildTimeout)
			defer cancel()
			g, err := groundgraph.Build(ctx, p, groundgraph.Options{})
			if errors.Is(err, context.DeadlineExceeded) {
				overBuild++
				t.Skipf("SKIPPED: Build takes over -corpus.build-timeout=%v", *corpusBuildTimeout)
			}
			if err != nil {
				t.Fatalf("Build = %v", err)
			}
			checkShape(t, g)
			checkExternal(t, name, g)
			s := g.Stats()
			t.Logf("%d vertices %v, %d edges, %d colours; %d functions, %d tabled (%d rows, %d skipped); supports %v, features %v",
				s.Vertices, s.ByKind, s.Edges, s.Colors, s.Functions, s.Tabled, s.TableRows, s.SkippedTables,
				s.Support.Round(time.Millisecond), s.Features.Round(time.Millisecond))
			built++
		})
	}
	t.Logf("%d of %d corpus games built; SKIPPED: %d over the build timeout, %d after the budget", built, len(names), overBuild, overBudget)
}

// checkShape checks the layout of a graph against its program: vertex
// counts, sorted in-range out-lists, and which kinds arcs join.
func checkShape(t *testing.T, g *groundgraph.Graph) {
	t.Helper()
	p := g.Program()
	s := g.Stats()
	nActions := 0
	for _, as := range p.Actions {
		nActions += len(as)
	}
	if s.Vertices != g.Order() || s.ByKind[groundgraph.Prop] != len(p.Props) || s.ByKind[groundgraph.Action] != nActions ||
		s.ByKind[groundgraph.Role] != len(p.Roles) || s.ByKind[groundgraph.Terminal] != 1 {
		t.Fatalf("vertex counts %v (%d), program has %d props, %d actions, %d roles", s.ByKind, g.Order(), len(p.Props), nActions, len(p.Roles))
	}
	edges := 0
	in := make([]int, g.Order())
	for u := range g.Order() {
		out := g.Out(u)
		edges += len(out)
		if !slices.IsSorted(out) {
			t.Fatalf("Out(%d) not sorted", u)
		}
		ku := g.Vertex(u).Kind
		for _, v := range out {
			if v < 0 || int(v) >= g.Order() {
				t.Fatalf("arc %d->%d out of range", u, v)
			}
			in[v]++
			kv := g.Vertex(int(v)).Kind
			ok := false
			switch ku {
			case groundgraph.Prop:
				ok = kv != groundgraph.Role
			case groundgraph.Action:
				// Actions are inputs of next functions (props), of their
				// influence and action classes, and belong to their role.
				// And the joint moves they are part of (joint.go).
				ok = kv == groundgraph.Prop || kv == groundgraph.Role || kv == groundgraph.Influence || kv == groundgraph.ActionClass ||
					kv == groundgraph.JointMove || kv == groundgraph.Play
			case groundgraph.Goal:
				ok = kv == groundgraph.Role
			case groundgraph.Role:
				// A role arc stands for all the role's actions as inputs of
				// a next function (Support.roleAt), or for the actions of the
				// implicit largest class of a role with many actions
				// (restclass.go).
				ok = kv == groundgraph.Prop || kv == groundgraph.ActionClass
			case groundgraph.Interaction, groundgraph.Corner, groundgraph.Influence, groundgraph.CornerPair, groundgraph.ActionClass:
				// A vertex of a function's features points to the function;
				// an action class also to the corners of its cofactors.
				ok = kv <= groundgraph.Terminal && kv != groundgraph.Role ||
					ku == groundgraph.ActionClass && kv == groundgraph.Corner
			case groundgraph.CornerBreakers:
				ok = kv == groundgraph.Corner
			case groundgraph.JointMove:
				// To the action whose view is the larger.
				ok = kv == groundgraph.Action
			case groundgraph.Play:
				// To its second move.
				ok = kv == groundgraph.Action
			}
			if kv == groundgraph.ActionClass && ku != groundgraph.Action && ku != groundgraph.Role {
				ok = false
			}
			if !ok {
				t.Fatalf("arc %s -> %s joins kinds %v -> %v", g.Label(u), g.Label(int(v)), ku, kv)
			}
		}
		if ku == groundgraph.Action && !slices.Contains(out, int32(g.RoleVertex(g.Vertex(u).Role))) {
			t.Fatalf("action %s has no arc to its role", g.Label(u))
		}
	}
	if edges != s.Edges {
		t.Fatalf("%d arcs, Stats says %d", edges, s.Edges)
	}
	for v := range g.Order() {
		x := g.Vertex(v)
		if x.Kind == groundgraph.Interaction && (in[v] != 2 || len(g.Out(v)) != 1) {
			t.Fatalf("interaction %s has %d in and %d out arcs", g.Label(v), in[v], len(g.Out(v)))
		}
		if x.Kind == groundgraph.Corner {
			c := g.Functions()[x.Index].Corners[x.Corner]
			want := len(c.Props) + len(c.Classes)
			if len(c.Breakers) > 0 {
				want++
			}
			if in[v] != want || len(g.Out(v)) != 1 {
				t.Fatalf("corner %s has %d in and %d out arcs", g.Label(v), in[v], len(g.Out(v)))
			}
		}
		if x.Kind == groundgraph.JointMove {
			a, b := g.Vertex(x.Pair[0]), g.Vertex(x.Pair[1])
			if a.Kind != groundgraph.Action || b.Kind != groundgraph.Action || a.Role != 0 || b.Role != 1 || in[v]+len(g.Out(v)) != 2 {
				t.Fatalf("joint move %s has %d in and %d out arcs", g.Label(v), in[v], len(g.Out(v)))
			}
		}
		if x.Kind == groundgraph.Play {
			a, b := g.Vertex(x.Pair[0]), g.Vertex(x.Pair[1])
			if a.Kind != groundgraph.Action || b.Kind != groundgraph.Action || in[v] != 1 || len(g.Out(v)) != 1 || g.Out(v)[0] != int32(x.Pair[1]) {
				t.Fatalf("play %s has %d in and %d out arcs", g.Label(v), in[v], len(g.Out(v)))
			}
		}
		if x.Kind == groundgraph.CornerBreakers {
			c := g.Functions()[x.Index].Corners[x.Corner]
			if in[v] != len(c.Breakers) || len(g.Out(v)) != 1 {
				t.Fatalf("breakers %s has %d in and %d out arcs", g.Label(v), in[v], len(g.Out(v)))
			}
		}
	}
}
