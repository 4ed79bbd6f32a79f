package grounding_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// randomCircuit builds a circuit of n inputs and g AND gates, each reading
// two or three earlier nodes with random negations.
func randomCircuit(rng *rand.Rand, n, g int) *grounding.Circuit {
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	for node := n + 1; node < n+1+g; node++ {
		var fs []grounding.Lit
		for range 2 + rng.IntN(2) {
			m := 1 + rng.IntN(node-1)
			fs = append(fs, grounding.Lit(m)<<1|grounding.Lit(rng.IntN(2)))
		}
		slices.Sort(fs)
		fs = slices.CompactFunc(fs, func(a, b grounding.Lit) bool { return a.Node() == b.Node() })
		c.Fanin = append(c.Fanin, fs...)
		c.Start = append(c.Start, int32(len(c.Fanin)))
	}
	return c
}

// TestConeToolkit checks Cone, Fanout, ConeSim.Eval, Flip and Simulate
// against Circuit.Eval on random circuits and random inputs.
func TestConeToolkit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(10)
		c := randomCircuit(rng, n, 1+rng.IntN(40))
		root := grounding.Lit(c.NumNodes()-1)<<1 | grounding.Lit(rng.IntN(2))
		cn, err := grounding.NewCone(c, root)
		if err != nil {
			t.Fatal(err)
		}
		if want := c.Support(root); !slices.Equal(toInts(cn.Inputs), want) {
			t.Fatalf("trial %d: cone inputs %v, Support %v", trial, cn.Inputs, want)
		}
		// Fanout against a forward sweep.
		var buf []int32
		for k := range cn.Inputs {
			reached := make([]bool, cn.NumSlots())
			reached[1+k] = true
			var want []int32
			for gi := range cn.Gates {
				for _, l := range cn.GateFanin(gi) {
					if reached[l>>1] {
						reached[cn.FirstGate()+gi] = true
						want = append(want, int32(gi))
						break
					}
				}
			}
			buf = cn.Fanout(k, buf)
			if !slices.Equal(buf, want) && !(len(buf) == 0 && len(want) == 0) {
				t.Fatalf("trial %d: Fanout(%d) = %v, want %v", trial, k, buf, want)
			}
		}
		// 64 random assignments, one per bit.
		const w = 1
		s := grounding.NewConeSim(cn, w)
		rows := make([][]bool, 64)
		for b := range rows {
			rows[b] = make([]bool, n)
			for i := range n {
				rows[b][i] = rng.IntN(2) == 1
			}
		}
		for k, in := range cn.Inputs {
			for b := range rows {
				if rows[b][in] {
					s.In(k)[0] |= 1 << b
				}
			}
		}
		out := make([]uint64, w)
		s.Eval(out)
		sim, _ := cn.Simulate(w, func(k int) []uint64 { return s.In(k) }, nil, nil)
		for b, row := range rows {
			want := grounding.Value(c.Eval(row, nil), root)
			if got := out[0]>>b&1 == 1; got != want {
				t.Fatalf("trial %d: Eval bit %d = %v, want %v", trial, b, got, want)
			}
			if got := sim[0]>>b&1 == 1; got != want {
				t.Fatalf("trial %d: Simulate bit %d = %v, want %v", trial, b, got, want)
			}
		}
		flipped := make([]uint64, w)
		for k, in := range cn.Inputs {
			s.Flip(k, w, flipped)
			for b, row := range rows {
				r := slices.Clone(row)
				r[in] = !r[in]
				want := grounding.Value(c.Eval(r, nil), root)
				if got := flipped[0]>>b&1 == 1; got != want {
					t.Fatalf("trial %d: Flip(%d) bit %d = %v, want %v", trial, k, b, got, want)
				}
			}
		}
	}
}

func toInts(xs []int32) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

// TestNewConeRejectsMalformed: a fanin that is not below its gate is an
// error, not a crash.
func TestNewConeRejectsMalformed(t *testing.T) {
	c := &grounding.Circuit{NumInputs: 1, Start: []int32{0, 0, 0, 2}, Fanin: []grounding.Lit{2, 6}}
	if _, err := grounding.NewCone(c, 4); err == nil {
		t.Errorf("NewCone accepted a gate reading itself")
	}
	if _, err := grounding.NewCone(c, 100); err == nil {
		t.Errorf("NewCone accepted a literal beyond the circuit")
	}
}

// TestStrashIndex finds every gate of a circuit by its fanins.
func TestStrashIndex(t *testing.T) {
	c := randomCircuit(rand.New(rand.NewPCG(3, 4)), 6, 50)
	x := grounding.NewStrashIndex(c)
	for g := c.NumInputs + 1; g < c.NumNodes(); g++ {
		l, ok := x.Find(c.Fanins(g))
		if !ok || !slices.Equal(c.Fanins(l.Node()), c.Fanins(g)) {
			t.Fatalf("Find(fanins of %d) = %d, %v", g, l, ok)
		}
	}
	if _, ok := x.Find([]grounding.Lit{2, 4, 6, 8, 10, 12, 14}); ok {
		t.Errorf("Find of fanins no gate has succeeded")
	}
}

// TestConeClone checks that clones of a cone, used at once from several
// goroutines (run with -race), each build their own fanout index: every
// clone's Fanout of every input equals the original's.
func TestConeClone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	c := randomCircuit(rng, 12, 200)
	cn, err := grounding.NewCone(c, grounding.Lit(c.NumNodes()-1)<<1)
	if err != nil {
		t.Fatal(err)
	}
	want := make([][]int32, len(cn.Inputs))
	for k := range cn.Inputs {
		want[k] = cn.Fanout(k, nil)
	}
	errs := make(chan string, 4)
	for range 4 {
		go func() {
			cl := cn.Clone()
			for k := range cl.Inputs {
				if got := cl.Fanout(k, nil); !slices.Equal(got, want[k]) {
					errs <- fmt.Sprintf("clone's Fanout(%d) = %v, want %v", k, got, want[k])
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

// TestNewConeAllocs checks that building the cone of a wide gate
// allocates the cone and little else: a map per walk made most of the
// cost of amazons' cones (172,000 action inputs per next function).
func TestNewConeAllocs(t *testing.T) {
	const n = 10000
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	for i := 1; i <= n; i++ {
		c.Fanin = append(c.Fanin, grounding.Lit(i)<<1|1)
	}
	c.Start = append(c.Start, int32(len(c.Fanin)))
	c.Fanin = append(c.Fanin, grounding.Lit(1)<<1, grounding.Lit(n+1)<<1)
	c.Start = append(c.Start, int32(len(c.Fanin)))
	root := grounding.Lit(n+2) << 1
	var cn *grounding.Cone
	allocs := testing.AllocsPerRun(20, func() {
		var err error
		if cn, err = grounding.NewCone(c, root); err != nil {
			t.Fatal(err)
		}
	})
	if len(cn.Inputs) != n || len(cn.Gates) != 2 {
		t.Fatalf("cone of %d inputs and %d gates, want %d and 2", len(cn.Inputs), len(cn.Gates), n)
	}
	// The cone's own slices: Inputs, Gates, Start, Fanin and the Cone.
	if allocs > 8 {
		t.Errorf("NewCone: %.0f allocations, want at most 8", allocs)
	}
}

// TestNewConeAfterError checks that a walk stopped by a malformed circuit
// leaves the shared scratch space clean for the next walk.
func TestNewConeAfterError(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	bad := &grounding.Circuit{NumInputs: 2, Start: []int32{0, 0, 0, 0, 2}, Fanin: []grounding.Lit{2, 8}}
	for trial := range 50 {
		if _, err := grounding.NewCone(bad, 3<<1); err == nil {
			t.Fatal("NewCone of a gate reading itself: no error")
		}
		c := randomCircuit(rng, 1+rng.IntN(10), 1+rng.IntN(40))
		root := grounding.Lit(c.NumNodes()-1) << 1
		cn, err := grounding.NewCone(c, root)
		if err != nil {
			t.Fatal(err)
		}
		if want := c.Support(root); !slices.Equal(toInts(cn.Inputs), want) {
			t.Fatalf("trial %d: cone inputs %v, Support %v", trial, cn.Inputs, want)
		}
	}
}

// TestCachedFanoutBytes checks that the fanout cache of a cone with many
// inputs costs a few bytes per input (an offset), not a slice header each
// (amazons' cones: 172,000 inputs, of which simulation flips a few dozen).
func TestCachedFanoutBytes(t *testing.T) {
	const n = 10000
	c := &grounding.Circuit{NumInputs: n, Start: make([]int32, n+2)}
	for i := 1; i <= n; i++ {
		c.Fanin = append(c.Fanin, grounding.Lit(i)<<1|1)
	}
	c.Start = append(c.Start, int32(len(c.Fanin)))
	cn, err := grounding.NewCone(c, grounding.Lit(n+1)<<1)
	if err != nil {
		t.Fatal(err)
	}
	cn.Fanout(0, nil) // the fanout index, built once whatever the cache
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	var buf []int32
	for k := range 16 {
		buf = cn.CachedFanout(k, buf)
		if len(buf) != 1 || buf[0] != 0 {
			t.Fatalf("CachedFanout(%d) = %v, want [0]", k, buf)
		}
	}
	if fo := cn.CachedFanout(3, nil); len(fo) != 1 || fo[0] != 0 {
		t.Fatalf("CachedFanout(3) from the cache = %v, want [0]", fo)
	}
	runtime.ReadMemStats(&m1)
	if perInput := float64(m1.TotalAlloc-m0.TotalAlloc) / n; perInput > 8 {
		t.Errorf("fanout cache: %.1f bytes per cone input, want at most 8", perInput)
	}
}
