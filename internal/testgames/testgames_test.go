package testgames

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindFromEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "ggp-base"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvVar, dir)
	got, err := find()
	if err != nil || got != dir {
		t.Fatalf("find() = %q, %v; want %q", got, err, dir)
	}
	t.Setenv(EnvVar, filepath.Join(dir, "missing"))
	if _, err := find(); err == nil {
		t.Fatal("find() with a wrong $GAMEQUIV_GAMES: no error")
	}
}

func TestFindFromAncestor(t *testing.T) {
	root := t.TempDir()
	games := filepath.Join(root, "shared", "games")
	work := filepath.Join(root, "main", "pkg")
	for _, d := range []string{filepath.Join(games, "ggp-base"), work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvVar, "")
	t.Chdir(work)
	got, err := find()
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(games); mustEval(t, got) != want {
		t.Fatalf("find() = %q, want %q", got, games)
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
