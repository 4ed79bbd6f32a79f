package isomorph_test

import (
	"context"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

var groupTests = []struct {
	name  string
	graph func(tb testing.TB) *isomorph.Graph
	order *big.Int
}{
	{"empty0", func(tb testing.TB) *isomorph.Graph { return mustNew(tb, 0, nil, nil) }, big.NewInt(1)},
	{"single", func(tb testing.TB) *isomorph.Graph { return mustNew(tb, 1, nil, nil) }, big.NewInt(1)},
	{"loop", func(tb testing.TB) *isomorph.Graph { return mustNew(tb, 2, nil, [][2]int32{{0, 0}}) }, big.NewInt(1)},
	{"petersen", petersen, big.NewInt(120)},
	{"Q3", func(tb testing.TB) *isomorph.Graph { return hypercube(tb, 3) }, big.NewInt(48)},
	{"Q4", func(tb testing.TB) *isomorph.Graph { return hypercube(tb, 4) }, big.NewInt(384)},
	{"Q5", func(tb testing.TB) *isomorph.Graph { return hypercube(tb, 5) }, big.NewInt(3840)},
	{"Q6", func(tb testing.TB) *isomorph.Graph { return hypercube(tb, 6) }, big.NewInt(46080)},
	{"K1", func(tb testing.TB) *isomorph.Graph { return complete(tb, 1) }, big.NewInt(1)},
	{"K5", func(tb testing.TB) *isomorph.Graph { return complete(tb, 5) }, factorial(5)},
	{"K12", func(tb testing.TB) *isomorph.Graph { return complete(tb, 12) }, factorial(12)},
	{"K30", func(tb testing.TB) *isomorph.Graph { return complete(tb, 30) }, factorial(30)},
	{"C3", func(tb testing.TB) *isomorph.Graph { return cycle(tb, 3) }, big.NewInt(6)},
	{"C8", func(tb testing.TB) *isomorph.Graph { return cycle(tb, 8) }, big.NewInt(16)},
	{"C101", func(tb testing.TB) *isomorph.Graph { return cycle(tb, 101) }, big.NewInt(202)},
	{"dirC7", func(tb testing.TB) *isomorph.Graph { return dirCycle(tb, 7) }, big.NewInt(7)},
	{"dirC100", func(tb testing.TB) *isomorph.Graph { return dirCycle(tb, 100) }, big.NewInt(100)},
	{"empty7", func(tb testing.TB) *isomorph.Graph { return mustNew(tb, 7, nil, nil) }, factorial(7)},
	{"empty40", func(tb testing.TB) *isomorph.Graph { return mustNew(tb, 40, nil, nil) }, factorial(40)},
	{"paley13", func(tb testing.TB) *isomorph.Graph { return paley(tb, 13) }, big.NewInt(78)},
	{"paley17", func(tb testing.TB) *isomorph.Graph { return paley(tb, 17) }, big.NewInt(136)},
	{"paley29", func(tb testing.TB) *isomorph.Graph { return paley(tb, 29) }, big.NewInt(406)},
	{"3petersen", func(tb testing.TB) *isomorph.Graph {
		return union(tb, petersen(tb), petersen(tb), petersen(tb))
	}, new(big.Int).Mul(big.NewInt(120*120*120), big.NewInt(6))},
	{"C4+C4+K2", func(tb testing.TB) *isomorph.Graph {
		return union(tb, cycle(tb, 4), cycle(tb, 4), complete(tb, 2))
	}, big.NewInt(8 * 8 * 2 * 2)},
	{"coloredC6", func(tb testing.TB) *isomorph.Graph {
		// Alternating colours on a hexagon: rotations by 2 and reflections
		// through vertices.
		return mustNew(tb, 6, []int32{0, 1, 0, 1, 0, 1}, undirected(cycleEdges(6)))
	}, big.NewInt(6)},
	{"coloredK4", func(tb testing.TB) *isomorph.Graph {
		return mustNew(tb, 4, []int32{7, 7, -3, 7}, arcsOf(complete(tb, 4)))
	}, big.NewInt(6)},
	{"transitiveTournament", func(tb testing.TB) *isomorph.Graph {
		var a [][2]int32
		for u := int32(0); u < 6; u++ {
			for v := u + 1; v < 6; v++ {
				a = append(a, [2]int32{u, v})
			}
		}
		return mustNew(tb, 6, nil, a)
	}, big.NewInt(1)},
	{"paleyTournament7", func(tb testing.TB) *isomorph.Graph {
		// Quadratic-residue tournament on 7 vertices: |Aut| = 21.
		var a [][2]int32
		res := map[int]bool{1: true, 2: true, 4: true}
		for u := 0; u < 7; u++ {
			for v := 0; v < 7; v++ {
				if res[(v-u+7)%7] {
					a = append(a, [2]int32{int32(u), int32(v)})
				}
			}
		}
		return mustNew(tb, 7, nil, a)
	}, big.NewInt(21)},
	{"cfiK4", func(tb testing.TB) *isomorph.Graph {
		nv, e := k4Edges()
		return cfi(tb, nv, e, false)
	}, big.NewInt(8)}, // 2^(cycle rank 3); colours fix the base vertices
}

func TestAutomorphismsKnownGroups(t *testing.T) {
	for _, tc := range groupTests {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.graph(t)
			gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
			if err != nil {
				t.Fatalf("Automorphisms: %v", err)
			}
			if got, want := gr.Order, tc.order; got.Cmp(want) != 0 {
				t.Errorf("Automorphisms(%s).Order = %v, want %v", tc.name, got, want)
			}
			checkGroup(t, g, gr)
			c, err := isomorph.Canonize(context.Background(), g, isomorph.Limits{})
			if err != nil {
				t.Fatalf("Canonize: %v", err)
			}
			if got, want := c.Group.Order, tc.order; got.Cmp(want) != 0 {
				t.Errorf("Canonize(%s).Group.Order = %v, want %v", tc.name, got, want)
			}
			checkGroup(t, g, c.Group)
		})
	}
}

// checkGroup verifies the generators, the orbits and, for small groups,
// that Elements yields exactly Order distinct automorphisms.
func checkGroup(t *testing.T, g *isomorph.Graph, gr *isomorph.Group) {
	t.Helper()
	if len(gr.Generators) > max(g.Order()-1, 0) {
		t.Errorf("%d generators for %d vertices", len(gr.Generators), g.Order())
	}
	for i, p := range denseAll(g, gr.Generators) {
		if !isomorph.IsAutomorphism(g, p) {
			t.Fatalf("generator %d = %v is not an automorphism", i, p)
		}
		for v, w := range p {
			if gr.Orbits[v] != gr.Orbits[w] {
				t.Fatalf("generator %d maps %d to %d in another orbit", i, v, w)
			}
		}
	}
	if !gr.Order.IsInt64() || gr.Order.Int64() > 5000 {
		return
	}
	seen := map[string]bool{}
	for p := range gr.Elements() {
		if !isomorph.IsAutomorphism(g, p) {
			t.Fatalf("element %v is not an automorphism", p)
		}
		k := string(int32sToBytes(p))
		if seen[k] {
			t.Fatalf("element %v yielded twice", p)
		}
		seen[k] = true
		if !gr.Contains(p) {
			t.Fatalf("Contains(%v) = false for an element", p)
		}
	}
	if got, want := int64(len(seen)), gr.Order.Int64(); got != want {
		t.Errorf("Elements yielded %d permutations, want %d", got, want)
	}
}

func int32sToBytes(p []int32) []byte {
	b := make([]byte, 0, 4*len(p))
	for _, x := range p {
		b = append(b, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	return b
}

// TestAutomorphismsBrute compares the group order with brute force on small
// random coloured digraphs.
func TestAutomorphismsBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		n := 1 + rng.IntN(7)
		prob := rng.Float64()
		g := randomGraph(t, rng, n, prob, 1+rng.IntN(3), rng.IntN(2) == 0)
		want := bruteAutCount(g)
		gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !gr.Order.IsInt64() || gr.Order.Int64() != want {
			t.Fatalf("graph %d (n=%d arcs=%v colours=%v): order %v, brute force %d", i, n, arcsOf(g), colorsOf(g), gr.Order, want)
		}
		c, err := isomorph.Canonize(context.Background(), g, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Group.Order.Int64() != want {
			t.Fatalf("graph %d: Canonize order %v, brute force %d", i, c.Group.Order, want)
		}
	}
}

func TestGroupContainsRejects(t *testing.T) {
	g := petersen(t)
	gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// A transposition of two adjacent vertices is not an automorphism.
	p := make(isomorph.Perm, 10)
	for i := range p {
		p[i] = int32(i)
	}
	p[0], p[1] = 1, 0
	if gr.Contains(p) {
		t.Errorf("Contains(%v) = true, want false", p)
	}
	id := slices.Clone(p)
	id[0], id[1] = 0, 1
	if !gr.Contains(id) {
		t.Errorf("Contains(identity) = false")
	}
}
