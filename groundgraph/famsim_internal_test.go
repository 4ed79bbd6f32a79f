package groundgraph

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// famCircuit returns a random circuit of n inputs whose gates read
// inputs and earlier gates, and roots random literals of its gates: the
// roots' cones overlap, as a family's do.
func famCircuit(rng *rand.Rand) (*grounding.Circuit, []grounding.Lit) {
	n := 2 + rng.IntN(9)
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	var gates []grounding.Lit
	for node := n + 1; node < n+1+1+rng.IntN(60); node++ {
		var fs []grounding.Lit
		for range 1 + rng.IntN(4) {
			fs = append(fs, grounding.Lit(1+rng.IntN(node-1))<<1|grounding.Lit(rng.IntN(2)))
		}
		gates = append(gates, addGate(c, fs))
	}
	var roots []grounding.Lit
	for range 1 + rng.IntN(8) {
		roots = append(roots, gates[rng.IntN(len(gates))]|grounding.Lit(rng.IntN(2)))
	}
	return c, roots
}

// TestFamSimFlip checks famSim.flip against evaluating the whole circuit
// again: flipping an input hits exactly the roots whose value changes on
// some sample.
func TestFamSimFlip(t *testing.T) { checkFamSimFlip(t, rand.New(rand.NewPCG(1, 2))) }

// TestFamSimFlipWide is TestFamSimFlip with every gate of two fanins or
// more wide: gates that share fanins with others read them as one AND per
// group (factor), the others are read off their zero levels when up to
// three of their fanins change, and re-read when more do.
func TestFamSimFlipWide(t *testing.T) {
	defer func(n int) { famWideFanin = n }(famWideFanin)
	famWideFanin = 2
	groups, wide := checkFamSimFlip(t, rand.New(rand.NewPCG(5, 6)))
	if groups == 0 || wide == 0 {
		t.Fatalf("%d circuits with groups of shared fanins, %d with zero levels: both paths must be tested", groups, wide)
	}
}

// checkFamSimFlip runs TestFamSimFlip's check on 200 random circuits and
// returns how many had groups of shared fanins and how many wide gates
// read off zero levels.
func checkFamSimFlip(t *testing.T, rng *rand.Rand) (groups, wide int) {
	t.Helper()
	for it := range 200 {
		c, roots := famCircuit(rng)
		const w = 2
		fs := newFamSim(c, roots, 1<<30, w, 1<<30)
		if fs == nil {
			t.Fatalf("circuit %d: no simulator", it)
		}
		fs.share()
		in := make([][]bool, 64*w) // samples of the circuit inputs
		for b := range in {
			in[b] = make([]bool, c.NumInputs)
			for i := range in[b] {
				in[b][i] = rng.IntN(2) == 1
			}
		}
		for k := range fs.nIn {
			v := fs.slot(1 + k)
			i := int(fs.node[1+k]) - 1
			for b := range in {
				if in[b][i] {
					v[b/64] |= 1 << (b % 64)
				}
			}
		}
		fs.eval()
		if fs.groups() > 0 {
			groups++
		}
		if fs.nWide > 0 && fs.zero != nil {
			wide++
		}
		sc := newFamFlip(fs)
		for k := range fs.nIn {
			var got []int
			fs.flip(sc, 1+k, func(j int32, _, _ []uint64) { got = append(got, int(j)) })
			slices.Sort(got)
			got = slices.Compact(got)
			i := int(fs.node[1+k]) - 1
			var want []int
			for j, r := range roots {
				for b := range in {
					before := grounding.Value(c.Eval(in[b], nil), r)
					in[b][i] = !in[b][i]
					after := grounding.Value(c.Eval(in[b], nil), r)
					in[b][i] = !in[b][i]
					if before != after {
						want = append(want, j)
						break
					}
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("circuit %d, input %d: flip hits roots %v, want %v", it, i, got, want)
			}
		}
	}
	return groups, wide
}

// TestFamSupportWitnesses checks that famSupport shows only inputs the
// roots depend on, and on circuits this small with 512 samples, all of
// them.
func TestFamSupportWitnesses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := range 100 {
		c, roots := famCircuit(rng)
		dep, words, err := famSupport(context.Background(), c, roots, 1<<30, 2, uint64(it), syntacticCones(c, roots, 2))
		if err != nil || dep == nil {
			t.Fatalf("circuit %d: famSupport = %v, %v", it, dep, err)
		}
		for j, r := range roots {
			want, ok := exactSupport(c, r)
			if !ok {
				t.Fatalf("circuit %d, root %d: syntactic support over 10 inputs", it, j)
			}
			if got := shown(dep, words, j, c.NumInputs); !slices.Equal(got, want) {
				t.Fatalf("circuit %d, root %d: famSupport shows %v, exact support %v", it, j, got, want)
			}
		}
	}
}

// TestFamSimBounds checks that newFamSim declines unions beyond its
// bounds: the slot words, and the share of the members' gates.
func TestFamSimBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	c, roots := famCircuit(rng)
	full := newFamSim(c, roots, 1<<30, 1, 1<<30)
	slots := len(full.node)
	if newFamSim(c, roots, 1<<30, 1, slots) == nil {
		t.Errorf("newFamSim with room for exactly %d slots declined", slots)
	}
	if newFamSim(c, roots, 1<<30, 1, slots-1) != nil {
		t.Errorf("newFamSim with room for %d of %d slots did not decline", slots-1, slots)
	}
	if newFamSim(c, roots, famMinShare*int64(slots), 1, 1<<30) == nil {
		t.Errorf("newFamSim with members of %d times the union's slots declined", famMinShare)
	}
	if newFamSim(c, roots, famMinShare*int64(slots)-1, 1, 1<<30) != nil {
		t.Errorf("newFamSim with members of less than %d times the union's slots did not decline", famMinShare)
	}
}

// exactSupport lists the inputs root depends on, by enumeration over its
// syntactic support (false when that has more than 10 inputs).
func exactSupport(c *grounding.Circuit, root grounding.Lit) ([]int, bool) {
	syn := c.Support(root)
	if len(syn) > 10 {
		return nil, false
	}
	x := make([]bool, c.NumInputs)
	var supp []int
	for _, i := range syn {
		for m := range 1 << len(syn) {
			for b, k := range syn {
				x[k] = m>>b&1 == 1
			}
			if x[i] {
				continue
			}
			before := grounding.Value(c.Eval(x, nil), root)
			x[i] = true
			after := grounding.Value(c.Eval(x, nil), root)
			x[i] = false
			if after != before {
				supp = append(supp, i)
				break
			}
		}
	}
	return supp, true
}

// syntacticCones is famSupport's coneInputs over c's syntactic supports,
// with every unknown-th root's cone unknown (all inputs may matter).
func syntacticCones(c *grounding.Circuit, roots []grounding.Lit, unknown int) func(j int) ([]int32, bool) {
	return func(j int) ([]int32, bool) {
		if j%unknown == 0 {
			return nil, false
		}
		var ins []int32
		for _, i := range c.Support(roots[j]) {
			ins = append(ins, int32(i))
		}
		return ins, true
	}
}

// shown lists the inputs dep (famSupport's result) shows for root j.
func shown(dep []uint64, words, j, nInputs int) []int {
	var got []int
	for i := range nInputs {
		if dep[j*words+i/64]>>(i%64)&1 == 1 {
			got = append(got, i)
		}
	}
	return got
}

// TestFamSupportRoundWork checks that famSupport declines a family whose
// first round could cost more than famMaxRoundWork: a wide circuit of
// many inputs and gates.
func TestFamSupportRoundWork(t *testing.T) {
	c, roots := wideFamily(1<<11, 1<<17)
	all := func(int) ([]int32, bool) { return nil, false }
	dep, _, err := famSupport(context.Background(), c, roots, 1<<40, 2, 1, all)
	if err != nil || dep != nil {
		t.Errorf("famSupport of %d inputs, %d gates = %v, %v; want it declined", c.NumInputs, c.NumGates(), dep != nil, err)
	}
	c, roots = wideFamily(1<<6, 1<<10)
	dep, _, err = famSupport(context.Background(), c, roots, 1<<40, 2, 1, all)
	if err != nil || dep == nil {
		t.Errorf("famSupport of %d inputs, %d gates = %v, %v; want it simulated", c.NumInputs, c.NumGates(), dep != nil, err)
	}
}

// wideFamily returns a circuit of n inputs and g gates, each gate the AND
// of two earlier nodes, and every gate as a root.
func wideFamily(n, g int) (*grounding.Circuit, []grounding.Lit) {
	rng := rand.New(rand.NewPCG(7, 8))
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	var roots []grounding.Lit
	for node := n + 1; node < n+1+g; node++ {
		a := grounding.Lit(1+rng.IntN(node-1)) << 1
		b := grounding.Lit(1+rng.IntN(node-1))<<1 | 1
		roots = append(roots, addGate(c, []grounding.Lit{a, b}))
	}
	return c, roots
}
