package main_test

// End-to-end tests of the real server binary: each starts `server` as a
// child process on a free loopback port with a temporary data directory
// (SQLite), and, when GEQ_TEST_PG is set, again on a fresh PostgreSQL
// schema, and talks to it over HTTP only.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/store/storetest"
)

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// holdPhaseEnv is HoldPhaseEnv of hold_e2e.go: the server built by
// serverBinary holds every comparison at that phase.
const holdPhaseEnv = "GAMEQUIV_E2E_HOLD_PHASE"

// serverBinary builds this command once per test run, with the test-only
// hooks of hold_e2e.go, and returns its path.
func serverBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found on PATH")
	}
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "gamequiv-server-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "server")
		out, err := exec.Command(goTool, "build", "-buildvcs=false", "-tags", "gamequiv_e2e", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// database is one database kind the e2e tests run on.
type database struct {
	name string
	// env returns the environment that selects the database for one test
	// (nil for SQLite in the data directory).
	env func(t *testing.T) []string
}

// databases are SQLite always, and PostgreSQL when GEQ_TEST_PG is set.
func databases() []database {
	dbs := []database{{name: "SQLite", env: func(*testing.T) []string { return nil }}}
	if pg := os.Getenv(storetest.PostgresEnv); pg != "" {
		dbs = append(dbs, database{name: "PostgreSQL", env: func(t *testing.T) []string {
			return []string{"GAMEQUIV_DATABASE_URL=" + storetest.NewPostgresSchema(t, pg)}
		}})
	}
	return dbs
}

// proc is a running server process.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:PORT
	exited chan struct{}

	mu  sync.Mutex
	log bytes.Buffer // everything the server wrote to stderr
}

// startServer starts the binary with a data directory, extra environment and
// flags, and waits for its "listening" log line. The process is stopped when
// the test ends (SIGTERM, then SIGKILL), and its log is shown if the test
// failed.
func startServer(t *testing.T, dataDir string, env []string, args ...string) *proc {
	t.Helper()
	bin := serverBinary(t)
	args = append([]string{"--addr", "127.0.0.1:0", "--data", dataDir, "--rate-limit", "0"}, args...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "GAMEQUIV_DATABASE_URL=")
	cmd.Env = append(cmd.Env, env...)
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, exited: make(chan struct{})}
	go func() {
		cmd.Wait()
		pw.Close()
		close(p.exited)
	}()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.log.Write(sc.Bytes())
			p.log.WriteByte('\n')
			p.mu.Unlock()
			var l logLine
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "listening" {
				addr <- l.Addr
			}
		}
		io.Copy(io.Discard, pr)
	}()
	t.Cleanup(func() {
		p.stop()
		if t.Failed() {
			t.Logf("server log (%s):\n%s", strings.Join(args, " "), p.logText())
		}
	})
	select {
	case a := <-addr:
		p.base = "http://" + a
	case <-p.exited:
		t.Fatalf("server exited before listening:\n%s", p.logText())
	case <-time.After(30 * time.Second):
		t.Fatalf("server not listening within 30s:\n%s", p.logText())
	}
	return p
}

func (p *proc) logText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// kill ends the process with SIGKILL, as a crash would, and waits for it.
func (p *proc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// stop ends the process with SIGTERM, or SIGKILL after 20s.
func (p *proc) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
		p.kill()
	}
}

// do sends a request with a JSON body (nil for none), decodes a JSON answer
// into out (if not nil), and returns the status and headers.
func (p *proc) do(method, path string, body, out any) (int, http.Header) {
	p.t.Helper()
	return p.doAs("", method, path, body, out)
}

// text GETs path and returns the body of a 200 answer.
func (p *proc) text(path string) string {
	p.t.Helper()
	resp, err := http.Get(p.base + path)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		p.t.Fatalf("GET %s = %d %s", path, resp.StatusCode, b)
	}
	return string(b)
}

// game is a game in answers.
type game struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	SHA256  string `json:"sha256"`
	ClassID int64  `json:"class_id"`
}

// comparison is a comparison in answers.
type comparison struct {
	ID       int64  `json:"id"`
	Status   string `json:"status"`
	Verdict  string `json:"verdict"`
	Error    string `json:"error"`
	Attempts int    `json:"attempts"`
	Progress struct {
		Phase    string  `json:"phase"`
		Fraction float64 `json:"fraction"`
	} `json:"progress"`
	Result     *equiv.Report `json:"result"`
	FinishedAt *time.Time    `json:"finished_at"`
}

// class is a class in answers.
type class struct {
	ID      int64 `json:"id"`
	Members []struct {
		ID int64 `json:"id"`
	} `json:"members"`
}

// upload stores a game; want is 201 or 200.
func (p *proc) upload(name, gdl string, want int) game {
	p.t.Helper()
	var g game
	if status, _ := p.do("POST", "/api/v1/games", map[string]string{"name": name, "gdl": gdl}, &g); status != want {
		p.t.Fatalf("POST /games %s = %d, want %d", name, status, want)
	}
	return g
}

// submit posts a comparison and checks the 202 and Location.
func (p *proc) submit(body any) comparison {
	p.t.Helper()
	var c comparison
	status, h := p.do("POST", "/api/v1/comparisons", body, &c)
	if status != http.StatusAccepted {
		p.t.Fatalf("POST /comparisons = %d %+v, want 202", status, c)
	}
	if got, want := h.Get("Location"), "/api/v1/comparisons/"+strconv.FormatInt(c.ID, 10); got != want {
		p.t.Errorf("Location = %q, want %q", got, want)
	}
	return c
}

func (p *proc) comparison(id int64) comparison {
	p.t.Helper()
	var c comparison
	if status, _ := p.do("GET", "/api/v1/comparisons/"+strconv.FormatInt(id, 10), nil, &c); status != http.StatusOK {
		p.t.Fatalf("GET comparison %d = %d", id, status)
	}
	return c
}

// poll gets a comparison until cond holds, for at most timeout.
func (p *proc) poll(id int64, timeout time.Duration, what string, cond func(comparison) bool) comparison {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		c := p.comparison(id)
		if cond(c) {
			return c
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("comparison %d not %s within %s: %+v", id, what, timeout, c)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// pollFinal polls a comparison until it is done, failed or cancelled.
func (p *proc) pollFinal(id int64, timeout time.Duration) comparison {
	p.t.Helper()
	return p.poll(id, timeout, "finished", func(c comparison) bool {
		return c.Status == "done" || c.Status == "failed" || c.Status == "cancelled"
	})
}

// games lists every stored game (following the cursor).
func (p *proc) games() []game {
	p.t.Helper()
	var all []game
	cursor := int64(0)
	for {
		var page struct {
			Items      []game `json:"items"`
			NextCursor int64  `json:"next_cursor"`
		}
		p.do("GET", "/api/v1/games?limit=100&cursor="+strconv.FormatInt(cursor, 10), nil, &page)
		all = append(all, page.Items...)
		if page.NextCursor == 0 {
			return all
		}
		cursor = page.NextCursor
	}
}

// comparisons lists every comparison (following the cursor).
func (p *proc) comparisons() []comparison {
	p.t.Helper()
	var all []comparison
	cursor := int64(0)
	for {
		var page struct {
			Items      []comparison `json:"items"`
			NextCursor int64        `json:"next_cursor"`
		}
		p.do("GET", "/api/v1/comparisons?limit=100&cursor="+strconv.FormatInt(cursor, 10), nil, &page)
		all = append(all, page.Items...)
		if page.NextCursor == 0 {
			return all
		}
		cursor = page.NextCursor
	}
}

// corpusGame reads a game of the shared collection ($GAMEQUIV_GAMES or
// ../shared/games next to the module root), skipping the test if absent.
func corpusGame(t *testing.T, rel string) string {
	t.Helper()
	dir := os.Getenv("GAMEQUIV_GAMES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "games") // from cmd/server
	}
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Skipf("corpus game %s not found: %v", rel, err)
	}
	return string(b)
}

// TestE2E uploads corpus games to the real binary, compares them by id and
// inline, polls to done, checks verdicts and the mapping, and lists the
// classes.
func TestE2E(t *testing.T) {
	ttt := corpusGame(t, "ggp-base-repo/ticTacToe.kif")
	sum15 := corpusGame(t, "ggp-base/sum15.kif")
	buttons := corpusGame(t, "ggp-base/buttons.kif")
	for _, db := range databases() {
		t.Run(db.name, func(t *testing.T) {
			p := startServer(t, filepath.Join(t.TempDir(), "data"), db.env(t), "--workers", "2")

			if got := p.text("/readyz"); !strings.Contains(got, `"ready"`) {
				t.Errorf("/readyz = %s", got)
			}
			var doc struct {
				OpenAPI string `json:"openapi"`
			}
			if status, _ := p.do("GET", "/api/v1/openapi.json", nil, &doc); status != http.StatusOK || !strings.HasPrefix(doc.OpenAPI, "3.") {
				t.Errorf("GET /api/v1/openapi.json = %d, openapi %q", status, doc.OpenAPI)
			}

			a := p.upload("ticTacToe", ttt, http.StatusCreated)
			b := p.upload("sum15", sum15, http.StatusCreated)
			c := p.upload("buttons", buttons, http.StatusCreated)
			if again := p.upload("same text", ttt, http.StatusOK); again.ID != a.ID || again.SHA256 != a.SHA256 {
				t.Errorf("second upload of ticTacToe = %+v, want game %d", again, a.ID)
			}

			byID := p.submit(map[string]any{"a": a.ID, "b": b.ID})
			done := p.pollFinal(byID.ID, 2*time.Minute)
			if done.Status != "done" || done.Verdict != "equivalent" || done.Result == nil || done.Result.Verdict != equiv.Equivalent {
				t.Fatalf("ticTacToe vs sum15 = %+v", done)
			}
			if got := done.Result.Mapping.Propositions["(cell 2 2 x)"]; got != "(num 5 white)" {
				t.Errorf("mapping of (cell 2 2 x) = %q, want (num 5 white)", got)
			}
			if len(done.Result.Mapping.Roles) != 2 {
				t.Errorf("role mapping = %v, want both roles", done.Result.Mapping.Roles)
			}

			inline := p.submit(map[string]any{"a": map[string]string{"name": "sum15 inline", "gdl": sum15}, "b": a.ID})
			done = p.pollFinal(inline.ID, 2*time.Minute)
			if done.Verdict != "equivalent" || done.Result.Mapping.Propositions["(num 5 white)"] != "(cell 2 2 x)" {
				t.Errorf("inline sum15 vs ticTacToe = %+v", done)
			}
			different := p.submit(map[string]any{"a": a.ID, "b": map[string]string{"name": "buttons inline", "gdl": buttons}})
			if done := p.pollFinal(different.ID, 2*time.Minute); done.Status != "done" || done.Verdict != "not_equivalent" {
				t.Errorf("ticTacToe vs buttons = %+v", done)
			}

			if again := p.submit(map[string]any{"a": a.ID, "b": b.ID}); again.ID != byID.ID || again.Status != "done" {
				t.Errorf("resubmission = %+v, want comparison %d, done", again, byID.ID)
			}
			if n := len(p.games()); n != 3 {
				t.Errorf("%d games stored, want 3 (inline texts are the uploaded games)", n)
			}

			// The classifier puts ticTacToe and sum15 in one class, buttons in another.
			deadline := time.Now().Add(2 * time.Minute)
			for {
				var list struct {
					Items []class `json:"items"`
				}
				p.do("GET", "/api/v1/classes", nil, &list)
				members := map[int64]int64{}
				for _, cl := range list.Items {
					for _, m := range cl.Members {
						members[m.ID] = cl.ID
					}
				}
				if len(list.Items) == 2 && members[a.ID] != 0 && members[a.ID] == members[b.ID] && members[c.ID] != 0 && members[c.ID] != members[a.ID] {
					var one class
					p.do("GET", "/api/v1/classes/"+strconv.FormatInt(members[a.ID], 10), nil, &one)
					if len(one.Members) != 2 {
						t.Errorf("class %d = %+v, want 2 members", members[a.ID], one)
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("classes = %+v, want {ticTacToe, sum15} and {buttons}", list.Items)
				}
				time.Sleep(50 * time.Millisecond)
			}

			metrics := p.text("/metrics")
			for _, want := range []string{
				`gamequiv_jobs_total{outcome="done"} 3`,
				`gamequiv_queue_depth 0`,
				`gamequiv_comparison_phase_seconds_count{phase="graph"}`,
				`gamequiv_comparison_sat_calls_count 3`,
				`gamequiv_http_request_duration_seconds_count{code="202",method="POST",route="/api/v1/comparisons"} 4`,
			} {
				if !strings.Contains(metrics, want) {
					t.Errorf("/metrics lacks %q", want)
				}
			}
			// Problems are problem+json (checked by do) with the right status.
			if status, _ := p.do("GET", "/api/v1/comparisons/999999", nil, nil); status != http.StatusNotFound {
				t.Errorf("GET unknown comparison = %d, want 404", status)
			}
		})
	}
}

// TestE2ECrash kills the server with SIGKILL in the middle of a long
// comparison, restarts it on the same database, and checks that the job is
// run again and finished exactly once, and that no game or comparison is
// lost.
func TestE2ECrash(t *testing.T) {
	if testing.Short() {
		t.Skip("long comparison; skipped with -short")
	}
	ttt := corpusGame(t, "ggp-base-repo/ticTacToe.kif")
	sum15 := corpusGame(t, "ggp-base/sum15.kif")
	// Two texts of Connect Four. The first server holds every comparison
	// in its graph phase (hold_e2e.go), so the kill always lands in the
	// middle of one however fast the comparison has become.
	c4a := corpusGame(t, "ggp-base-repo/connectFour.kif")
	c4b := corpusGame(t, "ggp-base/connectFour.kif")
	for _, db := range databases() {
		t.Run(db.name, func(t *testing.T) {
			dataDir := filepath.Join(t.TempDir(), "data")
			env := db.env(t)
			// One worker, so the queued job waits behind the long one; a
			// short lease, so the restarted server reclaims it quickly.
			flags := []string{"--workers", "1", "--lease", "1s", "--classify=false"}
			first := startServer(t, dataDir, env, flags...)

			a := first.upload("ticTacToe", ttt, http.StatusCreated)
			b := first.upload("sum15", sum15, http.StatusCreated)
			ca := first.upload("connectFour", c4a, http.StatusCreated)
			cb := first.upload("connectFour ggp-base", c4b, http.StatusCreated)

			small := first.submit(map[string]any{"a": a.ID, "b": b.ID})
			smallDone := first.pollFinal(small.ID, time.Minute)
			if smallDone.Verdict != "equivalent" {
				t.Fatalf("small comparison before the crash = %+v", smallDone)
			}
			first.stop()
			first = startServer(t, dataDir, append(env, holdPhaseEnv+"=graph"), flags...)
			long := first.submit(map[string]any{"a": ca.ID, "b": cb.ID})
			queued := first.submit(map[string]any{"a": b.ID, "b": a.ID})

			// Kill once the long job is in its graph phase.
			running := first.poll(long.ID, time.Minute, "in the graph phase", func(c comparison) bool {
				return c.Status == "running" && c.Progress.Phase == "graph" || c.Status == "done"
			})
			if running.Status == "done" {
				t.Fatalf("the long comparison finished before the kill (%+v) although the server holds it in the graph phase", running)
			}
			gamesBefore := first.games()
			cmpsBefore := first.comparisons()
			first.kill()
			t.Logf("killed the server during comparison %d (phase %s, attempt %d)", long.ID, running.Progress.Phase, running.Attempts)

			second := startServer(t, dataDir, env, flags...)
			if got := second.comparison(long.ID); got.Status != "running" && got.Status != "queued" {
				t.Fatalf("after the restart the long comparison is %+v, want running (lease not yet expired) or queued", got)
			}
			done := second.pollFinal(long.ID, 3*time.Minute)
			if done.Status != "done" || done.Verdict != "equivalent" || done.Result == nil || len(done.Result.Mapping.Propositions) == 0 {
				t.Fatalf("long comparison after the restart = %+v", done)
			}
			if done.Attempts != 2 {
				t.Errorf("long comparison ran %d times, want 2 (killed, then finished)", done.Attempts)
			}
			if q := second.pollFinal(queued.ID, time.Minute); q.Status != "done" || q.Verdict != "equivalent" || q.Attempts != 1 {
				t.Errorf("comparison queued behind it = %+v, want done after 1 attempt", q)
			}

			// Finished exactly once: the finish time stays put after further
			// leases, and this process finished exactly the two jobs.
			time.Sleep(2500 * time.Millisecond)
			if again := second.comparison(long.ID); again.FinishedAt == nil || !again.FinishedAt.Equal(*done.FinishedAt) || again.Status != "done" || again.Attempts != 2 {
				t.Errorf("long comparison changed after finishing: %+v, then %+v", done, again)
			}
			metrics := second.text("/metrics")
			for _, want := range []string{`gamequiv_jobs_total{outcome="done"} 2`, `gamequiv_verdicts_total{verdict="equivalent"} 2`} {
				if !strings.Contains(metrics, want) {
					t.Errorf("/metrics of the restarted server lacks %q", want)
				}
			}
			if strings.Contains(metrics, `outcome="lease_lost"`) || strings.Contains(metrics, `outcome="failed"`) {
				t.Errorf("restarted server lost a lease or failed a job:\n%s", grepLines(metrics, "gamequiv_jobs_total"))
			}
			if got := second.comparison(small.ID); got.Status != "done" || !got.FinishedAt.Equal(*smallDone.FinishedAt) || got.Attempts != 1 {
				t.Errorf("comparison finished before the crash = %+v, was %+v", got, smallDone)
			}

			// Nothing lost.
			gamesAfter := second.games()
			if len(gamesAfter) != len(gamesBefore) {
				t.Errorf("%d games after the restart, %d before", len(gamesAfter), len(gamesBefore))
			}
			for i := range min(len(gamesAfter), len(gamesBefore)) {
				if gamesAfter[i].ID != gamesBefore[i].ID || gamesAfter[i].SHA256 != gamesBefore[i].SHA256 {
					t.Errorf("game %d after the restart = %+v, before %+v", i, gamesAfter[i], gamesBefore[i])
				}
			}
			cmpsAfter := second.comparisons()
			if len(cmpsAfter) != len(cmpsBefore) || len(cmpsAfter) != 3 {
				t.Errorf("%d comparisons after the restart, %d before, want 3", len(cmpsAfter), len(cmpsBefore))
			}
			for _, c := range cmpsAfter {
				if c.Status != "done" {
					t.Errorf("comparison %d is %s after the restart, want done", c.ID, c.Status)
				}
			}
		})
	}
}

// grepLines returns the lines of text that contain s.
func grepLines(text, s string) string {
	var out []string
	for l := range strings.Lines(text) {
		if strings.Contains(l, s) {
			out = append(out, strings.TrimRight(l, "\n"))
		}
	}
	return strings.Join(out, "\n")
}
