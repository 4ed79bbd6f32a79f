package isomorph_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

// mapsSetTo is a CosetTest accepting the elements that map the vertex set
// from onto the vertex set to (a setwise stabiliser when from == to). Its
// partial check rejects a coset as soon as a determined vertex of from
// maps outside to, or one outside from maps into to.
func mapsSetTo(from, to []bool, checks *int) isomorph.CosetTest {
	return func(partial isomorph.Mapping, fixed []int32, complete bool) (bool, error) {
		*checks++
		for _, v := range fixed {
			if w := partial[v]; w >= 0 && from[v] != to[w] {
				return false, nil
			}
		}
		if complete {
			for v, w := range partial {
				if from[v] != to[w] {
					return false, nil
				}
			}
		}
		return true, nil
	}
}

// subgroupGraphs are graphs with large groups in which a random vertex set
// has a smaller setwise stabiliser.
var subgroupGraphs = []struct {
	name  string
	graph func(testing.TB) *isomorph.Graph
}{
	{"petersen", petersen},
	{"hypercube4", func(tb testing.TB) *isomorph.Graph { return hypercube(tb, 4) }},
	{"cycle9", func(tb testing.TB) *isomorph.Graph { return cycle(tb, 9) }},
	{"complete6", func(tb testing.TB) *isomorph.Graph { return complete(tb, 6) }},
	{"complete7", func(tb testing.TB) *isomorph.Graph { return complete(tb, 7) }},
	{"paley13", func(tb testing.TB) *isomorph.Graph { return paley(tb, 13) }},
	{"board3x3", func(tb testing.TB) *isomorph.Graph { return board(tb, 3, 3, 3) }},
}

// TestSubgroupBrute checks Subgroup's order against the elements of the
// group that the test accepts, counted one by one, and checks that every
// generator is accepted and that the result's Contains agrees.
func TestSubgroupBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	proper := 0 // subgroups neither trivial nor the whole group
	for _, tc := range subgroupGraphs {
		g := tc.graph(t)
		gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for trial := range 60 {
			set := make([]bool, g.Order())
			for v := range set {
				set[v] = rng.IntN(3) == 0
			}
			checks := 0
			test := mapsSetTo(set, set, &checks)
			sub, err := gr.Subgroup(context.Background(), test, isomorph.Limits{})
			if err != nil {
				t.Fatalf("%s/%d: Subgroup: %v", tc.name, trial, err)
			}
			var want int64
			for p := range gr.Elements() {
				if ok, _ := test(isomorph.Mapping(p), nil, true); ok {
					want++
					if !sub.Contains(p) {
						t.Fatalf("%s/%d: Contains(%v) = false for an accepted element", tc.name, trial, p)
					}
				} else if sub.Contains(p) {
					t.Fatalf("%s/%d: Contains(%v) = true for a rejected element", tc.name, trial, p)
				}
			}
			if !sub.Order.IsInt64() || sub.Order.Int64() != want {
				t.Errorf("%s/%d: Subgroup order %v, brute force %d (group order %v)", tc.name, trial, sub.Order, want, gr.Order)
			}
			for i, p := range denseAll(g, sub.Generators) {
				if ok, _ := test(isomorph.Mapping(p), nil, true); !ok || !isomorph.IsAutomorphism(g, p) {
					t.Fatalf("%s/%d: generator %d = %v not accepted or not an automorphism", tc.name, trial, i, p)
				}
			}
			checkGroup(t, g, sub)
			if sub.Order.Cmp(gr.Order) < 0 && sub.Order.Int64() > 1 {
				proper++
			}
		}
	}
	if proper < 10 {
		t.Errorf("only %d proper non-trivial subgroups among the trials: the test does not exercise the search", proper)
	}
}

// TestSubgroupFrom checks SubgroupFrom seeded as Symmetries seeds it, with
// the generators of the group that the test accepts, and with random
// accepted elements found by brute force: the order, Contains and the
// generators must be those of the brute force, with fewer search nodes
// than without the seeds; seeded with every generator of a group whose
// elements are all accepted, it must test no coset at all.
func TestSubgroupFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 17))
	var plainNodes, seededNodes int64
	for _, tc := range subgroupGraphs {
		g := tc.graph(t)
		gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		all := func(isomorph.Mapping, []int32, bool) (bool, error) { return true, nil }
		whole, err := gr.SubgroupFrom(context.Background(), gr.Generators, func(c *isomorph.Coset) (bool, error) {
			return all(c.Partial, c.Fixed, c.Complete)
		}, isomorph.Limits{})
		if err != nil || whole.Order.Cmp(gr.Order) != 0 || whole.Stats.Nodes != 0 {
			t.Fatalf("%s: SubgroupFrom(all generators, all accepted) = order %v, %d nodes, %v; want %v, 0 nodes", tc.name, whole.Order, whole.Stats.Nodes, err, gr.Order)
		}
		// Seeds for every level but the first: each coset searched at
		// the first level lies over complete levels, so the search tests
		// its representative alone, one node a coset.
		var deep []isomorph.Sparse
		for _, p := range gr.Generators {
			if p.Image(gr.Base[0]) == gr.Base[0] {
				deep = append(deep, p)
			}
		}
		top, err := gr.SubgroupFrom(context.Background(), deep, func(c *isomorph.Coset) (bool, error) {
			return all(c.Partial, c.Fixed, c.Complete)
		}, isomorph.Limits{})
		// Every node is then a complete test that succeeds: a leaf.
		if err != nil || top.Order.Cmp(gr.Order) != 0 || top.Stats.Nodes == 0 || top.Stats.Nodes != top.Stats.Leaves {
			t.Fatalf("%s: SubgroupFrom(generators below the first level, all accepted) = order %v, %d nodes, %d leaves, %v; want %v, every node a leaf", tc.name, top.Order, top.Stats.Nodes, top.Stats.Leaves, err, gr.Order)
		}
		for trial := range 40 {
			set := make([]bool, g.Order())
			for v := range set {
				set[v] = rng.IntN(3) == 0
			}
			checks := 0
			test := mapsSetTo(set, set, &checks)
			nodeTest := func(c *isomorph.Coset) (bool, error) { return test(c.Partial, c.Fixed, c.Complete) }
			var known []isomorph.Sparse
			for _, p := range gr.Generators {
				if ok, _ := test(isomorph.Mapping(dense(g, p)), nil, true); ok {
					known = append(known, p)
				}
			}
			var want int64
			for p := range gr.Elements() {
				if ok, _ := test(isomorph.Mapping(p), nil, true); ok {
					want++
					if trial%2 == 1 && rng.IntN(4) == 0 {
						known = append(known, isomorph.SparseOf(p))
					}
				}
			}
			plain, err := gr.SubgroupNodes(context.Background(), nodeTest, isomorph.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			sub, err := gr.SubgroupFrom(context.Background(), known, nodeTest, isomorph.Limits{})
			if err != nil {
				t.Fatalf("%s/%d: SubgroupFrom: %v", tc.name, trial, err)
			}
			if !sub.Order.IsInt64() || sub.Order.Int64() != want {
				t.Fatalf("%s/%d: SubgroupFrom order %v, brute force %d (%d seeds)", tc.name, trial, sub.Order, want, len(known))
			}
			for p := range gr.Elements() {
				ok, _ := test(isomorph.Mapping(p), nil, true)
				if sub.Contains(p) != ok {
					t.Fatalf("%s/%d: Contains(%v) = %v, accepted %v", tc.name, trial, p, !ok, ok)
				}
			}
			for i, p := range denseAll(g, sub.Generators) {
				if ok, _ := test(isomorph.Mapping(p), nil, true); !ok || !isomorph.IsAutomorphism(g, p) {
					t.Fatalf("%s/%d: generator %d = %v not accepted or not an automorphism", tc.name, trial, i, p)
				}
			}
			checkGroup(t, g, sub)
			plainNodes += plain.Stats.Nodes
			seededNodes += sub.Stats.Nodes
		}
	}
	if seededNodes >= plainNodes {
		t.Errorf("seeds saved nothing: %d search nodes with them, %d without", seededNodes, plainNodes)
	}
	t.Logf("search nodes: %d seeded, %d without seeds", seededNodes, plainNodes)
}

// TestSubgroupLimitAndError checks the node limit and that a test's error
// ends the search.
func TestSubgroupLimitAndError(t *testing.T) {
	g := hypercube(t, 4)
	gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reject := func(partial isomorph.Mapping, fixed []int32, complete bool) (bool, error) {
		if !complete {
			return true, nil
		}
		for v, w := range partial {
			if int(w) != v {
				return false, nil
			}
		}
		return true, nil
	}
	if _, err := gr.Subgroup(context.Background(), reject, isomorph.Limits{MaxNodes: 10}); !errors.Is(err, isomorph.ErrLimit) {
		t.Errorf("Subgroup with MaxNodes 10: err = %v, want a limit error", err)
	}
	sub, err := gr.Subgroup(context.Background(), reject, isomorph.Limits{})
	if err != nil || sub.Order.Int64() != 1 {
		t.Errorf("Subgroup(identity only) = %v, %v; want order 1", sub, err)
	}
	boom := errors.New("boom")
	fail := func(isomorph.Mapping, []int32, bool) (bool, error) { return false, boom }
	if _, err := gr.Subgroup(context.Background(), fail, isomorph.Limits{}); !errors.Is(err, boom) {
		t.Errorf("Subgroup with a failing test: err = %v, want boom", err)
	}
}

// TestSubgroupCells checks Coset.Cells: a set stabiliser test that also
// compares, cell by cell, how many vertices of the set the coset's cells
// hold (every element of the coset maps each src cell onto its dst cell,
// so a stabilising element needs equal counts) must give the brute-force
// order, and must prune more than the test of determined vertices alone.
// Wrong cells (another level's orbits, or dst not moved by the
// representative) fail the order check.
func TestSubgroupCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 13))
	var plainNodes, cellNodes int64
	for _, tc := range subgroupGraphs {
		g := tc.graph(t)
		gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		n := g.Order()
		src, dst := make([]int32, n), make([]int32, n)
		count := make([]int, n)
		for trial := range 30 {
			set := make([]bool, n)
			for v := range set {
				set[v] = rng.IntN(3) == 0
			}
			checks := 0
			plain := mapsSetTo(set, set, &checks)
			cells := func(c *isomorph.Coset) (bool, error) {
				c.Cells(src, dst)
				clear(count)
				for v := range n {
					if set[v] {
						count[src[v]]++
					}
					if set[v] {
						count[dst[v]]--
					}
				}
				for _, k := range count {
					if k != 0 {
						return false, nil
					}
				}
				return plain(c.Partial, c.Fixed, c.Complete)
			}
			subPlain, sub, want := bothSearches(t, gr, plain, cells)
			if !sub.Order.IsInt64() || sub.Order.Int64() != want {
				t.Fatalf("%s/%d: SubgroupNodes with cells: order %v, brute force %d", tc.name, trial, sub.Order, want)
			}
			checkGroup(t, g, sub)
			plainNodes += subPlain.Stats.Nodes
			cellNodes += sub.Stats.Nodes
		}
	}
	if cellNodes >= plainNodes {
		t.Errorf("cell counts pruned nothing: %d search nodes with them, %d without", cellNodes, plainNodes)
	}
	t.Logf("search nodes: %d with cell counts, %d without", cellNodes, plainNodes)
}

// TestCosetRoot: a node with Root set lists in Fixed every vertex its
// partial mapping determines, and a test that looks only at the moved
// vertices of a root's Fixed (as Symmetries' does) finds the same
// subgroup as one that looks at all of them.
func TestCosetRoot(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	roots := 0
	for _, tc := range subgroupGraphs {
		g := tc.graph(t)
		gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		in := make([]bool, g.Order())
		for trial := range 20 {
			set := make([]bool, g.Order())
			for v := range set {
				set[v] = rng.IntN(3) == 0
			}
			checks := 0
			plain := mapsSetTo(set, set, &checks)
			want, err := gr.Subgroup(context.Background(), plain, isomorph.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var moved []int32
			test := func(c *isomorph.Coset) (bool, error) {
				fixed := c.Fixed
				if c.Root {
					roots++
					clear(in)
					for _, v := range c.Fixed {
						in[v] = true
					}
					for v, w := range c.Partial {
						if w >= 0 && !in[v] {
							t.Fatalf("%s/%d: root's Fixed omits vertex %d, mapped to %d", tc.name, trial, v, w)
						}
					}
					moved = moved[:0]
					for _, v := range c.Fixed {
						if c.Partial[v] != int32(v) {
							moved = append(moved, v)
						}
					}
					fixed = moved
				}
				return plain(c.Partial, fixed, c.Complete)
			}
			got, err := gr.SubgroupNodes(context.Background(), test, isomorph.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Order.Cmp(want.Order) != 0 {
				t.Fatalf("%s/%d: order %v looking at a root's moved vertices, %v at all", tc.name, trial, got.Order, want.Order)
			}
		}
	}
	if roots == 0 {
		t.Error("no node had Root set")
	}
}

// TestCosetRestrict: a set stabiliser test that restricts each coset's
// children to the images of the base point on its side of the set (every
// stabilising element maps it so) must give the brute-force order with
// accepted generators, and fewer search nodes than the test alone: the
// children it excludes are never entered, and the images of a level's base
// point it excludes at G_i itself (SubgroupFrom's level test) get no
// coset search. An ignored Restrict gives as
// many nodes as the test alone, and a restriction that excludes an image
// some accepted element takes gives a wrong order (checked by hand).
func TestCosetRestrict(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	var plainNodes, restrictNodes, skipped int64
	for _, tc := range subgroupGraphs {
		g := tc.graph(t)
		gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for trial := range 30 {
			set := make([]bool, g.Order())
			for v := range set {
				set[v] = rng.IntN(3) == 0
			}
			checks := 0
			plain := mapsSetTo(set, set, &checks)
			test := func(c *isomorph.Coset) (bool, error) {
				ok, err := plain(c.Partial, c.Fixed, c.Complete)
				if ok && !c.Complete {
					b := c.BasePoint()
					if b < 0 {
						t.Fatalf("%s/%d: no base point at level %d of a partial coset", tc.name, trial, c.Level())
					}
					c.Restrict(func(w int32) bool { return set[w] == set[b] })
				}
				return ok, err
			}
			subPlain, sub, want := bothSearches(t, gr, plain, test)
			if !sub.Order.IsInt64() || sub.Order.Int64() != want {
				t.Fatalf("%s/%d: SubgroupNodes with Restrict: order %v, brute force %d", tc.name, trial, sub.Order, want)
			}
			for i, p := range denseAll(g, sub.Generators) {
				if ok, _ := plain(isomorph.Mapping(p), nil, true); !ok || !isomorph.IsAutomorphism(g, p) {
					t.Fatalf("%s/%d: generator %d = %v not accepted or not an automorphism", tc.name, trial, i, p)
				}
			}
			checkGroup(t, g, sub)
			plainNodes += subPlain.Stats.Nodes
			restrictNodes += sub.Stats.Nodes
			skipped += sub.Stats.Pruned
		}
	}
	if restrictNodes >= plainNodes || skipped == 0 {
		t.Errorf("Restrict pruned nothing: %d search nodes with it (%d children skipped), %d without", restrictNodes, skipped, plainNodes)
	}
	t.Logf("search nodes: %d with Restrict (%d children skipped), %d without", restrictNodes, skipped, plainNodes)
}

// bothSearches runs Subgroup with plain and SubgroupNodes with test, and
// counts the elements of gr that plain accepts, one by one.
func bothSearches(t *testing.T, gr *isomorph.Group, plain isomorph.CosetTest, test isomorph.CosetNodeTest) (subPlain, sub *isomorph.Group, want int64) {
	t.Helper()
	subPlain, err := gr.Subgroup(context.Background(), plain, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	sub, err = gr.SubgroupNodes(context.Background(), test, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for p := range gr.Elements() {
		if ok, _ := plain(isomorph.Mapping(p), nil, true); ok {
			want++
		}
	}
	return subPlain, sub, want
}
