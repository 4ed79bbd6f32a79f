package grounding_test

import (
	"context"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
)

// fuzzSeedGames are the ggp-base games that seed the fuzzers besides every
// conformance game and the testdata files.
var fuzzSeedGames = []string{
	"buttons", "nim1", "roshambo2", "gt_prisoner", "sum15", "coins", "hanoi",
	"lightsout", "maze", "tictactoe", "connectFour", "eightPuzzle",
}

// addSeeds adds the seed corpus: the conformance games, a handful of ggp-base
// games, the testdata files and the module's bad-input corpus
// (../testdata/bad). Missing files are skipped.
func addSeeds(f *testing.F) {
	var paths []string
	tests, _ := filepath.Glob(filepath.Join(corpusDirs[0], "*.kif"))
	paths = append(paths, tests...)
	for _, g := range fuzzSeedGames {
		paths = append(paths, filepath.Join(corpusDirs[1], g+".kif"))
	}
	local, _ := filepath.Glob(filepath.Join("testdata", "*.kif"))
	paths = append(paths, local...)
	golden, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.kif"))
	paths = append(paths, golden...)
	// The bad-input corpus of the CLI and API tests (issue #6).
	bad, _ := filepath.Glob(filepath.Join("..", "testdata", "bad", "*.kif"))
	paths = append(paths, bad...)
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	for _, s := range []string{
		"", "(", ")", "()", "(<=)", "?", "(p ?)", "(p \xff)", "(p é ())", ";\xff\n(a)",
		chainGame, scaffold, negLocalGame,
		scaffold + "(num 0)\n(<= (num (s ?x)) (num ?x))",
		"(role r) (init (c 0)) (legal r go) (<= (next (c (s ?x))) (true (c ?x))) (<= terminal (true (c 0))) (goal r 100)",
	} {
		f.Add([]byte(s))
	}
	for _, tc := range appendShapeTests {
		f.Add([]byte(tc.src))
	}
}

func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var file *grounding.File
		var err error
		noPanic(t, "Parse", func() { file, err = grounding.Parse("fuzz.kif", src) })
		if err != nil {
			var list grounding.ErrorList
			var le *grounding.LimitError
			switch {
			case errors.As(err, &list):
				checkErrorList(t, list, src)
			case errors.As(err, &le):
				return
			default:
				t.Fatalf("Parse error %T: %v", err, err)
			}
		}
		if file == nil {
			t.Fatal("Parse returned no file")
		}
		// The rules read (all of them, or those beside the errors) print to
		// KIF that reads back to the same rules.
		text := file.String()
		var again *grounding.File
		noPanic(t, "Parse", func() { again, err = grounding.Parse("fuzz.kif", []byte(text)) })
		if err != nil {
			t.Fatalf("reparse of %q: %v", text, err)
		}
		if got := again.String(); got != text {
			t.Fatalf("reparse of %q prints %q", text, got)
		}
	})
}

// checkErrorList checks that errors are positioned inside the source and sorted.
func checkErrorList(t *testing.T, list grounding.ErrorList, src []byte) {
	t.Helper()
	if len(list) == 0 {
		t.Fatal("empty ErrorList as an error")
	}
	lines := strings.Split(string(src), "\n")
	for _, e := range list {
		if e.File != "fuzz.kif" {
			t.Errorf("error %v: File = %q", e, e.File)
		}
		if !e.Pos.IsValid() {
			continue
		}
		if e.Pos.Line > len(lines) || e.Pos.Col < 1 || e.Pos.Col > len(lines[e.Pos.Line-1])+1 {
			t.Errorf("error %v: position outside the source", e)
		}
	}
	if !slices.IsSortedFunc(list, comparePos) {
		t.Errorf("errors not sorted: %v", list)
	}
}

// noPanic runs f and turns a panic into a test failure, so that a crasher
// kept in testdata/fuzz fails its own seed instead of killing the test binary.
func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s panics: %v\n%s", what, r, debug.Stack())
		}
	}()
	f()
}

// fuzzLimits keep FuzzGround fast.
var fuzzLimits = grounding.Limits{
	MaxAtoms:        2000,
	MaxInstances:    5000,
	MaxCircuitNodes: 20000,
	MaxTermDepth:    16,
	Timeout:         200 * time.Millisecond,
}

// watchdog crashes the fuzz worker (which makes the fuzzer keep the input)
// when grounding hangs far past its Timeout.
func watchdog(what string) *time.Timer {
	return time.AfterFunc(10*time.Second, func() { panic(what + " hangs") })
}

func FuzzGround(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var p *grounding.Program
		var err error
		w := watchdog("Load")
		noPanic(t, "Load", func() { p, err = grounding.Load(context.Background(), "fuzz.kif", src, fuzzLimits) })
		w.Stop()
		if err != nil {
			checkGroundError(t, err, src)
			return
		}
		checkProgram(t, p)
		// The printed description grounds to the same program.
		file, err := grounding.Parse("fuzz.kif", src)
		if err != nil {
			t.Fatalf("Load succeeds but Parse fails: %v", err)
		}
		var q *grounding.Program
		w = watchdog("Load")
		noPanic(t, "Load", func() { q, err = grounding.Load(context.Background(), "fuzz.kif", []byte(file.String()), fuzzLimits) })
		w.Stop()
		switch {
		case errors.Is(err, grounding.ErrLimit):
			// a Timeout the first run escaped
		case err != nil:
			t.Fatalf("the printed description fails: %v\n%s", err, file)
		default:
			checkSameGame(t, p, q, rand.New(rand.NewPCG(uint64(len(src)), 3)))
		}
		h := fnv.New64a()
		h.Write(src)
		noPanic(t, "playout", func() { playout(t, p, rand.New(rand.NewPCG(h.Sum64(), 1)), 20) })
	})
}

// checkGroundError accepts the three kinds of error Load returns.
func checkGroundError(t *testing.T, err error, src []byte) {
	t.Helper()
	var list grounding.ErrorList
	var le *grounding.LimitError
	switch {
	case errors.As(err, &list):
		checkErrorList(t, list, src)
	case errors.As(err, &le):
		if !errors.Is(err, grounding.ErrLimit) || le.What == "" {
			t.Errorf("bad LimitError %+v", le)
		}
	default:
		t.Fatalf("Load error %T: %v", err, err)
	}
}

// checkProgram checks the invariants that Program and Circuit document.
func checkProgram(t *testing.T, p *grounding.Program) {
	t.Helper()
	if len(p.Roles) == 0 {
		t.Fatal("no roles")
	}
	if !slices.IsSorted(p.Props) || len(slices.Compact(slices.Clone(p.Props))) != len(p.Props) {
		t.Errorf("Props not sorted and unique: %v", p.Props)
	}
	inputs := len(p.Props)
	for r, as := range p.Actions {
		if !slices.IsSorted(as) || len(slices.Compact(slices.Clone(as))) != len(as) {
			t.Errorf("Actions of %s not sorted and unique: %v", p.Roles[r], as)
		}
		if len(p.Legal[r]) != len(as) {
			t.Errorf("role %s: %d legal functions for %d actions", p.Roles[r], len(p.Legal[r]), len(as))
		}
		for a := range as {
			if role, idx := p.InputOf(p.ActionInputBase(r) + a); role != r || idx != a {
				t.Errorf("InputOf(action %d of role %d) = %d, %d", a, r, role, idx)
			}
		}
		inputs += len(as)
	}
	if p.NumInputs() != inputs {
		t.Errorf("NumInputs = %d, want %d", p.NumInputs(), inputs)
	}
	if !slices.IsSorted(p.Init) {
		t.Errorf("Init not sorted: %v", p.Init)
	}
	for _, q := range p.Init {
		if q < 0 || int(q) >= len(p.Props) {
			t.Fatalf("Init holds %d, outside %d props", q, len(p.Props))
		}
	}
	if len(p.Next) != len(p.Props) || len(p.Goals) != len(p.Roles) || len(p.Legal) != len(p.Roles) {
		t.Fatalf("function tables have the wrong sizes")
	}
	c := &p.Circuit
	if c.NumInputs != inputs || len(c.Start) < inputs+2 {
		t.Fatalf("circuit has %d inputs and %d starts", c.NumInputs, len(c.Start))
	}
	for n := 0; n < c.NumNodes(); n++ {
		fs := c.Fanins(n)
		if !c.IsGate(n) {
			if len(fs) != 0 {
				t.Fatalf("node %d is not a gate but has fanins", n)
			}
			continue
		}
		if len(fs) < 2 || !slices.IsSorted(fs) {
			t.Fatalf("gate %d fanins %v: want at least 2, sorted", n, fs)
		}
		for i, l := range fs {
			if l.Node() == 0 || l.Node() >= n || (i > 0 && (fs[i-1] == l || fs[i-1] == l.Not())) {
				t.Fatalf("gate %d fanins %v", n, fs)
			}
		}
	}
	fns := p.Functions()
	if len(fns) != p.NumFunctions() {
		t.Errorf("Functions lists %d, NumFunctions says %d", len(fns), p.NumFunctions())
	}
	for _, fn := range fns {
		if fn.Lit.Node() >= c.NumNodes() {
			t.Fatalf("%s: literal %d outside the circuit", p.FunctionName(fn), fn.Lit)
		}
	}
	for r, gs := range p.Goals {
		for _, g := range gs {
			if g.Value < 0 || g.Value > 100 {
				t.Errorf("role %s: goal value %d", p.Roles[r], g.Value)
			}
		}
	}
}

// checkSameGame checks that two programs have the same roles, propositions,
// actions and initial state, and that their functions agree on random inputs
// (their circuits may be built in another order).
func checkSameGame(t *testing.T, p, q *grounding.Program, rng *rand.Rand) {
	t.Helper()
	if !slices.Equal(p.Roles, q.Roles) || !slices.Equal(p.Props, q.Props) || !slices.Equal(p.Init, q.Init) ||
		!slices.EqualFunc(p.Actions, q.Actions, slices.Equal) {
		t.Fatalf("the printed description has other roles, props, actions or init")
	}
	fp, fq := p.Functions(), q.Functions()
	if len(fp) != len(fq) {
		t.Fatalf("the printed description has %d functions, want %d", len(fq), len(fp))
	}
	for i := range fp {
		if a, b := p.FunctionName(fp[i]), q.FunctionName(fq[i]); a != b {
			t.Fatalf("function %d is %s, want %s", i, b, a)
		}
	}
	in := make([]bool, p.NumInputs())
	var vp, vq []bool
	for round := range 64 {
		for i := range in {
			in[i] = round > 0 && rng.IntN(2) == 1
		}
		vp = p.Circuit.Eval(in, vp)
		vq = q.Circuit.Eval(in, vq)
		for i := range fp {
			if grounding.Value(vp, fp[i].Lit) != grounding.Value(vq, fq[i].Lit) {
				t.Fatalf("%s differs in the printed description's program", p.FunctionName(fp[i]))
			}
		}
	}
}

// playout plays random legal joint moves until a terminal state, a role
// without legal move, or the step bound.
func playout(t *testing.T, p *grounding.Program, rng *rand.Rand, steps int) {
	t.Helper()
	s := grounding.NewSim(p)
	moves := make([]int, len(p.Roles))
	for range steps {
		for r := range p.Roles {
			s.Goals(r)
		}
		if s.Terminal() {
			return
		}
		for r := range p.Roles {
			legal := s.Legal(r)
			if len(legal) == 0 {
				return
			}
			moves[r] = legal[rng.IntN(len(legal))]
		}
		s.Step(moves)
		if len(s.State()) != len(p.Props) {
			t.Fatalf("state has %d props, want %d", len(s.State()), len(p.Props))
		}
	}
}

// validateWords is the vocabulary FuzzValidate builds descriptions from: GDL
// keywords, two relations, constants and variables.
var validateWords = []string{
	"role", "init", "true", "does", "legal", "next", "terminal", "goal", "base", "input",
	"p", "q", "r", "a", "b", "0", "100", "?x", "?y", "?z",
}

// describeBytes turns fuzz bytes into a syntactically valid description: each
// rule is a head atom and up to three body literals (atoms, not, or,
// distinct), each atom a word with up to two arguments. Validation, not the
// parser, sees the mistakes.
func describeBytes(data []byte) string {
	i := 0
	next := func(n int) int {
		if i >= len(data) {
			return 0
		}
		i++
		return int(data[i-1]) % n
	}
	term := func() string { return validateWords[10+next(len(validateWords)-10)] }
	atom := func() string {
		name := validateWords[next(13)]
		switch next(3) {
		case 0:
			return name
		case 1:
			return "(" + name + " " + term() + ")"
		}
		if next(4) == 0 {
			return "(" + name + " " + term() + " (f " + term() + "))"
		}
		return "(" + name + " " + term() + " " + term() + ")"
	}
	var b strings.Builder
	b.WriteString("(role a)\n(role b)\n")
	for i < len(data) {
		b.WriteString("(<= " + atom())
		for range next(4) {
			switch next(6) {
			case 0:
				b.WriteString(" (not " + atom() + ")")
			case 1:
				b.WriteString(" (or " + atom() + " " + atom() + ")")
			case 2:
				b.WriteString(" (distinct " + term() + " " + term() + ")")
			default:
				b.WriteString(" " + atom())
			}
		}
		b.WriteString(")\n")
	}
	return b.String()
}

// FuzzValidate grounds descriptions built from GDL words, so that most
// inputs reach validation and grounding rather than stop in the parser. It
// checks that grounding is deterministic: the same File grounds to the same
// printed Program twice.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		"", "\x01\x02\x03\x04", "\x00\x01\x0a\x02\x03\x0b\x05\x07",
		"\x0b\x00\x11\x01\x07\x0a\x01\x0c\x05\x06\x02\x0f\x11",
		strings.Repeat("\x05\x02\x0c\x03\x07\x01\x0d", 6),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := describeBytes(data)
		file, err := grounding.Parse("fuzz.kif", []byte(src))
		if err != nil {
			t.Fatalf("generated description does not parse: %v\n%s", err, src)
		}
		var p *grounding.Program
		w := watchdog("Ground")
		noPanic(t, "Ground", func() { p, err = grounding.Ground(context.Background(), file, fuzzLimits) })
		w.Stop()
		if err != nil {
			checkGroundError(t, err, []byte(src))
			return
		}
		checkProgram(t, p)
		var q *grounding.Program
		w = watchdog("Ground")
		noPanic(t, "Ground", func() { q, err = grounding.Ground(context.Background(), file, fuzzLimits) })
		w.Stop()
		if errors.Is(err, grounding.ErrLimit) {
			return // a Timeout the first run escaped
		}
		if err != nil {
			t.Fatalf("second Ground fails: %v", err)
		}
		if a, b := printProgram(p), printProgram(q); a != b {
			t.Fatalf("Ground is not deterministic on\n%s\n%s", src, lineDiff(a, b))
		}
		// Join memos that stop paying are dropped: dropping them at once or
		// never must give the same Program.
		for _, probe := range []int64{0, -1} {
			w = watchdog("GroundMemoProbe")
			noPanic(t, "GroundMemoProbe", func() { q, err = grounding.GroundMemoProbe(context.Background(), file, fuzzLimits, probe) })
			w.Stop()
			if errors.Is(err, grounding.ErrLimit) {
				continue // without memos a join may take longer
			}
			if err != nil {
				t.Fatalf("GroundMemoProbe(%d) fails: %v", probe, err)
			}
			if a, b := printProgram(p), printProgram(q); a != b {
				t.Fatalf("Ground and GroundMemoProbe(%d) differ on\n%s\n%s", probe, src, lineDiff(a, b))
			}
		}
		// The head filter of circuit joins (headFilter) changes the
		// circuit's shape, never its functions: with it wherever it applies
		// and without it at all, the same game.
		for i, ground := range []func(context.Context, *grounding.File, grounding.Limits) (*grounding.Program, error){grounding.GroundNoHeadFilter, grounding.GroundForceHeadFilter} {
			w = watchdog("head filter variant")
			noPanic(t, "head filter variant", func() { q, err = ground(context.Background(), file, fuzzLimits) })
			w.Stop()
			switch {
			case errors.Is(err, grounding.ErrLimit):
			case err != nil:
				t.Fatalf("head filter variant %d fails: %v", i, err)
			default:
				checkSameGame(t, q, p, rand.New(rand.NewPCG(uint64(len(data)), 4)))
			}
		}
		noPanic(t, "playout", func() { playout(t, p, rand.New(rand.NewPCG(uint64(len(data)), 2)), 10) })
	})
}
