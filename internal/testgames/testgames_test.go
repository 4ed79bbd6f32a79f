package testgames

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

func TestFiles(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"a/x.kif", "a/y.txt", "b/z.kif", "c/w.kif"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := Files(root, []string{"b", "a"}, nil), []string{"b/z.kif", "a/x.kif"}; !slices.Equal(got, want) {
		t.Errorf("Files = %v, want %v", got, want)
	}
	if got, want := Files(root, []string{"a", "b"}, regexp.MustCompile(`z`)), []string{"b/z.kif"}; !slices.Equal(got, want) {
		t.Errorf("Files matching z = %v, want %v", got, want)
	}
}
