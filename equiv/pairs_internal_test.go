package equiv

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/mutate"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestPairTypesUnderTrueMapping: a mutant of a game comes with the mapping
// that makes it equivalent (mutate.Variant.TranslateTerm); under it, no
// pair of propositions of any goal or terminal function may have a pair
// type different from its image's (soundness: the search would prune the
// true mapping), while pairs sent to pairs of another kind must be told
// apart where the games have such pairs. In factoringDelusionsOfAdequacy
// the goals ask for one of sixteen groups of four cells all on: two cells
// of one group and two of different groups act differently together, so
// swapping the partner of a pair for one in another group is refuted.
func TestPairTypesUnderTrueMapping(t *testing.T) {
	for _, tc := range []struct {
		path      string
		wantSplit bool // some pair mapped onto a pair of another kind is refuted
	}{
		{"ggp-base/factoringDelusionsOfAdequacy.kif", true},
		{"ggp-base-repo/ticTacToe.kif", true},
		{"ggp-base/coins.kif", true},
	} {
		t.Run(tc.path, func(t *testing.T) {
			pa, pb, sigma, funcs := gameMutantAndMapping(t, tc.path)
			c, err := satcheck.NewChecker(pa, pb, satcheck.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			split := 0
			for _, pf := range funcs {
				fn, fb, props := pf.fn, pf.fb, pf.props
				img := make([]int32, len(props))
				for x, p := range props {
					img[x] = sigma[p]
				}
				for x, i := range props {
					if at, err := c.PairsDiffer(ctx, fn.Kind, fn.Lit, fb, i, props, sigma[i], img, math.MaxInt64); err != nil || at >= 0 {
						t.Fatalf("%s: pair %s, %s refuted under the true mapping (err %v)", pa.FunctionName(fn), pa.Props[i], pa.Props[props[max(at, 0)]], err)
					}
					// The same pairs with the partners' images rotated: some
					// may be of another kind.
					if x == 0 {
						rot := append(append([]int32{}, img[1:]...), img[0])
						if at, err := c.PairsDiffer(ctx, fn.Kind, fn.Lit, fb, i, props, sigma[i], rot, math.MaxInt64); err != nil {
							t.Fatal(err)
						} else if at >= 0 {
							split++
						}
					}
				}
			}
			st := c.Stats()
			t.Logf("%d pair checks, %d SAT questions, %d refuted; rotated partners refuted in %d functions", st.PairChecks, st.PairSAT, st.PairRefuted, split)
			if tc.wantSplit && split == 0 {
				t.Errorf("no pair sent to a pair of another kind was refuted")
			}
		})
	}
}

// goalLit returns goal(r, v) of p, or False.
func goalLit(p *grounding.Program, r, v int) grounding.Lit {
	for _, g := range p.Goals[r] {
		if g.Value == v {
			return g.Lit
		}
	}
	return grounding.False
}

// gameMutantAndMapping grounds a corpus game and a mutant (gameAndMutant)
// and returns the mutant's proposition for each of the game's (the
// mutation's own translation).
func gameMutantAndMapping(t *testing.T, path string) (pa, pb *grounding.Program, sigma []int32, funcs []propFunction) {
	t.Helper()
	pa, pb, v := gameAndMutant(t, path)
	sigma = make([]int32, len(pa.Props))
	for i, name := range pa.Props {
		tn := translate(t, v, name)
		j, ok := pb.PropID(tn)
		if !ok {
			t.Fatalf("%s translates to %s, which the mutant does not have", name, tn)
		}
		sigma[i] = int32(j)
	}
	roleOf := make([]int, len(pa.Roles))
	for r, name := range pa.Roles {
		tn := translate(t, v, name)
		roleOf[r] = slices.Index(pb.Roles, tn)
		if roleOf[r] < 0 {
			t.Fatalf("role %s translates to %s, which the mutant does not have", name, tn)
		}
	}
	for _, fn := range pa.Functions() {
		if fn.Kind != grounding.FuncGoal && fn.Kind != grounding.FuncTerminal {
			continue
		}
		pf := propFunction{fn: fn, fb: pb.Terminal}
		if fn.Kind == grounding.FuncGoal {
			// The mutant may reorder the roles: the image is the goal of
			// the translated role.
			pf.fb = goalLit(pb, roleOf[fn.Role], fn.Index)
		}
		for _, in := range pa.Circuit.Support(fn.Lit) {
			if in < len(pa.Props) {
				pf.props = append(pf.props, int32(in))
			}
		}
		funcs = append(funcs, pf)
	}
	return pa, pb, sigma, funcs
}

// propFunction is a goal or terminal function of a game (read with no
// moves), its image in the mutant under the true mapping, and the
// propositions of its support.
type propFunction struct {
	fn    grounding.Function
	fb    grounding.Lit
	props []int32
}

// gameAndMutant grounds a corpus game and a mutant (seed 1, every
// transformation but pair-args).
func gameAndMutant(t *testing.T, path string) (pa, pb *grounding.Program, v *mutate.Variant) {
	t.Helper()
	ctx := context.Background()
	src, err := os.ReadFile(filepath.Join(testgames.Root(), path))
	if err != nil {
		t.Skipf("game corpus not available: %v", err)
	}
	f, err := grounding.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	if pa, err = grounding.Ground(ctx, f, grounding.Limits{}); err != nil {
		t.Fatal(err)
	}
	if v, err = mutate.Equivalent(f, 1, mutate.Options{Ops: mutate.AllOps &^ mutate.PairArgs}); err != nil {
		t.Fatal(err)
	}
	if pb, err = grounding.Ground(ctx, v.File, grounding.Limits{}); err != nil {
		t.Fatal(err)
	}
	return pa, pb, v
}

// translate is the mutant's name of a term of the game.
func translate(t *testing.T, v *mutate.Variant, term string) string {
	t.Helper()
	tn, err := v.TranslateTerm(term)
	if err != nil {
		t.Fatal(err)
	}
	return tn
}
