package main_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildServer compiles this command into a temporary directory and returns
// the path of the binary.
func buildServer(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found on PATH")
	}
	bin := filepath.Join(t.TempDir(), "server")
	out, err := exec.Command(goTool, "build", "-buildvcs=false", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// logLine is the part of a JSON log line the tests read.
type logLine struct {
	Msg     string `json:"msg"`
	Addr    string `json:"addr"`
	Data    string `json:"data"`
	Workers int    `json:"workers"`
}

// TestServerBinary builds the real binary, starts it on a free loopback port
// with flags and environment, checks /healthz, and stops it with SIGTERM.
func TestServerBinary(t *testing.T) {
	bin := buildServer(t)
	dataDir := filepath.Join(t.TempDir(), "nested", "data")

	cmd := exec.Command(bin, "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(),
		"GAMEQUIV_ADDR=127.0.0.1:1", // the flag wins
		"GAMEQUIV_DATA="+dataDir,
		"GAMEQUIV_WORKERS=3",
		"GAMEQUIV_DATABASE_URL=",
	)
	// Wait copies stderr into pw until the process exits, so no line is lost.
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	exited := make(chan struct{})
	go func() {
		waitErr = cmd.Wait()
		pw.Close()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})

	// Read the JSON log: the "listening" line carries the real address.
	lines := make(chan logLine, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var l logLine
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				lines <- l
			}
		}
	}()

	listening := waitFor(t, lines, "listening")
	if got, want := listening.Workers, 3; got != want {
		t.Errorf("workers = %d, want %d (from GAMEQUIV_WORKERS)", got, want)
	}
	if got, want := listening.Data, dataDir; got != want {
		t.Errorf("data = %q, want %q (from GAMEQUIV_DATA)", got, want)
	}
	if fi, err := os.Stat(dataDir); err != nil || !fi.IsDir() {
		t.Errorf("data directory %s not created: %v", dataDir, err)
	}
	if !strings.HasPrefix(listening.Addr, "127.0.0.1:") || listening.Addr == "127.0.0.1:0" {
		t.Fatalf("listening addr = %q, want 127.0.0.1 with a real port", listening.Addr)
	}

	resp, err := http.Get("http://" + listening.Addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || string(body) != `{"status":"ok"}` {
		t.Errorf("GET /healthz = %d %s, want 200 {\"status\":\"ok\"}", resp.StatusCode, body)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, lines, "stopped")
	select {
	case <-exited:
		if waitErr != nil {
			t.Errorf("server exit after SIGTERM: %v, want status 0", waitErr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not exit within 20s of SIGTERM")
	}
}

// waitFor returns the first log line with message msg, failing the test after
// a timeout or if the log ends first.
func waitFor(t *testing.T, lines <-chan logLine, msg string) logLine {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("server log ended before %q", msg)
			}
			if l.Msg == msg {
				return l
			}
		case <-timeout:
			t.Fatalf("no %q log line within 20s", msg)
		}
	}
}

var exitCodeTests = []struct {
	name string
	args []string
	env  []string
	want int
}{
	{"Help", []string{"--help"}, nil, 0},
	{"ErrUnknownFlag", []string{"--nope"}, nil, 2},
	{"ErrWorkersEnv", nil, []string{"GAMEQUIV_WORKERS=0"}, 2},
	{"ErrDatabaseURL", nil, []string{"GAMEQUIV_DATABASE_URL=mysql://h/db"}, 2},
}

// TestServerBinaryExitCodes checks the exit status for --help and bad configuration.
func TestServerBinaryExitCodes(t *testing.T) {
	bin := buildServer(t)
	for _, tc := range exitCodeTests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Env = append(os.Environ(), tc.env...)
			cmd.Dir = t.TempDir()
			out, _ := cmd.CombinedOutput()
			if got := cmd.ProcessState.ExitCode(); got != tc.want {
				t.Errorf("server %q exit = %d, want %d\n%s", tc.args, got, tc.want, out)
			}
		})
	}
}
