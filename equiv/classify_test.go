package equiv_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

func TestClassify(t *testing.T) {
	srcs := []equiv.Source{
		source(t, "ggp-base-repo/ticTacToe.kif"),
		source(t, "ggp-base-repo/connectFour.kif"),
		source(t, "ggp-base/sum15.kif"),
		source(t, "ggp-base-tests/ticTacToe.kif"),
	}
	var events []equiv.ClassifyProgress
	got := equiv.Classify(context.Background(), srcs, equiv.ClassifyOptions{
		Progress: func(p equiv.ClassifyProgress) { events = append(events, p) },
	})
	if len(got.Classes) != 2 || len(got.Classes[0]) != 3 || got.Classes[1][0] != 1 {
		t.Fatalf("classes = %v (undecided %v), want [[0 2 3] [1]]", got.Classes, got.Undecided)
	}
	if len(got.Undecided) != 0 || got.Stopped != "" {
		t.Errorf("undecided %v, stopped %q; want none", got.Undecided, got.Stopped)
	}
	if len(events) != len(srcs) || events[len(events)-1].Done != len(srcs) {
		t.Errorf("progress events = %+v, want one per game", events)
	}
}

// small is a few games of testgames: two equivalent, one different, one
// invalid.
var small = []equiv.Source{
	{Name: "buttons", GDL: []byte(testgames.Buttons)},
	{Name: "other", GDL: []byte(testgames.ButtonsOtherGoal)},
	{Name: "renamed", GDL: []byte(testgames.ButtonsRenamed)},
	{Name: "broken", GDL: []byte("(role robot)\n(<= (legal robot ?x) (true (on ?y)))\n")},
}

// TestClassifyMergesOnProof: the renamed game joins the class of the
// original only through a verified comparison; the game with another
// goal value, of the same keys, stays apart; the invalid game is undecided
// with its reason.
func TestClassifyMergesOnProof(t *testing.T) {
	got := equiv.Classify(context.Background(), small, equiv.ClassifyOptions{Workers: 3})
	if len(got.Classes) != 2 || !equalInts(got.Classes[0], []int{0, 2}) && !equalInts(got.Classes[1], []int{0, 2}) {
		t.Fatalf("classes = %v, want {0,2} and {1}", got.Classes)
	}
	if got.Comparisons < 1 {
		t.Errorf("comparisons = %d, want at least 1 (renamed against its representative)", got.Comparisons)
	}
	if len(got.Undecided) != 1 || got.Undecided[0].Game != 3 || got.Undecided[0].Limit != "invalid" || got.Undecided[0].Class != -1 {
		t.Fatalf("undecided = %+v, want game 3 invalid", got.Undecided)
	}
	if !strings.Contains(got.Undecided[0].Reason, "broken:") {
		t.Errorf("reason %q does not name the file and position", got.Undecided[0].Reason)
	}
}

// TestClassifyUndecidedReasons: a grounding limit and a comparison budget
// leave games undecided, each with the limit named; a game whose
// comparison ran out of budget keeps a class of its own, never joins.
func TestClassifyUndecidedReasons(t *testing.T) {
	t.Run("GroundLimit", func(t *testing.T) {
		opt := equiv.ClassifyOptions{}
		opt.Limits.Ground.MaxAtoms = 3
		got := equiv.Classify(context.Background(), small[:1], opt)
		if len(got.Classes) != 0 || len(got.Undecided) != 1 || got.Undecided[0].Limit != "MaxAtoms" {
			t.Fatalf("got %+v, want one game undecided on MaxAtoms", got)
		}
	})
	t.Run("CompareTimeout", func(t *testing.T) {
		got := equiv.Classify(context.Background(), []equiv.Source{small[0], small[2]},
			equiv.ClassifyOptions{CompareTimeout: time.Nanosecond, Workers: 1})
		if len(got.Classes) != 2 {
			t.Fatalf("classes = %v, want two singletons: a comparison without a verdict never merges", got.Classes)
		}
		if len(got.Undecided) != 1 || got.Undecided[0].Limit != "Timeout" || got.Undecided[0].Class < 0 {
			t.Fatalf("undecided = %+v, want the second game, in its own class, with limit Timeout", got.Undecided)
		}
		if !strings.Contains(got.Undecided[0].Reason, "may belong to the class of") {
			t.Errorf("reason %q does not name the candidate class", got.Undecided[0].Reason)
		}
	})
}

// TestClassifyPartialOnCancel: cancelling after the first game returns
// the classes found so far and every other game as undecided (stopped).
func TestClassifyPartialOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srcs := append([]equiv.Source{}, small[:3]...)
	var once sync.Once
	got := equiv.Classify(ctx, srcs, equiv.ClassifyOptions{Workers: 1,
		Progress: func(equiv.ClassifyProgress) { once.Do(cancel) }})
	if got.Stopped == "" || !strings.Contains(got.Stopped, context.Canceled.Error()) {
		t.Errorf("stopped = %q, want the context's error", got.Stopped)
	}
	if len(got.Classes) != 1 || len(got.Classes[0]) != 1 {
		t.Fatalf("classes = %v, want the first game placed", got.Classes)
	}
	if len(got.Undecided) != 2 {
		t.Fatalf("undecided = %+v, want the two other games", got.Undecided)
	}
	for _, u := range got.Undecided {
		if u.Limit != "stopped" || u.Reason == "" || u.Class != -1 {
			t.Errorf("undecided %+v, want limit stopped with a reason", u)
		}
	}
}

// TestPlacerJoinsOnlyOnEquivalent runs the Placer of the server and the
// CLI over a book that records its calls.
func TestPlacerJoinsOnlyOnEquivalent(t *testing.T) {
	ctx := context.Background()
	prep := func(s equiv.Source) *equiv.Prepared {
		p, err := equiv.Prepare(ctx, s, equiv.Limits{}, true)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	reps := map[int64]*equiv.Prepared{1: prep(small[0])}
	book := &recBook{classes: []equiv.ClassRef{{ID: 7, Representative: 1}}}
	pl := &equiv.Placer{Book: book, Representative: func(_ context.Context, id int64) (*equiv.Prepared, error) {
		if p := reps[id]; p != nil {
			return p, nil
		}
		return nil, errors.New("no such representative")
	}}
	pm, err := pl.Place(ctx, 2, prep(small[1]))
	if err != nil || !pm.Opened || book.joined != 0 {
		t.Fatalf("other goal: placement %+v, %v, joins %d; want a new class", pm, err, book.joined)
	}
	pm, err = pl.Place(ctx, 3, prep(small[2]))
	if err != nil || pm.Opened || pm.Class != 7 || book.joined != 1 {
		t.Fatalf("renamed: placement %+v, %v; want class 7", pm, err)
	}
	// A representative that cannot be prepared leaves the game unresolved
	// against that class, in a class of its own.
	delete(reps, 1)
	pm, err = pl.Place(ctx, 4, prep(small[2]))
	if err != nil || !pm.Opened || len(pm.Unresolved) != 1 || pm.Unresolved[0].Class != 7 {
		t.Fatalf("placement %+v, %v; want a new class and class 7 unresolved", pm, err)
	}
}

// recBook offers fixed candidate classes and counts joins.
type recBook struct {
	classes []equiv.ClassRef
	joined  int
	opened  int64
}

func (b *recBook) Candidates(context.Context, *equiv.Analysis) ([]equiv.ClassRef, error) {
	return b.classes, nil
}

func (b *recBook) Join(context.Context, int64, int64) error { b.joined++; return nil }

func (b *recBook) Open(context.Context, int64) (int64, error) { b.opened++; return 100 + b.opened, nil }

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
