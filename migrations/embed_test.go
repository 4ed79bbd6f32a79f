package migrations_test

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/migrations"
)

// fileName is the goose file naming scheme that the migrations follow.
var fileName = regexp.MustCompile(`^[0-9]{5}_[a-z0-9_]+\.sql$`)

// TestDialectsInStep checks that both dialect directories hold the same,
// well-named migration files.
func TestDialectsInStep(t *testing.T) {
	sqlite := names(t, migrations.SQLite)
	postgres := names(t, migrations.Postgres)
	if len(sqlite) == 0 {
		t.Fatal("no SQLite migrations")
	}
	if !slices.Equal(sqlite, postgres) {
		t.Errorf("migration files differ:\n%s: %v\n%s: %v", migrations.SQLite, sqlite, migrations.Postgres, postgres)
	}
	for _, n := range sqlite {
		if !fileName.MatchString(n) {
			t.Errorf("migration %q: want a name like 00001_init.sql", n)
		}
	}
}

// TestAnnotations checks that every file has exactly one Up and one Down
// section, Up first.
func TestAnnotations(t *testing.T) {
	for _, dir := range []string{migrations.SQLite, migrations.Postgres} {
		for _, n := range names(t, dir) {
			b, err := fs.ReadFile(migrations.FS, dir+"/"+n)
			if err != nil {
				t.Fatal(err)
			}
			src := string(b)
			up, down := strings.Count(src, "-- +goose Up\n"), strings.Count(src, "-- +goose Down\n")
			if up != 1 || down != 1 || strings.Index(src, "-- +goose Up") > strings.Index(src, "-- +goose Down") {
				t.Errorf("%s/%s: %d Up and %d Down annotations, want one of each, Up first", dir, n, up, down)
			}
		}
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := fs.ReadDir(migrations.FS, dir)
	if err != nil {
		t.Fatalf("ReadDir(%q): %v", dir, err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
