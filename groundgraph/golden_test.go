package groundgraph_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/gamegen"
	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden.txt from the current Build")

// goldenGames are the games of TestGolden: corpus games of varied kinds and
// generated Connect-k boards.
var goldenGames = []string{
	"ggp-base-repo/ticTacToe.kif", "ggp-base-repo/connectFour.kif", "ggp-base-repo/maze.kif",
	"ggp-base/sum15.kif", "ggp-base/buttons.kif", "ggp-base/blocks.kif", "ggp-base/beatMania.kif",
	"ggp-base/asteroids.kif", "ggp-base/breakthroughSmall.kif", "ggp-base/3pConnectFour.kif",
	"ggp-base/checkLines.kif", "ggp-base/roshambo2.kif", "ggp-base/gt_prisoner.kif",
	"ggp-base/tictactoe_3player.kif", "ggp-base/nim1.kif", "ggp-base/hanoi.kif",
	"testdata/ticTacToeRedundant.kif", "testdata/moveIndependent.kif",
	"gamegen:3,4,4", "gamegen:4,7,6",
}

// graphDigest hashes everything Build produces: the graph's JSON (vertices,
// labels, colours, arcs) and every function's features (supports,
// influences, interactions, corners, colours).
func graphDigest(t *testing.T, g *groundgraph.Graph) string {
	h := sha256.New()
	w := bufio.NewWriter(h)
	if err := g.WriteJSON(w, nil); err != nil {
		t.Fatal(err)
	}
	for v := range g.Order() {
		fmt.Fprintf(w, "%d:%d ", v, g.SemanticColor(v))
	}
	enc := json.NewEncoder(w)
	for _, ff := range g.Functions() {
		if err := enc.Encode(ff); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	return hex.EncodeToString(h.Sum(nil))
}

func loadGolden(t *testing.T, name string) *grounding.Program {
	if spec, ok := strings.CutPrefix(name, "gamegen:"); ok {
		var k, c, r int
		if _, err := fmt.Sscanf(spec, "%d,%d,%d", &k, &c, &r); err != nil {
			t.Fatal(err)
		}
		p, err := grounding.Load(context.Background(), name, gamegen.ConnectK(k, c, r), grounding.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	return mustLoad(t, name)
}

// TestGolden checks that Build's output on goldenGames is unchanged (a
// guard for optimisations of Build that must not change the graph). Run
// with -update-golden after an intended change of the graph.
func TestGolden(t *testing.T) {
	path := filepath.Join("testdata", "golden.txt")
	want := map[string]string{}
	if b, err := os.ReadFile(path); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if name, d, ok := strings.Cut(line, " "); ok {
				want[name] = d
			}
		}
	}
	var out strings.Builder
	for _, name := range goldenGames {
		if !strings.HasPrefix(name, "gamegen:") && !strings.HasPrefix(name, "testdata/") {
			if _, err := os.Stat(filepath.Join(gamesDir, name)); err != nil {
				if *updateGolden {
					t.Fatalf("%s missing: cannot update golden", name)
				}
				t.Logf("%s not available", name)
				continue
			}
		}
		p := loadGolden(t, name)
		g, err := groundgraph.Build(context.Background(), p, groundgraph.Options{})
		if err != nil {
			t.Fatalf("%s: Build = %v", name, err)
		}
		d := graphDigest(t, g)
		fmt.Fprintf(&out, "%s %s\n", name, d)
		if !*updateGolden {
			if w, ok := want[name]; !ok {
				t.Errorf("%s: no golden digest", name)
			} else if w != d {
				t.Errorf("%s: graph digest %s, golden %s", name, d, w)
			}
		}
	}
	if *updateGolden {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
