package isomorph_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

// fuzzGraph decodes a small coloured digraph: n from the first byte, then a
// colour per vertex, then arcs as byte pairs.
func fuzzGraph(tb testing.TB, data []byte) *isomorph.Graph {
	if len(data) == 0 {
		return mustNew(tb, 0, nil, nil)
	}
	n := 1 + int(data[0])%48
	data = data[1:]
	colors := make([]int32, n)
	for v := 0; v < n && len(data) > 0; v++ {
		colors[v] = int32(data[0]%4) - 1
		data = data[1:]
	}
	var arcs [][2]int32
	for ; len(data) >= 2; data = data[2:] {
		arcs = append(arcs, [2]int32{int32(data[0]) % int32(n), int32(data[1]) % int32(n)})
	}
	return mustNew(tb, n, colors, arcs)
}

// FuzzFind checks that a graph and a random relabelling of it are found
// isomorphic with a mapping that verifies, have equal certificates and the
// same group order, and that the canonical labelling is consistent.
func FuzzFind(f *testing.F) {
	f.Add([]byte{9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 0}, uint64(1))
	f.Add([]byte{20, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 0, 5, 5, 0, 3, 7, 7, 3, 1, 1, 9, 4}, uint64(7))
	f.Add([]byte{}, uint64(0))
	f.Add([]byte{0}, uint64(3))
	f.Fuzz(fuzzBody)
}

func fuzzBody(t *testing.T, data []byte, seed uint64) {
	{
		g := fuzzGraph(t, data)
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		h := relabel(t, g, randPerm(rng, g.Order()))
		lim := isomorph.Limits{MaxNodes: 200000}
		m, err := isomorph.Find(ctx, g, h, lim)
		if err != nil {
			t.Fatalf("Find: %v", err)
		}
		if !isomorph.IsIsomorphism(g, h, m) {
			t.Fatalf("Find returned %v, not an isomorphism", m)
		}
		cg, err := isomorph.Canonize(ctx, g, lim)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := isomorph.Canonize(ctx, h, lim)
		if err != nil {
			t.Fatal(err)
		}
		if !cg.Certificate.Equal(ch.Certificate) {
			t.Fatal("certificates of relabelled copies differ")
		}
		if cg.Group.Order.Cmp(ch.Group.Order) != 0 {
			t.Fatalf("group orders differ: %v and %v", cg.Group.Order, ch.Group.Order)
		}
		ga, err := isomorph.Automorphisms(ctx, g, lim)
		if err != nil {
			t.Fatal(err)
		}
		if ga.Order.Cmp(cg.Group.Order) != 0 {
			t.Fatalf("Automorphisms order %v, Canonize order %v", ga.Order, cg.Group.Order)
		}
		for _, p := range denseAll(g, ga.Generators) {
			if !isomorph.IsAutomorphism(g, p) {
				t.Fatalf("generator %v is not an automorphism", p)
			}
		}
		// A moved arc is checked by certificates and by Find agreeing.
		if g.Arcs() > 0 && g.Arcs() < g.Order()*g.Order() {
			k := moveArc(t, rng, h)
			_, ck, err := isomorph.Canonical(ctx, k, lim)
			if err != nil {
				t.Fatal(err)
			}
			_, err = isomorph.Find(ctx, g, k, lim)
			if (err == nil) != cg.Certificate.Equal(ck) {
				t.Fatalf("Find(g, moved) error %v but certificates equal = %v", err, cg.Certificate.Equal(ck))
			}
		}
	}
}
