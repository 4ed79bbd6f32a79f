package grounding_test

import (
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

var demandAll = flag.Bool("demand.all", false, "TestDemandSameGame checks every corpus game, not only the short list")

// demandGames have auxiliary fluent relations whose domains the demand
// rewrite restricts.
var demandGames = []string{"tictactoe", "connectFour", "breakthroughSmall", "quarto", "checkersTiny", "pentago", "endgame", "minichess-evilconjuncts", "knightfight", "chomp"}

// The demand rewrite changes nothing a keyword function can reach: with and
// without it a game grounds to the same propositions, actions and functions.
func TestDemandSameGame(t *testing.T) {
	paths := make([]string, 0, len(demandGames))
	for _, g := range demandGames {
		paths = append(paths, filepath.Join(corpusDir, "ggp-base", g+".kif"))
	}
	if *demandAll {
		paths = corpusFiles(t)
	}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("corpus not found: %v", err)
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := grounding.Parse(path, src)
			if err != nil {
				t.Skip(err)
			}
			lim := grounding.Limits{LenientUnsafe: true}
			with, err := grounding.Ground(context.Background(), f, lim)
			if err != nil {
				if errors.Is(err, grounding.ErrLimit) {
					t.Skip(err)
				}
				t.Fatal(err)
			}
			without, err := grounding.GroundNoDemand(context.Background(), f, lim)
			if err != nil {
				t.Skipf("grounds only with the demand rewrite: %v", err)
			}
			checkSameGame(t, without, with, rand.New(rand.NewPCG(3, 4)))
		})
	}
}
