package grounding_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// parallelGames are corpus games with demand relations, watched demand
// products, recursive components and many semi-naive rounds.
var parallelGames = []string{"tictactoe", "connectFour", "breakthrough", "pentago", "knightfight", "hitori", "endgame", "minichess", "sudoku", "checkers", "othello-comp2007", "blobwars", "merrills", "racer", "attritionWar"}

// slowParallelGames take seconds each; -short leaves them out.
var slowParallelGames = map[string]bool{"checkers": true, "othello-comp2007": true, "blobwars": true, "merrills": true, "racer": true, "attritionWar": true}

// TestParallelRoundsSameProgram: parallel domain rounds give the Program
// of one worker, gate for gate and atom for atom, on every run and any
// number of workers, and the same error where grounding stops at a limit.
// The merge must take worker results somewhere, or the test shows nothing.
func TestParallelRoundsSameProgram(t *testing.T) {
	type tc struct {
		name string
		src  []byte
		lim  grounding.Limits
	}
	var cases []tc
	for _, g := range parallelGames {
		if testing.Short() && slowParallelGames[g] {
			continue
		}
		path := filepath.Join(corpusDir, "ggp-base", g+".kif")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("corpus not found: %v", err)
		}
		cases = append(cases, tc{g, src, grounding.Limits{LenientUnsafe: true}})
	}
	// Demand relations that outgrow their relations and start the pass
	// over (measureProduct, measureDemand), and MaxAtoms reached at many
	// points, in the static and the domain phase, inside parallel rounds.
	breakthrough, err := os.ReadFile(filepath.Join(corpusDir, "ggp-base", "breakthrough.kif"))
	if err != nil {
		t.Skipf("corpus not found: %v", err)
	}
	for maxAtoms := int64(128); maxAtoms <= 1<<16; maxAtoms *= 2 {
		lim := grounding.Limits{MaxAtoms: maxAtoms}
		cases = append(cases,
			tc{fmt.Sprintf("product/%d", maxAtoms), []byte(productDemandGame(300, false)), lim},
			tc{fmt.Sprintf("product-chain/%d", maxAtoms), []byte(productDemandGame(300, true)), lim},
			tc{fmt.Sprintf("near-product/%d", maxAtoms), []byte(nearProductDemandGame(300)), lim},
			tc{fmt.Sprintf("breakthrough/%d", maxAtoms), breakthrough, lim})
	}
	var accepted int64
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := grounding.Parse(c.name, c.src)
			if err != nil {
				t.Fatal(err)
			}
			want, _, _, wantErr := grounding.GroundWorkers(context.Background(), f, c.lim, 1, false)
			for _, run := range []struct {
				workers int
				always  bool
			}{{2, false}, {2, true}, {2, true}, {4, true}} {
				got, acc, redone, err := grounding.GroundWorkers(context.Background(), f, c.lim, run.workers, run.always)
				if fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Fatalf("GroundWorkers(%s, %d, %v) = %v, want %v (one worker)", c.name, run.workers, run.always, err, wantErr)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("GroundWorkers(%s, %d, %v) differs from one worker: %d against %d circuit nodes", c.name, run.workers, run.always, nodes(got), nodes(want))
				}
				accepted += acc
				t.Logf("%d workers, always %v: %d worker results taken, %d run again; err %v", run.workers, run.always, acc, redone, err)
			}
		})
	}
	if accepted == 0 {
		t.Errorf("no parallel round's worker result was taken")
	}
}

func nodes(p *grounding.Program) int {
	if p == nil {
		return 0
	}
	return p.Circuit.NumNodes()
}
