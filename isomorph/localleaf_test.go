package isomorph_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

// localLeafGraphs are graphs whose first-path children hold many leaves with
// the first leaf's trace that are no image of it: unions of copies of
// non-isomorphic regular graphs (refinement does not tell them apart), of
// CFI pairs, and random coloured unions, with a hub or not.
func localLeafGraphs(t *testing.T, rng *rand.Rand) []*isomorph.Graph {
	var out []*isomorph.Graph
	for i := 0; i < 12; i++ {
		n := 8 + 2*rng.IntN(5)
		a := randomRegular(t, rng, n, 3)
		b := randomRegular(t, rng, n, 3)
		parts := []*isomorph.Graph{}
		for k := 0; k < 1+rng.IntN(3); k++ {
			parts = append(parts, a)
		}
		for k := 0; k < 1+rng.IntN(3); k++ {
			parts = append(parts, b)
		}
		out = append(out, union(t, parts...))
	}
	_, pe := prismEdges(3)
	for _, tw := range []bool{false, true} {
		c1 := cfi(t, 6, pe, tw)
		c2 := cfi(t, 6, pe, !tw)
		out = append(out, union(t, c1, c1, c2), union(t, c2, c1, c2, c1))
	}
	for i := 0; i < 12; i++ {
		c := randomGraph(t, rng, 4+rng.IntN(5), 0.4, 2, rng.IntN(2) == 0)
		d := randomGraph(t, rng, c.Order(), 0.4, 2, rng.IntN(2) == 0)
		parts := []*isomorph.Graph{c, d, c}
		for k := 0; k < rng.IntN(3); k++ {
			parts = append(parts, c, d)
		}
		out = append(out, union(t, parts...))
	}
	return out
}

// TestLocalLeavesKeepCertificates (from the review of issue-search18)
// checks, on graphs that exercise local leaves and pruning-only
// automorphisms, that relabelled copies get the same
// certificate and group order, that Automorphisms agrees, and that the order
// is dreadnaut's.
func TestLocalLeavesKeepCertificates(t *testing.T) {
	heuristics := 4
	if testing.Short() {
		heuristics = 0 // the default one
	}
	for h := 0; h <= heuristics; h++ {
		for _, words := range []int64{0, 1 << 24} {
			t.Run(fmt.Sprintf("heuristic%d-words%d", h, words), func(t *testing.T) {
				defer isomorph.SetTargetHeuristic(isomorph.SetTargetHeuristic(h))
				defer isomorph.SetMaxPruneWords(isomorph.SetMaxPruneWords(words))
				checkLocalLeaves(t)
			})
		}
	}
}

func checkLocalLeaves(t *testing.T) {
	dn, _ := exec.LookPath("dreadnaut")
	lim := isomorph.Limits{MaxNodes: 2000000}
	for seed := uint64(18); seed < 21; seed++ {
		rng := rand.New(rand.NewPCG(seed, seed))
		for gi, g := range localLeafGraphs(t, rng) {
			cg, err := isomorph.Canonize(ctx, g, lim)
			if err != nil {
				t.Fatal(err)
			}
			ga, err := isomorph.Automorphisms(ctx, g, lim)
			if err != nil {
				t.Fatal(err)
			}
			checkGroup(t, g, ga)
			if ga.Order.Cmp(cg.Group.Order) != 0 {
				t.Errorf("graph %d: Automorphisms order %v, Canonize order %v", gi, ga.Order, cg.Group.Order)
			}
			if dn != "" {
				var script bytes.Buffer
				if err := isomorph.WriteDreadnaut(&script, g); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(dn)
				cmd.Stdin = &script
				o, _ := cmd.Output()
				if m := grpsizeRE.FindSubmatch(o); m == nil || !sameOrder(ga.Order, string(m[1])) {
					t.Errorf("graph %d: |Aut| = %v, dreadnaut: %q", gi, ga.Order, m)
				}
			}
			for s := 0; s < 6; s++ {
				h := relabel(t, g, randPerm(rng, g.Order()))
				ch, err := isomorph.Canonize(ctx, h, lim)
				if err != nil {
					t.Fatal(err)
				}
				if !ch.Certificate.Equal(cg.Certificate) || ch.Group.Order.Cmp(cg.Group.Order) != 0 {
					t.Errorf("graph %d relabel %d: certificate equal %v, order %v want %v", gi, s, ch.Certificate.Equal(cg.Certificate), ch.Group.Order, cg.Group.Order)
				}
				hh, err := isomorph.Automorphisms(ctx, h, lim)
				if err != nil {
					t.Fatal(err)
				}
				if hh.Order.Cmp(cg.Group.Order) != 0 {
					t.Errorf("graph %d relabel %d: Automorphisms order %v want %v", gi, s, hh.Order, cg.Group.Order)
				}
			}
			t.Logf("seed %d graph %d: n=%d |Aut|=%v canon nodes=%d aut nodes=%d", seed, gi, g.Order(), cg.Group.Order, cg.Stats.Nodes, ga.Stats.Nodes)
		}
	}
}
