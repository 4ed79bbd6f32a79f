package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/store/storetest"
)

// runCLI runs gamequiv with args and returns the exit status and output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, stdio{in: strings.NewReader(""), out: &out, err: &errOut})
	return code, out.String(), errOut.String()
}

func TestTokenSQLite(t *testing.T) {
	dir := t.TempDir()
	testToken(t, []string{"--data", dir}, func() *store.DB {
		db, err := store.Open(context.Background(), store.Config{DataDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestTokenPostgres(t *testing.T) {
	dsn := os.Getenv(storetest.PostgresEnv)
	if dsn == "" {
		t.Skipf("%s not set: PostgreSQL tests skipped", storetest.PostgresEnv)
	}
	u := storetest.NewPostgresSchema(t, dsn)
	testToken(t, []string{"--database-url", u}, func() *store.DB {
		db, err := store.Open(context.Background(), store.Config{DatabaseURL: u})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

// testToken creates, lists and revokes tokens with the CLI on the database
// that dbFlags select, and checks them against the store that open opens.
func testToken(t *testing.T, dbFlags []string, open func() *store.DB) {
	code, secret, stderr := runCLI(t, append([]string{"token", "create", "--name", "alice"}, dbFlags...)...)
	secret = strings.TrimSpace(secret)
	if code != exitOK || !strings.HasPrefix(secret, store.TokenPrefix) || !strings.Contains(stderr, "shown only now") {
		t.Fatalf("token create = %d, %q, %q", code, secret, stderr)
	}
	code, out, _ := runCLI(t, append([]string{"token", "create", "--name", "root", "--admin", "--json"}, dbFlags...)...)
	var root tokenJSON
	if err := json.Unmarshal([]byte(out), &root); code != exitOK || err != nil || !root.Admin || root.Name != "root" || root.Token == "" {
		t.Fatalf("token create --admin --json = %d, %s (%v)", code, out, err)
	}

	db := open()
	ctx := context.Background()
	for _, tc := range []struct {
		secret string
		want   store.User
	}{{secret, store.User{Name: "alice"}}, {root.Token, store.User{Name: "root", Admin: true}}} {
		if u, err := db.Authenticate(ctx, tc.secret); err != nil || *u != tc.want {
			t.Errorf("Authenticate(created token) = %+v, %v, want %+v", u, err, tc.want)
		}
	}

	code, out, _ = runCLI(t, append([]string{"token", "list"}, dbFlags...)...)
	if code != exitOK || !strings.Contains(out, "alice") || !strings.Contains(out, "root") || strings.Contains(out, secret) {
		t.Errorf("token list = %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, append([]string{"token", "revoke", "1", "--json"}, dbFlags...)...)
	var revoked tokenJSON
	if err := json.Unmarshal([]byte(out), &revoked); code != exitOK || err != nil || revoked.RevokedAt == nil || revoked.Name != "alice" {
		t.Errorf("token revoke 1 = %d, %s", code, out)
	}
	if _, err := db.Authenticate(ctx, secret); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Authenticate(revoked) = %v, want ErrNotFound", err)
	}
	code, out, _ = runCLI(t, append([]string{"token", "revoke", "--name", "root"}, dbFlags...)...)
	if code != exitOK || !strings.Contains(out, "revoked 1 token(s) of root") {
		t.Errorf("token revoke --name root = %d, %q", code, out)
	}
	code, out, _ = runCLI(t, append([]string{"token", "list", "--json"}, dbFlags...)...)
	var list struct{ Tokens []tokenJSON }
	if err := json.Unmarshal([]byte(out), &list); code != exitOK || err != nil || len(list.Tokens) != 2 || list.Tokens[1].RevokedAt == nil {
		t.Errorf("token list --json = %d, %s", code, out)
	}

	for _, args := range [][]string{
		{"token"},
		{"token", "create"},                     // no name
		{"token", "create", "--name", "a b"},    // a space
		{"token", "revoke"},                     // neither ID nor name
		{"token", "revoke", "1", "--name", "x"}, // both
		{"token", "revoke", "x"},                // not a number
		{"token", "revoke", "99"},               // no such token
		{"token", "frobnicate"},                 // no such subcommand
		{"token", "list", "extra"},              // an argument too many
	} {
		if code, _, stderr := runCLI(t, append(args, dbFlags...)...); code != exitInvalid {
			t.Errorf("gamequiv %q = %d (%s), want %d", args, code, stderr, exitInvalid)
		}
	}
}

// TestTokenEnv checks that the token command finds the server's SQLite
// database through GAMEQUIV_DATA, as the server does.
func TestTokenEnv(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	t.Setenv(envData, dir)
	t.Setenv(envDatabaseURL, "")
	if code, _, stderr := runCLI(t, "token", "create", "--name", "bob"); code != exitOK {
		t.Fatalf("token create = %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, store.SQLiteFile)); err != nil {
		t.Errorf("database in $%s: %v", envData, err)
	}
	// Listing a directory that does not exist is a mistake, not an empty
	// list (it would create a database there).
	missing := filepath.Join(t.TempDir(), "missing")
	if code, _, stderr := runCLI(t, "token", "list", "--data", missing); code != exitInvalid || !strings.Contains(stderr, "does not exist") {
		t.Errorf("token list --data MISSING = %d (%s), want %d", code, stderr, exitInvalid)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("token list created %s", missing)
	}
}
