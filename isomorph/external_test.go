package isomorph_test

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/isomorph"
)

// externalGraphs are the classic families checked against nauty and bliss.
func externalGraphs(tb testing.TB) []struct {
	name string
	g    *isomorph.Graph
} {
	type ng = struct {
		name string
		g    *isomorph.Graph
	}
	var out []ng
	add := func(name string, g *isomorph.Graph) { out = append(out, ng{name, g}) }
	add("petersen", petersen(tb))
	for d := 3; d <= 8; d++ {
		add(fmt.Sprintf("Q%d", d), hypercube(tb, d))
	}
	for _, q := range []int{5, 13, 17, 29, 37, 41, 101} {
		add(fmt.Sprintf("paley%d", q), paley(tb, q))
	}
	for _, n := range []int{4, 5, 7} {
		add(fmt.Sprintf("rook%d", n), rook(tb, n))
		add(fmt.Sprintf("triangular%d", n), triangular(tb, n))
	}
	add("K20", complete(tb, 20))
	add("empty25", mustNew(tb, 25, nil, nil))
	nv, e := k4Edges()
	add("cfiK4", cfi(tb, nv, e, false))
	add("cfiK4twisted", cfi(tb, nv, e, true))
	for _, k := range []int{10, 20, 30} {
		nv, e := prismEdges(k)
		add(fmt.Sprintf("cfiPrism%d", k), cfi(tb, nv, e, false))
		add(fmt.Sprintf("cfiPrism%dtwisted", k), cfi(tb, nv, e, true))
		nv, e = mobiusEdges(k)
		add(fmt.Sprintf("miyazakiStyle%d", k), cfi(tb, nv, e, false))
		// Uncoloured: the gadget structure must be found by refinement.
		add(fmt.Sprintf("miyazakiStyle%dplain", k), uncolor(tb, cfi(tb, nv, e, false)))
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for _, nd := range [][2]int{{50, 3}, {200, 3}, {300, 4}, {100, 6}} {
		add(fmt.Sprintf("regular%d_%d", nd[0], nd[1]), randomRegular(tb, rng, nd[0], nd[1]))
	}
	add("tictactoe", board(tb, 3, 3, 3))
	add("connect4", board(tb, 6, 7, 4))
	add("3petersen+Q4", union(tb, petersen(tb), petersen(tb), hypercube(tb, 4), petersen(tb)))
	for i := 0; i < 40; i++ {
		n := 2 + rng.IntN(60)
		g := randomGraph(tb, rng, n, rng.Float64()*0.2, 1+rng.IntN(4), true)
		add(fmt.Sprintf("random%d", i), g)
	}
	for i := 0; i < 10; i++ {
		// Sparse coloured digraphs with many symmetric pieces.
		k := 2 + rng.IntN(5)
		base := randomGraph(tb, rng, 3+rng.IntN(5), 0.4, 2, true)
		gs := make([]*isomorph.Graph, k)
		for j := range gs {
			gs[j] = base
		}
		add(fmt.Sprintf("copies%d", i), union(tb, gs...))
	}
	for i := 0; i < 15; i++ {
		add(fmt.Sprintf("circulant%d", i), circulant(tb, rng))
	}
	for i := 0; i < 5; i++ {
		a := randomGraph(tb, rng, 3+rng.IntN(6), 0.4, 1, true)
		add(fmt.Sprintf("square%d", i), cartesian(tb, a, a))
	}
	return out
}

// circulant returns a random circulant digraph on Z_n with random
// connection set, coloured by residue modulo a divisor of n.
func circulant(tb testing.TB, rng *rand.Rand) *isomorph.Graph {
	n := 6 + rng.IntN(60)
	var conn []int
	for s := 1; s < n; s++ {
		if rng.IntN(4) == 0 {
			conn = append(conn, s)
		}
	}
	mod := 1
	for _, d := range []int{2, 3, 5} {
		if n%d == 0 && rng.IntN(2) == 0 {
			mod = d
		}
	}
	colors := make([]int32, n)
	var arcs [][2]int32
	for v := 0; v < n; v++ {
		colors[v] = int32(v % mod)
		for _, s := range conn {
			arcs = append(arcs, [2]int32{int32(v), int32((v + s) % n)})
		}
	}
	return mustNew(tb, n, colors, arcs)
}

// cartesian returns the Cartesian product of two digraphs.
func cartesian(tb testing.TB, a, b *isomorph.Graph) *isomorph.Graph {
	na, nb := a.Order(), b.Order()
	var arcs [][2]int32
	for u := 0; u < na; u++ {
		for v := 0; v < nb; v++ {
			x := int32(u*nb + v)
			for _, w := range a.Out(u) {
				arcs = append(arcs, [2]int32{x, w*int32(nb) + int32(v)})
			}
			for _, w := range b.Out(v) {
				arcs = append(arcs, [2]int32{x, int32(u*nb) + w})
			}
		}
	}
	return mustNew(tb, na*nb, nil, arcs)
}

// rook returns the rook's graph K_n x K_n.
func rook(tb testing.TB, n int) *isomorph.Graph {
	var e [][2]int32
	for a := 0; a < n*n; a++ {
		for b := a + 1; b < n*n; b++ {
			if a/n == b/n || a%n == b%n {
				e = append(e, [2]int32{int32(a), int32(b)})
			}
		}
	}
	return mustNew(tb, n*n, nil, undirected(e))
}

// triangular returns the line graph of K_n.
func triangular(tb testing.TB, n int) *isomorph.Graph {
	var pairs [][2]int
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			pairs = append(pairs, [2]int{a, b})
		}
	}
	var e [][2]int32
	for i := range pairs {
		for j := i + 1; j < len(pairs); j++ {
			p, q := pairs[i], pairs[j]
			if p[0] == q[0] || p[0] == q[1] || p[1] == q[0] || p[1] == q[1] {
				e = append(e, [2]int32{int32(i), int32(j)})
			}
		}
	}
	return mustNew(tb, len(pairs), nil, undirected(e))
}

// mobiusEdges is the Möbius ladder on 2k vertices (a cubic base graph).
func mobiusEdges(k int) (int, [][2]int32) {
	n := 2 * k
	var e [][2]int32
	for i := 0; i < n; i++ {
		e = append(e, [2]int32{int32(i), int32((i + 1) % n)})
	}
	for i := 0; i < k; i++ {
		e = append(e, [2]int32{int32(i), int32(i + k)})
	}
	return n, e
}

func uncolor(tb testing.TB, g *isomorph.Graph) *isomorph.Graph {
	return mustNew(tb, g.Order(), nil, arcsOf(g))
}

var (
	grpsizeRE = regexp.MustCompile(`grpsize=([0-9.e+]+)`)
	autRE     = regexp.MustCompile(`\|Aut\|:\s*([0-9.e+]+)`)
)

// TestExternalTools compares |Aut| with nauty's dreadnaut and with bliss
// (Debian packages nauty and bliss).
func TestExternalTools(t *testing.T) {
	dn, errD := exec.LookPath("dreadnaut")
	bl, errB := exec.LookPath("bliss")
	if errD != nil || errB != nil {
		t.Skip("SKIPPED: dreadnaut and bliss are not both on PATH; apt-get install nauty bliss to run this comparison")
	}
	if testing.Short() {
		t.Skip("SKIPPED in -short mode")
	}
	dir := t.TempDir()
	for _, tc := range externalGraphs(t) {
		t.Run(tc.name, func(t *testing.T) {
			gr, err := isomorph.Automorphisms(ctx, tc.g, isomorph.Limits{})
			if err != nil {
				t.Fatalf("Automorphisms: %v", err)
			}
			checkGroup(t, tc.g, gr)
			t.Logf("n=%d arcs=%d |Aut|=%v nodes=%d leaves=%d gens=%d", tc.g.Order(), tc.g.Arcs(), gr.Order, gr.Stats.Nodes, gr.Stats.Leaves, len(gr.Generators))

			var script bytes.Buffer
			if err := isomorph.WriteDreadnaut(&script, tc.g); err != nil {
				t.Fatal(err)
			}
			out := runTool(t, dn, &script)
			if bytes.Contains(out, []byte("illegal")) || bytes.Contains(out, []byte("rror")) {
				t.Fatalf("dreadnaut complained:\n%s", out)
			}
			m := grpsizeRE.FindSubmatch(out)
			if m == nil {
				t.Fatalf("no grpsize in dreadnaut output:\n%s", out)
			}
			if !sameOrder(gr.Order, string(m[1])) {
				t.Errorf("|Aut| = %v, dreadnaut says %s", gr.Order, m[1])
			}

			file := filepath.Join(dir, tc.name+".bliss")
			var in bytes.Buffer
			if err := isomorph.WriteBliss(&in, tc.g); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, in.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			out = runTool(t, bl, nil, "-directed", file)
			m = autRE.FindSubmatch(out)
			if m == nil {
				t.Fatalf("no |Aut| in bliss output:\n%s", out)
			}
			if !sameOrder(gr.Order, string(m[1])) {
				t.Errorf("|Aut| = %v, bliss says %s", gr.Order, m[1])
			}
		})
	}
}

func runTool(t *testing.T, path string, stdin *bytes.Buffer, args ...string) []byte {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(c, path, args...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", path, args, err, out)
	}
	return out
}

// sameOrder compares an exact order with a tool's printed order, which is
// exact for integers and has at least 10 significant digits otherwise.
func sameOrder(want *big.Int, s string) bool {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return want.IsInt64() && want.Int64() == i
	}
	if b, ok := new(big.Int).SetString(s, 10); ok {
		return want.Cmp(b) == 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false
	}
	w, _ := new(big.Float).SetInt(want).Float64()
	d := (w - f) / w
	return d < 1e-9 && d > -1e-9
}
