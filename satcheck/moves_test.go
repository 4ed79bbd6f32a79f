package satcheck_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// movesOf is the Moves of a self-mapping m of p.
func movesOf(p *grounding.Program, m satcheck.Mapping) satcheck.Moves {
	mv := satcheck.Moves{Roles: m.Roles}
	for i, j := range m.InputMap(p, p) {
		if int32(i) != j {
			mv.Inputs = append(mv.Inputs, int32(i))
			mv.Images = append(mv.Images, j)
		}
	}
	return mv
}

// swapPQ is a game on propositions p and q whose terminal is f(p, q); the
// legal, next and goal functions are symmetric in p and q.
func swapPQ(f func(q *prog, p, pq grounding.Lit) grounding.Lit) *grounding.Program {
	q := newProg("swap", []string{"r"}, []string{"p", "q"}, [][]string{{"a"}})
	p1, p2 := q.t("p"), q.t("q")
	q.p.Legal[0][0] = grounding.True
	q.p.Next[0], q.p.Next[1] = p1, p2
	q.p.Goals[0] = []grounding.Goal{{Value: 100, Lit: q.or(p1, p2)}}
	q.p.Terminal = f(q, p1, p2)
	return q.done()
}

// TestVerifyMovesInputOnly swaps p and q, which moves the next functions
// of p and q and only the inputs of the terminal: the terminal (p and not
// q) differs from its image though σ fixes it, so the swap is not a
// symmetry; with a symmetric terminal it is.
func TestVerifyMovesInputOnly(t *testing.T) {
	swap := satcheck.Moves{Roles: []int{0}, Inputs: []int32{0, 1}, Images: []int32{1, 0}}
	for _, tc := range []struct {
		name     string
		terminal func(q *prog, p, pq grounding.Lit) grounding.Lit
		want     satcheck.Verdict
	}{
		{"asymmetric", func(q *prog, p, pq grounding.Lit) grounding.Lit { return q.and(p, pq.Not()) }, satcheck.Different},
		{"symmetric", func(q *prog, p, pq grounding.Lit) grounding.Lit { return q.and(p, pq) }, satcheck.Equivalent},
		{"symmetric-other-circuit", func(q *prog, p, pq grounding.Lit) grounding.Lit { return q.xor(p, pq) }, satcheck.Equivalent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := swapPQ(tc.terminal)
			c := mustChecker(t, p, p, satcheck.Options{})
			res, err := c.VerifyMoves(context.Background(), swap)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.want {
				t.Fatalf("VerifyMoves(swap p q) = %v, want %v", res, tc.want)
			}
			if tc.want == satcheck.Different && res.Function != "terminal vs terminal" {
				t.Errorf("VerifyMoves(swap p q) fails on %q, want the terminal", res.Function)
			}
		})
	}
}

// TestVerifyMovesAgreesWithVerify checks VerifyMoves against Verify on
// every cell permutation of a one-line tic-tac-toe (symmetries and not)
// and on random permutations of random programs.
func TestVerifyMovesAgreesWithVerify(t *testing.T) {
	ctx := context.Background()
	check := func(t *testing.T, p *grounding.Program, m satcheck.Mapping) satcheck.Verdict {
		t.Helper()
		want, err := satcheck.Verify(ctx, p, p, m, satcheck.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := mustChecker(t, p, p, satcheck.Options{}).VerifyMoves(ctx, movesOf(p, m))
		if err != nil {
			t.Fatal(err)
		}
		// The verdicts agree; the pair named may be another that differs
		// (VerifyMoves tries the functions reading moved inputs first).
		if got.Verdict != want.Verdict || (got.Verdict == satcheck.Different) != (got.Counterexample != nil) {
			t.Fatalf("VerifyMoves = %v, Verify = %v", got, want)
		}
		if got.Verdict == satcheck.Different {
			checkCounterexample(t, p, m, got)
		}
		return got.Verdict
	}
	seen := map[satcheck.Verdict]int{}
	a := ticTacToe3("a", 0, [3]int{0, 1, 2}, id)
	for _, perm := range [][3]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, {0, 2, 1}, {1, 2, 0}, {2, 0, 1}} {
		seen[check(t, a, ticTacToeMapping(a, a, perm, id))]++
	}
	rng := rand.New(rand.NewPCG(7, 13))
	for range 200 {
		q, pool := randomCircuitProgram(rng, "r", 6, []int{3, 2}, 40)
		pick := func() grounding.Lit { return pool[rng.IntN(len(pool))] ^ grounding.Lit(rng.IntN(2)) }
		p := q.p
		for r := range p.Legal {
			for x := range p.Legal[r] {
				p.Legal[r][x] = pick()
			}
			p.Goals[r] = []grounding.Goal{{Value: 0, Lit: pick()}, {Value: 100, Lit: pick()}}
		}
		for i := range p.Next {
			p.Next[i] = pick()
		}
		p.Terminal = pick()
		p = q.done()
		m := identity(p)
		// Swap two propositions and two actions of role 0.
		i, j := rng.IntN(6), rng.IntN(6)
		m.Props[i], m.Props[j] = m.Props[j], m.Props[i]
		x, y := rng.IntN(3), rng.IntN(3)
		m.Actions[0][x], m.Actions[0][y] = m.Actions[0][y], m.Actions[0][x]
		seen[check(t, p, m)]++
	}
	if seen[satcheck.Equivalent] == 0 || seen[satcheck.Different] == 0 {
		t.Errorf("verdicts %v: the test needs both", seen)
	}
}

// TestVerifyMovesMalformed checks that moves that are no self-mapping are
// caller errors.
func TestVerifyMovesMalformed(t *testing.T) {
	p := swapPQ(func(q *prog, p, pq grounding.Lit) grounding.Lit { return q.and(p, pq) })
	c := mustChecker(t, p, p, satcheck.Options{})
	for _, mv := range []satcheck.Moves{
		{Roles: []int{0}, Inputs: []int32{0}, Images: []int32{1}},       // not a permutation
		{Roles: []int{0}, Inputs: []int32{0, 2}, Images: []int32{2, 0}}, // proposition to action
		{Roles: []int{0}, Inputs: []int32{1, 0}, Images: []int32{0, 1}}, // not ascending
		{Roles: []int{0, 0}}, // roles
		{Roles: []int{0}, Inputs: []int32{0, 1}, Images: []int32{1, 0, 1}}, // lengths
	} {
		var me *satcheck.MappingError
		if _, err := c.VerifyMoves(context.Background(), mv); !errors.As(err, &me) {
			t.Errorf("VerifyMoves(%v) = %v, want a *MappingError", mv, err)
		}
	}
}

// checkCounterexample evaluates the named pair on the counterexample: A's
// function at (s, j) and its image at (σs, σj) must be the values reported,
// and differ.
func checkCounterexample(t *testing.T, p *grounding.Program, m satcheck.Mapping, res *satcheck.Result) {
	t.Helper()
	ce := res.Counterexample
	var pr *satcheck.Pair
	for _, x := range satcheck.Pairs(p, p, m) {
		if x.Name == res.Function {
			pr = &x
		}
	}
	if pr == nil {
		t.Fatalf("no pair %q", res.Function)
	}
	im := m.InputMap(p, p)
	in := make([]bool, p.Circuit.NumInputs)
	for _, q := range ce.State {
		in[q] = true
	}
	if pr.Kind == grounding.FuncNext {
		base := len(p.Props)
		for r, x := range ce.Moves {
			in[base+x] = true
			base += len(p.Actions[r])
		}
	} else if ce.Moves != nil {
		t.Errorf("%s: moves in the counterexample of a function of the state", res.Function)
	}
	inB := make([]bool, len(in))
	for i, v := range in {
		inB[im[i]] = v
	}
	va := grounding.Value(p.Circuit.Eval(in, nil), pr.A)
	vb := grounding.Value(p.Circuit.Eval(inB, nil), pr.B)
	if va != ce.A || vb != ce.B || va == vb {
		t.Errorf("%s: counterexample %v gives %v and %v, reported %v and %v", res.Function, ce, va, vb, ce.A, ce.B)
	}
}

// TestVerifyMovesCancelled checks that a cancelled context stops
// VerifyMoves even when simulation alone would refute the mapping (a
// symmetry search calls it for tens of thousands of generators).
func TestVerifyMovesCancelled(t *testing.T) {
	p := swapPQ(func(q *prog, p, pq grounding.Lit) grounding.Lit { return q.and(p, pq.Not()) })
	c := mustChecker(t, p, p, satcheck.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	swap := satcheck.Moves{Roles: []int{0}, Inputs: []int32{0, 1}, Images: []int32{1, 0}}
	if _, err := c.VerifyMoves(ctx, swap); !errors.Is(err, context.Canceled) {
		t.Fatalf("VerifyMoves(cancelled) = %v, want context.Canceled", err)
	}
}
