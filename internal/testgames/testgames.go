// Package testgames locates the shared GDL game corpus (ggp-base,
// ggp-base-repo, ggp-base-tests) for tests and benchmarks.
//
// The corpus lives outside the repository, at ../shared/games next to the
// checkout in the development layout. A clean clone elsewhere (CI) finds it
// through $GAMEQUIV_GAMES or by looking for shared/games in every ancestor
// of the working directory. Tests that need it call Dir or Path, which skip
// the test with a visible message when the corpus is nowhere to be found;
// scripts/test.sh prints the same as a NOTICE.
package testgames

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
)

// EnvVar names the environment variable that points at the corpus directory
// (the one holding ggp-base/, ggp-base-repo/ and ggp-base-tests/).
const EnvVar = "GAMEQUIV_GAMES"

var (
	once    sync.Once
	found   string
	findErr error
)

// Find returns the corpus directory or an error saying where it looked.
func Find() (string, error) {
	once.Do(func() { found, findErr = find() })
	return found, findErr
}

func find() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		if isCorpus(d) {
			return filepath.Abs(d)
		}
		return "", errors.New("$" + EnvVar + "=" + d + " has no ggp-base directory")
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if c := filepath.Join(d, "shared", "games"); isCorpus(c) {
			return c, nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", errors.New("game corpus not found: set $" + EnvVar + " or place it at ../shared/games next to the checkout")
}

func isCorpus(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, "ggp-base"))
	return err == nil && fi.IsDir()
}

// Dir returns the corpus directory, skipping tb when there is none.
func Dir(tb testing.TB) string {
	tb.Helper()
	d, err := Find()
	if err != nil {
		tb.Skipf("SKIP (corpus missing): %v", err)
	}
	return d
}

// Path returns the path of rel (e.g. "ggp-base-repo/ticTacToe.kif") inside
// the corpus, skipping tb when there is no corpus.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), filepath.FromSlash(rel))
}

// Root returns the corpus directory, or, when there is none, a path that
// does not exist, so that globs under it find nothing and the tests that
// glob skip themselves. For package-level variables of tests.
func Root() string {
	d, err := Find()
	if err != nil {
		return filepath.Join(os.TempDir(), "gamequiv-game-corpus-not-found")
	}
	return d
}

// Files lists the *.kif files of the corpus root's subfolders subs, as
// paths relative to root, in folder order then name order; when match is
// not nil, only those whose relative path it matches.
func Files(root string, subs []string, match *regexp.Regexp) []string {
	var out []string
	for _, sub := range subs {
		fs, _ := filepath.Glob(filepath.Join(root, sub, "*.kif"))
		for _, f := range fs {
			rel, err := filepath.Rel(root, f)
			if err == nil && (match == nil || match.MatchString(rel)) {
				out = append(out, rel)
			}
		}
	}
	return out
}
