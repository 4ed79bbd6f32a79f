package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/cmd/server/internal/server"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// gamesDir finds the shared game collection (internal/testgames); tests
// that need it skip when it is absent.
func gamesDir(t *testing.T) string {
	t.Helper()
	return testgames.Dir(t)
}

// readGame reads a game of the shared collection, skipping if absent.
func readGame(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(gamesDir(t), rel))
	if err != nil {
		t.Skipf("game %s not found: %v", rel, err)
	}
	return string(b)
}

// runMain starts a server like MustRunMain, with edits to its config and
// an optional compare hook.
func runMain(tb testing.TB, dataDir string, edit func(*server.Config), compare func(context.Context, equiv.Source, equiv.Source, equiv.Limits) (*equiv.Report, error)) *server.Main {
	tb.Helper()
	cfg := server.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = dataDir
	cfg.Workers = 2
	cfg.Lease = 600 * time.Millisecond
	if edit != nil {
		edit(&cfg)
	}
	m := server.NewMain(cfg, slog.New(slog.NewTextHandler(tb.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})))
	m.Compare = compare
	if err := m.Run(context.Background()); err != nil {
		tb.Fatalf("Run: %v", err)
	}
	tb.Cleanup(func() {
		if err := m.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return m
}

// client talks JSON to a running server.
type client struct {
	t    *testing.T
	base string
}

func newClient(t *testing.T, m *server.Main) *client {
	return &client{t: t, base: "http://" + m.Addr()}
}

// do sends a request with a JSON body (nil for none) and decodes a JSON
// answer into out (if not nil). It returns the status and headers.
func (c *client) do(method, path string, body, out any) (int, http.Header) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			c.t.Fatalf("%s %s: decode %s: %v", method, path, data, err)
		}
	}
	return resp.StatusCode, resp.Header
}

type gameResp struct {
	ID      int64 `json:"id"`
	ClassID int64 `json:"class_id"`
}

type comparisonResp struct {
	ID       int64  `json:"id"`
	Status   string `json:"status"`
	Verdict  string `json:"verdict"`
	Error    string `json:"error"`
	Progress struct {
		Phase    string  `json:"phase"`
		Fraction float64 `json:"fraction"`
	} `json:"progress"`
	Result          *equiv.Report `json:"result"`
	CancelRequested bool          `json:"cancel_requested"`
}

func (c *client) upload(name, gdl string) gameResp {
	c.t.Helper()
	var g gameResp
	status, _ := c.do("POST", "/api/v1/games", map[string]string{"name": name, "gdl": gdl}, &g)
	if status != http.StatusCreated && status != http.StatusOK {
		c.t.Fatalf("POST /games %s: status %d", name, status)
	}
	return g
}

// submit posts a comparison and checks the 202 and Location.
func (c *client) submit(body any) comparisonResp {
	c.t.Helper()
	var cr comparisonResp
	status, h := c.do("POST", "/api/v1/comparisons", body, &cr)
	if status != http.StatusAccepted {
		c.t.Fatalf("POST /comparisons = %d %+v, want 202", status, cr)
	}
	if got, want := h.Get("Location"), "/api/v1/comparisons/"+strconv.FormatInt(cr.ID, 10); got != want {
		c.t.Errorf("Location = %q, want %q", got, want)
	}
	return cr
}

// poll gets the comparison until cond holds.
func (c *client) poll(id int64, what string, cond func(comparisonResp) bool) comparisonResp {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var cr comparisonResp
		status, _ := c.do("GET", "/api/v1/comparisons/"+strconv.FormatInt(id, 10), nil, &cr)
		if status != http.StatusOK {
			c.t.Fatalf("GET comparison %d: status %d", id, status)
		}
		if cond(cr) {
			return cr
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("comparison %d never became %s: %+v", id, what, cr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c *client) pollStatus(id int64, status string) comparisonResp {
	c.t.Helper()
	return c.poll(id, status, func(cr comparisonResp) bool { return cr.Status == status })
}

// TestE2E_TicTacToeIsSum15 uploads tic-tac-toe and Sum15, compares them by
// id and inline, and checks the verdict, the mapping and the classes.
func TestE2E_TicTacToeIsSum15(t *testing.T) {
	ttt := readGame(t, "ggp-base-repo/ticTacToe.kif")
	sum15 := readGame(t, "ggp-base/sum15.kif")
	m := runMain(t, filepath.Join(t.TempDir(), "data"), nil, nil)
	c := newClient(t, m)

	a := c.upload("ticTacToe", ttt)
	b := c.upload("sum15", sum15)

	byID := c.submit(map[string]any{"a": a.ID, "b": b.ID})
	done := c.pollStatus(byID.ID, "done")
	if done.Verdict != "equivalent" || done.Result == nil || done.Result.Verdict != equiv.Equivalent {
		t.Fatalf("comparison by id = %+v", done)
	}
	if got := done.Result.Mapping.Propositions["(cell 2 2 x)"]; got != "(num 5 white)" {
		t.Errorf("mapping of (cell 2 2 x) = %q, want (num 5 white)", got)
	}
	if done.Progress.Phase != "done" || done.Progress.Fraction != 1 {
		t.Errorf("progress of a done comparison = %+v", done.Progress)
	}

	// Inline, the other way round: the inline text is the stored game.
	inline := c.submit(map[string]any{"a": map[string]string{"name": "sum15 again", "gdl": sum15}, "b": a.ID})
	done = c.pollStatus(inline.ID, "done")
	if done.Verdict != "equivalent" {
		t.Fatalf("inline comparison = %+v", done)
	}
	if got := done.Result.Mapping.Propositions["(num 5 white)"]; got != "(cell 2 2 x)" {
		t.Errorf("mapping of (num 5 white) = %q, want (cell 2 2 x)", got)
	}

	// Resubmitting is idempotent.
	var again comparisonResp
	if status, _ := c.do("POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID}, &again); status != http.StatusAccepted || again.ID != byID.ID || again.Status != "done" {
		t.Errorf("resubmission = %d %+v, want 202 with done comparison %d", status, again, byID.ID)
	}

	// The classifier puts both games in one class.
	type class struct {
		ID      int64 `json:"id"`
		Members []struct {
			ID int64 `json:"id"`
		} `json:"members"`
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var classes struct {
			Items []class `json:"items"`
		}
		c.do("GET", "/api/v1/classes", nil, &classes)
		if len(classes.Items) == 1 && len(classes.Items[0].Members) == 2 {
			var g gameResp
			c.do("GET", "/api/v1/games/"+strconv.FormatInt(b.ID, 10), nil, &g)
			if g.ClassID != classes.Items[0].ID {
				t.Errorf("game %d has class %d, want %d", b.ID, g.ClassID, classes.Items[0].ID)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("classes = %+v, want one class of both games", classes.Items)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// The worker counts a job just after storing its verdict (and merging
	// classes), so a client may see both before the counters: poll.
	wants := []string{
		`gamequiv_jobs_total{outcome="done"} 2`,
		`gamequiv_verdicts_total{verdict="equivalent"} 2`,
		`gamequiv_comparison_phase_seconds_count{phase="search"} 2`,
		`gamequiv_queue_depth 0`,
		`gamequiv_http_request_duration_seconds_count{code="202",method="POST",route="/api/v1/comparisons"} 3`,
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		resp, err := http.Get(c.base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		metrics, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var lacks []string
		for _, want := range wants {
			if !strings.Contains(string(metrics), want) {
				lacks = append(lacks, want)
			}
		}
		if len(lacks) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/metrics lacks %q", lacks)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// blocker is a compare hook whose comparisons of games named "slow" wait
// until the job is cancelled; others run equiv.Compare.
type blocker struct {
	started chan string
}

func (bl *blocker) compare(ctx context.Context, a, b equiv.Source, lim equiv.Limits) (*equiv.Report, error) {
	if a.Name == "slow" {
		bl.started <- a.Name
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return equiv.Compare(ctx, a, b, lim)
}

const tinyGDL = testgames.Buttons

// TestE2E_Cancel cancels a queued and a running comparison.
func TestE2E_Cancel(t *testing.T) {
	bl := &blocker{started: make(chan string, 4)}
	m := runMain(t, filepath.Join(t.TempDir(), "data"), func(c *server.Config) { c.Workers = 1 }, bl.compare)
	c := newClient(t, m)
	slow := c.upload("slow", tinyGDL)
	other := c.upload("other", strings.Replace(tinyGDL, "100", "50", 1))

	running := c.submit(map[string]any{"a": slow.ID, "b": other.ID})
	<-bl.started // the only worker is busy now
	queued := c.submit(map[string]any{"a": other.ID, "b": slow.ID})

	var cr comparisonResp
	if status, _ := c.do("DELETE", "/api/v1/comparisons/"+strconv.FormatInt(queued.ID, 10), nil, &cr); status != http.StatusOK || cr.Status != "cancelled" {
		t.Fatalf("DELETE queued = %d %+v, want 200 cancelled", status, cr)
	}
	if status, _ := c.do("DELETE", "/api/v1/comparisons/"+strconv.FormatInt(queued.ID, 10), nil, nil); status != http.StatusConflict {
		t.Errorf("second DELETE = %d, want 409", status)
	}
	if status, _ := c.do("DELETE", "/api/v1/comparisons/"+strconv.FormatInt(running.ID, 10), nil, &cr); status != http.StatusOK || !cr.CancelRequested {
		t.Fatalf("DELETE running = %d %+v, want 200 with cancel_requested", status, cr)
	}
	c.pollStatus(running.ID, "cancelled")

	// The worker is free again.
	next := c.submit(map[string]any{"a": other.ID, "b": other.ID})
	if got := c.pollStatus(next.ID, "done"); got.Verdict != "equivalent" {
		t.Errorf("comparison after the cancels = %+v", got)
	}
}

// TestE2E_PanicInjection makes a job panic: it must fail and the worker
// must go on with the next job.
func TestE2E_PanicInjection(t *testing.T) {
	var panics atomic.Int32
	compare := func(ctx context.Context, a, b equiv.Source, lim equiv.Limits) (*equiv.Report, error) {
		if a.Name == "boom" {
			panics.Add(1)
			panic("injected panic")
		}
		return equiv.Compare(ctx, a, b, lim)
	}
	m := runMain(t, filepath.Join(t.TempDir(), "data"), func(c *server.Config) { c.Workers = 1 }, compare)
	c := newClient(t, m)
	boom := c.upload("boom", tinyGDL)
	fine := c.upload("fine", strings.Replace(tinyGDL, "robot", "player", -1))

	failed := c.pollStatus(c.submit(map[string]any{"a": boom.ID, "b": fine.ID}).ID, "failed")
	if !strings.Contains(failed.Error, "injected panic") {
		t.Errorf("error = %q, want the panic", failed.Error)
	}
	done := c.pollStatus(c.submit(map[string]any{"a": fine.ID, "b": boom.ID}).ID, "done")
	if done.Verdict != "equivalent" || panics.Load() != 1 {
		t.Errorf("next job = %+v after %d panics", done, panics.Load())
	}
}

// TestE2E_ShutdownReleasesJob stops a server with a running job and checks
// that the next server on the same data directory runs it.
func TestE2E_ShutdownReleasesJob(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "data")
	bl := &blocker{started: make(chan string, 4)}
	first := runMain(t, dataDir, func(c *server.Config) { c.Workers = 1 }, bl.compare)
	c := newClient(t, first)
	slow := c.upload("slow", tinyGDL)
	other := c.upload("other", strings.Replace(tinyGDL, "robot", "player", -1))
	job := c.submit(map[string]any{"a": slow.ID, "b": other.ID})
	<-bl.started
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	second := runMain(t, dataDir, nil, nil)
	c = newClient(t, second)
	done := c.pollStatus(job.ID, "done")
	if done.Verdict != "equivalent" {
		t.Errorf("job after restart = %+v", done)
	}
}

// TestE2E_QueueFull checks the 429 of a full queue.
func TestE2E_QueueFull(t *testing.T) {
	bl := &blocker{started: make(chan string, 4)}
	m := runMain(t, filepath.Join(t.TempDir(), "data"), func(c *server.Config) { c.Workers = 1; c.MaxQueue = 1 }, bl.compare)
	c := newClient(t, m)
	slow := c.upload("slow", tinyGDL)
	other := c.upload("other", strings.Replace(tinyGDL, "robot", "player", -1))
	running := c.submit(map[string]any{"a": slow.ID, "b": other.ID})
	<-bl.started
	c.submit(map[string]any{"a": other.ID, "b": slow.ID}) // queued: the queue is full
	var p struct {
		Code string `json:"code"`
	}
	status, h := c.do("POST", "/api/v1/comparisons", map[string]any{"a": other.ID, "b": other.ID}, &p)
	if status != http.StatusTooManyRequests || p.Code != "queue_full" || h.Get("Retry-After") == "" {
		t.Errorf("POST with a full queue = %d %+v Retry-After %q, want 429 queue_full", status, p, h.Get("Retry-After"))
	}
	c.do("DELETE", "/api/v1/comparisons/"+strconv.FormatInt(running.ID, 10), nil, nil)
}

// TestE2E_ComparisonMergesClasses: the classifier cannot prove two
// equivalent games equivalent (its comparison budget is 1 ns), so each
// gets a class of its own; a comparison job that proves them equivalent
// merges the two classes as it finishes.
func TestE2E_ComparisonMergesClasses(t *testing.T) {
	m := runMain(t, filepath.Join(t.TempDir(), "data"), func(c *server.Config) {
		c.ClassifyQuick, c.ClassifyCompareTimeout = time.Nanosecond, time.Nanosecond
	}, nil)
	c := newClient(t, m)
	a := c.upload("robot", tinyGDL)
	b := c.upload("player", strings.ReplaceAll(tinyGDL, "robot", "player"))
	classOf := func(id int64) int64 {
		var g gameResp
		c.do("GET", "/api/v1/games/"+strconv.FormatInt(id, 10), nil, &g)
		return g.ClassID
	}
	for deadline := time.Now().Add(60 * time.Second); classOf(a.ID) == 0 || classOf(b.ID) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the classifier placed no game within 60s")
		}
	}
	if ca, cb := classOf(a.ID), classOf(b.ID); ca == cb {
		t.Fatalf("the classifier put both games in class %d on its own; the test needs it not to", ca)
	}
	done := c.pollStatus(c.submit(map[string]any{"a": a.ID, "b": b.ID}).ID, "done")
	if done.Verdict != "equivalent" {
		t.Fatalf("comparison = %+v, want equivalent", done)
	}
	// The worker merges right after storing the verdict.
	for deadline := time.Now().Add(5 * time.Second); classOf(a.ID) != classOf(b.ID); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("classes %d and %d not merged 5s after the comparison proved the games equivalent", classOf(a.ID), classOf(b.ID))
		}
	}
}
