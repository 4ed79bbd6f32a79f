package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/api"
)

// blowUpGDL is a short valid game whose grounding blows up: 17^5 state
// propositions (big ...), about 1.4 million atoms.
var blowUpGDL = buttonsGDL + "(n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9) (n 10) (n 11) (n 12) (n 13) (n 14) (n 15) (n 16)\n" +
	"(<= (next (big ?a ?b ?c ?d ?e)) (n ?a) (n ?b) (n ?c) (n ?d) (n ?e))\n"

// TestHeavyWorkBounded fires 20 parallel uploads of a grounding blow-up
// and then, while they run, 20 parallel symmetry requests (of 20 games
// whose symmetries are not stored yet) at a server with 2 slots for heavy
// work: 2 uploads run, and every other request gets 429 busy with
// Retry-After at once, never a 5xx nor a wait; the server answers as
// before afterwards.
func TestHeavyWorkBounded(t *testing.T) {
	const slots, n = 2, 20
	const timeout = 1500 * time.Millisecond
	s := newTestServer(t, func(d *api.Deps) {
		d.Limits.MaxConcurrentCompute = slots
		d.Limits.RequestTimeout = timeout
	})
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = s.uploadGame(fmt.Sprintf("buttons-%d", i), buttonsGDL+fmt.Sprintf("; variant %d\n", i)).ID
	}

	var wg sync.WaitGroup
	uploads := make([]*response, n)
	start := time.Now()
	for i := range uploads {
		wg.Go(func() {
			uploads[i] = s.do("POST", "/api/v1/games", map[string]string{"name": "blowup", "gdl": blowUpGDL})
		})
	}
	// The two uploads that got a slot ground until the time limit; fire
	// the symmetry requests while they hold both slots.
	time.Sleep(300 * time.Millisecond)
	syms := make([]*response, n)
	var batch *response
	wg.Go(func() {
		batch = s.do("POST", "/api/v1/games/batch", map[string]any{"games": []map[string]string{{"name": "b", "gdl": buttonsGDL + "; batch\n"}}})
	})
	for i := range syms {
		wg.Go(func() {
			syms[i] = s.do("GET", "/api/v1/games/"+strconv.FormatInt(ids[i], 10)+"/symmetries", nil)
		})
	}
	wg.Wait()
	elapsed := time.Since(start)

	busy := func(what string, res []*response) (count int) {
		for i, r := range res {
			switch {
			case r.Status == http.StatusTooManyRequests:
				p := r.Problem(t)
				if p.Code != api.CodeBusy || r.Header.Get("Retry-After") == "" {
					t.Errorf("%s %d: 429 %+v, Retry-After %q; want code busy with Retry-After", what, i, p, r.Header.Get("Retry-After"))
				}
				count++
			case r.Status >= 500 && r.Status != http.StatusServiceUnavailable:
				t.Errorf("%s %d: %d %s", what, i, r.Status, r.Body)
			}
		}
		return count
	}
	for i, r := range uploads {
		if r.Status != http.StatusTooManyRequests && r.Status != http.StatusUnprocessableEntity && r.Status != http.StatusServiceUnavailable {
			t.Errorf("upload %d of the blow-up: %d %s, want 422/503 (over a limit) or 429", i, r.Status, r.Body)
		}
	}
	if got := busy("upload", uploads); got != n-slots {
		t.Errorf("%d uploads got 429 busy, want %d (all but one per slot)", got, n-slots)
	}
	if got := busy("symmetries", syms); got != n {
		t.Errorf("%d symmetry requests got 429 busy while the slots were taken, want %d", got, n)
	}
	if got := busy("batch", []*response{batch}); got != 1 {
		t.Errorf("POST /games/batch while the slots were taken = %d %s, want 429 busy", batch.Status, batch.Body)
	}
	if elapsed > 3*timeout {
		t.Errorf("the burst took %s; the bound should answer the excess at once", elapsed)
	}

	// The slots are free again: the server computes and answers as before.
	res := s.do("GET", "/api/v1/games/"+strconv.FormatInt(ids[0], 10)+"/symmetries", nil)
	mustStatus(t, res, http.StatusOK)
	res = s.do("GET", "/readyz", nil)
	mustStatus(t, res, http.StatusOK)
	if hwm := peakRSS(t); hwm > 0 {
		t.Logf("burst of %d uploads and %d symmetry requests in %s; peak RSS of the test process %d MiB", n, n, elapsed.Round(time.Millisecond), hwm>>20)
		if hwm > 2<<30 {
			t.Errorf("peak RSS %d MiB, want under 2 GiB", hwm>>20)
		}
	}
}

// TestSymmetriesComputedOnce: parallel requests for one game's symmetries
// wait for the one computation (they take no slot of their own) and all
// get its report.
func TestSymmetriesComputedOnce(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) { d.Limits.MaxConcurrentCompute = 1 })
	path := "/api/v1/games/" + strconv.FormatInt(s.uploadGame("buttons", buttonsGDL).ID, 10) + "/symmetries"
	var wg sync.WaitGroup
	res := make([]*response, 10)
	for i := range res {
		wg.Go(func() { res[i] = s.do("GET", path, nil) })
	}
	wg.Wait()
	for i, r := range res {
		if r.Status != http.StatusOK || string(r.Body) != string(res[0].Body) {
			t.Errorf("request %d: %d %s, want 200 and the one report", i, r.Status, r.Body)
		}
	}
	metrics := s.do("GET", "/metrics", nil).Body
	if want := `gamequiv_symmetry_requests_total{source="computed"} 1` + "\n"; !strings.Contains(string(metrics), want) {
		t.Errorf("/metrics lacks %q: one computation for parallel requests", want)
	}
}

// peakRSS is the process's peak resident set size in bytes (VmHWM), or 0
// where /proc does not tell it.
func peakRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Logf("VmHWM %q: %v", v, err)
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// TestHeavyWorkCancelled: a client that leaves (its request's context
// ends) stops the heavy work it started, grounding an upload or computing
// symmetries, within a second: the slot is free again for the next
// request, and the symmetries of a game are not stored as failed.
func TestHeavyWorkCancelled(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) {
		d.Limits.MaxConcurrentCompute = 1
		d.Limits.RequestTimeout = time.Minute
	})
	// Stored without validation: its symmetries ground the blow-up.
	blowUp, _, err := s.DB.CreateGame(context.Background(), "blowup", []byte(blowUpGDL), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(map[string]string{"name": "blowup", "gdl": blowUpGDL + "; uploaded\n"})
	if err != nil {
		t.Fatal(err)
	}
	probes := 0
	for _, tc := range []struct {
		name string
		req  func() *http.Request
	}{
		{"upload", func() *http.Request {
			r := httptest.NewRequest("POST", "/api/v1/games", bytes.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			return r
		}},
		{"symmetries", func() *http.Request {
			return httptest.NewRequest("GET", "/api/v1/games/"+strconv.FormatInt(blowUp.ID, 10)+"/symmetries", nil)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan int)
			go func() {
				rec := httptest.NewRecorder()
				s.Handler.ServeHTTP(rec, tc.req().WithContext(ctx))
				done <- rec.Code
			}()
			// The slot is taken while the blow-up grounds.
			time.Sleep(500 * time.Millisecond)
			probes++
			if res := s.do("POST", "/api/v1/games", map[string]string{"name": "probe", "gdl": buttonsGDL + fmt.Sprintf("; probe %d\n", probes)}); res.Status != http.StatusTooManyRequests {
				t.Fatalf("upload while the %s runs = %d %s, want 429 busy", tc.name, res.Status, res.Body)
			}
			cancel()
			start := time.Now()
			for {
				probes++
				res := s.do("POST", "/api/v1/games", map[string]string{"name": "probe", "gdl": buttonsGDL + fmt.Sprintf("; probe %d\n", probes)})
				if res.Status == http.StatusCreated {
					break
				}
				if res.Status != http.StatusTooManyRequests {
					t.Fatalf("upload after the cancel = %d %s", res.Status, res.Body)
				}
				if time.Since(start) > 5*time.Second {
					t.Fatalf("the slot is still taken %s after the client left", time.Since(start))
				}
				time.Sleep(5 * time.Millisecond)
			}
			d := time.Since(start)
			t.Logf("%s: slot free %s after the client left", tc.name, d.Round(time.Millisecond))
			if d > time.Second {
				t.Errorf("%s went on for %s after the client left, want at most 1s", tc.name, d.Round(time.Millisecond))
			}
			<-done
		})
	}
	if _, err := s.DB.GetSymmetries(context.Background(), blowUp.ID); !errors.Is(err, gamequiv.ErrNotFound) {
		t.Errorf("GetSymmetries after the client left = %v, want not found (a cancel is not a result)", err)
	}
}
