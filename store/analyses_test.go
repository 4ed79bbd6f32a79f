package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/store/storetest"
)

func TestGameAnalysesSQLite(t *testing.T) {
	testGameAnalyses(t, storetest.OpenSQLite(t))
}

func TestGameAnalysesPostgres(t *testing.T) {
	testGameAnalyses(t, storetest.OpenPostgres(t, postgresURL(t)))
}

func testGameAnalyses(t *testing.T, db *store.DB) {
	ctx := context.Background()
	var ids []int64
	for _, gdl := range []string{"(role a)", "(role b)", "(role c)"} {
		g, _, err := db.CreateGame(ctx, gdl, []byte(gdl), nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	if _, err := db.GetGameAnalysis(ctx, ids[0]); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetGameAnalysis before Put: %v, want ErrNotFound", err)
	}
	keys := store.Analysis{Invariants: "v2 r1"}
	ground := store.GameAnalysis{Doc: json.RawMessage(`{"roles":1}`)}
	full := store.GameAnalysis{Doc: json.RawMessage(`{"roles":1,"vertices":3}`), HasGraph: true}
	if err := db.PutGameAnalysis(ctx, ids[0], keys, ground); err != nil {
		t.Fatal(err)
	}
	keys.Certificate = "g1.iso1:abc"
	if err := db.PutGameAnalysis(ctx, ids[0], keys, full); err != nil {
		t.Fatal(err)
	}
	// The ground part alone never replaces a stored graph part.
	if err := db.PutGameAnalysis(ctx, ids[0], store.Analysis{Invariants: "v2 r1"}, ground); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetGameAnalysis(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if !got.HasGraph || string(got.Doc) != string(full.Doc) {
		t.Errorf("GetGameAnalysis = %+v, want the document with the graph part", got)
	}
	g, err := db.GetGame(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if g.Analysis == nil || g.Analysis.Certificate != "g1.iso1:abc" || g.Analysis.Invariants != "v2 r1" {
		t.Errorf("game keys = %+v, want those of the full analysis", g.Analysis)
	}
	if err := db.PutGameAnalysis(ctx, 999, keys, ground); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PutGameAnalysis of a missing game: %v, want ErrNotFound", err)
	}
	if err := db.PutGameAnalysis(ctx, ids[1], keys, store.GameAnalysis{Doc: json.RawMessage(`{`)}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("PutGameAnalysis of bad JSON: %v, want ErrInvalid", err)
	}

	// Paging past the games being placed.
	page, next, err := db.AwaitingClass(ctx, store.Page{Limit: 1})
	if err != nil || len(page) != 1 || page[0].ID != ids[0] || next != ids[0] || page[0].GDL == nil {
		t.Fatalf("AwaitingClass page 1 = %v, %d, %v", page, next, err)
	}
	page, next, err = db.AwaitingClass(ctx, store.Page{Limit: 5, Cursor: next})
	if err != nil || len(page) != 2 || page[0].ID != ids[1] || next != 0 {
		t.Fatalf("AwaitingClass page 2 = %v, %d, %v", page, next, err)
	}

	// Classed games without analysis: ids[1] once it has a class.
	if _, err := db.NewClass(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	cl, err := db.NewClass(ctx, ids[1])
	if err != nil {
		t.Fatal(err)
	}
	without, err := db.ClassedWithoutAnalysis(ctx, 0)
	if err != nil || len(without) != 1 || without[0].ID != ids[1] || without[0].ClassID != cl.ID {
		t.Fatalf("ClassedWithoutAnalysis = %v, %v; want game %d", without, err, ids[1])
	}

	// Deleting a game deletes its analysis with it.
	if err := db.DeleteGame(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetGameAnalysis(ctx, ids[0]); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetGameAnalysis of a deleted game: %v, want ErrNotFound", err)
	}
}
