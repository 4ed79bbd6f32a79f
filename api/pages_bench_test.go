package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/api"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/store/storetest"
)

// Sizes of the database BenchmarkPages renders pages from.
const (
	benchGames       = 1000
	benchComparisons = 5000
	benchClassSize   = 5
	// pageBudget is the most server time a page may take.
	pageBudget = 100 * time.Millisecond
)

// BenchmarkPages measures the server time of every page (the handler,
// from request to the last byte written, without the network) with
// benchGames games, benchComparisons comparisons and classes of
// benchClassSize games in a SQLite database. The games are copies of
// Tic-tac-toe and Number Scrabble (distinct texts); of the comparisons,
// a sixth are done with the real report of ticTacToe against sum15, a
// third done otherwise, a sixth failed, a sixth running and a sixth
// queued. It fails if a page takes more than
// pageBudget on average.
//
//	go test ./api -run '^$' -bench BenchmarkPages -benchtime 50x
func BenchmarkPages(b *testing.B) {
	ctx := context.Background()
	s := newBenchServer(b)
	ttt, err := os.ReadFile(testgames.Path(b, "ggp-base-repo/ticTacToe.kif"))
	if err != nil {
		b.Fatal(err)
	}
	sum, err := os.ReadFile(testgames.Path(b, "ggp-base/sum15.kif"))
	if err != nil {
		b.Fatal(err)
	}
	rep, err := equiv.Compare(ctx, equiv.Source{Name: "ticTacToe", GDL: ttt}, equiv.Source{Name: "sum15", GDL: sum}, equiv.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	report, _ := json.Marshal(rep)
	stats := []byte(`{"roles":["xplayer","oplayer"],"propositions":29,"actions":{"xplayer":10,"oplayer":10},"functions":56,"circuit_nodes":158}`)

	start := time.Now()
	ids := make([]int64, benchGames)
	for i := range benchGames {
		text, name := ttt, fmt.Sprintf("ticTacToe copy %d", i)
		if i%2 == 1 {
			text, name = sum, fmt.Sprintf("sum15 copy %d", i)
		}
		g, _, err := s.DB.CreateGame(ctx, name, append([]byte(fmt.Sprintf("; copy %d\n", i)), text...), stats)
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = g.ID
	}
	var class int64
	for i, id := range ids {
		if i%benchClassSize == 0 {
			cl, err := s.DB.NewClass(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			class = cl.ID
		} else if err := s.DB.AssignClass(ctx, id, class); err != nil {
			b.Fatal(err)
		}
	}
	var done, running int64
	for n := range benchComparisons {
		a, c := ids[n%benchGames], ids[(n%benchGames+1+n/benchGames)%benchGames]
		if _, _, err := s.DB.CreateComparison(ctx, a, c, json.RawMessage(`{}`)); err != nil {
			b.Fatal(err)
		}
	}
	// The oldest five sixths run (the queue hands them out in order); the
	// rest stay queued.
	for n := range benchComparisons * 5 / 6 {
		job, err := s.DB.Claim(ctx, "bench", time.Hour)
		if err != nil {
			b.Fatalf("Claim: %v", err)
		}
		switch n % 5 {
		case 0:
			err = s.DB.Finish(ctx, job.ID, "bench", store.Outcome{Status: store.StatusDone, Verdict: string(rep.Verdict), Result: report})
			done = job.ID
		case 1, 2:
			err = s.DB.Finish(ctx, job.ID, "bench", store.Outcome{Status: store.StatusDone, Verdict: "not_equivalent",
				Result: json.RawMessage(`{"verdict":"not_equivalent","reason":"ground graphs differ in size","stats":{"phase_ms":{}}}`)})
		case 3:
			err = s.DB.Finish(ctx, job.ID, "bench", store.Outcome{Status: store.StatusFailed, Error: "ground: too many atoms"})
		case 4:
			p := equiv.Progress{Phase: "graph", Fraction: 0.1, Step: "analysing reasoning functions: corners", Done: 100, Total: 400, Unit: equiv.UnitFunctions}
			raw, _ := json.Marshal(p)
			_, err = s.DB.Heartbeat(ctx, job.ID, "bench", time.Hour, store.Progress{Phase: p.Phase, JSON: raw})
			running = job.ID
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("database: %d games, %d comparisons, %d classes, filled in %v", benchGames, benchComparisons, benchGames/benchClassSize, time.Since(start).Round(time.Millisecond))

	pages := []struct{ name, path string }{
		{"home", "/"},
		{"games", "/games"},
		{"games-search", "/games?q=copy+99"},
		{"game", fmt.Sprintf("/games/%d", ids[0])},
		{"classes", "/classes"},
		{"classes-search", "/classes?q=copy+99"},
		{"class", fmt.Sprintf("/classes/%d", class)},
		{"comparisons", "/comparisons"},
		{"comparisons-of-game", fmt.Sprintf("/comparisons?game=%d", ids[0])},
		{"comparison-done", fmt.Sprintf("/comparisons/%d", done)},
		{"comparison-running", fmt.Sprintf("/comparisons/%d", running)},
		{"compare", fmt.Sprintf("/comparisons/new?a=%d", ids[0])},
		{"compare-search", "/comparisons/new?a_q=sum15&b_q=tic"},
	}
	results := map[string]time.Duration{}
	for _, p := range pages {
		get := func() {
			rec := httptest.NewRecorder()
			s.Handler.ServeHTTP(rec, httptest.NewRequest("GET", p.path, nil))
			if rec.Code != http.StatusOK {
				b.Fatalf("GET %s = %d", p.path, rec.Code)
			}
		}
		// The first view of a game grounds it for its board; that is
		// measured once, apart.
		t0 := time.Now()
		get()
		first := time.Since(t0)
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				get()
			}
			per := b.Elapsed() / time.Duration(b.N)
			b.ReportMetric(float64(per.Microseconds())/1000, "ms/page")
			b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
			results[p.name] = per
			if per > pageBudget {
				b.Errorf("GET %s takes %v, more than the budget of %v", p.path, per, pageBudget)
			}
		})
	}
	names := make([]string, 0, len(results))
	for n := range results {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.Logf("%-22s %8.2f ms", n, float64(results[n].Microseconds())/1000)
	}
}

// benchServer is a server over a SQLite store, for benchmarks.
type benchServer struct {
	DB      *store.DB
	Handler http.Handler
}

func newBenchServer(b *testing.B) *benchServer {
	b.Helper()
	db := storetest.OpenSQLite(b)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return &benchServer{DB: db, Handler: api.NewServer(api.Deps{Store: db, Log: log})}
}
