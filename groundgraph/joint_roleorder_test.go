package groundgraph_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

var roleFact = regexp.MustCompile(`(?im)^\s*\(\s*role\s+[^?()\s]+\s*\)`)

// swapRoles exchanges the declarations of a two-role game's roles, so that
// role 0 of the copy is role 1 of the original.
func swapRoles(tb testing.TB, src []byte) []byte {
	tb.Helper()
	loc := roleFact.FindAllIndex(src, -1)
	if len(loc) != 2 {
		tb.Fatalf("%d role facts", len(loc))
	}
	a, b := src[loc[0][0]:loc[0][1]], src[loc[1][0]:loc[1][1]]
	out := append([]byte{}, src[:loc[0][0]]...)
	out = append(out, b...)
	out = append(out, src[loc[0][1]:loc[1][0]]...)
	out = append(out, a...)
	return append(out, src[loc[1][1]:]...)
}

// TestJointMovesRoleOrder (from the review of issue-blotto21): the ground graph
// of a two-role simultaneous game and that of the same game with its role
// declarations exchanged (role 0 becomes role 1) have equal canonical
// certificates and as many joint moves; so do those of two-role games
// where one role moves at a time, and as many plays (plays.go).
func TestJointMovesRoleOrder(t *testing.T) {
	games := []string{"roshambo2", "gt_prisoner", "gt_chicken", "beatMania", "chickentictactoe", "point_grab", "colonelBlottoVariant",
		"sum15", "nim1", "breakthroughSmall", "checkLines"}
	if !testing.Short() {
		games = append(games, "wallmaze", "racer", "bunk_t", "eotcitcit", "doubletictactoe", "bidding-tictactoe",
			"ad_game_2x2", "snake2p", "bomberman2p", "colonelBlottoVariant2", "battle")
	}
	for _, name := range games {
		t.Run(name, func(t *testing.T) {
			path := gamePath(t, "ggp-base/"+name+".kif")
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			var certs [2]isomorph.Certificate
			var joint, plays [2]int
			for i, s := range [][]byte{src, swapRoles(t, src)} {
				p, err := grounding.Load(ctx, filepath.Base(path), s, grounding.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				g, err := groundgraph.Build(ctx, p, groundgraph.Options{})
				if err != nil {
					t.Fatal(err)
				}
				joint[i] = g.Stats().ByKind[groundgraph.JointMove]
				plays[i] = g.Stats().ByKind[groundgraph.Play]
				_, c, err := isomorph.Canonical(ctx, g, isomorph.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				certs[i] = c
			}
			if joint[0] != joint[1] || plays[0] != plays[1] || !certs[0].Equal(certs[1]) {
				t.Errorf("%s: joint moves %v, plays %v, certificates equal %v; want equal counts and certificates", name, joint, plays, certs[0].Equal(certs[1]))
			}
			t.Logf("%s: %d joint moves, %d plays", name, joint[0], plays[0])
		})
	}
}
