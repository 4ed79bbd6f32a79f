package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/api"
	"github.com/gamequiv/gamequiv/store"
)

// Tests of what a notebook client needs: aliases, line endings, lookups by
// name and hash, batch uploads, the long poll, and comparison lists with
// names and reasons.

// upload is an upload response.
type upload struct {
	game
	Aliases    []string `json:"aliases"`
	AliasAdded *bool    `json:"alias_added"`
}

func (s *testServer) upload(t *testing.T, name, gdl string, status int) upload {
	t.Helper()
	res := s.do("POST", "/api/v1/games", map[string]string{"name": name, "gdl": gdl})
	mustStatus(t, res, status)
	var u upload
	res.JSON(t, &u)
	if u.AliasAdded == nil {
		t.Errorf("upload response without alias_added: %s", res.Body)
	}
	return u
}

func TestGameAliases(t *testing.T) {
	s := newTestServer(t, nil)
	first := s.upload(t, "buttons", buttonsGDL, http.StatusCreated)
	if *first.AliasAdded || len(first.Aliases) != 0 {
		t.Errorf("new game: alias_added %v, aliases %v; want false, none", *first.AliasAdded, first.Aliases)
	}
	for _, tc := range []struct {
		name        string
		added       bool
		wantAliases []string
	}{
		{"switches", true, []string{"switches"}},
		{"switches", false, []string{"switches"}},
		{"buttons", false, []string{"switches"}},
		{"", false, []string{"switches"}}, // unnamed: no "untitled" alias
		{"lamps", true, []string{"switches", "lamps"}},
	} {
		u := s.upload(t, tc.name, buttonsGDL, http.StatusOK)
		if u.ID != first.ID || u.Name != "buttons" || *u.AliasAdded != tc.added || !slices.Equal(u.Aliases, tc.wantAliases) {
			t.Errorf("upload as %q = id %d name %q alias_added %v aliases %v; want id %d, buttons, %v, %v",
				tc.name, u.ID, u.Name, *u.AliasAdded, u.Aliases, first.ID, tc.added, tc.wantAliases)
		}
	}
	var got upload
	s.do("GET", "/api/v1/games/"+itoa(first.ID), nil).JSON(t, &got)
	if !slices.Equal(got.Aliases, []string{"switches", "lamps"}) || got.AliasAdded != nil {
		t.Errorf("GET game: aliases %v, alias_added %v; want [switches lamps], absent", got.Aliases, got.AliasAdded)
	}
}

func TestGameLineEndings(t *testing.T) {
	s := newTestServer(t, nil)
	crlf := strings.ReplaceAll(buttonsGDL, "\n", "\r\n")
	first := s.upload(t, "windows", crlf, http.StatusCreated)
	sum := sha256.Sum256([]byte(buttonsGDL))
	if want := hex.EncodeToString(sum[:]); first.SHA256 != want {
		t.Errorf("sha256 of the CRLF text = %s, want %s (the hash of the LF text)", first.SHA256, want)
	}
	again := s.upload(t, "unix", buttonsGDL, http.StatusOK)
	if again.ID != first.ID || !*again.AliasAdded {
		t.Errorf("LF upload = game %d alias_added %v, want game %d with a new alias", again.ID, *again.AliasAdded, first.ID)
	}
	var g game
	s.do("GET", "/api/v1/games/"+itoa(first.ID), nil).JSON(t, &g)
	if g.GDL != buttonsGDL {
		t.Errorf("stored text = %q, want %q", g.GDL, buttonsGDL)
	}
	// A CRLF text with an error reports the same position as with LF.
	res := s.do("POST", "/api/v1/games", map[string]string{"name": "bad", "gdl": strings.ReplaceAll(unsafeGDL, "\n", "\r\n")})
	mustStatus(t, res, http.StatusUnprocessableEntity)
	if p := res.Problem(t); p.Line != 3 || p.Col != 5 {
		t.Errorf("CRLF unsafe rule at %d:%d, want 3:5", p.Line, p.Col)
	}
}

func TestListGamesFilters(t *testing.T) {
	s := newTestServer(t, nil)
	a := s.upload(t, "ggp/Buttons", buttonsGDL, http.StatusCreated)
	b := s.upload(t, "ggp/renamed", renamedGDL, http.StatusCreated)
	c := s.upload(t, "other", otherGDL, http.StatusCreated)
	s.upload(t, "alias of other", otherGDL, http.StatusOK)
	for _, tc := range []struct {
		query string
		want  []int64
	}{
		{"", []int64{a.ID, b.ID, c.ID}},
		{"name=ggp/renamed", []int64{b.ID}},
		{"name=alias+of+other", []int64{c.ID}},
		{"name=renamed", nil},
		{"name_contains=BUTTON", []int64{a.ID}},
		{"name_contains=ggp/", []int64{a.ID, b.ID}},
		{"name_contains=ALIAS", []int64{c.ID}},
		{"sha256=" + b.SHA256, []int64{b.ID}},
		{"sha256=" + strings.ToUpper(c.SHA256), []int64{c.ID}},
		{"sha256=" + b.SHA256 + "&name=other", nil},
		{"name_contains=ggp&limit=1&cursor=" + itoa(a.ID), []int64{b.ID}},
	} {
		res := s.do("GET", "/api/v1/games?"+tc.query, nil)
		mustStatus(t, res, http.StatusOK)
		var l list[game]
		res.JSON(t, &l)
		var ids []int64
		for _, g := range l.Items {
			ids = append(ids, g.ID)
		}
		if !slices.Equal(ids, tc.want) {
			t.Errorf("GET /games?%s = %v, want %v", tc.query, ids, tc.want)
		}
	}
	for _, q := range []string{"sha256=abc", "sha256=" + strings.Repeat("g", 64), "name=" + url.QueryEscape("a\x00b")} {
		res := s.do("GET", "/api/v1/games?"+q, nil)
		mustStatus(t, res, http.StatusBadRequest)
		if p := res.Problem(t); p.Code != api.CodeInvalid {
			t.Errorf("GET /games?%s: code %q, want invalid", q, p.Code)
		}
	}
}

// batchItem is one item of a batch response.
type batchItem struct {
	Index   int          `json:"index"`
	Status  int          `json:"status"`
	Game    *upload      `json:"game"`
	Problem *api.Problem `json:"problem"`
}

func TestCreateGames(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) { d.Limits.MaxBatch = 5 })
	stored := s.upload(t, "buttons", buttonsGDL, http.StatusCreated)
	body := map[string]any{"games": []map[string]string{
		{"name": "renamed", "gdl": renamedGDL},
		{"name": "bad.kif", "gdl": unsafeGDL},
		{"name": "copy of buttons", "gdl": buttonsGDL},
		{"name": "empty", "gdl": "  "},
		{"name": strings.Repeat("n", gamequiv.MaxGameNameLen+1), "gdl": otherGDL},
	}}
	res := s.do("POST", "/api/v1/games/batch", body)
	mustStatus(t, res, http.StatusOK)
	var out struct {
		Items []batchItem `json:"items"`
	}
	res.JSON(t, &out)
	if len(out.Items) != 5 {
		t.Fatalf("batch of 5 gave %d items: %s", len(out.Items), res.Body)
	}
	want := []struct {
		status int
		code   string
	}{{201, ""}, {422, api.CodeInvalidGDL}, {200, ""}, {422, api.CodeInvalidGDL}, {400, api.CodeInvalid}}
	for i, it := range out.Items {
		w := want[i]
		if it.Index != i || it.Status != w.status {
			t.Errorf("item %d: index %d status %d, want %d", i, it.Index, it.Status, w.status)
		}
		switch {
		case w.code == "" && (it.Game == nil || it.Problem != nil):
			t.Errorf("item %d: want a game and no problem, got %+v", i, it)
		case w.code != "" && (it.Problem == nil || it.Game != nil || it.Problem.Code != w.code || it.Problem.Status != w.status):
			t.Errorf("item %d: want problem %s, got %+v", i, w.code, it)
		}
	}
	if p := out.Items[1].Problem; p != nil && (p.Line != 3 || p.Col != 5 || !strings.Contains(p.Detail, "bad.kif:3:5")) {
		t.Errorf("invalid game problem = %+v, want bad.kif:3:5", p)
	}
	if g := out.Items[2].Game; g != nil && (g.ID != stored.ID || !*g.AliasAdded) {
		t.Errorf("copy of a stored game = %+v, want game %d with alias_added", g, stored.ID)
	}
	var check list[game]
	s.do("GET", "/api/v1/games?name=renamed", nil).JSON(t, &check)
	if len(check.Items) != 1 {
		t.Errorf("the good game of the batch is not stored: %+v", check.Items)
	}

	for _, tc := range []struct {
		name string
		body any
	}{
		{"Empty", map[string]any{"games": []any{}}},
		{"TooMany", map[string]any{"games": make([]map[string]string, 6)}},
		{"NoGames", map[string]any{}},
		{"UnknownField", map[string]any{"games": []map[string]string{{"gdl": buttonsGDL}}, "x": 1}},
	} {
		res := s.do("POST", "/api/v1/games/batch", tc.body)
		mustStatus(t, res, http.StatusBadRequest)
		if p := res.Problem(t); p.Code != api.CodeInvalid {
			t.Errorf("%s: code %q, want invalid", tc.name, p.Code)
		}
	}
}

// waited is a comparison answer of the long poll.
type waited struct {
	comparison
	NameA    string `json:"a_name"`
	NameB    string `json:"b_name"`
	Revision string `json:"revision"`
	Reason   string `json:"reason"`
}

func TestComparisonWait(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) { d.Limits.WaitInterval = 10 * time.Millisecond })
	a, b := s.uploadGame("buttons", buttonsGDL), s.uploadGame("other", otherGDL)
	res := s.do("POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID})
	mustStatus(t, res, http.StatusAccepted)
	var queued waited
	res.JSON(t, &queued)
	if queued.NameA != "buttons" || queued.NameB != "other" || queued.Revision == "" {
		t.Errorf("POST /comparisons = %+v, want names and a revision", queued)
	}
	path := "/api/v1/comparisons/" + itoa(queued.ID)

	for _, q := range []string{"wait=soon", "wait=-1s", "wait=61s", "wait=NaN"} {
		res := s.do("GET", path+"?"+q, nil)
		mustStatus(t, res, http.StatusBadRequest)
		if p := res.Problem(t); p.Code != api.CodeInvalid {
			t.Errorf("GET ?%s: code %q, want invalid", q, p.Code)
		}
	}

	t.Run("Timeout", func(t *testing.T) {
		start := time.Now()
		var got waited
		s.do("GET", path+"?wait=0.15", nil).JSON(t, &got)
		if el := time.Since(start); el < 150*time.Millisecond || got.Status != "queued" || got.Revision != queued.Revision {
			t.Errorf("wait on a queued job: %s later, %+v; want >= 150ms, still queued", el, got)
		}
	})

	ctx := context.Background()
	job, err := s.DB.Claim(ctx, "test-worker", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var running waited
	s.do("GET", path, nil).JSON(t, &running)

	t.Run("Progress", func(t *testing.T) {
		go func() {
			time.Sleep(100 * time.Millisecond)
			s.DB.Heartbeat(ctx, job.ID, "test-worker", time.Minute, store.Progress{Phase: "search", Candidates: 2, JSON: json.RawMessage(`{"fraction":0.5}`)})
		}()
		start := time.Now()
		var got waited
		s.do("GET", path+"?wait=10s&since="+running.Revision, nil).JSON(t, &got)
		if el := time.Since(start); el > 5*time.Second || got.Revision == running.Revision || got.Progress.Phase != "search" || got.Progress.Candidates != 2 {
			t.Errorf("wait for progress: %s later, %+v; want the new progress at once", el, got)
		}
	})

	t.Run("Done", func(t *testing.T) {
		result := json.RawMessage(`{"verdict":"not_equivalent","reason":"goal values differ","stats":{"phase_ms":{},"candidates":0,"sat_calls":0,"nodes":[1,1],"edges":[0,0],"functions":1}}`)
		go func() {
			time.Sleep(100 * time.Millisecond)
			s.DB.Finish(ctx, job.ID, "test-worker", store.Outcome{Status: store.StatusDone, Verdict: "not_equivalent", Result: result})
		}()
		start := time.Now()
		var got waited
		s.do("GET", path+"?wait=10s", nil).JSON(t, &got)
		if el := time.Since(start); el > 5*time.Second || got.Status != "done" || got.Reason != "goal values differ" {
			t.Errorf("wait for the end: %s later, %+v; want done at once", el, got)
		}
		// Final: no wait at all.
		start = time.Now()
		s.do("GET", path+"?wait=10s&since="+got.Revision, nil).JSON(t, &got)
		if el := time.Since(start); el > time.Second {
			t.Errorf("wait on a final comparison took %s", el)
		}
	})

	var l list[waited]
	s.do("GET", "/api/v1/comparisons", nil).JSON(t, &l)
	if len(l.Items) != 1 {
		t.Fatalf("list = %+v", l.Items)
	}
	if it := l.Items[0]; it.NameA != "buttons" || it.NameB != "other" || it.Verdict != "not_equivalent" || it.Reason != "goal values differ" || it.Result != nil {
		t.Errorf("list item = %+v, want names, verdict and reason without result", it)
	}
}

func TestComparisonWaitClientGone(t *testing.T) {
	s := newTestServer(t, nil)
	a := s.uploadGame("buttons", buttonsGDL)
	res := s.do("POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": a.ID})
	var c waited
	res.JSON(t, &c)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", "/api/v1/comparisons/"+itoa(c.ID)+"?wait=30s", nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		s.Handler.ServeHTTP(discardWriter{}, req)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a long poll outlives its client by 5s")
	}
}

type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (discardWriter) WriteHeader(int)             {}

func itoa(n int64) string {
	return strconv.FormatInt(n, 10)
}
