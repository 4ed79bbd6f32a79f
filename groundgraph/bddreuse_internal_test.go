package groundgraph

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestSupportBDDReuse checks that a manager taken from the free list is
// empty and gives each function the support a fresh manager gives, in
// another variable order than the one it was last used with (a kept gate
// BDD or node of the earlier use would show as a wrong support).
func TestSupportBDDReuse(t *testing.T) {
	ctx := context.Background()
	src, err := os.ReadFile("testdata/ticTacToeRedundant.kif")
	if err != nil {
		t.Fatal(err)
	}
	p, err := grounding.Load(ctx, "ticTacToeRedundant.kif", src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{p: p, opt: Options{}.withDefaults()}
	var cones []*cone
	for _, f := range p.Functions() {
		cn, err := b.cone(f.Lit)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(cn.Inputs); n > 1 && int(cn.Inputs[n-1]) < len(p.Props) {
			cones = append(cones, cn) // free propositions only
		}
	}
	if len(cones) < 4 {
		t.Fatalf("%d functions of free propositions, want at least 4", len(cones))
	}
	n := int32(len(p.Props))
	fwd, rev := make([]int32, n), make([]int32, n)
	for in := range n {
		fwd[in], rev[in] = in, n-1-in // rev is its own inverse
	}
	for len(freeSupportBDDs) > 0 {
		<-freeSupportBDDs
	}
	used := newSupportBDD(DefaultMaxBDDNodes, fwd, fwd)
	for _, cn := range cones {
		if _, err := used.support(ctx, cn); err != nil {
			t.Fatal(err)
		}
	}
	putSupportBDD(used)
	d := getSupportBDD(DefaultMaxBDDNodes, rev, rev)
	if d != used {
		t.Fatalf("getSupportBDD made a new manager, want the one put back")
	}
	if d.d.Len() != 1 || len(d.gate) != 0 {
		t.Fatalf("reused manager holds %d nodes and %d gate BDDs, want none", d.d.Len()-1, len(d.gate))
	}
	fresh := newSupportBDD(DefaultMaxBDDNodes, rev, rev)
	for i, cn := range cones {
		got, err := d.support(ctx, cn)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.support(ctx, cn)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("cone %d: support on the reused manager %v, on a fresh one %v", i, got, want)
		}
	}
	// A manager past maxFreeSupportBDDBytes is not kept.
	big := newSupportBDDLimits(grounding.BDDLimits{MaxNodes: DefaultMaxBDDNodes, InitialCacheEntries: maxFreeSupportBDDBytes / 4}, fwd, fwd)
	if _, err := big.support(ctx, cones[0]); err != nil {
		t.Fatal(err)
	}
	putSupportBDD(big)
	if len(freeSupportBDDs) != 0 {
		t.Errorf("a manager of %d bytes was kept, want at most %d", big.d.Bytes(), maxFreeSupportBDDBytes)
	}
}
