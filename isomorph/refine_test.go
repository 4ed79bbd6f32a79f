package isomorph_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

// checkEquitable fails unless every vertex of a cell has the same number of
// out-neighbours and of in-neighbours in every cell.
func checkEquitable(t *testing.T, g *isomorph.Graph, p isomorph.Partition) {
	t.Helper()
	cellOf := p.CellOf()
	k := p.Len()
	for i := 0; i < k; i++ {
		var ref []int
		for j, v := range p.Cell(i) {
			cnt := make([]int, 2*k)
			for _, w := range g.Out(int(v)) {
				cnt[cellOf[w]]++
			}
			for _, w := range g.In(int(v)) {
				cnt[k+int(cellOf[w])]++
			}
			if j == 0 {
				ref = cnt
			} else if !slices.Equal(ref, cnt) {
				t.Fatalf("cell %d is not equitable: vertex %d has counts %v, vertex %d has %v", i, p.Cell(i)[0], ref, v, cnt)
			}
		}
	}
}

func TestRefineEquitableAndInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for i := 0; i < 300; i++ {
		n := 1 + rng.IntN(80)
		g := randomGraph(t, rng, n, rng.Float64()*0.15, 1+rng.IntN(3), rng.IntN(3) > 0)
		p, hash, err := isomorph.Refine(g, isomorph.Partition{})
		if err != nil {
			t.Fatal(err)
		}
		checkEquitable(t, g, p)
		perm := randPerm(rng, n)
		h := relabel(t, g, perm)
		q, hash2, err := isomorph.Refine(h, isomorph.Partition{})
		if err != nil {
			t.Fatal(err)
		}
		if hash != hash2 || p.Len() != q.Len() {
			t.Fatalf("graph %d: trace hash %x/%x, cells %d/%d for a relabelled copy", i, hash, hash2, p.Len(), q.Len())
		}
		for c := 0; c < p.Len(); c++ {
			img := make([]int32, 0, len(p.Cell(c)))
			for _, v := range p.Cell(c) {
				img = append(img, perm[v])
			}
			slices.Sort(img)
			if !slices.Equal(img, q.Cell(c)) {
				t.Fatalf("graph %d: cell %d maps to %v, want %v", i, c, img, q.Cell(c))
			}
		}
	}
}

func TestRefineIndividualized(t *testing.T) {
	// Individualizing a vertex of a 3-regular asymmetric-ish graph: the
	// result must be equitable and finer.
	rng := rand.New(rand.NewPCG(23, 24))
	g := randomRegular(t, rng, 60, 3)
	order := make([]int32, 0, 60)
	for v := int32(1); v < 60; v++ {
		order = append(order, v)
	}
	order = append(order, 0)
	p, _, err := isomorph.Refine(g, isomorph.Partition{Order: order, Starts: []int32{0, 59}})
	if err != nil {
		t.Fatal(err)
	}
	checkEquitable(t, g, p)
	if p.Len() < 3 {
		t.Errorf("refinement after individualizing gave %d cells", p.Len())
	}
	// Distances from vertex 0 are a coarsening: vertices at different
	// distances never share a cell.
	dist := bfs(g, 0)
	cellOf := p.CellOf()
	for u := range dist {
		for v := range dist {
			if cellOf[u] == cellOf[v] && dist[u] != dist[v] {
				t.Fatalf("vertices %d and %d share a cell at distances %d and %d", u, v, dist[u], dist[v])
			}
		}
	}
}

func bfs(g *isomorph.Graph, s int) []int {
	d := make([]int, g.Order())
	for i := range d {
		d[i] = -1
	}
	d[s] = 0
	q := []int{s}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, w := range g.Out(u) {
			if d[w] < 0 {
				d[w] = d[u] + 1
				q = append(q, int(w))
			}
		}
	}
	return d
}

func TestRefineErrors(t *testing.T) {
	g := cycle(t, 4)
	refineErrorTests := []struct {
		name string
		p    isomorph.Partition
	}{
		{"ErrShort", isomorph.Partition{Order: []int32{0, 1, 2}, Starts: []int32{0}}},
		{"ErrDuplicate", isomorph.Partition{Order: []int32{0, 1, 2, 2}, Starts: []int32{0}}},
		{"ErrStarts", isomorph.Partition{Order: []int32{0, 1, 2, 3}, Starts: []int32{0, 2, 2}}},
		{"ErrNoStart", isomorph.Partition{Order: []int32{0, 1, 2, 3}, Starts: []int32{1}}},
		{"ErrRange", isomorph.Partition{Order: []int32{0, 1, 2, 4}, Starts: []int32{0}}},
	}
	for _, tc := range refineErrorTests {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := isomorph.Refine(g, tc.p); err == nil {
				t.Errorf("Refine(%v) succeeded", tc.p)
			}
		})
	}
}

func TestColorPartition(t *testing.T) {
	g := mustNew(t, 5, []int32{3, -1, 3, 0, -1}, nil)
	p := isomorph.ColorPartition(g)
	want := [][]int32{{1, 4}, {3}, {0, 2}}
	if p.Len() != len(want) {
		t.Fatalf("ColorPartition has %d cells, want %d", p.Len(), len(want))
	}
	for i, c := range want {
		if !slices.Equal(p.Cell(i), c) {
			t.Errorf("cell %d = %v, want %v", i, p.Cell(i), c)
		}
	}
}

// TestSmallMemoryBudget runs searches with no room for child lists, so
// every level scans its cell.
func TestSmallMemoryBudget(t *testing.T) {
	old := isomorph.SetMaxHeld(0)
	defer isomorph.SetMaxHeld(old)
	t.Run("KnownGroups", TestAutomorphismsKnownGroups)
	t.Run("Brute", TestFindBrute)
}

// TestTargetHeuristics runs the brute-force checks with every target-cell
// heuristic.
func TestTargetHeuristics(t *testing.T) {
	for h := 0; h < 5; h++ {
		old := isomorph.SetTargetHeuristic(h)
		t.Run(string(rune('0'+h)), func(t *testing.T) {
			t.Run("KnownGroups", TestAutomorphismsKnownGroups)
			t.Run("Brute", TestFindBrute)
			t.Run("Relabelled", TestFindRelabelled)
			t.Run("FreeCells", TestFreeCellsBrute)
		})
		isomorph.SetTargetHeuristic(old)
	}
}
