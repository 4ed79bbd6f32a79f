package satcheck

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// TestCofactorGroupsOnOneBase checks that grouping many candidate sets of
// one role on a base set once (settleClasses: setChoiceBase, then
// cofactorGroupsOn per class) gives the groups of rebuilding every
// choice's cofactor from scratch (cofactorGroups), whatever LiteralWith
// did in between: it must leave the base as it found it.
func TestCofactorGroupsOnOneBase(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testgames.Root(), "ggp-base/breakthroughSmall.kif"))
	if err != nil {
		t.Skipf("game not available: %v", err)
	}
	p, err := grounding.Load(context.Background(), "breakthroughSmall.kif", src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for i, f := range p.Next {
		if testing.Short() && i%4 != 0 {
			continue
		}
		an, err := analyze(p, f)
		if err != nil {
			t.Fatal(err)
		}
		for gi := range an.j.groups {
			h := grounding.NewCofactorHasher(an.cn)
			none := an.setChoiceBase(h, gi)
			ref := grounding.NewCofactorHasher(an.cn)
			radix := an.j.groups[gi].radix()
			for range 8 {
				var set []int
				for c := range radix {
					if rng.IntN(2) == 0 {
						set = append(set, c)
					}
				}
				got := an.cofactorGroupsOn(h, gi, none, set)
				if want := an.cofactorGroups(ref, gi, set); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("next %d group %d: groups on one base %v, from scratch %v", i, gi, got, want)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Fatalf("%d sets checked, want at least 100", checked)
	}
}
