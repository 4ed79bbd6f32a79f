package grounding_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// memoGames are the games of TestMemoProbeInvariant: the conformance games
// and corpus games of varied shapes (recursion, arithmetic tables, big
// joins), plus the rewritten board whose joins made memos adaptive.
var memoGames = []string{
	"ggp-base-repo/ticTacToe.kif", "ggp-base-repo/connectFour.kif", "ggp-base/breakthrough.kif",
	"ggp-base/sum15.kif", "ggp-base/hanoi.kif", "ggp-base/blocks.kif", "ggp-base/pancakes.kif",
	"ggp-base/nim1.kif", "ggp-base/3pConnectFour.kif", "ggp-base/checkersSmall.kif",
}

// TestMemoProbeInvariant grounds each game three ways, dropping join memos
// that do not pay after the default probe (Ground), at their first miss,
// and never: the Programs must be the same.
func TestMemoProbeInvariant(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(testsDir, "*.kif"))
	for _, g := range memoGames {
		paths = append(paths, filepath.Join(corpusDir, g))
	}
	paths = append(paths, filepath.Join("testdata", "connect4-10x9-rewritten.kif"))
	ctx := context.Background()
	grounded := 0
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			continue // the corpus is not there: counted below
		}
		name := filepath.Base(path)
		f, err := grounding.Parse(name, src)
		if err != nil {
			continue // conformance games that are meant to fail
		}
		p, err := grounding.Ground(ctx, f, grounding.Limits{})
		if err != nil {
			continue
		}
		grounded++
		want := printProgram(p)
		for _, probe := range []int64{0, -1} {
			q, err := grounding.GroundMemoProbe(ctx, f, grounding.Limits{}, probe)
			if err != nil {
				t.Errorf("%s: GroundMemoProbe(%d) = %v, Ground succeeded", name, probe, err)
				continue
			}
			if got := printProgram(q); got != want {
				t.Errorf("%s: GroundMemoProbe(%d) differs from Ground:\n%s", name, probe, lineDiff(want, got))
			}
		}
	}
	if grounded < 2 {
		t.Skipf("only %d games grounded (is the corpus at %s?)", grounded, corpusDir)
	}
	t.Logf("%d games grounded the same three ways", grounded)
}
