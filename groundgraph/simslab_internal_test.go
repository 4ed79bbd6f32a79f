package groundgraph

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestSlabClone: the copies slabClone cuts from one slab equal their
// samples, end at their capacity (appending to one never writes into the
// next), and the slab grows when a region is past it.
func TestSlabClone(t *testing.T) {
	var slab []uint64
	xs := []sample{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	var got []sample
	for i, x := range xs {
		got = append(got, slabClone(&slab, i, x))
	}
	if len(slab) != 64*boundaryWords*3 {
		t.Errorf("slab of %d words, want %d", len(slab), 64*boundaryWords*3)
	}
	_ = append(got[0], 99)
	for i, x := range xs {
		if !slices.Equal(got[i], x) || cap(got[i]) != len(x) {
			t.Errorf("copy %d = %v (cap %d), want %v (cap %d)", i, got[i], cap(got[i]), x, len(x))
		}
	}
	got[1][0] = 0
	if xs[1][0] != 4 {
		t.Errorf("writing a copy changed its sample")
	}
	big := make(sample, 64*boundaryWords*3)
	if y := slabClone(&slab, 2, big); len(y) != len(big) || len(slab) < 3*len(big) {
		t.Errorf("slabClone of a wider sample: %d words, slab %d", len(y), len(slab))
	}
}

// TestWitnessSamples: witnessSamples returns each witness's sample with
// its proposition flipped, cut from a few allocations however many
// witnesses there are (it made one per witness and one per sample read,
// most of the allocations of checkers-mustjump-torus' boundary rounds).
func TestWitnessSamples(t *testing.T) {
	p := loadGame(t, "ggp-base/ticTacToeNoVars.kif")
	b := &builder{p: p, opt: Options{}.withDefaults()}
	f := slices.MaxFunc(p.Functions(), func(x, y grounding.Function) int {
		cx, _ := b.cone(x.Lit)
		cy, _ := b.cone(y.Lit)
		return len(cx.Inputs) - len(cy.Inputs)
	})
	cn, err := b.cone(f.Lit)
	if err != nil {
		t.Fatal(err)
	}
	const w = 4
	s := newConeSim(cn, w)
	rng := rand.New(rand.NewPCG(1, 2))
	nIn := len(cn.Inputs)
	for k := range nIn {
		for i := range w {
			s.In(k)[i] = rng.Uint64()
		}
	}
	type wit struct{ k, bit int }
	var ws []wit
	for range 200 {
		ws = append(ws, wit{rng.IntN(nIn), rng.IntN(64 * w)})
	}
	st := &simState{ctx: context.Background(), propDep: make([]bool, nIn)}
	at := func(j int) (int, int) { return ws[j].k, ws[j].bit }
	out := st.witnessSamples(s, len(ws), at)
	for j, x := range out {
		for k := range nIn {
			want := s.In(k)[ws[j].bit/64]>>(ws[j].bit%64)&1 == 1
			if k == ws[j].k {
				want = !want
			}
			if got := x[k/64]>>(k%64)&1 == 1; got != want {
				t.Fatalf("witness %d (input %d, bit %d): input %d = %v, want %v", j, ws[j].k, ws[j].bit, k, got, want)
			}
		}
		if cap(x) != (nIn+63)/64 {
			t.Fatalf("witness %d: capacity %d, want %d", j, cap(x), (nIn+63)/64)
		}
	}
	allocs := testing.AllocsPerRun(5, func() { st.witnessSamples(s, len(ws), at) })
	t.Logf("%d witnesses over %d inputs: %.0f allocations", len(ws), nIn, allocs)
	if allocs > 20 {
		t.Errorf("witnessSamples of %d witnesses made %.0f allocations, want at most 20", len(ws), allocs)
	}
}
