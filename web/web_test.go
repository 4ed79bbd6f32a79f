package web_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/web"
)

// htmxSHA256 pins the vendored static/htmx.min.js: the dist/htmx.min.js of
// the npm package htmx.org@2.0.11.
const htmxSHA256 = "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717"

const evil = `<script>alert(1)</script>`

var when = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// renderTests render every page with a zero view and with a full one.
var renderTests = []struct {
	name string
	page string
	data any
	want []string
}{
	{name: "HomeEmpty", page: web.PageHome, data: web.HomeView{}, want: []string{"No comparisons yet."}},
	{name: "ClassesEmpty", page: web.PageClasses, data: web.ClassesView{}, want: []string{"No classes yet."}},
	{
		name: "Classes", page: web.PageClasses,
		data: web.ClassesView{Classes: []web.Class{{ID: 3, Representative: 1, Members: []web.Member{{ID: 1, Name: evil}, {ID: 2, Name: "b"}}}}, Next: 3},
		want: []string{`<a href="/classes/3">Class 3</a>`, `<td class="num">2</td>`, `&lt;script&gt;alert(1)&lt;/script&gt;</a> <small>(representative)</small>`, `href="/classes?cursor=3" rel="next"`},
	},
	{name: "Class", page: web.PageClass, data: web.ClassView{Class: web.Class{ID: 3, Representative: 1, Members: []web.Member{{ID: 1, Name: "a"}}, CreatedAt: when}}, want: []string{"1 game", "2026-11-23 12:00:00 UTC"}},
	{name: "GamesEmpty", page: web.PageGames, data: web.GamesView{}, want: []string{"No games stored yet."}},
	{
		name: "Games", page: web.PageGames,
		data: web.GamesView{Games: []web.Game{{ID: 1, Name: "ttt", Stats: web.GameStats{Roles: []string{"x", "o"}, Propositions: 29, Actions: map[string]int{"x": 10, "o": 10}}}, {ID: 2, Name: "bad", AnalysisError: "too big"}}},
		want: []string{"<td>x, o</td>", `<td class="num">29</td>`, `<td class="num">20</td>`, "pending", "not analysed"},
	},
	{name: "GameZero", page: web.PageGame, data: web.GameView{}, want: []string{"Not computed yet."}},
	{
		name: "Game", page: web.PageGame,
		data: web.GameView{
			Game:       web.Game{ID: 7, Name: evil, Stats: web.GameStats{Roles: []string{"white", "black"}, Actions: map[string]int{"white": 3, "black": 4}}, ClassID: 2},
			GDL:        "(role white) ; " + evil,
			Symmetries: &web.Symmetries{Order: "8", Generators: []web.Mapping{web.NewMapping(map[string]string{"white": "white"}, nil, nil)}},
		},
		want: []string{"3 for <code>white</code>, 4 for <code>black</code>", "<dd>8 (the identity included)</dd>", "Generator 0", "(role white) ; &lt;script&gt;"},
	},
	{name: "ComparisonsEmpty", page: web.PageComparisons, data: web.ComparisonsView{}, want: []string{"No comparisons yet."}},
	{
		name: "Comparisons", page: web.PageComparisons,
		data: web.ComparisonsView{Comparisons: []web.Comparison{{ID: 5, A: 1, B: 2, Status: "running"}}, Status: "running", GameID: 1, Statuses: []string{"queued", "running"}, Next: 5},
		want: []string{`<option value="running" selected>`, `value="1"`, `href="/comparisons?status=running&amp;game=1&amp;cursor=5"`},
	},
	{
		name: "ComparisonRunning", page: web.PageComparison,
		data: web.ComparisonView{Comparison: web.Comparison{ID: 9, A: 1, B: 2, Status: "running", Phase: "search", Candidates: 3, Fraction: 0.456}, PollInterval: "2s"},
		want: []string{`hx-trigger="every 2s"`, `<progress max="100" value="46"`, "phase search, 3 candidates examined", "Cancel this comparison"},
	},
	{
		name: "ComparisonDone", page: web.PageComparison,
		data: web.ComparisonView{Comparison: web.Comparison{
			ID: 9, A: 1, B: 2, NameA: evil, Status: "done", Verdict: "not_equivalent", Reason: "goal " + evil, Limits: "{}",
			Stats: &web.Stats{Phases: []web.Phase{{Name: "ground", Ms: 1.25}}},
		}},
		want: []string{`verdict-not-equivalent">not equivalent`, "goal &lt;script&gt;", "<dd>1.2 ms</dd>"},
	},
	{name: "Compare", page: web.PageCompare, data: web.CompareView{Games: []web.Member{{ID: 4, Name: evil}}, B: web.Side{ID: 4}}, want: []string{`<option value="4" selected>&lt;script&gt;alert(1)&lt;/script&gt; (game 4)</option>`}},
	{
		name: "CompareError", page: web.PageCompare,
		data: web.CompareView{A: web.Side{Name: evil, GDL: "</textarea>" + evil}, Error: "bad " + evil, Side: "A", Errors: []web.FieldError{{Line: 2, Col: 3, Message: "x"}, {Message: "y"}}},
		want: []string{`role="alert"`, "(game A)", "bad &lt;script&gt;", "<li>line 2, column 3: x</li>", "<li>y</li>", "&lt;/textarea&gt;&lt;script&gt;"},
	},
	{name: "Error", page: web.PageError, data: web.ErrorView{Status: 404, Title: "Not Found", Detail: evil}, want: []string{"404 Not Found", "&lt;script&gt;"}},
}

func TestRender(t *testing.T) {
	for _, tc := range renderTests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			v := web.View{Title: "T " + evil, Section: "games", RequestID: "rid-1", Data: tc.data}
			if err := web.Render(&buf, tc.page, v); err != nil {
				t.Fatalf("Render(%s) = %v", tc.page, err)
			}
			got := buf.String()
			for _, want := range append(tc.want, "<title>T &lt;script&gt;alert(1)&lt;/script&gt; · gamequiv</title>",
				`<a href="/games" aria-current="page">Games</a>`, "<code>rid-1</code>", "</html>") {
				if !strings.Contains(got, want) {
					t.Errorf("Render(%s) lacks %q:\n%s", tc.page, want, got)
				}
			}
			if strings.Contains(got, evil) {
				t.Errorf("Render(%s) has the markup unescaped:\n%s", tc.page, got)
			}
		})
	}
}

func TestRenderErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := web.Render(&buf, "nope", web.View{}); err == nil {
		t.Error("Render(nope) = nil, want an error")
	}
	// The wrong view type fails and writes nothing.
	if err := web.Render(&buf, web.PageGame, web.View{Data: web.ClassView{}}); err == nil {
		t.Error("Render(game, ClassView) = nil, want an error")
	}
	if buf.Len() != 0 {
		t.Errorf("a failed Render wrote %d bytes", buf.Len())
	}
}

func TestPairs(t *testing.T) {
	got := web.NewMapping(map[string]string{"b": "y", "a": "x"}, map[string]string{"(p 2)": "(q 1)", "(p 1)": "(q 2)"},
		map[string]map[string]string{"a": {"m2": "n2", "m1": "n1"}, "b": {}})
	if got.Roles[0] != (web.Pair{From: "a", To: "x"}) || got.Propositions[0].From != "(p 1)" {
		t.Errorf("NewMapping not sorted: %+v", got)
	}
	if len(got.Actions) != 2 || got.Actions[0].Role != "a" || got.Actions[0].To != "x" || got.Actions[0].Pairs[0].From != "m1" {
		t.Errorf("NewMapping actions = %+v", got.Actions)
	}
}

func TestVendoredHTMX(t *testing.T) {
	b, err := os.ReadFile("static/htmx.min.js")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != htmxSHA256 {
		t.Errorf("static/htmx.min.js sha256 = %s, want %s (htmx.org@%s dist/htmx.min.js)", got, htmxSHA256, web.HTMXVersion)
	}
	if lic, err := os.ReadFile("static/htmx.LICENSE.txt"); err != nil || !strings.Contains(string(lic), "Zero-Clause BSD") {
		t.Errorf("static/htmx.LICENSE.txt: %v", err)
	}
}

func TestStatic(t *testing.T) {
	srv := httptest.NewServer(web.Static())
	defer srv.Close()
	for _, name := range []string{"style.css", "htmx.min.js", "htmx.LICENSE.txt"} {
		u := web.StaticURL(name)
		if !strings.HasPrefix(u, web.StaticPrefix+name+"?v=") {
			t.Errorf("StaticURL(%s) = %q", name, u)
		}
		res, err := http.Get(srv.URL + u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || len(body) == 0 {
			t.Errorf("GET %s = %d, %d bytes", u, res.StatusCode, len(body))
		}
	}
	for _, p := range []string{"/static/", "/static/nope.css", "/static/../web.go"} {
		res, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", p, res.StatusCode)
		}
	}
	if web.StaticURL("nope.css") != "" {
		t.Error(`StaticURL("nope.css") != ""`)
	}
}
