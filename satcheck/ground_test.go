package satcheck_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/satcheck"
)

// gamesDir holds the shared GDL corpus (see its README.md).
var gamesDir = testgames.Root()

// groundGame grounds a GDL source, skipping the test when the corpus is not
// available or the game exceeds the grounding limits.
func groundGame(tb testing.TB, name string, src []byte) *grounding.Program {
	tb.Helper()
	f, err := grounding.Parse(name, src)
	if err != nil {
		tb.Fatalf("Parse(%s): %v", name, err)
	}
	p, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	if err != nil {
		tb.Skipf("Ground(%s): %v", name, err)
	}
	return p
}

func readGame(tb testing.TB, rel string) []byte {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join(gamesDir, rel))
	if err != nil {
		tb.Skipf("game corpus not available: %v", err)
	}
	return src
}

// disguise renames symbols (case-insensitively, whole words) and reverses the
// order of the top-level rules: the same game under other names.
func disguise(src []byte, renames map[string]string) (string, func(string) string) {
	var words []string
	for w := range renames {
		words = append(words, regexp.QuoteMeta(w))
	}
	slices.Sort(words)
	re := regexp.MustCompile(`(?i)\b(` + strings.Join(words, "|") + `)\b`)
	rename := func(s string) string {
		return re.ReplaceAllStringFunc(s, func(w string) string { return renames[strings.ToLower(w)] })
	}
	// Split into top-level forms, dropping comments.
	var forms []string
	depth, start := 0, -1
	text := regexp.MustCompile(`;[^\n]*`).ReplaceAllString(string(src), "")
	for i, c := range text {
		switch c {
		case '(':
			if depth == 0 {
				start = i
			}
			depth++
		case ')':
			depth--
			if depth == 0 {
				forms = append(forms, text[start:i+1])
			}
		}
	}
	slices.Reverse(forms)
	return rename(strings.Join(forms, "\n")), func(s string) string { return strings.ToLower(rename(s)) }
}

// nameMapping maps a onto b by names, through rename.
func nameMapping(tb testing.TB, a, b *grounding.Program, rename func(string) string) satcheck.Mapping {
	tb.Helper()
	var m satcheck.Mapping
	find := func(names []string, x string) int {
		i := slices.IndexFunc(names, func(y string) bool { return strings.EqualFold(y, rename(x)) })
		if i < 0 {
			tb.Fatalf("no %q (from %q) in %v", rename(x), x, names)
		}
		return i
	}
	for _, r := range a.Roles {
		m.Roles = append(m.Roles, find(b.Roles, r))
	}
	for _, p := range a.Props {
		m.Props = append(m.Props, find(b.Props, p))
	}
	for r, as := range a.Actions {
		var xs []int
		for _, x := range as {
			xs = append(xs, find(b.Actions[m.Roles[r]], x))
		}
		m.Actions = append(m.Actions, xs)
	}
	return m
}

var groundTests = []struct {
	file    string
	renames map[string]string
}{
	{"ggp-base-repo/ticTacToe.kif", map[string]string{"xplayer": "white", "oplayer": "black", "cell": "square", "mark": "put", "control": "turn", "noop": "pass"}},
	{"ggp-base-repo/connectFour.kif", map[string]string{"red": "first", "black": "second", "cell": "slot", "drop": "insert", "control": "turn", "noop": "wait"}},
}

// TestVerifyGrounded verifies real games, grounded, against disguises of
// themselves, and rejects a mapping with one proposition pair swapped.
func TestVerifyGrounded(t *testing.T) {
	for _, tc := range groundTests {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			src := readGame(t, tc.file)
			a := groundGame(t, "a.kif", src)
			text, rename := disguise(src, tc.renames)
			b := groundGame(t, "b.kif", []byte(text))
			m := nameMapping(t, a, b, rename)
			c := mustChecker(t, a, b, satcheck.Options{})
			res, err := c.Verify(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != satcheck.Equivalent {
				t.Fatalf("Verify = %v, want equivalent", res)
			}
			t.Logf("%d props, %d functions, %d gates: %+v", len(a.Props), res.Checked, a.Circuit.NumGates(), res.Stats)

			// Swap two propositions that are not both initially true or false.
			init := map[int]bool{}
			for _, p := range a.Init {
				init[int(p)] = true
			}
			bad := satcheck.Mapping{Roles: m.Roles, Props: slices.Clone(m.Props), Actions: m.Actions}
			i := 0
			for j := 1; j < len(bad.Props); j++ {
				if init[i] == init[j] {
					bad.Props[i], bad.Props[j] = bad.Props[j], bad.Props[i]
					break
				}
			}
			res, err = c.Verify(context.Background(), bad)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != satcheck.Different || res.Counterexample == nil {
				t.Fatalf("Verify(swapped) = %v, want different with a counterexample", res)
			}
			t.Logf("swapped: %v", res)
		})
	}
}

// TestVerifyGroundedSymmetries checks mappings of Tic-tac-toe onto itself:
// the board's symmetries are equivalences, swapping two rows is not (it
// breaks the diagonals).
func TestVerifyGroundedSymmetries(t *testing.T) {
	src := readGame(t, "ggp-base-repo/ticTacToe.kif")
	p := groundGame(t, "ticTacToe.kif", src)
	coords := regexp.MustCompile(`^\((cell|mark) (\d) (\d)`)
	for _, tc := range []struct {
		name  string
		f     func(i, j int) (int, int)
		equiv bool
	}{
		{"Transpose", func(i, j int) (int, int) { return j, i }, true},
		{"Rotate", func(i, j int) (int, int) { return j, 4 - i }, true},
		{"MirrorRows", func(i, j int) (int, int) { return 4 - i, j }, true},
		{"SwapRows12", func(i, j int) (int, int) { return map[int]int{1: 2, 2: 1, 3: 3}[i], j }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rename := func(s string) string {
				sm := coords.FindStringSubmatch(s)
				if sm == nil {
					return s
				}
				i, j := tc.f(int(sm[2][0]-'0'), int(sm[3][0]-'0'))
				return "(" + sm[1] + " " + string(rune('0'+i)) + " " + string(rune('0'+j)) + s[len(sm[0]):]
			}
			m := nameMapping(t, p, p, rename)
			res, err := satcheck.Verify(context.Background(), p, p, m, satcheck.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Verdict == satcheck.Equivalent; got != tc.equiv {
				t.Fatalf("Verify = %v, want equivalent = %v", res, tc.equiv)
			}
			t.Logf("%v (%+v)", res, res.Stats)
		})
	}
}
