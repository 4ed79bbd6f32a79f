package satcheck_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// refuteTests map some inputs of std's programs to themselves and leave the
// others unmapped (and outside the image).
var refuteTests = []struct {
	name    string
	kind    grounding.FuncKind
	fa, fb  func(q *prog) grounding.Lit
	mapped  []string // "p0", or "r a1" for an action
	refuted bool
}{
	{"UnmappedPropIsFalse", grounding.FuncNext,
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p1")) },
		func(q *prog) grounding.Lit { return q.t("p0") },
		[]string{"p0", "r a1", "r a2", "r a3", "s b1", "s b2"}, true},
	{"ExtensionExists", grounding.FuncNext, // p1 -> p5 extends the mapping
		func(q *prog) grounding.Lit { return q.or(q.t("p0"), q.t("p1")) },
		func(q *prog) grounding.Lit { return q.or(q.t("p0"), q.t("p5")) },
		[]string{"p0", "r a1", "s b1", "s b2"}, false},
	{"NoOtherChoiceBeyondMappedActions", grounding.FuncNext, // r does a1 or a2: both true
		func(q *prog) grounding.Lit { return q.or(q.d("r", "a1"), q.d("r", "a2")) },
		func(q *prog) grounding.Lit { return q.d("r", "a3").Not() },
		[]string{"r a1", "r a2", "s b1", "s b2"}, false},
	{"MappedActionsDiffer", grounding.FuncNext,
		func(q *prog) grounding.Lit { return q.d("r", "a1") },
		func(q *prog) grounding.Lit { return q.d("r", "a2") },
		[]string{"r a1", "r a2", "s b1"}, true},
	{"RoleWithoutMappedAction", grounding.FuncNext, // no joint move of mapped actions
		func(q *prog) grounding.Lit { return q.d("r", "a1") },
		func(q *prog) grounding.Lit { return q.d("r", "a2") },
		[]string{"r a1", "r a2"}, false},
	{"OtherMappedActionOfTheRole", grounding.FuncNext, // r may do a3, read by neither
		func(q *prog) grounding.Lit { return q.or(q.d("r", "a1"), q.d("r", "a2")) },
		func(q *prog) grounding.Lit { return grounding.True },
		[]string{"r a1", "r a2", "r a3", "s b1"}, true},
	{"GoalReadsNoMoves", grounding.FuncGoal,
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p1").Not()) },
		func(q *prog) grounding.Lit { return q.t("p0") },
		[]string{"p0"}, false},
	{"GoalDiffers", grounding.FuncGoal,
		func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p2")) },
		func(q *prog) grounding.Lit { return q.or(q.t("p0"), q.t("p2")) },
		[]string{"p0", "p2"}, true},
}

func TestRefutes(t *testing.T) {
	for _, tc := range refuteTests {
		qa, qb := std("a"), std("b")
		fa, fb := tc.fa(qa), tc.fb(qb)
		a, b := qa.done(), qb.done()
		im := make([]int32, a.Circuit.NumInputs)
		for i := range im {
			im[i] = -1
		}
		bMapped := make([]bool, b.Circuit.NumInputs)
		for _, x := range tc.mapped {
			var i int
			if x[0] == 'p' {
				i = qa.propID(x)
			} else {
				i = qa.actionInput(x[:1], x[2:])
			}
			im[i] = int32(i)
			bMapped[i] = true
		}
		for _, m := range checkModes {
			c := mustChecker(t, a, b, m.opt)
			got, err := c.Refutes(context.Background(), tc.kind, fa, fb, im, bMapped)
			if err != nil || got != tc.refuted {
				t.Errorf("%s/%s: Refutes = %v, %v, want %v", tc.name, m.name, got, err, tc.refuted)
			}
		}
	}
}

// TestRefutesNeverOnAnExtension: a function and its copy through a random
// bijection of inputs are never refuted under any partial mapping that the
// bijection extends, on random circuits with two roles.
func TestRefutesNeverOnAnExtension(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 60 {
		qa, pool := randomCircuitProgram(rng, "a", 6, []int{3, 2}, 30)
		a := qa.done()
		// σ permutes the propositions and the actions within each role.
		sigma := make([]int32, a.Circuit.NumInputs)
		perm := rng.Perm(6)
		for i, j := range perm {
			sigma[i] = int32(j)
		}
		for r, k := range []int{3, 2} {
			base := 6 + 3*r
			for i, j := range rng.Perm(k) {
				sigma[base+i] = int32(base + j)
			}
		}
		qb, _ := randomCircuitProgram(rand.New(rand.NewPCG(1, 1)), "b", 6, []int{3, 2}, 0)
		memo := map[int]grounding.Lit{}
		fa := pool[len(pool)-1-rng.IntN(10)]
		fb := rebuild(qb, &a.Circuit, fa, sigma, memo)
		b := qb.done()
		im := make([]int32, len(sigma))
		bMapped := make([]bool, len(sigma))
		for i := range im {
			im[i] = -1
			if rng.IntN(2) == 0 {
				im[i] = sigma[i]
				bMapped[sigma[i]] = true
			}
		}
		for _, kind := range []grounding.FuncKind{grounding.FuncNext, grounding.FuncGoal} {
			for _, m := range checkModes {
				c := mustChecker(t, a, b, m.opt)
				got, err := c.Refutes(context.Background(), kind, fa, fb, im, bMapped)
				if err != nil || got {
					t.Fatalf("trial %d %v %s: Refutes = %v, %v on a partial mapping that σ extends", trial, kind, m.name, got, err)
				}
			}
		}
	}
}

// TestRefutesMovedAction: next(p) is "r does a0, or q holds and r does
// none of a1..a(n-1)", read by all of r's 8,192 actions (a frame
// condition, as amazons' cell functions read every move). Under the
// self-mapping that swaps a0 and a1 and fixes the rest, next(p) differs
// from itself exactly when r does a0 or a1: 2 of 8,192 choices, which
// random simulation almost never makes; Refutes must still find it.
func TestRefutesMovedAction(t *testing.T) {
	const n = 8192
	acts := make([]string, n)
	for i := range acts {
		acts[i] = fmt.Sprintf("a%d", i)
	}
	q := newProg("frame", []string{"r"}, []string{"p", "q"}, [][]string{acts})
	others := make([]grounding.Lit, 0, n-1)
	for _, a := range acts[1:] {
		others = append(others, q.d("r", a))
	}
	f := q.or(q.d("r", "a0"), q.and(q.t("q"), q.or(others...).Not()))
	q.p.Next[q.propID("p")] = f
	p := q.done()
	im := make([]int32, p.Circuit.NumInputs)
	bMapped := make([]bool, len(im))
	for i := range im {
		im[i] = int32(i)
		bMapped[i] = true
	}
	a0, a1 := q.actionInput("r", "a0"), q.actionInput("r", "a1")
	im[a0], im[a1] = int32(a1), int32(a0)
	c := mustChecker(t, p, p, satcheck.Options{})
	got, err := c.Refutes(context.Background(), grounding.FuncNext, f, f, im, bMapped)
	if err != nil || !got {
		t.Fatalf("Refutes(next p, swap a0 a1) = %v, %v, want true", got, err)
	}
	// The identity is never refuted.
	im[a0], im[a1] = int32(a0), int32(a1)
	got, err = c.Refutes(context.Background(), grounding.FuncNext, f, f, im, bMapped)
	if err != nil || got {
		t.Fatalf("Refutes(next p, identity) = %v, %v, want false", got, err)
	}
}
