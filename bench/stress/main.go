// Command stress is the bounded robustness run of the gamequiv service
// (issue #6): concurrent loopback clients mix valid requests with bad ones
// for a fixed time, and the run checks that the server never crashes, never
// answers a bad request with a 5xx, and stays under a resident-memory bound.
//
// Usage:
//
//	go run ./bench/stress [-c 200] [-d 60s] [-workers n] [-max-rss 2GiB] [-url http://127.0.0.1:PORT -pid PID] [-json out.json]
//
// Without -url it builds cmd/server into a temporary directory, starts it
// on a free loopback port with a temporary data directory (SQLite) and
// --rate-limit 0 (so that requests reach the handlers instead of getting
// 429), samples its resident set size from /proc/PID/status every 200 ms,
// and stops it at the end. With -url it stresses a running server, which
// must listen on a loopback address; give -pid to measure its memory.
//
// Each client loops until the deadline, picking a request kind at random:
//
//   - valid: upload a small game (now and then a new text), list games, get
//     a game, submit a comparison of stored games and read it, /healthz;
//   - oversized: a body past the server's cap (-oversize, default 5 MiB),
//     want 413;
//   - malformed: truncated or non-JSON bodies, wrong types, unknown fields,
//     want 400;
//   - unknown: ids that do not exist or are not ids, unknown routes and
//     methods, want 400, 404 or 405;
//   - slow: a valid or truncated body sent a few bytes at a time over up to
//     2 s (sometimes abandoned half-way), want 2xx or 4xx or a closed
//     connection;
//   - badgdl: the bad-input corpus testdata/bad (as uploads and inline
//     comparison games), want 413 or 422.
//
// The run fails (exit 1) on a crash (the server process exits or stops
// answering /healthz), on any 5xx to a bad request, or on a peak RSS above
// -max-rss. Results are printed as a table and, with -json, written as JSON.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gamequiv/gamequiv/bench/internal/benchserver"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// Bounds of a run.
const (
	maxClients  = 200
	maxDuration = 10 * time.Minute
)

type options struct {
	clients   int
	duration  time.Duration
	url       string
	pid       int
	workers   int
	oversize  int
	maxRSS    int64
	seed      uint64
	jsonOut   string
	serverLog string
}

func main() {
	var o options
	var maxRSS string
	flag.IntVar(&o.clients, "c", 200, fmt.Sprintf("concurrent clients (at most %d)", maxClients))
	flag.DurationVar(&o.duration, "d", 60*time.Second, fmt.Sprintf("duration of the run (at most %v)", maxDuration))
	flag.StringVar(&o.url, "url", "", "stress a running server at this loopback base URL instead of starting one")
	flag.IntVar(&o.pid, "pid", 0, "with -url: the server's process id, to sample its memory")
	flag.IntVar(&o.workers, "workers", runtime.NumCPU(), "comparison workers of the server started without -url")
	flag.IntVar(&o.oversize, "oversize", 5<<20, "size in bytes of the oversized bodies (the server's default cap is 4 MiB)")
	flag.StringVar(&maxRSS, "max-rss", "2GiB", "fail when the server's peak RSS exceeds this (bytes, or with KiB/MiB/GiB)")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed of the clients")
	flag.StringVar(&o.jsonOut, "json", "", "also write the result as JSON to this file")
	flag.StringVar(&o.serverLog, "server-log", "", "write the started server's log to this file")
	flag.Parse()
	var err error
	if o.maxRSS, err = parseSize(maxRSS); err != nil {
		fmt.Fprintln(os.Stderr, "stress: -max-rss:", err)
		os.Exit(2)
	}
	if o.clients < 1 || o.clients > maxClients || o.duration <= 0 || o.duration > maxDuration {
		fmt.Fprintf(os.Stderr, "stress: want 1 <= -c <= %d and 0 < -d <= %v\n", maxClients, maxDuration)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stress:", err)
		os.Exit(1)
	}
	res.print(os.Stdout)
	if o.jsonOut != "" {
		data, _ := json.MarshalIndent(res, "", "  ")
		if err := os.WriteFile(o.jsonOut, append(data, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "stress:", err)
			os.Exit(1)
		}
	}
	if !res.Pass {
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = rest, u.m
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q: want a positive size", s)
	}
	return int64(n * float64(mult)), nil
}

// Result is the outcome of a run.
type Result struct {
	Clients        int                `json:"clients"`
	Seconds        float64            `json:"seconds"`
	Requests       int64              `json:"requests"`
	PerSecond      float64            `json:"requests_per_second"`
	Kinds          map[string]*Counts `json:"kinds"`
	Crashes        int                `json:"crashes"`
	BadRequest5xx  int64              `json:"bad_request_5xx"`
	Valid5xx       int64              `json:"valid_5xx"`
	Unexpected     int64              `json:"unexpected"`
	PeakRSSBytes   int64              `json:"peak_rss_bytes"`
	RSSMeasured    bool               `json:"rss_measured"`
	ServerWorkers  int                `json:"server_workers,omitempty"`
	Examples       []string           `json:"examples,omitempty"`
	Pass           bool               `json:"pass"`
	FailureReasons []string           `json:"failure_reasons,omitempty"`
}

// Counts are the outcomes of one kind of request.
type Counts struct {
	Requests   int64            `json:"requests"`
	Status     map[string]int64 `json:"status"` // "200", "413", ..., "conn" for transport errors
	Unexpected int64            `json:"unexpected"`
	P50ms      float64          `json:"p50_ms"`
	P99ms      float64          `json:"p99_ms"`
	latencies  []time.Duration
}

// recorder collects outcomes from all clients.
type recorder struct {
	mu       sync.Mutex
	kinds    map[string]*Counts
	bad5xx   int64
	valid5xx int64
	unexp    int64
	examples []string
	total    atomic.Int64
}

// note records one request of kind: its status (0 for a transport error),
// latency, and whether the status was one the kind allows.
func (r *recorder) note(kind string, bad bool, status int, d time.Duration, ok bool, what string) {
	r.total.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.kinds[kind]
	if c == nil {
		c = &Counts{Status: map[string]int64{}}
		r.kinds[kind] = c
	}
	c.Requests++
	key := strconv.Itoa(status)
	if status == 0 {
		key = "conn"
	}
	c.Status[key]++
	if len(c.latencies) < 200_000 {
		c.latencies = append(c.latencies, d)
	}
	if status >= 500 {
		if bad {
			r.bad5xx++
		} else {
			r.valid5xx++
		}
	}
	if !ok {
		c.Unexpected++
		r.unexp++
		if len(r.examples) < 20 {
			r.examples = append(r.examples, fmt.Sprintf("%s: %s -> %s", kind, what, key))
		}
	}
}

// client is one simulated user.
type client struct {
	cl   *http.Client
	base string
	rng  *rand.Rand
	rec  *recorder
	data *fixtures
}

// fixtures are the request bodies shared by the clients.
type fixtures struct {
	games    []string // valid small games
	ids      []int64  // stored games
	oversize []byte   // a body past the cap
	bad      [][]byte // the bad-input corpus
	cmpIDs   sync.Map // comparison ids seen (int64 -> struct{})
}

// do sends a request and returns the status (0 on a transport error) and body.
func (c *client) do(ctx context.Context, method, path string, body io.Reader) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.cl.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return 0, nil, err
	}
	if res.StatusCode >= 400 && !strings.HasPrefix(res.Header.Get("Content-Type"), "application/problem+json") && res.StatusCode != http.StatusMethodNotAllowed {
		return res.StatusCode, data, fmt.Errorf("status %d without problem+json (%q)", res.StatusCode, res.Header.Get("Content-Type"))
	}
	return res.StatusCode, data, nil
}

// step runs one request of a random kind.
func (c *client) step(ctx context.Context) {
	switch k := c.rng.IntN(100); {
	case k < 40:
		c.valid(ctx)
	case k < 50:
		c.oversized(ctx)
	case k < 62:
		c.malformed(ctx)
	case k < 74:
		c.unknown(ctx)
	case k < 84:
		c.slow(ctx)
	default:
		c.badGDL(ctx)
	}
}

// request runs one request and records it. allowed says which statuses are
// right for it.
func (c *client) request(ctx context.Context, kind string, bad bool, method, path string, body io.Reader, allowed func(int) bool) (int, []byte) {
	start := time.Now()
	status, data, err := c.do(ctx, method, path, body)
	if ctx.Err() != nil {
		return 0, nil // the run ended mid-request: not counted
	}
	ok := err == nil && allowed(status)
	what := method + " " + path
	if err != nil {
		what += ": " + err.Error()
	}
	c.rec.note(kind, bad, status, time.Since(start), ok, what)
	return status, data
}

func is(codes ...int) func(int) bool {
	return func(s int) bool { return slices.Contains(codes, s) }
}

func jsonBody(v any) *bytes.Reader {
	data, _ := json.Marshal(v)
	return bytes.NewReader(data)
}

func (c *client) valid(ctx context.Context) {
	d := c.data
	switch k := c.rng.IntN(10); {
	case k < 3:
		gdl := d.games[c.rng.IntN(len(d.games))]
		if c.rng.IntN(4) == 0 {
			gdl = fmt.Sprintf("; variant %d\n%s", c.rng.Uint64(), gdl) // a new text: a new game
		}
		c.request(ctx, "valid", false, "POST", "/api/v1/games", jsonBody(map[string]string{"name": "stress.kif", "gdl": gdl}), is(200, 201))
	case k < 5:
		c.request(ctx, "valid", false, "GET", "/api/v1/games?limit=20", nil, is(200))
	case k < 6:
		c.request(ctx, "valid", false, "GET", fmt.Sprintf("/api/v1/games/%d", d.ids[c.rng.IntN(len(d.ids))]), nil, is(200))
	case k < 8:
		a, b := d.ids[c.rng.IntN(len(d.ids))], d.ids[c.rng.IntN(len(d.ids))]
		// 429 is the documented answer to a full queue.
		status, data := c.request(ctx, "valid", false, "POST", "/api/v1/comparisons", jsonBody(map[string]int64{"a": a, "b": b}), is(200, 202, 429))
		var out struct {
			ID int64 `json:"id"`
		}
		if (status == 200 || status == 202) && json.Unmarshal(data, &out) == nil && out.ID > 0 {
			d.cmpIDs.Store(out.ID, struct{}{})
		}
	case k < 9:
		var id int64 = 1
		d.cmpIDs.Range(func(k, _ any) bool { id = k.(int64); return c.rng.IntN(4) != 0 })
		c.request(ctx, "valid", false, "GET", fmt.Sprintf("/api/v1/comparisons/%d", id), nil, is(200, 404))
	default:
		c.request(ctx, "valid", false, "GET", "/healthz", nil, is(200))
	}
}

func (c *client) oversized(ctx context.Context) {
	path := "/api/v1/games"
	if c.rng.IntN(2) == 0 {
		path = "/api/v1/comparisons"
	}
	// The server may answer 413 and close the connection before it has read
	// the whole body: the client then sees a reset, which is fine.
	c.request(ctx, "oversized", true, "POST", path, bytes.NewReader(c.data.oversize), func(s int) bool { return s == 413 })
}

var malformedBodies = []string{
	``, `{`, `{"gdl": `, `{"gdl": "(role x)"`, `(role x)`, `null`, `[]`, `"gdl"`, `{"gdl": 5}`,
	`{"gdl": "(role x)", "extra": 1}`, `{"gdl": "(role x)"} {}`, `{"a": "x", "b": 1}`, `{"a": 1.5, "b": 2}`,
	`{"a": {"gdl": 7}, "b": 1}`, "\xff\xfe{\"gdl\":1}", `{"name": ["x"], "gdl": "(role x)"}`, `{"limits": {"timeout_ms": -5}, "a": 1, "b": 1}`,
}

func (c *client) malformed(ctx context.Context) {
	body := malformedBodies[c.rng.IntN(len(malformedBodies))]
	if c.rng.IntN(3) == 0 {
		// random garbage
		b := make([]byte, 1+c.rng.IntN(256))
		for i := range b {
			b[i] = byte(c.rng.IntN(256))
		}
		body = string(b)
	}
	path := "/api/v1/games"
	if c.rng.IntN(2) == 0 {
		path = "/api/v1/comparisons"
	}
	c.request(ctx, "malformed", true, "POST", path, strings.NewReader(body), func(s int) bool { return s >= 400 && s < 500 })
}

func (c *client) unknown(ctx context.Context) {
	type req struct{ method, path string }
	reqs := []req{
		{"GET", "/api/v1/games/999999999"}, {"GET", "/api/v1/comparisons/999999999"},
		{"DELETE", "/api/v1/comparisons/999999999"}, {"GET", "/api/v1/games/999999999/symmetries"},
		{"GET", "/api/v1/classes/999999999"}, {"GET", "/api/v1/games/abc"}, {"GET", "/api/v1/comparisons/-1"},
		{"GET", "/api/v1/games/0"}, {"GET", "/api/v1/games/99999999999999999999999"}, {"GET", "/api/v1/nothing"},
		{"PUT", "/api/v1/games/1"}, {"PATCH", "/api/v1/comparisons"}, {"GET", "/api/v1/games?limit=-1"},
		{"GET", "/api/v1/games?cursor=x"}, {"GET", "/api/v1/games?limit=100000"},
	}
	r := reqs[c.rng.IntN(len(reqs))]
	c.request(ctx, "unknown", true, r.method, r.path, nil, func(s int) bool { return s >= 400 && s < 500 })
}

// trickle is a body that sends its bytes a few at a time, and may give up.
type trickle struct {
	ctx     context.Context
	data    []byte
	chunk   int
	pause   time.Duration
	abandon int // stop with an error after this many bytes; -1 never
	sent    int
}

func (t *trickle) Read(p []byte) (int, error) {
	if t.abandon >= 0 && t.sent >= t.abandon {
		return 0, errors.New("client gave up")
	}
	if t.sent >= len(t.data) {
		return 0, io.EOF
	}
	if t.sent > 0 {
		select {
		case <-time.After(t.pause):
		case <-t.ctx.Done():
			return 0, t.ctx.Err()
		}
	}
	n := copy(p, t.data[t.sent:min(len(t.data), t.sent+t.chunk)])
	t.sent += n
	return n, nil
}

func (c *client) slow(ctx context.Context) {
	gdl := c.data.games[c.rng.IntN(len(c.data.games))]
	body, _ := json.Marshal(map[string]string{"name": "slow.kif", "gdl": gdl})
	if c.rng.IntN(2) == 0 {
		body = body[:len(body)/2] // truncated: malformed once it ends
	}
	chunk := 1 + c.rng.IntN(64)
	steps := (len(body) + chunk - 1) / chunk
	t := &trickle{ctx: ctx, data: body, chunk: chunk, pause: 2 * time.Second / time.Duration(steps), abandon: -1}
	if c.rng.IntN(4) == 0 {
		t.abandon = len(body) / 3
	}
	start := time.Now()
	req, _ := http.NewRequestWithContext(ctx, "POST", c.base+"/api/v1/games", t)
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = -1 // chunked: the server cannot know the size in advance
	res, err := c.cl.Do(req)
	if ctx.Err() != nil {
		return
	}
	status := 0
	if err == nil {
		status = res.StatusCode
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	ok := status >= 200 && status < 500 && status != 0
	if t.abandon >= 0 {
		ok = status == 0 || (status >= 400 && status < 500) // the client broke the request
	}
	what := fmt.Sprintf("slow body of %d bytes, chunks of %d, abandon at %d", len(body), chunk, t.abandon)
	if err != nil {
		what += ": " + err.Error()
	}
	c.rec.note("slow", true, status, time.Since(start), ok, what)
}

func (c *client) badGDL(ctx context.Context) {
	src := c.data.bad[c.rng.IntN(len(c.data.bad))]
	inline := map[string]string{"name": "bad.kif", "gdl": string(src)}
	allowed := is(413, 422)
	if c.rng.IntN(3) == 0 && len(c.data.ids) > 0 {
		c.request(ctx, "badgdl", true, "POST", "/api/v1/comparisons", jsonBody(map[string]any{"a": inline, "b": c.data.ids[0]}), allowed)
		return
	}
	c.request(ctx, "badgdl", true, "POST", "/api/v1/games", jsonBody(inline), allowed)
}

// Small valid games: the buttons game, a renaming, a variant and a counter.
var validGames = []string{
	testgames.Buttons,
	testgames.ButtonsRenamed,
	testgames.ButtonsOtherGoal,
	`(role p)
(init (step 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(<= (legal p tick) (true (step ?n)))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(<= terminal (true (step 3)))
(<= (goal p 100) (true (step 3)))
(<= (goal p 0) (not (true (step 3))))
`,
}

func run(ctx context.Context, o options) (*Result, error) {
	root, err := benchserver.ModuleRoot()
	if err != nil {
		return nil, err
	}
	data := &fixtures{games: validGames, oversize: oversizedBody(o.oversize)}
	paths, _ := filepath.Glob(filepath.Join(root, "testdata", "bad", "*.kif"))
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil {
			data.bad = append(data.bad, src)
		}
	}
	if len(data.bad) == 0 {
		return nil, errors.New("no bad-input corpus in testdata/bad")
	}
	base, pid := o.url, o.pid
	var srv *benchserver.Server
	if base == "" {
		srv, err = startServer(ctx, root, o)
		if err != nil {
			return nil, err
		}
		defer srv.Stop()
		base, pid = srv.Base, srv.Pid()
	} else if err := benchserver.CheckLoopback(base); err != nil {
		return nil, fmt.Errorf("-url %w", err)
	}
	base = strings.TrimSuffix(base, "/")
	tr := &http.Transport{MaxIdleConns: 2 * maxClients, MaxIdleConnsPerHost: 2 * maxClients, IdleConnTimeout: 30 * time.Second}
	cl := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	defer tr.CloseIdleConnections()
	for _, g := range validGames {
		id, err := uploadGame(ctx, cl, base, g)
		if err != nil {
			return nil, err
		}
		data.ids = append(data.ids, id)
	}

	res := &Result{Clients: o.clients, Kinds: map[string]*Counts{}}
	if srv != nil {
		res.ServerWorkers = o.workers
	}
	rec := &recorder{kinds: res.Kinds}
	var peak atomic.Int64
	crashed := make(chan string, 1)
	runCtx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var wg sync.WaitGroup
	// Memory sampler and crash watch.
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			if pid > 0 {
				if rss, err := readRSS(pid); err == nil {
					res.RSSMeasured = true
					if rss > peak.Load() {
						peak.Store(rss)
					}
				}
			}
			if srv != nil {
				select {
				case <-srv.Exited():
					crashed <- fmt.Sprintf("server exited: %v", srv.ProcessState())
					cancel()
					return
				default:
				}
			}
			select {
			case <-runCtx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	for i := range o.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &client{cl: cl, base: base, rng: rand.New(rand.NewPCG(o.seed, uint64(i))), rec: rec, data: data}
			for runCtx.Err() == nil {
				c.step(runCtx)
			}
		}()
	}
	wg.Wait()
	res.Seconds = time.Since(start).Seconds()
	if pid > 0 {
		if hwm, err := readStatusField(pid, "VmHWM:"); err == nil && hwm > peak.Load() {
			peak.Store(hwm) // the kernel's own high-water mark, between samples
		}
	}
	select {
	case why := <-crashed:
		res.Crashes++
		res.FailureReasons = append(res.FailureReasons, why)
	default:
		// Still alive and answering?
		hctx, hcancel := context.WithTimeout(ctx, 10*time.Second)
		c := &client{cl: cl, base: base}
		status, _, err := c.do(hctx, "GET", "/healthz", nil)
		hcancel()
		if err != nil || status != 200 {
			res.Crashes++
			res.FailureReasons = append(res.FailureReasons, fmt.Sprintf("/healthz after the run: %d %v", status, err))
		}
	}
	res.Requests = rec.total.Load()
	res.PerSecond = float64(res.Requests) / res.Seconds
	res.BadRequest5xx, res.Valid5xx, res.Unexpected = rec.bad5xx, rec.valid5xx, rec.unexp
	res.Examples = rec.examples
	res.PeakRSSBytes = peak.Load()
	for _, c := range res.Kinds {
		c.P50ms, c.P99ms = benchserver.Percentile(c.latencies, 50), benchserver.Percentile(c.latencies, 99)
	}
	if res.BadRequest5xx > 0 {
		res.FailureReasons = append(res.FailureReasons, fmt.Sprintf("%d bad requests answered 5xx", res.BadRequest5xx))
	}
	if res.PeakRSSBytes > o.maxRSS {
		res.FailureReasons = append(res.FailureReasons, fmt.Sprintf("peak RSS %d MiB > %d MiB", res.PeakRSSBytes>>20, o.maxRSS>>20))
	}
	res.Pass = len(res.FailureReasons) == 0
	return res, nil
}

func oversizedBody(n int) []byte {
	// A well-formed upload whose gdl alone is past the cap.
	var b bytes.Buffer
	b.WriteString(`{"name":"big.kif","gdl":"(role x)\n`)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `(cell %d blank)\n`, i)
	}
	b.WriteString(`"}`)
	return b.Bytes()
}

func uploadGame(ctx context.Context, cl *http.Client, base, gdl string) (int64, error) {
	c := &client{cl: cl, base: base}
	status, data, err := c.do(ctx, "POST", "/api/v1/games", jsonBody(map[string]string{"name": "stress.kif", "gdl": gdl}))
	if err != nil {
		return 0, fmt.Errorf("upload: %v", err)
	}
	var out struct {
		ID int64 `json:"id"`
	}
	if (status != 200 && status != 201) || json.Unmarshal(data, &out) != nil || out.ID == 0 {
		return 0, fmt.Errorf("upload: %d %s", status, data)
	}
	return out.ID, nil
}

// readRSS returns the resident set size of a process, from /proc.
func readRSS(pid int) (int64, error) { return readStatusField(pid, "VmRSS:") }

// readStatusField reads a "kB" field of /proc/PID/status, in bytes.
func readStatusField(pid int, field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

func (res *Result) print(w io.Writer) {
	fmt.Fprintf(w, "clients %d, %.1f s, %d requests (%.0f/s)\n", res.Clients, res.Seconds, res.Requests, res.PerSecond)
	fmt.Fprintf(w, "%-10s %9s %11s %9s %9s  %s\n", "kind", "requests", "unexpected", "p50 ms", "p99 ms", "statuses")
	kinds := make([]string, 0, len(res.Kinds))
	for k := range res.Kinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		c := res.Kinds[k]
		codes := make([]string, 0, len(c.Status))
		for s := range c.Status {
			codes = append(codes, s)
		}
		slices.Sort(codes)
		var parts []string
		for _, s := range codes {
			parts = append(parts, fmt.Sprintf("%s:%d", s, c.Status[s]))
		}
		fmt.Fprintf(w, "%-10s %9d %11d %9.1f %9.1f  %s\n", k, c.Requests, c.Unexpected, c.P50ms, c.P99ms, strings.Join(parts, " "))
	}
	rss := "not measured (give -pid with -url)"
	if res.RSSMeasured {
		rss = fmt.Sprintf("%.0f MiB", float64(res.PeakRSSBytes)/(1<<20))
	}
	fmt.Fprintf(w, "crashes %d, 5xx to bad requests %d, 5xx to valid requests %d, unexpected statuses %d, server peak RSS %s\n",
		res.Crashes, res.BadRequest5xx, res.Valid5xx, res.Unexpected, rss)
	for _, e := range res.Examples {
		fmt.Fprintln(w, "  e.g.", e)
	}
	if res.Pass {
		fmt.Fprintln(w, "PASS")
	} else {
		fmt.Fprintln(w, "FAIL:", strings.Join(res.FailureReasons, "; "))
	}
}

// startServer builds cmd/server and starts it on a free loopback port with
// SQLite in a temporary data directory and no rate limit, so that requests
// reach the handlers.
func startServer(ctx context.Context, root string, o options) (*benchserver.Server, error) {
	var logw io.Writer
	if o.serverLog != "" {
		f, err := os.Create(o.serverLog)
		if err != nil {
			return nil, err
		}
		logw = f // closed when the process exits
	}
	return benchserver.Start(ctx, benchserver.Options{
		Root: root,
		Args: []string{"--workers", strconv.Itoa(o.workers), "--rate-limit", "0"},
		Env:  []string{"GAMEQUIV_DATABASE_URL="},
		Log:  logw,
	})
}
