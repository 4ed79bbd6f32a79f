package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/service"
	"github.com/gamequiv/gamequiv/service/worker"
	"github.com/gamequiv/gamequiv/store/storetest"
)

// newService returns a service over a fresh SQLite store.
func newService(t *testing.T, lim service.Limits) (*service.Service, context.Context) {
	t.Helper()
	db := storetest.OpenSQLite(t)
	return service.New(service.Config{Store: db, Limits: lim}), context.Background()
}

func upload(name, gdl string) *gamequiv.GameUpload {
	return &gamequiv.GameUpload{Name: name, GDL: []byte(gdl)}
}

// submitSideTests are requests that fail on one side; the error must say
// which, as a *gamequiv.SideError, whatever its text.
var submitSideTests = []struct {
	name string
	req  gamequiv.ComparisonRequest
	side string
	code string // the *gamequiv.Error code, or "" for a GDL error
}{
	{name: "ErrARequired", req: gamequiv.ComparisonRequest{B: gamequiv.GameRef{ID: 1}}, side: "a", code: gamequiv.EINVALID},
	{name: "ErrBRequired", req: gamequiv.ComparisonRequest{A: gamequiv.GameRef{ID: 1}}, side: "b", code: gamequiv.EINVALID},
	{name: "ErrBEmptyText", req: gamequiv.ComparisonRequest{A: gamequiv.GameRef{ID: 1}, B: gamequiv.GameRef{Inline: upload("b", " ")}}, side: "b"},
	{name: "ErrANameTooLong", req: gamequiv.ComparisonRequest{A: gamequiv.GameRef{Inline: upload(string(make([]byte, 201)), testgames.Buttons)}, B: gamequiv.GameRef{ID: 1}}, side: "a", code: gamequiv.EINVALID},
	// Valid text that does not ground: the error comes from the grounder,
	// after side a was stored.
	{name: "ErrBUnsafe", req: gamequiv.ComparisonRequest{A: gamequiv.GameRef{Inline: upload("a", testgames.Buttons)}, B: gamequiv.GameRef{Inline: upload("b", "(role r) (<= (legal r ?x) (true (on ?y)))")}}, side: "b"},
}

func TestSubmit_SideErrors(t *testing.T) {
	for _, tc := range submitSideTests {
		t.Run(tc.name, func(t *testing.T) {
			svc, ctx := newService(t, service.Limits{})
			_, _, err := svc.Submit(ctx, tc.req)
			if got := gamequiv.SideOf(err); got != tc.side {
				t.Fatalf("Submit: SideOf(%v) = %q, want %q", err, got, tc.side)
			}
			var de *gamequiv.Error
			switch {
			case tc.code != "" && (!errors.As(err, &de) || de.Code != tc.code):
				t.Errorf("Submit: %v, want code %q", err, tc.code)
			case tc.code == "":
				var ge *grounding.Error
				var gl grounding.ErrorList
				if !errors.As(err, &ge) && !errors.As(err, &gl) {
					t.Errorf("Submit: %v (%T), want a grounding error", err, errors.Unwrap(err))
				}
			}
		})
	}
}

func TestSubmit(t *testing.T) {
	svc, ctx := newService(t, service.Limits{MaxQueue: 2})
	req := gamequiv.ComparisonRequest{A: gamequiv.GameRef{Inline: upload("a", testgames.Buttons)}, B: gamequiv.GameRef{Inline: upload("b", testgames.ButtonsRenamed)}}
	c, created, err := svc.Submit(ctx, req)
	if err != nil || !created || c.Status != gamequiv.StatusQueued {
		t.Fatalf("Submit = %+v, %t, %v; want a new queued comparison", c, created, err)
	}
	t.Run("Again", func(t *testing.T) {
		again, created, err := svc.Submit(ctx, req)
		if err != nil || created || again.ID != c.ID {
			t.Errorf("Submit again = %+v, %t, %v; want comparison %d, not created", again, created, err, c.ID)
		}
	})
	t.Run("ErrQueueFull", func(t *testing.T) {
		if _, _, err := svc.Submit(ctx, gamequiv.ComparisonRequest{A: gamequiv.GameRef{ID: c.GameB}, B: gamequiv.GameRef{ID: c.GameA}}); err != nil {
			t.Fatalf("Submit of a second comparison: %v", err)
		}
		_, _, err := svc.Submit(ctx, gamequiv.ComparisonRequest{A: gamequiv.GameRef{ID: c.GameA}, B: gamequiv.GameRef{ID: c.GameA}})
		var de *gamequiv.Error
		if !errors.As(err, &de) || de.Code != gamequiv.EQUEUEFULL || de.RetryAfter <= 0 {
			t.Errorf("Submit over MaxQueue = %v, want EQUEUEFULL with a RetryAfter", err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		svc, ctx := newService(t, service.Limits{})
		_, _, err := svc.Submit(ctx, gamequiv.ComparisonRequest{A: gamequiv.GameRef{ID: 98}, B: gamequiv.GameRef{ID: 99}})
		var de *gamequiv.Error
		if !errors.As(err, &de) || de.Code != gamequiv.ENOTFOUND || gamequiv.SideOf(err) != "" {
			t.Errorf("Submit of missing games = %v, want ENOTFOUND about neither side", err)
		}
	})
}

func TestAddGame(t *testing.T) {
	svc, ctx := newService(t, service.Limits{MaxGDL: int64(len(testgames.Buttons))})
	a, err := svc.AddGame(ctx, *upload("", testgames.Buttons))
	if err != nil || !a.Created || a.Game.Name != gamequiv.DefaultGameName {
		t.Fatalf("AddGame unnamed = %+v, %v; want a new game named %q", a, err, gamequiv.DefaultGameName)
	}
	var st gamequiv.GameStats
	if err := json.Unmarshal(a.Game.Stats, &st); err != nil || st.TotalActions() != 2 || len(st.Roles) != 1 {
		t.Errorf("stats = %s (%v), want 1 role and 2 actions", a.Game.Stats, err)
	}
	t.Run("Alias", func(t *testing.T) {
		again, err := svc.AddGame(ctx, *upload("buttons", testgames.Buttons))
		if err != nil || again.Created || !again.AliasAdded || again.Game.ID != a.Game.ID {
			t.Errorf("AddGame same text, new name = %+v, %v; want game %d with the alias added", again, err, a.Game.ID)
		}
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		_, err := svc.AddGame(ctx, *upload("x", testgames.Buttons+" "))
		var de *gamequiv.Error
		if !errors.As(err, &de) || de.Code != gamequiv.ETOOLARGE {
			t.Errorf("AddGame over MaxGDL = %v, want ETOOLARGE", err)
		}
	})
}

// TestAddGames adds a batch larger than MaxHeavy: every game is answered
// on its own, in order. (The busy answer past the bound is tested through
// the API, in api/heavy_test.go.)
func TestAddGames(t *testing.T) {
	svc, ctx := newService(t, service.Limits{MaxHeavy: 1})
	res, err := svc.AddGames(ctx, []gamequiv.GameUpload{
		*upload("a", testgames.Buttons), *upload("b", "(role"), *upload("c", testgames.ButtonsOtherGoal),
	})
	if err != nil || len(res) != 3 {
		t.Fatalf("AddGames = %d results, %v; want 3", len(res), err)
	}
	if res[0].Err != nil || res[2].Err != nil || res[1].Err == nil {
		t.Errorf("AddGames errors = %v, %v, %v; want only the second", res[0].Err, res[1].Err, res[2].Err)
	}
}

// TestSymmetries_StoredFailure reads back a failure stored by an earlier
// version (a whole problem+json document) and one stored now: both are
// answered as the same *gamequiv.Error, without computing anything.
func TestSymmetries_StoredFailure(t *testing.T) {
	db := storetest.OpenSQLite(t)
	svc := service.New(service.Config{Store: db})
	ctx := context.Background()
	for i, doc := range []string{
		`{"type":"urn:gamequiv:problem:limit_exceeded","title":"Unprocessable Entity","status":422,"detail":"too many atoms","code":"limit_exceeded","limit":"MaxAtoms"}`,
		`{"code":"limit_exceeded","detail":"too many atoms","limit":"MaxAtoms"}`,
	} {
		g, _, err := db.CreateGame(ctx, fmt.Sprint("g", i), []byte(fmt.Sprintf("%s; copy %d\n", testgames.Buttons, i)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.PutSymmetryFailure(ctx, g.ID, []byte(doc)); err != nil {
			t.Fatal(err)
		}
		_, err = svc.Symmetries(ctx, g.ID)
		var de *gamequiv.Error
		if !errors.As(err, &de) || de.Code != gamequiv.ELIMIT || de.Limit != "MaxAtoms" || de.Error() != "too many atoms" {
			t.Errorf("Symmetries with stored failure %s = %v, want ELIMIT MaxAtoms %q", doc, err, "too many atoms")
		}
	}
}

// TestCancelTellsLocalWorkers: cancelling a running comparison calls
// OnCancelRequested with its id (the server's own workers stop it at once);
// cancelling a queued one, which no worker holds, does not.
func TestCancelTellsLocalWorkers(t *testing.T) {
	db := storetest.OpenSQLite(t)
	var told []int64
	svc := service.New(service.Config{Store: db, OnCancelRequested: func(id int64) { told = append(told, id) }})
	ctx := context.Background()
	submit := func(a, b string) *gamequiv.Comparison {
		c, _, err := svc.Submit(ctx, gamequiv.ComparisonRequest{A: gamequiv.GameRef{Inline: upload(a, testgames.Buttons)}, B: gamequiv.GameRef{Inline: upload(b, testgames.ButtonsRenamed)}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	queued := submit("a", "b")
	if _, err := svc.Cancel(ctx, queued.ID); err != nil {
		t.Fatal(err)
	}
	running := submit("c", "d")
	claimed, err := db.Claim(ctx, "w1", time.Minute)
	if err != nil || claimed == nil || claimed.ID != running.ID {
		t.Fatalf("Claim = %+v, %v; want comparison %d", claimed, err, running.ID)
	}
	if _, err := svc.Cancel(ctx, running.ID); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(told, []int64{running.ID}) {
		t.Errorf("OnCancelRequested got %v, want [%d] (the running comparison only)", told, running.ID)
	}
}

// failingCompute is a service.Compute whose computations fail with err.
type failingCompute struct {
	err   error
	calls int
}

func (f *failingCompute) Symmetries(context.Context, equiv.Source, equiv.Limits) (*equiv.SymmetryReport, error) {
	f.calls++
	return nil, f.err
}

func (f *failingCompute) Ground(context.Context, string, []byte, grounding.Limits) (gamequiv.GameStats, error) {
	f.calls++
	return gamequiv.GameStats{}, f.err
}

// TestCompute_MemoryLimit: a heavy computation whose process was killed
// past its memory bound (worker.Procs) is a limit failure naming the
// setting: an upload gets ELIMIT, and a symmetry computation is stored as
// that failure and answered from the store after.
func TestCompute_MemoryLimit(t *testing.T) {
	db := storetest.OpenSQLite(t)
	killed := &worker.MemoryLimitError{Process: "heavy work process", RSS: 151 << 20, Max: 150 << 20, Setting: "heavy-max-rss"}
	f := &failingCompute{err: fmt.Errorf("symmetries: %w", killed)}
	svc := service.New(service.Config{Store: db, Compute: f})
	ctx := context.Background()
	want := "memory limit: the heavy work process used 151 MiB of memory, over the bound of 150 MiB (--heavy-max-rss); it was killed"

	_, err := svc.AddGame(ctx, *upload("b", testgames.Buttons))
	var de *gamequiv.Error
	if !errors.As(err, &de) || de.Code != gamequiv.ELIMIT || de.Limit != "heavy-max-rss" || de.Message != want {
		t.Fatalf("AddGame = %v, want ELIMIT heavy-max-rss %q", err, want)
	}

	g, _, err := db.CreateGame(ctx, "b", []byte(testgames.Buttons), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		_, err = svc.Symmetries(ctx, g.ID)
		if !errors.As(err, &de) || de.Code != gamequiv.ELIMIT || de.Limit != "heavy-max-rss" || de.Message != want {
			t.Fatalf("Symmetries (call %d) = %v, want ELIMIT heavy-max-rss %q", i+1, err, want)
		}
	}
	if f.calls != 2 {
		t.Errorf("computations: %d, want 2 (the upload, one symmetry computation: the failure is stored)", f.calls)
	}
}
