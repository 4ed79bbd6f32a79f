package main_test

import (
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
	"testing"
	"time"
)

var (
	cliOnce sync.Once
	cliPath string
	cliErr  error
)

// cliBinary builds cmd/gamequiv once per test run, next to the server
// binary, and returns its path.
func cliBinary(t *testing.T) string {
	t.Helper()
	serverBinary(t) // makes binDir
	cliOnce.Do(func() {
		cliPath = filepath.Join(binDir, "gamequiv")
		out, err := exec.Command("go", "build", "-buildvcs=false", "-o", cliPath, "../gamequiv").CombinedOutput()
		if err != nil {
			cliErr = fmt.Errorf("go build ../gamequiv: %v\n%s", err, out)
		}
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	return cliPath
}

// tokenCLI runs `gamequiv token ARGS --data DIR` with the database
// environment env, as an operator would next to the running server, and
// returns its standard output.
func tokenCLI(t *testing.T, dataDir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(cliBinary(t), append(append([]string{"token"}, args...), "--data", dataDir)...)
	cmd.Env = append(append(os.Environ(), "GAMEQUIV_DATABASE_URL="), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gamequiv token %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// doAs sends a request with a bearer token ("" for none) and a JSON body
// (nil for none), decodes a JSON answer into out (if not nil), and returns
// the status and headers. Every error must be a problem document.
func (p *proc) doAs(token, method, path string, body, out any) (int, http.Header) {
	p.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			p.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, p.base+path, rd)
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		p.t.Fatal(err)
	}
	if resp.StatusCode >= 400 && !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/problem+json") {
		p.t.Errorf("%s %s = %d with Content-Type %q, want application/problem+json", method, path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			p.t.Fatalf("%s %s: decode %s: %v", method, path, data, err)
		}
	}
	return resp.StatusCode, resp.Header
}

// TestE2EAccess runs the server binary with --auth, makes tokens with the
// gamequiv CLI on its database while it runs, and checks 401, 403 and the
// owner's rights over HTTP.
func TestE2EAccess(t *testing.T) {
	buttons := corpusGame(t, "ggp-base/buttons.kif")
	ttt := corpusGame(t, "ggp-base-repo/ticTacToe.kif")
	for _, db := range databases() {
		t.Run(db.name, func(t *testing.T) {
			env := db.env(t)
			data := filepath.Join(t.TempDir(), "data")
			// Hold comparisons at their first phase: cancelling one is then
			// a cancel of a queued or running job, never of a finished one.
			p := startServer(t, data, append(env, holdPhaseEnv+"=ground"), "--workers", "1", "--auth")
			alice := tokenCLI(t, data, env, "create", "--name", "alice")
			bob := tokenCLI(t, data, env, "create", "--name", "bob")
			root := tokenCLI(t, data, env, "create", "--name", "root", "--admin")

			status, h := p.doAs("", "GET", "/api/v1/games", nil, nil)
			if status != http.StatusUnauthorized || h.Get("WWW-Authenticate") != `Bearer realm="gamequiv"` {
				t.Errorf("GET /games without a token = %d, WWW-Authenticate %q; want 401 with the Bearer challenge", status, h.Get("WWW-Authenticate"))
			}
			if status, _ := p.doAs("", "GET", "/readyz", nil, nil); status != http.StatusOK {
				t.Errorf("GET /readyz without a token = %d", status)
			}

			var a, b struct {
				game
				Owner string `json:"owner"`
			}
			if status, _ := p.doAs(alice, "POST", "/api/v1/games", map[string]string{"name": "buttons", "gdl": buttons}, &a); status != http.StatusCreated || a.Owner != "alice" {
				t.Fatalf("POST /games as alice = %d, owner %q", status, a.Owner)
			}
			if status, _ := p.doAs(alice, "POST", "/api/v1/games", map[string]string{"name": "ttt", "gdl": ttt}, &b); status != http.StatusCreated {
				t.Fatalf("POST /games as alice = %d", status)
			}
			var c comparison
			if status, _ := p.doAs(alice, "POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID}, &c); status != http.StatusAccepted {
				t.Fatalf("POST /comparisons as alice = %d", status)
			}
			cpath := "/api/v1/comparisons/" + strconv.FormatInt(c.ID, 10)
			if status, _ := p.doAs(bob, "DELETE", cpath, nil, nil); status != http.StatusForbidden {
				t.Errorf("DELETE comparison as bob = %d, want 403", status)
			}
			if status, _ := p.doAs(alice, "DELETE", cpath, nil, nil); status != http.StatusOK {
				t.Errorf("DELETE comparison as alice = %d, want 200", status)
			}
			var final comparison
			for deadline := time.Now().Add(time.Minute); final.Status != "cancelled" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				p.doAs(alice, "GET", cpath, nil, &final)
			}
			if final.Status != "cancelled" {
				t.Fatalf("comparison a minute after cancel = %+v", final)
			}
			// Resubmitting starts a new job instead of answering the cancelled one.
			var again comparison
			if status, _ := p.doAs(bob, "POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID}, &again); status != http.StatusAccepted ||
				again.ID == c.ID || again.Status == "cancelled" {
				t.Errorf("resubmitted cancelled comparison = %d %+v, want a new job", status, again)
			}

			gpath := "/api/v1/games/" + strconv.FormatInt(a.ID, 10)
			if status, _ := p.doAs(bob, "PATCH", gpath, map[string]string{"name": "mine"}, nil); status != http.StatusForbidden {
				t.Errorf("PATCH game as bob = %d, want 403", status)
			}
			if status, _ := p.doAs(alice, "PATCH", gpath, map[string]string{"name": "two buttons"}, nil); status != http.StatusOK {
				t.Errorf("PATCH game as alice = %d, want 200", status)
			}
			if status, _ := p.doAs(bob, "DELETE", gpath, nil, nil); status != http.StatusForbidden {
				t.Errorf("DELETE game as bob = %d, want 403", status)
			}
			if status, _ := p.doAs(root, "DELETE", gpath, nil, nil); status != http.StatusNoContent {
				t.Errorf("DELETE game as root = %d, want 204", status)
			}
			if status, _ := p.doAs(alice, "GET", "/api/v1/comparisons/"+strconv.FormatInt(again.ID, 10), nil, nil); status != http.StatusNotFound {
				t.Errorf("GET comparison of the deleted game = %d, want 404", status)
			}

			// Revoking with the CLI takes effect at the next request.
			tokenCLI(t, data, env, "revoke", "--name", "alice")
			status, h = p.doAs(alice, "GET", "/api/v1/games", nil, nil)
			if status != http.StatusUnauthorized || !strings.Contains(h.Get("WWW-Authenticate"), `error="invalid_token"`) {
				t.Errorf("GET /games with a revoked token = %d, WWW-Authenticate %q", status, h.Get("WWW-Authenticate"))
			}
			if log := p.logText(); !strings.Contains(log, `"user":"bob"`) || !strings.Contains(log, `"auth":true`) {
				t.Errorf("server log lacks the user or the auth setting:\n%s", log)
			}
		})
	}
}
