package grounding_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// The conformance games of ggp-base and what its reasoner returns on them
// (shared/games/ggp-base-tests/EXPECTED.md), checked through the ground Program.
var testsDir = filepath.Join(testgames.Root(), "ggp-base-tests")

func loadTestGame(t *testing.T, dir, name string) *grounding.Program {
	t.Helper()
	path := filepath.Join(dir, name+".kif")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("game corpus not available: %v", err)
	}
	p, err := grounding.Load(context.Background(), name+".kif", src, grounding.Limits{})
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return p
}

// step plays a joint move given as KIF names, one per role.
func step(t *testing.T, p *grounding.Program, s *grounding.Sim, moves ...string) {
	t.Helper()
	ids := make([]int, len(moves))
	for r, m := range moves {
		a, ok := p.ActionID(r, m)
		if !ok || !s.IsLegal(r, a) {
			t.Fatalf("move %s of %s is not legal; legal: %v", m, p.Roles[r], legalNames(p, s, r))
		}
		ids[r] = a
	}
	s.Step(ids)
}

func legalNames(p *grounding.Program, s *grounding.Sim, r int) []string {
	var out []string
	for _, a := range s.Legal(r) {
		out = append(out, p.Actions[r][a])
	}
	return out
}

func wantGoal(t *testing.T, p *grounding.Program, s *grounding.Sim, role string, want int) {
	t.Helper()
	r, _ := p.RoleID(role)
	if got := s.Goals(r); !slices.Equal(got, []int{want}) {
		t.Errorf("goals of %s = %v, want [%d]", role, got, want)
	}
}

func TestConformanceTicTacToe(t *testing.T) {
	p := loadTestGame(t, testsDir, "ticTacToe")
	if !slices.Equal(p.Roles, []string{"xplayer", "oplayer"}) {
		t.Fatalf("roles = %v", p.Roles)
	}
	s := grounding.NewSim(p)
	if s.Terminal() {
		t.Fatal("initial state is terminal")
	}
	x, o := legalNames(p, s, 0), legalNames(p, s, 1)
	if len(x)*len(o) != 9 || len(x) != 9 || !slices.Equal(o, []string{"noop"}) {
		t.Fatalf("legal moves x=%v o=%v, want 9 and [noop]", x, o)
	}
	plays := [][2]string{
		{"(mark 1 1)", "noop"}, {"noop", "(mark 1 3)"}, {"(mark 3 1)", "noop"},
		{"noop", "(mark 2 2)"}, {"(mark 2 1)", "noop"},
	}
	for i, m := range plays {
		step(t, p, s, m[0], m[1])
		if last := i == len(plays)-1; s.Terminal() != last {
			t.Fatalf("after move %d: terminal = %v, want %v", i+1, s.Terminal(), last)
		}
	}
	wantGoal(t, p, s, "xplayer", 100)
	wantGoal(t, p, s, "oplayer", 0)
}

var oneMoveTests = []struct {
	game, role string
	legal      []string // exactly these legal moves in the initial state
	play       string   // then this move
	goal       int      // -1: not checked
	initGoal   int      // -1: not checked
}{
	{"test_case_1a", "you", []string{"proceed"}, "proceed", 100, 100},
	{"test_case_3c", "xplayer", []string{"win"}, "win", 100, -1},
	{"test_case_5a", "you", []string{"proceed"}, "proceed", 100, -1},
	{"test_case_5c", "you", []string{"proceed"}, "proceed", 100, -1},
	{"test_case_5d", "you", []string{"proceed"}, "proceed", 100, -1},
	{"test_case_5b", "you", []string{"(draw 1 1 1 2)"}, "(draw 1 1 1 2)", -1, -1},
	{"test_distinct_beginning_rule", "you", []string{"(do a b)", "(do b a)"}, "(do a b)", 100, -1},
}

func TestConformanceOneMove(t *testing.T) {
	for _, tc := range oneMoveTests {
		t.Run(tc.game, func(t *testing.T) {
			p := loadTestGame(t, testsDir, tc.game)
			if !slices.Equal(p.Roles, []string{tc.role}) {
				t.Fatalf("roles = %v, want [%s]", p.Roles, tc.role)
			}
			s := grounding.NewSim(p)
			if s.Terminal() {
				t.Fatal("initial state is terminal")
			}
			if tc.initGoal >= 0 {
				wantGoal(t, p, s, tc.role, tc.initGoal)
			}
			if got := legalNames(p, s, 0); !slices.Equal(got, tc.legal) {
				t.Fatalf("legal = %v, want %v", got, tc.legal)
			}
			step(t, p, s, tc.play)
			if !s.Terminal() {
				t.Fatal("not terminal after the move")
			}
			if tc.goal >= 0 {
				wantGoal(t, p, s, tc.role, tc.goal)
			}
		})
	}
}

func TestConformanceRecursiveStatic(t *testing.T) {
	p := loadTestGame(t, testsDir, "test_case_5e")
	s := grounding.NewSim(p)
	if s.Terminal() {
		t.Fatal("initial state is terminal")
	}
	want := []string{"(reduce a 0)", "(reduce a 1)", "(reduce c 0)", "(reduce c 1)", "(reduce c 2)", "(reduce c 3)", "(reduce c 4)"}
	if got := legalNames(p, s, 0); !slices.Equal(got, want) {
		t.Fatalf("legal = %v, want %v", got, want)
	}
}

// The games EXPECTED.md says draw warnings must ground and warn; the others
// are valid GDL and must ground (loadTestGame fails on any error). Our
// validator is stricter than ggp-base's in one place: it also warns about the
// empty-body rule "(<= (goal you 100))" of test_case_5d.
func TestConformanceWarnings(t *testing.T) {
	warned := map[string]bool{
		"test_case_1a": true, "test_case_3a": true,
		"test_invalid_function_arities_differ": true, "test_invalid_sentence_arities_differ": true,
	}
	files, _ := filepath.Glob(filepath.Join(testsDir, "*.kif"))
	if len(files) == 0 {
		t.Skip("game corpus not available")
	}
	for _, f := range files {
		name := filepath.Base(f[:len(f)-len(".kif")])
		t.Run(name, func(t *testing.T) {
			p := loadTestGame(t, testsDir, name)
			if warned[name] && len(p.Warnings) == 0 {
				t.Errorf("no warnings, want some")
			}
		})
	}
}
