package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/store/storetest"
	"gorm.io/gorm"
)

func TestSQLite(t *testing.T) {
	storetest.Run(t, storetest.OpenSQLite)
}

func TestPostgres(t *testing.T) {
	dsn := postgresURL(t)
	storetest.Run(t, func(t testing.TB) *store.DB { return storetest.OpenPostgres(t, dsn) })
}

// postgresURL returns the URL of the test PostgreSQL database, or skips
// the test.
func postgresURL(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv(storetest.PostgresEnv)
	if dsn == "" {
		t.Skipf("%s not set: PostgreSQL tests skipped", storetest.PostgresEnv)
	}
	return dsn
}

// TestSQLiteSettings checks the connection settings that the SQLite DSN
// asks for.
func TestSQLiteSettings(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(context.Background(), store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := os.Stat(filepath.Join(dir, store.SQLiteFile)); err != nil {
		t.Errorf("database file: %v", err)
	}
	g := store.Gorm(db)
	var pragmaTests = []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "5000"},
	}
	for _, tc := range pragmaTests {
		var got string
		if err := g.Raw("PRAGMA " + tc.pragma).Scan(&got).Error; err != nil {
			t.Errorf("PRAGMA %s: %v", tc.pragma, err)
			continue
		}
		if got != tc.want {
			t.Errorf("PRAGMA %s = %q, want %q", tc.pragma, got, tc.want)
		}
	}
	sqlDB, _ := g.DB()
	if n := sqlDB.Stats().MaxOpenConnections; n != 1 {
		t.Errorf("MaxOpenConnections = %d, want 1", n)
	}
	if db.Dialect() != store.SQLite {
		t.Errorf("Dialect = %q, want %q", db.Dialect(), store.SQLite)
	}
}

// TestReopen checks that opening a migrated database again keeps its data
// and applies nothing.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := db.CreateGame(ctx, "a", []byte("(role a)"), nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = store.Open(ctx, store.Config{DataDir: dir})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db.Close()
	if _, err := db.GetGame(ctx, g.ID); err != nil {
		t.Errorf("GetGame after reopen: %v", err)
	}
	if err := db.Ready(ctx); err != nil {
		t.Errorf("Ready after reopen: %v", err)
	}
}

var openErrorTests = []struct {
	name string
	cfg  store.Config
}{
	{"NoDataDir", store.Config{}},
	{"OtherScheme", store.Config{DatabaseURL: "mysql://x@localhost/db"}},
	{"QuestionMarkInDir", store.Config{DataDir: "data?mode=memory"}},
	{"NegativeAttempts", store.Config{DataDir: "data", MaxAttempts: -1}},
}

func TestOpenErrors(t *testing.T) {
	for _, tc := range openErrorTests {
		t.Run(tc.name, func(t *testing.T) {
			db, err := store.Open(context.Background(), tc.cfg)
			if !errors.Is(err, store.ErrInvalid) {
				if db != nil {
					db.Close()
				}
				t.Errorf("Open(%+v) = %v, want ErrInvalid", tc.cfg, err)
			}
		})
	}
}

func TestPostgresPasswordNotShown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := store.Open(ctx, store.Config{DatabaseURL: "postgres://u:s3cret@127.0.0.1:1/db?connect_timeout=1"})
	if err == nil {
		t.Fatal("Open(unreachable) = nil error")
	}
	if msg := err.Error(); strings.Contains(msg, "s3cret") {
		t.Errorf("Open error shows the password: %s", msg)
	}
}

// TestSQLiteReadPool: reads go through a pool of query-only connections that
// see every committed write at once and do not wait for a write transaction
// in progress.
func TestSQLiteReadPool(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, store.Config{DataDir: t.TempDir(), MaxReadConns: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := store.Reader(db)
	readDB, _ := r.DB()
	if n := readDB.Stats().MaxOpenConnections; n != 3 {
		t.Errorf("read pool MaxOpenConnections = %d, want 3", n)
	}
	if err := r.Exec("CREATE TABLE scratch (x INTEGER)").Error; err == nil {
		t.Error("the read pool accepted a write")
	}
	g, _, err := db.CreateGame(ctx, "one", []byte("(role a)"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := db.GetGame(ctx, g.ID); err != nil || got.Name != "one" {
		t.Fatalf("GetGame right after CreateGame = %v, %v", got, err)
	}
	// A write transaction holds SQLite's write lock; a read still answers.
	hold, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- store.Gorm(db).Transaction(func(tx *gorm.DB) error {
			if err := tx.Exec("UPDATE games SET name = 'two' WHERE id = ?", g.ID).Error; err != nil {
				return err
			}
			close(hold)
			<-release
			return nil
		})
	}()
	<-hold
	ctxRead, cancel := context.WithTimeout(ctx, 2*time.Second)
	got, err := db.GetGame(ctxRead, g.ID)
	cancel()
	if err != nil || got.Name != "one" {
		t.Errorf("GetGame during a write transaction = %v, %v; want the committed name one at once", got, err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, err := db.GetGame(ctx, g.ID); err != nil || got.Name != "two" {
		t.Errorf("GetGame after the commit = %v, %v; want two", got, err)
	}
}
