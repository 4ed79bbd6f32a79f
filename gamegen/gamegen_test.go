package gamegen_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/gamegen"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/mutate"
)

func mustGround(t *testing.T, name string, src []byte) *grounding.Program {
	t.Helper()
	p, err := grounding.Load(context.Background(), name, src, grounding.Limits{})
	if err != nil {
		t.Fatalf("Load(%s) = %v\n%s", name, err, src)
	}
	if len(p.Warnings) > 0 {
		t.Errorf("Load(%s) warnings: %v", name, p.Warnings)
	}
	return p
}

// play makes the given joint moves (one move per role, in role order) and
// returns the simulator; every move must be legal.
func play(t *testing.T, p *grounding.Program, moves [][]string) *grounding.Sim {
	t.Helper()
	s := grounding.NewSim(p)
	for i, joint := range moves {
		if s.Terminal() {
			t.Fatalf("move %d %v: the game is already over", i, joint)
		}
		ids := make([]int, len(joint))
		for r, m := range joint {
			a, ok := p.ActionID(r, m)
			if !ok || !s.IsLegal(r, a) {
				t.Fatalf("move %d: %s may not play %s", i, p.Roles[r], m)
			}
			ids[r] = a
		}
		s.Step(ids)
	}
	return s
}

// goals returns the single goal value of every role.
func goals(t *testing.T, p *grounding.Program, s *grounding.Sim) []int {
	t.Helper()
	var out []int
	for r := range p.Roles {
		g := s.Goals(r)
		if len(g) != 1 {
			t.Fatalf("role %s has goal values %v, want exactly one", p.Roles[r], g)
		}
		out = append(out, g[0])
	}
	return out
}

// drops turns red's and black's alternating column choices into joint moves.
func drops(cols ...int) [][]string {
	var out [][]string
	for i, c := range cols {
		d := fmt.Sprintf("(drop %d)", c)
		if i%2 == 0 {
			out = append(out, []string{d, "noop"})
		} else {
			out = append(out, []string{"noop", d})
		}
	}
	return out
}

func TestConnectKGrounds(t *testing.T) {
	p := mustGround(t, "connect4.kif", gamegen.ConnectK(4, 7, 6))
	if got, want := p.Roles, []string{"red", "black"}; !slices.Equal(got, want) {
		t.Errorf("roles = %v, want %v", got, want)
	}
	if got, want := len(p.Props), 7*6*2+2; got != want {
		t.Errorf("%d propositions, want %d", got, want)
	}
	for r := range p.Roles {
		if got, want := len(p.Actions[r]), 7+1; got != want {
			t.Errorf("role %s has %d actions, want %d", p.Roles[r], got, want)
		}
	}
	s := grounding.NewSim(p)
	if s.Terminal() {
		t.Errorf("initial state is terminal")
	}
	if got, want := len(s.Legal(0)), 7; got != want {
		t.Errorf("red has %d legal moves initially, want %d", got, want)
	}
}

var connectKGames = []struct {
	name             string
	k, cols, rows    int
	cols2play        []int // red, black, red, ... columns
	wantRed, wantBlk int
}{
	{name: "RedVertical", k: 4, cols: 7, rows: 6, cols2play: []int{1, 2, 1, 2, 1, 2, 1}, wantRed: 100, wantBlk: 0},
	{name: "BlackHorizontal", k: 4, cols: 7, rows: 6, cols2play: []int{1, 2, 1, 3, 1, 4, 7, 5}, wantRed: 0, wantBlk: 100},
	// Red builds the rising diagonal (1,1) (2,2) (3,3) (4,4).
	{name: "RedRisingDiagonal", k: 4, cols: 7, rows: 6, cols2play: []int{1, 2, 2, 3, 3, 4, 3, 4, 4, 7, 4}, wantRed: 100, wantBlk: 0},
	// Red builds the falling diagonal (4,1) (3,2) (2,3) (1,4).
	{name: "RedFallingDiagonal", k: 4, cols: 7, rows: 6, cols2play: []int{4, 3, 3, 2, 2, 1, 2, 1, 1, 7, 1}, wantRed: 100, wantBlk: 0},
	{name: "Connect3Small", k: 3, cols: 3, rows: 3, cols2play: []int{1, 2, 1, 2, 1}, wantRed: 100, wantBlk: 0},
	{name: "DrawFullBoard", k: 3, cols: 2, rows: 2, cols2play: []int{1, 2, 1, 2}, wantRed: 50, wantBlk: 50},
}

func TestConnectKHandPlayed(t *testing.T) {
	for _, tc := range connectKGames {
		t.Run(tc.name, func(t *testing.T) {
			p := mustGround(t, tc.name, gamegen.ConnectK(tc.k, tc.cols, tc.rows))
			moves := drops(tc.cols2play...)
			s := play(t, p, moves[:len(moves)-1])
			if s.Terminal() {
				t.Fatalf("terminal one move early")
			}
			s = play(t, p, moves)
			if !s.Terminal() {
				t.Fatalf("not terminal after %v; state %v", tc.cols2play, s.StateProps())
			}
			if got, want := goals(t, p, s), []int{tc.wantRed, tc.wantBlk}; !slices.Equal(got, want) {
				t.Errorf("goals = %v, want %v", got, want)
			}
		})
	}
}

// TestPlayoutsTerminate plays random games of generated boards: each ends
// within the number of cells, every live state has legal moves for both
// roles, and every terminal state gives 100/0, 0/100 or 50/50.
func TestPlayoutsTerminate(t *testing.T) {
	games := map[string][]byte{
		"ConnectK(4,7,6)":    gamegen.ConnectK(4, 7, 6),
		"ConnectK(3,4,3)":    gamegen.ConnectK(3, 4, 3),
		"ConnectK(1,1,1)":    gamegen.ConnectK(1, 1, 1),
		"TicTacToeLike(3,3)": gamegen.TicTacToeLike(3, 3),
		"TicTacToeLike(4,3)": gamegen.TicTacToeLike(4, 3),
		"TicTacToeLike(5,4)": gamegen.TicTacToeLike(5, 4),
		"TicTacToeLike(2,3)": gamegen.TicTacToeLike(2, 3),
	}
	cells := map[string]int{
		"ConnectK(4,7,6)": 42, "ConnectK(3,4,3)": 12, "ConnectK(1,1,1)": 1,
		"TicTacToeLike(3,3)": 9, "TicTacToeLike(4,3)": 16, "TicTacToeLike(5,4)": 25, "TicTacToeLike(2,3)": 4,
	}
	for name, src := range games {
		t.Run(name, func(t *testing.T) {
			p := mustGround(t, name, src)
			rng := rand.New(rand.NewPCG(1, 2))
			for range 30 {
				s := grounding.NewSim(p)
				steps := 0
				for !s.Terminal() {
					if steps >= cells[name] {
						t.Fatalf("not over after %d moves: %v", steps, s.StateProps())
					}
					joint := make([]int, len(p.Roles))
					for r := range p.Roles {
						legal := s.Legal(r)
						if len(legal) == 0 {
							t.Fatalf("role %s has no legal move in %v", p.Roles[r], s.StateProps())
						}
						joint[r] = legal[rng.IntN(len(legal))]
					}
					s.Step(joint)
					steps++
				}
				g := goals(t, p, s)
				if g[0]+g[1] != 100 || (g[0] != 0 && g[0] != 50 && g[0] != 100) {
					t.Errorf("terminal goals %v", g)
				}
			}
		})
	}
}

// TestTicTacToeLikeIsTicTacToe checks that TicTacToeLike(3, 3) behaves like
// ggp-base's ticTacToe.kif, name for name.
func TestTicTacToeLikeIsTicTacToe(t *testing.T) {
	src, err := os.ReadFile(testgames.Path(t, "ggp-base-repo/ticTacToe.kif"))
	if err != nil {
		t.Skipf("game corpus not found: %v", err)
	}
	want := mustGround(t, "ticTacToe.kif", src)
	got := mustGround(t, "generated", gamegen.TicTacToeLike(3, 3))
	if !slices.Equal(got.Props, want.Props) {
		t.Errorf("propositions = %v, want %v", got.Props, want.Props)
	}
	for r := range want.Roles {
		if !slices.Equal(got.Actions[r], want.Actions[r]) {
			t.Errorf("actions of %s = %v, want %v", want.Roles[r], got.Actions[r], want.Actions[r])
		}
	}
	if err := mutate.Agree(want, got, mutate.Identity, 1, 200, 20); err != nil {
		t.Errorf("Agree(ticTacToe.kif, TicTacToeLike(3, 3)) = %v", err)
	}
}

func TestTicTacToeLikeWin(t *testing.T) {
	p := mustGround(t, "ttt4", gamegen.TicTacToeLike(4, 3))
	// xplayer marks (2 2) (3 3) (4 4); oplayer marks (1 4) (1 3).
	s := play(t, p, [][]string{
		{"(mark 2 2)", "noop"}, {"noop", "(mark 1 4)"},
		{"(mark 3 3)", "noop"}, {"noop", "(mark 1 3)"},
		{"(mark 4 4)", "noop"},
	})
	if !s.Terminal() {
		t.Fatalf("not terminal after a diagonal of three")
	}
	if got, want := goals(t, p, s), []int{100, 0}; !slices.Equal(got, want) {
		t.Errorf("goals = %v, want %v", got, want)
	}
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"ConnectK(0,7,6)":     func() { gamegen.ConnectK(0, 7, 6) },
		"ConnectK(4,0,6)":     func() { gamegen.ConnectK(4, 0, 6) },
		"TicTacToeLike(0,3)":  func() { gamegen.TicTacToeLike(0, 3) },
		"TicTacToeLike(3,-1)": func() { gamegen.TicTacToeLike(3, -1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}
