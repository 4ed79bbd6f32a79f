package grounding

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// cutsGame has n numbers and two auxiliary relations whose domain joins
// enumerate n matches per atom without the cuts: p asks whether x has any
// partner y in the static n x n relation r (y is needed by nothing after
// it), q whether some y has s, with q's head bound before y is.
func cutsGame(n int) string {
	return numbersGame(n, `(<= (r ?x ?y) (num ?x) (num ?y))
(<= (s ?y) (num ?y))
(<= (p ?x) (true (on ?x)) (r ?x ?y))
(<= (q ?x) (true (on ?x)) (num ?y) (s ?y))
(<= (legal a (m ?x)) (p ?x) (q ?x))
`)
}

// numbersGame is a game of role a over n numbers: (on x) moves to any
// number, terminal at (on 3), with rules added.
func numbersGame(n int, rules string) string {
	var b strings.Builder
	b.WriteString("(role a)\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "(num %d)\n", i)
	}
	b.WriteString(`(init (on 1))
(<= (next (on ?y)) (true (on ?x)) (num ?y))
(<= terminal (true (on 3)))
(goal a 100)
`)
	b.WriteString(rules)
	return b.String()
}

// TestDomainCutsWork: with the cuts the domain joins of p, q and next do
// work linear in n, without them quadratic; the Program is the same.
func TestDomainCutsWork(t *testing.T) {
	const n = 300
	f, err := Parse("cuts.kif", []byte(cutsGame(n)))
	if err != nil {
		t.Fatal(err)
	}
	ground := func(v variant) (*Program, int64) {
		var work int64
		v.onEngine = func(e *engine) { work = e.domainWork }
		p, err := groundVariant(context.Background(), f, Limits{}, memoProbe, v)
		if err != nil {
			t.Fatal(err)
		}
		return p, work
	}
	with, workWith := ground(variant{})
	without, workWithout := ground(variant{noDomainCuts: true})
	if len(with.Actions[0]) != n || len(without.Actions[0]) != n {
		t.Fatalf("actions: %d with cuts, %d without, want %d", len(with.Actions[0]), len(without.Actions[0]), n)
	}
	if with.Circuit.NumNodes() != without.Circuit.NumNodes() {
		t.Errorf("circuit nodes: %d with cuts, %d without", with.Circuit.NumNodes(), without.Circuit.NumNodes())
	}
	// The static relation r alone takes n*n matches to build; the domain
	// joins of p, q and next add 3*n*n without the cuts and a few n with
	// them.
	if workWith > n*n+50*n {
		t.Errorf("domain work with cuts = %d, want at most %d", workWith, n*n+50*n)
	}
	if workWithout < 3*n*n {
		t.Errorf("domain work without cuts = %d, want at least %d (the game no longer shows what the cuts save)", workWithout, 3*n*n)
	}
	t.Logf("domain work: %d with cuts, %d without", workWith, workWithout)
}

// TestDomainCutsNoIntern: the head-done test only looks the head atom's
// terms up. A rule whose head term is deeper than MaxTermDepth but whose
// body never matches past the point where the head is bound grounds.
func TestDomainCutsNoIntern(t *testing.T) {
	src := `(role a)
(init (on 1))
(num 1) (num 2) (bad 0)
(<= (next (on ?x)) (true (on ?x)))
(<= (p (f (f (f ?x))))  (true (on ?x)) (num ?y) (bad ?y))
(<= (legal a noop) (true (on 1)))
(<= terminal (p ?z))
(goal a 100)
`
	f, err := Parse("deep.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Ground(context.Background(), f, Limits{MaxTermDepth: 2}); err != nil {
		t.Errorf("Ground(deep.kif, MaxTermDepth 2) = %v, want a Program (no p atom is derived)", err)
	}
}

// TestHeadDoneOnce: a domain join asks whether the head atom is derived
// at the first step that has the head bound, not again at the steps
// below it (the answer cannot differ there). q's head is bound after
// (true (on ?x)); y then runs over n numbers through three more steps.
func TestHeadDoneOnce(t *testing.T) {
	const n = 200
	src := numbersGame(n, `(<= (s ?y) (num ?y) (distinct ?y 1))
(<= (q ?x) (true (on ?x)) (num ?y) (s ?y) (num ?y) (distinct ?x ?y) (distinct ?y 2))
(<= (legal a (m ?x)) (q ?x))
`)
	f, err := Parse("headdone.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var checks int64
	v := variant{workers: 1, onEngine: func(e *engine) { checks = e.headChecks }}
	p, err := groundVariant(context.Background(), f, Limits{}, memoProbe, v)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Actions[0]) != n {
		t.Fatalf("actions: %d, want %d", len(p.Actions[0]), n)
	}
	// About 3n: q's join asks once per x when its step starts and once
	// when its atom is derived, next's once per y. Asking at every step
	// below the first adds one per x and y tried there (5n in all).
	if checks > 4*n {
		t.Errorf("head-done tests = %d, want at most %d", checks, 4*n)
	}
	t.Logf("head-done tests: %d", checks)
}
