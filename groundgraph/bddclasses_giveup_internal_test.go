package groundgraph

import (
	"context"
	"errors"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestClassesByBDDGiveUpCost checks that a function whose class BDD
// blows up costs classesByBDD a bounded number of nodes before it goes to
// satcheck: attritionWar's score functions (cones of 2,800 to 10,700
// gates) all blow up, and at 64 nodes a gate each made up to 524 k nodes
// first (action classes 26 -> 51 CPU s, review of session 20).
func TestClassesByBDDGiveUpCost(t *testing.T) {
	if testing.Short() {
		t.Skip("grounds attritionWar")
	}
	ctx := context.Background()
	p := loadGame(t, "ggp-base/attritionWar.kif")
	level, prop := grounding.PropOrder(p.Props, nil)
	d := newSupportBDD(grounding.DefaultBDDNodes, level, prop)
	tried := 0
	for _, f := range p.Functions() {
		if f.Kind != grounding.FuncNext || p.FunctionName(f) != "(next (whitescore 50))" {
			continue
		}
		cn, err := newCone(&p.Circuit, f.Lit)
		if err != nil {
			t.Fatal(err)
		}
		var roles []int
		for r := range p.Roles {
			if lo, hi := roleSpan(p, cn, r); hi > lo {
				roles = append(roles, r)
			}
		}
		d.clear()
		_, err = d.classesByBDD(ctx, p, cn, roles)
		if !errors.Is(err, errBDDLimit) {
			t.Fatalf("%s: classesByBDD = %v, want errBDDLimit", p.FunctionName(f), err)
		}
		if got, want := d.d.Len(), bddClassMinNodes+1<<15; got > want {
			t.Errorf("%s (%d gates): %d nodes made before giving up, want at most %d", p.FunctionName(f), len(cn.Gates), got, want)
		}
		tried++
	}
	if tried == 0 {
		t.Fatal("no function tried")
	}
}
