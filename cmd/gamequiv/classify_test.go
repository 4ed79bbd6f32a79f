package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/internal/testgames"
)

// classifyDir writes a directory of games: two equivalent, one different,
// one invalid, one in a subdirectory.
func classifyDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"a_buttons.kif":      testgames.Buttons,
		"b_other.kif":        testgames.ButtonsOtherGoal,
		"sub/c_renamed.kif":  testgames.ButtonsRenamed,
		"d_broken.kif":       "; invalid, and the largest file: placed last\n" + strings.Repeat(";\n", 1000) + "(role robot)\n(<= (legal robot ?x) (true (on ?y)))\n",
		"sub/not_a_game.txt": "ignored",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type classifyJSON struct {
	Classes   [][]string `json:"classes"`
	Undecided []struct {
		File   string `json:"file"`
		Class  int    `json:"class"`
		Limit  string `json:"limit"`
		Reason string `json:"reason"`
	} `json:"undecided"`
	Comparisons int    `json:"comparisons"`
	Stopped     string `json:"stopped"`
}

func TestClassifyDirectory(t *testing.T) {
	dir := classifyDir(t)
	code, out, errOut := runCmd(t, "classify", "--json", dir)
	if code != exitLimit {
		t.Errorf("status %d, want %d (a game is undecided)", code, exitLimit)
	}
	var got classifyJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("classify --json: %v\n%s", err, out)
	}
	var pair []string
	for _, c := range got.Classes {
		if len(c) == 2 {
			pair = c
		}
	}
	if len(got.Classes) != 2 || len(pair) != 2 || !strings.HasSuffix(pair[0], "a_buttons.kif") || !strings.HasSuffix(pair[1], "c_renamed.kif") {
		t.Errorf("classes = %v, want buttons with renamed, and other alone", got.Classes)
	}
	if len(got.Undecided) != 1 || !strings.HasSuffix(got.Undecided[0].File, "d_broken.kif") || got.Undecided[0].Limit != "invalid" {
		t.Errorf("undecided = %+v, want d_broken.kif invalid", got.Undecided)
	}
	if strings.Count(errOut, "\n") < 4 || !strings.Contains(errOut, "[4/4") {
		t.Errorf("progress on stderr = %q, want a line per game", errOut)
	}
}

// slowWriter holds the first write until release is closed: the progress
// line of the first game then outlasts -timeout.
type slowWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	once    sync.Once
	release <-chan time.Time
}

func (w *slowWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { <-w.release })
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

// TestClassifyPartialOnTimeout: -timeout stops the run after the first
// game; the classes found so far and the games left undecided are printed,
// with the exit status of a limit.
func TestClassifyPartialOnTimeout(t *testing.T) {
	dir := classifyDir(t)
	var out bytes.Buffer
	errw := &slowWriter{release: time.After(time.Second)}
	code := run(context.Background(), []string{"classify", "-timeout", "300ms", "-workers", "1", dir},
		stdio{in: strings.NewReader(""), out: &out, err: errw})
	if code != exitLimit {
		t.Errorf("status %d, want %d", code, exitLimit)
	}
	text := out.String()
	for _, want := range []string{"stopped (context deadline exceeded)", "1 classes", "class 1 (1): ", "undecided:", "[stopped]"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "[stopped]"); n != 3 {
		t.Errorf("%d games stopped, want 3:\n%s", n, text)
	}
}

func TestClassifyTimeoutBeforeAnyGame(t *testing.T) {
	dir := classifyDir(t)
	code, out, _ := runCmd(t, "classify", "-timeout", "1ns", "-quiet", dir)
	if code != exitLimit || !strings.Contains(out, "0 classes") || strings.Count(out, "[stopped]") != 4 {
		t.Errorf("status %d, output:\n%s\nwant every game undecided (stopped)", code, out)
	}
}
