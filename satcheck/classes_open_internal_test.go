package satcheck

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// TestOpenChoices checks the count of choices still in question: the
// representatives of the class about to need SAT and the members of the
// pending classes of two or more (a class of one is settled).
func TestOpenChoices(t *testing.T) {
	for _, c := range []struct {
		reps    []int
		pending [][]int
		want    int
	}{
		{[]int{0, 5}, nil, 2},
		{[]int{0, 5}, [][]int{{1}, {2, 3}, {4, 6, 7}}, 7},
		{[]int{9, 1, 2}, [][]int{{4}, {8}}, 3},
	} {
		if got := openChoices(c.reps, c.pending); got != c.want {
			t.Errorf("openChoices(%v, %v) = %d, want %d", c.reps, c.pending, got, c.want)
		}
	}
}

// TestHintsOpenCountsRepresentatives checks that ActionClassesHinted asks
// for hints with the representatives of a class open, not its members:
// brawl's cell functions put ~2,700 moves of a role in one simulation
// class whose cofactors hash to 2 circuits, and hints for 2,700 open
// choices cost 5,400 samples of the cone per function.
func TestHintsOpenCountsRepresentatives(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testgames.Root(), "ggp-base/brawl.kif"))
	if err != nil {
		t.Skipf("game not available: %v", err)
	}
	p, err := grounding.Load(context.Background(), "brawl.kif", src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range p.Next {
		an, err := analyze(p, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(an.cn.Inputs) < 5000 {
			continue
		}
		var opens []int
		hints := func(open int) [][]int { opens = append(opens, open); return nil }
		if _, err := ActionClassesHinted(context.Background(), p, f, []int{0, 1}, hints); err != nil {
			t.Fatal(err)
		}
		if len(opens) != 1 || opens[0] < 2 || opens[0] > 100 {
			t.Errorf("%d: hints asked with open %v, want once with 2 to 100 (of ~2,700 choices)", f, opens)
		}
		if checked++; checked == 3 {
			return
		}
	}
	t.Fatalf("%d functions of 5,000 or more inputs, want 3", checked)
}
