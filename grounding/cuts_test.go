package grounding_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// cutGames have demand rules, recursive components and rules whose head is
// bound before their last literals: the joins the domain cuts shorten.
var cutGames = []string{"tictactoe", "connectFour", "breakthrough", "checkersTiny", "pentago", "knightfight", "hitori", "ruleDepthLinear", "endgame", "minichess", "sudoku", "othello-comp2007", "blobwars", "merrills"}

// slowCutGames take seconds each; -short leaves them out.
var slowCutGames = map[string]bool{"othello-comp2007": true, "blobwars": true, "merrills": true}

// The domain cuts (a step whose variables nothing after it needs stops at
// its first match; a join whose head atom is derived stops) only skip
// matches that derive nothing new, in the same order: the Program is the
// same, gate for gate.
func TestDomainCutsSameProgram(t *testing.T) {
	for _, g := range cutGames {
		if testing.Short() && slowCutGames[g] {
			continue
		}
		t.Run(g, func(t *testing.T) {
			f, lim, with := groundCorpusLenient(t, filepath.Join(corpusDir, "ggp-base", g+".kif"))
			without, err := grounding.GroundNoDomainCuts(context.Background(), f, lim)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(with, without) {
				t.Errorf("Ground(%s) differs from the grounding without domain cuts: %d against %d circuit nodes", g, with.Circuit.NumNodes(), without.Circuit.NumNodes())
			}
		})
	}
}

// The join costs of circuit plans over bit masks (joinCost.masks) are the
// same floats as over []bool sets, so every plan and the Program are the
// same, gate for gate.
func TestPlanMasksSameProgram(t *testing.T) {
	for _, g := range cutGames {
		if testing.Short() && slowCutGames[g] {
			continue
		}
		t.Run(g, func(t *testing.T) {
			f, lim, with := groundCorpusLenient(t, filepath.Join(corpusDir, "ggp-base", g+".kif"))
			without, err := grounding.GroundNoPlanMasks(context.Background(), f, lim)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(with, without) {
				t.Errorf("Ground(%s) differs from the grounding with []bool join costs: %d against %d circuit nodes", g, with.Circuit.NumNodes(), without.Circuit.NumNodes())
			}
		})
	}
}
