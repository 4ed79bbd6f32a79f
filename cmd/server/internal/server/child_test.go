package server_test

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/cmd/server/internal/server"
)

// TestMain makes the test binary a comparison process when a server of
// these tests starts it as one (it re-executes its own executable).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == server.ChildCommand {
		os.Exit(server.RunChild(os.Args[2:], nil))
	}
	os.Exit(m.Run())
}

// TestE2E_WorkerProcesses checks the comparison processes of a server:
// one per worker at --worker-nice steps below the server (every thread)
// while the server keeps its priority, kept across jobs, replaced after one is killed, and gone
// after Close.
func TestE2E_WorkerProcesses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	m := runMain(t, filepath.Join(t.TempDir(), "data"), func(c *server.Config) {
		c.Workers, c.WorkerNice, c.Classify = 2, 7, false
	}, nil)
	pids := m.WorkerPIDs()
	slices.Sort(pids)
	if len(pids) != 2 {
		t.Fatalf("comparison processes %v, want 2", pids)
	}
	own := threadNices(t, os.Getpid())
	if len(own) != 1 {
		t.Fatalf("the test's threads are at nice %v", own)
	}
	base := slices.Collect(maps.Keys(own))[0]
	want := min(base+7, server.MaxWorkerNice)
	if want == base {
		t.Logf("the test runs at nice %d: the children's nice cannot differ", base)
	}
	for _, pid := range pids {
		if got := threadNices(t, pid); len(got) != 1 || !got[want] {
			t.Errorf("process %d has threads at nice %v, want all at %d (the server's %d + 7)", pid, got, want, base)
		}
	}
	if now := threadNices(t, os.Getpid()); !maps.Equal(now, own) {
		t.Errorf("the server's threads are at nice %v, were %v: the server was reniced", now, own)
	}

	c := newClient(t, m)
	a := c.upload("buttons", tinyGDL)
	b := c.upload("renamed", strings.ReplaceAll(tinyGDL, "robot", "player"))
	for i := range 6 {
		x, y := a.ID, b.ID
		if i%2 == 1 {
			x, y = y, x
		}
		cmp := c.submit(map[string]any{"a": x, "b": y, "limits": map[string]any{"timeout_ms": 60000 - i}})
		if got := c.pollStatus(cmp.ID, "done"); got.Verdict != "equivalent" {
			t.Fatalf("comparison %d = %+v", i, got)
		}
	}
	after := m.WorkerPIDs()
	slices.Sort(after)
	if !slices.Equal(after, pids) {
		t.Errorf("comparison processes %v after 6 jobs, %v before: a job started a process", after, pids)
	}

	// An idle child that dies is replaced when a job needs it.
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	cmp := c.submit(map[string]any{"a": a.ID, "b": b.ID, "limits": map[string]any{"timeout_ms": 50000}})
	if got := c.pollStatus(cmp.ID, "done"); got.Verdict != "equivalent" {
		t.Fatalf("comparison after the children were killed = %+v", got)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	for _, pid := range append(pids, m.WorkerPIDs()...) {
		if raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && !strings.Contains(string(raw), ") Z ") {
			t.Errorf("comparison process %d runs after Close", pid)
		}
	}
}

// threadNices is the set of nice values of process pid's threads.
func threadNices(t *testing.T, pid int) map[int]bool {
	t.Helper()
	dirs, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		t.Fatal(err)
	}
	nices := make(map[int]bool)
	for _, d := range dirs {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/stat", pid, d.Name()))
		if err != nil {
			continue
		}
		// Field 19 (nice) counts from the end of the command, which is in
		// parentheses and may hold spaces.
		f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
		n, err := strconv.Atoi(f[16])
		if err != nil {
			t.Fatal(err)
		}
		nices[n] = true
	}
	return nices
}
