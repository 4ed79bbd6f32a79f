package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/cmd/server/internal/server"
)

// MustRunMain starts a server on a free loopback port with its data directory
// in a temporary directory, and closes it when the test ends.
func MustRunMain(tb testing.TB) *server.Main {
	tb.Helper()
	cfg := server.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = filepath.Join(tb.TempDir(), "data")
	m := server.NewMain(cfg, slog.New(slog.NewTextHandler(tb.Output(), nil)))
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

func TestMain_Healthz(t *testing.T) {
	m := MustRunMain(t)

	if fi, err := os.Stat(m.Config.DataDir); err != nil || !fi.IsDir() {
		t.Fatalf("data directory %s not created: %v", m.Config.DataDir, err)
	}

	resp, err := http.Get("http://" + m.Addr() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resp.StatusCode, http.StatusOK; got != want {
		t.Errorf("GET /healthz status = %d, want %d", got, want)
	}
	if got, want := resp.Header.Get("Content-Type"), "application/json; charset=utf-8"; got != want {
		t.Errorf("GET /healthz Content-Type = %q, want %q", got, want)
	}
	if got, want := string(body), `{"status":"ok"}`; got != want {
		t.Errorf("GET /healthz body = %s, want %s", got, want)
	}
}

func TestMain_NotFound(t *testing.T) {
	m := MustRunMain(t)
	// The web UI answers at /: an HTML page.
	resp, err := http.Get("http://" + m.Addr() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET / = %d %q, want 200 text/html", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, path := range []string{"/nope", "/healthz/x", "/api/v1/nope"} {
		resp, err := http.Get("http://" + m.Addr() + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got, want := resp.StatusCode, http.StatusNotFound; got != want {
			t.Errorf("GET %s status = %d, want %d", path, got, want)
		}
	}
}

func TestMain_CloseTwice(t *testing.T) {
	m := MustRunMain(t)
	if err := m.Close(); err != nil {
		t.Fatalf("first Close: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := http.Get("http://" + m.Addr() + "/healthz"); err == nil {
		t.Errorf("GET /healthz after Close succeeded, want a connection error")
	}
}

func TestMain_RunErrors(t *testing.T) {
	t.Run("ErrAddrInUse", func(t *testing.T) {
		first := MustRunMain(t)
		cfg := first.Config
		cfg.Addr = first.Addr()
		m := server.NewMain(cfg, nil)
		if err := m.Run(context.Background()); err == nil {
			m.Close()
			t.Fatalf("Run on %s (in use) succeeded, want an error", cfg.Addr)
		}
		if err := m.Close(); err != nil {
			t.Errorf("Close after failed Run: %v", err)
		}
	})
	t.Run("ErrDataIsFile", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		cfg := server.DefaultConfig()
		cfg.Addr = "127.0.0.1:0"
		cfg.DataDir = file
		m := server.NewMain(cfg, nil)
		if err := m.Run(context.Background()); err == nil {
			m.Close()
			t.Fatalf("Run with data directory %s (a file) succeeded, want an error", file)
		}
	})
}

// TestMain_APILimitsWired checks that --max-batch and --max-wait reach the
// API: a batch or a wait over them gets 400 naming the configured bound.
func TestMain_APILimitsWired(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = filepath.Join(t.TempDir(), "data")
	cfg.Classify = false
	cfg.MaxBatch = 2
	cfg.MaxWait = 3 * time.Second
	cfg.WaitInterval = 10 * time.Millisecond
	m := server.NewMain(cfg, slog.New(slog.NewTextHandler(t.Output(), nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	base := "http://" + m.Addr() + "/api/v1"

	game := `{"name":"g","gdl":"(role r)"}`
	body := `{"games":[` + game + "," + game + "," + game + `]}`
	resp, err := http.Post(base+"/games/batch", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "1 to 2") {
		t.Errorf("POST /games/batch of 3 with --max-batch 2 = %d %s, want 400 naming the bound 2", resp.StatusCode, b)
	}

	resp, err = http.Get(base + "/comparisons/1?wait=4s")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "0 to 3s") {
		t.Errorf("GET ?wait=4s with --max-wait 3s = %d %s, want 400 naming the bound 3s", resp.StatusCode, b)
	}
}
