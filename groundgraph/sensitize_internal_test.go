package groundgraph

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// TestSensitizeOneActionPerRole checks that sensitized samples from a
// role's moves succeed in four_way_battle's "capture_count west 1", where
// justifying that no other capture happens can require another role to
// do several things at once: the sensitizer knows that a role doing one
// action does no other. Without that, every attempt failed (no action
// class hints at all, and 487 SAT calls for this function's classes).
func TestSensitizeOneActionPerRole(t *testing.T) {
	path := filepath.Join(testgames.Root(), "ggp-base/four_way_battle.kif")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("game not available: %v", err)
	}
	p, err := grounding.Load(context.Background(), "four_way_battle.kif", src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{p: p}
	for _, f := range p.Functions() {
		if p.FunctionName(f) != "(next (capture_count west 1))" {
			continue
		}
		cn, err := newCone(&p.Circuit, f.Lit)
		if err != nil {
			t.Fatal(err)
		}
		roles := []int{0, 1, 2, 3}
		srs := b.simRoles(cn, roles)
		z := newSensitizer(cn, srs)
		rng := rand.New(rand.NewPCG(1, 2))
		const attempts = 400
		ok := 0
		for a := range attempts {
			sr := &srs[a%len(srs)]
			if z.sample(sr.ks[rng.IntN(len(sr.ks))], false, rng) != nil {
				ok++
			}
		}
		if ok < attempts/4 {
			t.Errorf("sensitized samples from the roles' moves: %d of %d, want at least a quarter", ok, attempts)
		}
		return
	}
	t.Fatal("no function (next (capture_count west 1))")
}

// TestFreeChoice checks sensitizer.freeChoice against the list of the
// allowed choices it replaces.
func TestFreeChoice(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 2000 {
		nks := 1 + rng.IntN(200)
		other := rng.IntN(2)
		sr := simRole{radix: nks + other}
		for k := range nks {
			sr.ks = append(sr.ks, 3+k)
		}
		z := &sensitizer{srs: []simRole{sr}, off: [][]uint64{make([]uint64, (nks+63)/64)}, nOff: []int{0}}
		skip := -1
		if rng.IntN(2) == 0 {
			skip = rng.IntN(nks)
		}
		var off []int
		for c := range nks {
			if c != skip && rng.IntN(3) == 0 {
				z.forbid(0, c)
				off = append(off, c)
			}
		}
		var want []int
		for c := range sr.radix {
			if c != skip && !slices.Contains(off, c) {
				want = append(want, c)
			}
		}
		if got := z.freeChoices(0) + other; skip < 0 && got != len(want) || skip >= 0 && got-1 != len(want) {
			t.Fatalf("trial %d: freeChoices %d (other %d, skip %d), want %d choices", trial, z.freeChoices(0), other, skip, len(want))
		}
		for j, c := range want {
			if got := z.freeChoice(0, skip, j); got != c {
				t.Fatalf("trial %d: off %v skip %d: freeChoice(%d) = %d, want %d", trial, off, skip, j, got, c)
			}
		}
	}
}
