package storetest

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gamequiv/gamequiv/store"
)

// Tests of the lookups a notebook client needs: content hashes that ignore
// line endings, aliases, games by name or hash, and comparisons that carry
// their games' names and the result's reason.

func testGameLineEndings(t *testing.T, db *store.DB, _ *Clock) {
	lf := []byte("(role x)\n(init (cell 1 b))\n")
	crlf := []byte("(role x)\r\n(init (cell 1 b))\r\n")
	cr := []byte("(role x)\r(init (cell 1 b))\r")
	if got, want := store.ContentSHA256(crlf), store.ContentSHA256(lf); got != want {
		t.Errorf("ContentSHA256(CRLF) = %s, want %s (as LF)", got, want)
	}
	g, created, err := db.CreateGame(ctx, "crlf", crlf, nil)
	if err != nil || !created {
		t.Fatalf("CreateGame(CRLF) = %v, %v, %v, want a new game", g, created, err)
	}
	if string(g.GDL) != string(lf) || g.SHA256 != store.ContentSHA256(lf) {
		t.Errorf("CreateGame(CRLF) stored %q with hash %s, want the LF text %q and its hash", g.GDL, g.SHA256, lf)
	}
	for _, text := range [][]byte{lf, cr} {
		again, created, err := db.CreateGame(ctx, "again", text, nil)
		if err != nil || created || again.ID != g.ID {
			t.Errorf("CreateGame(%q) = %v, %v, %v, want game %d again", text, again, created, err, g.ID)
		}
	}
	got, err := db.GameBySHA256(ctx, store.ContentSHA256(crlf))
	if err != nil || got.ID != g.ID || string(got.GDL) != string(lf) {
		t.Errorf("GameBySHA256 = %v, %v, want game %d with its text", got, err, g.ID)
	}
	_, err = db.GameBySHA256(ctx, store.ContentSHA256([]byte("(role other)")))
	wantErr(t, "GameBySHA256(unknown)", err, store.ErrNotFound)
}

func testGameAliases(t *testing.T, db *store.DB, clk *Clock) {
	g := game(t, db, "first")
	other := game(t, db, "other")
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"first", false}, // its own name
		{"second", true},
		{"second", false}, // already an alias
		{"third", true},
	} {
		clk.Advance(time.Second)
		added, err := db.AddGameAlias(ctx, g.ID, tc.name)
		if err != nil || added != tc.want {
			t.Errorf("AddGameAlias(%d, %q) = %v, %v, want %v", g.ID, tc.name, added, err, tc.want)
		}
	}
	// Another game may carry the same alias.
	if added, err := db.AddGameAlias(ctx, other.ID, "second"); err != nil || !added {
		t.Errorf("AddGameAlias(other, second) = %v, %v, want true", added, err)
	}
	got, err := db.GetGame(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"second", "third"}, got.Aliases); diff != "" || got.Name != "first" {
		t.Errorf("GetGame: name %q, aliases mismatch (-want +got):\n%s", got.Name, diff)
	}
	again, created, err := db.CreateGame(ctx, "fourth", got.GDL, nil)
	if err != nil || created || !slices.Equal(again.Aliases, []string{"second", "third"}) {
		t.Errorf("CreateGame(same text) = %+v, %v, %v, want the game with its aliases and no new one", again, created, err)
	}
	_, err = db.AddGameAlias(ctx, other.ID+100, "x")
	wantErr(t, "AddGameAlias(missing game)", err, store.ErrNotFound)
	_, err = db.AddGameAlias(ctx, g.ID, "")
	wantErr(t, "AddGameAlias(empty name)", err, store.ErrInvalid)
	_, err = db.AddGameAlias(ctx, g.ID, "a\xffb")
	wantErr(t, "AddGameAlias(bad UTF-8)", err, store.ErrInvalid)
}

func testFindGames(t *testing.T, db *store.DB, _ *Clock) {
	ttt := game(t, db, "ggp-base/ticTacToe")
	sum := game(t, db, "ggp-base/sum15")
	tttBig := game(t, db, "TicTacToeLarge")
	odd := game(t, db, "100%_done")
	if _, err := db.AddGameAlias(ctx, sum.ID, "number scrabble"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    store.GameFilter
		want []int64
	}{
		{"All", store.GameFilter{}, []int64{ttt.ID, sum.ID, tttBig.ID, odd.ID}},
		{"Name", store.GameFilter{Name: "ggp-base/sum15"}, []int64{sum.ID}},
		{"NameIsAlias", store.GameFilter{Name: "number scrabble"}, []int64{sum.ID}},
		{"NameExact", store.GameFilter{Name: "sum15"}, nil},
		{"Contains", store.GameFilter{NameContains: "tictactoe"}, []int64{ttt.ID, tttBig.ID}},
		{"ContainsAlias", store.GameFilter{NameContains: "SCRAB"}, []int64{sum.ID}},
		{"ContainsWildcards", store.GameFilter{NameContains: "0%_"}, []int64{odd.ID}},
		{"ContainsUnderscore", store.GameFilter{NameContains: "e_"}, nil},
		{"SHA256", store.GameFilter{SHA256: sum.SHA256}, []int64{sum.ID}},
		{"SHA256AndName", store.GameFilter{SHA256: sum.SHA256, Name: "ggp-base/ticTacToe"}, nil},
		{"Paged", store.GameFilter{NameContains: "a", Page: store.Page{Limit: 1, Cursor: ttt.ID}}, []int64{sum.ID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games, _, err := db.FindGames(ctx, tc.f)
			if err != nil {
				t.Fatalf("FindGames(%+v): %v", tc.f, err)
			}
			if diff := cmp.Diff(tc.want, idsOf(games, gameID), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("FindGames(%+v) ids mismatch (-want +got):\n%s", tc.f, diff)
			}
		})
	}
	games, next, err := db.FindGames(ctx, store.GameFilter{NameContains: "tictactoe", Page: store.Page{Limit: 1}})
	if err != nil || len(games) != 1 || next != ttt.ID {
		t.Errorf("FindGames(limit 1) = %d games, next %d, %v; want 1, next %d", len(games), next, err, ttt.ID)
	}
	for _, f := range []store.GameFilter{{SHA256: "ABC"}, {SHA256: sum.SHA256[:63] + "G"}, {Name: "a\x00b"}} {
		_, _, err := db.FindGames(ctx, f)
		wantErr(t, fmt.Sprintf("FindGames(%+v)", f), err, store.ErrInvalid)
	}
}

func testComparisonNamesReason(t *testing.T, db *store.DB, _ *Clock) {
	a, b := game(t, db, "alpha"), game(t, db, "beta")
	c, _, err := db.CreateComparison(ctx, a.ID, b.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.NameA != "alpha" || c.NameB != "beta" {
		t.Errorf("CreateComparison names = %q, %q, want alpha, beta", c.NameA, c.NameB)
	}
	run := claim(t, db, "w", time.Minute)
	result := json.RawMessage(`{"verdict":"not_equivalent","reason":"different numbers of roles","stats":{}}`)
	if err := db.Finish(ctx, run.ID, "w", store.Outcome{Status: store.StatusDone, Verdict: "not_equivalent", Result: result}); err != nil {
		t.Fatal(err)
	}
	got := get(t, db, c.ID)
	if got.Reason != "different numbers of roles" || got.NameA != "alpha" || got.NameB != "beta" {
		t.Errorf("GetComparison = reason %q, names %q, %q", got.Reason, got.NameA, got.NameB)
	}
	cs, _, err := db.ListComparisons(ctx, store.ComparisonFilter{})
	if err != nil || len(cs) != 1 {
		t.Fatalf("ListComparisons = %v, %v", cs, err)
	}
	if l := cs[0]; l.Reason != "different numbers of roles" || l.NameA != "alpha" || l.NameB != "beta" ||
		l.Verdict != "not_equivalent" || l.Result != nil {
		t.Errorf("ListComparisons item = %+v, want names, verdict and reason without the result", l)
	}
}
