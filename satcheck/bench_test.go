package satcheck_test

import (
	"context"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// benchCheck times CheckFunc on one pair and reports SAT calls per check.
func benchCheck(b *testing.B, pa, pb *grounding.Program, fa, fb grounding.Lit, opt satcheck.Options, want bool) {
	c := mustChecker(b, pa, pb, opt)
	im := identity(pa).InputMap(pa, pb)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		eq, err := c.CheckFunc(ctx, grounding.FuncNext, fa, fb, im)
		if err != nil || eq != want {
			b.Fatalf("CheckFunc = %v, %v, want %v", eq, err, want)
		}
	}
	st := c.Stats()
	b.ReportMetric(float64(st.SATCalls)/float64(st.Checks), "sat/op")
}

var benchModes = []struct {
	name string
	opt  satcheck.Options
}{
	{"Default", satcheck.Options{Mode: satcheck.NoCache}},
	{"NoStructure", satcheck.Options{Mode: satcheck.NoCache | satcheck.NoStructure}},
	{"SATOnly", satcheck.Options{Mode: satcheck.SATOnly}},
	{"Cached", satcheck.Options{}},
}

// BenchmarkLine3 compares a 3-in-a-row line function with its De Morgan
// form (structurally equal once normalized) and with a nested form.
func BenchmarkLine3(b *testing.B) {
	qa, qb := std("a"), std("b")
	line := qa.and(qa.t("p0"), qa.t("p1"), qa.t("p2"))
	deMorgan := qb.or(qb.t("p0").Not(), qb.t("p1").Not(), qb.t("p2").Not()).Not()
	nested := qb.and(qb.t("p0"), qb.and(qb.t("p1"), qb.t("p2")))
	dropped := qb.and(qb.t("p0"), qb.t("p1"))
	pa, pb := qa.done(), qb.done()
	for _, m := range benchModes {
		b.Run("DeMorgan/"+m.name, func(b *testing.B) { benchCheck(b, pa, pb, line, deMorgan, m.opt, true) })
		b.Run("Nested/"+m.name, func(b *testing.B) { benchCheck(b, pa, pb, line, nested, m.opt, true) })
		b.Run("Dropped/"+m.name, func(b *testing.B) { benchCheck(b, pa, pb, line, dropped, m.opt, false) })
	}
}

// BenchmarkConnectFour compares the 69-line "four in a row" function (42
// inputs) with itself, a factored form and a form missing one line.
func BenchmarkConnectFour(b *testing.B) {
	pa, pb, fa, same, factored, dropped := connectFour(b)
	for _, m := range benchModes {
		b.Run("Same/"+m.name, func(b *testing.B) { benchCheck(b, pa, pb, fa, same, m.opt, true) })
		b.Run("Factored/"+m.name, func(b *testing.B) { benchCheck(b, pa, pb, fa, factored, m.opt, true) })
		b.Run("Dropped/"+m.name, func(b *testing.B) { benchCheck(b, pa, pb, fa, dropped, m.opt, false) })
	}
}

// BenchmarkVerifyTicTacToe verifies the grounded Tic-tac-toe against a
// disguise of itself with a fresh Checker per iteration.
func BenchmarkVerifyTicTacToe(b *testing.B) {
	tc := groundTests[0]
	src := readGame(b, tc.file)
	pa := groundGame(b, "a.kif", src)
	text, rename := disguise(src, tc.renames)
	pb := groundGame(b, "b.kif", []byte(text))
	m := nameMapping(b, pa, pb, rename)
	for b.Loop() {
		res, err := satcheck.Verify(context.Background(), pa, pb, m, satcheck.Options{})
		if err != nil || res.Verdict != satcheck.Equivalent {
			b.Fatalf("Verify = %v, %v", res, err)
		}
	}
}

// BenchmarkSemanticSupport computes the semantic support of the 69-line
// function (42 inputs: simulation finds every dependency, no SAT).
func BenchmarkSemanticSupport(b *testing.B) {
	pa, _, fa, _, _, _ := connectFour(b)
	for b.Loop() {
		s, err := satcheck.SemanticSupport(context.Background(), pa, fa)
		if err != nil || len(s) != 42 {
			b.Fatalf("SemanticSupport = %d inputs, %v", len(s), err)
		}
	}
}
