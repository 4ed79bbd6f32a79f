package satcheck_test

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// brutePatterns returns T_f(i, j) of literal f by enumeration: every state
// with i, j false (actions false), the pattern of (f(z), f(z^i), f(z^j), f(z^ij)).
func brutePatterns(c *grounding.Circuit, nProps int, f grounding.Lit, i, j int32) uint16 {
	in := make([]bool, c.NumInputs)
	var vals []bool
	val := func() bool {
		vals = c.Eval(in, vals)
		v := vals[f.Node()]
		return v != f.IsNeg()
	}
	var set uint16
	for z := range 1 << nProps {
		if z>>i&1 == 1 || z>>j&1 == 1 {
			continue
		}
		for k := range nProps {
			in[k] = z>>k&1 == 1
		}
		pat := 0
		for combo := range 4 {
			in[i], in[j] = combo&1 == 1, combo>>1 == 1
			if val() {
				pat |= 1 << combo
			}
		}
		in[i], in[j] = false, false
		set |= 1 << pat
	}
	return set
}

// TestPairReplayMatchesBruteForce: every pair-type question
// (realizable: witness replay, then SAT) on random functions answers what
// enumeration says, on a program compared with itself (one shared pair
// cache: questions alternate between the two sides) and on two programs,
// sequentially and from several goroutines at once (run with -race). The
// replay must answer a good share of the satisfiable questions.
func TestPairReplayMatchesBruteForce(t *testing.T) {
	const nProps = 9
	for _, tc := range []struct {
		name       string
		same       bool
		goroutines int
	}{{"SameProgram", true, 1}, {"TwoPrograms", false, 1}, {"SameProgramConcurrent", true, 4}} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(21, 7))
			qa, pool := randomCircuitProgram(rng, "a", nProps, []int{2}, 80)
			a := qa.done()
			b := a
			if !tc.same {
				qb, _ := randomCircuitProgram(rand.New(rand.NewPCG(21, 7)), "b", nProps, []int{2}, 80)
				b = qb.done()
			}
			c := mustChecker(t, a, b, satcheck.Options{})
			fs := pool[len(pool)-12:]
			var wg sync.WaitGroup
			var mu sync.Mutex
			var bad []string
			for g := range tc.goroutines {
				wg.Go(func() {
					r := rand.New(rand.NewPCG(uint64(g), 99))
					for n := range 400 {
						f := fs[r.IntN(len(fs))]
						if r.IntN(2) == 1 {
							f = f.Not()
						}
						i, j := int32(r.IntN(nProps)), int32(r.IntN(nProps))
						if i == j {
							continue
						}
						pat := r.IntN(16)
						onB := n%2 == 1
						got, err := satcheck.RealizableForTest(context.Background(), c, onB, f, i, j, pat)
						if err != nil {
							t.Errorf("realizable: %v", err)
							return
						}
						want := brutePatterns(&a.Circuit, nProps, f, i, j)>>pat&1 == 1
						if got != want {
							mu.Lock()
							bad = append(bad, "mismatch")
							mu.Unlock()
							t.Errorf("realizable(f=%d, i=%d, j=%d, pat=%04b, side B %v) = %v, want %v", f, i, j, pat, onB, got, want)
						}
					}
				})
			}
			wg.Wait()
			st := c.Stats()
			t.Logf("pair SAT %d, replayed %d", st.PairSAT, st.PairReplayed)
			if st.PairReplayed == 0 {
				t.Errorf("no question was answered by replay")
			}
		})
	}
}

// TestPairReplayDoesNotHideDifference: A's goal ¬y ∧ ¬w ∧ ¬v ∧ x0
// shows (1,0,0,0) on (y, w) and on (y, v) often; B's goal ¬y ∧ ¬w ∧ x0 ∧ …
// ∧ x199 shows it on (y, w) rarely (SAT finds it; its state is kept) and
// never on (y, v) (B ignores v: (1,0,1,0) instead). The kept state must not
// answer the second question: the second pair differs.
func TestPairReplayDoesNotHideDifference(t *testing.T) {
	const nx = 200
	props := []string{"y", "w", "v"}
	for k := range nx {
		props = append(props, "x"+string(rune('a'+k/26))+string(rune('a'+k%26)))
	}
	a, b, qa := goalPair(props, func(q *prog) grounding.Lit {
		return q.and(q.t("y").Not(), q.t("w").Not(), q.t("v").Not(), q.t(props[3]))
	}, func(q *prog) grounding.Lit {
		all := []grounding.Lit{q.t("y").Not(), q.t("w").Not()}
		for _, p := range props[3:] {
			all = append(all, q.t(p))
		}
		return q.and(all...)
	})

	c := mustChecker(t, a, b, satcheck.Options{})
	y, w, v := int32(qa.propID("y")), int32(qa.propID("w")), int32(qa.propID("v"))
	at, err := c.PairsDiffer(context.Background(), grounding.FuncGoal, a.Goals[0][0].Lit, b.Goals[0][0].Lit, y, []int32{w, v}, y, []int32{w, v}, math.MaxInt64)
	if err != nil || at != 1 {
		t.Fatalf("PairsDiffer = %d, %v; want 1 (B never shows (1,0,0,0) on (y, v))", at, err)
	}
}
