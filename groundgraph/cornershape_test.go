package groundgraph

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gamequiv/gamequiv/gamegen"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/mutate"
)

// TestCornerShapesShared checks that sharing corner searches between
// functions of the same shape gives exactly the graph and features that
// searching each gives, on games where some are shared: listed corners with
// breakers (Connect Four, Tic-tac-toe; checkLines, whose renamings between
// shapes reorder propositions), corner counts (lightsOnParallel's
// quadrants; quad, whose shared searches from one anchor find none) and
// cofactor corners (coloredtrails).
func TestCornerShapesShared(t *testing.T) {
	srcs := map[string][]byte{"connect4-7x6": gamegen.ConnectK(4, 7, 6)}
	names := []string{"ggp-base-repo/connectFour.kif", "ggp-base-repo/ticTacToe.kif",
		"ggp-base/lightsOnParallel.kif", "ggp-base/coloredtrails.kif", "ggp-base/checkLines.kif"}
	if !testing.Short() {
		names = append(names, "ggp-base/quad.kif") // 10-20 s a build
	}
	for _, name := range names {
		if b, err := os.ReadFile(filepath.Join(testgames.Root(), name)); err == nil {
			srcs[name] = b
		}
	}
	build := func(p *grounding.Program, share bool) *Graph {
		t.Helper()
		defer func(old bool) { shareCornerShapes = old }(shareCornerShapes)
		shareCornerShapes = share
		g, err := Build(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	// Rewritten variants (renamed symbols, permuted arguments) number
	// their propositions in other orders, so that renamings between
	// shapes are not monotone.
	for _, name := range []string{"connect4-7x6", "ggp-base/lightsOnParallel.kif", "ggp-base-repo/ticTacToe.kif"} {
		if src, ok := srcs[name]; ok {
			f, err := grounding.Parse(name, src)
			if err != nil {
				t.Fatal(err)
			}
			for seed := range int64(3) {
				v, err := mutate.Equivalent(f, seed, mutate.Options{Ops: mutate.AllOps &^ mutate.PairArgs})
				if err != nil {
					t.Fatal(err)
				}
				srcs[fmt.Sprintf("%s-variant%d", name, seed)] = []byte(v.File.String())
			}
		}
	}
	for name, src := range srcs {
		p, err := grounding.Load(context.Background(), name, src, grounding.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		shared, separate := build(p, true), build(p, false)
		for i, ff := range separate.Functions() {
			got := shared.Functions()[i]
			if !reflect.DeepEqual(got, ff) {
				a, _ := json.Marshal(got)
				b, _ := json.Marshal(ff)
				t.Fatalf("%s %s: shared search gives\n%s\nseparate\n%s", name, p.FunctionName(ff.Function), a, b)
			}
		}
		if !reflect.DeepEqual(shared.colors, separate.colors) {
			t.Errorf("%s: colours differ", name)
		}
		// The test means something only if some search was shared.
		keys := map[string]int{}
		for _, ff := range separate.Functions() {
			if ff.CornerRadius == 0 {
				continue
			}
			cn, err := newCone(&p.Circuit, ff.Function.Lit)
			if err != nil {
				t.Fatal(err)
			}
			key, _ := cn.PropRenamingKey(func(in int32) bool { return int(in) < len(p.Props) })
			keys[key]++
		}
		sharedAny := false
		for _, n := range keys {
			sharedAny = sharedAny || n > 1
		}
		if !sharedAny {
			t.Errorf("%s: no two functions with corners share a shape", name)
		}
	}
}
