package groundgraph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// The cells of the Tic-tac-toe board by kind.
var (
	centre  = []string{"2 2"}
	corners = []string{"1 1", "1 3", "3 1", "3 3"}
	edges   = []string{"1 2", "2 1", "2 3", "3 2"}
)

func propVertex(t *testing.T, g *groundgraph.Graph, name string) int {
	t.Helper()
	i, ok := g.Program().PropID(name)
	if !ok {
		t.Fatalf("no proposition %s", name)
	}
	return g.PropVertex(i)
}

func actionVertex(t *testing.T, g *groundgraph.Graph, role, action string) int {
	t.Helper()
	p := g.Program()
	r, ok := p.RoleID(role)
	if !ok {
		t.Fatalf("no role %s", role)
	}
	a, ok := p.ActionID(r, action)
	if !ok {
		t.Fatalf("no action %s of %s", action, role)
	}
	return g.ActionVertex(r, a)
}

// colorsOf returns the distinct colours of the vertices.
func colorsOf(color func(int) int32, vs []int) []int32 {
	var cs []int32
	for _, v := range vs {
		cs = append(cs, color(v))
	}
	slices.Sort(cs)
	return slices.Compact(cs)
}

func TestTicTacToeAutomorphisms(t *testing.T) {
	g := mustBuild(t, ticTacToe, groundgraph.Options{})
	gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := gr.Order, big.NewInt(8); got.Cmp(want) != 0 {
		t.Errorf("automorphism group order = %v, want %v (the board's dihedral group)", got, want)
	}
	// The paper's grouping leaves 4!·4!·1! = 576 leaves.
	if gr.Stats.Leaves >= 576 {
		t.Errorf("search leaves = %d, want fewer than the paper's 576", gr.Stats.Leaves)
	}
	s := g.Stats()
	t.Logf("Tic-tac-toe: %d vertices (%v by kind), %d edges, %d colour classes; |Aut| = %v, search %d nodes, %d leaves, %d generators",
		s.Vertices, s.ByKind, s.Edges, s.Colors, gr.Order, gr.Stats.Nodes, gr.Stats.Leaves, gr.Stats.Generators)
	// Every automorphism maps cells to cells of the same kind: the orbits of
	// the x cells are exactly centre, corners and edges.
	orbit := func(cells []string) []int32 {
		var os []int32
		for _, c := range cells {
			os = append(os, gr.Orbits[propVertex(t, g, "(cell "+c+" x)")])
		}
		slices.Sort(os)
		return slices.Compact(os)
	}
	oc, ok, oe := orbit(centre), orbit(corners), orbit(edges)
	if len(oc) != 1 || len(ok) != 1 || len(oe) != 1 || oc[0] == ok[0] || ok[0] == oe[0] || oc[0] == oe[0] {
		t.Errorf("orbits of centre, corners, edges = %v, %v, %v; want one each, all different", oc, ok, oe)
	}
}

func TestTicTacToeColors(t *testing.T) {
	g := mustBuild(t, ticTacToe, groundgraph.Options{})
	var colorTests = []struct {
		name  string
		color func(int) int32
		vert  func(cell string) int
	}{
		{"semantic colour of x cells", g.SemanticColor, func(c string) int { return propVertex(t, g, "(cell "+c+" x)") }},
		{"semantic colour of o cells", g.SemanticColor, func(c string) int { return propVertex(t, g, "(cell "+c+" o)") }},
		{"colour of blank cells", g.Color, func(c string) int { return propVertex(t, g, "(cell "+c+" b)") }},
		{"colour of xplayer's marks", g.Color, func(c string) int { return actionVertex(t, g, "xplayer", "(mark "+c+")") }},
		{"colour of oplayer's marks", g.Color, func(c string) int { return actionVertex(t, g, "oplayer", "(mark "+c+")") }},
	}
	for _, tc := range colorTests {
		t.Run(tc.name, func(t *testing.T) {
			var classes [][]int32
			for _, cells := range [][]string{centre, corners, edges} {
				var vs []int
				for _, c := range cells {
					vs = append(vs, tc.vert(c))
				}
				cs := colorsOf(tc.color, vs)
				if len(cs) != 1 {
					t.Errorf("cells %v get colours %v, want one", cells, cs)
				}
				classes = append(classes, cs)
			}
			if slices.Equal(classes[0], classes[1]) || slices.Equal(classes[1], classes[2]) || slices.Equal(classes[0], classes[2]) {
				t.Errorf("centre, corners, edges get colours %v, want three different", classes)
			}
		})
	}
}

// influence returns the influence of each named proposition on f.
func influence(t *testing.T, g *groundgraph.Graph, f string, props []string) []int64 {
	t.Helper()
	p := g.Program()
	for _, ff := range g.Functions() {
		if p.FunctionName(ff.Function) != f {
			continue
		}
		if !ff.Tabled {
			t.Fatalf("%s not tabled (%.0f bits)", f, ff.RowsLog2)
		}
		var out []int64
		for _, name := range props {
			id, _ := p.PropID(name)
			k := slices.Index(ff.Support.Inputs(), id)
			if k < 0 {
				t.Fatalf("%s not in the support of %s", name, f)
			}
			out = append(out, ff.Influence[k])
		}
		return out
	}
	t.Fatalf("no function %s", f)
	return nil
}

func TestTicTacToeInfluence(t *testing.T) {
	var influenceTests = []struct {
		f    string
		mark string
		bits int // Options.MaxTableBits
		long bool
	}{
		{"(goal xplayer 100)", "x", 0, false},
		{"(goal oplayer 100)", "o", 0, false},
		{"(goal xplayer 0)", "o", 0, false},
		{"terminal", "x", 27, true},
		{"terminal", "o", 27, true},
	}
	for _, tc := range influenceTests {
		t.Run(fmt.Sprintf("%s/%s", tc.f, tc.mark), func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("2^27-row table skipped in -short mode")
			}
			g := mustBuild(t, ticTacToe, groundgraph.Options{MaxTableBits: tc.bits, MaxTableRows: -1, MaxInteractionProps: -1})
			cell := func(c string) string { return "(cell " + c + " " + tc.mark + ")" }
			names := []string{cell(centre[0])}
			for _, c := range append(slices.Clone(corners), edges...) {
				names = append(names, cell(c))
			}
			inf := influence(t, g, tc.f, names)
			ce, co, ed := inf[0], inf[1:5], inf[5:9]
			for i := range 4 {
				if co[i] != co[0] || ed[i] != ed[0] {
					t.Fatalf("influences centre %d, corners %v, edges %v: corners or edges differ", ce, co, ed)
				}
			}
			if !(ce > co[0] && co[0] > ed[0]) {
				t.Errorf("influences centre %d, corner %d, edge %d; want centre > corner > edge", ce, co[0], ed[0])
			}
			t.Logf("%s: influence of %s cells: centre %d, corner %d, edge %d", tc.f, tc.mark, ce, co[0], ed[0])
		})
	}
}

// equivalentTests are pairs of games that are equivalent (the second is the
// first in disguise), so their graphs must be isomorphic under every Options.
var equivalentTests = []struct {
	name string
	a, b string
}{
	{"TicTacToeNumberScrabble", ticTacToe, sum15},
	{"RedundantLiterals", ticTacToe, ticTacToeRedund},
	{"ConstantFalseGoal", "testdata/goalFalse.kif", "testdata/goalFalseWithout.kif"},
}

// optionsTests vary the bounds: equivalent games must stay isomorphic.
var optionsTests = []struct {
	name string
	opt  groundgraph.Options
}{
	{"Default", groundgraph.Options{}},
	{"NoTables", groundgraph.Options{MaxTableBits: -1}},
	{"SmallTables", groundgraph.Options{MaxTableBits: 6}},
	{"FewRows", groundgraph.Options{MaxTableRows: 3000}},
	{"NoInteractions", groundgraph.Options{MaxInteractionProps: -1}},
	{"SupportBySimulation", groundgraph.Options{SupportTableBits: -1}},
	{"OneWorker", groundgraph.Options{Workers: 1}},
}

func TestEquivalentGames(t *testing.T) {
	ctx := context.Background()
	for _, tc := range equivalentTests {
		for _, oc := range optionsTests {
			t.Run(tc.name+"/"+oc.name, func(t *testing.T) {
				ga := mustBuild(t, tc.a, oc.opt)
				gb := mustBuild(t, tc.b, oc.opt)
				m, err := isomorph.Find(ctx, ga, gb, isomorph.Limits{})
				if err != nil {
					t.Fatalf("Find(%s, %s) = %v, want an isomorphism", tc.a, tc.b, err)
				}
				ra, err := isomorph.Automorphisms(ctx, ga, isomorph.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				rb, err := isomorph.Automorphisms(ctx, gb, isomorph.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if ra.Order.Cmp(rb.Order) != 0 {
					t.Errorf("aut orders %v and %v differ", ra.Order, rb.Order)
				}
				var ja, jb bytes.Buffer
				if err := ga.WriteJSON(&ja, ra.Order); err != nil {
					t.Fatal(err)
				}
				if err := gb.WriteJSON(&jb, rb.Order); err != nil {
					t.Fatal(err)
				}
				if a, b := autOrderOf(t, ja.Bytes()), autOrderOf(t, jb.Bytes()); a != b {
					t.Errorf("aut_order %s and %s differ", a, b)
				}
				// The isomorphism is a candidate equivalence; with the default
				// options it is a true one, which satcheck confirms.
				sm, err := ga.Mapping(gb, m)
				if err != nil {
					t.Fatal(err)
				}
				if oc.name != "Default" {
					return
				}
				res, err := satcheck.Verify(ctx, ga.Program(), gb.Program(), sm, satcheck.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != satcheck.Equivalent {
					t.Errorf("Verify(mapping of the isomorphism) = %v, want equivalent", res)
				}
			})
		}
	}
}

func autOrderOf(t *testing.T, js []byte) string {
	t.Helper()
	var v struct {
		AutOrder string `json:"aut_order"`
	}
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatal(err)
	}
	return v.AutOrder
}

// differentTests are pairs of games whose graphs are not isomorphic.
var differentTests = []struct {
	name string
	a, b string
}{
	{"TicTacToeConnectFour", ticTacToe, connectFour},
	{"TicTacToeLarge", ticTacToe, "ggp-base/ticTacToeLarge.kif"},
	{"ConstantFalseGoalKept", "testdata/goalFalse.kif", "ggp-base/buttons.kif"},
}

func TestDifferentGames(t *testing.T) {
	for _, tc := range differentTests {
		t.Run(tc.name, func(t *testing.T) {
			ga := mustBuild(t, tc.a, groundgraph.Options{})
			gb := mustBuild(t, tc.b, groundgraph.Options{})
			if _, err := isomorph.Find(context.Background(), ga, gb, isomorph.Limits{}); !errors.Is(err, isomorph.ErrNotIsomorphic) {
				t.Errorf("Find(%s, %s) = %v, want ErrNotIsomorphic", tc.a, tc.b, err)
			}
		})
	}
}

// TestSupportMatchesSatcheck checks the supports Build computes (truth
// tables, or simulation then satcheck) against satcheck.SemanticSupport.
func TestSupportMatchesSatcheck(t *testing.T) {
	ctx := context.Background()
	games := []string{ticTacToe, sum15, ticTacToeRedund, "testdata/goalFalse.kif", "testdata/moveIndependent.kif", "testdata/crowdedPut.kif", "ggp-base/buttons.kif", "ggp-base/blocksWorldParallel.kif", "ggp-base/beatMania.kif"}
	for _, name := range games {
		for _, bits := range []int{0, -1} {
			t.Run(fmt.Sprintf("%s/%d", name, bits), func(t *testing.T) {
				g := mustBuild(t, name, groundgraph.Options{SupportTableBits: bits})
				p := g.Program()
				for _, ff := range g.Functions() {
					want, err := satcheck.SemanticSupport(ctx, p, ff.Function.Lit)
					if err != nil {
						t.Fatal(err)
					}
					if ff.Function.Kind != grounding.FuncNext {
						want = slices.DeleteFunc(want, func(i int) bool { return i >= len(p.Props) })
					}
					if !slices.Equal(ff.Support.Inputs(), want) {
						t.Errorf("support of %s = %v, want %v", p.FunctionName(ff.Function), ff.Support.Inputs(), want)
					}
				}
			})
		}
	}
}

// TestRolesNeedNoSAT checks that simulation shows every role that matters
// in crowdedPut, where a role matters only when the five others keep off
// its cell: sensitized pairs find them, so no SAT question is asked.
func TestRolesNeedNoSAT(t *testing.T) {
	g := mustBuild(t, "testdata/crowdedPut.kif", groundgraph.Options{})
	p := g.Program()
	for _, ff := range g.Functions() {
		if ff.Function.Kind == grounding.FuncNext && ff.Support.Len() != 1+6*len(p.Actions[0]) {
			t.Errorf("support of %s has %d inputs, want the proposition and every action", p.FunctionName(ff.Function), ff.Support.Len())
		}
	}
	if got := g.Stats().DependsOnCalls; got != 0 {
		t.Errorf("Build(crowdedPut) asked %d SAT questions, want 0", got)
	}
}

// TestRedundantLiteralsVanish checks that the redundant variant reads more
// inputs syntactically but has exactly the same edges.
func TestRedundantLiteralsVanish(t *testing.T) {
	a := mustBuild(t, ticTacToe, groundgraph.Options{})
	b := mustBuild(t, ticTacToeRedund, groundgraph.Options{})
	pb := b.Program()
	syn := 0
	for _, f := range pb.Functions() {
		syn += len(pb.Circuit.Support(f.Lit))
	}
	pa := a.Program()
	synA := 0
	for _, f := range pa.Functions() {
		synA += len(pa.Circuit.Support(f.Lit))
	}
	if syn <= synA {
		t.Errorf("syntactic supports: redundant variant %d, original %d; want the variant to read more", syn, synA)
	}
	if sa, sb := a.Stats(), b.Stats(); sa.Edges != sb.Edges || sa.Vertices != sb.Vertices || sa.Colors != sb.Colors {
		t.Errorf("graphs differ in size: %d/%d/%d vs %d/%d/%d vertices/edges/colours", sa.Vertices, sa.Edges, sa.Colors, sb.Vertices, sb.Edges, sb.Colors)
	}
	// Same proposition names, so the identity is the isomorphism.
	for v := range a.Order() {
		if !slices.Equal(a.Out(v), b.Out(v)) || a.Color(v) != b.Color(v) {
			t.Fatalf("vertex %d (%s) differs", v, a.Label(v))
		}
	}
}

func TestConstantFalseGoal(t *testing.T) {
	g := mustBuild(t, "testdata/goalFalse.kif", groundgraph.Options{})
	p := g.Program()
	r, _ := p.RoleID("robot")
	for _, tc := range []struct {
		value int
		want  bool
	}{{0, true}, {50, false}, {100, true}} {
		if _, ok := g.GoalVertex(r, tc.value); ok != tc.want {
			t.Errorf("GoalVertex(robot, %d) exists = %v, want %v", tc.value, ok, tc.want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	p := mustLoad(t, sum15)
	var outs []string
	for _, w := range []int{1, 2, 4} {
		g, err := groundgraph.Build(context.Background(), p, groundgraph.Options{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := g.WriteJSON(&b, nil); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b.String())
	}
	for i := 1; i < len(outs); i++ {
		if outs[i] != outs[0] {
			t.Errorf("Build with different Workers gives different graphs")
		}
	}
}

func TestWriteJSON(t *testing.T) {
	g := mustBuild(t, ticTacToe, groundgraph.Options{})
	var b bytes.Buffer
	if err := g.WriteJSON(&b, big.NewInt(8)); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Nodes []struct {
			ID    int    `json:"id"`
			Kind  string `json:"kind"`
			Label string `json:"label"`
			Color int32  `json:"color"`
		} `json:"nodes"`
		Edges    [][2]int `json:"edges"`
		AutOrder string   `json:"aut_order"`
	}
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	s := g.Stats()
	if len(v.Nodes) != s.Vertices || len(v.Edges) != s.Edges || v.AutOrder != "8" {
		t.Errorf("JSON has %d nodes, %d edges, aut_order %q; want %d, %d, \"8\"", len(v.Nodes), len(v.Edges), v.AutOrder, s.Vertices, s.Edges)
	}
	if n := v.Nodes[0]; n.ID != 0 || n.Kind != "prop" || n.Label != "(cell 1 1 b)" || n.Color != g.Color(0) {
		t.Errorf("node 0 = %+v", n)
	}
	kinds := map[string]int{}
	for _, n := range v.Nodes {
		kinds[n.Kind]++
	}
	want := map[string]int{"prop": 29, "action": 20, "role": 2, "goal": 6, "terminal": 1, "interaction": s.ByKind[groundgraph.Interaction]}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("%d %s nodes, want %d", kinds[k], k, n)
		}
	}
	for _, e := range v.Edges {
		if !slices.Contains(g.Out(e[0]), int32(e[1])) {
			t.Fatalf("edge %v not in the graph", e)
		}
	}
}

func TestWriteDOT(t *testing.T) {
	g := mustBuild(t, "testdata/goalFalse.kif", groundgraph.Options{})
	var b bytes.Buffer
	if err := g.WriteDOT(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "digraph ") || !strings.HasSuffix(out, "}\n") {
		t.Errorf("WriteDOT output is not a digraph:\n%s", out)
	}
	if got, want := strings.Count(out, " -> "), g.Stats().Edges; got != want {
		t.Errorf("WriteDOT wrote %d arcs, want %d", got, want)
	}
	if !strings.Contains(out, `label="(does robot (press a))\n`) {
		t.Errorf("WriteDOT lacks the label of (does robot (press a)):\n%s", out)
	}
}

func TestLabelsAndVertices(t *testing.T) {
	g := mustBuild(t, ticTacToe, groundgraph.Options{})
	p := g.Program()
	xr, _ := p.RoleID("xplayer")
	gv, ok := g.GoalVertex(xr, 100)
	if !ok {
		t.Fatal("no goal vertex (xplayer, 100)")
	}
	var labelTests = []struct {
		v    int
		kind groundgraph.Kind
		want string
	}{
		{propVertex(t, g, "(cell 2 2 x)"), groundgraph.Prop, "(cell 2 2 x)"},
		{actionVertex(t, g, "oplayer", "noop"), groundgraph.Action, "(does oplayer noop)"},
		{g.RoleVertex(xr), groundgraph.Role, "xplayer"},
		{gv, groundgraph.Goal, "(goal xplayer 100)"},
		{g.TerminalVertex(), groundgraph.Terminal, "terminal"},
	}
	for _, tc := range labelTests {
		if got := g.Label(tc.v); got != tc.want || g.Vertex(tc.v).Kind != tc.kind {
			t.Errorf("Label(%d) = %q (%v), want %q (%v)", tc.v, got, g.Vertex(tc.v).Kind, tc.want, tc.kind)
		}
	}
	// Interaction vertices name their function and propositions.
	n := 0
	for v := range g.Order() {
		x := g.Vertex(v)
		if x.Kind != groundgraph.Interaction {
			continue
		}
		n++
		if g.Vertex(x.Pair[0]).Kind != groundgraph.Prop || g.Vertex(x.Pair[1]).Kind != groundgraph.Prop {
			t.Fatalf("interaction %d pairs %v", v, x.Pair)
		}
		if l := g.Label(v); !strings.HasPrefix(l, "(interaction (goal ") {
			t.Errorf("Label(%d) = %q", v, l)
		}
	}
	if n == 0 {
		t.Error("no interaction vertices")
	}
}

func TestBuildCancelled(t *testing.T) {
	p := mustLoad(t, ticTacToe)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := groundgraph.Build(ctx, p, groundgraph.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Build(cancelled) = %v, want context.Canceled", err)
	}
}

func TestBuildMalformed(t *testing.T) {
	p := mustLoad(t, ticTacToe)
	bad := *p
	bad.Next = bad.Next[:3]
	if _, err := groundgraph.Build(context.Background(), &bad, groundgraph.Options{}); err == nil {
		t.Error("Build(program with 3 next functions) = nil error")
	}
	if _, err := groundgraph.Build(context.Background(), nil, groundgraph.Options{}); err == nil {
		t.Error("Build(nil) = nil error")
	}
}

// autTests are games with known symmetries: the automorphism group of the
// coloured graph must be exactly the game's symmetry group (each of its
// elements is checked to be a symmetry by satcheck).
var autTests = []struct {
	game  string
	order int64
}{
	{ticTacToe, 8},                // the board's dihedral group
	{sum15, 8},                    // the magic square's
	{"ggp-base/tictactoe.kif", 8}, // another encoding of Tic-tac-toe
	{connectFour, 2},              // the left-right mirror
	{"ggp-base-repo/maze.kif", 1}, // no symmetry
	// Games whose graph groups were far larger than their symmetry groups
	// before influence vertices (lightsout 5.6e20, the 3D board 2.5e31),
	// corner pairs (lightsOnParallel 16!) and corners of six
	// (ticTacToeLarge 25!).
	{"ggp-base/lightsout.kif", 1},                   // the initial lights
	{"ggp-base/tictactoe_3d_small_2player.kif", 48}, // the cube's group
	{"ggp-base/lightsOnParallel.kif", 7962624},      // cells within quadrants, and the quadrants: 4!^4·4!
	{"ggp-base/ticTacToeLarge.kif", 32},
	{"ggp-base/connect5.kif", 8}, // lines of five on 8x8: was 1.3e89 before the corner budgets grew
}

func TestAutomorphismOrders(t *testing.T) {
	for _, tc := range autTests {
		t.Run(tc.game, func(t *testing.T) {
			g := mustBuild(t, tc.game, groundgraph.Options{})
			gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if gr.Order.Cmp(big.NewInt(tc.order)) != 0 {
				t.Errorf("automorphism group order = %v, want %d", gr.Order, tc.order)
			}
			// Every automorphism is a true symmetry of the game: every
			// element of a small group, the generators of a large one
			// (symmetries compose).
			p := g.Program()
			elems := gr.Elements()
			if gr.Order.Cmp(big.NewInt(1000)) > 0 {
				elems = func(yield func(isomorph.Perm) bool) {
					for _, s := range gr.Generators {
						if !yield(s.Dense(make(isomorph.Perm, g.Order()))) {
							return
						}
					}
				}
			}
			for perm := range elems {
				sm, err := g.Mapping(g, isomorph.Mapping(perm))
				if err != nil {
					t.Fatal(err)
				}
				res, err := satcheck.Verify(context.Background(), p, p, sm, satcheck.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != satcheck.Equivalent {
					t.Errorf("an automorphism is not a symmetry: %v", res)
				}
			}
			s := g.Stats()
			t.Logf("%d vertices, %d edges, %d colours; |Aut| = %v from %d search nodes, %d leaves; build %v",
				s.Vertices, s.Edges, s.Colors, gr.Order, gr.Stats.Nodes, gr.Stats.Leaves, s.Total)
		})
	}
}

// TestAllIsomorphismsVerified enumerates every isomorphism between the
// graphs of Tic-tac-toe and Number Scrabble with isomorph.All and
// isomorph.Search: there are 8 (the board's symmetries composed with the
// magic square), and satcheck confirms each one is an equivalence.
func TestAllIsomorphismsVerified(t *testing.T) {
	ctx := context.Background()
	ga := mustBuild(t, ticTacToe, groundgraph.Options{})
	gb := mustBuild(t, sum15, groundgraph.Options{})
	checker, err := satcheck.NewChecker(ga.Program(), gb.Program(), satcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	enumerators := []struct {
		name string
		seq  iter.Seq2[isomorph.Mapping, error]
	}{
		{"All", isomorph.All(ctx, ga, gb, isomorph.Limits{})},
		{"Search", isomorph.Search(ctx, ga, gb, isomorph.Limits{}, nil)},
	}
	for _, e := range enumerators {
		t.Run(e.name, func(t *testing.T) {
			n := 0
			for m, err := range e.seq {
				if err != nil {
					t.Fatal(err)
				}
				n++
				sm, err := ga.Mapping(gb, m)
				if err != nil {
					t.Fatal(err)
				}
				res, err := checker.Verify(ctx, sm)
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != satcheck.Equivalent {
					t.Errorf("isomorphism %d is not an equivalence: %v", n, res)
				}
			}
			if n != 8 {
				t.Errorf("%s yielded %d isomorphisms, want 8", e.name, n)
			}
		})
	}
}

// TestResidueTables checks that inputs simulation cannot show to matter
// (the redundant variant's literals are read but change nothing) are
// settled by a truth table instead of SAT where the table is small enough,
// with the same graph as SAT's. One cone (28 propositions: 88 M
// gate-words) is over the default bound and still goes to SAT.
func TestResidueTables(t *testing.T) {
	noTables := groundgraph.Options{SupportTableBits: -1, MaxBDDNodes: -1}
	a := mustBuild(t, ticTacToeRedund, noTables)
	noTables.MaxResidueTableWork = -1
	b := mustBuild(t, ticTacToeRedund, noTables)
	sa, sb := a.Stats(), b.Stats()
	if sa.ResidueTables == 0 || sa.DependsOnCalls >= sb.DependsOnCalls {
		t.Errorf("Build(ticTacToeRedundant): %d residue tables and %d SAT questions, %d without tables; want tables and fewer questions", sa.ResidueTables, sa.DependsOnCalls, sb.DependsOnCalls)
	}
	if da, db := graphDigest(t, a), graphDigest(t, b); da != db {
		t.Errorf("graph with residue tables %s, with SAT %s; want the same", da, db)
	}
}

// TestSupportBDDs checks that the supports of functions of the state are
// read off their BDDs, without SAT, with the same graph as SAT's: the
// redundant variant's literals are read but change nothing, so simulation
// alone cannot settle them.
func TestSupportBDDs(t *testing.T) {
	opt := groundgraph.Options{SupportTableBits: -1, MaxResidueTableWork: -1}
	a := mustBuild(t, ticTacToeRedund, opt)
	opt.MaxBDDNodes = -1
	b := mustBuild(t, ticTacToeRedund, opt)
	sa, sb := a.Stats(), b.Stats()
	if sa.SupportBDDs == 0 || sa.DependsOnCalls != 0 || sb.DependsOnCalls == 0 {
		t.Errorf("Build(ticTacToeRedundant): %d BDDs and %d SAT questions, %d without BDDs; want BDDs and no questions", sa.SupportBDDs, sa.DependsOnCalls, sb.DependsOnCalls)
	}
	if da, db := graphDigest(t, a), graphDigest(t, b); da != db {
		t.Errorf("graph with BDDs %s, with SAT %s; want the same", da, db)
	}
}
