package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/api"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/store"
)

// TestMain runs the tests and then, when all of them ran, checks that
// every operation of the OpenAPI document was exercised.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" && !testing.Short() {
		doc, err := loadDoc()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var missing []string
		for path, item := range doc.Paths.Map() {
			for method := range item.Operations() {
				if !covered[method+" "+path] {
					missing = append(missing, method+" "+path)
				}
			}
		}
		if len(missing) > 0 {
			slices.Sort(missing)
			fmt.Fprintf(os.Stderr, "operations of openapi.yaml no test exercised: %v\n", missing)
			code = 1
		}
	}
	os.Exit(code)
}

func TestHealthz(t *testing.T) {
	s := newTestServer(t, nil)
	res := s.do("GET", "/healthz", nil)
	mustStatus(t, res, http.StatusOK)
	if got, want := string(res.Body), `{"status":"ok"}`; got != want {
		t.Errorf("GET /healthz = %s, want %s", got, want)
	}
}

func TestReadyz(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := newTestServer(t, nil)
		mustStatus(t, s.do("GET", "/readyz", nil), http.StatusOK)
	})
	t.Run("ErrClosed", func(t *testing.T) {
		s := newTestServer(t, nil)
		s.DB.Close()
		res := s.do("GET", "/readyz", nil)
		mustStatus(t, res, http.StatusServiceUnavailable)
		if p := res.Problem(t); p.Code != api.CodeUnavailable {
			t.Errorf("code = %q, want %q", p.Code, api.CodeUnavailable)
		}
	})
}

func TestCreateGame(t *testing.T) {
	s := newTestServer(t, nil)
	t.Run("OK", func(t *testing.T) {
		res := s.do("POST", "/api/v1/games", map[string]string{"name": "buttons", "gdl": buttonsGDL})
		mustStatus(t, res, http.StatusCreated)
		var g game
		res.JSON(t, &g)
		if g.ID == 0 || g.Name != "buttons" || len(g.SHA256) != 64 {
			t.Errorf("game = %+v", g)
		}
		if got, want := res.Header.Get("Location"), "/api/v1/games/"+strconv.FormatInt(g.ID, 10); got != want {
			t.Errorf("Location = %q, want %q", got, want)
		}
		want := map[string]any{"roles": []any{"robot"}, "propositions": 2.0, "actions": map[string]any{"robot": 2.0}, "functions": 7.0, "circuit_nodes": 10.0}
		for k, v := range want {
			if got := fmt.Sprint(g.Stats[k]); got != fmt.Sprint(v) {
				t.Errorf("stats[%s] = %s, want %v", k, got, v)
			}
		}
		if g.GDL != "" {
			t.Errorf("POST /games echoes the GDL")
		}
	})
	t.Run("SameTextTwice", func(t *testing.T) {
		first := s.uploadGame("one", otherGDL)
		res := s.do("POST", "/api/v1/games", map[string]string{"name": "two", "gdl": otherGDL})
		mustStatus(t, res, http.StatusOK)
		var g game
		res.JSON(t, &g)
		if g.ID != first.ID || g.Name != "one" {
			t.Errorf("second upload = %+v, want game %d named one", g, first.ID)
		}
	})
	t.Run("DefaultName", func(t *testing.T) {
		g := s.uploadGame("", renamedGDL)
		if g.Name != gamequiv.DefaultGameName {
			t.Errorf("name = %q, want %q", g.Name, gamequiv.DefaultGameName)
		}
	})
}

var gameErrorTests = []struct {
	name       string
	body       string
	status     int
	code       string
	line, col  int
	errors     int
	detailLike string
}{
	{"ErrMalformedJSON", `{"gdl": `, 400, api.CodeMalformedJSON, 0, 0, 0, "not valid JSON"},
	{"ErrNotJSON", `(role robot)`, 400, api.CodeMalformedJSON, 0, 0, 0, "not valid JSON"},
	{"ErrEmptyBody", ``, 400, api.CodeMalformedJSON, 0, 0, 0, "empty"},
	{"ErrTrailingData", `{"gdl":"(role r)"} {}`, 400, api.CodeMalformedJSON, 0, 0, 0, "after the JSON value"},
	{"ErrUnknownField", `{"gdl":"(role r)","rules":1}`, 400, api.CodeInvalid, 0, 0, 0, `unknown field "rules"`},
	{"ErrWrongType", `{"gdl":5}`, 400, api.CodeInvalid, 0, 0, 0, "gdl: want string"},
	{"ErrGDLRequired", `{"name":"x"}`, 422, api.CodeInvalidGDL, 1, 1, 1, "x:1:1: empty game description"},
	{"ErrNUL", `{"gdl":"(role r)\u0000"}`, 422, api.CodeInvalidGDL, 1, 9, 1, "untitled:1:9: invalid control character U+0000"},
	{"ErrNameTooLong", `{"name":"` + strings.Repeat("n", 201) + `","gdl":"(role r)"}`, 400, api.CodeInvalid, 0, 0, 0, "name: at most 200"},
	{"ErrUnsafeVariable", mustJSON(map[string]string{"name": "bad.kif", "gdl": unsafeGDL}), 422, api.CodeInvalidGDL, 3, 5, 2, "bad.kif:3:5: unsafe variable ?x"},
	{"ErrUnclosed", mustJSON(map[string]string{"name": "bad2.kif", "gdl": unclosedGDL}), 422, api.CodeInvalidGDL, 2, 1, 1, "bad2.kif:2:1: unclosed"},
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestCreateGameErrors(t *testing.T) {
	s := newTestServer(t, nil)
	for _, tc := range gameErrorTests {
		t.Run(tc.name, func(t *testing.T) {
			res := s.do("POST", "/api/v1/games", tc.body)
			mustStatus(t, res, tc.status)
			p := res.Problem(t)
			if p.Code != tc.code || p.Status != tc.status || p.Type != "urn:gamequiv:problem:"+tc.code || p.Title == "" {
				t.Errorf("problem = %+v, want code %s status %d", p, tc.code, tc.status)
			}
			if !strings.Contains(p.Detail, tc.detailLike) {
				t.Errorf("detail = %q, want it to contain %q", p.Detail, tc.detailLike)
			}
			if p.Line != tc.line || p.Col != tc.col {
				t.Errorf("line:col = %d:%d, want %d:%d", p.Line, p.Col, tc.line, tc.col)
			}
			if len(p.Errors) != tc.errors {
				t.Errorf("errors = %+v, want %d", p.Errors, tc.errors)
			}
			if p.RequestID == "" || p.RequestID != res.Header.Get(api.RequestIDHeader) {
				t.Errorf("request_id = %q, header %q", p.RequestID, res.Header.Get(api.RequestIDHeader))
			}
		})
	}
}

func TestCreateGameTooLarge(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) { d.Limits.MaxBody = 1000 })
	t.Run("AtLimit", func(t *testing.T) {
		// A body of exactly MaxBody bytes is accepted.
		pad := 1000 - len(mustJSON(map[string]string{"name": "", "gdl": buttonsGDL}))
		body := mustJSON(map[string]string{"name": strings.Repeat("n", pad), "gdl": buttonsGDL})
		if len(body) != 1000 {
			t.Fatalf("body is %d bytes", len(body))
		}
		res := s.do("POST", "/api/v1/games", body)
		if res.Status == http.StatusRequestEntityTooLarge {
			t.Fatalf("a body of exactly MaxBody bytes got 413")
		}
	})
	t.Run("ErrOverLimit", func(t *testing.T) {
		body := mustJSON(map[string]string{"name": "big", "gdl": buttonsGDL + strings.Repeat(" ", 1000)})
		res := s.do("POST", "/api/v1/games", body)
		mustStatus(t, res, http.StatusRequestEntityTooLarge)
		if p := res.Problem(t); p.Code != api.CodeTooLarge {
			t.Errorf("code = %q, want %q", p.Code, api.CodeTooLarge)
		}
	})
}

func TestMaxGDL(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) { d.Limits.MaxGDL = int64(len(buttonsGDL)) })
	t.Run("AtLimit", func(t *testing.T) {
		mustStatus(t, s.do("POST", "/api/v1/games", map[string]string{"gdl": buttonsGDL}), http.StatusCreated)
	})
	for _, tc := range []struct{ name, path string }{{"ErrUpload", "/api/v1/games"}, {"ErrInline", "/api/v1/comparisons"}} {
		t.Run(tc.name, func(t *testing.T) {
			game := map[string]string{"gdl": buttonsGDL + " "}
			var body any = game
			if tc.path == "/api/v1/comparisons" {
				body = map[string]any{"a": game, "b": game}
			}
			res := s.do("POST", tc.path, body)
			mustStatus(t, res, http.StatusRequestEntityTooLarge)
			if p := res.Problem(t); p.Code != api.CodeTooLarge {
				t.Errorf("code = %q, want %q", p.Code, api.CodeTooLarge)
			}
		})
	}
}

func TestCreateGameLimit(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) {
		d.Limits.Game = equiv.Limits{Ground: grounding.Limits{MaxAtoms: 3}}
	})
	res := s.do("POST", "/api/v1/games", map[string]string{"gdl": buttonsGDL})
	mustStatus(t, res, http.StatusUnprocessableEntity)
	p := res.Problem(t)
	if p.Code != api.CodeLimit || p.Limit != "MaxAtoms" {
		t.Errorf("problem = %+v, want code %s limit MaxAtoms", p, api.CodeLimit)
	}
}

func TestListGames(t *testing.T) {
	s := newTestServer(t, nil)
	a := s.uploadGame("a", buttonsGDL)
	b := s.uploadGame("b", renamedGDL)
	c := s.uploadGame("c", otherGDL)

	res := s.do("GET", "/api/v1/games?limit=2", nil)
	mustStatus(t, res, http.StatusOK)
	var page1 list[game]
	res.JSON(t, &page1)
	if len(page1.Items) != 2 || page1.Items[0].ID != a.ID || page1.Items[1].ID != b.ID || page1.NextCursor == 0 {
		t.Fatalf("page 1 = %+v", page1)
	}
	if page1.Items[0].GDL != "" {
		t.Errorf("list includes GDL")
	}
	res = s.do("GET", "/api/v1/games?limit=2&cursor="+strconv.FormatInt(page1.NextCursor, 10), nil)
	mustStatus(t, res, http.StatusOK)
	var page2 list[game]
	res.JSON(t, &page2)
	if len(page2.Items) != 1 || page2.Items[0].ID != c.ID || page2.NextCursor != 0 {
		t.Errorf("page 2 = %+v", page2)
	}
	for _, q := range []string{"limit=-1", "limit=x", "cursor=-5", "limit=501"} {
		res := s.do("GET", "/api/v1/games?"+q, nil)
		mustStatus(t, res, http.StatusBadRequest)
		if p := res.Problem(t); p.Code != api.CodeInvalid {
			t.Errorf("GET /games?%s code = %q", q, p.Code)
		}
	}
}

func TestGetGame(t *testing.T) {
	s := newTestServer(t, nil)
	up := s.uploadGame("buttons", buttonsGDL)
	t.Run("OK", func(t *testing.T) {
		res := s.do("GET", "/api/v1/games/"+strconv.FormatInt(up.ID, 10), nil)
		mustStatus(t, res, http.StatusOK)
		var g game
		res.JSON(t, &g)
		if g.ID != up.ID || g.GDL != buttonsGDL || g.ClassID != 0 {
			t.Errorf("game = %+v", g)
		}
	})
	t.Run("WithClass", func(t *testing.T) {
		cl, err := s.DB.NewClass(context.Background(), up.ID)
		if err != nil {
			t.Fatal(err)
		}
		var g game
		s.do("GET", "/api/v1/games/"+strconv.FormatInt(up.ID, 10), nil).JSON(t, &g)
		if g.ClassID != cl.ID {
			t.Errorf("class_id = %d, want %d", g.ClassID, cl.ID)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		res := s.do("GET", "/api/v1/games/999", nil)
		mustStatus(t, res, http.StatusNotFound)
		if p := res.Problem(t); p.Code != api.CodeNotFound {
			t.Errorf("code = %q", p.Code)
		}
	})
	t.Run("ErrBadID", func(t *testing.T) {
		for _, id := range []string{"x", "0", "-1", "99999999999999999999"} {
			res := s.do("GET", "/api/v1/games/"+id, nil)
			mustStatus(t, res, http.StatusBadRequest)
			if p := res.Problem(t); p.Code != api.CodeInvalid {
				t.Errorf("GET /games/%s code = %q", id, p.Code)
			}
		}
	})
}

func TestSymmetries(t *testing.T) {
	s := newTestServer(t, nil)
	g := s.uploadGame("buttons", buttonsGDL)
	path := "/api/v1/games/" + strconv.FormatInt(g.ID, 10) + "/symmetries"
	var first, second equiv.SymmetryReport
	res := s.do("GET", path, nil)
	mustStatus(t, res, http.StatusOK)
	res.JSON(t, &first)
	if first.Order != "2" || len(first.Generators) != 1 || first.RoleSymmetric {
		t.Errorf("symmetries = %+v, want order 2 with one generator", first)
	}
	if got := first.Generators[0].Propositions["(on a)"]; got != "(on b)" {
		t.Errorf("generator maps (on a) to %q, want (on b)", got)
	}
	if _, err := s.DB.GetSymmetries(context.Background(), g.ID); err != nil {
		t.Errorf("symmetries not stored: %v", err)
	}
	s.do("GET", path, nil).JSON(t, &second)
	if second.Order != first.Order {
		t.Errorf("second answer %+v differs from first %+v", second, first)
	}
	mustStatus(t, s.do("GET", "/api/v1/games/77/symmetries", nil), http.StatusNotFound)
}

func TestCreateComparison(t *testing.T) {
	s := newTestServer(t, nil)
	a := s.uploadGame("buttons", buttonsGDL)
	b := s.uploadGame("renamed", renamedGDL)
	var byID comparison
	t.Run("ByID", func(t *testing.T) {
		res := s.do("POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID})
		mustStatus(t, res, http.StatusAccepted)
		res.JSON(t, &byID)
		if byID.ID == 0 || byID.Status != "queued" || byID.A != a.ID || byID.B != b.ID || byID.Progress.Phase != "queued" {
			t.Errorf("comparison = %+v", byID)
		}
		if got, want := res.Header.Get("Location"), "/api/v1/comparisons/"+strconv.FormatInt(byID.ID, 10); got != want {
			t.Errorf("Location = %q, want %q", got, want)
		}
	})
	t.Run("Idempotent", func(t *testing.T) {
		res := s.do("POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID})
		mustStatus(t, res, http.StatusAccepted)
		if got, want := res.Header.Get("Location"), "/api/v1/comparisons/"+strconv.FormatInt(byID.ID, 10); got != want {
			t.Errorf("Location = %q, want %q", got, want)
		}
		var again comparison
		res.JSON(t, &again)
		if again.ID != byID.ID {
			t.Errorf("resubmission got comparison %d, want %d", again.ID, byID.ID)
		}
	})
	t.Run("OtherLimitsAreAnotherComparison", func(t *testing.T) {
		res := s.do("POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID, "limits": map[string]any{"timeout_ms": 5000}})
		mustStatus(t, res, http.StatusAccepted)
		var other comparison
		res.JSON(t, &other)
		if other.ID == byID.ID {
			t.Errorf("comparison with limits reused %d", byID.ID)
		}
	})
	t.Run("Inline", func(t *testing.T) {
		res := s.do("POST", "/api/v1/comparisons", map[string]any{
			"a": a.ID,
			"b": map[string]string{"name": "other", "gdl": otherGDL},
		})
		mustStatus(t, res, http.StatusAccepted)
		var c comparison
		res.JSON(t, &c)
		g, err := s.DB.GetGame(context.Background(), c.B)
		if err != nil || g.Name != "other" || string(g.GDL) != otherGDL {
			t.Errorf("inline game %d = %+v, %v", c.B, g, err)
		}
	})
	t.Run("InlineSameAsStored", func(t *testing.T) {
		res := s.do("POST", "/api/v1/comparisons", map[string]any{
			"a": map[string]string{"gdl": buttonsGDL},
			"b": b.ID,
		})
		mustStatus(t, res, http.StatusAccepted)
		var c comparison
		res.JSON(t, &c)
		if c.ID != byID.ID {
			t.Errorf("inline copy of game %d made comparison %d, want %d", a.ID, c.ID, byID.ID)
		}
	})
}

var comparisonErrorTests = []struct {
	name      string
	body      string
	status    int
	code      string
	line, col int
}{
	{"ErrMalformed", `{"a":1,`, 400, api.CodeMalformedJSON, 0, 0},
	{"ErrMissingB", `{"a":1}`, 400, api.CodeInvalid, 0, 0},
	{"ErrNullA", `{"a":null,"b":1}`, 400, api.CodeInvalid, 0, 0},
	{"ErrRefString", `{"a":"one","b":1}`, 400, api.CodeInvalid, 0, 0},
	{"ErrRefZero", `{"a":0,"b":1}`, 400, api.CodeInvalid, 0, 0},
	{"ErrRefFloat", `{"a":1.5,"b":1}`, 400, api.CodeInvalid, 0, 0},
	{"ErrInlineUnknownField", `{"a":{"gdl":"(role r)","x":1},"b":1}`, 400, api.CodeInvalid, 0, 0},
	{"ErrInlineEmpty", `{"a":{"gdl":""},"b":1}`, 422, api.CodeInvalidGDL, 1, 1},
	{"ErrNegativeLimits", `{"a":1,"b":1,"limits":{"timeout_ms":-1}}`, 400, api.CodeInvalid, 0, 0},
	{"ErrUnknownLimit", `{"a":1,"b":1,"limits":{"depth":3}}`, 400, api.CodeInvalid, 0, 0},
	{"ErrGameNotFound", `{"a":1,"b":404}`, 404, api.CodeNotFound, 0, 0},
	{"ErrInlineInvalidGDL", mustJSON(map[string]any{"a": 1, "b": map[string]string{"name": "bad.kif", "gdl": unsafeGDL}}), 422, api.CodeInvalidGDL, 3, 5},
}

func TestCreateComparisonErrors(t *testing.T) {
	s := newTestServer(t, nil)
	s.uploadGame("buttons", buttonsGDL)
	for _, tc := range comparisonErrorTests {
		t.Run(tc.name, func(t *testing.T) {
			res := s.do("POST", "/api/v1/comparisons", tc.body)
			mustStatus(t, res, tc.status)
			p := res.Problem(t)
			if p.Code != tc.code || p.Line != tc.line || p.Col != tc.col {
				t.Errorf("problem = %+v, want code %s at %d:%d", p, tc.code, tc.line, tc.col)
			}
		})
	}
}

func TestCreateComparisonQueueFull(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) {
		d.Limits.MaxQueue = 1
		d.Limits.QueueRetryAfter = 1500 * time.Millisecond
	})
	a := s.uploadGame("a", buttonsGDL)
	b := s.uploadGame("b", renamedGDL)
	mustStatus(t, s.do("POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID}), http.StatusAccepted)
	res := s.do("POST", "/api/v1/comparisons", map[string]any{"a": b.ID, "b": a.ID})
	mustStatus(t, res, http.StatusTooManyRequests)
	if p := res.Problem(t); p.Code != api.CodeQueueFull {
		t.Errorf("code = %q, want %q", p.Code, api.CodeQueueFull)
	}
	if got := res.Header.Get("Retry-After"); got != "2" {
		t.Errorf("Retry-After = %q, want 2", got)
	}
}

// runJob plays a worker: it claims the next job, reports progress and
// finishes it with the outcome.
func runJob(t *testing.T, db *store.DB, o store.Outcome) *store.Comparison {
	t.Helper()
	ctx := context.Background()
	c, err := db.Claim(ctx, "test-worker", time.Minute)
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	if o.Status == "" {
		return c
	}
	if err := db.Finish(ctx, c.ID, "test-worker", o); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	return c
}

func TestGetComparison(t *testing.T) {
	s := newTestServer(t, nil)
	a := s.uploadGame("a", buttonsGDL)
	b := s.uploadGame("b", renamedGDL)
	var c comparison
	s.do("POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID}).JSON(t, &c)
	path := "/api/v1/comparisons/" + strconv.FormatInt(c.ID, 10)

	var got comparison
	s.do("GET", path, nil).JSON(t, &got)
	if got.Status != "queued" || got.Progress.Phase != "queued" || got.Result != nil {
		t.Errorf("queued comparison = %+v", got)
	}

	ctx := context.Background()
	job := runJob(t, s.DB, store.Outcome{})
	prog, _ := json.Marshal(equiv.Progress{Phase: "search", Candidates: 3, Fraction: 0.4, Step: "searching", Done: 70, Unit: equiv.UnitNodes})
	if _, err := s.DB.Heartbeat(ctx, job.ID, "test-worker", time.Minute, store.Progress{Phase: "search", Candidates: 3, JSON: prog}); err != nil {
		t.Fatal(err)
	}
	s.do("GET", path, nil).JSON(t, &got)
	if got.Status != "running" || got.Progress.Phase != "search" || got.Progress.Candidates != 3 || got.Progress.Fraction != 0.4 ||
		got.Progress.Step != "searching" || got.Progress.Done != 70 || got.Progress.Unit != equiv.UnitNodes {
		t.Errorf("running comparison = %+v", got)
	}

	rep, err := equiv.Compare(ctx, equiv.Source{Name: "a", GDL: []byte(buttonsGDL)}, equiv.Source{Name: "b", GDL: []byte(renamedGDL)}, equiv.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(rep)
	if err := s.DB.Finish(ctx, job.ID, "test-worker", store.Outcome{Status: store.StatusDone, Verdict: string(rep.Verdict), Result: raw}); err != nil {
		t.Fatal(err)
	}
	res := s.do("GET", path, nil)
	mustStatus(t, res, http.StatusOK)
	res.JSON(t, &got)
	if got.Status != "done" || got.Verdict != "equivalent" || got.Progress.Fraction != 1 || got.Progress.Phase != "done" ||
		got.Progress.Candidates != rep.Stats.Candidates {
		t.Errorf("done comparison = %+v", got)
	}
	var report equiv.Report
	if err := json.Unmarshal(got.Result, &report); err != nil || report.Mapping.Propositions["(on a)"] != "(lit x)" {
		t.Errorf("result = %s (%v), want a mapping of (on a) to (lit x)", got.Result, err)
	}

	mustStatus(t, s.do("GET", "/api/v1/comparisons/12345", nil), http.StatusNotFound)
	mustStatus(t, s.do("GET", "/api/v1/comparisons/abc", nil), http.StatusBadRequest)
}

func TestListComparisons(t *testing.T) {
	s := newTestServer(t, nil)
	a := s.uploadGame("a", buttonsGDL)
	b := s.uploadGame("b", renamedGDL)
	c := s.uploadGame("c", otherGDL)
	for _, pair := range [][2]int64{{a.ID, b.ID}, {a.ID, c.ID}, {b.ID, c.ID}} {
		mustStatus(t, s.do("POST", "/api/v1/comparisons", map[string]any{"a": pair[0], "b": pair[1]}), http.StatusAccepted)
	}
	runJob(t, s.DB, store.Outcome{Status: store.StatusFailed, Error: "boom"})

	var all list[comparison]
	s.do("GET", "/api/v1/comparisons", nil).JSON(t, &all)
	if len(all.Items) != 3 || all.Items[0].ID < all.Items[2].ID {
		t.Errorf("list = %+v, want 3, newest first", all.Items)
	}
	var failed list[comparison]
	s.do("GET", "/api/v1/comparisons?status=failed", nil).JSON(t, &failed)
	if len(failed.Items) != 1 || failed.Items[0].Error != "boom" || failed.Items[0].Progress.Phase != "failed" {
		t.Errorf("failed = %+v", failed.Items)
	}
	var withC list[comparison]
	s.do("GET", "/api/v1/comparisons?game="+strconv.FormatInt(c.ID, 10), nil).JSON(t, &withC)
	if len(withC.Items) != 2 {
		t.Errorf("with game c = %+v", withC.Items)
	}
	var paged list[comparison]
	s.do("GET", "/api/v1/comparisons?limit=2", nil).JSON(t, &paged)
	if len(paged.Items) != 2 || paged.NextCursor == 0 {
		t.Errorf("page = %+v", paged)
	}
	res := s.do("GET", "/api/v1/comparisons?status=bogus", nil)
	mustStatus(t, res, http.StatusBadRequest)
	if p := res.Problem(t); p.Code != api.CodeInvalid {
		t.Errorf("code = %q", p.Code)
	}
}

func TestCancelComparison(t *testing.T) {
	s := newTestServer(t, nil)
	a := s.uploadGame("a", buttonsGDL)
	b := s.uploadGame("b", renamedGDL)
	var queued, running comparison
	s.do("POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID}).JSON(t, &running)
	runJob(t, s.DB, store.Outcome{}) // running now
	s.do("POST", "/api/v1/comparisons", map[string]any{"a": b.ID, "b": a.ID}).JSON(t, &queued)

	t.Run("Queued", func(t *testing.T) {
		res := s.do("DELETE", "/api/v1/comparisons/"+strconv.FormatInt(queued.ID, 10), nil)
		mustStatus(t, res, http.StatusOK)
		var c comparison
		res.JSON(t, &c)
		if c.Status != "cancelled" {
			t.Errorf("status = %q, want cancelled", c.Status)
		}
		if want := fmt.Sprintf(`"level":"INFO","msg":"job cancelled","comparison":%d`, queued.ID); !strings.Contains(s.Log.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, s.Log)
		}
	})
	t.Run("Running", func(t *testing.T) {
		res := s.do("DELETE", "/api/v1/comparisons/"+strconv.FormatInt(running.ID, 10), nil)
		mustStatus(t, res, http.StatusOK)
		var c comparison
		res.JSON(t, &c)
		if c.Status != "running" || !c.CancelRequested {
			t.Errorf("comparison = %+v, want running with cancel_requested", c)
		}
		if want := fmt.Sprintf(`"level":"INFO","msg":"job cancel requested","comparison":%d`, running.ID); !strings.Contains(s.Log.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, s.Log)
		}
	})
	t.Run("ErrFinished", func(t *testing.T) {
		res := s.do("DELETE", "/api/v1/comparisons/"+strconv.FormatInt(queued.ID, 10), nil)
		mustStatus(t, res, http.StatusConflict)
		if p := res.Problem(t); p.Code != api.CodeConflict {
			t.Errorf("code = %q", p.Code)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		mustStatus(t, s.do("DELETE", "/api/v1/comparisons/999", nil), http.StatusNotFound)
	})
}

func TestClasses(t *testing.T) {
	s := newTestServer(t, nil)
	ctx := context.Background()
	a := s.uploadGame("a", buttonsGDL)
	b := s.uploadGame("b", renamedGDL)
	c := s.uploadGame("c", otherGDL)
	ab, err := s.DB.NewClass(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DB.AssignClass(ctx, b.ID, ab.ID); err != nil {
		t.Fatal(err)
	}
	cc, err := s.DB.NewClass(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}

	res := s.do("GET", "/api/v1/classes", nil)
	mustStatus(t, res, http.StatusOK)
	type class struct {
		ID             int64 `json:"id"`
		Representative int64 `json:"representative"`
		Members        []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"members"`
	}
	var l list[class]
	res.JSON(t, &l)
	if len(l.Items) != 2 || l.Items[0].ID != ab.ID || len(l.Items[0].Members) != 2 || l.Items[0].Representative != a.ID ||
		l.Items[1].ID != cc.ID || len(l.Items[1].Members) != 1 {
		t.Errorf("classes = %+v", l.Items)
	}
	var one class
	res = s.do("GET", "/api/v1/classes/"+strconv.FormatInt(ab.ID, 10), nil)
	mustStatus(t, res, http.StatusOK)
	res.JSON(t, &one)
	if one.ID != ab.ID || len(one.Members) != 2 || one.Members[1].Name != "b" {
		t.Errorf("class = %+v", one)
	}
	var paged list[class]
	s.do("GET", "/api/v1/classes?limit=1", nil).JSON(t, &paged)
	if len(paged.Items) != 1 || paged.NextCursor != ab.ID {
		t.Errorf("page = %+v", paged)
	}
	mustStatus(t, s.do("GET", "/api/v1/classes/999", nil), http.StatusNotFound)
	mustStatus(t, s.do("GET", "/api/v1/classes?cursor=x", nil), http.StatusBadRequest)
}

func TestOpenAPIDocument(t *testing.T) {
	if _, err := spec(); err != nil {
		t.Fatalf("openapi.yaml does not load and validate: %v", err)
	}
	s := newTestServer(t, nil)
	res := s.do("GET", "/api/v1/openapi.json", nil)
	mustStatus(t, res, http.StatusOK)
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	res.JSON(t, &doc)
	if doc.OpenAPI != "3.0.3" || doc.Paths["/api/v1/comparisons/{id}"]["delete"] == nil {
		t.Errorf("openapi.json = %.300s", res.Body)
	}
	res = s.do("GET", "/api/v1/openapi.yaml", nil)
	mustStatus(t, res, http.StatusOK)
	if string(res.Body) != string(api.OpenAPIYAML) {
		t.Errorf("openapi.yaml differs from the embedded document")
	}
}

// TestOpenAPIRoutes checks that every route of the server is documented
// and every documented operation is routed.
func TestOpenAPIRoutes(t *testing.T) {
	doc, err := loadDoc()
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	routed := map[string]bool{}
	for _, r := range api.Routes(newTestServer(t, nil).Handler) {
		path := r.Path
		for _, part := range strings.Split(path, "/") {
			if strings.HasPrefix(part, ":") {
				path = strings.Replace(path, part, "{"+part[1:]+"}", 1)
			}
		}
		routed[r.Method+" "+path] = true
	}
	for k := range routed {
		if !documented[k] {
			t.Errorf("route %s is not in openapi.yaml", k)
		}
	}
	for k := range documented {
		if !routed[k] {
			t.Errorf("operation %s of openapi.yaml has no route", k)
		}
	}
}

func TestNoRoute(t *testing.T) {
	s := newTestServer(t, nil)
	res := s.do("GET", "/api/v1/nope", nil)
	mustStatus(t, res, http.StatusNotFound)
	if p := res.Problem(t); p.Code != api.CodeNotFound {
		t.Errorf("code = %q", p.Code)
	}
	res = s.do("PUT", "/api/v1/games", "{}")
	mustStatus(t, res, http.StatusMethodNotAllowed)
	if p := res.Problem(t); p.Code != api.CodeMethodNotAllowed {
		t.Errorf("code = %q", p.Code)
	}
}

func TestRequestID(t *testing.T) {
	s := newTestServer(t, nil)
	res := s.do("GET", "/healthz", nil, api.RequestIDHeader, "abc-123")
	if got := res.Header.Get(api.RequestIDHeader); got != "abc-123" {
		t.Errorf("echoed request id = %q, want abc-123", got)
	}
	res = s.do("GET", "/healthz", nil, api.RequestIDHeader, "bad id\x01")
	if got := res.Header.Get(api.RequestIDHeader); got == "" || strings.Contains(got, " ") {
		t.Errorf("request id for a bad client id = %q, want a fresh one", got)
	}
	a := s.do("GET", "/healthz", nil).Header.Get(api.RequestIDHeader)
	b := s.do("GET", "/healthz", nil).Header.Get(api.RequestIDHeader)
	if a == b {
		t.Errorf("two requests got the same id %q", a)
	}
	if !strings.Contains(s.Log.String(), `"request_id":"abc-123"`) {
		t.Errorf("access log lacks the request id:\n%s", s.Log)
	}
}

func TestRateLimit(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) {
		d.Limits.RateLimit = 0.5
		d.Limits.RateBurst = 1
	})
	s.uploadGame("a", buttonsGDL)
	res := s.do("POST", "/api/v1/games", map[string]string{"gdl": renamedGDL})
	mustStatus(t, res, http.StatusTooManyRequests)
	if p := res.Problem(t); p.Code != api.CodeRateLimited {
		t.Errorf("code = %q", p.Code)
	}
	if ra, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 2 {
		t.Errorf("Retry-After = %q, want 1 or 2", res.Header.Get("Retry-After"))
	}
	// Reads are not limited.
	mustStatus(t, s.do("GET", "/api/v1/games", nil), http.StatusOK)
	// Form posts share the client's limit.
	res = s.getPage("POST", "/compare", bytes.NewBufferString("a=1&b=1"), "application/x-www-form-urlencoded", "Sec-Fetch-Site", "same-origin")
	mustHTML(t, res, http.StatusTooManyRequests)
	if res.Header.Get("Retry-After") == "" {
		t.Errorf("429 page without Retry-After")
	}
}

// faultyStore makes some store calls fail or panic.
type faultyStore struct {
	*store.DB
	err   error
	panic bool
}

func (f faultyStore) ListClasses(ctx context.Context, p store.Page) ([]store.Class, int64, error) {
	if f.panic {
		panic("store exploded")
	}
	return nil, 0, f.err
}

func TestStoreFailures(t *testing.T) {
	var tests = []struct {
		name   string
		fs     faultyStore
		status int
		code   string
		detail string
	}{
		{"Panic", faultyStore{panic: true}, 500, api.CodeInternal, "internal error"},
		{"Internal", faultyStore{err: errors.New("disk on fire")}, 500, api.CodeInternal, "internal error"},
		{"Deadline", faultyStore{err: fmt.Errorf("list: %w", context.DeadlineExceeded)}, 503, api.CodeUnavailable, "the request did not finish in time"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestServer(t, func(d *api.Deps) {
				tc.fs.DB = d.Store.(*store.DB)
				d.Store = tc.fs
			})
			res := s.do("GET", "/api/v1/classes", nil, api.RequestIDHeader, "req-"+tc.name)
			mustStatus(t, res, tc.status)
			p := res.Problem(t)
			if p.Code != tc.code || p.Detail != tc.detail || p.RequestID != "req-"+tc.name {
				t.Errorf("problem = %+v", p)
			}
			if strings.Contains(string(res.Body), "disk on fire") || strings.Contains(string(res.Body), "exploded") {
				t.Errorf("problem leaks the internal error: %s", res.Body)
			}
			log := s.Log.String()
			if !strings.Contains(log, `"request_id":"req-`+tc.name+`"`) {
				t.Errorf("log lacks the request id:\n%s", log)
			}
			if tc.name == "Panic" && (!strings.Contains(log, "store exploded") || !strings.Contains(log, "goroutine")) {
				t.Errorf("panic not logged with its stack:\n%s", log)
			}
			// The server keeps serving.
			mustStatus(t, s.do("GET", "/healthz", nil), http.StatusOK)
		})
	}
}

func TestMetrics(t *testing.T) {
	s := newTestServer(t, nil)
	s.uploadGame("a", buttonsGDL)
	s.do("GET", "/api/v1/games/999", nil)
	res := s.do("GET", "/metrics", nil)
	mustStatus(t, res, http.StatusOK)
	body := string(res.Body)
	for _, want := range []string{
		`gamequiv_http_request_duration_seconds_count{code="201",method="POST",route="/api/v1/games"} 1`,
		`gamequiv_http_request_duration_seconds_count{code="404",method="GET",route="/api/v1/games/:id"} 1`,
		`gamequiv_queue_depth 0`,
		`gamequiv_comparisons{status="queued"} 0`,
		`go_goroutines`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func TestSymmetriesLimit(t *testing.T) {
	s := newTestServer(t, func(d *api.Deps) { d.Limits.Game.Search.MaxNodes = 1 })
	g := s.uploadGame("buttons", buttonsGDL)
	res := s.do("GET", "/api/v1/games/"+strconv.FormatInt(g.ID, 10)+"/symmetries", nil)
	mustStatus(t, res, http.StatusUnprocessableEntity)
	if p := res.Problem(t); p.Code != api.CodeLimit || !strings.Contains(p.Detail, "limit") {
		t.Errorf("problem = %+v, want code %s", p, api.CodeLimit)
	}
	// The failure is stored once and answered again from the store.
	stored, err := s.DB.GetSymmetries(context.Background(), g.ID)
	if err != nil || stored.Problem == nil || stored.Result != nil {
		t.Fatalf("stored symmetries after a limit = %+v, %v; want the failure", stored, err)
	}
	again := s.do("GET", "/api/v1/games/"+strconv.FormatInt(g.ID, 10)+"/symmetries", nil)
	mustStatus(t, again, http.StatusUnprocessableEntity)
	if p, q := res.Problem(t), again.Problem(t); p.Code != q.Code || p.Detail != q.Detail || q.RequestID == "" || q.RequestID == p.RequestID {
		t.Errorf("second answer %+v, want the first %+v with its own request id", q, p)
	}
	metrics := s.do("GET", "/metrics", nil).Body
	for _, want := range []string{`gamequiv_symmetry_requests_total{source="computed"} 1` + "\n", `gamequiv_symmetry_requests_total{source="stored"} 1` + "\n"} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %q: computed once, then served from the store", want)
		}
	}
}
