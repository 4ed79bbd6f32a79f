package groundgraph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// gamesDir holds the shared game corpus (see its README.md).
var gamesDir = testgames.Root()

// gamePath resolves a game name: "testdata/x.kif" as is, anything else
// under gamesDir. It skips the test when the file is missing.
func gamePath(tb testing.TB, name string) string {
	tb.Helper()
	path := name
	if !filepath.IsAbs(name) && filepath.Dir(name) != "testdata" {
		path = filepath.Join(gamesDir, name)
	}
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("game %s not available: %v", name, err)
	}
	return path
}

// mustLoad grounds a game with default limits.
func mustLoad(tb testing.TB, name string) *grounding.Program {
	tb.Helper()
	path := gamePath(tb, name)
	src, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := grounding.Load(context.Background(), filepath.Base(path), src, grounding.Limits{})
	if err != nil {
		tb.Fatalf("Load(%q) = %v", name, err)
	}
	return p
}

// mustBuild builds the graph of a game.
func mustBuild(tb testing.TB, name string, opt groundgraph.Options) *groundgraph.Graph {
	tb.Helper()
	p := mustLoad(tb, name)
	g, err := groundgraph.Build(context.Background(), p, opt)
	if err != nil {
		tb.Fatalf("Build(%q) = %v", name, err)
	}
	return g
}

// Games used throughout the tests.
const (
	ticTacToe       = "ggp-base-repo/ticTacToe.kif"
	sum15           = "ggp-base/sum15.kif"
	connectFour     = "ggp-base-repo/connectFour.kif"
	ticTacToeRedund = "testdata/ticTacToeRedundant.kif"
)
