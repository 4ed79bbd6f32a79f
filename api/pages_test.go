package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/api"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/web"
)

// evilName is a game name that must never reach a page unescaped.
const evilName = `<script>alert("x")</script>`

// getPage requests a browser page; header is pairs of header names and
// values.
func (s *testServer) getPage(method, path string, body *bytes.Buffer, contentType string, header ...string) *response {
	s.t.Helper()
	var req *http.Request
	if body != nil {
		req = httptest.NewRequest(method, path, body)
		req.Header.Set("Content-Type", contentType)
	} else {
		req = httptest.NewRequest(method, path, nil)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	s.Handler.ServeHTTP(rec, req)
	return &response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// mustHTML fails unless the response is an HTML page with the status.
func mustHTML(t *testing.T, res *response, want int) string {
	t.Helper()
	if res.Status != want {
		t.Fatalf("status = %d, want %d; body %.3000s", res.Status, want, res.Body)
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Fatalf("Content-Type = %q, want text/html", ct)
	}
	body := string(res.Body)
	if !strings.HasPrefix(body, "<!doctype html>") || !strings.HasSuffix(strings.TrimSpace(body), "</html>") {
		t.Fatalf("not a whole HTML page: %.300s", body)
	}
	return body
}

// pageFixture is a store with games, a class and comparisons in every
// interesting state.
type pageFixture struct {
	s                    *testServer
	buttons, renamed     game
	evil                 game
	class                *store.Class
	done, queued, failed int64
}

func newPageFixture(t *testing.T) *pageFixture {
	t.Helper()
	ctx := context.Background()
	s := newTestServer(t, nil)
	f := &pageFixture{s: s}
	f.buttons = s.uploadGame("buttons", buttonsGDL)
	f.renamed = s.uploadGame("renamed", renamedGDL)
	f.evil = s.uploadGame(evilName, otherGDL)

	cl, err := s.DB.NewClass(ctx, f.buttons.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DB.AssignClass(ctx, f.renamed.ID, cl.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB.NewClass(ctx, f.evil.ID); err != nil {
		t.Fatal(err)
	}
	if f.class, err = s.DB.GetClass(ctx, cl.ID); err != nil {
		t.Fatal(err)
	}

	// A done comparison with the real report of buttons against renamed.
	f.done = f.queue(f.buttons.ID, f.renamed.ID)
	rep, err := equiv.Compare(ctx, equiv.Source{Name: "buttons", GDL: []byte(buttonsGDL)}, equiv.Source{Name: "renamed", GDL: []byte(renamedGDL)}, equiv.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	f.finish(f.done, store.Outcome{Status: store.StatusDone, Verdict: string(rep.Verdict), Result: raw})
	// A failed one with an error that must be escaped.
	f.failed = f.queue(f.buttons.ID, f.evil.ID)
	f.finish(f.failed, store.Outcome{Status: store.StatusFailed, Error: "boom <b>bold</b>"})
	// A queued one.
	f.queued = f.queue(f.renamed.ID, f.evil.ID)
	return f
}

// queue submits a comparison through the JSON API.
func (f *pageFixture) queue(a, b int64) int64 {
	f.s.t.Helper()
	res := f.s.do("POST", "/api/v1/comparisons", map[string]any{"a": a, "b": b})
	mustStatus(f.s.t, res, http.StatusAccepted)
	var c comparison
	res.JSON(f.s.t, &c)
	return c.ID
}

// finish runs the oldest queued job, which must be id, to the outcome.
func (f *pageFixture) finish(id int64, o store.Outcome) {
	t := f.s.t
	t.Helper()
	ctx := context.Background()
	job, err := f.s.DB.Claim(ctx, "page-test", time.Minute)
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	if job.ID != id {
		t.Fatalf("claimed job %d, want %d", job.ID, id)
	}
	if err := f.s.DB.Finish(ctx, id, "page-test", o); err != nil {
		t.Fatalf("Finish: %v", err)
	}
}

var pageTests = []struct {
	name string
	path func(f *pageFixture) string
	want func(f *pageFixture) []string
}{
	{
		name: "Home",
		path: func(*pageFixture) string { return "/" },
		want: func(f *pageFixture) []string {
			return []string{"<h1>Game equivalence</h1>", fmt.Sprintf(`href="/comparisons/%d"`, f.done), `href="/comparisons/new"`,
				fmt.Sprintf(`<td data-label="Game A"><a href="/games/%d">buttons</a></td>`, f.buttons.ID),
				fmt.Sprintf(`<td data-label="Game B"><a href="/games/%d">renamed</a></td>`, f.renamed.ID)}
		},
	},
	{
		name: "Classes",
		path: func(*pageFixture) string { return "/classes" },
		want: func(f *pageFixture) []string {
			return []string{
				fmt.Sprintf(`<a href="/classes/%d">Class %d</a>`, f.class.ID, f.class.ID),
				`<td data-label="Members" class="num">2</td>`, // member count
				fmt.Sprintf(`<a href="/games/%d">buttons</a> <small>(representative)</small>`, f.buttons.ID),
				fmt.Sprintf(`<a href="/games/%d">renamed</a>`, f.renamed.ID),
			}
		},
	},
	{
		name: "ClassesSearch",
		path: func(*pageFixture) string { return "/classes?q=RENAMED" },
		want: func(f *pageFixture) []string {
			return []string{fmt.Sprintf(`<a href="/classes/%d">Class %d</a>`, f.class.ID, f.class.ID), `value="RENAMED"`}
		},
	},
	{
		name: "Class",
		path: func(f *pageFixture) string { return fmt.Sprintf("/classes/%d", f.class.ID) },
		want: func(f *pageFixture) []string {
			return []string{fmt.Sprintf("<h1>Class %d</h1>", f.class.ID), "2 games", "representative", "renamed"}
		},
	},
	{
		name: "Games",
		path: func(*pageFixture) string { return "/games" },
		want: func(f *pageFixture) []string {
			return []string{fmt.Sprintf(`<a href="/games/%d">buttons</a>`, f.buttons.ID), `<td data-label="Roles">robot</td>`, fmt.Sprintf(`<a href="/classes/%d">Class %d</a>`, f.class.ID, f.class.ID)}
		},
	},
	{
		name: "GamesSearch",
		path: func(*pageFixture) string { return "/games?q=butt" },
		want: func(f *pageFixture) []string {
			return []string{fmt.Sprintf(`<a href="/games/%d">buttons</a>`, f.buttons.ID), `value="butt"`}
		},
	},
	{
		name: "Game",
		path: func(f *pageFixture) string { return fmt.Sprintf("/games/%d", f.buttons.ID) },
		want: func(f *pageFixture) []string {
			return []string{
				"<h1>buttons</h1>",
				"<dt>Roles</dt><dd><code>robot</code></dd>",
				"<dt>Propositions</dt><dd>2</dd>",
				"<dt>Actions</dt><dd>2: 2 for <code>robot</code></dd>",
				fmt.Sprintf(`<a href="/classes/%d">Class %d</a>`, f.class.ID, f.class.ID),
				f.buttons.SHA256,
				"Not computed yet.",
				fmt.Sprintf(`hx-get="/games/%d?symmetries=compute"`, f.buttons.ID),
				fmt.Sprintf(`href="/comparisons/%d"`, f.done),
				"(legal robot (press ?x))", // the GDL text
			}
		},
	},
	{
		name: "Comparisons",
		path: func(*pageFixture) string { return "/comparisons" },
		want: func(f *pageFixture) []string {
			return []string{
				fmt.Sprintf(`<a href="/comparisons/%d">#%d</a>`, f.queued, f.queued),
				`<span class="status status-queued">queued</span>`,
				`<span class="status status-failed">failed</span>`,
				`verdict-equivalent`,
				fmt.Sprintf(`<a href="/games/%d">buttons</a>`, f.buttons.ID),
				`&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`,
			}
		},
	},
	{
		name: "ComparisonsOfGameByName",
		path: func(f *pageFixture) string { return "/comparisons?game_q=RENAM" },
		want: func(f *pageFixture) []string {
			return []string{"<h1>Comparisons with renamed</h1>", fmt.Sprintf(`<input type="hidden" name="game" value="%d">`, f.renamed.ID)}
		},
	},
	{
		name: "ComparisonsOfGameByNameChoices",
		path: func(f *pageFixture) string { return "/comparisons?game_q=e&status=done" },
		want: func(f *pageFixture) []string {
			return []string{"2 games' names contain “e”; pick one:",
				fmt.Sprintf(`<a href="/comparisons?game=%d&amp;status=done">renamed</a>`, f.renamed.ID),
				fmt.Sprintf(`<a href="/comparisons?game=%d&amp;status=done">&lt;script&gt;`, f.evil.ID)}
		},
	},
	{
		name: "ComparisonsOfGameByNameNone",
		path: func(f *pageFixture) string { return "/comparisons?game_q=zzz" },
		want: func(f *pageFixture) []string {
			return []string{"No game's name contains “zzz”."}
		},
	},
	{
		name: "ComparisonsOfGame",
		path: func(f *pageFixture) string { return fmt.Sprintf("/comparisons?game=%d", f.buttons.ID) },
		want: func(f *pageFixture) []string {
			return []string{"<h1>Comparisons with buttons</h1>", fmt.Sprintf(`Showing comparisons with <a href="/games/%d">buttons</a>`, f.buttons.ID)}
		},
	},
	{
		name: "ComparisonsFiltered",
		path: func(f *pageFixture) string { return "/comparisons?status=failed" },
		want: func(f *pageFixture) []string {
			return []string{`<option value="failed" selected>`, fmt.Sprintf(`<a href="/comparisons/%d">#%d</a>`, f.failed, f.failed)}
		},
	},
	{
		name: "ComparisonDone",
		path: func(f *pageFixture) string { return fmt.Sprintf("/comparisons/%d", f.done) },
		want: func(f *pageFixture) []string {
			return []string{
				`<span class="status status-done">done</span>`,
				`<strong class="verdict verdict-equivalent">equivalent</strong>`,
				"<dt>Reason</dt><dd>verified mapping found",
				`<dt>Run time</dt>`,
				`<h2 id="mapping-heading">Mapping</h2>`,
				"<tr><td><code>robot</code></td><td><code>bot</code></td></tr>",
				"<tr><td><code>(on a)</code></td><td><code>(lit x)</code></td></tr>",
				"<tr><td><code>(press a)</code></td><td><code>(push x)</code></td></tr>",
				fmt.Sprintf(`<a href="/games/%d">buttons</a>`, f.buttons.ID),
				fmt.Sprintf(`<a href="/games/%d">renamed</a>`, f.renamed.ID),
				"<dt>Phase ground</dt>",
			}
		},
	},
	{
		name: "ComparisonQueued",
		path: func(f *pageFixture) string { return fmt.Sprintf("/comparisons/%d", f.queued) },
		want: func(f *pageFixture) []string {
			return []string{
				fmt.Sprintf(`hx-get="/comparisons/%d" hx-trigger="every %s" hx-select="#comparison-status" hx-swap="outerHTML"`, f.queued, api.PollInterval),
				`<span class="status status-queued">queued</span>`,
				fmt.Sprintf(`<form method="post" action="/comparisons/%d/cancel">`, f.queued),
				`aria-live="polite"`,
			}
		},
	},
	{
		name: "ComparisonFailed",
		path: func(f *pageFixture) string { return fmt.Sprintf("/comparisons/%d", f.failed) },
		want: func(f *pageFixture) []string {
			return []string{"<dt>Error</dt><dd>boom &lt;b&gt;bold&lt;/b&gt;</dd>"}
		},
	},
	{
		name: "CompareForm",
		path: func(f *pageFixture) string { return fmt.Sprintf("/comparisons/new?a=%d", f.buttons.ID) },
		want: func(f *pageFixture) []string {
			return []string{
				`<form method="post" action="/comparisons" enctype="multipart/form-data">`,
				fmt.Sprintf(`<option value="%d" selected>buttons (game %d)</option>`, f.buttons.ID, f.buttons.ID),
				`<label for="a-gdl">`, `<textarea id="b-gdl" name="b_gdl"`, `<input id="a-file" name="a_file" type="file"`,
				`<input id="a-q" name="a_q" form="pick" type="search"`,
			}
		},
	},
	{
		name: "CompareFormSearch",
		path: func(f *pageFixture) string { return fmt.Sprintf("/comparisons/new?a=%d&b_q=REN", f.buttons.ID) },
		want: func(f *pageFixture) []string {
			return []string{
				fmt.Sprintf(`<option value="%d" selected>buttons (game %d)</option>`, f.buttons.ID, f.buttons.ID),
				fmt.Sprintf(`<option value="%d">renamed (game %d)</option>`, f.renamed.ID, f.renamed.ID),
				`1 game whose name contains “REN”`,
			}
		},
	},
}

func TestPages(t *testing.T) {
	f := newPageFixture(t)
	for _, tc := range pageTests {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path(f)
			res := f.s.getPage("GET", path, nil, "")
			body := mustHTML(t, res, http.StatusOK)
			for _, want := range tc.want(f) {
				if !strings.Contains(body, want) {
					t.Errorf("GET %s lacks %q:\n%s", path, want, body)
				}
			}
			if res.Header.Get(api.RequestIDHeader) == "" {
				t.Errorf("GET %s: no %s header", path, api.RequestIDHeader)
			}
			if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("GET %s: Content-Security-Policy = %q", path, csp)
			}
		})
	}
}

// TestPagesEscape checks that a game name with markup appears escaped on
// every page that shows it, and never raw.
func TestPagesEscape(t *testing.T) {
	f := newPageFixture(t)
	escaped := `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`
	for _, path := range []string{
		"/classes",
		fmt.Sprintf("/games/%d", f.evil.ID),
		"/games",
		fmt.Sprintf("/comparisons/%d", f.failed),
		"/comparisons/new",
	} {
		body := mustHTML(t, f.s.getPage("GET", path, nil, ""), http.StatusOK)
		if strings.Contains(body, "<script>alert") {
			t.Errorf("GET %s shows the name unescaped:\n%s", path, body)
		}
		if !strings.Contains(body, escaped) {
			t.Errorf("GET %s lacks the escaped name %s:\n%s", path, escaped, body)
		}
	}
}

var notFoundTests = []struct {
	path, want string
}{
	{"/games/999", "there is no game 999"},
	{"/games/abc", `there is no game &#34;abc&#34;`},
	{"/classes/999", "there is no class 999"},
	{"/comparisons/999", "there is no comparison 999"},
	{"/comparisons/0", `there is no comparison &#34;0&#34;`},
	{"/no/such/page", "there is no page at /no/such/page"},
	{"/<script>", "there is no page at /&lt;script&gt;"},
}

func TestPagesNotFound(t *testing.T) {
	s := newTestServer(t, nil)
	for _, tc := range notFoundTests {
		t.Run(tc.path, func(t *testing.T) {
			body := mustHTML(t, s.getPage("GET", tc.path, nil, ""), http.StatusNotFound)
			for _, want := range []string{"<title>Not Found · gamequiv</title>", "404 Not Found", tc.want} {
				if !strings.Contains(body, want) {
					t.Errorf("GET %s lacks %q:\n%s", tc.path, want, body)
				}
			}
			if strings.Contains(body, "store:") {
				t.Errorf("GET %s shows an internal error text:\n%s", tc.path, body)
			}
		})
	}
	t.Run("APIStaysProblemJSON", func(t *testing.T) {
		for _, path := range []string{"/api/v1/games/999", "/api/v1/nope", "/api"} {
			res := s.getPage("GET", path, nil, "")
			if res.Status != http.StatusNotFound || res.Header.Get("Content-Type") != api.ProblemContentType {
				t.Errorf("GET %s = %d %q, want 404 problem+json", path, res.Status, res.Header.Get("Content-Type"))
			}
		}
	})
	t.Run("MethodNotAllowed", func(t *testing.T) {
		mustHTML(t, s.getPage("DELETE", "/games", nil, ""), http.StatusMethodNotAllowed)
	})
	t.Run("BadQuery", func(t *testing.T) {
		body := mustHTML(t, s.getPage("GET", "/comparisons?status=bogus", nil, ""), http.StatusBadRequest)
		if !strings.Contains(body, "400 Bad Request") {
			t.Errorf("body lacks the status:\n%s", body)
		}
	})
}

// formPart is one field of a multipart form; a part with a file name is
// an upload.
type formPart struct {
	name, file, value string
}

func multipartBody(t *testing.T, parts ...formPart) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		if p.file != "" {
			fw, err := w.CreateFormFile(p.name, p.file)
			if err != nil {
				t.Fatal(err)
			}
			fw.Write([]byte(p.value))
			continue
		}
		if err := w.WriteField(p.name, p.value); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf, w.FormDataContentType()
}

// comparisonID returns the comparison id of a redirect to its page.
func comparisonID(t *testing.T, res *response) int64 {
	t.Helper()
	if res.Status != http.StatusSeeOther {
		t.Fatalf("status = %d, want 303; body %.3000s", res.Status, res.Body)
	}
	var id int64
	if _, err := fmt.Sscanf(res.Header.Get("Location"), "/comparisons/%d", &id); err != nil {
		t.Fatalf("Location = %q: %v", res.Header.Get("Location"), err)
	}
	return id
}

func TestCompareForm(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := newTestServer(t, nil)
		body, ct := multipartBody(t,
			formPart{name: "a_id"},
			formPart{name: "a_name", value: "pasted"},
			formPart{name: "a_gdl", value: buttonsGDL},
			formPart{name: "b_id"},
			formPart{name: "b_file", file: "lights.kif", value: renamedGDL},
			formPart{name: "timeout_seconds", value: "30"},
		)
		id := comparisonID(t, s.getPage("POST", "/comparisons", body, ct))
		cmp, err := s.DB.GetComparison(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if string(cmp.Limits) != `{"timeout_ms":30000}` {
			t.Errorf("limits = %s", cmp.Limits)
		}
		for gid, want := range map[int64]string{cmp.GameA: "pasted", cmp.GameB: "lights"} {
			g, err := s.DB.GetGame(context.Background(), gid)
			if err != nil {
				t.Fatal(err)
			}
			if g.Name != want {
				t.Errorf("game %d name = %q, want %q", gid, g.Name, want)
			}
		}
		// The JSON API sees the same comparison: resubmitting it there
		// returns it.
		res := s.do("POST", "/api/v1/comparisons", map[string]any{"a": cmp.GameA, "b": cmp.GameB, "limits": map[string]any{"timeout_ms": 30000}})
		if res.Status != http.StatusOK && res.Status != http.StatusAccepted {
			t.Fatalf("API resubmission: status %d %s", res.Status, res.Body)
		}
		var c comparison
		res.JSON(t, &c)
		if c.ID != id {
			t.Errorf("API resubmission got comparison %d, want %d", c.ID, id)
		}
		body2 := mustHTML(t, s.getPage("GET", fmt.Sprintf("/comparisons/%d", id), nil, ""), http.StatusOK)
		if !strings.Contains(body2, ">pasted</a>") || !strings.Contains(body2, ">lights</a>") {
			t.Errorf("comparison page lacks the game names:\n%s", body2)
		}
	})
	t.Run("OKStoredGames", func(t *testing.T) {
		s := newTestServer(t, nil)
		a, b := s.uploadGame("a", buttonsGDL), s.uploadGame("b", otherGDL)
		form := url.Values{"a_id": {fmt.Sprint(a.ID)}, "b_id": {fmt.Sprint(b.ID)}}
		id := comparisonID(t, s.getPage("POST", "/comparisons", bytes.NewBufferString(form.Encode()), "application/x-www-form-urlencoded"))
		cmp, err := s.DB.GetComparison(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if cmp.GameA != a.ID || cmp.GameB != b.ID || cmp.Status != store.StatusQueued {
			t.Errorf("comparison = %d vs %d %s, want %d vs %d queued", cmp.GameA, cmp.GameB, cmp.Status, a.ID, b.ID)
		}
	})

	errorTests := []struct {
		name   string
		parts  []formPart
		status int
		want   []string
	}{
		{
			name:   "ErrEmpty",
			parts:  []formPart{{name: "a_gdl"}, {name: "b_gdl"}},
			status: http.StatusBadRequest,
			want:   []string{"game A: pick a stored game or give a description"},
		},
		{
			name:   "ErrBoth",
			parts:  []formPart{{name: "a_id", value: "1"}, {name: "a_gdl", value: buttonsGDL}, {name: "b_id", value: "1"}},
			status: http.StatusBadRequest,
			want:   []string{"game A: pick a stored game or give a description, not both"},
		},
		{
			name:   "ErrPasteAndUpload",
			parts:  []formPart{{name: "a_gdl", value: buttonsGDL}, {name: "b_gdl", value: "x"}, {name: "b_file", file: "b.kif", value: buttonsGDL}},
			status: http.StatusBadRequest,
			want:   []string{"game B: paste a description or upload a file, not both"},
		},
		{
			name:   "ErrTimeout",
			parts:  []formPart{{name: "a_gdl", value: buttonsGDL}, {name: "b_gdl", value: renamedGDL}, {name: "timeout_seconds", value: "-3"}},
			status: http.StatusBadRequest,
			want:   []string{"time limit &#34;-3&#34;", `value="-3"`},
		},
		{
			name: "ErrInvalidGDL",
			parts: []formPart{
				{name: "a_name", value: evilName}, {name: "a_gdl", value: unsafeGDL},
				{name: "b_gdl", value: buttonsGDL},
			},
			status: http.StatusUnprocessableEntity,
			want: []string{
				"(game A)", "role=\"alert\"",
				"line 3, column 5", "line 4, column 5",
				// the form keeps what was entered, escaped
				"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;",
				"(&lt;= (legal robot ?x) (true (on ?y)))",
			},
		},
		{
			// The side of an error comes from its type, not its text: this
			// message names the game "foo", not the side.
			name:   "ErrNULInB",
			parts:  []formPart{{name: "a_gdl", value: buttonsGDL}, {name: "b_name", value: "foo"}, {name: "b_gdl", value: "(role x)\x00"}},
			status: http.StatusUnprocessableEntity,
			want:   []string{"(game B)", "foo:1:9: invalid control character U&#43;0000"},
		},
		{
			name:   "ErrUnknownGame",
			parts:  []formPart{{name: "a_id", value: "98"}, {name: "b_id", value: "99"}},
			status: http.StatusNotFound,
			want:   []string{"game 98 or 99 does not exist"},
		},
	}
	for _, tc := range errorTests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestServer(t, nil)
			body, ct := multipartBody(t, tc.parts...)
			page := mustHTML(t, s.getPage("POST", "/comparisons", body, ct), tc.status)
			for _, want := range append(tc.want, `<form method="post" action="/comparisons"`) {
				if !strings.Contains(page, want) {
					t.Errorf("form page lacks %q:\n%s", want, page)
				}
			}
			if strings.Contains(page, "<script>alert") {
				t.Errorf("form page shows markup unescaped")
			}
			if n, _ := s.DB.QueueDepth(context.Background()); n != 0 {
				t.Errorf("queue depth = %d after a rejected form, want 0", n)
			}
		})
	}

	t.Run("ErrTooLarge", func(t *testing.T) {
		s := newTestServer(t, func(d *api.Deps) { d.Limits.MaxBody = 1000 })
		body, ct := multipartBody(t, formPart{name: "a_gdl", value: strings.Repeat(buttonsGDL, 10)}, formPart{name: "b_gdl", value: buttonsGDL})
		mustHTML(t, s.getPage("POST", "/comparisons", body, ct), http.StatusRequestEntityTooLarge)
	})
	t.Run("ErrCrossOrigin", func(t *testing.T) {
		s := newTestServer(t, nil)
		a, b := s.uploadGame("a", buttonsGDL), s.uploadGame("b", otherGDL)
		form := url.Values{"a_id": {fmt.Sprint(a.ID)}, "b_id": {fmt.Sprint(b.ID)}}
		res := s.getPage("POST", "/comparisons", bytes.NewBufferString(form.Encode()), "application/x-www-form-urlencoded",
			"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		mustHTML(t, res, http.StatusForbidden)
		if n, _ := s.DB.QueueDepth(context.Background()); n != 0 {
			t.Errorf("queue depth = %d after a cross-origin post, want 0", n)
		}
	})
}

func TestCancelPage(t *testing.T) {
	f := newPageFixture(t)
	path := fmt.Sprintf("/comparisons/%d/cancel", f.queued)
	res := f.s.getPage("POST", path, bytes.NewBufferString(""), "application/x-www-form-urlencoded")
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != fmt.Sprintf("/comparisons/%d", f.queued) {
		t.Fatalf("POST %s = %d Location %q, want 303 to the comparison", path, res.Status, res.Header.Get("Location"))
	}
	body := mustHTML(t, f.s.getPage("GET", res.Header.Get("Location"), nil, ""), http.StatusOK)
	if !strings.Contains(body, `<span class="status status-cancelled">cancelled</span>`) || strings.Contains(body, "hx-trigger") {
		t.Errorf("cancelled comparison page:\n%s", body)
	}
	mustHTML(t, f.s.getPage("POST", "/comparisons/999/cancel", bytes.NewBufferString(""), "application/x-www-form-urlencoded"), http.StatusNotFound)
}

// TestComparisonPoll checks the request htmx makes while polling: the
// page still holds the status section, without the game lookups.
func TestComparisonPoll(t *testing.T) {
	f := newPageFixture(t)
	body := mustHTML(t, f.s.getPage("GET", fmt.Sprintf("/comparisons/%d", f.queued), nil, "", "HX-Request", "true"), http.StatusOK)
	if !strings.Contains(body, `<section id="comparison-status"`) || !strings.Contains(body, "hx-trigger=") {
		t.Errorf("poll response lacks the polling status section:\n%s", body)
	}
	body = mustHTML(t, f.s.getPage("GET", fmt.Sprintf("/comparisons/%d", f.done), nil, "", "HX-Request", "true"), http.StatusOK)
	if strings.Contains(body, "hx-trigger=") {
		t.Errorf("a finished comparison still polls:\n%s", body)
	}
}

func TestGamePageSymmetries(t *testing.T) {
	f := newPageFixture(t)
	path := fmt.Sprintf("/games/%d?symmetries=compute", f.buttons.ID)
	body := mustHTML(t, f.s.getPage("GET", path, nil, ""), http.StatusOK)
	for _, want := range []string{`<section id="symmetries"`, "<dd>2 symmetries (the identity included)</dd>", "Generator 1",
		`<span class="cycle">(<code>(on a)</code> <code>(on b)</code>)</span>`, `<span class="cycle">(<code>robot (press a)</code> <code>robot (press b)</code>)</span>`} {
		if !strings.Contains(body, want) {
			t.Errorf("GET %s lacks %q:\n%s", path, want, body)
		}
	}
	// Stored now: the plain page shows them, as the JSON API does.
	body = mustHTML(t, f.s.getPage("GET", fmt.Sprintf("/games/%d", f.buttons.ID), nil, ""), http.StatusOK)
	if strings.Contains(body, "Not computed yet") || !strings.Contains(body, "Generator 1") {
		t.Errorf("game page after computing symmetries:\n%s", body)
	}
	res := f.s.do("GET", fmt.Sprintf("/api/v1/games/%d/symmetries", f.buttons.ID), nil)
	mustStatus(t, res, http.StatusOK)
	var sym struct {
		Order string `json:"order"`
	}
	res.JSON(t, &sym)
	if sym.Order != "2" {
		t.Errorf("API symmetries order = %q, want 2", sym.Order)
	}
}

func TestStaticFiles(t *testing.T) {
	s := newTestServer(t, nil)
	for _, name := range web.StaticFiles() {
		u := web.StaticURL(name)
		res := s.getPage("GET", u, nil, "")
		if res.Status != http.StatusOK || len(res.Body) == 0 {
			t.Errorf("GET %s = %d (%d bytes)", u, res.Status, len(res.Body))
		}
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
			t.Errorf("GET %s: Cache-Control = %q", u, cc)
		}
	}
	res := s.getPage("GET", web.StaticURL("htmx.min.js"), nil, "")
	if ct := res.Header.Get("Content-Type"); !regexp.MustCompile(`^(text|application)/javascript`).MatchString(ct) {
		t.Errorf("htmx Content-Type = %q", ct)
	}
	if res := s.getPage("GET", "/static/nope.js", nil, ""); res.Status != http.StatusNotFound {
		t.Errorf("GET /static/nope.js = %d, want 404", res.Status)
	}
}

// TestPagePanic: a panic behind a page gives a whole HTML 500 page that
// leaks nothing, is logged once with its stack, and the server goes on
// serving.
func TestPagePanic(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) {
		d.Store = faultyStore{DB: d.Store.(*store.DB), panic: true}
	})
	body := mustHTML(t, s.getPage("GET", "/classes", nil, ""), http.StatusInternalServerError)
	if strings.Contains(body, "exploded") {
		t.Errorf("page leaks the panic: %s", body)
	}
	log := s.Log.String()
	if strings.Count(log, `"msg":"panic"`) != 1 || !strings.Contains(log, "store exploded") || !strings.Contains(log, "goroutine") {
		t.Errorf("panic not logged once with its stack:\n%s", log)
	}
	mustHTML(t, s.getPage("GET", "/", nil, ""), http.StatusOK)
}

// TestComparisonProgressDetail checks the progress a running comparison's
// page shows (step, sub-progress, elapsed time) and the notice of a job
// whose worker died (its lease ran out).
func TestComparisonProgressDetail(t *testing.T) {
	f := newPageFixture(t)
	ctx := context.Background()
	job, err := f.s.DB.Claim(ctx, "w1", 300*time.Millisecond)
	if err != nil || job.ID != f.queued {
		t.Fatalf("Claim = %v, %v; want job %d", job, err, f.queued)
	}
	p := equiv.Progress{Phase: "graph", Fraction: 0.1, Step: "analysing reasoning functions: <corners>", Done: 120, Total: 480, Unit: equiv.UnitFunctions}
	raw, _ := json.Marshal(p)
	if _, err := f.s.DB.Heartbeat(ctx, job.ID, "w1", 300*time.Millisecond, store.Progress{Phase: p.Phase, JSON: raw}); err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/comparisons/%d", job.ID)
	body := mustHTML(t, f.s.getPage("GET", path, nil, "", "HX-Request", "true"), http.StatusOK)
	for _, want := range []string{`<span id="phase">graph</span>`, `<span id="step">analysing reasoning functions: &lt;corners&gt;</span>`,
		`<progress max="480" value="120"`, "120 of 480 functions", `<dt>Elapsed</dt><dd id="elapsed">`} {
		if !strings.Contains(body, want) {
			t.Errorf("GET %s lacks %q:\n%s", path, want, body)
		}
	}
	if strings.Contains(body, "Waiting to be retried") {
		t.Errorf("a live job shows as waiting to be retried")
	}
	time.Sleep(400 * time.Millisecond)
	body = mustHTML(t, f.s.getPage("GET", path, nil, ""), http.StatusOK)
	if !strings.Contains(body, "Waiting to be retried.") || !strings.Contains(body, "1 attempt so far") {
		t.Errorf("GET %s after the lease ran out lacks the retry notice:\n%s", path, body)
	}
	list := mustHTML(t, f.s.getPage("GET", "/comparisons", nil, ""), http.StatusOK)
	if !strings.Contains(list, "(worker lost)") {
		t.Errorf("the list does not mark the job whose worker died:\n%s", list)
	}
}

// TestMagicSquareBoards checks the comparison of Tic-tac-toe with Number
// Scrabble: both boards drawn, and Tic-tac-toe's cells labelled with the
// numbers of a 3x3 magic square.
func TestMagicSquareBoards(t *testing.T) {
	s := newTestServer(t, nil)
	ctx := context.Background()
	read := func(rel string) string {
		b, err := os.ReadFile(testgames.Path(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	ttt := s.uploadGame("ticTacToe", read("ggp-base-repo/ticTacToe.kif"))
	sum := s.uploadGame("sum15", read("ggp-base/sum15.kif"))
	rep, err := equiv.Compare(ctx, equiv.Source{Name: "ttt", GDL: []byte(read("ggp-base-repo/ticTacToe.kif"))},
		equiv.Source{Name: "sum15", GDL: []byte(read("ggp-base/sum15.kif"))}, equiv.Limits{})
	if err != nil || rep.Verdict != equiv.Equivalent {
		t.Fatalf("Compare = %v, %v", rep, err)
	}
	f := &pageFixture{s: s}
	id := f.queue(ttt.ID, sum.ID)
	raw, _ := json.Marshal(rep)
	f.finish(id, store.Outcome{Status: store.StatusDone, Verdict: string(rep.Verdict), Result: raw})

	body := mustHTML(t, s.getPage("GET", fmt.Sprintf("/comparisons/%d", id), nil, ""), http.StatusOK)
	for _, want := range []string{`<div class="board-pair">`, `<figure class="board" id="board-a">`, `<figure class="board" id="board-b">`,
		"<h3>What the cells hold</h3>"} {
		if !strings.Contains(body, want) {
			t.Fatalf("comparison page lacks %q:\n%s", want, body)
		}
	}
	// The labels of A's nine cells, row by row, form a magic square.
	a := body[strings.Index(body, `id="board-a"`):strings.Index(body, `id="board-b"`)]
	var square [9]int
	for i, m := range regexp.MustCompile(`class="label">(\d)</text>`).FindAllStringSubmatch(a, -1) {
		if i < 9 {
			square[i] = int(m[1][0] - '0')
		}
	}
	lines := [][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}
	for _, l := range lines {
		if sum := square[l[0]] + square[l[1]] + square[l[2]]; sum != 15 {
			t.Fatalf("board A labels %v: line %v sums to %d, want a magic square", square, l, sum)
		}
	}
	if square[4] != 5 {
		t.Errorf("centre %d, want 5", square[4])
	}

	// The game page draws the initial state; the symmetries are drawn
	// too, with arrows on the moved cells.
	body = mustHTML(t, s.getPage("GET", fmt.Sprintf("/games/%d?symmetries=compute", ttt.ID), nil, ""), http.StatusOK)
	for _, want := range []string{`<figure class="board" id="board-initial">`, "Board of 3 rows by 3 columns", "<dd>8 symmetries (the identity included)</dd>",
		`<figure class="board" id="generator-1">`, `class="arrow" marker-end="url(#generator-1-head)"`, "<dt>Cells</dt>"} {
		if !strings.Contains(body, want) {
			t.Errorf("game page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<code>2,2</code>") {
		t.Errorf("the centre never moves, yet a cycle names it")
	}
}

// TestSymmetryErrorOnPage checks that a failed symmetry computation shows
// a message in the symmetries section, which htmx swaps in.
func TestSymmetryErrorOnPage(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) { d.Limits.RequestTimeout = time.Nanosecond })
	g, _, err := s.DB.CreateGame(context.Background(), "buttons", []byte(buttonsGDL), nil)
	if err != nil {
		t.Fatal(err)
	}
	body := mustHTML(t, s.getPage("GET", fmt.Sprintf("/games/%d?symmetries=compute", g.ID), nil, "", "HX-Request", "true"), http.StatusOK)
	i := strings.Index(body, `<section id="symmetries"`)
	if i < 0 || !strings.Contains(body[i:], "The symmetries could not be computed:") || !strings.Contains(body[i:], "gamequiv symmetries") {
		t.Errorf("symmetries section lacks the error and the hint:\n%s", body)
	}
}

// TestUnknownVerdictHint checks that a verdict cut short by a limit says
// what to do.
func TestUnknownVerdictHint(t *testing.T) {
	s := newTestServer(t, nil)
	f := &pageFixture{s: s}
	a, b := s.uploadGame("buttons", buttonsGDL), s.uploadGame("renamed", renamedGDL)
	for i, tc := range []struct{ limit, want string }{
		{"Timeout", "larger time limit"},
		{"Search.MaxCandidates", "limits.max_candidates"},
		{"Search.MaxNodes", "setting of the server"},
	} {
		// Distinct limits make distinct comparisons of the same pair.
		c, _, err := s.DB.CreateComparison(context.Background(), a.ID, b.ID, json.RawMessage(fmt.Sprintf(`{"timeout_ms":%d}`, 1000*(i+1))))
		if err != nil {
			t.Fatal(err)
		}
		id := c.ID
		raw, _ := json.Marshal(equiv.Report{Verdict: equiv.Unknown, Reason: "cut short", Limit: tc.limit, Stats: equiv.Stats{PhaseMs: map[string]float64{}}})
		f.finish(id, store.Outcome{Status: store.StatusDone, Verdict: string(equiv.Unknown), Result: raw})
		body := mustHTML(t, s.getPage("GET", fmt.Sprintf("/comparisons/%d", id), nil, ""), http.StatusOK)
		if !strings.Contains(body, "<dt>Limit</dt><dd>"+tc.limit+`<p class="hint">`) || !strings.Contains(body, tc.want) {
			t.Errorf("limit %s: the page lacks the hint %q:\n%s", tc.limit, tc.want, body)
		}
	}
}
