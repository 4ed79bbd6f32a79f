package satcheck_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

func TestVerifyEquivalent(t *testing.T) {
	perm := [3]int{2, 0, 1}
	a := ticTacToe3("plain", 0, [3]int{0, 1, 2}, id)
	b := ticTacToe3("disguised", 1, perm, scramble)
	m := ticTacToeMapping(a, b, perm, scramble)
	for _, mode := range checkModes {
		t.Run(mode.name, func(t *testing.T) {
			res, err := satcheck.Verify(context.Background(), a, b, m, mode.opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != satcheck.Equivalent {
				t.Fatalf("Verify = %v, want equivalent", res)
			}
			if got, want := res.Checked, a.NumFunctions(); got != want {
				t.Errorf("Checked = %d, want %d", got, want)
			}
		})
	}
}

func TestVerifyWrongMapping(t *testing.T) {
	perm := [3]int{2, 0, 1}
	a := ticTacToe3("plain", 0, [3]int{0, 1, 2}, id)
	b := ticTacToe3("disguised", 1, perm, scramble)
	good := ticTacToeMapping(a, b, perm, scramble)
	swap := func(m satcheck.Mapping, p, q string) satcheck.Mapping {
		m.Props = slices.Clone(m.Props)
		i, j := slices.Index(a.Props, p), slices.Index(a.Props, q)
		m.Props[i], m.Props[j] = m.Props[j], m.Props[i]
		return m
	}
	swapActions := func(m satcheck.Mapping, r int, x, y string) satcheck.Mapping {
		m.Actions = slices.Clone(m.Actions)
		m.Actions[r] = slices.Clone(m.Actions[r])
		i, j := slices.Index(a.Actions[r], x), slices.Index(a.Actions[r], y)
		m.Actions[r][i], m.Actions[r][j] = m.Actions[r][j], m.Actions[r][i]
		return m
	}
	for _, tc := range []struct {
		name     string
		m        satcheck.Mapping
		function string
	}{
		{"BlankCells", swap(good, "(cell 1 b)", "(cell 2 b)"), "(legal xplayer (mark 1)) vs (legal white (put 0))"},
		{"CellMarks", swap(good, "(cell 1 o)", "(cell 1 x)"), "(next (cell 1 o)) vs (next (square 0 w))"},
		{"Control", swap(good, "(control oplayer)", "(control xplayer)"), "init"},
		{"XAndO", swap(good, "(cell 2 o)", "(cell 2 x)"), "(next (cell 2 o)) vs (next (square 1 w))"},
		{"Actions", swapActions(good, 0, "(mark 0)", "noop"), "(legal xplayer (mark 0)) vs (legal white pass)"},
	} {
		for _, mode := range checkModes {
			t.Run(tc.name+"/"+mode.name, func(t *testing.T) {
				res, err := satcheck.Verify(context.Background(), a, b, tc.m, mode.opt)
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != satcheck.Different || res.Function != tc.function {
					t.Fatalf("Verify = %v, want different at %s", res, tc.function)
				}
				if tc.function == "init" {
					return
				}
				ce := res.Counterexample
				if ce == nil || ce.A == ce.B {
					t.Fatalf("counterexample %+v does not separate", ce)
				}
				if strings.HasPrefix(tc.function, "(next") != (ce.Moves != nil) {
					t.Errorf("counterexample moves %v for %s", ce.Moves, tc.function)
				}
				t.Logf("%v", res)
			})
		}
	}
}

func TestVerifyShape(t *testing.T) {
	a := ticTacToe3("plain", 0, [3]int{0, 1, 2}, id)
	ctx := context.Background()
	t.Run("ExtraProposition", func(t *testing.T) {
		q := newProg("b", a.Roles, append(slices.Clone(a.Props), "(zz)"), a.Actions)
		res, err := satcheck.Verify(ctx, a, q.done(), identity(a), satcheck.Options{})
		if err != nil || res.Verdict != satcheck.Different || res.Function != "propositions" {
			t.Errorf("Verify = %v, %v, want different at propositions", res, err)
		}
	})
	t.Run("ActionCount", func(t *testing.T) {
		acts := [][]string{a.Actions[0], a.Actions[1][:3]}
		q := newProg("b", a.Roles, a.Props, acts)
		res, err := satcheck.Verify(ctx, a, q.done(), identity(a), satcheck.Options{})
		if err != nil || res.Verdict != satcheck.Different || res.Function != "actions of oplayer" {
			t.Errorf("Verify = %v, %v, want different at actions of oplayer", res, err)
		}
	})
	t.Run("Init", func(t *testing.T) {
		b := ticTacToe3("b", 0, [3]int{0, 1, 2}, id)
		b.Init = b.Init[1:]
		res, err := satcheck.Verify(ctx, a, b, identity(a), satcheck.Options{})
		if err != nil || res.Verdict != satcheck.Different || res.Function != "init" {
			t.Errorf("Verify = %v, %v, want different at init", res, err)
		}
	})
	t.Run("GoalMissing", func(t *testing.T) {
		b := ticTacToe3("b", 0, [3]int{0, 1, 2}, id)
		b.Goals[1] = slices.Delete(slices.Clone(b.Goals[1]), 1, 2) // oplayer 50
		res, err := satcheck.Verify(ctx, a, b, identity(a), satcheck.Options{})
		if err != nil || res.Verdict != satcheck.Different || res.Function != "(goal oplayer 50) vs (goal oplayer 50)" {
			t.Fatalf("Verify = %v, %v, want different at goal oplayer 50", res, err)
		}
		if !strings.Contains(res.Reason, `"b" has no`) && !strings.Contains(res.Reason, "b has no (goal oplayer 50)") {
			t.Errorf("Reason = %q, want it to say b has no such goal", res.Reason)
		}
	})
	t.Run("GoalValueMissingButFalse", func(t *testing.T) {
		// A goal value that exists with a constant-false function on one
		// side equals its absence on the other.
		b := ticTacToe3("b", 0, [3]int{0, 1, 2}, id)
		b.Goals[0] = slices.Insert(slices.Clone(b.Goals[0]), 2, grounding.Goal{Value: 75, Lit: grounding.False})
		res, err := satcheck.Verify(ctx, a, b, identity(a), satcheck.Options{})
		if err != nil || res.Verdict != satcheck.Equivalent {
			t.Errorf("Verify = %v, %v, want equivalent", res, err)
		}
	})
}

func TestVerifyMappingErrors(t *testing.T) {
	a := ticTacToe3("plain", 0, [3]int{0, 1, 2}, id)
	good := identity(a)
	for _, tc := range []struct {
		name string
		edit func(m *satcheck.Mapping)
	}{
		{"ShortProps", func(m *satcheck.Mapping) { m.Props = m.Props[1:] }},
		{"ShortActions", func(m *satcheck.Mapping) { m.Actions[1] = m.Actions[1][1:] }},
		{"DuplicateProp", func(m *satcheck.Mapping) { m.Props[0] = m.Props[1] }},
		{"DuplicateRole", func(m *satcheck.Mapping) { m.Roles[0] = 1 }},
		{"ActionOutOfRange", func(m *satcheck.Mapping) { m.Actions[0][0] = 9 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := satcheck.Mapping{Roles: slices.Clone(good.Roles), Props: slices.Clone(good.Props)}
			for _, as := range good.Actions {
				m.Actions = append(m.Actions, slices.Clone(as))
			}
			tc.edit(&m)
			_, err := satcheck.Verify(context.Background(), a, a, m, satcheck.Options{})
			if !errors.Is(err, satcheck.ErrInvalidMapping) {
				t.Errorf("Verify = %v, want ErrInvalidMapping", err)
			}
		})
	}
}

// TestVerifySemantics: state functions see no moves; next functions of a game
// with an actionless role hold vacuously.
func TestVerifySemantics(t *testing.T) {
	ctx := context.Background()
	t.Run("LegalReadsNoMoves", func(t *testing.T) {
		qa, qb := std("a"), std("b")
		qa.p.Legal[0][0] = qa.or(qa.t("p0"), qa.d("r", "a1"))
		qb.p.Legal[0][0] = qb.t("p0")
		a, b := qa.done(), qb.done()
		res, err := satcheck.Verify(ctx, a, b, identity(a), satcheck.Options{})
		if err != nil || res.Verdict != satcheck.Equivalent {
			t.Errorf("Verify = %v, %v, want equivalent (does is false in legal)", res, err)
		}
	})
	t.Run("NextReadsMoves", func(t *testing.T) {
		qa, qb := std("a"), std("b")
		qa.p.Next[0] = qa.or(qa.t("p0"), qa.d("r", "a1"))
		qb.p.Next[0] = qb.t("p0")
		a, b := qa.done(), qb.done()
		res, err := satcheck.Verify(ctx, a, b, identity(a), satcheck.Options{})
		if err != nil || res.Verdict != satcheck.Different || res.Function != "(next p0) vs (next p0)" {
			t.Fatalf("Verify = %v, %v, want different at next p0", res, err)
		}
		ce := res.Counterexample
		if slices.Contains(ce.State, 0) || ce.Moves[0] != 0 || !ce.A || ce.B {
			t.Errorf("counterexample = %+v, want p0 false, r doing a1", ce)
		}
	})
	t.Run("ActionlessRole", func(t *testing.T) {
		mk := func(name string) *prog {
			return newProg(name, []string{"r", "idle"}, []string{"p0", "p1"}, [][]string{{"a1", "a2"}, {}})
		}
		qa, qb := mk("a"), mk("b")
		qa.p.Next[0] = qa.d("r", "a1")
		qb.p.Next[0] = qb.t("p1")
		qa.p.Terminal = qa.t("p0")
		qb.p.Terminal = qb.t("p0")
		a, b := qa.done(), qb.done()
		res, err := satcheck.Verify(ctx, a, b, identity(a), satcheck.Options{})
		if err != nil || res.Verdict != satcheck.Equivalent || !res.VacuousNext {
			t.Errorf("Verify = %+v, %v, want equivalent with vacuous next", res, err)
		}
		if got := res.Checked; got != a.NumFunctions()-len(a.Next) {
			t.Errorf("Checked = %d, want %d", got, a.NumFunctions()-len(a.Next))
		}
	})
}

func TestNewCheckerMalformed(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(p *grounding.Program)
	}{
		{"Inputs", func(p *grounding.Program) { p.Circuit.NumInputs++ }},
		{"NextCount", func(p *grounding.Program) { p.Next = p.Next[1:] }},
		{"LegalCount", func(p *grounding.Program) { p.Legal[0] = p.Legal[0][1:] }},
		{"LitRange", func(p *grounding.Program) { p.Terminal = grounding.Lit(1 << 20) }},
		{"GoalOrder", func(p *grounding.Program) { p.Goals[0][0], p.Goals[0][1] = p.Goals[0][1], p.Goals[0][0] }},
		{"Fanin", func(p *grounding.Program) { p.Circuit.Fanin[0] = grounding.Lit(p.Circuit.NumNodes()) << 1 }},
		{"Init", func(p *grounding.Program) { p.Init = append(p.Init, 99) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := ticTacToe3("plain", 0, [3]int{0, 1, 2}, id)
			b := ticTacToe3("bad", 0, [3]int{0, 1, 2}, id)
			tc.edit(b)
			if _, err := satcheck.NewChecker(a, b, satcheck.Options{}); !errors.Is(err, satcheck.ErrMalformed) {
				t.Errorf("NewChecker = %v, want ErrMalformed", err)
			}
		})
	}
}

// TestCheckerReuse: one Checker verifies several candidate mappings, and the
// pairs they share are answered from the cache.
func TestCheckerReuse(t *testing.T) {
	perm := [3]int{2, 0, 1}
	a := ticTacToe3("plain", 0, [3]int{0, 1, 2}, id)
	b := ticTacToe3("disguised", 1, perm, scramble)
	c := mustChecker(t, a, b, satcheck.Options{})
	ctx := context.Background()
	// The game is symmetric under every permutation of cells: all six are equivalences.
	for _, p := range [][3]int{{0, 1, 2}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}, {0, 2, 1}, {1, 2, 0}} {
		m := ticTacToeMapping(a, b, p, scramble)
		res, err := c.Verify(ctx, m)
		if err != nil || res.Verdict != satcheck.Equivalent {
			t.Fatalf("Verify(%v) = %v, %v", p, res, err)
		}
	}
	st := c.Stats()
	if st.CacheHits == 0 {
		t.Errorf("stats %+v: want cache hits across mappings", st)
	}
	t.Logf("stats after 6 mappings: %+v", st)
}
