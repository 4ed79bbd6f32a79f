package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/store/storetest"
)

func TestSearchSQLite(t *testing.T) { testSearch(t, storetest.OpenSQLite(t)) }

func TestSearchPostgres(t *testing.T) {
	testSearch(t, storetest.OpenPostgres(t, postgresURL(t)))
}

func testSearch(t *testing.T, db *store.DB) {
	ctx := context.Background()
	names := []string{"ticTacToe", "Tic-tac-toe 2", "sum15", "50%_off", "chess"}
	ids := make([]int64, len(names))
	for i, n := range names {
		g, _, err := db.CreateGame(ctx, n, []byte(fmt.Sprintf("(role r%d)", i)), nil)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = g.ID
	}
	got, err := db.GameNames(ctx, []int64{ids[0], ids[2], 99999})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[ids[0]] != "ticTacToe" || got[ids[2]] != "sum15" {
		t.Errorf("GameNames = %v", got)
	}
	if _, err := db.GameNames(ctx, make([]int64, store.MaxNameIDs+1)); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("GameNames(too many) error = %v, want ErrInvalid", err)
	}

	search := func(q string, p store.Page) ([]string, int64) {
		t.Helper()
		gs, next, err := db.SearchGames(ctx, q, p)
		if err != nil {
			t.Fatalf("SearchGames(%q): %v", q, err)
		}
		var out []string
		for _, g := range gs {
			if g.GDL != nil {
				t.Errorf("SearchGames(%q) returned GDL", q)
			}
			out = append(out, g.Name)
		}
		return out, next
	}
	var searchTests = []struct {
		q    string
		want []string
	}{
		{"tic", []string{"ticTacToe", "Tic-tac-toe 2"}},
		{"TAC", []string{"ticTacToe", "Tic-tac-toe 2"}},
		{"%", []string{"50%_off"}},
		{"_", []string{"50%_off"}},
		{"zzz", nil},
		{"", names},
	}
	for _, tc := range searchTests {
		if got, _ := search(tc.q, store.Page{}); !slices.Equal(got, tc.want) {
			t.Errorf("SearchGames(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
	first, next := search("o", store.Page{Limit: 2})
	rest, last := search("o", store.Page{Limit: 2, Cursor: next})
	if !slices.Equal(first, []string{"ticTacToe", "Tic-tac-toe 2"}) || !slices.Equal(rest, []string{"50%_off"}) || last != 0 {
		t.Errorf("SearchGames pages = %q %q (next %d)", first, rest, last)
	}

	c1, err := db.NewClass(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AssignClass(ctx, ids[2], c1.ID); err != nil {
		t.Fatal(err)
	}
	c2, err := db.NewClass(ctx, ids[4])
	if err != nil {
		t.Fatal(err)
	}
	classes := func(q string) []int64 {
		t.Helper()
		cs, _, err := db.SearchClasses(ctx, q, store.Page{})
		if err != nil {
			t.Fatalf("SearchClasses(%q): %v", q, err)
		}
		var out []int64
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	if got := classes("SUM"); !slices.Equal(got, []int64{c1.ID}) {
		t.Errorf("SearchClasses(SUM) = %v, want [%d]", got, c1.ID)
	}
	if got := classes(""); !slices.Equal(got, []int64{c1.ID, c2.ID}) {
		t.Errorf("SearchClasses('') = %v", got)
	}
	if got := classes("off"); got != nil {
		t.Errorf("SearchClasses(off) = %v, want none (the game has no class)", got)
	}
	cs, _, _ := db.SearchClasses(ctx, "sum", store.Page{})
	if len(cs) == 1 && len(cs[0].Members) != 2 {
		t.Errorf("SearchClasses(sum) members = %v, want both", cs[0].Members)
	}
}
