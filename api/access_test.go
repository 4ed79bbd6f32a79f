package api_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/api"
	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/store/storetest"
)

// accessDatabases are the databases the access-control tests run on:
// SQLite always, PostgreSQL when GEQ_TEST_PG is set.
var accessDatabases = []struct {
	name string
	open func(t *testing.T) *store.DB
}{
	{"SQLite", func(t *testing.T) *store.DB { return storetest.OpenSQLite(t) }},
	{"Postgres", func(t *testing.T) *store.DB {
		dsn := os.Getenv(storetest.PostgresEnv)
		if dsn == "" {
			t.Skipf("%s not set: PostgreSQL tests skipped", storetest.PostgresEnv)
		}
		return storetest.OpenPostgres(t, dsn)
	}},
}

// accessServer is the API with access control on a store, and tokens of
// alice, bob and an admin, root.
type accessServer struct {
	*testServer
	alice, bob, root string
}

func newAccessServer(t *testing.T, db *store.DB, access api.Access) *accessServer {
	t.Helper()
	var logBuf bytes.Buffer
	h := api.NewServer(api.Deps{
		Store:  db,
		Log:    slog.New(slog.NewJSONHandler(&syncWriter{w: &logBuf}, nil)),
		Access: access,
	})
	s := &accessServer{testServer: &testServer{t: t, DB: db, Handler: h, Log: &logBuf}}
	for _, tk := range []struct {
		name  string
		admin bool
		out   *string
	}{{"alice", false, &s.alice}, {"bob", false, &s.bob}, {"root", true, &s.root}} {
		_, secret, err := db.CreateToken(context.Background(), tk.name, tk.admin)
		if err != nil {
			t.Fatal(err)
		}
		*tk.out = secret
	}
	return s
}

// as sends a JSON API request with a token ("" for none).
func (s *accessServer) as(token, method, path string, body any) *response {
	s.t.Helper()
	if token == "" {
		return s.do(method, path, body)
	}
	return s.do(method, path, body, "Authorization", "Bearer "+token)
}

// mustProblem fails unless the response is a problem with the status and
// code.
func mustProblem(t *testing.T, res *response, status int, code string) api.Problem {
	t.Helper()
	mustStatus(t, res, status)
	p := res.Problem(t)
	if p.Code != code {
		t.Fatalf("problem code = %q, want %q: %+v", p.Code, code, p)
	}
	return p
}

// mustChallenge fails unless a 401 carries the Bearer challenge want.
func mustChallenge(t *testing.T, res *response, want string) {
	t.Helper()
	mustProblem(t, res, http.StatusUnauthorized, api.CodeUnauthorized)
	if got := res.Header.Get("WWW-Authenticate"); got != want {
		t.Errorf("WWW-Authenticate = %q, want %q", got, want)
	}
}

func idPath(prefix string, id int64) string { return prefix + strconv.FormatInt(id, 10) }

// TestAccessOffByDefault checks that the zero Access lets anyone do
// everything and records no owner.
func TestAccessOffByDefault(t *testing.T) {
	s := newTestServer(t, nil)
	g := s.uploadGame("a", buttonsGDL)
	var me struct {
		AccessControl bool   `json:"access_control"`
		Name          string `json:"name"`
		PublicRead    bool   `json:"public_read"`
	}
	s.do("GET", "/api/v1/me", nil).JSON(t, &me)
	if me.AccessControl || me.Name != "" || !me.PublicRead {
		t.Errorf("GET /me = %+v, want access control off", me)
	}
	// A token is ignored, even a bogus one.
	res := s.do("PATCH", idPath("/api/v1/games/", g.ID), map[string]string{"name": "b"}, "Authorization", "Bearer nonsense")
	mustStatus(t, res, http.StatusOK)
	if strings.Contains(string(res.Body), `"owner"`) {
		t.Errorf("owner without access control: %s", res.Body)
	}
	mustStatus(t, s.do("DELETE", idPath("/api/v1/games/", g.ID), nil), http.StatusNoContent)
	mustStatus(t, s.do("GET", idPath("/api/v1/games/", g.ID), nil), http.StatusNotFound)
}

func TestAccessControl(t *testing.T) {
	for _, dbc := range accessDatabases {
		t.Run(dbc.name, func(t *testing.T) {
			t.Run("PrivateRead", func(t *testing.T) { testPrivateRead(t, newAccessServer(t, dbc.open(t), api.Access{Enabled: true})) })
			t.Run("PublicRead", func(t *testing.T) {
				testPublicRead(t, newAccessServer(t, dbc.open(t), api.Access{Enabled: true, PublicRead: true}))
			})
			t.Run("Owners", func(t *testing.T) { testOwners(t, newAccessServer(t, dbc.open(t), api.Access{Enabled: true})) })
			t.Run("Pages", func(t *testing.T) { testAccessPages(t, newAccessServer(t, dbc.open(t), api.Access{Enabled: true})) })
			t.Run("PagesPublicRead", func(t *testing.T) {
				testPagesPublicRead(t, newAccessServer(t, dbc.open(t), api.Access{Enabled: true, PublicRead: true}))
			})
		})
	}
}

func testPrivateRead(t *testing.T, s *accessServer) {
	const realm = `Bearer realm="gamequiv"`
	for _, path := range []string{"/api/v1/games", "/api/v1/comparisons", "/api/v1/classes", "/api/v1/games/1", "/api/v1/me", "/metrics", "/api/v1/nowhere"} {
		mustChallenge(t, s.as("", "GET", path, nil), realm)
	}
	mustChallenge(t, s.as("", "POST", "/api/v1/games", map[string]string{"name": "a", "gdl": buttonsGDL}), realm)
	mustChallenge(t, s.as("gq_bogus", "GET", "/api/v1/games", nil), realm+`, error="invalid_token"`)
	mustChallenge(t, s.do("GET", "/api/v1/games", nil, "Authorization", "Basic YWxpY2U6eA=="), realm+`, error="invalid_request"`)
	for _, path := range []string{"/healthz", "/readyz", "/api/v1/openapi.json", "/api/v1/openapi.yaml"} {
		mustStatus(t, s.as("", "GET", path, nil), http.StatusOK)
	}
	mustStatus(t, s.as(s.alice, "GET", "/api/v1/games", nil), http.StatusOK)

	var me struct {
		AccessControl bool   `json:"access_control"`
		Name          string `json:"name"`
		Admin         bool   `json:"admin"`
	}
	s.as(s.root, "GET", "/api/v1/me", nil).JSON(t, &me)
	if !me.AccessControl || me.Name != "root" || !me.Admin {
		t.Errorf("GET /me as root = %+v", me)
	}

	// A revoked token is refused at once.
	if n, err := s.DB.RevokeUserTokens(context.Background(), "bob"); err != nil || n != 1 {
		t.Fatalf("RevokeUserTokens = %d, %v", n, err)
	}
	mustChallenge(t, s.as(s.bob, "GET", "/api/v1/games", nil), realm+`, error="invalid_token"`)
	if !strings.Contains(s.Log.String(), `"user":"alice"`) {
		t.Errorf("access log lacks the user:\n%s", s.Log)
	}
}

func testPublicRead(t *testing.T, s *accessServer) {
	g := s.uploadGameAs(s.alice, "a", buttonsGDL)
	mustStatus(t, s.as("", "GET", "/api/v1/games", nil), http.StatusOK)
	mustStatus(t, s.as("", "GET", idPath("/api/v1/games/", g.ID), nil), http.StatusOK)
	// Reading with a bad token still fails: the client should know.
	mustChallenge(t, s.as("gq_bogus", "GET", "/api/v1/games", nil), `Bearer realm="gamequiv", error="invalid_token"`)
	// Changes need a token.
	mustChallenge(t, s.as("", "POST", "/api/v1/games", map[string]string{"name": "b", "gdl": otherGDL}), `Bearer realm="gamequiv"`)
	mustChallenge(t, s.as("", "POST", "/api/v1/comparisons", map[string]any{"a": g.ID, "b": g.ID}), `Bearer realm="gamequiv"`)
	mustChallenge(t, s.as("", "DELETE", idPath("/api/v1/games/", g.ID), nil), `Bearer realm="gamequiv"`)
	mustChallenge(t, s.as("", "PATCH", idPath("/api/v1/games/", g.ID), map[string]string{"name": "x"}), `Bearer realm="gamequiv"`)
	var me struct {
		Name       string `json:"name"`
		PublicRead bool   `json:"public_read"`
	}
	s.as("", "GET", "/api/v1/me", nil).JSON(t, &me)
	if me.Name != "" || !me.PublicRead {
		t.Errorf("GET /me anonymous = %+v", me)
	}
}

// uploadGameAs stores a game with a token.
func (s *accessServer) uploadGameAs(token, name, gdl string) game {
	s.t.Helper()
	res := s.as(token, "POST", "/api/v1/games", map[string]string{"name": name, "gdl": gdl})
	if res.Status != http.StatusCreated && res.Status != http.StatusOK {
		s.t.Fatalf("POST /games %s = %d %s", name, res.Status, res.Body)
	}
	var g game
	res.JSON(s.t, &g)
	return g
}

type ownedComparison struct {
	comparison
	Owner string `json:"owner"`
}

func testOwners(t *testing.T, s *accessServer) {
	var a, b struct {
		game
		Owner string `json:"owner"`
	}
	s.as(s.alice, "POST", "/api/v1/games", map[string]string{"name": "a", "gdl": buttonsGDL}).JSON(t, &a)
	s.as(s.alice, "POST", "/api/v1/games", map[string]string{"name": "b", "gdl": renamedGDL}).JSON(t, &b)
	if a.Owner != "alice" {
		t.Fatalf("owner of the upload = %q, want alice", a.Owner)
	}
	// The same text from bob stays alice's.
	var same struct {
		Owner string `json:"owner"`
	}
	s.as(s.bob, "POST", "/api/v1/games", map[string]string{"name": "bobs", "gdl": buttonsGDL}).JSON(t, &same)
	if same.Owner != "alice" {
		t.Errorf("owner after bob's upload of the same text = %q, want alice", same.Owner)
	}

	var c ownedComparison
	res := s.as(s.alice, "POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID})
	mustStatus(t, res, http.StatusAccepted)
	res.JSON(t, &c)
	if c.Owner != "alice" {
		t.Fatalf("owner of the comparison = %q, want alice", c.Owner)
	}
	cpath := idPath("/api/v1/comparisons/", c.ID)
	p := mustProblem(t, s.as(s.bob, "DELETE", cpath, nil), http.StatusForbidden, api.CodeForbidden)
	if !strings.Contains(p.Detail, `owned by "alice"`) {
		t.Errorf("403 detail = %q", p.Detail)
	}
	mustStatus(t, s.as(s.alice, "DELETE", cpath, nil), http.StatusOK)

	// Resubmitting the cancelled comparison queues a new one.
	var again ownedComparison
	res = s.as(s.bob, "POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": b.ID})
	mustStatus(t, res, http.StatusAccepted)
	res.JSON(t, &again)
	if again.ID == c.ID || again.Status != "queued" || again.Owner != "bob" {
		t.Fatalf("resubmitted cancelled comparison = %+v, want a new queued one of bob", again)
	}
	if loc := res.Header.Get("Location"); loc != idPath("/api/v1/comparisons/", again.ID) {
		t.Errorf("Location = %q", loc)
	}
	// The admin may cancel bob's.
	mustStatus(t, s.as(s.root, "DELETE", idPath("/api/v1/comparisons/", again.ID), nil), http.StatusOK)

	// A batch and an inline side record their uploader too.
	var batch struct {
		Items []struct {
			Game struct {
				Owner string `json:"owner"`
			} `json:"game"`
		} `json:"items"`
	}
	s.as(s.bob, "POST", "/api/v1/games/batch", map[string]any{"games": []map[string]string{{"name": "c", "gdl": otherGDL}}}).JSON(t, &batch)
	if len(batch.Items) != 1 || batch.Items[0].Game.Owner != "bob" {
		t.Errorf("batch upload by bob = %+v, want owner bob", batch)
	}
	var inline ownedComparison
	s.as(s.bob, "POST", "/api/v1/comparisons", map[string]any{"a": a.ID, "b": map[string]string{"name": "d", "gdl": otherGDL + "; d\n"}}).JSON(t, &inline)
	var side struct {
		Owner string `json:"owner"`
	}
	s.as(s.bob, "GET", idPath("/api/v1/games/", inline.B), nil).JSON(t, &side)
	if inline.Owner != "bob" || side.Owner != "bob" {
		t.Errorf("inline comparison by bob: owner %q, its inline game's %q; want bob for both", inline.Owner, side.Owner)
	}

	// Rename: owner or admin.
	gpath := idPath("/api/v1/games/", a.ID)
	mustProblem(t, s.as(s.bob, "PATCH", gpath, map[string]string{"name": "mine"}), http.StatusForbidden, api.CodeForbidden)
	var renamed game
	res = s.as(s.alice, "PATCH", gpath, map[string]string{"name": "buttons"})
	mustStatus(t, res, http.StatusOK)
	res.JSON(t, &renamed)
	if renamed.Name != "buttons" {
		t.Errorf("renamed game = %+v", renamed)
	}
	mustStatus(t, s.as(s.root, "PATCH", gpath, map[string]string{"name": "buttons2"}), http.StatusOK)
	for _, body := range []any{map[string]string{"name": " "}, map[string]any{}, map[string]any{"name": 3}, map[string]string{"name": "x", "owner": "bob"}} {
		mustProblem(t, s.as(s.alice, "PATCH", gpath, body), http.StatusBadRequest, api.CodeInvalid)
	}
	mustProblem(t, s.as(s.alice, "PATCH", "/api/v1/games/999", map[string]string{"name": "x"}), http.StatusNotFound, api.CodeNotFound)

	// Delete: owner or admin; the comparisons go with the game.
	mustProblem(t, s.as(s.bob, "DELETE", gpath, nil), http.StatusForbidden, api.CodeForbidden)
	mustStatus(t, s.as(s.alice, "GET", gpath, nil), http.StatusOK)
	res = s.as(s.root, "DELETE", gpath, nil)
	mustStatus(t, res, http.StatusNoContent)
	if len(res.Body) != 0 {
		t.Errorf("204 with a body: %s", res.Body)
	}
	mustProblem(t, s.as(s.alice, "GET", gpath, nil), http.StatusNotFound, api.CodeNotFound)
	mustProblem(t, s.as(s.alice, "GET", cpath, nil), http.StatusNotFound, api.CodeNotFound)
	mustProblem(t, s.as(s.alice, "DELETE", gpath, nil), http.StatusNotFound, api.CodeNotFound)
	mustStatus(t, s.as(s.alice, "DELETE", idPath("/api/v1/games/", b.ID), nil), http.StatusNoContent)
	if !strings.Contains(s.Log.String(), `"msg":"game deleted"`) {
		t.Errorf("log lacks the deletion:\n%s", s.Log)
	}
}

// form posts a form to a page with a cookie ("" for none) and the headers a
// browser sends for a same-origin form.
func (s *accessServer) form(cookie, path string, values url.Values, header ...string) *response {
	s.t.Helper()
	h := append([]string{"Sec-Fetch-Site", "same-origin"}, header...)
	if cookie != "" {
		h = append(h, "Cookie", api.SessionCookie+"="+cookie)
	}
	return s.getPage("POST", path, bytes.NewBufferString(values.Encode()), "application/x-www-form-urlencoded", h...)
}

// page gets a page with a cookie ("" for none).
func (s *accessServer) page(cookie, path string) *response {
	s.t.Helper()
	if cookie == "" {
		return s.getPage("GET", path, nil, "")
	}
	return s.getPage("GET", path, nil, "", "Cookie", api.SessionCookie+"="+cookie)
}

func testAccessPages(t *testing.T, s *accessServer) {
	g := s.uploadGameAs(s.alice, "a", buttonsGDL)
	gpage := idPath("/games/", g.ID)

	// Without a session the pages send the browser to the login page.
	res := s.page("", gpage+"?x=1")
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/login?next="+url.QueryEscape(gpage+"?x=1") {
		t.Fatalf("GET %s without a session = %d Location %q, want 303 to the login page", gpage, res.Status, res.Header.Get("Location"))
	}
	body := mustHTML(t, s.page("", "/login?next=/games"), http.StatusOK)
	if !strings.Contains(body, `name="next" value="/games"`) {
		t.Errorf("login page lacks next:\n%s", body)
	}
	mustHTML(t, s.form("", fmt.Sprintf("/comparisons/%d/cancel", 1), nil), http.StatusUnauthorized)

	// A bad token: 401 and the form again.
	body = mustHTML(t, s.form("", "/login", url.Values{"token": {"gq_bogus"}, "next": {"/games"}}), http.StatusUnauthorized)
	if !strings.Contains(body, "unknown or revoked") {
		t.Errorf("login with a bad token:\n%s", body)
	}
	// Another site's login form is refused.
	mustHTML(t, s.getPage("POST", "/login", bytes.NewBufferString(url.Values{"token": {s.alice}}.Encode()),
		"application/x-www-form-urlencoded", "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)

	// Signing in sets the session cookie and returns to a local page only.
	for _, tc := range []struct{ next, want string }{{gpage, gpage}, {"//evil.example/x", "/"}, {"https://evil.example/", "/"}, {`/\evil.example`, "/"}} {
		res = s.form("", "/login", url.Values{"token": {s.alice}, "next": {tc.next}})
		if res.Status != http.StatusSeeOther || res.Header.Get("Location") != tc.want {
			t.Errorf("POST /login next=%q = %d Location %q, want 303 to %q", tc.next, res.Status, res.Header.Get("Location"), tc.want)
		}
	}
	ck := res.Header.Get("Set-Cookie")
	for _, attr := range []string{api.SessionCookie + "=" + s.alice, "HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=43200"} {
		if !strings.Contains(ck, attr) {
			t.Errorf("Set-Cookie %q lacks %s", ck, attr)
		}
	}

	// The owner sees the rename and delete forms; bob does not.
	body = mustHTML(t, s.page(s.alice, gpage), http.StatusOK)
	for _, want := range []string{"Signed in as <strong>alice</strong>", "by alice", "/delete", "/rename"} {
		if !strings.Contains(body, want) {
			t.Errorf("game page for alice lacks %q", want)
		}
	}
	body = mustHTML(t, s.page(s.bob, gpage), http.StatusOK)
	if strings.Contains(body, "/delete") || strings.Contains(body, "/rename") {
		t.Errorf("game page for bob offers to change alice's game")
	}
	mustHTML(t, s.form(s.bob, gpage+"/rename", url.Values{"name": {"x"}}), http.StatusForbidden)
	mustHTML(t, s.form(s.bob, gpage+"/delete", url.Values{"confirm": {"yes"}}), http.StatusForbidden)

	// The session cookie works for the JSON API too, but not from
	// another site.
	mustStatus(t, s.do("GET", "/api/v1/games", nil, "Cookie", api.SessionCookie+"="+s.alice), http.StatusOK)
	mustProblem(t, s.do("PATCH", "/api/v1/games/"+strconv.FormatInt(g.ID, 10), map[string]string{"name": "x"},
		"Cookie", api.SessionCookie+"="+s.alice, "Sec-Fetch-Site", "cross-site"), http.StatusForbidden, api.CodeForbidden)
	mustHTML(t, s.form(s.alice, gpage+"/rename", url.Values{"name": {"y"}}, "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)

	// A comparison: only its owner may cancel it from its page.
	h := s.uploadGameAs(s.bob, "b", renamedGDL)
	var c ownedComparison
	s.as(s.bob, "POST", "/api/v1/comparisons", map[string]any{"a": g.ID, "b": h.ID}).JSON(t, &c)
	cpage := idPath("/comparisons/", c.ID)
	if body := mustHTML(t, s.page(s.alice, cpage), http.StatusOK); strings.Contains(body, "Cancel this comparison") || !strings.Contains(body, "by bob") {
		t.Errorf("comparison page for alice: want no cancel button and the owner")
	}
	if body := mustHTML(t, s.page(s.bob, cpage), http.StatusOK); !strings.Contains(body, "Cancel this comparison") {
		t.Errorf("comparison page for bob lacks the cancel button")
	}
	mustHTML(t, s.form(s.alice, cpage+"/cancel", nil), http.StatusForbidden)
	res = s.form(s.bob, cpage+"/cancel", nil)
	if res.Status != http.StatusSeeOther {
		t.Errorf("cancel by the owner = %d, want 303", res.Status)
	}

	// Rename and delete from the game page.
	res = s.form(s.alice, gpage+"/rename", url.Values{"name": {"renamed"}})
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != gpage {
		t.Fatalf("rename = %d %q", res.Status, res.Header.Get("Location"))
	}
	mustHTML(t, s.form(s.alice, gpage+"/rename", url.Values{"name": {""}}), http.StatusBadRequest)
	mustHTML(t, s.form(s.alice, gpage+"/delete", nil), http.StatusBadRequest) // not confirmed
	res = s.form(s.alice, gpage+"/delete", url.Values{"confirm": {"yes"}})
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/games" {
		t.Fatalf("delete = %d %q", res.Status, res.Header.Get("Location"))
	}
	mustHTML(t, s.page(s.alice, gpage), http.StatusNotFound)

	// Signing out forgets the cookie; a revoked token's cookie is dropped.
	res = s.form(s.alice, "/logout", nil)
	if res.Status != http.StatusSeeOther || !strings.Contains(res.Header.Get("Set-Cookie"), "Max-Age=0") {
		t.Errorf("logout = %d Set-Cookie %q, want the cookie deleted", res.Status, res.Header.Get("Set-Cookie"))
	}
	if _, err := s.DB.RevokeUserTokens(context.Background(), "bob"); err != nil {
		t.Fatal(err)
	}
	res = s.page(s.bob, "/games")
	if res.Status != http.StatusSeeOther || !strings.Contains(res.Header.Get("Set-Cookie"), "Max-Age=0") {
		t.Errorf("GET /games with a revoked token's cookie = %d Set-Cookie %q, want the login page and the cookie deleted", res.Status, res.Header.Get("Set-Cookie"))
	}
}

// TestTrustedProxies checks that the rate limit counts the client that a
// trusted proxy names, and only a trusted one.
func TestTrustedProxies(t *testing.T) {
	for _, tc := range []struct {
		name    string
		proxies []string
		// second is the status of a POST from another client behind the
		// same proxy, after one that took the only token of the burst.
		second int
	}{
		{"Trusted", []string{"192.0.2.0/24"}, http.StatusNotFound},
		{"NotTrusted", nil, http.StatusTooManyRequests},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestServer(t, func(d *api.Deps) {
				d.Limits.RateLimit, d.Limits.RateBurst = 0.01, 1
				d.Limits.TrustedProxies = tc.proxies
			})
			// httptest requests come from 192.0.2.1.
			mustStatus(t, s.do("DELETE", "/api/v1/comparisons/9", nil, "X-Forwarded-For", "203.0.113.7"), http.StatusNotFound)
			mustStatus(t, s.do("DELETE", "/api/v1/comparisons/9", nil, "X-Forwarded-For", "203.0.113.8"), tc.second)
			if tc.proxies != nil {
				mustStatus(t, s.do("DELETE", "/api/v1/comparisons/9", nil, "X-Forwarded-For", "203.0.113.7"), http.StatusTooManyRequests)
			}
		})
	}
	if _, err := api.ParseTrustedProxies("10.0.0.0/8, ::1,"); err != nil {
		t.Errorf("ParseTrustedProxies: %v", err)
	}
	if _, err := api.ParseTrustedProxies("10.0.0.0/33"); err == nil {
		t.Error("ParseTrustedProxies(10.0.0.0/33) = nil error")
	}
}

// BenchmarkAuthenticatedRead measures what access control adds to a read:
// GET /api/v1/games/{id} without access control, and with a token (one
// indexed lookup of the token's hash per request).
func BenchmarkAuthenticatedRead(b *testing.B) {
	for _, tc := range []struct {
		name   string
		access api.Access
	}{{"Off", api.Access{}}, {"Token", api.Access{Enabled: true}}} {
		b.Run(tc.name, func(b *testing.B) {
			db := storetest.OpenSQLite(b)
			h := api.NewServer(api.Deps{Store: db, Access: tc.access})
			_, secret, err := db.CreateToken(context.Background(), "alice", false)
			if err != nil {
				b.Fatal(err)
			}
			g, _, err := db.CreateGame(context.Background(), "g", []byte(buttonsGDL), nil)
			if err != nil {
				b.Fatal(err)
			}
			path := idPath("/api/v1/games/", g.ID)
			b.ResetTimer()
			for b.Loop() {
				req := httptest.NewRequest("GET", path, nil)
				req.Header.Set("Authorization", "Bearer "+secret)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}

// testPagesPublicRead: with public reading the pages read without a
// session, as the API does, but every form still needs one.
func testPagesPublicRead(t *testing.T, s *accessServer) {
	g := s.uploadGameAs(s.alice, "a", buttonsGDL)
	h := s.uploadGameAs(s.alice, "b", renamedGDL)
	var c ownedComparison
	s.as(s.alice, "POST", "/api/v1/comparisons", map[string]any{"a": g.ID, "b": h.ID}).JSON(t, &c)
	gpage, cpage := idPath("/games/", g.ID), idPath("/comparisons/", c.ID)
	for _, path := range []string{"/", "/games", gpage, "/comparisons", cpage, "/classes"} {
		mustHTML(t, s.page("", path), http.StatusOK)
	}
	body := mustHTML(t, s.page("", gpage), http.StatusOK)
	if strings.Contains(body, "/delete") || strings.Contains(body, "/rename") {
		t.Errorf("game page without a session offers to change the game")
	}
	if body := mustHTML(t, s.page("", cpage), http.StatusOK); strings.Contains(body, "Cancel this comparison") {
		t.Errorf("comparison page without a session offers to cancel it")
	}
	mustHTML(t, s.form("", gpage+"/rename", url.Values{"name": {"x"}}), http.StatusUnauthorized)
	mustHTML(t, s.form("", gpage+"/delete", url.Values{"confirm": {"yes"}}), http.StatusUnauthorized)
	mustHTML(t, s.form("", cpage+"/cancel", nil), http.StatusUnauthorized)
	mustHTML(t, s.form("", "/compare", url.Values{"a": {strconv.FormatInt(g.ID, 10)}, "b": {strconv.FormatInt(h.ID, 10)}}), http.StatusUnauthorized)
	var got game
	s.as(s.alice, "GET", idPath("/api/v1/games/", g.ID), nil).JSON(t, &got)
	if got.Name != "a" {
		t.Errorf("a form without a session renamed the game: %+v", got)
	}
	// A bad session cookie is not public reading: back to the login page.
	if res := s.page("gq_bogus", "/games"); res.Status != http.StatusSeeOther {
		t.Errorf("GET /games with a bad session = %d, want 303 to the login page", res.Status)
	}
}
