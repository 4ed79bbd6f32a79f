package satcheck_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// squaresGame is a game of 2x36 cells (x and o on a 6x6 board) whose
// terminal is "some axis-parallel square of x and no such square of o".
// factored writes each disjunction as the grounder writes a planned join:
// the squares grouped by their first corner, that corner's cell taken out
// of the group (x ∧ (y ∨ z) instead of (x ∧ y) ∨ (x ∧ z)). change drops
// one square of x.
func squaresGame(name string, factored, change bool) *grounding.Program {
	var props []string
	for _, m := range []string{"x", "o"} {
		for i := range 36 {
			props = append(props, fmt.Sprintf("%s%d", m, i))
		}
	}
	q := newProg(name, []string{"r"}, props, [][]string{{"a", "b"}})
	some := func(m string, skip bool) grounding.Lit {
		cell := func(r, c int) grounding.Lit { return q.t(fmt.Sprintf("%s%d", m, 6*r+c)) }
		var all []grounding.Lit
		for r := range 6 {
			for c := range 6 {
				var rest []grounding.Lit // the squares with (r, c) as first corner
				for k := 1; r+k < 6 && c+k < 6; k++ {
					if skip && r == 2 && c == 2 && k == 1 {
						continue
					}
					rest = append(rest, q.and(cell(r, c+k), cell(r+k, c), cell(r+k, c+k)))
				}
				if len(rest) == 0 {
					continue
				}
				if factored {
					all = append(all, q.and(cell(r, c), q.or(rest...)))
					continue
				}
				for _, l := range rest {
					all = append(all, q.and(cell(r, c), l))
				}
			}
		}
		return q.or(all...)
	}
	q.p.Terminal = q.and(some("x", change), some("o", false).Not())
	return q.done()
}

// dnfOptions send every pair that simulation and flattened structure
// leave open to the normal forms after a sweep of one conflict, whatever
// the cones' sizes.
var dnfOptions = satcheck.Options{SweepMinGates: 1, SweepConflictsBeforeBDD: 1}

// TestDNFStructure checks that a disjunction of squares and its factored
// form, which flattened structure cannot match (distributivity), are
// proven equal by their disjunctive normal forms with no SAT call, and
// that a pair that differs is still found different.
func TestDNFStructure(t *testing.T) {
	a := squaresGame("a", false, false)
	for _, tc := range []struct {
		name string
		b    *grounding.Program
		want bool
	}{
		{"OK", squaresGame("b", true, false), true},
		{"ErrDiffers", squaresGame("b", true, true), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustChecker(t, a, tc.b, dnfOptions)
			im := identity(a).InputMap(a, tc.b)
			got, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, a.Terminal, tc.b.Terminal, im)
			if err != nil || got != tc.want {
				t.Fatalf("CheckFunc = %v, %v, want %v", got, err, tc.want)
			}
			if st := c.Stats(); tc.want && (st.NormalForms != 1 || st.BDDs != 0) {
				t.Errorf("stats %+v, want one proof by normal forms and no BDD", st)
			}
		})
	}
}

// distribute copies the cone of l from src into q, renaming inputs through
// im; an AND with a negated AND among its fanins (an OR) is distributed
// over it at random (x ∧ (y ∨ z) becomes (x ∧ y) ∨ (x ∧ z)), so the copy is
// the same function in another circuit. With flip, the copy negates one
// fanin literal at random instead (most often another function).
func distribute(rng *rand.Rand, q *prog, src *grounding.Circuit, l grounding.Lit, im []int32, memo map[int]grounding.Lit, flip *bool) grounding.Lit {
	return copyCone(src, l, im, memo, func(n int, cp func(grounding.Lit) grounding.Lit) grounding.Lit {
		var fs []grounding.Lit
		or := -1
		for i, f := range src.Fanins(n) {
			g := cp(f)
			if *flip && rng.IntN(8) == 0 {
				g, *flip = g.Not(), false
			}
			if or < 0 && f.IsNeg() && f.Node() > src.NumInputs && rng.IntN(2) == 0 {
				or = i
			}
			fs = append(fs, g)
		}
		if or < 0 {
			return q.and(fs...)
		}
		// fs[or] = ¬AND(ms): AND(rest, OR(¬m)) = OR(AND(rest, ¬m)).
		rest := append(append([]grounding.Lit(nil), fs[:or]...), fs[or+1:]...)
		var terms []grounding.Lit
		for _, f := range src.Fanins(src.Fanins(n)[or].Node()) {
			m := cp(f)
			terms = append(terms, q.and(append(append([]grounding.Lit(nil), rest...), m.Not())...))
		}
		return q.or(terms...)
	})
}

// TestDNFAgreesWithBruteForce: random circuits over 10 propositions and
// copies of their functions distributed at random (equal) or with one
// literal negated (mostly different), decided without simulation or truth
// tables, so that the normal forms decide what structure cannot. Every
// verdict must agree with brute force, and the normal forms must prove
// some of the equal pairs that flattened structure does not.
func TestDNFAgreesWithBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	proved, equal, differ := 0, 0, 0
	for trial := range 300 {
		qa, pool := randomCircuitProgram(rng, "a", 10, []int{1}, 24)
		fa := pool[len(pool)-1-rng.IntN(6)]
		qa.p.Terminal = fa
		a := qa.done()
		qb := newProg("b", a.Roles, a.Props, a.Actions)
		im := make([]int32, a.Circuit.NumInputs)
		for i := range im {
			im[i] = int32(i)
		}
		flip := rng.IntN(3) == 0
		qb.p.Terminal = distribute(rng, qb, &a.Circuit, fa, im, map[int]grounding.Lit{}, &flip)
		b := qb.done()
		opt := dnfOptions
		opt.Mode |= satcheck.NoSimulation | satcheck.NoExhaustive | satcheck.NoCache
		c := mustChecker(t, a, b, opt)
		got, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, a.Terminal, b.Terminal, im)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		want := bruteEqual(a, b, a.Terminal, b.Terminal, im, false)
		if got != want {
			t.Fatalf("trial %d: CheckFunc = %v, brute force %v (stats %+v)", trial, got, want, c.Stats())
		}
		if !want {
			differ++
			continue
		}
		equal++
		if st := c.Stats(); st.NormalForms == 1 {
			proved++
		}
	}
	t.Logf("%d equal pairs (%d proven by normal forms), %d different", equal, proved, differ)
	if differ < 20 || proved < 20 {
		t.Errorf("%d equal pairs (%d proven by normal forms), %d different: too few of either to test", equal, proved, differ)
	}
}

// transposeCell maps "(cell rI cJ M)" to "(cell rJ cI M)"; other terms
// are their own image.
func transposeCell(s string) string {
	f := strings.Fields(strings.Trim(s, "()"))
	if len(f) == 4 && f[0] == "cell" && strings.HasPrefix(f[1], "r") && strings.HasPrefix(f[2], "c") {
		f[1], f[2] = "r"+f[2][1:], "c"+f[1][1:]
	}
	return "(" + strings.Join(f, " ") + ")"
}

// TestQuadTransposeGoals: quad's goals and terminal are disjunctions of
// squares of cells (and their negations), which the grounder joins corner
// by corner and splits into one rule per blank corner; under the board's
// transposition the image joins and splits the same squares otherwise.
// Their normal forms prove every goal and the terminal equal without a
// SAT call (quad's renamed copy waited minutes on the SAT proof of one
// goal under such a symmetry).
func TestQuadTransposeGoals(t *testing.T) {
	path := "../../shared/games/ggp-base/quad.kif"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("NOTICE: corpus game not found: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	p, err := grounding.Load(ctx, path, src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	m := identity(p)
	var moved int
	m.Props, moved = imagesOf(t, p.Props, transposeCell)
	if moved == 0 {
		t.Fatal("the transposition moves no proposition")
	}
	c := mustChecker(t, p, p, dnfOptions)
	im := m.InputMap(p, p)
	check := func(what string, kind grounding.FuncKind, l grounding.Lit) {
		eq, err := c.CheckFunc(ctx, kind, l, l, im)
		if err != nil || !eq {
			t.Fatalf("%s: CheckFunc = %v, %v under the transposition, a symmetry of quad (%+v)", what, eq, err, c.Stats())
		}
	}
	for r, gs := range p.Goals {
		for _, g := range gs {
			check(fmt.Sprintf("goal %s %d", p.Roles[r], g.Value), grounding.FuncGoal, g.Lit)
		}
	}
	check("terminal", grounding.FuncTerminal, p.Terminal)
	if st := c.Stats(); st.NormalForms == 0 || st.BDDs != 0 || st.BDDOverBound != 0 {
		t.Errorf("stats %+v: want the hard goals proven by normal forms, no BDD", st)
	}
}
