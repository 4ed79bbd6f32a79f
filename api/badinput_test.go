package api_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/api"
)

// The bad-input corpus (issue #6) through the API: every case of
// testdata/bad (see its first-line "; expect:" comments) and the generated
// huge ones, uploaded with POST /games and as an inline game of POST
// /comparisons, must get its problem document (422 invalid_gdl with the
// error's line and col, 422 limit_exceeded naming the limit, or 413) within
// 2 s, never a 5xx. cmd/gamequiv's TestBadInputCLI runs the same corpus
// through the command line.

var badAPISlack = flag.Float64("badinput.slack", 1, "multiply the 2 s bound of TestBadInputAPI by this factor")

const badAPIMaxTime = 2 * time.Second

type badAPICase struct {
	name   string
	gdl    []byte
	status int
	code   string
	line   int
	col    int
	limit  string
	msg    *regexp.Regexp
}

var badExpectRE = regexp.MustCompile(`^; expect: (.*?) msg~=(.*)$`)

func parseBadCase(name string, src []byte) (badAPICase, error) {
	c := badAPICase{name: name, gdl: src}
	first, _, _ := bytes.Cut(src, []byte("\n"))
	m := badExpectRE.FindSubmatch(first)
	if m == nil {
		return c, fmt.Errorf("%s: first line %q is not '; expect: ... msg~=REGEXP'", name, first)
	}
	var err error
	if c.msg, err = regexp.Compile(string(m[2])); err != nil {
		return c, fmt.Errorf("%s: %v", name, err)
	}
	for _, kv := range strings.Fields(string(m[1])) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "exit":
		case "status":
			c.status, err = strconv.Atoi(v)
		case "code":
			c.code = v
		case "limit":
			c.limit = v
		case "pos":
			l, col, _ := strings.Cut(v, ":")
			if c.line, err = strconv.Atoi(l); err == nil {
				c.col, err = strconv.Atoi(col)
			}
		default:
			err = fmt.Errorf("unknown key %q", k)
		}
		if err != nil {
			return c, fmt.Errorf("%s: %s: %v", name, kv, err)
		}
	}
	return c, nil
}

func badAPICases(t *testing.T) []badAPICase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "bad", "*.kif"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []badAPICase
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c, err := parseBadCase(strings.TrimSuffix(filepath.Base(p), ".kif"), src)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	re := regexp.MustCompile
	var big bytes.Buffer
	big.WriteString("(role x)\n")
	for i := 0; big.Len() < 50<<20; i++ {
		fmt.Fprintf(&big, "(cell %d %d blank)\n", i%1000, i)
	}
	deepTerm := "(role x)\n(init (cell " + strings.Repeat("(f ", 100_000) + "a" + strings.Repeat(")", 100_000) + "))\n"
	cases = append(cases,
		badAPICase{name: "gen_empty_file", status: 422, code: api.CodeInvalidGDL, line: 1, col: 1, msg: re(`no roles`)},
		badAPICase{name: "gen_nesting_1e5", gdl: []byte(strings.Repeat("(", 100_000) + strings.Repeat(")", 100_000)), status: 422, code: api.CodeInvalidGDL, line: 1, col: 201, msg: re(`nesting deeper than 200 levels`)},
		badAPICase{name: "gen_nesting_1e5_unclosed", gdl: []byte(strings.Repeat("(", 100_000)), status: 422, code: api.CodeInvalidGDL, line: 1, col: 201, msg: re(`nesting deeper than 200 levels`)},
		badAPICase{name: "gen_nesting_1e5_term", gdl: []byte(deepTerm), status: 422, code: api.CodeInvalidGDL, line: 2, col: 607, msg: re(`nesting deeper than 200 levels`)},
		badAPICase{name: "gen_text_50mb", gdl: big.Bytes(), status: 413, code: api.CodeTooLarge, msg: re(`request body exceeds \d+ bytes`)},
	)
	if len(cases) < 40 {
		t.Fatalf("%d bad-input cases, want at least 40", len(cases))
	}
	return cases
}

func TestBadInputAPI(t *testing.T) {
	s := newTestServer(t, nil)
	good := s.uploadGame("buttons.kif", buttonsGDL)
	var slowest time.Duration
	var slowestName string
	for _, tc := range badAPICases(t) {
		t.Run(tc.name, func(t *testing.T) {
			// json.Marshal turns bytes that are not UTF-8 into U+FFFD, as
			// any JSON client must; the server reports them where they were.
			inline := map[string]string{"name": tc.name + ".kif", "gdl": string(tc.gdl)}
			for _, req := range []struct {
				path string
				body any
			}{
				{"/api/v1/games", inline},
				{"/api/v1/comparisons", map[string]any{"a": inline, "b": good.ID}},
			} {
				body, err := json.Marshal(req.body)
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				res := s.do("POST", req.path, body)
				took := time.Since(start)
				if took > slowest {
					slowest, slowestName = took, tc.name+" "+req.path
				}
				if res.Status >= 500 {
					t.Fatalf("POST %s: %d %s", req.path, res.Status, res.Body)
				}
				mustStatus(t, res, tc.status)
				p := res.Problem(t)
				checkBadProblem(t, req.path, p, tc)
				if limit := time.Duration(float64(badAPIMaxTime) * *badAPISlack); took > limit {
					t.Errorf("POST %s took %v, want at most %v", req.path, took, limit)
				}
			}
		})
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		t.Logf("slowest request: %s (%v); test process max RSS %.1f MiB", slowestName, slowest.Round(time.Millisecond), float64(ru.Maxrss)/1024)
		if ru.Maxrss*1024 > 1<<30 {
			t.Errorf("test process max RSS %d MiB, want at most 1024 MiB", ru.Maxrss/1024)
		}
	}
	if strings.Contains(s.Log.String(), "panic") {
		t.Errorf("the server logged a panic:\n%s", s.Log)
	}
}

// checkBadProblem checks a problem document against a case: its code, the
// limit it names, and for invalid GDL an error at the expected position
// whose message matches.
func checkBadProblem(t *testing.T, path string, p api.Problem, tc badAPICase) {
	t.Helper()
	if p.Code != tc.code || p.Status != tc.status {
		t.Fatalf("POST %s: problem %+v, want code %s status %d", path, p, tc.code, tc.status)
	}
	switch tc.code {
	case api.CodeInvalidGDL:
		if p.Line < 1 || p.Col < 1 {
			t.Errorf("POST %s: line:col = %d:%d, want a position (detail %q)", path, p.Line, p.Col, p.Detail)
		}
		prefix := fmt.Sprintf("%s.kif:%d:%d: ", tc.name, p.Line, p.Col)
		if !strings.HasPrefix(p.Detail, prefix) {
			t.Errorf("POST %s: detail %q does not start with %q", path, p.Detail, prefix)
		}
		for _, e := range p.Errors {
			if (tc.line == 0 || e.Line == tc.line && e.Col == tc.col) && tc.msg.MatchString(e.Message) {
				return
			}
		}
		t.Errorf("POST %s: no error at %d:%d matching %q in %+v", path, tc.line, tc.col, tc.msg, p.Errors)
	case api.CodeLimit:
		if p.Limit != tc.limit || !tc.msg.MatchString(p.Detail) {
			t.Errorf("POST %s: limit %q, detail %q; want limit %q, detail matching %q", path, p.Limit, p.Detail, tc.limit, tc.msg)
		}
	default:
		if !tc.msg.MatchString(p.Detail) {
			t.Errorf("POST %s: detail %q, want it to match %q", path, p.Detail, tc.msg)
		}
	}
}
