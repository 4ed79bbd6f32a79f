package groundgraph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// TestPlaysAgainstSim: every play's outcome, computed 256 plays at a time
// on words, is the one grounding.Sim reaches playing the two joint moves
// one state at a time: plays with equal outcomes (terminal, each role's
// goals and legal actions, propositions true) have equal views and plays
// with different ones different views; and the plays are exactly the
// two-move plays whose moves are legal where they are made, with every
// other role's only legal action.
func TestPlaysAgainstSim(t *testing.T) {
	for _, name := range []string{"../equiv/testdata/queens6.kif", filepath.Join(testgames.Root(), "ggp-base/nim1.kif")} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Skipf("game not available: %v", err)
			}
			p, err := grounding.Load(context.Background(), filepath.Base(name), src, grounding.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			b := &builder{p: p, opt: Options{}.withDefaults()}
			plays, err := b.plays(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			want := simPlays(p)
			if len(plays) != len(want) {
				t.Fatalf("%d plays, Sim finds %d", len(plays), len(want))
			}
			viewOf := map[string]uint64{}
			outcomeOf := map[uint64]string{}
			for _, pl := range plays {
				key := fmt.Sprint(pl.rx, pl.x, pl.ry, pl.y)
				out, ok := want[key]
				if !ok {
					t.Fatalf("play %s is not a two-move play", key)
				}
				if v, ok := viewOf[out]; ok && v != pl.view {
					t.Fatalf("play %s: outcome %s has two views", key, out)
				}
				if o, ok := outcomeOf[pl.view]; ok && o != out {
					t.Fatalf("play %s: view shared by outcomes %s and %s", key, o, out)
				}
				viewOf[out], outcomeOf[pl.view] = pl.view, out
			}
			if len(viewOf) < 2 {
				t.Errorf("%d distinct outcomes: the test shows nothing", len(viewOf))
			}
			t.Logf("%d plays, %d outcomes", len(plays), len(viewOf))
		})
	}
}

// simPlays plays every two-move play of p with grounding.Sim, by
// "rx x ry y", with its outcome written out.
func simPlays(p *grounding.Program) map[string]string {
	s := grounding.NewSim(p)
	// chooser: the role with a choice and the joint move of the others.
	chooser := func() (int, []int) {
		if s.Terminal() {
			return -1, nil
		}
		role, moves := -1, make([]int, len(p.Roles))
		for r := range p.Roles {
			legal := s.Legal(r)
			switch {
			case len(legal) == 0:
				return -1, nil
			case len(legal) == 1:
				moves[r] = legal[0]
			case role >= 0:
				return -1, nil
			default:
				role = r
			}
		}
		return role, moves
	}
	out := map[string]string{}
	init := p.InitialState()
	r0, m0 := chooser()
	if r0 < 0 {
		return out
	}
	for _, x := range s.Legal(r0) {
		s.SetState(init)
		m0[r0] = x
		s.Step(m0)
		s1 := slices.Clone(s.State())
		r1, m1 := chooser()
		if r1 < 0 {
			continue
		}
		for _, y := range s.Legal(r1) {
			s.SetState(s1)
			m1[r1] = y
			s.Step(m1)
			o := fmt.Sprint(r0, r1, s.Terminal())
			for r := range p.Roles {
				o += fmt.Sprint(" ", r, s.Goals(r), len(s.Legal(r)))
			}
			o += fmt.Sprint(" ", len(s.StateProps()))
			out[fmt.Sprint(r0, x, r1, y)] = o
		}
	}
	return out
}
