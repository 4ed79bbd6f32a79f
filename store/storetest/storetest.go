package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gamequiv/gamequiv/store"
)

// Start is the time at which every test's clock starts.
var Start = time.Date(2026, 11, 23, 9, 30, 15, 123456000, time.UTC)

// Run runs the conformance suite. newStore must return an empty store,
// migrated to the latest schema, that is closed when its test ends; every
// subtest calls it once and replaces the store's Now by its own Clock.
func Run(t *testing.T, newStore func(t testing.TB) *store.DB) {
	for _, tc := range suiteTests {
		t.Run(tc.name, func(t *testing.T) {
			db := newStore(t)
			clk := NewClock(Start)
			db.Now = clk.Now
			tc.fn(t, db, clk)
		})
	}
}

// suiteTests are the subtests of Run.
var suiteTests = []struct {
	name string
	fn   func(t *testing.T, db *store.DB, clk *Clock)
}{
	{"Ready", testReady},
	{"GameDedup", testGameDedup},
	{"GameInvalid", testGameInvalid},
	{"GameConcurrentDedup", testGameConcurrentDedup},
	{"ListGames", testListGames},
	{"GameLineEndings", testGameLineEndings},
	{"GameAliases", testGameAliases},
	{"FindGames", testFindGames},
	{"ComparisonNamesReason", testComparisonNamesReason},
	{"Analysis", testAnalysis},
	{"GamesAwaitingClass", testGamesAwaitingClass},
	{"Classes", testClasses},
	{"CandidateClasses", testCandidateClasses},
	{"MergeClasses", testMergeClasses},
	{"ListClasses", testListClasses},
	{"ComparisonIdempotent", testComparisonIdempotent},
	{"ComparisonConcurrentSubmit", testComparisonConcurrentSubmit},
	{"ListComparisons", testListComparisons},
	{"ClaimOrder", testClaimOrder},
	{"LeaseExpiry", testLeaseExpiry},
	{"Heartbeat", testHeartbeat},
	{"FinishOnce", testFinishOnce},
	{"CancelQueued", testCancelQueued},
	{"CancelRunning", testCancelRunning},
	{"CancelFinished", testCancelFinished},
	{"CancelDeadWorker", testCancelDeadWorker},
	{"MaxAttempts", testMaxAttempts},
	{"Release", testRelease},
	{"Counts", testCounts},
	{"ConcurrentClaimers", testConcurrentClaimers},
	{"Symmetries", testSymmetries},
	{"SymmetryFailures", testSymmetryFailures},
	{"ContextCanceled", testContextCanceled},
	{"Tokens", testTokens},
	{"Owners", testOwners},
	{"CancelOwner", testCancelOwner},
	{"ResubmitCancelled", testResubmitCancelled},
	{"RenameGame", testRenameGame},
	{"DeleteGame", testDeleteGame},
}

var ctx = context.Background()

// --- helpers -------------------------------------------------------------

// game stores a game whose text is unique to name.
func game(t *testing.T, db *store.DB, name string) *store.Game {
	t.Helper()
	g, created, err := db.CreateGame(ctx, name, []byte("(role "+name+")"), json.RawMessage(`{"roles":1}`))
	if err != nil || !created {
		t.Fatalf("CreateGame(%q) = %v, %v, %v, want a new game", name, g, created, err)
	}
	return g
}

// comparison queues a comparison of two new games; tag makes the limits
// (and so the comparison) unique.
func comparison(t *testing.T, db *store.DB, a, b *store.Game, tag int) *store.Comparison {
	t.Helper()
	c, created, err := db.CreateComparison(ctx, a.ID, b.ID, json.RawMessage(fmt.Sprintf(`{"tag":%d}`, tag)))
	if err != nil || !created {
		t.Fatalf("CreateComparison(%d, %d, tag %d) = %v, %v, %v, want a new comparison", a.ID, b.ID, tag, c, created, err)
	}
	return c
}

// jobs queues n comparisons and returns their ids in creation order.
func jobs(t *testing.T, db *store.DB, n int) []int64 {
	t.Helper()
	a, b := game(t, db, "a"), game(t, db, "b")
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = comparison(t, db, a, b, i).ID
	}
	return ids
}

func get(t *testing.T, db *store.DB, id int64) *store.Comparison {
	t.Helper()
	c, err := db.GetComparison(ctx, id)
	if err != nil {
		t.Fatalf("GetComparison(%d): %v", id, err)
	}
	return c
}

func claim(t *testing.T, db *store.DB, owner string, lease time.Duration) *store.Comparison {
	t.Helper()
	c, err := db.Claim(ctx, owner, lease)
	if err != nil {
		t.Fatalf("Claim(%q) = %v", owner, err)
	}
	return c
}

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s = %v, want %v", what, err, want)
	}
}

func wantNoClaim(t *testing.T, db *store.DB) {
	t.Helper()
	c, err := db.Claim(ctx, "probe", time.Minute)
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Claim = %+v, %v, want ErrNotFound", c, err)
	}
}

func idsOf[T any](xs []T, id func(T) int64) []int64 {
	out := []int64{}
	for _, x := range xs {
		out = append(out, id(x))
	}
	return out
}

func gameID(g store.Game) int64        { return g.ID }
func classID(c store.Class) int64      { return c.ID }
func compID(c store.Comparison) int64  { return c.ID }
func memberID(m store.Member) int64    { return m.ID }
func jsonEq(a, b json.RawMessage) bool { return compactJSON(a) == compactJSON(b) }
func isUTC(ts ...time.Time) bool {
	return allOf(ts, func(t time.Time) bool { return t.Location() == time.UTC })
}
func allOf[T any](xs []T, f func(T) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
}

// compactJSON returns j without insignificant space (PostgreSQL's json
// type keeps the text as given, but the comparison should not depend on
// it).
func compactJSON(j json.RawMessage) string {
	if j == nil {
		return "<nil>"
	}
	var v any
	if err := json.Unmarshal(j, &v); err != nil {
		return "invalid JSON: " + string(j)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// --- games ---------------------------------------------------------------

func testReady(t *testing.T, db *store.DB, _ *Clock) {
	if err := db.Ready(ctx); err != nil {
		t.Errorf("Ready = %v, want nil", err)
	}
	v, err := db.SchemaVersion(ctx)
	if err != nil || v < 1 {
		t.Errorf("SchemaVersion = %d, %v, want >= 1", v, err)
	}
}

func testGameDedup(t *testing.T, db *store.DB, clk *Clock) {
	gdl := []byte("(role x)\n(init (cell 1 b))\n")
	sum := sha256.Sum256(gdl)
	g, created, err := db.CreateGame(ctx, "first", gdl, json.RawMessage(`{"roles": 1}`))
	if err != nil || !created {
		t.Fatalf("CreateGame = %v, %v, %v, want a new game", g, created, err)
	}
	want := &store.Game{
		ID: g.ID, Name: "first", SHA256: hex.EncodeToString(sum[:]), GDL: gdl,
		Stats: json.RawMessage(`{"roles": 1}`), CreatedAt: Start,
	}
	if diff := cmp.Diff(want, g, cmp.Comparer(jsonEq)); diff != "" {
		t.Errorf("CreateGame mismatch (-want +got):\n%s", diff)
	}

	clk.Advance(time.Hour)
	again, created, err := db.CreateGame(ctx, "second", gdl, nil)
	if err != nil || created {
		t.Fatalf("CreateGame(same text) = %v, %v, %v, want the existing game", again, created, err)
	}
	if diff := cmp.Diff(want, again, cmp.Comparer(jsonEq)); diff != "" {
		t.Errorf("CreateGame(same text) mismatch (-want +got):\n%s", diff)
	}

	got, err := db.GetGame(ctx, g.ID)
	if err != nil {
		t.Fatalf("GetGame(%d): %v", g.ID, err)
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(jsonEq)); diff != "" {
		t.Errorf("GetGame mismatch (-want +got):\n%s", diff)
	}
	if !isUTC(got.CreatedAt) {
		t.Errorf("GetGame.CreatedAt = %v, want UTC", got.CreatedAt)
	}

	other, created, err := db.CreateGame(ctx, "first", append(gdl, ' '), nil)
	if err != nil || !created || other.ID == g.ID {
		t.Errorf("CreateGame(other text) = %v, %v, %v, want a new game", other, created, err)
	}
	if other != nil && string(other.Stats) != "{}" {
		t.Errorf("CreateGame(nil stats).Stats = %s, want {}", other.Stats)
	}

	_, err = db.GetGame(ctx, g.ID+100)
	wantErr(t, "GetGame(missing)", err, store.ErrNotFound)
}

var gameInvalidTests = []struct {
	name  string
	gdl   []byte
	title string
	stats string
}{
	{name: "EmptyGDL", gdl: nil},
	{name: "BadUTF8", gdl: []byte("(role \xff)")},
	{name: "NUL", gdl: []byte("(role x)\x00")},
	{name: "BadName", gdl: []byte("(role x)"), title: "a\xffb"},
	{name: "BadStats", gdl: []byte("(role x)"), stats: `{"roles":`},
}

func testGameInvalid(t *testing.T, db *store.DB, _ *Clock) {
	for _, tc := range gameInvalidTests {
		t.Run(tc.name, func(t *testing.T) {
			var stats json.RawMessage
			if tc.stats != "" {
				stats = json.RawMessage(tc.stats)
			}
			g, _, err := db.CreateGame(ctx, tc.title, tc.gdl, stats)
			if !errors.Is(err, store.ErrInvalid) {
				t.Errorf("CreateGame(%q, %q, %q) = %v, %v, want ErrInvalid", tc.title, tc.gdl, tc.stats, g, err)
			}
		})
	}
	games, _, err := db.ListGames(ctx, store.Page{})
	if err != nil || len(games) != 0 {
		t.Errorf("ListGames after invalid creates = %v, %v, want none", games, err)
	}
}

func testGameConcurrentDedup(t *testing.T, db *store.DB, _ *Clock) {
	const n = 8
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		created int
		seen    = map[int64]bool{}
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, c, err := db.CreateGame(ctx, fmt.Sprint("copy", i), []byte("(role same)"), nil)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("CreateGame: %v", err)
				return
			}
			seen[g.ID] = true
			if c {
				created++
			}
		}()
	}
	wg.Wait()
	if created != 1 || len(seen) != 1 {
		t.Errorf("%d concurrent CreateGame of one text: %d created, ids %v; want 1 created, one id", n, created, seen)
	}
}

func testListGames(t *testing.T, db *store.DB, _ *Clock) {
	var want []int64
	for i := range 7 {
		want = append(want, game(t, db, fmt.Sprint("g", i)).ID)
	}
	var got []int64
	var pages int
	p := store.Page{Limit: 3}
	for {
		games, next, err := db.ListGames(ctx, p)
		if err != nil {
			t.Fatalf("ListGames(%+v): %v", p, err)
		}
		pages++
		for _, g := range games {
			if g.GDL != nil || g.Name == "" || g.SHA256 == "" || g.Stats == nil {
				t.Errorf("ListGames: game %+v, want name, hash, stats and no GDL", g)
			}
		}
		got = append(got, idsOf(games, gameID)...)
		if next == 0 {
			break
		}
		if pages > 10 {
			t.Fatal("ListGames does not end")
		}
		p.Cursor = next
	}
	if diff := cmp.Diff(want, got); diff != "" || pages != 3 {
		t.Errorf("ListGames pages: %d pages, ids mismatch (-want +got):\n%s", pages, diff)
	}
	all, next, err := db.ListGames(ctx, store.Page{})
	if err != nil || next != 0 || len(all) != 7 {
		t.Errorf("ListGames(default page) = %d games, next %d, %v; want 7, 0", len(all), next, err)
	}
	_, _, err = db.ListGames(ctx, store.Page{Cursor: -1})
	wantErr(t, "ListGames(cursor -1)", err, store.ErrInvalid)
}

// --- classes -------------------------------------------------------------

func testAnalysis(t *testing.T, db *store.DB, clk *Clock) {
	g := game(t, db, "a")
	if g.Analysis != nil || !g.AnalyzedAt.IsZero() {
		t.Errorf("new game: Analysis %v, AnalyzedAt %v; want none", g.Analysis, g.AnalyzedAt)
	}
	clk.Advance(time.Second)
	a := store.Analysis{Certificate: "c0ffee", Invariants: "roles=1"}
	if err := db.SetGameAnalysis(ctx, g.ID, a); err != nil {
		t.Fatalf("SetGameAnalysis: %v", err)
	}
	got, err := db.GetGame(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&a, got.Analysis); diff != "" || !got.AnalyzedAt.Equal(Start.Add(time.Second)) {
		t.Errorf("after SetGameAnalysis: AnalyzedAt %v, Analysis mismatch (-want +got):\n%s", got.AnalyzedAt, diff)
	}
	// Without a certificate.
	a = store.Analysis{Invariants: "roles=1"}
	if err := db.SetGameAnalysis(ctx, g.ID, a); err != nil {
		t.Fatalf("SetGameAnalysis(no certificate): %v", err)
	}
	if got, _ := db.GetGame(ctx, g.ID); got == nil || got.Analysis == nil || *got.Analysis != a {
		t.Errorf("after SetGameAnalysis(no certificate): %+v, want %+v", got.Analysis, a)
	}

	wantErr(t, "SetGameAnalysis(missing game)", db.SetGameAnalysis(ctx, g.ID+1, a), store.ErrNotFound)
	wantErr(t, "SetGameAnalysis(long key)", db.SetGameAnalysis(ctx, g.ID, store.Analysis{Invariants: strings.Repeat("x", store.MaxKeyLen+1)}), store.ErrInvalid)
	wantErr(t, "SetGameAnalysis(certificate only)", db.SetGameAnalysis(ctx, g.ID, store.Analysis{Certificate: "c0ffee"}), store.ErrInvalid)
	wantErr(t, "SetGameAnalysis(no keys)", db.SetGameAnalysis(ctx, g.ID, store.Analysis{}), store.ErrInvalid)
	_, err = db.CandidateClasses(ctx, store.Analysis{Certificate: "c0ffee"})
	wantErr(t, "CandidateClasses(no invariants)", err, store.ErrInvalid)
	if err := db.SetGameAnalysis(ctx, g.ID, store.Analysis{Invariants: strings.Repeat("x", store.MaxKeyLen), Certificate: strings.Repeat("y", store.MaxKeyLen)}); err != nil {
		t.Errorf("SetGameAnalysis(keys of MaxKeyLen) = %v, want nil", err)
	}
}

func testGamesAwaitingClass(t *testing.T, db *store.DB, _ *Clock) {
	g1, g2, g3, g4 := game(t, db, "1"), game(t, db, "2"), game(t, db, "3"), game(t, db, "4")
	if _, err := db.NewClass(ctx, g2.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.SetGameError(ctx, g3.ID, "ground: too many atoms"); err != nil {
		t.Fatal(err)
	}
	got, err := db.GamesAwaitingClass(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{g1.ID, g4.ID}, idsOf(got, gameID)); diff != "" {
		t.Errorf("GamesAwaitingClass mismatch (-want +got):\n%s", diff)
	}
	if len(got) > 0 && string(got[0].GDL) != "(role 1)" {
		t.Errorf("GamesAwaitingClass: GDL %q, want the text", got[0].GDL)
	}
	got, err = db.GamesAwaitingClass(ctx, 1)
	if err != nil || len(got) != 1 || got[0].ID != g1.ID {
		t.Errorf("GamesAwaitingClass(1) = %v, %v, want game %d", idsOf(got, gameID), err, g1.ID)
	}
	if g, _ := db.GetGame(ctx, g3.ID); g == nil || g.Error != "ground: too many atoms" {
		t.Errorf("GetGame after SetGameError = %+v", g)
	}
	wantErr(t, "SetGameError(missing)", db.SetGameError(ctx, g4.ID+1, "x"), store.ErrNotFound)
	wantErr(t, "SetGameError(empty)", db.SetGameError(ctx, g4.ID, ""), store.ErrInvalid)
}

func testClasses(t *testing.T, db *store.DB, _ *Clock) {
	g1, g2, g3 := game(t, db, "1"), game(t, db, "2"), game(t, db, "3")
	c1, err := db.NewClass(ctx, g1.ID)
	if err != nil {
		t.Fatalf("NewClass: %v", err)
	}
	want := &store.Class{ID: c1.ID, Representative: g1.ID, Members: []store.Member{{ID: g1.ID, Name: "1"}}, CreatedAt: Start}
	if diff := cmp.Diff(want, c1); diff != "" {
		t.Errorf("NewClass mismatch (-want +got):\n%s", diff)
	}
	_, err = db.NewClass(ctx, g1.ID)
	wantErr(t, "NewClass(game with class)", err, store.ErrConflict)
	_, err = db.NewClass(ctx, g3.ID+100)
	wantErr(t, "NewClass(missing game)", err, store.ErrNotFound)

	if err := db.AssignClass(ctx, g2.ID, c1.ID); err != nil {
		t.Fatalf("AssignClass: %v", err)
	}
	if err := db.AssignClass(ctx, g2.ID, c1.ID); err != nil {
		t.Errorf("AssignClass(again) = %v, want nil", err)
	}
	got, err := db.GetClass(ctx, c1.ID)
	if err != nil {
		t.Fatal(err)
	}
	want.Members = append(want.Members, store.Member{ID: g2.ID, Name: "2"})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GetClass mismatch (-want +got):\n%s", diff)
	}
	if g, _ := db.GetGame(ctx, g2.ID); g == nil || g.ClassID != c1.ID {
		t.Errorf("GetGame(%d).ClassID = %v, want %d", g2.ID, g, c1.ID)
	}

	c2, err := db.NewClass(ctx, g3.ID)
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, "AssignClass(game of another class)", db.AssignClass(ctx, g2.ID, c2.ID), store.ErrConflict)
	wantErr(t, "AssignClass(missing class)", db.AssignClass(ctx, g2.ID, c2.ID+100), store.ErrNotFound)
	wantErr(t, "AssignClass(missing game)", db.AssignClass(ctx, g3.ID+100, c2.ID), store.ErrNotFound)
	_, err = db.GetClass(ctx, c2.ID+100)
	wantErr(t, "GetClass(missing)", err, store.ErrNotFound)
}

func testCandidateClasses(t *testing.T, db *store.DB, _ *Clock) {
	classified := func(name string, a store.Analysis) int64 {
		t.Helper()
		g := game(t, db, name)
		if err := db.SetGameAnalysis(ctx, g.ID, a); err != nil {
			t.Fatal(err)
		}
		c, err := db.NewClass(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	cX := classified("x", store.Analysis{Invariants: "A", Certificate: "X"})
	cY := classified("y", store.Analysis{Invariants: "A", Certificate: "Y"})
	classified("bx", store.Analysis{Invariants: "B", Certificate: "X"})
	cNone := classified("none", store.Analysis{Invariants: "A"})
	// Certificates with a scheme: one of scheme s_1 (the underscore must
	// not act as a wildcard), one of another scheme.
	cS := classified("s", store.Analysis{Invariants: "D", Certificate: "s_1:X"})
	cOld := classified("old", store.Analysis{Invariants: "D", Certificate: "X"})
	cT := classified("t", store.Analysis{Invariants: "D", Certificate: "sx1:Y"})
	// An unclassified game with matching keys is no class.
	g := game(t, db, "waiting")
	if err := db.SetGameAnalysis(ctx, g.ID, store.Analysis{Invariants: "A", Certificate: "X"}); err != nil {
		t.Fatal(err)
	}
	// A second member with matching keys does not repeat its class.
	g2 := game(t, db, "x2")
	if err := db.SetGameAnalysis(ctx, g2.ID, store.Analysis{Invariants: "A", Certificate: "X"}); err != nil {
		t.Fatal(err)
	}
	if err := db.AssignClass(ctx, g2.ID, cX); err != nil {
		t.Fatal(err)
	}

	var candidateTests = []struct {
		a    store.Analysis
		want []int64
	}{
		{store.Analysis{Invariants: "A", Certificate: "X"}, []int64{cX, cNone}},
		{store.Analysis{Invariants: "A", Certificate: "Z"}, []int64{cNone}},
		{store.Analysis{Invariants: "A"}, []int64{cX, cY, cNone}},
		{store.Analysis{Invariants: "C", Certificate: "X"}, []int64{}},
		// Same scheme: only equal certificates; other schemes are unknown.
		{store.Analysis{Invariants: "D", Certificate: "s_1:X"}, []int64{cS, cOld, cT}},
		{store.Analysis{Invariants: "D", Certificate: "s_1:Z"}, []int64{cOld, cT}},
		{store.Analysis{Invariants: "D", Certificate: "sx1:Y"}, []int64{cS, cOld, cT}},
		{store.Analysis{Invariants: "D", Certificate: "sx1:Z"}, []int64{cS, cOld}},
		// Without a scheme, certificates compare as plain text.
		{store.Analysis{Invariants: "D", Certificate: "X"}, []int64{cOld}},
	}
	for _, tc := range candidateTests {
		got, err := db.CandidateClasses(ctx, tc.a)
		if err != nil {
			t.Errorf("CandidateClasses(%+v): %v", tc.a, err)
			continue
		}
		if diff := cmp.Diff(tc.want, idsOf(got, classID)); diff != "" {
			t.Errorf("CandidateClasses(%+v) mismatch (-want +got):\n%s", tc.a, diff)
		}
		for _, c := range got {
			if c.Representative == 0 || len(c.Members) == 0 {
				t.Errorf("CandidateClasses(%+v): class %+v without representative or members", tc.a, c)
			}
		}
	}
}

func testMergeClasses(t *testing.T, db *store.DB, _ *Clock) {
	g1, g2, g3, g4 := game(t, db, "1"), game(t, db, "2"), game(t, db, "3"), game(t, db, "4")
	c1, _ := db.NewClass(ctx, g1.ID)
	c2, _ := db.NewClass(ctx, g2.ID)
	if c1 == nil || c2 == nil {
		t.Fatal("NewClass failed")
	}
	if err := db.AssignClass(ctx, g4.ID, c2.ID); err != nil {
		t.Fatal(err)
	}
	c3, err := db.NewClass(ctx, g3.ID)
	if err != nil {
		t.Fatal(err)
	}

	got, err := db.MergeClasses(ctx, c1.ID, c2.ID)
	if err != nil {
		t.Fatalf("MergeClasses: %v", err)
	}
	if diff := cmp.Diff([]int64{g1.ID, g2.ID, g4.ID}, idsOf(got.Members, memberID)); diff != "" || got.ID != c1.ID || got.Representative != g1.ID {
		t.Errorf("MergeClasses = class %d (representative %d), members mismatch (-want +got):\n%s", got.ID, got.Representative, diff)
	}
	_, err = db.GetClass(ctx, c2.ID)
	wantErr(t, "GetClass(dropped class)", err, store.ErrNotFound)
	if g, _ := db.GetGame(ctx, g4.ID); g == nil || g.ClassID != c1.ID {
		t.Errorf("GetGame(%d) after merge = %+v, want class %d", g4.ID, g, c1.ID)
	}

	_, err = db.MergeClasses(ctx, c1.ID, c1.ID)
	wantErr(t, "MergeClasses(same class)", err, store.ErrInvalid)
	_, err = db.MergeClasses(ctx, c3.ID, c2.ID)
	wantErr(t, "MergeClasses(dropped class)", err, store.ErrNotFound)
	if c, _ := db.GetClass(ctx, c3.ID); c == nil || len(c.Members) != 1 {
		t.Errorf("failed merge changed class %d: %+v", c3.ID, c)
	}
	classes, _, err := db.ListClasses(ctx, store.Page{})
	if diff := cmp.Diff([]int64{c1.ID, c3.ID}, idsOf(classes, classID)); err != nil || diff != "" {
		t.Errorf("ListClasses after merge: %v, mismatch (-want +got):\n%s", err, diff)
	}
}

func testListClasses(t *testing.T, db *store.DB, _ *Clock) {
	var want []int64
	for i := range 5 {
		c, err := db.NewClass(ctx, game(t, db, fmt.Sprint("g", i)).ID)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, c.ID)
	}
	var got []int64
	p := store.Page{Limit: 2}
	for range 10 {
		classes, next, err := db.ListClasses(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range classes {
			if len(c.Members) != 1 || c.Members[0].ID != c.Representative {
				t.Errorf("ListClasses: class %+v, want its representative as only member", c)
			}
		}
		got = append(got, idsOf(classes, classID)...)
		if next == 0 {
			break
		}
		p.Cursor = next
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ListClasses pages mismatch (-want +got):\n%s", diff)
	}
}

// --- comparisons ---------------------------------------------------------

func testComparisonIdempotent(t *testing.T, db *store.DB, _ *Clock) {
	a, b := game(t, db, "a"), game(t, db, "b")
	c, created, err := db.CreateComparison(ctx, a.ID, b.ID, json.RawMessage(`{"timeout": 5, "search": {"nodes": 10, "depth": 2}}`))
	if err != nil || !created {
		t.Fatalf("CreateComparison = %v, %v, %v, want a new comparison", c, created, err)
	}
	want := &store.Comparison{
		ID: c.ID, GameA: a.ID, GameB: b.ID,
		Limits:  json.RawMessage(`{"search":{"depth":2,"nodes":10},"timeout":5}`),
		IdemKey: c.IdemKey, Status: store.StatusQueued, CreatedAt: Start,
		NameA: "a", NameB: "b",
	}
	if diff := cmp.Diff(want, c); diff != "" || len(c.IdemKey) != 64 {
		t.Errorf("CreateComparison (idem key %q) mismatch (-want +got):\n%s", c.IdemKey, diff)
	}
	same, created, err := db.CreateComparison(ctx, a.ID, b.ID, json.RawMessage(" {\"search\":{\"depth\":2, \"nodes\":10},\n\"timeout\":5} "))
	if err != nil || created || same.ID != c.ID {
		t.Errorf("CreateComparison(same limits, other spelling) = %v, %v, %v, want comparison %d", same, created, err, c.ID)
	}

	// Other limits, other order: other comparisons.
	seen := map[int64]bool{c.ID: true}
	for _, tc := range []struct {
		a, b   int64
		limits string
	}{
		{a.ID, b.ID, `{"timeout": 6, "search": {"nodes": 10, "depth": 2}}`},
		{b.ID, a.ID, `{"timeout": 5, "search": {"nodes": 10, "depth": 2}}`},
		{a.ID, b.ID, ``},
	} {
		o, created, err := db.CreateComparison(ctx, tc.a, tc.b, json.RawMessage(tc.limits))
		if err != nil || !created || seen[o.ID] {
			t.Errorf("CreateComparison(%d, %d, %s) = %v, %v, %v, want a new comparison", tc.a, tc.b, tc.limits, o, created, err)
			continue
		}
		seen[o.ID] = true
	}
	// nil, "null" and {} are the same (default) limits.
	for _, l := range []string{"null", "{}"} {
		o, created, err := db.CreateComparison(ctx, a.ID, b.ID, json.RawMessage(l))
		if err != nil || created || string(o.Limits) != "{}" {
			t.Errorf("CreateComparison(limits %s) = %+v, %v, %v, want the existing comparison with limits {}", l, o, created, err)
		}
	}

	_, _, err = db.CreateComparison(ctx, a.ID, b.ID+100, nil)
	wantErr(t, "CreateComparison(missing game)", err, store.ErrNotFound)
	_, _, err = db.CreateComparison(ctx, a.ID, b.ID, json.RawMessage(`{"timeout":`))
	wantErr(t, "CreateComparison(bad limits)", err, store.ErrInvalid)
	_, err = db.GetComparison(ctx, c.ID+100)
	wantErr(t, "GetComparison(missing)", err, store.ErrNotFound)
}

func testComparisonConcurrentSubmit(t *testing.T, db *store.DB, _ *Clock) {
	a, b := game(t, db, "a"), game(t, db, "b")
	const n = 8
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		created int
		seen    = map[int64]bool{}
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, cr, err := db.CreateComparison(ctx, a.ID, b.ID, json.RawMessage(`{"timeout":1}`))
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("CreateComparison: %v", err)
				return
			}
			seen[c.ID] = true
			if cr {
				created++
			}
		}()
	}
	wg.Wait()
	if created != 1 || len(seen) != 1 {
		t.Errorf("%d concurrent submissions: %d created, ids %v; want 1 created, one id", n, created, seen)
	}
	cs, _, err := db.ListComparisons(ctx, store.ComparisonFilter{})
	if err != nil || len(cs) != 1 {
		t.Errorf("ListComparisons = %d comparisons, %v; want 1", len(cs), err)
	}
}

func testListComparisons(t *testing.T, db *store.DB, _ *Clock) {
	a, b, c := game(t, db, "a"), game(t, db, "b"), game(t, db, "c")
	var all []int64
	for i := range 4 {
		all = append(all, comparison(t, db, a, b, i).ID)
	}
	all = append(all, comparison(t, db, b, c, 0).ID)
	// Finish the oldest one, so that it has a result.
	done := claim(t, db, "w", time.Minute)
	if err := db.Finish(ctx, done.ID, "w", store.Outcome{Status: store.StatusDone, Verdict: "equivalent", Result: json.RawMessage(`{"verdict":"equivalent"}`)}); err != nil {
		t.Fatal(err)
	}

	var got []int64
	f := store.ComparisonFilter{Page: store.Page{Limit: 2}}
	for range 10 {
		cs, next, err := db.ListComparisons(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if c.Result != nil {
				t.Errorf("ListComparisons: comparison %d has a result, want none in lists", c.ID)
			}
		}
		got = append(got, idsOf(cs, compID)...)
		if next == 0 {
			break
		}
		f.Cursor = next
	}
	newestFirst := []int64{all[4], all[3], all[2], all[1], all[0]}
	if diff := cmp.Diff(newestFirst, got); diff != "" {
		t.Errorf("ListComparisons pages mismatch (-want +got):\n%s", diff)
	}

	var filterTests = []struct {
		f    store.ComparisonFilter
		want []int64
	}{
		{store.ComparisonFilter{Status: store.StatusDone}, []int64{all[0]}},
		{store.ComparisonFilter{Status: store.StatusQueued}, []int64{all[4], all[3], all[2], all[1]}},
		{store.ComparisonFilter{Status: store.StatusRunning}, []int64{}},
		{store.ComparisonFilter{GameID: c.ID}, []int64{all[4]}},
		{store.ComparisonFilter{GameID: b.ID, Status: store.StatusDone}, []int64{all[0]}},
	}
	for _, tc := range filterTests {
		cs, _, err := db.ListComparisons(ctx, tc.f)
		if err != nil {
			t.Errorf("ListComparisons(%+v): %v", tc.f, err)
			continue
		}
		if diff := cmp.Diff(tc.want, idsOf(cs, compID)); diff != "" {
			t.Errorf("ListComparisons(%+v) mismatch (-want +got):\n%s", tc.f, diff)
		}
	}
	_, _, err := db.ListComparisons(ctx, store.ComparisonFilter{Status: "paused"})
	wantErr(t, "ListComparisons(unknown status)", err, store.ErrInvalid)

	got1 := get(t, db, all[0])
	if !jsonEq(got1.Result, json.RawMessage(`{"verdict":"equivalent"}`)) {
		t.Errorf("GetComparison(%d).Result = %s, want the result", all[0], got1.Result)
	}
}

// --- the queue -----------------------------------------------------------

func testClaimOrder(t *testing.T, db *store.DB, clk *Clock) {
	wantNoClaim(t, db)
	ids := jobs(t, db, 3)
	clk.Advance(time.Second)
	now := Start.Add(time.Second)
	for i, id := range ids {
		owner := fmt.Sprint("worker-", i)
		c := claim(t, db, owner, time.Minute)
		want := get(t, db, id)
		if c.ID != id {
			t.Fatalf("Claim %d = comparison %d, want %d (oldest first)", i, c.ID, id)
		}
		if diff := cmp.Diff(want, c); diff != "" {
			t.Errorf("Claim result differs from GetComparison (-get +claim):\n%s", diff)
		}
		if c.Status != store.StatusRunning || c.LeaseOwner != owner || !c.LeaseUntil.Equal(now.Add(time.Minute)) ||
			c.Attempts != 1 || !c.StartedAt.Equal(now) || !isUTC(c.LeaseUntil, c.StartedAt, c.CreatedAt) {
			t.Errorf("Claim = %+v, want running, owner %s, lease until %v, 1 attempt, started %v (UTC)", c, owner, now.Add(time.Minute), now)
		}
	}
	wantNoClaim(t, db)
	_, err := db.Claim(ctx, "", time.Minute)
	wantErr(t, "Claim(no owner)", err, store.ErrInvalid)
	_, err = db.Claim(ctx, "w", 0)
	wantErr(t, "Claim(no lease)", err, store.ErrInvalid)
}

func testLeaseExpiry(t *testing.T, db *store.DB, clk *Clock) {
	id := jobs(t, db, 1)[0]
	claim(t, db, "w1", time.Minute)
	clk.Advance(time.Minute)
	wantNoClaim(t, db) // the lease ends after, not at, lease_until
	clk.Advance(time.Microsecond)
	c := claim(t, db, "w2", time.Minute)
	if c.ID != id || c.LeaseOwner != "w2" || c.Attempts != 2 {
		t.Fatalf("Claim after the lease ended = %+v, want comparison %d for w2, attempt 2", c, id)
	}
	// The dead worker wakes up: it can neither report nor finish.
	_, err := db.Heartbeat(ctx, id, "w1", time.Minute, store.Progress{Phase: "search"})
	wantErr(t, "Heartbeat(stale owner)", err, store.ErrLeaseLost)
	err = db.Finish(ctx, id, "w1", store.Outcome{Status: store.StatusDone, Verdict: "equivalent"})
	wantErr(t, "Finish(stale owner)", err, store.ErrLeaseLost)
	if err := db.Finish(ctx, id, "w2", store.Outcome{Status: store.StatusDone, Verdict: "not_equivalent"}); err != nil {
		t.Fatalf("Finish(new owner): %v", err)
	}
	if got := get(t, db, id); got.Verdict != "not_equivalent" || got.Status != store.StatusDone {
		t.Errorf("after Finish: %+v, want done, not_equivalent", got)
	}
}

func testHeartbeat(t *testing.T, db *store.DB, clk *Clock) {
	id := jobs(t, db, 1)[0]
	claim(t, db, "w", time.Minute)
	clk.Advance(50 * time.Second)
	p := store.Progress{Phase: "search", Candidates: 12, JSON: json.RawMessage(`{"phase":"search","candidates":12,"fraction":0.25}`)}
	cancel, err := db.Heartbeat(ctx, id, "w", time.Minute, p)
	if err != nil || cancel {
		t.Fatalf("Heartbeat = %v, %v, want false, nil", cancel, err)
	}
	got := get(t, db, id)
	if got.Phase != "search" || got.Candidates != 12 || !jsonEq(got.Progress, p.JSON) || !got.LeaseUntil.Equal(Start.Add(110*time.Second)) {
		t.Errorf("after Heartbeat: %+v, want progress recorded and lease until +110s", got)
	}
	clk.Advance(50 * time.Second) // past the first lease, within the extended one
	wantNoClaim(t, db)

	// A bare heartbeat keeps the progress.
	if _, err := db.Heartbeat(ctx, id, "w", time.Minute, store.Progress{}); err != nil {
		t.Fatal(err)
	}
	if got := get(t, db, id); got.Phase != "search" || got.Candidates != 12 || !jsonEq(got.Progress, p.JSON) {
		t.Errorf("after a bare Heartbeat: %+v, want progress kept", got)
	}
	_, err = db.Heartbeat(ctx, id, "other", time.Minute, p)
	wantErr(t, "Heartbeat(other owner)", err, store.ErrLeaseLost)
	_, err = db.Heartbeat(ctx, id+100, "w", time.Minute, p)
	wantErr(t, "Heartbeat(missing)", err, store.ErrLeaseLost)
	_, err = db.Heartbeat(ctx, id, "w", time.Minute, store.Progress{JSON: json.RawMessage(`{`)})
	wantErr(t, "Heartbeat(bad JSON)", err, store.ErrInvalid)
}

func testFinishOnce(t *testing.T, db *store.DB, _ *Clock) {
	ids := jobs(t, db, 2)
	c := claim(t, db, "w", time.Minute)
	err := db.Finish(ctx, c.ID, "w", store.Outcome{Status: store.StatusRunning})
	wantErr(t, "Finish(status running)", err, store.ErrInvalid)
	err = db.Finish(ctx, c.ID, "w", store.Outcome{Status: store.StatusDone, Result: json.RawMessage(`{"a":`)})
	wantErr(t, "Finish(bad JSON)", err, store.ErrInvalid)

	result := json.RawMessage(`{"verdict":"equivalent","mapping":{"roles":{"x":"o"}}}`)
	if err := db.Finish(ctx, c.ID, "w", store.Outcome{Status: store.StatusDone, Verdict: "equivalent", Result: result}); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	err = db.Finish(ctx, c.ID, "w", store.Outcome{Status: store.StatusFailed, Error: "again"})
	wantErr(t, "Finish(second time)", err, store.ErrLeaseLost)
	got := get(t, db, c.ID)
	if got.Status != store.StatusDone || got.Verdict != "equivalent" || !jsonEq(got.Result, result) || got.Error != "" ||
		got.FinishedAt.IsZero() || !got.LeaseUntil.IsZero() || got.LeaseOwner != "w" {
		t.Errorf("after two Finish calls: %+v, want the first outcome", got)
	}
	err = db.Finish(ctx, ids[1], "w", store.Outcome{Status: store.StatusDone})
	wantErr(t, "Finish(queued job)", err, store.ErrLeaseLost)

	// A failure keeps its error text.
	c = claim(t, db, "w", time.Minute)
	if err := db.Finish(ctx, c.ID, "w", store.Outcome{Status: store.StatusFailed, Error: "ground a.kif: too many atoms"}); err != nil {
		t.Fatal(err)
	}
	if got := get(t, db, c.ID); got.Status != store.StatusFailed || got.Error != "ground a.kif: too many atoms" || got.Result != nil || got.Verdict != "" {
		t.Errorf("after Finish(failed): %+v", got)
	}
}

func testCancelQueued(t *testing.T, db *store.DB, clk *Clock) {
	id := jobs(t, db, 1)[0]
	clk.Advance(time.Second)
	c, err := db.Cancel(ctx, id)
	if err != nil {
		t.Fatalf("Cancel(queued): %v", err)
	}
	if c.Status != store.StatusCancelled || !c.FinishedAt.Equal(Start.Add(time.Second)) || c.CancelRequested {
		t.Errorf("Cancel(queued) = %+v, want cancelled at once", c)
	}
	wantNoClaim(t, db)
	_, err = db.Cancel(ctx, id)
	wantErr(t, "Cancel(cancelled)", err, store.ErrConflict)
	_, err = db.Cancel(ctx, id+100)
	wantErr(t, "Cancel(missing)", err, store.ErrNotFound)
}

func testCancelRunning(t *testing.T, db *store.DB, _ *Clock) {
	id := jobs(t, db, 1)[0]
	claim(t, db, "w", time.Minute)
	for i := range 2 { // the second cancel is a no-op
		c, err := db.Cancel(ctx, id)
		if err != nil || c.Status != store.StatusRunning || !c.CancelRequested {
			t.Fatalf("Cancel(running) #%d = %+v, %v; want running with a cancel request", i+1, c, err)
		}
	}
	cancel, err := db.Heartbeat(ctx, id, "w", time.Minute, store.Progress{})
	if err != nil || !cancel {
		t.Fatalf("Heartbeat after Cancel = %v, %v, want true", cancel, err)
	}
	if err := db.Finish(ctx, id, "w", store.Outcome{Status: store.StatusCancelled}); err != nil {
		t.Fatalf("Finish(cancelled): %v", err)
	}
	if got := get(t, db, id); got.Status != store.StatusCancelled {
		t.Errorf("after Finish(cancelled): status %s", got.Status)
	}
	_, err = db.Cancel(ctx, id)
	wantErr(t, "Cancel(cancelled)", err, store.ErrConflict)
}

func testCancelFinished(t *testing.T, db *store.DB, _ *Clock) {
	jobs(t, db, 2)
	for _, s := range []store.Status{store.StatusDone, store.StatusFailed} {
		c := claim(t, db, "w", time.Minute)
		if err := db.Finish(ctx, c.ID, "w", store.Outcome{Status: s}); err != nil {
			t.Fatal(err)
		}
		_, err := db.Cancel(ctx, c.ID)
		wantErr(t, fmt.Sprintf("Cancel(%s)", s), err, store.ErrConflict)
		if got := get(t, db, c.ID); got.Status != s || got.CancelRequested {
			t.Errorf("Cancel(%s) changed it: %+v", s, got)
		}
	}
}

func testCancelDeadWorker(t *testing.T, db *store.DB, clk *Clock) {
	ids := jobs(t, db, 2)
	claim(t, db, "dead", time.Minute)
	if _, err := db.Cancel(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Minute)
	// The next claim closes the abandoned job and takes the next one.
	c := claim(t, db, "w", time.Minute)
	if c.ID != ids[1] {
		t.Errorf("Claim = comparison %d, want %d", c.ID, ids[1])
	}
	if got := get(t, db, ids[0]); got.Status != store.StatusCancelled || got.FinishedAt.IsZero() {
		t.Errorf("abandoned job with a cancel request: %+v, want cancelled", got)
	}
}

func testMaxAttempts(t *testing.T, db *store.DB, clk *Clock) {
	id := jobs(t, db, 1)[0]
	for i := 1; i <= store.DefaultMaxAttempts; i++ {
		c := claim(t, db, fmt.Sprint("w", i), time.Minute)
		if c.ID != id || c.Attempts != i {
			t.Fatalf("Claim #%d = %+v, want comparison %d attempt %d", i, c, id, i)
		}
		clk.Advance(time.Minute + time.Second)
	}
	wantNoClaim(t, db)
	got := get(t, db, id)
	if got.Status != store.StatusFailed || got.Error == "" || got.Attempts != store.DefaultMaxAttempts || got.FinishedAt.IsZero() {
		t.Errorf("after %d lost leases: %+v, want failed with an error", store.DefaultMaxAttempts, got)
	}
}

func testRelease(t *testing.T, db *store.DB, _ *Clock) {
	ids := jobs(t, db, 2)
	c := claim(t, db, "w", time.Minute)
	wantErr(t, "Release(other owner)", db.Release(ctx, c.ID, "other"), store.ErrLeaseLost)
	if err := db.Release(ctx, c.ID, "w"); err != nil {
		t.Fatalf("Release: %v", err)
	}
	got := get(t, db, c.ID)
	if got.Status != store.StatusQueued || got.LeaseOwner != "" || !got.LeaseUntil.IsZero() || got.Attempts != 0 {
		t.Errorf("after Release: %+v, want queued, no lease, 0 attempts", got)
	}
	wantErr(t, "Release(queued)", db.Release(ctx, c.ID, "w"), store.ErrLeaseLost)
	if c := claim(t, db, "w2", time.Minute); c.ID != ids[0] || c.Attempts != 1 {
		t.Errorf("Claim after Release = %+v, want comparison %d attempt 1", c, ids[0])
	}
	// A released job with a cancel request is cancelled.
	if _, err := db.Cancel(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	if err := db.Release(ctx, ids[0], "w2"); err != nil {
		t.Fatal(err)
	}
	if got := get(t, db, ids[0]); got.Status != store.StatusCancelled || got.FinishedAt.IsZero() {
		t.Errorf("Release with a cancel request: %+v, want cancelled", got)
	}
}

func testCounts(t *testing.T, db *store.DB, _ *Clock) {
	if n, err := db.QueueDepth(ctx); err != nil || n != 0 {
		t.Errorf("QueueDepth(empty) = %d, %v, want 0", n, err)
	}
	ids := jobs(t, db, 4)
	claim(t, db, "w", time.Minute)
	c := claim(t, db, "w", time.Minute)
	if err := db.Finish(ctx, c.ID, "w", store.Outcome{Status: store.StatusDone}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Cancel(ctx, ids[3]); err != nil {
		t.Fatal(err)
	}
	if n, err := db.QueueDepth(ctx); err != nil || n != 1 {
		t.Errorf("QueueDepth = %d, %v, want 1", n, err)
	}
	got, err := db.CountByStatus(ctx)
	want := map[store.Status]int64{store.StatusQueued: 1, store.StatusRunning: 1, store.StatusDone: 1, store.StatusCancelled: 1}
	if diff := cmp.Diff(want, got); err != nil || diff != "" {
		t.Errorf("CountByStatus: %v, mismatch (-want +got):\n%s", err, diff)
	}
}

// testConcurrentClaimers runs several workers on one queue: every job is
// claimed exactly once and finished by its claimer.
func testConcurrentClaimers(t *testing.T, db *store.DB, _ *Clock) {
	const workers, n = 6, 40
	want := jobs(t, db, n)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		claimed = map[int64][]string{}
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			owner := fmt.Sprint("worker-", w)
			for {
				c, err := db.Claim(ctx, owner, time.Hour)
				if errors.Is(err, store.ErrNotFound) {
					return
				}
				if err != nil {
					t.Errorf("%s: Claim: %v", owner, err)
					return
				}
				mu.Lock()
				claimed[c.ID] = append(claimed[c.ID], owner)
				mu.Unlock()
				if _, err := db.Heartbeat(ctx, c.ID, owner, time.Hour, store.Progress{Phase: "search"}); err != nil {
					t.Errorf("%s: Heartbeat(%d): %v", owner, c.ID, err)
				}
				if err := db.Finish(ctx, c.ID, owner, store.Outcome{Status: store.StatusDone, Verdict: owner}); err != nil {
					t.Errorf("%s: Finish(%d): %v", owner, c.ID, err)
				}
			}
		}()
	}
	wg.Wait()
	var got []int64
	for id, owners := range claimed {
		got = append(got, id)
		if len(owners) != 1 {
			t.Errorf("comparison %d claimed by %v, want one worker", id, owners)
			continue
		}
		if c := get(t, db, id); c.Status != store.StatusDone || c.Verdict != owners[0] || c.Attempts != 1 {
			t.Errorf("comparison %d = %+v, want done by %s", id, c, owners[0])
		}
	}
	sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("claimed jobs mismatch (-want +got):\n%s", diff)
	}
}

// --- symmetries ----------------------------------------------------------

func testSymmetries(t *testing.T, db *store.DB, clk *Clock) {
	g := game(t, db, "a")
	_, err := db.GetSymmetries(ctx, g.ID)
	wantErr(t, "GetSymmetries(none)", err, store.ErrNotFound)
	first := json.RawMessage(`{"order":2,"generators":[]}`)
	put, err := db.PutSymmetries(ctx, g.ID, first)
	if err != nil {
		t.Fatalf("PutSymmetries: %v", err)
	}
	got, err := db.GetSymmetries(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(put, got, cmp.Comparer(jsonEq)); diff != "" || !jsonEq(got.Result, first) || !got.CreatedAt.Equal(Start) {
		t.Errorf("GetSymmetries mismatch (-put +get):\n%s", diff)
	}
	clk.Advance(time.Minute)
	second := json.RawMessage(`{"order":4,"generators":[]}`)
	if _, err := db.PutSymmetries(ctx, g.ID, second); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetSymmetries(ctx, g.ID); got == nil || !jsonEq(got.Result, second) || !got.CreatedAt.Equal(Start.Add(time.Minute)) {
		t.Errorf("GetSymmetries after a second Put = %+v, want the second result", got)
	}
	_, err = db.PutSymmetries(ctx, g.ID+100, first)
	wantErr(t, "PutSymmetries(missing game)", err, store.ErrNotFound)
	_, err = db.PutSymmetries(ctx, g.ID, json.RawMessage(`{`))
	wantErr(t, "PutSymmetries(bad JSON)", err, store.ErrInvalid)
	_, err = db.PutSymmetries(ctx, g.ID, nil)
	wantErr(t, "PutSymmetries(nil)", err, store.ErrInvalid)
}

// testSymmetryFailures: a stored failure is served like a result, a later
// result replaces it, and a failure never replaces a result.
func testSymmetryFailures(t *testing.T, db *store.DB, clk *Clock) {
	g := game(t, db, "a")
	problem := json.RawMessage(`{"status":422,"code":"limit_exceeded","detail":"too many atoms"}`)
	put, err := db.PutSymmetryFailure(ctx, g.ID, problem)
	if err != nil {
		t.Fatalf("PutSymmetryFailure: %v", err)
	}
	got, err := db.GetSymmetries(ctx, g.ID)
	if err != nil {
		t.Fatalf("GetSymmetries after a failure: %v", err)
	}
	if diff := cmp.Diff(put, got, cmp.Comparer(jsonEq)); diff != "" || !jsonEq(got.Problem, problem) || got.Result != nil || !got.CreatedAt.Equal(Start) {
		t.Errorf("GetSymmetries after a failure = %+v (-put +get):\n%s", got, diff)
	}
	clk.Advance(time.Minute)
	result := json.RawMessage(`{"order":2,"generators":[]}`)
	if _, err := db.PutSymmetries(ctx, g.ID, result); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetSymmetries(ctx, g.ID); got == nil || !jsonEq(got.Result, result) || got.Problem != nil {
		t.Errorf("GetSymmetries after a result replaced the failure = %+v, want the result", got)
	}
	kept, err := db.PutSymmetryFailure(ctx, g.ID, problem)
	if err != nil || !jsonEq(kept.Result, result) || kept.Problem != nil {
		t.Errorf("PutSymmetryFailure over a result = %+v, %v; want the result kept", kept, err)
	}
	if got, _ := db.GetSymmetries(ctx, g.ID); got == nil || !jsonEq(got.Result, result) {
		t.Errorf("GetSymmetries after a failure over a result = %+v, want the result", got)
	}
	_, err = db.PutSymmetryFailure(ctx, g.ID+100, problem)
	wantErr(t, "PutSymmetryFailure(missing game)", err, store.ErrNotFound)
	_, err = db.PutSymmetryFailure(ctx, g.ID, json.RawMessage(`{`))
	wantErr(t, "PutSymmetryFailure(bad JSON)", err, store.ErrInvalid)
}

func testContextCanceled(t *testing.T, db *store.DB, _ *Clock) {
	g := game(t, db, "a")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err := db.GetGame(cctx, g.ID)
	wantErr(t, "GetGame(canceled context)", err, context.Canceled)
	_, err = db.Claim(cctx, "w", time.Minute)
	wantErr(t, "Claim(canceled context)", err, context.Canceled)
	// The store still works afterwards.
	if _, err := db.GetGame(ctx, g.ID); err != nil {
		t.Errorf("GetGame after a canceled call: %v", err)
	}
}
