// Package storetest is the conformance suite of package store (in the style
// of gonum's testgraph) and the helpers that open throw-away stores for
// tests: Run checks a store against the behaviour the rest of gamequiv
// relies on, on every database kind it is given.
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, storetest.OpenSQLite)
//	}
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/gamequiv/gamequiv/store"
)

// PostgresEnv names the environment variable that holds the URL of a
// PostgreSQL database for tests (postgres://user@host:port/db?sslmode=disable).
// Tests that need PostgreSQL skip themselves when it is empty.
const PostgresEnv = "GEQ_TEST_PG"

// OpenSQLite returns a store in a new SQLite file under t.TempDir(),
// closed when the test ends.
func OpenSQLite(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), store.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatalf("open SQLite store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// OpenPostgres returns a store in a new, empty schema of the PostgreSQL
// database at databaseURL; the schema is dropped and the store closed when
// the test ends. Each call gets its own schema, so tests do not see each
// other's rows.
func OpenPostgres(t testing.TB, databaseURL string) *store.DB {
	t.Helper()
	schemaURL := NewPostgresSchema(t, databaseURL)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := store.Open(ctx, store.Config{DatabaseURL: schemaURL, MaxOpenConns: 8})
	if err != nil {
		t.Fatalf("open PostgreSQL store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// NewPostgresSchema creates a new, empty schema in the PostgreSQL database
// at databaseURL and returns a URL whose connections use it (its
// search_path), for a store or a server process of one test. The schema is
// dropped when the test ends, after the cleanups registered later (close
// what uses it in those).
func NewPostgresSchema(t testing.TB, databaseURL string) string {
	t.Helper()
	u, err := url.Parse(databaseURL)
	if err != nil {
		t.Fatalf("%s: not a URL", PostgresEnv)
	}
	admin, err := sql.Open("pgx", databaseURL)
	if err != nil {
		t.Fatalf("connect to PostgreSQL: %v", err)
	}
	defer admin.Close()
	var b [6]byte
	rand.Read(b[:])
	schema := "geqtest_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() { dropSchema(t, databaseURL, schema) })
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func dropSchema(t testing.TB, databaseURL, schema string) {
	admin, err := sql.Open("pgx", databaseURL)
	if err != nil {
		t.Errorf("connect to PostgreSQL: %v", err)
		return
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
		t.Errorf("drop schema %s: %v", schema, err)
	}
}

// Clock is a settable clock for DB.Now. It is safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock that stands at t until advanced.
func NewClock(t time.Time) *Clock {
	return &Clock{t: t}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
