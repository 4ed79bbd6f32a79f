package satcheck_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/crillab/gophersat/solver"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// std builds the programs of checkFuncTests: propositions p0..p5, role r with
// actions a1..a3 and role s with actions b1, b2.
func std(name string) *prog {
	return newProg(name, []string{"r", "s"}, []string{"p0", "p1", "p2", "p3", "p4", "p5"},
		[][]string{{"a1", "a2", "a3"}, {"b1", "b2"}})
}

var checkFuncTests = []struct {
	name  string
	fa    func(q *prog) grounding.Lit
	fb    func(q *prog) grounding.Lit
	equal bool
}{
	{"LineVsDeMorgan",
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p1"), q.t("p2")) },
		func(q *prog) grounding.Lit { return q.or(q.t("p0").Not(), q.t("p1").Not(), q.t("p2").Not()).Not() },
		true},
	{"LineVsNested",
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p1"), q.t("p2")) },
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.and(q.t("p1"), q.t("p2"))) },
		true},
	{"Distributive",
		func(q *prog) grounding.Lit { return q.or(q.and(q.t("p0"), q.t("p1")), q.and(q.t("p0"), q.t("p2"))) },
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.or(q.t("p1"), q.t("p2"))) },
		true},
	{"XorAssociative",
		func(q *prog) grounding.Lit { return q.xor(q.xor(q.t("p0"), q.t("p1")), q.t("p2")) },
		func(q *prog) grounding.Lit { return q.xor(q.t("p0"), q.xor(q.t("p1"), q.t("p2"))) },
		true},
	{"DroppedLiteral",
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p1"), q.t("p2")) },
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p1")) },
		false},
	{"AndVsOr",
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p1")) },
		func(q *prog) grounding.Lit { return q.or(q.t("p0"), q.t("p1")) },
		false},
	{"Negated",
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p1")) },
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p1")).Not() },
		false},
	{"InputVsInput", func(q *prog) grounding.Lit { return q.t("p3") }, func(q *prog) grounding.Lit { return q.t("p3") }, true},
	{"InputVsOtherInput", func(q *prog) grounding.Lit { return q.t("p3") }, func(q *prog) grounding.Lit { return q.t("p4") }, false},
	{"FalseVsFalse", func(q *prog) grounding.Lit { return grounding.False }, func(q *prog) grounding.Lit { return grounding.False }, true},
	{"TrueVsFalse", func(q *prog) grounding.Lit { return grounding.True }, func(q *prog) grounding.Lit { return grounding.False }, false},
	{"FalseVsSatisfiable", func(q *prog) grounding.Lit { return grounding.False }, func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p5")) }, false},
	{"OneHotEqual", // a1 ∨ a2 = ¬a3 when r does exactly one of a1, a2, a3
		func(q *prog) grounding.Lit { return q.or(q.d("r", "a1"), q.d("r", "a2")) },
		func(q *prog) grounding.Lit { return q.d("r", "a3").Not() },
		true},
	{"OneHotEqualWithState",
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.or(q.d("r", "a1"), q.d("r", "a2"))) },
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.d("r", "a3").Not()) },
		true},
	{"OneHotDifferent", // a1 ≠ ¬a2: r may do a3
		func(q *prog) grounding.Lit { return q.d("r", "a1") },
		func(q *prog) grounding.Lit { return q.d("r", "a2").Not() },
		false},
	{"OneHotTwoActions", // b1 = ¬b2 for a role with exactly b1, b2
		func(q *prog) grounding.Lit { return q.d("s", "b1") },
		func(q *prog) grounding.Lit { return q.d("s", "b2").Not() },
		true},
	{"OneHotTwoRoles",
		func(q *prog) grounding.Lit { return q.and(q.d("r", "a1"), q.d("s", "b1")) },
		func(q *prog) grounding.Lit {
			return q.and(q.or(q.d("r", "a2"), q.d("r", "a3")).Not(), q.d("s", "b2").Not())
		},
		true},
	{"OneHotTautology",
		func(q *prog) grounding.Lit { return q.or(q.d("r", "a1"), q.d("r", "a2"), q.d("r", "a3")) },
		func(q *prog) grounding.Lit { return grounding.True },
		true},
	{"OneHotAtMostOne", // two actions of one role never both happen
		func(q *prog) grounding.Lit { return q.and(q.d("r", "a1"), q.d("r", "a3")) },
		func(q *prog) grounding.Lit { return grounding.False },
		true},
	{"OneHotMixed",
		func(q *prog) grounding.Lit {
			return q.or(q.and(q.t("p1"), q.d("r", "a1")), q.and(q.t("p2"), q.d("s", "b2")))
		},
		func(q *prog) grounding.Lit {
			return q.or(q.and(q.t("p1"), q.d("r", "a2").Not(), q.d("r", "a3").Not()), q.and(q.t("p2"), q.d("s", "b1").Not()))
		},
		true},
	{"OneHotMixedWrong",
		func(q *prog) grounding.Lit {
			return q.or(q.and(q.t("p1"), q.d("r", "a1")), q.and(q.t("p2"), q.d("s", "b2")))
		},
		func(q *prog) grounding.Lit {
			return q.or(q.and(q.t("p1"), q.d("r", "a2").Not()), q.and(q.t("p2"), q.d("s", "b1").Not()))
		},
		false},
}

// checkModes are the stage selections every verdict must agree under.
var checkModes = []struct {
	name string
	opt  satcheck.Options
}{
	{"Default", satcheck.Options{}},
	{"SATOnly", satcheck.Options{Mode: satcheck.SATOnly}},
	{"SimThenSAT", satcheck.Options{Mode: satcheck.NoStructure | satcheck.NoExhaustive | satcheck.NoCache}},
	{"ExhaustiveOnly", satcheck.Options{Mode: satcheck.NoStructure | satcheck.NoSimulation | satcheck.NoCache}},
	{"OneWordSim", satcheck.Options{SimWords: 1, ExhaustiveBits: 1}},
	{"SweepOnly", sweepOnly},
	{"SATOnlyNoSweep", satcheck.Options{Mode: satcheck.SATOnly | satcheck.NoSweep}},
}

func TestCheckFunc(t *testing.T) {
	for _, tc := range checkFuncTests {
		qa, qb := std("a"), std("b")
		fa, fb := tc.fa(qa), tc.fb(qb)
		a, b := qa.done(), qb.done()
		im := identity(a).InputMap(a, b)
		if got := bruteEqual(a, b, fa, fb, im, true); got != tc.equal {
			t.Fatalf("%s: brute force says %v, table says %v", tc.name, got, tc.equal)
		}
		for _, m := range checkModes {
			t.Run(tc.name+"/"+m.name, func(t *testing.T) {
				c := mustChecker(t, a, b, m.opt)
				got, err := c.CheckFunc(context.Background(), grounding.FuncNext, fa, fb, im)
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.equal {
					t.Errorf("CheckFunc = %v, want %v (stats %+v)", got, tc.equal, c.Stats())
				}
				// Symmetric question, swapped sides.
				c2 := mustChecker(t, b, a, m.opt)
				got, err = c2.CheckFunc(context.Background(), grounding.FuncNext, fb, fa, identity(b).InputMap(b, a))
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.equal {
					t.Errorf("swapped CheckFunc = %v, want %v", got, tc.equal)
				}
			})
		}
	}
}

// TestCheckFuncStages checks which stage decides the typical pairs.
func TestCheckFuncStages(t *testing.T) {
	qa, qb := std("a"), std("b")
	line := qa.and(qa.t("p0"), qa.t("p1"), qa.t("p2"))
	deMorgan := qb.or(qb.t("p0").Not(), qb.t("p1").Not(), qb.t("p2").Not()).Not()
	nested := qb.and(qb.t("p0"), qb.and(qb.t("p1"), qb.t("p2")))
	a, b := qa.done(), qb.done()
	im := identity(a).InputMap(a, b)
	ctx := context.Background()

	c := mustChecker(t, a, b, satcheck.Options{})
	if eq, err := c.CheckFunc(ctx, grounding.FuncNext, line, deMorgan, im); err != nil || !eq {
		t.Fatalf("CheckFunc(line, deMorgan) = %v, %v", eq, err)
	}
	if got := c.Stats(); got.Structural != 1 || got.SATCalls != 0 || got.Exhaustive != 0 {
		t.Errorf("line vs De Morgan stats = %+v, want one structural decision", got)
	}
	if eq, err := c.CheckFunc(ctx, grounding.FuncNext, line, nested, im); err != nil || !eq {
		t.Fatalf("CheckFunc(line, nested) = %v, %v", eq, err)
	}
	if got := c.Stats(); got.Exhaustive != 1 || got.SATCalls != 0 {
		t.Errorf("line vs nested stats = %+v, want one exhaustive decision", got)
	}
	if eq, err := c.CheckFunc(ctx, grounding.FuncNext, line, nested, im); err != nil || !eq {
		t.Fatalf("second CheckFunc(line, nested) = %v, %v", eq, err)
	}
	if got := c.Stats(); got.CacheHits != 1 {
		t.Errorf("repeated check stats = %+v, want a cache hit", got)
	}
	// Another mapping that agrees on the support of line: still a hit.
	im2 := append([]int32(nil), im...)
	im2[4], im2[5] = im[5], im[4]
	if eq, err := c.CheckFunc(ctx, grounding.FuncNext, line, nested, im2); err != nil || !eq {
		t.Fatalf("CheckFunc under other mapping = %v, %v", eq, err)
	}
	if got := c.Stats(); got.CacheHits != 2 {
		t.Errorf("stats = %+v, want a second cache hit", got)
	}
	// A mapping that differs on the support: a new question, and a different answer.
	im3 := append([]int32(nil), im...)
	im3[0], im3[3] = im[3], im[0]
	if eq, err := c.CheckFunc(ctx, grounding.FuncNext, line, nested, im3); err != nil || eq {
		t.Fatalf("CheckFunc with p0 and p3 swapped = %v, %v, want false", eq, err)
	}
	if got := c.Stats(); got.CacheHits != 2 || got.Exhaustive != 2 {
		t.Errorf("stats = %+v, want no new cache hit", got)
	}
	if eq, err := c.CheckFunc(ctx, grounding.FuncNext, line, nested, im3); err != nil || eq {
		t.Fatalf("repeated CheckFunc with p0 and p3 swapped = %v, %v, want false", eq, err)
	}
	if got := c.Stats(); got.CacheHits != 3 {
		t.Errorf("stats = %+v, want the difference cached", got)
	}
}

// TestCheckFuncPartialMap: only the support of fa needs images; B's function
// may read actions whose preimages are still unknown.
func TestCheckFuncPartialMap(t *testing.T) {
	qa, qb := std("a"), std("b")
	fa := qa.and(qa.t("p0"), qa.d("r", "a1"))
	fb := qb.and(qb.t("p1"), qb.d("r", "a2").Not(), qb.d("r", "a3").Not())
	fbWrong := qb.and(qb.t("p1"), qb.d("r", "a2").Not())
	a, b := qa.done(), qb.done()
	im := make([]int32, a.Circuit.NumInputs)
	for i := range im {
		im[i] = -1
	}
	im[0] = 1 // p0 -> p1
	im[qa.actionInput("r", "a1")] = int32(qb.actionInput("r", "a1"))
	for _, m := range checkModes {
		c := mustChecker(t, a, b, m.opt)
		if eq, err := c.CheckFunc(context.Background(), grounding.FuncNext, fa, fb, im); err != nil || !eq {
			t.Errorf("%s: CheckFunc(partial) = %v, %v, want true", m.name, eq, err)
		}
		if eq, err := c.CheckFunc(context.Background(), grounding.FuncNext, fa, fbWrong, im); err != nil || eq {
			t.Errorf("%s: CheckFunc(partial, wrong) = %v, %v, want false", m.name, eq, err)
		}
	}
}

var mappingErrorTests = []struct {
	name string
	edit func(im []int32, a, b *prog)
}{
	{"Short", nil},
	{"Unmapped", func(im []int32, a, b *prog) { im[0] = -1 }},
	{"OutOfRange", func(im []int32, a, b *prog) { im[0] = 99 }},
	{"NotInjective", func(im []int32, a, b *prog) { im[1] = im[0] }},
	{"PropToAction", func(im []int32, a, b *prog) {
		im[0], im[a.actionInput("r", "a1")] = im[a.actionInput("r", "a1")], im[0]
	}},
	{"RolesMixed", func(im []int32, a, b *prog) {
		x, y := a.actionInput("r", "a1"), a.actionInput("s", "b1")
		im[x], im[y] = im[y], im[x]
	}},
}

func TestCheckFuncMappingErrors(t *testing.T) {
	for _, tc := range mappingErrorTests {
		t.Run(tc.name, func(t *testing.T) {
			qa, qb := std("a"), std("b")
			fa := qa.or(qa.and(qa.t("p0"), qa.t("p1")), qa.d("r", "a1"), qa.d("s", "b1"))
			fb := qb.t("p0")
			a, b := qa.done(), qb.done()
			im := identity(a).InputMap(a, b)
			if tc.edit == nil {
				im = im[:3]
			} else {
				tc.edit(im, qa, qb)
			}
			c := mustChecker(t, a, b, satcheck.Options{})
			_, err := c.CheckFunc(context.Background(), grounding.FuncNext, fa, fb, im)
			var me *satcheck.MappingError
			if !errors.As(err, &me) || !errors.Is(err, satcheck.ErrInvalidMapping) {
				t.Errorf("CheckFunc = %v, want a *MappingError", err)
			}
		})
	}
}

// TestCheckFuncRandom compares the checker with brute-force truth tables on
// random circuits over at most 12 inputs, under random input bijections.
func TestCheckFuncRandom(t *testing.T) {
	shapes := [][]int{{2, 3}, {1, 2}, {3}, {4}, {2, 2, 2}, {}, {7}, {8, 2}, {6, 1}}
	trials := 300
	if testing.Short() {
		trials = 60
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var equal, different int
	for trial := range trials {
		shape := shapes[trial%len(shapes)]
		nActs := 0
		for _, k := range shape {
			nActs += k
		}
		nProps := 2 + rng.IntN(11-nActs)
		qa, pool := randomCircuitProgram(rng, "a", nProps, shape, 25)
		qb, _ := randomCircuitProgram(rng, "b", nProps, shape, 0)
		// A random bijection of inputs respecting roles (role sizes here make
		// role swaps possible for equal sizes; keep roles, permute actions).
		im := randomInputMap(rng, qa.c.NumInputs, nProps, shape)
		fa := pool[rng.IntN(len(pool))] ^ grounding.Lit(rng.IntN(2))
		F := rebuild(qb, &qa.c, fa, im, map[int]grounding.Lit{})
		G := rebuild(qb, &qa.c, pool[rng.IntN(len(pool))], im, map[int]grounding.Lit{})
		H := rebuild(qb, &qa.c, pool[rng.IntN(len(pool))]^1, im, map[int]grounding.Lit{})
		cands := []grounding.Lit{
			F,
			qb.or(qb.and(F, G), qb.and(F, G.Not())),
			qb.and(qb.or(F, H), qb.or(F, H.Not())),
			G,
			qb.xor(F, qb.and(G, H)),
			qb.or(F, qb.and(G, H)),
		}
		a, b := qa.done(), qb.done()
		for ci, fb := range cands {
			want := bruteEqual(a, b, fa, fb, im, true)
			if want {
				equal++
			} else {
				different++
			}
			for _, m := range checkModes {
				c := mustChecker(t, a, b, m.opt)
				got, err := c.CheckFunc(context.Background(), grounding.FuncNext, fa, fb, im)
				if err != nil {
					t.Fatalf("trial %d cand %d %s: %v", trial, ci, m.name, err)
				}
				if got != want {
					t.Fatalf("trial %d cand %d %s: CheckFunc = %v, brute force %v (shape %v, %d props)",
						trial, ci, m.name, got, want, shape, nProps)
				}
			}
		}
	}
	t.Logf("%d equal and %d different pairs agree with brute force", equal, different)
	if equal < trials || different < trials {
		t.Errorf("too few cases of one kind: %d equal, %d different", equal, different)
	}
}

// TestCheckFuncLarge exercises simulation and SAT on supports too large for
// truth tables, against known answers.
func TestCheckFuncLarge(t *testing.T) {
	a, b, fa, same, factored, dropped := connectFour(t)
	im := identity(a).InputMap(a, b)
	for _, m := range checkModes[:3] {
		t.Run(m.name, func(t *testing.T) {
			for _, tc := range []struct {
				name  string
				fb    grounding.Lit
				equal bool
			}{{"Same", same, true}, {"Factored", factored, true}, {"Dropped", dropped, false}} {
				c := mustChecker(t, a, b, m.opt)
				got, err := c.CheckFunc(context.Background(), grounding.FuncNext, fa, tc.fb, im)
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.equal {
					t.Errorf("%s: CheckFunc = %v, want %v", tc.name, got, tc.equal)
				}
			}
		})
	}
}

// connectFour builds the 69-line "x has four in a row" function of a 7×6
// board (126 propositions) in program a, and in program b the same function,
// a factored form (lines grouped by their first cell) and a form with one
// line dropped.
func connectFour(tb testing.TB) (a, b *grounding.Program, fa, same, factored, dropped grounding.Lit) {
	var props []string
	for c := 1; c <= 7; c++ {
		for r := 1; r <= 6; r++ {
			for _, m := range []string{"b", "o", "x"} {
				props = append(props, fmt.Sprintf("(cell %d %d %s)", c, r, m))
			}
		}
	}
	var lines [][4][2]int
	for c := 1; c <= 7; c++ {
		for r := 1; r <= 6; r++ {
			for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				ec, er := c+3*d[0], r+3*d[1]
				if ec < 1 || ec > 7 || er < 1 || er > 6 {
					continue
				}
				var l [4][2]int
				for k := range 4 {
					l[k] = [2]int{c + k*d[0], r + k*d[1]}
				}
				lines = append(lines, l)
			}
		}
	}
	if len(lines) != 69 {
		tb.Fatalf("%d lines, want 69", len(lines))
	}
	roles := []string{"red", "yellow"}
	acts := [][]string{{"(drop 1)", "(drop 2)", "(drop 3)", "(drop 4)", "(drop 5)", "(drop 6)", "(drop 7)", "noop"}, {"(drop 1)", "(drop 2)", "(drop 3)", "(drop 4)", "(drop 5)", "(drop 6)", "(drop 7)", "noop"}}
	qa := newProg("c4a", roles, props, acts)
	qb := newProg("c4b", roles, props, acts)
	x := func(q *prog, cr [2]int) grounding.Lit { return q.t(fmt.Sprintf("(cell %d %d x)", cr[0], cr[1])) }
	lineLit := func(q *prog, l [4][2]int) grounding.Lit {
		return q.and(x(q, l[0]), x(q, l[1]), x(q, l[2]), x(q, l[3]))
	}
	var la, lb, lbDrop []grounding.Lit
	byFirst := map[[2]int][]grounding.Lit{}
	var firsts [][2]int
	for i, l := range lines {
		la = append(la, lineLit(qa, l))
		lb = append(lb, lineLit(qb, l))
		if i != 40 {
			lbDrop = append(lbDrop, lineLit(qb, l))
		}
		if _, ok := byFirst[l[0]]; !ok {
			firsts = append(firsts, l[0])
		}
		byFirst[l[0]] = append(byFirst[l[0]], qb.and(x(qb, l[1]), x(qb, l[2]), x(qb, l[3])))
	}
	fa = qa.or(la...)
	same = qb.or(lb...)
	dropped = qb.or(lbDrop...)
	var terms []grounding.Lit
	for _, f := range firsts {
		terms = append(terms, qb.and(x(qb, f), qb.or(byFirst[f]...)))
	}
	factored = qb.or(terms...)
	return qa.done(), qb.done(), fa, same, factored, dropped
}

// TestCheckFuncKinds: next functions read one-hot moves, the others read no
// moves at all, and next functions of games with an actionless role are
// vacuously equal.
func TestCheckFuncKinds(t *testing.T) {
	ctx := context.Background()
	qa, qb := std("a"), std("b")
	fa := qa.or(qa.t("p0"), qa.d("r", "a1"))
	fb := qb.t("p0")
	a, b := qa.done(), qb.done()
	im := identity(a).InputMap(a, b)
	for _, tc := range []struct {
		kind  grounding.FuncKind
		equal bool
	}{{grounding.FuncNext, false}, {grounding.FuncLegal, true}, {grounding.FuncGoal, true}, {grounding.FuncTerminal, true}} {
		for _, m := range checkModes {
			c := mustChecker(t, a, b, m.opt)
			eq, err := c.CheckFunc(ctx, tc.kind, fa, fb, im)
			if err != nil || eq != tc.equal {
				t.Errorf("%s: CheckFunc(%s) = %v, %v, want %v", m.name, tc.kind, eq, err, tc.equal)
			}
			var buf bytes.Buffer
			if err := c.WriteDIMACS(&buf, tc.kind, fa, fb, im); err != nil {
				t.Fatal(err)
			}
			pb, err := solver.ParseCNF(&buf)
			if err != nil {
				t.Fatal(err)
			}
			sat := solver.New(pb).Solve() == solver.Sat
			if sat == tc.equal {
				t.Errorf("%s: DIMACS of %s: sat = %v, want %v", m.name, tc.kind, sat, !tc.equal)
			}
		}
	}

	mk := func(name string) *prog {
		return newProg(name, []string{"r", "idle"}, []string{"p0", "p1"}, [][]string{{"a1", "a2"}, {}})
	}
	qa, qb = mk("a"), mk("b")
	fa, fb = qa.d("r", "a1"), qb.t("p1")
	a, b = qa.done(), qb.done()
	c := mustChecker(t, a, b, satcheck.Options{})
	im = identity(a).InputMap(a, b)
	if eq, err := c.CheckFunc(ctx, grounding.FuncNext, fa, fb, im); err != nil || !eq {
		t.Errorf("CheckFunc(next) with an actionless role = %v, %v, want vacuously true", eq, err)
	}
	if eq, err := c.CheckFunc(ctx, grounding.FuncTerminal, fa, fb, im); err != nil || eq {
		t.Errorf("CheckFunc(terminal) with an actionless role = %v, %v, want false", eq, err)
	}
	if st := c.Stats(); st.Vacuous != 1 {
		t.Errorf("stats = %+v, want one vacuous check", st)
	}
}

// FuzzCheckFunc compares CheckFunc with brute force on random circuits drawn
// from the fuzzed seed.
func FuzzCheckFunc(f *testing.F) {
	for i := range 8 {
		f.Add(uint64(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, mode uint8) {
		rng := rand.New(rand.NewPCG(seed, 7))
		shape := [][]int{{2, 3}, {1, 2}, {3}, {7}, {}}[int(mode)%5]
		nActs := 0
		for _, k := range shape {
			nActs += k
		}
		nProps := 2 + rng.IntN(11-nActs)
		qa, pool := randomCircuitProgram(rng, "a", nProps, shape, 20)
		qb, poolB := randomCircuitProgram(rng, "b", nProps, shape, 20)
		fa := pool[rng.IntN(len(pool))] ^ grounding.Lit(rng.IntN(2))
		fb := poolB[rng.IntN(len(poolB))] ^ grounding.Lit(rng.IntN(2))
		if rng.IntN(2) == 0 {
			fb = rebuild(qb, &qa.c, fa, identity(qa.p).InputMap(qa.p, qb.p), map[int]grounding.Lit{})
			fb = qb.or(qb.and(fb, poolB[rng.IntN(len(poolB))]), qb.and(fb, poolB[rng.IntN(len(poolB))].Not()))
		}
		a, b := qa.done(), qb.done()
		im := identity(a).InputMap(a, b)
		kind := []grounding.FuncKind{grounding.FuncNext, grounding.FuncLegal}[int(mode/5)%2]
		want := bruteEqual(a, b, fa, fb, im, kind == grounding.FuncNext)
		opt := checkModes[int(mode)%len(checkModes)].opt
		got, err := mustChecker(t, a, b, opt).CheckFunc(context.Background(), kind, fa, fb, im)
		if err != nil || got != want {
			t.Fatalf("CheckFunc(%s) = %v, %v; brute force %v", kind, got, err, want)
		}
	})
}

// TestCheckFuncSelf checks a game against itself: a function under a mapping
// that fixes every input it reads is equal without any decision procedure,
// while one that moves an input is decided as usual, and found different
// when the function is not symmetric in the moved inputs.
func TestCheckFuncSelf(t *testing.T) {
	q := std("a")
	f := q.and(q.t("p0"), q.t("p1").Not())
	a := q.done()
	ctx := context.Background()
	c := mustChecker(t, a, a, satcheck.Options{Mode: satcheck.NoCache})
	im := identity(a).InputMap(a, a)
	im[4], im[5] = 5, 4 // p4 <-> p5, outside f's support
	if eq, err := c.CheckFunc(ctx, grounding.FuncNext, f, f, im); err != nil || !eq {
		t.Fatalf("CheckFunc(f, f, fixing f's inputs) = %v, %v, want true", eq, err)
	}
	if got := c.Stats(); got.Structural != 1 || got.SATCalls != 0 || got.Exhaustive != 0 || got.Simulations != 0 {
		t.Errorf("stats = %+v, want one structural decision and nothing else", got)
	}
	im[0], im[1] = 1, 0 // p0 <-> p1: p0 ∧ ¬p1 becomes p1 ∧ ¬p0
	if eq, err := c.CheckFunc(ctx, grounding.FuncNext, f, f, im); err != nil || eq {
		t.Fatalf("CheckFunc(f, f, swapping p0 and p1) = %v, %v, want false", eq, err)
	}
}
