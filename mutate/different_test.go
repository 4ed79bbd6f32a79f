package mutate_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
)

// TestDifferent checks on every test game and several seeds that Different
// changes exactly one rule, that the variant grounds, and that it disagrees
// with the original along the original's playouts.
func TestDifferent(t *testing.T) {
	seeds := []int64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, path := range testGames(t) {
		t.Run(gameName(path), func(t *testing.T) {
			t.Parallel()
			f, a := mustLoad(t, path)
			for _, seed := range seeds {
				t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
					g, desc, err := mutate.Different(context.Background(), f, seed)
					if err != nil {
						t.Fatalf("Different(seed %d) = %v", seed, err)
					}
					if desc == "" {
						t.Errorf("Different gave no description")
					}
					if len(g.Rules) != len(f.Rules) {
						t.Fatalf("variant has %d rules, want %d", len(g.Rules), len(f.Rules))
					}
					changed := 0
					for i := range f.Rules {
						if f.Rules[i].String() != g.Rules[i].String() {
							changed++
						}
					}
					if changed != 1 {
						t.Errorf("%d rules changed, want 1 (%s)", changed, desc)
					}
					b, err := groundText(t, g)
					if err != nil {
						t.Fatalf("Ground(variant) = %v", err)
					}
					var mis *mutate.MismatchError
					if err := mutate.Agree(a, b, mutate.Identity, seed, mutate.DifferentPlayouts, mutate.DifferentSteps); !errors.As(err, &mis) {
						t.Errorf("Agree(original, variant) = %v, want a mismatch (%s)", err, desc)
					}
					if strings.HasPrefix(desc, "goal value") && mis != nil && mis.What != "goal" {
						t.Errorf("goal change shows as a %s mismatch: %s", mis.What, desc)
					}
				})
			}
		})
	}
}

// TestDifferentDeterministic checks that a seed fixes the change.
func TestDifferentDeterministic(t *testing.T) {
	f, _ := mustLoad(t, gamesDir+"/ggp-base-repo/ticTacToe.kif")
	g1, d1, err1 := mutate.Different(context.Background(), f, 9)
	g2, d2, err2 := mutate.Different(context.Background(), f, 9)
	if err1 != nil || err2 != nil {
		t.Fatalf("Different = %v, %v", err1, err2)
	}
	if g1.String() != g2.String() || d1 != d2 {
		t.Errorf("Different(seed 9) gave two different variants:\n%s\n%s", d1, d2)
	}
}

// TestDifferentGoalValue checks the goal-value change on a game whose only
// changeable rules are goal rules.
func TestDifferentGoalValue(t *testing.T) {
	src := `(role p)
(init s0)
(legal p go)
(<= (next s1) (true s0))
(<= terminal (true s1))
(<= (goal p 100) (true s1))
(<= (goal p 0) (true s0))
`
	f, err := grounding.Parse("g.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for seed := range int64(10) {
		g, desc, err := mutate.Different(context.Background(), f, seed)
		if err != nil {
			t.Fatalf("Different(seed %d) = %v", seed, err)
		}
		if strings.HasPrefix(desc, "goal value") {
			found = true
			if !strings.Contains(g.String(), "(goal p 9") && !strings.Contains(g.String(), "(goal p 1") && !strings.Contains(g.String(), "(goal p 5") {
				t.Errorf("goal change %q, variant\n%s", desc, g)
			}
		}
	}
	if !found {
		t.Errorf("no seed of 0..9 changed a goal value")
	}
	if _, _, err := mutate.Different(context.Background(), nil, 1); !errors.Is(err, mutate.ErrNilFile) {
		t.Errorf("Different(nil) = %v, want ErrNilFile", err)
	}
}
