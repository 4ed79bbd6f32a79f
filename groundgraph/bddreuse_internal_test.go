package groundgraph

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/gamegen"
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

// TestSupportBDDTrialCache checks that a trial call (simSupport's bound)
// on a cone of bddFullCacheGates gates or more leaves the cache sized by
// its bound, and that a call with the full bound grows it to full size.
func TestSupportBDDTrialCache(t *testing.T) {
	ctx := context.Background()
	p, err := grounding.Load(ctx, "connect4-7x6", gamegen.ConnectK(4, 7, 6), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{p: p, opt: Options{}.withDefaults()}
	var cn *cone
	for _, f := range p.Functions() {
		c, err := b.cone(f.Lit)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(c.Inputs); len(c.Gates) >= bddFullCacheGates && int(c.Inputs[n-1]) < len(p.Props) {
			cn = c // free propositions only
			break
		}
	}
	if cn == nil {
		t.Fatalf("no function of free propositions with %d gates or more", bddFullCacheGates)
	}
	n := int32(len(p.Props))
	order := make([]int32, n)
	for in := range n {
		order[in] = in
	}
	full := 12 * grounding.DefaultBDDCacheEntries
	d := newSupportBDD(DefaultMaxBDDNodes, order, order)
	if _, err := d.supportWithin(ctx, cn, bddTrialNodesPerGate, bddTrialMinNodes); err != nil && !errors.Is(err, errBDDLimit) {
		t.Fatal(err)
	}
	if got := d.d.Bytes(); got >= full {
		t.Errorf("after a trial on %d gates the manager holds %d bytes, want less than the full cache's %d", len(cn.Gates), got, full)
	}
	if _, err := d.support(ctx, cn); err != nil && !errors.Is(err, errBDDLimit) {
		t.Fatal(err)
	}
	if got := d.d.Bytes(); got < full {
		t.Errorf("after a full call on %d gates the manager holds %d bytes, want the full cache's %d at least", len(cn.Gates), got, full)
	}
}
