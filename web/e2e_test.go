package web_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/internal/testgames"
)

// e2eEnv, when "1", makes a missing browser, node or playwright-core a
// failure instead of a skip; scripts/test.sh sets it once it has them.
const e2eEnv = "GAMEQUIV_E2E"

// TestBrowser runs the browser end-to-end test of web/e2e (node --test,
// playwright-core driving Debian's chromium) against the real server
// binary, built here. It skips, saying why, when a tool is missing: see
// ensure_browser in scripts/test.sh.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP browser e2e: -short")
	}
	skip := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv(e2eEnv) == "1" {
			t.Fatalf("%s=1 but %s", e2eEnv, msg)
		}
		t.Skipf("SKIP browser e2e: %s", msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("node not installed (apt-get install nodejs npm)")
	}
	out, err := exec.Command(node, "-p", "process.versions.node.split('.')[0]").Output()
	if major, _ := strconv.Atoi(strings.TrimSpace(string(out))); err != nil || major < 20 {
		skip("node %s is too old: playwright-core 1.65.1 needs node >= 20", strings.TrimSpace(string(out)))
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		skip("no browser at %s (apt-get install chromium, or set CHROMIUM)", chromium)
	}
	for _, pkg := range []string{"playwright-core", "axe-core"} {
		if _, err := os.Stat(filepath.Join("e2e", "node_modules", pkg, "package.json")); err != nil {
			skip("%s not installed (run: cd web/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci)", pkg)
		}
	}
	games := testgames.Dir(t)
	goTool, err := exec.LookPath("go")
	if err != nil {
		skip("go tool not on PATH, cannot build the server")
	}

	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	bins := t.TempDir()
	bin, holdBin := filepath.Join(bins, "server"), filepath.Join(bins, "server-hold")
	for _, b := range []struct{ out, tags string }{{bin, ""}, {holdBin, "gamequiv_e2e"}} {
		build := exec.CommandContext(ctx, goTool, "build", "-o", b.out, "-tags", b.tags, "./cmd/server")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build -tags %q ./cmd/server: %v\n%s", b.tags, err, out)
		}
	}
	// Screenshots are kept: $GAMEQUIV_E2E_ARTIFACTS, or web/e2e/artifacts.
	artifacts := os.Getenv("GAMEQUIV_E2E_ARTIFACTS")
	if artifacts == "" {
		artifacts = filepath.Join(root, "web", "e2e", "artifacts")
	}

	cmd := exec.CommandContext(ctx, node, "--test", "web/e2e/")
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"GAMEQUIV_SERVER_BIN="+bin,
		"GAMEQUIV_HOLD_SERVER_BIN="+holdBin,
		"GAMEQUIV_E2E_ARTIFACTS="+artifacts,
		"GAMEQUIV_GAMES="+games,
		"CHROMIUM="+chromium,
		"PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1",
	)
	var outBuf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outBuf, &outBuf
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Run(); err != nil {
		t.Fatalf("node --test web/e2e/: %v\n%s", err, outBuf.Bytes())
	}
	if got := outBuf.String(); !strings.Contains(got, "\n# fail 0") || !strings.Contains(got, "\n# skipped 0") || strings.Contains(got, "\n# pass 0") {
		t.Fatalf("node --test web/e2e/ skipped tests or ran none:\n%s", got)
	}
	t.Logf("node --test web/e2e/:\n%s\nscreenshots in %s", outBuf.Bytes(), artifacts)
}
