package mutate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/mutate"
)

// gamesDir holds the shared game corpus, relative to the package directory.
var gamesDir = testgames.Root()

// corpusGames are small ggp-base games (each grounds in well under 50 ms)
// chosen to cover many GDL styles: or, nested functions, recursion, many
// roles, simultaneous moves, numbers as goal values and as board indices.
var corpusGames = []string{
	"ggp-base-repo/connectFour.kif",
	"ggp-base-repo/maze.kif",
	"ggp-base-repo/ticTacToe.kif",
	"ggp-base/3pttc.kif",
	"ggp-base/blocks.kif",
	"ggp-base/blocks2player.kif",
	"ggp-base/breakthroughSmall.kif",
	"ggp-base/buttons.kif",
	"ggp-base/chickentictactoe.kif",
	"ggp-base/circlesolitaire.kif",
	"ggp-base/coins.kif",
	"ggp-base/eotcitcit.kif",
	"ggp-base/factoringGeorgeForman.kif",
	"ggp-base/gt_centipede.kif",
	"ggp-base/hanoi.kif",
	"ggp-base/haystack.kif",
	"ggp-base/hodgepodge.kif",
	"ggp-base/knightsTour.kif",
	"ggp-base/lightsOn.kif",
	"ggp-base/nim1.kif",
	"ggp-base/onestep.kif",
	"ggp-base/pearls.kif",
	"ggp-base/point_grab.kif",
	"ggp-base/roshambo2.kif",
	"ggp-base/sum15.kif",
	"ggp-base/survival.kif",
	"ggp-base/switches.kif",
	"ggp-base/ticTacToeNoVars.kif",
}

// testGames lists every ggp-base-tests game and the corpus games, as paths.
func testGames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(gamesDir, "ggp-base-tests", "*.kif"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skipf("game corpus not found under %s", gamesDir)
	}
	for _, g := range corpusGames {
		files = append(files, filepath.Join(gamesDir, g))
	}
	return files
}

func gameName(path string) string {
	return filepath.Base(filepath.Dir(path)) + "/" + strings.TrimSuffix(filepath.Base(path), ".kif")
}

// mustLoad parses and grounds a game file.
func mustLoad(t *testing.T, path string) (*grounding.File, *grounding.Program) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := grounding.Parse(path, src)
	if err != nil {
		t.Fatalf("Parse(%s) = %v", path, err)
	}
	p, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	if err != nil {
		t.Fatalf("Ground(%s) = %v", path, err)
	}
	return f, p
}

// variantLimits bound the grounding of a variant in tests, by work rather
// than time so that slow machines (and -race) see the same results.
// Variants are harder for the grounder than their originals (its join order
// depends on body order): connectFour needs about 300,000 rule instances,
// its variants up to about 2 million.
var variantLimits = grounding.Limits{MaxInstances: 3_000_000}

// heavyGames are tested with fewer seeds and without pair-args: nested
// state terms make the grounder's join order explode on their line rules
// (any pair-args variant exceeds the default limits; see checkEquivalent).
var heavyGames = []string{"ggp-base-tests/connectFour", "ggp-base-repo/connectFour"}

// groundText prints a description, parses the text back and grounds it, as a
// user of the printed variant would. It returns the grounding error when it
// is a limit error, and fails the test on any other error.
func groundText(t *testing.T, f *grounding.File) (*grounding.Program, error) {
	t.Helper()
	text := f.String()
	g, err := grounding.Parse("variant.kif", []byte(text))
	if err != nil {
		t.Fatalf("Parse(variant) = %v\n%s", err, text)
	}
	if got, want := g.String(), text; got != want {
		t.Fatalf("printing the reparsed variant changed it:\n%s\nwant\n%s", got, want)
	}
	p, err := grounding.Ground(context.Background(), g, variantLimits)
	if errors.Is(err, grounding.ErrLimit) {
		return nil, err
	}
	if err != nil {
		t.Fatalf("Ground(variant) = %v\n%s", err, text)
	}
	return p, nil
}

// checkEquivalent checks that a variant's program has the sizes of the
// original's and agrees with it along random playouts.
//
// A variant with nested pairs (pair-args) may exceed variantLimits: the
// grounder's join order handles nested state terms badly in some games
// (connectFour's line rules). That is returned as errPairLimit, and the
// caller checks a variant without pair-args instead; any other limit error fails.
func checkEquivalent(t *testing.T, a *grounding.Program, v *mutate.Variant, seed int64) error {
	t.Helper()
	b, err := groundText(t, v.File)
	if err != nil {
		if slices.Contains(v.Applied, "pair-args") {
			t.Logf("variant with pair-args exceeds the test's grounding limits: %v", err)
			return errPairLimit
		}
		t.Fatalf("Ground(variant) = %v (applied %v)\n%s", err, v.Applied, v.File)
	}
	if got, want := len(b.Roles), len(a.Roles); got != want {
		t.Errorf("variant has %d roles, want %d", got, want)
	}
	if got, want := len(b.Props), len(a.Props); got != want {
		t.Errorf("variant has %d propositions, want %d", got, want)
	}
	if got, want := b.NumFunctions(), a.NumFunctions(); got != want {
		t.Errorf("variant has %d functions, want %d", got, want)
	}
	for r, role := range a.Roles {
		name, err := v.TranslateTerm(role)
		if err != nil {
			t.Fatalf("TranslateTerm(%s) = %v", role, err)
		}
		rb, ok := b.RoleID(name)
		if !ok {
			t.Fatalf("role %s translates to %s, no role of the variant", role, name)
		}
		if got, want := len(b.Actions[rb]), len(a.Actions[r]); got != want {
			t.Errorf("role %s has %d actions in the variant, want %d", role, got, want)
		}
	}
	if err := mutate.Agree(a, b, v.TranslateTerm, seed, 4, 120); err != nil {
		t.Errorf("Agree = %v (applied %v)\n%s", err, v.Applied, v.File)
	}
	return nil
}

var errPairLimit = errors.New("pair-args variant exceeds the grounding limits")

// TestEquivalent is the property test of Equivalent: on every test game and
// several seeds, the variant parses, grounds to a program of the same size,
// and agrees with the original along random playouts under TranslateTerm.
func TestEquivalent(t *testing.T) {
	seeds := []int64{1, 2, 3, 4, 5, 42}
	if testing.Short() {
		seeds = seeds[:2]
	}
	for _, path := range testGames(t) {
		t.Run(gameName(path), func(t *testing.T) {
			t.Parallel()
			f, a := mustLoad(t, path)
			before := f.String()
			seeds, opt := seeds, mutate.Options{}
			if slices.Contains(heavyGames, gameName(path)) {
				seeds, opt.Ops = seeds[:min(3, len(seeds))], mutate.AllOps&^mutate.PairArgs
			}
			for _, seed := range seeds {
				t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
					v, err := mutate.Equivalent(f, seed, opt)
					if err != nil {
						t.Fatalf("Equivalent(seed %d) = %v", seed, err)
					}
					if checkEquivalent(t, a, v, seed) == errPairLimit {
						v, _ = mutate.Equivalent(f, seed, mutate.Options{Ops: mutate.AllOps &^ mutate.PairArgs})
						if checkEquivalent(t, a, v, seed) != nil {
							t.Errorf("variant without pair-args exceeds the grounding limits")
						}
					}
				})
			}
			if f.String() != before {
				t.Errorf("Equivalent modified its input")
			}
		})
	}
}

// opGames are the games on which every transformation is tried alone.
var opGames = []string{
	"ggp-base-repo/ticTacToe.kif",
	"ggp-base-repo/connectFour.kif",
	"ggp-base-tests/test_clean_not_distinct.kif",
	"ggp-base-tests/test_case_5e.kif",
	"ggp-base/sum15.kif",
	"ggp-base/hanoi.kif",
}

// TestEachOp applies every transformation alone, with several seeds, and
// checks that it does something on some game and always keeps the game.
func TestEachOp(t *testing.T) {
	for _, name := range mutate.OpNames() {
		op, err := mutate.ParseOps(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			applied := 0
			for _, g := range opGames {
				if op == mutate.PairArgs && strings.Contains(g, "connectFour") {
					continue // always past the grounder's limits: see checkEquivalent
				}
				f, a := mustLoad(t, filepath.Join(gamesDir, g))
				for seed := range int64(4) {
					v, err := mutate.Equivalent(f, seed, mutate.Options{Ops: op, Steps: 3})
					if err != nil {
						t.Fatal(err)
					}
					if len(v.Applied) > 0 {
						applied++
					}
					for _, a := range v.Applied {
						if a != name {
							t.Errorf("applied %s, want only %s", a, name)
						}
					}
					checkEquivalent(t, a, v, seed)
					if t.Failed() {
						t.Fatalf("%s, seed %d failed", g, seed)
					}
				}
			}
			if applied == 0 {
				t.Errorf("%s never changed any of %v", name, opGames)
			}
		})
	}
}

// TestDeterministic checks that a seed fixes the variant and that seeds differ.
func TestDeterministic(t *testing.T) {
	f, _ := mustLoad(t, filepath.Join(gamesDir, "ggp-base-repo/connectFour.kif"))
	v1, _ := mutate.Equivalent(f, 7, mutate.Options{})
	v2, _ := mutate.Equivalent(f, 7, mutate.Options{})
	v3, _ := mutate.Equivalent(f, 8, mutate.Options{})
	if v1.File.String() != v2.File.String() {
		t.Errorf("Equivalent(seed 7) gave two different variants")
	}
	if !slices.Equal(v1.Applied, v2.Applied) {
		t.Errorf("Applied = %v and %v, want equal", v1.Applied, v2.Applied)
	}
	if v1.File.String() == v3.File.String() {
		t.Errorf("seeds 7 and 8 gave the same variant")
	}
}

// TestGoalValuesKept checks that a constant used both as a goal value and
// as a board index keeps its name everywhere, and that other numbers are renamed.
func TestGoalValuesKept(t *testing.T) {
	src := `(role p)
(index 0) (index 1) (index 100)
(init (at 0))
(<= (legal p (go ?x)) (index ?x) (true (at ?y)) (distinct ?x ?y))
(<= (next (at ?x)) (does p (go ?x)))
(<= terminal (true (at 100)))
(<= (goal p 100) (true (at 100)))
(<= (goal p 0) (not (true (at 100))))
`
	f, err := grounding.Parse("g.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := mutate.Equivalent(f, 3, mutate.Options{Ops: mutate.RenameSymbols})
	if err != nil {
		t.Fatal(err)
	}
	for _, kept := range []string{"0", "100"} {
		if n, ok := v.Renaming[kept]; ok {
			t.Errorf("goal value %s renamed to %s", kept, n)
		}
	}
	if _, ok := v.Renaming["1"]; !ok {
		t.Errorf("Renaming = %v, want 1 renamed (it is no goal value)", v.Renaming)
	}
	if got, err := v.TranslateTerm("(at 100)"); err != nil || !strings.HasSuffix(got, " 100)") {
		t.Errorf("TranslateTerm((at 100)) = %q, %v; want the constant 100 kept", got, err)
	}
	checkEquivalent(t, a, v, 3)
}

// TestGoalValueVariable checks that every number is kept when a goal value
// comes from a variable.
func TestGoalValueVariable(t *testing.T) {
	src := `(role p)
(score a 30) (score b 70)
(init (at a))
(legal p (go b))
(<= (next (at ?x)) (does p (go ?x)))
(<= terminal (true (at b)))
(<= (goal p ?v) (true (at ?x)) (score ?x ?v))
`
	f, err := grounding.Parse("g.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for seed := range int64(8) {
		v, err := mutate.Equivalent(f, seed, mutate.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, kept := range []string{"30", "70"} {
			if n, ok := v.Renaming[kept]; ok {
				t.Errorf("goal value %s renamed to %s", kept, n)
			}
		}
		checkEquivalent(t, a, v, seed)
	}
}

// TestTranslateTerm checks the translation of terms through renaming,
// argument permutation and pairing.
func TestTranslateTerm(t *testing.T) {
	f, err := grounding.Parse("g.kif", []byte(`(role x)
(init (cell 1 2 b))
(legal x (mark 1 2))
(<= (next (cell ?a ?b x)) (does x (mark ?a ?b)))
(<= terminal (true (cell 1 2 x)))
(goal x 100)
`))
	if err != nil {
		t.Fatal(err)
	}
	v, err := mutate.Equivalent(f, 1, mutate.Options{Ops: mutate.PairArgs | mutate.PermuteArgs | mutate.RenameSymbols, Steps: 6})
	if err != nil {
		t.Fatal(err)
	}
	got, err := v.TranslateTerm("(CELL 1  2 b)")
	if err != nil {
		t.Fatalf("TranslateTerm = %v", err)
	}
	found := false
	for _, r := range v.File.Rules {
		if r.Head.Name == "init" && r.Head.Args[0].String() == got {
			found = true
		}
	}
	if !found {
		t.Errorf("TranslateTerm((cell 1 2 b)) = %s, which is no initial proposition of\n%s", got, v.File)
	}
	for _, bad := range []string{"(cell ?x 1 b)", "(a) (b)", "(cell 1"} {
		if _, err := v.TranslateTerm(bad); err == nil {
			t.Errorf("TranslateTerm(%q) succeeded, want an error", bad)
		}
	}
}

var parseOpsTests = []struct {
	in      string
	want    mutate.Op
	wantErr bool
}{
	{in: "rename-symbols", want: mutate.RenameSymbols},
	{in: "fold,unfold", want: mutate.Fold | mutate.Unfold},
	{in: "De-Morgan split-or", want: mutate.DeMorgan | mutate.SplitOr},
	{in: "all", want: mutate.AllOps},
	{in: "", wantErr: true},
	{in: "rename", wantErr: true},
}

func TestParseOps(t *testing.T) {
	for _, tc := range parseOpsTests {
		got, err := mutate.ParseOps(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseOps(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
	if got, want := (mutate.Fold | mutate.RenameVars).String(), "rename-vars,fold"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if _, err := mutate.Equivalent(&grounding.File{}, 1, mutate.Options{Ops: 1 << 30}); err == nil {
		t.Errorf("Equivalent with unknown bits succeeded")
	}
	if _, err := mutate.Equivalent(nil, 1, mutate.Options{}); !errors.Is(err, mutate.ErrNilFile) {
		t.Errorf("Equivalent(nil) = %v, want ErrNilFile", err)
	}
}
