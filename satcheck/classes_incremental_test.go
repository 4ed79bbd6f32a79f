package satcheck_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestActionClassesIncrementalBrute checks ActionClassesIncremental against
// brute force on random circuits, through each of its paths: a truth
// table, simulation then SAT, and SAT alone.
func TestActionClassesIncrementalBrute(t *testing.T) {
	for _, st := range []struct {
		bits int
		sim  bool
	}{{16, true}, {0, true}, {0, false}} {
		t.Run(fmt.Sprintf("bits=%d,sim=%v", st.bits, st.sim), func(t *testing.T) {
			defer satcheck.SetSupportStages(st.bits, st.sim)()
			rng := rand.New(rand.NewPCG(7, 9))
			nontrivial := 0
			for i := range 150 {
				q, pool := randomCircuitProgram(rng, "rand", 1+rng.IntN(4), []int{2 + rng.IntN(4), 1 + rng.IntN(3)}, 12)
				p := q.done()
				f := pool[rng.IntN(len(pool))] ^ grounding.Lit(rng.IntN(2))
				roles := []int{1, 0}
				got, err := satcheck.ActionClassesIncremental(context.Background(), p, f, roles)
				if err != nil {
					t.Fatal(err)
				}
				for ri, r := range roles {
					want := bruteActionClasses(p, f, r)
					if fmt.Sprint(got[ri]) != fmt.Sprint(want) {
						t.Fatalf("case %d role %d: ActionClassesIncremental = %v, brute force %v", i, r, got[ri], want)
					}
					if len(want) > 1 && len(want) < len(p.Actions[r]) {
						nontrivial++
					}
				}
			}
			if nontrivial < 20 {
				t.Errorf("only %d cases with classes of several actions", nontrivial)
			}
		})
	}
}

// TestActionClassesHintedBrute checks ActionClassesHinted against brute
// force with random hints, most of them outside the input space (several
// actions of one role): those must be ignored, or a hint could separate
// two actions whose cofactors are equal on the space.
func TestActionClassesHintedBrute(t *testing.T) {
	defer satcheck.SetSupportStages(0, true)()
	rng := rand.New(rand.NewPCG(11, 13))
	for i := range 150 {
		q, pool := randomCircuitProgram(rng, "rand", 1+rng.IntN(4), []int{2 + rng.IntN(4), 1 + rng.IntN(3)}, 12)
		p := q.done()
		f := pool[rng.IntN(len(pool))] ^ grounding.Lit(rng.IntN(2))
		nIn := len(p.Props)
		for _, as := range p.Actions {
			nIn += len(as)
		}
		var hints [][]int
		for range 64 {
			var h []int
			for in := range nIn {
				if rng.IntN(2) == 1 {
					h = append(h, in)
				}
			}
			hints = append(hints, h)
		}
		roles := []int{1, 0}
		got, err := satcheck.ActionClassesHinted(context.Background(), p, f, roles, func(int) [][]int { return hints })
		if err != nil {
			t.Fatal(err)
		}
		for ri, r := range roles {
			if want := bruteActionClasses(p, f, r); fmt.Sprint(got[ri]) != fmt.Sprint(want) {
				t.Fatalf("case %d role %d: ActionClassesHinted = %v, brute force %v", i, r, got[ri], want)
			}
		}
	}
}

// TestActionClassesIncrementalCorpus checks that ActionClassesIncremental
// gives ActionClasses's classes on every next function of a corpus game
// whose moves matter, from truth tables and, with tables off, from
// simulation and SAT.
func TestActionClassesIncrementalCorpus(t *testing.T) {
	for _, bits := range []int{16, 0} {
		t.Run(fmt.Sprintf("bits=%d", bits), func(t *testing.T) {
			defer satcheck.SetSupportStages(bits, true)()
			testActionClassesIncrementalCorpus(t)
		})
	}
}

func testActionClassesIncrementalCorpus(t *testing.T) {
	p := groundGame(t, "breakthroughSmall", readGame(t, "ggp-base/breakthroughSmall.kif"))
	ctx := context.Background()
	roles := make([]int, len(p.Roles))
	for r := range roles {
		roles[r] = r
	}
	split := 0
	for i, f := range p.Next {
		if i%3 != 0 && testing.Short() {
			continue
		}
		got, err := satcheck.ActionClassesIncremental(ctx, p, f, roles)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range roles {
			want, err := satcheck.ReferenceActionClasses(ctx, p, f, r)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got[r]) != fmt.Sprint(want) {
				t.Fatalf("next %d role %d: ActionClassesIncremental = %v, ActionClasses %v", i, r, got[r], want)
			}
			if len(want) > 1 {
				split++
			}
		}
	}
	if split < 10 {
		t.Errorf("only %d (function, role) pairs with several classes: the test compares little", split)
	}
}
