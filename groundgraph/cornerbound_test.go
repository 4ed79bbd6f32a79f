package groundgraph

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/gamegen"
	"github.com/gamequiv/gamequiv/grounding"
)

// TestFlipBound checks flipBound against brute force on random circuits:
// the fewest semantic propositions whose flip from the anchor changes the
// root is never below the bound, with and without support packing, every
// set of that many flips that changes it lies within a family, and every
// changing set holds one of the root's flip cores.
func TestFlipBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	above1, withFamilies, inProducts := 0, 0, 0
	withCores, coreSets := 0, 0
	for trial := range 800 {
		// Random gates, then circuits of lines in groups of inputs.
		c, root := randomCircuit(rng)
		if trial >= 400 {
			c, root = linesCircuit(rng)
		}
		cn, err := newCone(c, root)
		if err != nil {
			t.Fatal(err)
		}
		// Semantic propositions: a random subset of the cone's inputs; one
		// other input may be fixed true (a next function's move).
		w := &cornersWork{cn: cn}
		for k, in := range cn.Inputs {
			switch rng.IntN(6) {
			case 0:
			case 1:
				w.on = append(w.on, k)
			default:
				w.props = append(w.props, in)
			}
		}
		if len(w.props) == 0 {
			continue
		}
		anchor := rng.IntN(2) == 1
		pos, s, _, _, f0 := w.atAnchor(anchor)
		// Brute force over every subset of the semantic propositions.
		best := len(pos) + 1
		var changing []uint64
		for m := uint64(1); m < 1<<len(pos); m++ {
			out, _ := cn.Simulate(1, func(k int) []uint64 {
				v := slices.Contains(w.on, k)
				if j := slices.Index(pos, k); j >= 0 {
					v = anchor != (m>>j&1 == 1)
				}
				if v {
					return []uint64{1}
				}
				return nil
			}, nil, nil)
			if (out[0]&1 == 1) != f0 {
				best = min(best, bits.OnesCount64(m))
				changing = append(changing, m)
			}
		}
		limit := len(pos) + 1
		for _, words := range []int{maxBoundWords, 0} {
			if b := flipBound(cn, s, pos, limit, words); b > best {
				t.Fatalf("trial %d: flipBound(words %d) = %d, but %d flips change the root", trial, words, b, best)
			}
		}
		if flipBound(cn, s, pos, limit, maxBoundWords) > 1 {
			above1++
		}
		// Every changing set of lb(root) propositions lies within the
		// support of one of the families.
		bd := flipBounds(cn, s, pos, limit, maxBoundWords)
		fam := bd.families()
		if bd.root() < limit && fam == nil {
			t.Fatalf("trial %d: no families", trial)
		}
		// Every changing set of at most d flips holds a core.
		for _, d := range []int{2, 3, len(pos)} {
			cores, ok := flipCores(cn, bd.val, pos, d)
			if !ok {
				continue
			}
			withCores++
			for _, m := range changing {
				if bits.OnesCount64(m) > d {
					continue
				}
				held := false
				for i := range cores.count() {
					held = held || cores.at(i)[0]&^m == 0
				}
				if !held {
					t.Fatalf("trial %d: changing set %b holds none of the cores %b (d = %d)", trial, m, cores.sets, d)
				}
				coreSets++
			}
		}
		// The sets each enumerates, within size.
		listed := map[uint64]bool{}
		if fam != nil {
			for _, f := range fam.root {
				fam.each(f, make([]int, 0, 64), func(set []int) bool {
					var m uint64
					for _, x := range set {
						m |= 1 << x
					}
					listed[m] = true
					return true
				})
			}
			if n := fam.size(fam.root); int64(len(listed)) > n {
				t.Fatalf("trial %d: families list %d sets, size says %d", trial, len(listed), n)
			}
		}
		for _, m := range changing {
			if bits.OnesCount64(m) != bd.root() {
				continue
			}
			if !listed[m] {
				t.Fatalf("trial %d: changing set %b of %d flips not enumerated by the families", trial, m, bd.root())
			}
			in := false
			for _, f := range fam.root {
				if inFamily(fam, f, m) {
					in = true
					if f.reqs != nil {
						inProducts++
					}
				}
			}
			if !in {
				t.Fatalf("trial %d: changing set %b of %d flips in no family of %v", trial, m, bd.root(), fam)
			}
			withFamilies++
		}
	}
	if withCores < 1000 || coreSets < 5000 {
		t.Errorf("flipCores answered %d times, %d changing sets checked: the test no longer exercises them", withCores, coreSets)
	}
	if above1 < 40 || withFamilies < 100 || inProducts < 20 {
		t.Errorf("the bound exceeded 1 in %d trials, %d sets were checked against families, %d in products: the test no longer exercises them", above1, withFamilies, inProducts)
	}
	t.Logf("bound above 1 in %d trials, %d sets in families, %d in products; cores %d times, %d sets", above1, withFamilies, inProducts, withCores, coreSets)
}

// randomCircuit returns a circuit of random gates over 2..11 inputs and
// its last gate, of random sign.
func randomCircuit(rng *rand.Rand) (*grounding.Circuit, grounding.Lit) {
	n := 2 + rng.IntN(10)
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	for node := n + 1; node < n+1+1+rng.IntN(25); node++ {
		var fs []grounding.Lit
		for range 1 + rng.IntN(5) {
			fs = append(fs, grounding.Lit(1+rng.IntN(node-1))<<1|grounding.Lit(rng.IntN(2)))
		}
		addGate(c, fs)
	}
	return c, grounding.Lit(c.NumNodes()-1)<<1 | grounding.Lit(rng.IntN(2))
}

// linesCircuit returns a circuit like Tic-tac-toe's terminal: the inputs
// (4..15) fall into 2..3 groups, each with 1..4 "lines" (ANDs of 1..3
// of its inputs, of random signs), the root is true when some line
// holds, through a gate per group (and sometimes a gate above it), or
// true when no line holds.
func linesCircuit(rng *rand.Rand) (*grounding.Circuit, grounding.Lit) {
	n := 4 + rng.IntN(12)
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	in := rng.Perm(n)
	groups := 2 + rng.IntN(2)
	var top []grounding.Lit
	for g := range groups {
		members := in[g*n/groups : (g+1)*n/groups]
		var noLine []grounding.Lit
		for range 1 + rng.IntN(4) {
			var fs []grounding.Lit
			for range 1 + rng.IntN(3) {
				fs = append(fs, grounding.Lit(1+members[rng.IntN(len(members))])<<1|grounding.Lit(rng.IntN(2)))
			}
			noLine = append(noLine, addGate(c, fs)|1)
		}
		none := addGate(c, noLine) // no line of the group holds
		if rng.IntN(2) == 0 {
			none = addGate(c, []grounding.Lit{none})
		}
		top = append(top, none)
	}
	return c, addGate(c, top) | grounding.Lit(rng.IntN(2))
}

// addGate appends an AND of the literals fs (deduplicated by node) to c
// and returns its positive literal.
func addGate(c *grounding.Circuit, fs []grounding.Lit) grounding.Lit {
	slices.Sort(fs)
	fs = slices.CompactFunc(fs, func(a, b grounding.Lit) bool { return a.Node() == b.Node() })
	c.Fanin = append(c.Fanin, fs...)
	c.Start = append(c.Start, int32(len(c.Fanin)))
	return grounding.Lit(c.NumNodes()-1) << 1
}

// inFamily reports whether the set m (positions < 64) is one of the
// family's: a subset of lb(slot) positions of a leaf's support, or for a
// product, a union of one set of each requirement's families.
func inFamily(fs *families, f family, m uint64) bool {
	bd := fs.bd
	sup := func(slot int) uint64 { return bd.sup[slot*bd.nw] }
	if f.reqs == nil {
		return m&^sup(f.slot) == 0 && bits.OnesCount64(m) == bd.lb[f.slot]
	}
	var union uint64
	for _, r := range f.reqs {
		s := sup(int(r >> 1))
		in := false
		for _, g := range fs.of[int(r>>1)] {
			in = in || inFamily(fs, g, m&s)
		}
		if !in {
			return false
		}
		union |= s
	}
	return m&^union == 0
}

// TestCornersSkipBoundedLevels checks that a corner search evaluates no
// level the flip bound rules out: from the all-true state, "a line of x"
// on Connect Four's 7x6 board changes only when at least one cell of each
// of its disjoint lines is emptied (more than 6), so the search up to
// radius 6 costs the anchor's evaluation alone and finds nothing.
func TestCornersSkipBoundedLevels(t *testing.T) {
	p, err := grounding.Load(context.Background(), "connect4-7x6", gamegen.ConnectK(4, 7, 6), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var line *FuncFeatures
	for _, ff := range g.Functions() {
		if f := ff.Function; f.Kind == grounding.FuncGoal && f.Role == 0 && f.Index == 100 {
			line = &ff
		}
	}
	if line == nil || line.nProps != 42 {
		t.Fatalf("goal 100 of role 0: %+v, want a function of the 42 cells of role 0", line)
	}
	cn, err := newCone(&p.Circuit, line.Function.Lit)
	if err != nil {
		t.Fatal(err)
	}
	w := &cornersWork{cn: cn, d: 6, max: DefaultMaxCorners}
	for _, in := range line.Support.Inputs() {
		w.props = append(w.props, int32(in))
	}
	cs, tooMany, err := w.run(context.Background(), true)
	if err != nil || tooMany || len(cs) != 0 {
		t.Fatalf("run from all-true = %v, %v, %v; want no corners", cs, tooMany, err)
	}
	if want := int64(len(cn.Gates)); w.ops != want {
		t.Errorf("run from all-true evaluated %d gate-words, want %d (the anchor only)", w.ops, want)
	}
	if !w.wantMore {
		t.Errorf("wantMore = false, want true (no corners up to radius 6 of 42 propositions)")
	}
	// From the empty state the bound is 4 and level 4 is evaluated on
	// the families alone, the 69 lines: two words, not C(42,4) points.
	w = &cornersWork{cn: cn, d: 4, max: DefaultMaxCorners, props: w.props}
	cs, tooMany, err = w.run(context.Background(), false)
	if err != nil || tooMany || len(cs) != 69 {
		t.Fatalf("run from empty = %d corners, %v, %v; want the 69 lines", len(cs), tooMany, err)
	}
	if want := int64(3 * len(cn.Gates)); w.ops > want {
		t.Errorf("run from empty evaluated %d gate-words, want at most %d", w.ops, want)
	}
}

// TestTerminalCornersFromTrue checks the product families on Tic-tac-toe's
// terminal from the all-true state: it turns false only when every line of
// x and every line of o is broken, at least 3 + 3 cells (bound 6), and the
// corners are the four unions of a smallest blocking set of x (the centre
// and two opposite corners) and one of o. Level 6 is evaluated on the
// products of one cell per row for x and for o (729 sets, 12 words),
// not C(27,6) points.
func TestTerminalCornersFromTrue(t *testing.T) {
	p, cn, w, cs := terminalCornersFromTrue(t, "ggp-base-repo/ticTacToe.kif")
	var got []string
	for _, c := range cs {
		var names []string
		for _, j := range c {
			names = append(names, p.Props[w.props[j]])
		}
		slices.Sort(names)
		got = append(got, strings.Join(names, " "))
	}
	var want []string
	for _, x := range []string{"1 1,3 3", "1 3,3 1"} {
		for _, o := range []string{"1 1,3 3", "1 3,3 1"} {
			var names []string
			for m, diag := range map[string]string{"x": x, "o": o} {
				for _, c := range append(strings.Split(diag, ","), "2 2") {
					names = append(names, "(cell "+c+" "+m+")")
				}
			}
			slices.Sort(names)
			want = append(want, strings.Join(names, " "))
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("corners from all-true:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if max := int64(16 * len(cn.Gates)); w.ops > max {
		t.Errorf("run from all-true evaluated %d gate-words, want at most %d", w.ops, max)
	}
}

// terminalCornersFromTrue builds the graph of a game whose terminal reads
// 27 propositions and runs the corner search of the terminal from the
// all-true state at radius 6.
func terminalCornersFromTrue(t *testing.T, path string) (*grounding.Program, *cone, *cornersWork, [][]int) {
	t.Helper()
	p, g := loadBuild(t, path, Options{})
	var term *FuncFeatures
	for i := range g.funcs {
		if g.funcs[i].Function.Kind == grounding.FuncTerminal {
			term = &g.funcs[i]
		}
	}
	if term == nil || term.nProps != 27 {
		t.Fatalf("terminal: %+v, want a function of 27 propositions", term)
	}
	cn, err := newCone(&p.Circuit, term.Function.Lit)
	if err != nil {
		t.Fatal(err)
	}
	w := &cornersWork{cn: cn, d: 6, max: DefaultMaxCorners}
	for _, in := range term.Support.Props() {
		w.props = append(w.props, int32(in))
	}
	cs, tooMany, err := w.run(context.Background(), true)
	if err != nil || tooMany {
		t.Fatalf("run from all-true = %v, %v", tooMany, err)
	}
	return p, cn, w, cs
}

// TestSum15TerminalCores checks the flip cores on Number Scrabble's
// terminal from the all-true state, whose flip bound is only 2 (its
// triples are grouped by their smallest number, and few groups have
// disjoint supports): it changes only when every triple of both players
// is broken, so level 5 holds no core and is not evaluated, and level 6
// only on the sets that hold a core (levels 3 and 4, a batch each, are
// searched before the cores are computed).
func TestSum15TerminalCores(t *testing.T) {
	_, cn, w, cs := terminalCornersFromTrue(t, "ggp-base/sum15.kif")
	if len(cs) != 4 {
		t.Fatalf("run from all-true = %v; want 4 corners", cs)
	}
	for _, c := range cs {
		if len(c) != 6 {
			t.Errorf("corner %v, want 6 propositions", c)
		}
	}
	// Without cores: levels 3 to 6 in full, 87,759 gate-words; with
	// them levels 3 and 4 (one batch each) and the cores of level 6.
	if max := int64(256 * len(cn.Gates)); w.ops > max {
		t.Errorf("run from all-true evaluated %d gate-words, want at most %d", w.ops, max)
	}
}

// TestFlipBoundPastFlattenBudget: a gate reached after the false gates
// below it have spent the flattening budget still reads its own fanins.
// The chain g_i = g_{i-1} ∧ x0 (g_0 = z ∧ x0, z fixed false) flattens
// quadratically; the root ¬g_L ∧ ¬x2 changes when x2 alone flips from the
// all-true state, so its bound is 1 and {x2} is its corner (the bound was
// the cap, and the search skipped the level).
func TestFlipBoundPastFlattenBudget(t *testing.T) {
	const chain = 60
	// Inputs: z (node 1), x0, x1, x2 (nodes 2..4).
	c := &grounding.Circuit{NumInputs: 4, Start: make([]int32, 4+2)}
	z, x0, x2 := grounding.Lit(1)<<1, grounding.Lit(2)<<1, grounding.Lit(4)<<1
	g := addGate(c, []grounding.Lit{z, x0})
	for range chain {
		g = addGate(c, []grounding.Lit{g, x0})
	}
	root := addGate(c, []grounding.Lit{g | 1, x2 | 1})
	cn, err := newCone(c, root)
	if err != nil {
		t.Fatal(err)
	}
	w := &cornersWork{cn: cn, d: 2, max: DefaultMaxCorners}
	for _, in := range cn.Inputs {
		if in != 0 { // z stays out: fixed false
			w.props = append(w.props, in)
		}
	}
	pos, s, _, _, _ := w.atAnchor(true)
	if got := flipBound(cn, s, pos, 3, maxBoundWords); got != 1 {
		t.Errorf("flipBound = %d, want 1", got)
	}
	cs, tooMany, err := w.run(context.Background(), true)
	if want := [][]int{{len(w.props) - 1}}; err != nil || tooMany || !slices.EqualFunc(cs, want, slices.Equal) {
		t.Errorf("corners from all true = %v %v %v, want %v", cs, tooMany, err, want)
	}
}
