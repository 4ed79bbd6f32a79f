package groundgraph

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// TestClassHintsInProportionToOpen checks that the action-class hints of a
// function are built in proportion to the choices still open, not one per
// action read: brawl's cell functions read ~5,400 actions through one
// wide OR, every sample costs the cone, and with 2 choices open the old
// hints sampled every action (1,024 hints kept of ~5,400 built) in each of
// 448 functions, so that the graph phase never finished.
func TestClassHintsInProportionToOpen(t *testing.T) {
	path := filepath.Join(testgames.Root(), "ggp-base/brawl.kif")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("game not available: %v", err)
	}
	p, err := grounding.Load(context.Background(), "brawl.kif", src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{p: p}
	checked := 0
	for _, f := range p.Functions() {
		if f.Kind != grounding.FuncNext {
			continue
		}
		cn, err := newCone(&p.Circuit, f.Lit)
		if err != nil {
			t.Fatal(err)
		}
		ff := &FuncFeatures{Function: f, roles: []int{0, 1}}
		nks := 0
		for _, sr := range b.simRoles(cn, ff.roles) {
			nks += len(sr.ks)
		}
		if nks < 1000 {
			continue // a function of few actions: every one is tried anyway
		}
		few := b.classHints(context.Background(), ff, cn, 2)
		if want := max(minClassHintActions, 2*classHintsPerOpen); len(few) == 0 || len(few) > want {
			t.Errorf("%s: %d hints with 2 choices open, want 1 to %d", p.FunctionName(f), len(few), want)
		}
		many := b.classHints(context.Background(), ff, cn, nks)
		if len(many) <= 4*len(few) {
			t.Errorf("%s: %d hints with every choice open, want more than 4 times the %d with 2", p.FunctionName(f), len(many), len(few))
		}
		if checked++; checked == 3 {
			return
		}
	}
	t.Fatalf("%d functions of 1,000 or more action inputs, want 3", checked)
}
