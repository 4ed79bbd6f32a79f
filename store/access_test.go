package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/store/storetest"
)

func TestTokenHashStoredSQLite(t *testing.T) {
	checkTokenHashStored(t, storetest.OpenSQLite(t))
}

func TestTokenHashStoredPostgres(t *testing.T) {
	checkTokenHashStored(t, storetest.OpenPostgres(t, postgresURL(t)))
}

// checkTokenHashStored checks that the tokens table holds the SHA-256 of
// each secret and never the secret.
func checkTokenHashStored(t *testing.T, db *store.DB) {
	ctx := context.Background()
	var secrets []string
	for _, name := range []string{"alice", "bob"} {
		_, secret, err := db.CreateToken(ctx, name, false)
		if err != nil {
			t.Fatal(err)
		}
		secrets = append(secrets, secret)
	}
	var stored []string
	if err := store.Gorm(db).Raw("SELECT hash FROM tokens ORDER BY id").Scan(&stored).Error; err != nil {
		t.Fatal(err)
	}
	all := strings.Join(stored, " ")
	for i, s := range secrets {
		if len(stored) != len(secrets) || stored[i] != store.HashToken(s) || strings.Contains(all, s) {
			t.Errorf("stored hashes %q: want the SHA-256 of each secret, never the secret", stored)
		}
	}
}

// BenchmarkAuthenticate measures the lookup that every request with a
// token makes when access control is on.
func BenchmarkAuthenticate(b *testing.B) {
	db := storetest.OpenSQLite(b)
	ctx := context.Background()
	var secret string
	for i := range 100 {
		_, s, err := db.CreateToken(ctx, "user"+strings.Repeat("x", i%7), false)
		if err != nil {
			b.Fatal(err)
		}
		secret = s
	}
	for b.Loop() {
		if _, err := db.Authenticate(ctx, secret); err != nil {
			b.Fatal(err)
		}
	}
}
