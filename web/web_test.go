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

	"github.com/gamequiv/gamequiv"
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
	// absent must not be on the page.
	absent []string
}{
	{name: "HomeEmpty", page: web.PageHome, data: web.HomeView{}, want: []string{"No comparisons yet."}},
	{name: "ClassesEmpty", page: web.PageClasses, data: web.ClassesView{}, want: []string{"No classes yet."}},
	{
		name: "Classes", page: web.PageClasses,
		data: web.ClassesView{Classes: []gamequiv.Class{{ID: 3, Representative: 1, Members: []gamequiv.Member{{ID: 1, Name: evil}, {ID: 2, Name: "b"}}}}, Next: 3},
		want: []string{`<a href="/classes/3">Class 3</a>`, `<td data-label="Members" class="num">2</td>`, `&lt;script&gt;alert(1)&lt;/script&gt;</a> <small>(representative)</small>`, `href="/classes?q=&amp;cursor=3" rel="next"`},
	},
	{
		name: "ClassesSearch", page: web.PageClasses, data: web.ClassesView{Query: evil},
		want: []string{`No class has a game whose name contains “&lt;script&gt;`, `<input id="q" name="q" type="search" maxlength="200" autocomplete="off" value="&lt;script&gt;`},
	},
	{name: "Class", page: web.PageClass, data: web.ClassView{Class: gamequiv.Class{ID: 3, Representative: 1, Members: []gamequiv.Member{{ID: 1, Name: "a"}}, CreatedAt: when}}, want: []string{"1 game", "2026-11-23 12:00:00 UTC", `<a href="/games/1">a</a> (new games are compared with it)`}},
	{name: "GamesEmpty", page: web.PageGames, data: web.GamesView{}, want: []string{"No games stored yet."}},
	{
		name: "Games", page: web.PageGames,
		data: web.GamesView{Games: []web.Game{{ID: 1, Name: "ttt", Stats: gamequiv.GameStats{Roles: []string{"x", "o"}, Propositions: 29, Actions: map[string]int{"x": 10, "o": 10}}}, {ID: 2, Name: "bad", AnalysisError: "too big"}}},
		want: []string{`<td data-label="Roles">x, o</td>`, `<td data-label="Propositions" class="num">29</td>`, `<td data-label="Actions" class="num">20</td>`, "pending", "not analysed"},
	},
	{name: "GamesSearch", page: web.PageGames, data: web.GamesView{Query: "zz", Next: 4}, want: []string{"No game's name contains “zz”", `href="/games?q=zz&amp;cursor=4"`, `<a href="/games">Show all</a>`}},
	{name: "GameZero", page: web.PageGame, data: web.GameView{}, want: []string{"Not computed yet."}},
	{
		name: "Game", page: web.PageGame,
		data: web.GameView{
			Game:  web.Game{ID: 7, Name: evil, Stats: gamequiv.GameStats{Roles: []string{"white", "black"}, Actions: map[string]int{"white": 3, "black": 4}}, ClassID: 2},
			GDL:   "(role white) ; " + evil,
			Board: web.NewBoard("board-initial", "initial "+evil, []string{"1", "2"}, []string{"1", "2"}, []web.BoardCell{{Row: 1, Col: 0, Label: evil, Corner: "2,1"}}),
			Symmetries: &web.Symmetries{Order: "8", Generators: []web.Generator{{
				Roles: web.Cycles(map[string]string{"white": "black", "black": "white"}),
				Cells: web.Cycles(map[string]string{"1,1": "1,2", "1,2": "1,1", "2,2": "2,2"}),
			}}},
		},
		want: []string{"3 for <code>white</code>, 4 for <code>black</code>", "<dd>8 symmetries (the identity included)</dd>", "Generator 1",
			`<span class="cycle">(<code>black</code> <code>white</code>)</span>`, `<span class="cycle">(<code>1,1</code> <code>1,2</code>)</span>`,
			`<svg class="board-svg" viewBox="0 0 136 136"`, `<title id="board-initial-title">initial &lt;script&gt;`, "(role white) ; &lt;script&gt;"},
	},
	{
		name: "GameSymmetryError", page: web.PageGame,
		data: web.GameView{Game: web.Game{ID: 7, Name: "g"}, SymmetryError: "too big " + evil, SymmetryHint: "use the CLI"},
		want: []string{"The symmetries could not be computed:</strong> too big &lt;script&gt;", "<p>use the CLI</p>"},
	},
	{name: "ComparisonsEmpty", page: web.PageComparisons, data: web.ComparisonsView{}, want: []string{"No comparisons yet."}},
	{
		name: "Comparisons", page: web.PageComparisons,
		data: web.ComparisonsView{Comparisons: []web.Comparison{{ID: 5, A: 1, B: 2, Status: "running"}}, Status: "running", GameID: 1, Statuses: []string{"queued", "running"}, Next: 5},
		want: []string{`<option value="running" selected>`, `value="1"`, `href="/comparisons?status=running&amp;game=1&amp;cursor=5"`, `<a href="/games/1">game 1</a>`},
	},
	{
		name: "ComparisonsNamed", page: web.PageComparisons,
		data: web.ComparisonsView{Comparisons: []web.Comparison{{ID: 5, A: 1, B: 2, NameA: "ttt", NameB: evil, Status: "running", Stalled: true}}, GameID: 1, GameName: "ttt"},
		want: []string{`<a href="/games/1">ttt</a>`, `<a href="/games/2">&lt;script&gt;`, "(worker lost)", `Showing comparisons with <a href="/games/1">ttt</a>`},
	},
	{
		name: "ComparisonRunning", page: web.PageComparison,
		data: web.ComparisonView{Comparison: web.Comparison{ID: 9, A: 1, B: 2, Status: "running", Phase: "search", Candidates: 3, Fraction: 0.456, CanCancel: true}, PollInterval: "2s"},
		want: []string{`hx-trigger="every 2s"`, `<progress max="100" value="46"`, `<span id="phase">search</span>`, "3 candidate mappings examined", "Cancel this comparison"},
	},
	{
		name: "ComparisonOfAnother", page: web.PageComparison,
		data:   web.ComparisonView{Comparison: web.Comparison{ID: 9, A: 1, B: 2, Status: "running", Owner: "bob" + evil}},
		want:   []string{"by bob&lt;script&gt;"},
		absent: []string{"Cancel this comparison"},
	},
	{
		name: "GameOwned", page: web.PageGame,
		data: web.GameView{Game: web.Game{ID: 7, Name: "g" + evil, Owner: "alice"}, CanChange: true},
		want: []string{"by alice", `action="/games/7/rename"`, `action="/games/7/delete"`, `name="confirm"`, "Yes, delete g&lt;script&gt;"},
	},
	{
		name: "GameOfAnother", page: web.PageGame,
		data:   web.GameView{Game: web.Game{ID: 7, Name: "g", Owner: "bob"}},
		want:   []string{"by bob"},
		absent: []string{"/games/7/delete", "/games/7/rename"},
	},
	{
		name: "Login", page: web.PageLogin,
		data: web.LoginView{Next: "/games?q=" + evil, Error: "unknown " + evil},
		want: []string{`action="/login"`, `type="password"`, `name="next" value="/games?q=&lt;script&gt;`, "Not signed in:</strong> unknown &lt;script&gt;"},
	},
	{
		name: "ComparisonSubProgress", page: web.PageComparison,
		data: web.ComparisonView{Comparison: web.Comparison{ID: 9, A: 1, B: 2, Status: "running", Phase: "graph", Step: "analysing " + evil,
			Done: 120, Total: 480, Unit: "functions", Elapsed: "2 min 5 s"}},
		want: []string{`<span id="step">analysing &lt;script&gt;`, `<progress max="480" value="120"`, "120 of 480 functions", `<dd id="elapsed">2 min 5 s</dd>`},
	},
	{
		name: "ComparisonStalled", page: web.PageComparison,
		data: web.ComparisonView{Comparison: web.Comparison{ID: 9, A: 1, B: 2, Status: "running", Phase: "search", Stalled: true, LeaseUntil: when, Attempts: 1}},
		want: []string{"Waiting to be retried.", "2026-11-23 12:00:00 UTC", "1 attempt so far"},
	},
	{
		name: "ComparisonBoards", page: web.PageComparison,
		data: web.ComparisonView{Comparison: web.Comparison{ID: 9, A: 1, B: 2, Status: "done", Verdict: "equivalent", Limits: "{}",
			Mapping: &web.Mapping{Roles: []web.Pair{{From: "x", To: "w"}}},
			Boards: &web.BoardPair{
				A:        web.NewBoard("board-a", "A", []string{"1"}, []string{"1", "2"}, []web.BoardCell{{Label: "7"}}),
				B:        web.NewBoard("board-b", "B", []string{""}, []string{"7", "8"}, []web.BoardCell{{Label: "7", Corner: "1,1"}}),
				Contents: []web.Pair{{From: "x", To: evil}},
			}}},
		want: []string{`<div class="board-pair">`, `<figure class="board" id="board-a">`, `<figure class="board" id="board-b">`, "<summary>Every role, action and proposition</summary>", "<code>&lt;script&gt;"},
	},
	{
		name: "ComparisonBoardNote", page: web.PageComparison,
		data: web.ComparisonView{Comparison: web.Comparison{ID: 9, A: 1, B: 2, Status: "done", Verdict: "equivalent", Limits: "{}",
			Mapping: &web.Mapping{Roles: []web.Pair{{From: "x", To: "w"}}}, BoardNote: "No boards " + evil}},
		want: []string{`<p class="note">No boards &lt;script&gt;`, "<h3>Roles</h3>"},
	},
	{
		name: "ComparisonDone", page: web.PageComparison,
		data: web.ComparisonView{Comparison: web.Comparison{
			ID: 9, A: 1, B: 2, NameA: evil, Status: "done", Verdict: "not_equivalent", Reason: "goal " + evil, Limits: "{}",
			Stats: &web.Stats{Phases: []web.Phase{{Name: "ground", Ms: 1.25}}},
		}},
		want: []string{`verdict-not-equivalent">not equivalent`, "goal &lt;script&gt;", "<dd>1.2 ms</dd>"},
	},
	{
		name: "Compare", page: web.PageCompare,
		data: web.CompareView{PickB: web.Picker{Query: evil, Games: []gamequiv.Member{{ID: 4, Name: evil}}, More: true}, B: web.Side{ID: 4}},
		want: []string{`<option value="4" selected>&lt;script&gt;alert(1)&lt;/script&gt; (game 4)</option>`, `name="b_q" form="pick"`,
			`value="&lt;script&gt;alert(1)&lt;/script&gt;"`, `<input type="hidden" form="pick" name="b" value="4">`, "Only the first 1 are listed"},
	},
	{
		name: "CompareError", page: web.PageCompare,
		data: web.CompareView{A: web.Side{Name: evil, GDL: "</textarea>" + evil}, Error: "bad " + evil, Side: "A", Errors: []web.FieldError{{Line: 2, Col: 3, Message: "x"}, {Message: "y"}}},
		want: []string{`role="alert"`, "(game A)", "bad &lt;script&gt;", "<li>line 2, column 3: x</li>", "<li>y</li>", "&lt;/textarea&gt;&lt;script&gt;"},
	},
	{name: "Error", page: web.PageError, data: web.ErrorView{Status: 404, Title: "Not Found", Detail: evil}, want: []string{"404 Not Found", "&lt;script&gt;"}},
}

// TestRenderViewer checks the sign-in and sign-out entries of the
// navigation, shown only with access control (a Viewer).
func TestRenderViewer(t *testing.T) {
	for _, tc := range []struct {
		viewer       *web.Viewer
		want, absent string
	}{
		{nil, "", "Sign"},
		{&web.Viewer{}, `<a href="/login">Sign in</a>`, "Sign out"},
		{&web.Viewer{Name: "alice" + evil, Admin: true}, "Signed in as <strong>alice&lt;script&gt;alert(1)&lt;/script&gt;</strong> (admin)", "Sign in"},
	} {
		var buf bytes.Buffer
		if err := web.Render(&buf, web.PageHome, web.View{Title: "T", Data: web.HomeView{}, Viewer: tc.viewer}); err != nil {
			t.Fatal(err)
		}
		got := buf.String()
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.absent) {
			t.Errorf("Render(viewer %+v): want %q and no %q in:\n%s", tc.viewer, tc.want, tc.absent, got)
		}
	}
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
			for _, absent := range tc.absent {
				if strings.Contains(got, absent) {
					t.Errorf("Render(%s) has %q:\n%s", tc.page, absent, got)
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

var cyclesTests = []struct {
	m    map[string]string
	want string
}{
	{map[string]string{}, "()"},
	{map[string]string{"a": "a", "b": "b"}, "()"},
	{map[string]string{"a": "b", "b": "a", "c": "c"}, "(a b)"},
	{map[string]string{"c": "a", "a": "b", "b": "c", "x": "y", "y": "x"}, "(a b c)(x y)"},
	// Not a permutation: the path stops where the map does.
	{map[string]string{"a": "b"}, "(a b)"},
}

func TestCycles(t *testing.T) {
	for _, tc := range cyclesTests {
		if got := web.CycleText(web.Cycles(tc.m)); got != tc.want {
			t.Errorf("Cycles(%v) = %s, want %s", tc.m, got, tc.want)
		}
	}
}

func TestNewBoard(t *testing.T) {
	b := web.NewBoard("b", "t", []string{""}, []string{"1", "2", "3"}, []web.BoardCell{{Col: 2, Label: "available"}})
	if b.Width != 3*56+2 || b.Height != 22+56+2 {
		t.Errorf("size %dx%d", b.Width, b.Height)
	}
	if len(b.Axis) != 3 {
		t.Errorf("a one-dimensional board has %d axis labels, want 3 (no row names)", len(b.Axis))
	}
	if c := b.Cells[0]; c.X != 2*56+1 || c.Label != "available" || c.FontSize != 10 {
		t.Errorf("cell %+v", c)
	}
	long := web.NewBoard("b", "t", []string{""}, []string{"1"}, []web.BoardCell{{Label: "abcdefghijkl"}})
	if got := long.Cells[0].Label; got != "abcdefgh…" {
		t.Errorf("long label = %q", got)
	}
	b.AddArrow(0, 0, 0, 2)
	b.AddArrow(0, 1, 0, 1) // to itself: nothing
	if len(b.Arrows) != 1 || !strings.HasPrefix(b.Arrows[0].D, "M41.0 51.0 Q") {
		t.Errorf("arrows %+v", b.Arrows)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second:                   "0 ms",
		250 * time.Millisecond:         "250 ms",
		45 * time.Second:               "45 s",
		125 * time.Second:              "2 min 5 s",
		time.Hour + 3*time.Minute + 59: "1 h 3 min",
	} {
		if got := web.FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
