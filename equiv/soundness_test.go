package equiv_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// verifiedMapping compares two games and returns their programs and the
// verified mapping of an Equivalent report.
func verifiedMapping(t *testing.T, a, b equiv.Source) (pa, pb *grounding.Program, m satcheck.Mapping) {
	t.Helper()
	ctx := context.Background()
	var err error
	if pa, err = grounding.Load(ctx, a.Name, a.GDL, grounding.Limits{}); err != nil {
		t.Fatal(err)
	}
	if pb, err = grounding.Load(ctx, b.Name, b.GDL, grounding.Limits{}); err != nil {
		t.Fatal(err)
	}
	rep, err := equiv.ComparePrograms(ctx, pa, pb, equiv.Limits{})
	if err != nil || rep.Verdict != equiv.Equivalent {
		t.Fatalf("Compare = %+v, %v", rep, err)
	}
	if m, err = rep.Mapping.Indexes(pa, pb); err != nil {
		t.Fatal(err)
	}
	return pa, pb, m
}

// identityMapping grounds a game twice and returns the identity mapping.
func identityMapping(t *testing.T, a equiv.Source) (pa, pb *grounding.Program, m satcheck.Mapping) {
	t.Helper()
	p, err := grounding.Load(context.Background(), a.Name, a.GDL, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	m = satcheck.Mapping{Roles: make([]int, len(p.Roles)), Props: make([]int, len(p.Props)), Actions: make([][]int, len(p.Roles))}
	for r := range m.Roles {
		m.Roles[r] = r
		m.Actions[r] = make([]int, len(p.Actions[r]))
		for x := range m.Actions[r] {
			m.Actions[r][x] = x
		}
	}
	for q := range m.Props {
		m.Props[q] = q
	}
	return p, p, m
}

// soundnessModes are the verifier configurations a wrong mapping must fail:
// the default pipeline and SAT alone (no cache, structure, tables or simulation).
var soundnessModes = []struct {
	name string
	opt  satcheck.Options
}{
	{"default", satcheck.Options{}},
	{"SATOnly", satcheck.Options{Mode: satcheck.SATOnly}},
}

// TestWrongMappingRejected is the soundness test of the verifier: a verified
// mapping with one pair of propositions swapped must be rejected, in every
// mode, with the failing function named, and that function must be one the
// swap can affect (the next function of a swapped proposition, or a function
// that reads one).
func TestWrongMappingRejected(t *testing.T) {
	c4 := source(t, "ggp-base-repo/connectFour.kif")
	cases := []struct {
		name     string
		a, b     equiv.Source
		identity bool // use the identity mapping (a game with itself) instead of Compare's
	}{
		{"ticTacToe-sum15", source(t, "ggp-base-repo/ticTacToe.kif"), source(t, "ggp-base/sum15.kif"), false},
		{"connectFour-itself", c4, c4, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var a, b *grounding.Program
			var good satcheck.Mapping
			if tc.identity {
				a, b, good = identityMapping(t, tc.a)
			} else {
				a, b, good = verifiedMapping(t, tc.a, tc.b)
			}
			fns := map[string]grounding.Function{}
			for _, f := range a.Functions() {
				fns[a.FunctionName(f)] = f
			}
			rng := rand.New(rand.NewPCG(7, 7))
			swaps := [][2]int{{0, 1}, {0, len(a.Props) - 1}}
			for range 10 {
				i, j := rng.IntN(len(a.Props)), rng.IntN(len(a.Props))
				if i != j {
					swaps = append(swaps, [2]int{i, j})
				}
			}
			for _, sw := range swaps {
				p, q := sw[0], sw[1]
				m := good
				m.Props = slices.Clone(good.Props)
				m.Props[p], m.Props[q] = m.Props[q], m.Props[p]
				for _, mode := range soundnessModes {
					res, err := satcheck.Verify(context.Background(), a, b, m, mode.opt)
					if err != nil {
						t.Fatalf("Verify(swap %s, %s; %s) = %v", a.Props[p], a.Props[q], mode.name, err)
					}
					if res.Verdict != satcheck.Different || res.Function == "" {
						t.Fatalf("Verify(swap %s, %s; %s) = %v, want different with the function named", a.Props[p], a.Props[q], mode.name, res)
					}
					if res.Function == "init" {
						continue // the swap broke init: named, and nothing else to check
					}
					nameA, _, ok := strings.Cut(res.Function, " vs ")
					f, known := fns[nameA]
					if !ok || !known {
						t.Fatalf("Verify(swap %s, %s) names %q, not a function of %s", a.Props[p], a.Props[q], res.Function, a.Name)
					}
					touches := f.Kind == grounding.FuncNext && (f.Index == p || f.Index == q)
					for _, in := range a.Circuit.Support(f.Lit) {
						if role, idx := a.InputOf(in); role < 0 && (idx == p || idx == q) {
							touches = true
						}
					}
					if !touches {
						t.Errorf("Verify(swap %s, %s) blames %s, which neither reads them nor is their next", a.Props[p], a.Props[q], res.Function)
					}
					if ce := res.Counterexample; ce == nil || ce.A == ce.B {
						t.Errorf("Verify(swap %s, %s): counterexample %+v does not separate", a.Props[p], a.Props[q], ce)
					}
				}
			}
			// The unswapped mapping still verifies in every mode.
			for _, mode := range soundnessModes {
				res, err := satcheck.Verify(context.Background(), a, b, good, mode.opt)
				if err != nil || res.Verdict != satcheck.Equivalent {
					t.Fatalf("Verify(good; %s) = %v, %v", mode.name, res, err)
				}
			}
		})
	}
}

// TestIndexesRoundTrip checks Mapping.Indexes against the names of a report.
func TestIndexesRoundTrip(t *testing.T) {
	a, b, m := verifiedMapping(t, source(t, "ggp-base-repo/ticTacToe.kif"), source(t, "ggp-base/sum15.kif"))
	for p, q := range m.Props {
		if a.Props[p] == "(cell 2 2 x)" && b.Props[q] != "(num 5 white)" {
			t.Errorf("Indexes: centre maps to %s, want (num 5 white)", b.Props[q])
		}
	}
	var nilMap *equiv.Mapping
	if _, err := nilMap.Indexes(a, b); err == nil {
		t.Errorf("Indexes(nil) = nil error")
	}
	bad := &equiv.Mapping{Roles: map[string]string{}, Propositions: map[string]string{}}
	if _, err := bad.Indexes(a, b); err == nil {
		t.Errorf("Indexes(empty) = nil error")
	}
}
