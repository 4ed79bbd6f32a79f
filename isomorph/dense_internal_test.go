package isomorph

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// denseTestGraphs returns graphs whose average degree exceeds denseDegree:
// Paley graphs, random dense digraphs and graphs, and complements of random
// cubic graphs and of their disjoint unions (whose searches meet leaves that
// are not automorphisms).
func denseTestGraphs(t *testing.T) map[string]*Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 3))
	out := map[string]*Graph{}
	add := func(name string, n int, colors []int32, adj func(u, v int) bool) {
		var arcs [][2]int32
		for u := 0; u < n; u++ {
			for v := 0; v < n; v++ {
				if adj(u, v) {
					arcs = append(arcs, [2]int32{int32(u), int32(v)})
				}
			}
		}
		g, err := New(n, colors, arcs)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = g
	}
	for _, q := range []int{37, 41, 53, 101} {
		sq := make([]bool, q)
		for x := 1; x < q; x++ {
			sq[x*x%q] = true
		}
		add("paley"+string(rune('0'+q%10))+string(rune('0'+q/10)), q, nil, func(u, v int) bool { return u != v && sq[((v-u)%q+q)%q] })
	}
	for i, n := range []int{40, 48, 60} {
		for directed := range 2 {
			m := make([][]bool, n)
			for u := range m {
				m[u] = make([]bool, n)
			}
			for u := 0; u < n; u++ {
				for v := 0; v < n; v++ {
					if u != v && (directed == 1 || u < v) && rng.Float64() < 0.55 {
						m[u][v] = true
						if directed == 0 {
							m[v][u] = true
						}
					}
				}
			}
			colors := make([]int32, n)
			for v := range colors {
				colors[v] = rng.Int32N(int32(1 + i))
			}
			add("random"+string(rune('a'+2*i+directed)), n, colors, func(u, v int) bool { return m[u][v] })
		}
	}
	cubic := func(n int) [][]bool {
		for {
			m := make([][]bool, n)
			for u := range m {
				m[u] = make([]bool, n)
			}
			pts := make([]int, 0, 3*n)
			for v := 0; v < n; v++ {
				pts = append(pts, v, v, v)
			}
			rng.Shuffle(len(pts), func(i, j int) { pts[i], pts[j] = pts[j], pts[i] })
			ok := true
			for k := 0; k < len(pts); k += 2 {
				u, v := pts[k], pts[k+1]
				if u == v || m[u][v] {
					ok = false
					break
				}
				m[u][v], m[v][u] = true, true
			}
			if ok {
				return m
			}
		}
	}
	for i, n := range []int{30, 44} {
		m := cubic(n)
		add("cocubic"+string(rune('a'+i)), n, nil, func(u, v int) bool { return u != v && !m[u][v] })
		// Two copies of the same cubic graph and one of another, all in
		// the complement: many equivalent leaves and many inequivalent.
		m2 := cubic(n)
		add("counion"+string(rune('a'+i)), 3*n, nil, func(u, v int) bool {
			if u == v {
				return false
			}
			if u/n != v/n {
				return true
			}
			if u/n == 2 {
				return !m2[u%n][v%n]
			}
			return !m[u%n][v%n]
		})
	}
	return out
}

// TestDenseRowsAgree checks that the rows built by transposition on dense
// graphs give the same labelings, certificates, generators and statistics
// as the row sorting they replace.
func TestDenseRowsAgree(t *testing.T) {
	ctx := context.Background()
	old := denseDegree
	defer func() { denseDegree = old }()
	for name, g := range denseTestGraphs(t) {
		if len(g.outAdj) <= old*g.n {
			t.Fatalf("%s: not dense (%d arcs, %d vertices)", name, len(g.outAdj), g.n)
		}
		for _, tgt := range []int{cellFirstLargest, cellFirstSmallest, cellMaxJoinsLargest} {
			prev := targetHeuristic
			targetHeuristic = tgt
			var canon [2]*Canon
			var aut [2]*Group
			for k, dd := range []int{old, 1 << 30} {
				denseDegree = dd
				c, err := canonize(ctx, g, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				canon[k] = c
				a, err := Automorphisms(ctx, g, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				aut[k] = a
			}
			denseDegree = old
			targetHeuristic = prev
			if !slices.Equal(canon[0].Labeling, canon[1].Labeling) || !canon[0].Certificate.Equal(canon[1].Certificate) || canon[0].Stats != canon[1].Stats {
				t.Errorf("%s/%d: canonical forms differ", name, tgt)
			}
			for _, pair := range [][2]*Group{{canon[0].Group, canon[1].Group}, {aut[0], aut[1]}} {
				a, b := pair[0], pair[1]
				if a.Order.Cmp(b.Order) != 0 || a.Stats != b.Stats || !slices.Equal(a.Orbits, b.Orbits) || !slices.Equal(a.Base, b.Base) || len(a.Generators) != len(b.Generators) {
					t.Fatalf("%s/%d: groups differ: %v %v, %+v %+v", name, tgt, a.Order, b.Order, a.Stats, b.Stats)
				}
				for i := range a.Generators {
					if !slices.Equal(a.Generators[i].Points, b.Generators[i].Points) || !slices.Equal(a.Generators[i].Images, b.Generators[i].Images) {
						t.Fatalf("%s/%d: generator %d differs", name, tgt, i)
					}
				}
			}
		}
	}
}
