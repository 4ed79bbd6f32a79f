package main_test

import (
	"context"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// heavyCap is the --heavy-max-rss of TestE2EHeavyProcess: far below
// what amazonsSuicide's symmetries take (its grounding alone peaks at
// about 308 MiB in a child; the CLI's symmetries passed 1.2 GiB after 8 s
// of CPU).
const heavyCap = 150 << 20

// vmHWM is the peak resident memory of process pid in bytes.
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.SplitSeq(string(raw), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// TestE2EHeavyProcess runs symmetries of the real binary in its heavy
// work processes (issue 15 point 2): a computation past --heavy-max-rss
// kills its child, is stored as a limit failure naming the setting and
// answered again from the store, and the server's own memory stays far
// below what the computation took; the server stays up and the next
// request gets a new child.
func TestE2EHeavyProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	amazons := corpusGame(t, "ggp-base/amazonsSuicide.kif")
	ttt := corpusGame(t, "ggp-base-repo/ticTacToe.kif")
	dataDir := t.TempDir()
	// Uploaded under the default bound (1 GiB); under heavyCap the upload
	// itself gets the 422 below.
	p := startServer(t, dataDir, nil, "--classify=false", "--max-heavy", "1")
	a := p.upload("amazonsSuicide", amazons, http.StatusCreated)
	b := p.upload("ticTacToe", ttt, http.StatusCreated)
	p.stop()

	p = startServer(t, dataDir, nil, "--classify=false", "--max-heavy", "1",
		"--heavy-max-rss", strconv.Itoa(heavyCap), "--request-timeout", "5m")
	heavy := p.heavyPIDs()
	if len(heavy) != 1 {
		t.Fatalf("heavy work processes %v, want 1 (--max-heavy 1)", heavy)
	}

	path := "/api/v1/games/" + strconv.FormatInt(a.ID, 10) + "/symmetries"
	var prob struct {
		Code   string `json:"code"`
		Detail string `json:"detail"`
		Limit  string `json:"limit"`
	}
	status, _ := p.do("GET", path, nil, &prob)
	if status != http.StatusUnprocessableEntity || prob.Code != "limit_exceeded" || prob.Limit != "heavy-max-rss" ||
		!strings.Contains(prob.Detail, "over the bound of 150 MiB (--heavy-max-rss)") {
		t.Fatalf("GET symmetries of amazonsSuicide = %d %+v, want 422 limit_exceeded naming --heavy-max-rss", status, prob)
	}
	if slices.Contains(p.heavyPIDs(), heavy[0]) {
		t.Errorf("heavy work process %d still runs after passing its bound", heavy[0])
	}
	if hwm := vmHWM(t, p.cmd.Process.Pid); hwm >= heavyCap {
		t.Errorf("server peak RSS %d MiB, want below the children's bound of %d MiB", hwm>>20, heavyCap>>20)
	}

	// The failure is stored: answered again without a computation.
	var again struct {
		Detail string `json:"detail"`
	}
	if status, _ := p.do("GET", path, nil, &again); status != http.StatusUnprocessableEntity || again.Detail != prob.Detail {
		t.Errorf("second GET = %d %q, want the stored failure %q", status, again.Detail, prob.Detail)
	}
	if m := p.text("/metrics"); !strings.Contains(m, `gamequiv_symmetry_requests_total{source="stored"} 1`) {
		t.Errorf("metrics: want one stored symmetry answer:\n%s", grepLines(m, "gamequiv_symmetry_requests_total"))
	}

	// The server stays up; the next computation gets a new child.
	var rep struct {
		GraphOrder string `json:"graph_order"`
	}
	if status, _ := p.do("GET", "/api/v1/games/"+strconv.FormatInt(b.ID, 10)+"/symmetries", nil, &rep); status != http.StatusOK || rep.GraphOrder == "" {
		t.Errorf("GET symmetries of ticTacToe = %d %+v, want 200 with the group's order", status, rep)
	}
	if now := p.heavyPIDs(); len(now) != 1 || now[0] == heavy[0] {
		t.Errorf("heavy work processes %v after %d was killed, want one new one", now, heavy[0])
	}

	// An upload past the bound: 422 naming the setting, nothing stored.
	var up struct {
		Code  string `json:"code"`
		Limit string `json:"limit"`
	}
	body := map[string]string{"name": "amazons copy", "gdl": amazons + "\n; a copy\n"}
	if status, _ := p.do("POST", "/api/v1/games", body, &up); status != http.StatusUnprocessableEntity || up.Code != "limit_exceeded" || up.Limit != "heavy-max-rss" {
		t.Errorf("upload past --heavy-max-rss = %d %+v, want 422 limit_exceeded heavy-max-rss", status, up)
	}
	if hwm := vmHWM(t, p.cmd.Process.Pid); hwm >= heavyCap {
		t.Errorf("server peak RSS %d MiB after the upload, want below %d MiB", hwm>>20, heavyCap>>20)
	}
	if status, _ := p.do("GET", "/readyz", nil, nil); status != http.StatusOK {
		t.Errorf("readyz = %d", status)
	}
}

// TestE2EHeavyCancelled: a client that leaves a symmetry computation
// stops it in its child within a second (issue 15 point 5): the only
// heavy slot is free again, and the child is not computing any more.
func TestE2EHeavyCancelled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	amazons := corpusGame(t, "ggp-base/amazonsSuicide.kif")
	ttt := corpusGame(t, "ggp-base-repo/ticTacToe.kif")
	// The default bound: the computation does not reach it before the
	// client leaves.
	p := startServer(t, t.TempDir(), nil, "--classify=false", "--max-heavy", "1",
		"--request-timeout", "5m") // the default --heavy-max-rss, 1 GiB
	a := p.upload("amazonsSuicide", amazons, http.StatusCreated)
	b := p.upload("ticTacToe", ttt, http.StatusCreated)
	heavy := p.heavyPIDs()
	if len(heavy) != 1 {
		t.Fatalf("heavy work processes %v, want 1", heavy)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", p.base+"/api/v1/games/"+strconv.FormatInt(a.ID, 10)+"/symmetries", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		got <- err
	}()
	// Leave once the child has grown past its idle size: it computes.
	idle := rssOf(t, heavy[0])
	for deadline := time.Now().Add(2 * time.Minute); rssOf(t, heavy[0]) < idle+64<<20; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("heavy work process %d did not start computing", heavy[0])
		}
	}
	cancel()
	left := time.Now()
	<-got
	tick := "/api/v1/games/" + strconv.FormatInt(b.ID, 10) + "/symmetries"
	for {
		status, _ := p.do("GET", tick, nil, nil)
		if status == http.StatusOK {
			break
		}
		if status != http.StatusTooManyRequests {
			t.Fatalf("GET symmetries of ticTacToe = %d", status)
		}
		if time.Since(left) > 2*time.Second { // a second, with room for a loaded machine
			t.Fatalf("the heavy slot is still taken %s after the client left", time.Since(left))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("slot free %s after the client left", time.Since(left).Round(time.Millisecond))
	if hwm := vmHWM(t, p.cmd.Process.Pid); hwm >= 150<<20 {
		t.Errorf("server peak RSS %d MiB: the computation ran in the server", hwm>>20)
	}
}

// rssOf is the resident memory of process pid in bytes (0 once it has
// exited).
func rssOf(t *testing.T, pid int) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}
