package grounding_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
)

// chainGame counts 0 -> 1 -> 2. Its sizes, counted by hand:
//
//   - ground atoms (MaxAtoms): role 1, init 1, succ 2, true 3 ((c 0) from init,
//     (c 1) and (c 2) from next), next 2, legal 1, does 1, terminal 1, goal 1 = 13.
//   - rule instances (MaxInstances), the matches of the fluent rules' joins:
//     legal and next each match succ(?x, ?y) twice (the planner starts with
//     the smaller relation) and then true (c ?x) once per ?x, terminal and
//     goal match true (c 2) once: 4 + 4 + 1 + 1 = 10.
//   - circuit nodes (MaxCircuitNodes): the constant, 4 inputs (3 propositions,
//     1 action) and one OR gate for legal (c 0 or c 1) = 6; next (c 1) and
//     next (c 2) are the inputs themselves.
const chainGame = `
(role r)
(init (c 0))
(succ 0 1) (succ 1 2)
(<= (legal r go) (true (c ?x)) (succ ?x ?y))
(<= (next (c ?y)) (true (c ?x)) (succ ?x ?y))
(<= terminal (true (c 2)))
(<= (goal r 100) (true (c 2)))
`

// scaffold is the smallest valid game, to which the tests add static rules
// (and a terminal rule that reads them: relations no keyword relation reads
// are not grounded).
const scaffold = `
(role r)
(init s)
(legal r go)
(<= (next s) (true s))
(<= terminal (true s))
(goal r 100)
`

var limitTests = []struct {
	name  string // the Limits field
	src   string
	limit int64 // the smallest value that grounds
	set   func(l *grounding.Limits, v int64)
}{
	{"MaxAtoms", chainGame, 13, func(l *grounding.Limits, v int64) { l.MaxAtoms = v }},
	{"MaxInstances", chainGame, 10, func(l *grounding.Limits, v int64) { l.MaxInstances = v }},
	{"MaxCircuitNodes", chainGame, 6, func(l *grounding.Limits, v int64) { l.MaxCircuitNodes = int(v) }},
	// (s (s (s 0))) is derived: depth 3.
	{"MaxTermDepth", scaffold + "(seed (s (s 0)))\n(<= (num (s ?x)) (seed ?x))\n(<= terminal (num ?x))", 3,
		func(l *grounding.Limits, v int64) { l.MaxTermDepth = int(v) }},
	// The body expands to 2 x 2 alternatives.
	{"MaxRuleExpansion", scaffold + "(<= (next t) (or (true s) (true t)) (or (true s) (does r go)))", 4,
		func(l *grounding.Limits, v int64) { l.MaxRuleExpansion = int(v) }},
	// One literal expands to 3 alternatives (the negated or is one conjunction).
	{"MaxRuleExpansion", scaffold + "(<= (next t) (or (true s) (true t) (not (or (true s) (does r go)))))", 3,
		func(l *grounding.Limits, v int64) { l.MaxRuleExpansion = int(v) }},
}

func TestLimits(t *testing.T) {
	for _, tc := range limitTests {
		t.Run(fmt.Sprintf("%s=%d", tc.name, tc.limit), func(t *testing.T) {
			var at, past grounding.Limits
			tc.set(&at, tc.limit)
			tc.set(&past, tc.limit-1)
			if _, err := grounding.Load(context.Background(), "t.kif", []byte(tc.src), at); err != nil {
				t.Errorf("at the limit: %v", err)
			}
			_, err := grounding.Load(context.Background(), "t.kif", []byte(tc.src), past)
			checkLimitError(t, err, tc.name, tc.limit-1)
		})
	}
}

// checkLimitError checks that err is a *LimitError for the named limit.
func checkLimitError(t *testing.T, err error, what string, limit int64) {
	t.Helper()
	if !errors.Is(err, grounding.ErrLimit) {
		t.Fatalf("error %v, want ErrLimit", err)
	}
	var le *grounding.LimitError
	if !errors.As(err, &le) {
		t.Fatalf("error %T, want *LimitError", err)
	}
	if le.What != what || le.Limit != limit {
		t.Errorf("LimitError{What: %q, Limit: %d}, want {%q, %d}", le.What, le.Limit, what, limit)
	}
	if what != "Timeout" && le.Got <= le.Limit {
		t.Errorf("LimitError.Got = %d, want more than the limit %d", le.Got, le.Limit)
	}
	if !strings.Contains(err.Error(), what) {
		t.Errorf("message %q does not name %s", err, what)
	}
	// Where names a relation of the description, never an internal one.
	if strings.Contains(le.Where, " universe") || strings.Contains(le.Where, "not-exists") {
		t.Errorf("LimitError.Where = %q names an internal relation", le.Where)
	}
}

// A limit smaller than the inputs of the circuit is exceeded even when no
// gate is needed.
func TestMaxCircuitNodesCountsInputs(t *testing.T) {
	// Nodes: the constant and 2 inputs (s, go); no gate.
	if _, err := grounding.Load(context.Background(), "t.kif", []byte(scaffold), grounding.Limits{MaxCircuitNodes: 3}); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	_, err := grounding.Load(context.Background(), "t.kif", []byte(scaffold), grounding.Limits{MaxCircuitNodes: 2})
	checkLimitError(t, err, "MaxCircuitNodes", 2)
}

// pairsGame derives n*n static atoms: enough work to exceed a short timeout.
func pairsGame(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "(num %d)\n", i)
	}
	b.WriteString("(<= (pair ?x ?y) (num ?x) (num ?y))\n(<= terminal (pair ?x ?y))\n")
	return b.String() + scaffold
}

func TestTimeout(t *testing.T) {
	src := []byte(pairsGame(200))
	if _, err := grounding.Load(context.Background(), "t.kif", src, grounding.Limits{Timeout: time.Minute}); err != nil {
		t.Fatalf("Timeout 1m: %v", err)
	}
	start := time.Now()
	_, err := grounding.Load(context.Background(), "t.kif", src, grounding.Limits{Timeout: time.Millisecond})
	checkLimitError(t, err, "Timeout", 1)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Timeout 1ms took %v", d)
	}
}

// An unbounded successor relation stops at a limit, quickly, whichever limit
// is hit first.
func TestUnboundedSuccessor(t *testing.T) {
	static := scaffold + "(num 0)\n(<= (num (s ?x)) (num ?x))\n(<= terminal (num ?x))"
	fluent := `(role r) (init (c 0)) (legal r go) (<= (next (c (s ?x))) (true (c ?x))) (<= terminal (true (c 0))) (goal r 100)`
	for _, tc := range []struct {
		name, src string
		lim       grounding.Limits
		what      string
	}{
		{"Static", static, grounding.Limits{}, "MaxTermDepth"},
		{"StaticAtoms", static, grounding.Limits{MaxTermDepth: 1 << 30, MaxAtoms: 5000}, "MaxAtoms"},
		{"StaticTimeout", static, grounding.Limits{MaxTermDepth: 1 << 30, Timeout: 200 * time.Millisecond}, "Timeout"},
		{"Fluent", fluent, grounding.Limits{}, "MaxTermDepth"},
		{"FluentAtoms", fluent, grounding.Limits{MaxTermDepth: 1 << 30, MaxAtoms: 5000}, "MaxAtoms"},
		{"FluentTimeout", fluent, grounding.Limits{MaxTermDepth: 1 << 30, Timeout: 200 * time.Millisecond}, "Timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := grounding.Load(context.Background(), "t.kif", []byte(tc.src), tc.lim)
			lim := tc.lim.WithDefaults()
			want := map[string]int64{"MaxTermDepth": int64(lim.MaxTermDepth), "MaxAtoms": lim.MaxAtoms, "Timeout": lim.Timeout.Milliseconds()}
			checkLimitError(t, err, tc.what, want[tc.what])
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("stopped after %v", d)
			}
		})
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct{ name, src string }{
		{"Tiny", scaffold},
		{"Chain", chainGame},
		{"Pairs", pairsGame(200)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := grounding.Load(ctx, "t.kif", []byte(tc.src), grounding.Limits{})
			if !errors.Is(err, context.Canceled) || p != nil {
				t.Errorf("Load with a cancelled context = %v, %v, want nil, context.Canceled", p != nil, err)
			}
		})
	}
	t.Run("DeadlineExceeded", func(t *testing.T) {
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel()
		_, err := grounding.Load(ctx, "t.kif", []byte(scaffold), grounding.Limits{})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Load with an expired deadline: %v, want context.DeadlineExceeded", err)
		}
	})
	t.Run("WhileRunning", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		src := scaffold + "(num 0)\n(<= (num (s ?x)) (num ?x))\n(<= terminal (num ?x))"
		_, err := grounding.Load(ctx, "t.kif", []byte(src), grounding.Limits{MaxTermDepth: 1 << 30, MaxAtoms: 1 << 40})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Load cancelled after 50ms: %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("stopped %v after the start, want about 50ms", d)
		}
	})
}

func TestLimitsDefaults(t *testing.T) {
	got := grounding.Limits{}.WithDefaults()
	want := grounding.Limits{
		MaxAtoms:         grounding.DefaultMaxAtoms,
		MaxInstances:     grounding.DefaultMaxInstances,
		MaxCircuitNodes:  grounding.DefaultMaxCircuitNodes,
		MaxTermDepth:     grounding.DefaultMaxTermDepth,
		MaxRuleExpansion: grounding.DefaultMaxRuleExpansion,
		Timeout:          grounding.DefaultTimeout,
	}
	if got != want {
		t.Errorf("Limits{}.WithDefaults() = %+v, want %+v", got, want)
	}
	if again := got.WithDefaults(); again != got {
		t.Errorf("WithDefaults is not idempotent: %+v", again)
	}
}

// A single join that derives far more atoms than MaxAtoms stops with the
// limit error instead of collecting every result first (8 million triples
// here, limit 1000).
func TestMaxAtomsInsideOneJoin(t *testing.T) {
	var b strings.Builder
	b.WriteString("(role r) (init p) (<= (legal r a) (true p)) (<= (next p) (true p)) (<= terminal (not (true p))) (<= (goal r 100) (true p))\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "(num %d)\n", i)
	}
	b.WriteString("(<= (triple ?x ?y ?z) (num ?x) (num ?y) (num ?z))\n(<= terminal (triple ?x ?y ?z))\n")
	_, err := grounding.Load(context.Background(), "big.kif", []byte(b.String()), grounding.Limits{MaxAtoms: 1000})
	var le *grounding.LimitError
	if !errors.As(err, &le) || le.What != "MaxAtoms" {
		t.Fatalf("Load = %v, want a MaxAtoms LimitError", err)
	}
}

// reachGame has a recursive fluent relation: its atoms get placeholder
// inputs while the circuit is built, which must not count against (nor show
// in) MaxCircuitNodes.
const reachGame = `
(role r)
(init (e a b)) (init (e b c)) (init (e c d))
(<= (reach ?x ?y) (true (e ?x ?y)))
(<= (reach ?x ?z) (true (e ?x ?y)) (reach ?y ?z))
(legal r go)
(<= (next (e ?x ?y)) (true (e ?x ?y)) (not (reach ?y ?x)))
(<= terminal (reach a d))
(goal r 100)
`

// A MaxCircuitNodes error reports the configured limit, whatever the
// placeholders of recursive components (AlexChess reported 4,021,854 for a
// limit of 4,000,000).
func TestMaxCircuitNodesReportsConfiguredLimit(t *testing.T) {
	n := 1
	for ; n < 1000; n++ {
		if _, err := grounding.Load(context.Background(), "t.kif", []byte(reachGame), grounding.Limits{MaxCircuitNodes: n}); err == nil {
			break
		}
	}
	if n < 8 {
		t.Fatalf("reachGame grounds with %d circuit nodes: too small to test", n)
	}
	_, err := grounding.Load(context.Background(), "t.kif", []byte(reachGame), grounding.Limits{MaxCircuitNodes: n - 1})
	checkLimitError(t, err, "MaxCircuitNodes", int64(n-1))
	var le *grounding.LimitError
	if errors.As(err, &le) && le.Got != int64(n) {
		t.Errorf("Got = %d, want %d (the first node past the limit)", le.Got, n)
	}
}

// A saturated count says so instead of printing 2^63-1 as a number of atoms
// (laikLee_hex's all-transformations seed-23 variant: a list of 25 cells
// measured as a product before it is enumerated).
func TestLimitErrorSaturated(t *testing.T) {
	for _, c := range []struct {
		err  grounding.LimitError
		want string
	}{
		{grounding.LimitError{What: "MaxAtoms", Limit: 10, Got: 11, Where: "rules of r"}, "limit MaxAtoms=10 exceeded (reached 11; largest: rules of r)"},
		{grounding.LimitError{What: "MaxAtoms", Limit: 10, Got: math.MaxInt64, Where: "rules of r"}, "limit MaxAtoms=10 exceeded (reached more than 2^63; largest: rules of r)"},
		{grounding.LimitError{What: "MaxInstances", Limit: 10, Got: 12}, "limit MaxInstances=10 exceeded (reached 12)"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}
