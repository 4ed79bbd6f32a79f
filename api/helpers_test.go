package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/gamequiv/gamequiv/api"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/store/storetest"
	"github.com/gamequiv/gamequiv/telemetry"
)

// Small games for the tests: buttonsGDL and its renaming are equivalent
// (and each has one non-trivial symmetry, swapping the buttons);
// otherGDL differs by one goal value.
const (
	buttonsGDL = testgames.Buttons
	renamedGDL = testgames.ButtonsRenamed
	otherGDL   = testgames.ButtonsOtherGoal
	// unsafeGDL has a rule with an unsafe variable at 3:5 and another at 4:5.
	unsafeGDL = "(role robot)\n(init (on a))\n(<= (legal robot ?x) (true (on ?y)))\n(<= (legal robot ?z) (true (on ?y)))\n"
	// unclosedGDL misses a parenthesis opened at 2:1.
	unclosedGDL = "(role robot)\n(init (on a)\n"
)

// spec is the OpenAPI document, loaded and validated once.
var spec = sync.OnceValues(func() (routers.Router, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.OpenAPIYAML)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	return legacy.NewRouter(doc)
})

// problemSchema validates problem documents of unmatched routes.
func problemSchema(t *testing.T) *openapi3.Schema {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(api.OpenAPIYAML)
	if err != nil {
		t.Fatal(err)
	}
	return doc.Components.Schemas["Problem"].Value
}

// testServer is the API on a fresh SQLite store, with a client that
// checks every response against the OpenAPI document.
type testServer struct {
	t       *testing.T
	DB      *store.DB
	Handler http.Handler
	Metrics *telemetry.Metrics
	Log     *bytes.Buffer
}

// newTestServer starts the API on a new store. edit, if not nil, changes
// the dependencies first.
func newTestServer(t *testing.T, edit func(*api.Deps)) *testServer {
	t.Helper()
	db := storetest.OpenSQLite(t)
	var logBuf bytes.Buffer
	m := telemetry.New()
	m.RegisterQueue(db)
	d := api.Deps{
		Store:   db,
		Log:     slog.New(slog.NewJSONHandler(&syncWriter{w: &logBuf}, nil)),
		Metrics: m,
	}
	if edit != nil {
		edit(&d)
	}
	return &testServer{t: t, DB: db, Handler: api.NewServer(d), Metrics: m, Log: &logBuf}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// response is a recorded response.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v.
func (r *response) JSON(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Problem decodes a problem document and checks its media type.
func (r *response) Problem(t *testing.T) api.Problem {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); ct != api.ProblemContentType {
		t.Fatalf("Content-Type = %q, want %q (body %s)", ct, api.ProblemContentType, r.Body)
	}
	var p api.Problem
	r.JSON(t, &p)
	return p
}

// do sends a request; body is sent as is if it is a string, else as JSON.
// The response is checked against the OpenAPI document.
func (s *testServer) do(method, path string, body any, header ...string) *response {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req := httptest.NewRequest(method, path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	s.Handler.ServeHTTP(rec, req)
	res := &response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	checkResponse(s.t, req, res)
	return res
}

// checkResponse validates a response against the OpenAPI document: its
// status must be documented for the operation and its body must match the
// schema. Responses of unknown routes must be problem documents.
func checkResponse(t *testing.T, req *http.Request, res *response) {
	t.Helper()
	if res.Header.Get(api.RequestIDHeader) == "" {
		t.Errorf("%s %s: no %s header", req.Method, req.URL.Path, api.RequestIDHeader)
	}
	router, err := spec()
	if err != nil {
		t.Fatalf("OpenAPI document: %v", err)
	}
	// A fresh request for the router: the original's body is consumed.
	vreq := httptest.NewRequest(req.Method, req.URL.String(), nil)
	route, params, err := router.FindRoute(vreq)
	if err != nil {
		// Unknown routes and methods answer with a problem document.
		if res.Header.Get("Content-Type") != api.ProblemContentType {
			t.Errorf("%s %s: unrouted response is %q, want a problem", req.Method, req.URL.Path, res.Header.Get("Content-Type"))
			return
		}
		var v any
		if err := json.Unmarshal(res.Body, &v); err != nil {
			t.Errorf("%s %s: problem is not JSON: %v", req.Method, req.URL.Path, err)
			return
		}
		if err := problemSchema(t).VisitJSON(v); err != nil {
			t.Errorf("%s %s: problem does not match the schema: %v", req.Method, req.URL.Path, err)
		}
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    vreq,
			PathParams: params,
			Route:      route,
		},
		Status: res.Status,
		Header: res.Header,
		Body:   io.NopCloser(bytes.NewReader(res.Body)),
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s -> %d does not match the OpenAPI document: %v\nbody: %.2000s", req.Method, req.URL.Path, res.Status, err, res.Body)
	}
	if route.Operation != nil {
		coverMu.Lock()
		covered[route.Method+" "+route.Path] = true
		coverMu.Unlock()
	}
}

var (
	coverMu sync.Mutex
	covered = map[string]bool{}
)

// mustStatus fails the test unless the response has the status.
func mustStatus(t *testing.T, res *response, want int) {
	t.Helper()
	if res.Status != want {
		t.Fatalf("status = %d, want %d; body %s", res.Status, want, res.Body)
	}
}

// game is the part of a game response the tests read.
type game struct {
	ID      int64          `json:"id"`
	Name    string         `json:"name"`
	SHA256  string         `json:"sha256"`
	Stats   map[string]any `json:"stats"`
	ClassID int64          `json:"class_id"`
	GDL     string         `json:"gdl"`
}

// comparison is the part of a comparison response the tests read.
type comparison struct {
	ID       int64  `json:"id"`
	A        int64  `json:"a"`
	B        int64  `json:"b"`
	Status   string `json:"status"`
	Progress struct {
		Phase      string  `json:"phase"`
		Candidates int64   `json:"candidates"`
		Fraction   float64 `json:"fraction"`
		Step       string  `json:"step"`
		Done       int64   `json:"done"`
		Unit       string  `json:"unit"`
	} `json:"progress"`
	Verdict         string          `json:"verdict"`
	Result          json.RawMessage `json:"result"`
	Error           string          `json:"error"`
	CancelRequested bool            `json:"cancel_requested"`
}

// list is a page of a list.
type list[T any] struct {
	Items      []T   `json:"items"`
	NextCursor int64 `json:"next_cursor"`
}

// uploadGame stores a game through the API and returns it.
func (s *testServer) uploadGame(name, gdl string) game {
	s.t.Helper()
	res := s.do("POST", "/api/v1/games", map[string]string{"name": name, "gdl": gdl})
	if res.Status != http.StatusCreated && res.Status != http.StatusOK {
		s.t.Fatalf("POST /games %s = %d %s", name, res.Status, res.Body)
	}
	var g game
	res.JSON(s.t, &g)
	return g
}

// loadDoc loads the OpenAPI document.
func loadDoc() (*openapi3.T, error) {
	return openapi3.NewLoader().LoadFromData(api.OpenAPIYAML)
}

// The store is what the API reads and what its service layer changes.
var _ api.Store = (*store.DB)(nil)
