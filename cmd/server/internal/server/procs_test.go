package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gamequiv/gamequiv/cmd/server/internal/server"
)

var procsTests = []struct {
	name                      string
	cpus, workers, serve      int
	wantProcs, wantGraphWorks int
}{
	// One worker on 2 CPUs: its two games fill both; one P more.
	{"TwoCPUsOneWorker", 2, 1, 1, 3, 1},
	{"Off", 2, 1, 0, 2, 0},
	// Few workers on many CPUs: graph workers fill the CPUs.
	{"EightCPUsOneWorker", 8, 1, 1, 9, 4},
	{"EightCPUsThreeWorkers", 8, 3, 1, 9, 1},
	// More comparison goroutines than CPUs: they all get a P, and the
	// requests still one more.
	{"EightCPUsSevenWorkers", 8, 7, 1, 15, 1},
	{"OneCPU", 1, 1, 2, 4, 1},
	{"ZeroCPUs", 0, 1, 1, 3, 1},
}

func TestConfigProcs(t *testing.T) {
	for _, tc := range procsTests {
		t.Run(tc.name, func(t *testing.T) {
			c := config(func(c *server.Config) { c.Workers, c.ServeProcs = tc.workers, tc.serve })
			procs, gw := c.Procs(tc.cpus)
			if procs != tc.wantProcs || gw != tc.wantGraphWorks {
				t.Errorf("Procs(%d) with %d workers, %d serve procs = %d, %d, want %d, %d",
					tc.cpus, tc.workers, tc.serve, procs, gw, tc.wantProcs, tc.wantGraphWorks)
			}
		})
	}
}

// TestMain_ServeProcs checks that Run raises GOMAXPROCS by the serve
// procs and Close puts it back.
func TestMain_ServeProcs(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	m := MustRunMain(t)
	want, _ := m.Config.Procs(before)
	if got := runtime.GOMAXPROCS(0); got != want || got <= before {
		t.Errorf("GOMAXPROCS while running = %d, want %d (more than %d)", got, want, before)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS after Close = %d, want %d", got, before)
	}
}

// TestMain_StopLogWaits checks that the stop log says what requests
// waited for: a Go processor, and a database connection.
func TestMain_StopLogWaits(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = filepath.Join(t.TempDir(), "data")
	var buf syncBuffer
	m := server.NewMain(cfg, slog.New(slog.NewJSONHandler(&buf, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	resp, err := http.Get("http://" + m.Addr() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	var stopped map[string]any
	for line := range strings.Lines(buf.String()) {
		var x map[string]any
		if json.Unmarshal([]byte(line), &x) == nil && x["msg"] == "stopped" {
			stopped = x
		}
	}
	if stopped == nil {
		t.Fatalf("no stop log line in:\n%s", buf.String())
	}
	if n, _ := stopped["sched_waits"].(float64); n <= 0 {
		t.Errorf("stop log sched_waits = %v, want > 0", stopped["sched_waits"])
	}
	for _, k := range []string{"sched_wait_p99_ms", "sched_waits_over_10ms", "db_write_waits", "db_write_wait_ms", "db_read_waits", "db_read_wait_ms"} {
		if _, ok := stopped[k]; !ok {
			t.Errorf("stop log lacks %s: %v", k, stopped)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
