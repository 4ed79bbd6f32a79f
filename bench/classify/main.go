// Command classify is the classification benchmark of the gamequiv
// service: it starts an empty server, uploads every game of the corpus
// (every *.kif below -games), and waits until the background classifier has
// placed every stored game (a class, or an error saying why not). It
// reports the time from the first upload until then, the uploads accepted
// and rejected, the comparisons the classifier ran (from its "game placed"
// log lines), the games that went to the slow lane, and the classes found,
// naming those with more than one game.
//
// Usage:
//
//	go run ./bench/classify [-games dir] [-uploaders 2] [-timeout 20m] [-json] [-server-log file] [-- server flags...]
//
// It builds cmd/server and starts it on a free loopback port with a
// temporary SQLite data directory (or -database-url), --rate-limit 0 and
// the given server flags, and stops it at the end. The run is bounded by
// -timeout.
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
	"io/fs"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gamequiv/gamequiv/bench/internal/benchserver"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

type options struct {
	games     string
	uploaders int
	timeout   time.Duration
	poll      time.Duration
	jsonOut   bool
	serverLog string
	dbURL     string
	args      []string
}

func main() {
	var o options
	flag.StringVar(&o.games, "games", "", "game corpus directory (default $GAMEQUIV_GAMES or ../shared/games next to the module root)")
	flag.IntVar(&o.uploaders, "uploaders", 2, "uploads at once (the server grounds each upload in the request)")
	flag.DurationVar(&o.timeout, "timeout", 20*time.Minute, "bound on the whole run")
	flag.DurationVar(&o.poll, "poll", 250*time.Millisecond, "interval between two listings of the games")
	flag.BoolVar(&o.jsonOut, "json", false, "print the result as JSON")
	flag.StringVar(&o.serverLog, "server-log", "", "write the server's log lines to this file")
	flag.StringVar(&o.dbURL, "database-url", "", "PostgreSQL URL on a loopback address (empty: SQLite in a temporary directory)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./bench/classify [flags] [-- server flags]\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	o.args = flag.Args()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "classify:", err)
		os.Exit(1)
	}
}

// result is what the benchmark reports.
type result struct {
	Files      int            `json:"files"`
	Accepted   int            `json:"uploads_accepted"` // 200 or 201
	Duplicates int            `json:"duplicate_texts"`  // 200: a text stored before under another name
	Rejected   map[string]int `json:"uploads_rejected"` // by status and code
	// RejectedFiles lists the files whose upload was refused, with the
	// status and code.
	RejectedFiles []string `json:"rejected_files"`
	Games         int      `json:"games_stored"`
	Placed        int      `json:"games_in_a_class"`
	Errors        int      `json:"games_with_an_error"`
	UploadS       float64  `json:"upload_seconds"`
	PlacedS       float64  `json:"seconds_until_all_placed"`
	// From the classifier's log lines.
	Comparisons int `json:"comparisons"`
	SlowLane    int `json:"slow_lane_placements"`
	Merged      int `json:"merged_by_comparisons"`
	Unresolved  int `json:"placements_with_unresolved_candidates"`
	Classes     int `json:"classes"`
	// NonTrivial lists the classes of more than one game by member names.
	NonTrivial [][]string `json:"non_trivial_classes"`
	// ErrorsByKind counts the games the classifier marked, by the first
	// words of the error.
	ErrorsByKind map[string]int `json:"errors_by_kind"`
	TimedOut     bool           `json:"timed_out"`
	// ServerPeakRSSMiB is the server's peak resident memory (VmHWM).
	ServerPeakRSSMiB float64 `json:"server_peak_rss_mib"`
}

func run(ctx context.Context, o options) error {
	dir := o.games
	if dir == "" {
		d, err := testgames.Find()
		if err != nil {
			return fmt.Errorf("%w (use -games)", err)
		}
		dir = d
	}
	files, err := kifFiles(dir)
	if err != nil {
		return err
	}
	if o.dbURL != "" {
		if err := benchserver.CheckLoopback(o.dbURL); err != nil {
			return err
		}
	}
	root, err := benchserver.ModuleRoot()
	if err != nil {
		return err
	}
	logs := &logCounter{}
	var logw io.Writer = logs
	if o.serverLog != "" {
		f, err := os.Create(o.serverLog)
		if err != nil {
			return err
		}
		defer f.Close()
		logw = io.MultiWriter(logs, f)
	}
	srv, err := benchserver.Start(ctx, benchserver.Options{
		Root: root,
		Args: append([]string{"--rate-limit", "0"}, o.args...),
		Env:  []string{"GAMEQUIV_DATABASE_URL=" + o.dbURL},
		Log:  logw,
	})
	if err != nil {
		return err
	}
	defer srv.Stop()

	res := &result{Files: len(files), Rejected: map[string]int{}, ErrorsByKind: map[string]int{}}
	cl := &http.Client{Timeout: 5 * time.Minute}
	start := time.Now()
	if err := uploadAll(ctx, cl, srv.Base, dir, files, o.uploaders, res); err != nil {
		return err
	}
	res.UploadS = time.Since(start).Seconds()
	fmt.Fprintf(os.Stderr, "uploaded %d files in %.1fs (%d accepted, %d duplicates); waiting for the classifier\n",
		len(files), res.UploadS, res.Accepted, res.Duplicates)
	last := ""
	for {
		games, err := listAll[gameJSON](ctx, cl, srv.Base+"/api/v1/games")
		if err != nil {
			return err
		}
		res.Games, res.Placed, res.Errors = len(games), 0, 0
		clear(res.ErrorsByKind)
		for _, g := range games {
			switch {
			case g.ClassID != 0:
				res.Placed++
			case g.AnalysisError != "":
				res.Errors++
				res.ErrorsByKind[errorKind(g.AnalysisError)]++
			}
		}
		if s := fmt.Sprintf("%d/%d placed, %d with an error", res.Placed, res.Games, res.Errors); s != last {
			fmt.Fprintf(os.Stderr, "[%6.1fs] %s\n", time.Since(start).Seconds(), s)
			last = s
		}
		if res.Placed+res.Errors == res.Games {
			break
		}
		select {
		case <-ctx.Done():
			res.TimedOut = true
		case <-time.After(o.poll):
			continue
		}
		break
	}
	res.PlacedS = time.Since(start).Seconds()
	res.ServerPeakRSSMiB = peakRSS(srv.Pid())
	classes, err := listAll[classJSON](context.WithoutCancel(ctx), cl, srv.Base+"/api/v1/classes")
	if err != nil {
		return err
	}
	res.Classes = len(classes)
	for _, c := range classes {
		if len(c.Members) > 1 {
			var names []string
			for _, m := range c.Members {
				names = append(names, m.Name)
			}
			res.NonTrivial = append(res.NonTrivial, names)
		}
	}
	logs.mu.Lock()
	res.Comparisons, res.SlowLane, res.Merged, res.Unresolved = logs.comparisons, logs.slow, logs.merged, logs.unresolved
	logs.mu.Unlock()
	if o.jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	res.print(os.Stdout)
	if res.TimedOut {
		return errors.New("timed out before every game was placed")
	}
	return nil
}

func (r *result) print(w io.Writer) {
	fmt.Fprintf(w, "files %d: uploads accepted %d (%d duplicate texts), rejected %v\n", r.Files, r.Accepted, r.Duplicates, r.Rejected)
	slices.Sort(r.RejectedFiles)
	fmt.Fprintf(w, "rejected: %s\n", strings.Join(r.RejectedFiles, ", "))
	fmt.Fprintf(w, "games stored %d: in a class %d, with an error %d %v\n", r.Games, r.Placed, r.Errors, r.ErrorsByKind)
	fmt.Fprintf(w, "uploads took %.1fs; every game placed after %.1fs (timed out: %v)\n", r.UploadS, r.PlacedS, r.TimedOut)
	fmt.Fprintf(w, "server peak RSS %.0f MiB\n", r.ServerPeakRSSMiB)
	fmt.Fprintf(w, "comparisons %d, slow-lane placements %d, placements with unresolved candidates %d, merged by comparisons %d\n",
		r.Comparisons, r.SlowLane, r.Unresolved, r.Merged)
	fmt.Fprintf(w, "classes %d, of more than one game %d:\n", r.Classes, len(r.NonTrivial))
	for _, c := range r.NonTrivial {
		fmt.Fprintf(w, "  %s\n", strings.Join(c, " "))
	}
}

// errorKind shortens a classifier error to its kind.
func errorKind(msg string) string {
	switch {
	case strings.Contains(msg, "unsafe variable"):
		return "invalid (unsafe rules)"
	case strings.Contains(msg, "deadline exceeded"):
		return "time budget"
	case strings.Contains(msg, "limit "):
		return "limit"
	}
	return "other"
}

// kifFiles lists the *.kif files below dir, relative to it, in order.
func kifFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".kif") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// uploadAll posts every file, n at once, retrying 429 and 503 after
// their Retry-After.
func uploadAll(ctx context.Context, cl *http.Client, base, dir string, files []string, n int, res *result) error {
	var mu sync.Mutex
	var firstErr error
	next := make(chan string)
	var wg sync.WaitGroup
	for range max(n, 1) {
		wg.Go(func() {
			for f := range next {
				status, code, err := upload(ctx, cl, base, dir, f)
				mu.Lock()
				switch {
				case err != nil:
					if firstErr == nil {
						firstErr = err
					}
				case status == http.StatusCreated:
					res.Accepted++
				case status == http.StatusOK:
					res.Accepted++
					res.Duplicates++
				default:
					res.Rejected[strconv.Itoa(status)+" "+code]++
					res.RejectedFiles = append(res.RejectedFiles, fmt.Sprintf("%s (%d %s)", f, status, code))
				}
				mu.Unlock()
			}
		})
	}
	for _, f := range files {
		select {
		case next <- f:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

func upload(ctx context.Context, cl *http.Client, base, dir, file string) (status int, code string, err error) {
	gdl, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return 0, "", err
	}
	body, _ := json.Marshal(map[string]string{"name": file, "gdl": string(gdl)})
	for {
		req, err := http.NewRequestWithContext(ctx, "POST", base+"/api/v1/games", bytes.NewReader(body))
		if err != nil {
			return 0, "", err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := cl.Do(req)
		if err != nil {
			return 0, "", fmt.Errorf("upload %s: %w", file, err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != "" {
			wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			select {
			case <-time.After(time.Duration(max(wait, 1)) * time.Second):
				continue
			case <-ctx.Done():
				return 0, "", ctx.Err()
			}
		}
		var p struct {
			Code string `json:"code"`
		}
		json.Unmarshal(data, &p)
		return resp.StatusCode, p.Code, nil
	}
}

type gameJSON struct {
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	ClassID       int64  `json:"class_id"`
	AnalysisError string `json:"analysis_error"`
}

type classJSON struct {
	ID      int64 `json:"id"`
	Members []struct {
		Name string `json:"name"`
	} `json:"members"`
}

// listAll reads every page of a list.
func listAll[T any](ctx context.Context, cl *http.Client, u string) ([]T, error) {
	var out []T
	var cursor int64
	for {
		req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s?limit=500&cursor=%d", u, cursor), nil)
		if err != nil {
			return nil, err
		}
		resp, err := cl.Do(req)
		if err != nil {
			return nil, err
		}
		var page struct {
			Items      []T   `json:"items"`
			NextCursor int64 `json:"next_cursor"`
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("GET %s: status %d: %v", u, resp.StatusCode, err)
		}
		out = append(out, page.Items...)
		if page.NextCursor == 0 {
			return out, nil
		}
		cursor = page.NextCursor
	}
}

// logCounter reads the server's JSON log lines and counts the
// classifier's placements.
type logCounter struct {
	mu                                    sync.Mutex
	buf                                   []byte
	comparisons, slow, merged, unresolved int
}

func (l *logCounter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	sc := bufio.NewScanner(bytes.NewReader(l.buf))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	consumed := 0
	for sc.Scan() {
		line := sc.Bytes()
		consumed += len(line) + 1
		if consumed > len(l.buf) {
			break // a line without its newline yet
		}
		var e struct {
			Msg         string          `json:"msg"`
			Outcome     string          `json:"outcome"`
			Comparisons int             `json:"comparisons"`
			SlowLane    bool            `json:"slow_lane"`
			Unresolved  json.RawMessage `json:"unresolved"`
		}
		if json.Unmarshal(line, &e) != nil || e.Msg != "game placed" {
			continue
		}
		l.comparisons += e.Comparisons
		if e.SlowLane {
			l.slow++
		}
		if e.Outcome == "merged" {
			l.merged++
		}
		if len(e.Unresolved) > 0 {
			l.unresolved++
		}
	}
	l.buf = l.buf[min(consumed, len(l.buf)):]
	return len(p), nil
}

// peakRSS reads a process's peak resident memory in MiB from /proc (0
// where there is none).
func peakRSS(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
