package satcheck

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestSupportRuns: a side's support of every gate is its cone's inputs,
// on the first call and from the cache, whether the cache keeps a plain
// list or runs; functions that read long blocks of inputs are kept as runs.
func TestSupportRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 11))
	for trial := range 50 {
		nProps := 40 + rng.IntN(200)
		c := grounding.Circuit{NumInputs: nProps, Start: make([]int32, nProps+2)}
		pool := []grounding.Lit{}
		for i := range nProps {
			pool = append(pool, grounding.InputLit(i))
		}
		gate := func(fanin ...grounding.Lit) {
			c.Fanin = append(c.Fanin, fanin...)
			c.Start = append(c.Start, int32(len(c.Fanin)))
			pool = append(pool, grounding.Lit(c.NumNodes()-1)<<1)
		}
		for range 30 {
			if rng.IntN(3) == 0 { // a block of consecutive inputs
				first := rng.IntN(nProps)
				var in []grounding.Lit
				for i := first; i < min(nProps, first+1+rng.IntN(120)); i++ {
					in = append(in, grounding.InputLit(i))
				}
				gate(in...)
				continue
			}
			a, b := pool[rng.IntN(len(pool))], pool[rng.IntN(len(pool))]^grounding.Lit(rng.IntN(2))
			if a.Node() == b.Node() {
				continue
			}
			gate(min(a, b), max(a, b))
		}
		p := &grounding.Program{Name: "p", Props: make([]string, nProps), Circuit: c}
		s, err := newSide(p)
		if err != nil {
			t.Fatal(err)
		}
		for pass := range 2 {
			for _, l := range pool[nProps:] {
				want, _, err := grounding.CollectCone(&c, l)
				if err != nil {
					t.Fatal(err)
				}
				got, err := s.support(l)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("trial %d pass %d: support of %d is %v, want %v", trial, pass, l, got, want)
				}
			}
		}
		if trial == 0 && len(s.suppRuns) == 0 {
			t.Error("no support kept as runs")
		}
	}
}

// TestAppendSteps: the values read back from appendSteps' bytes are the
// values written, so two lists never share an encoding.
func TestAppendSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 500 {
		var xs []int64
		for range rng.IntN(40) {
			switch rng.IntN(3) {
			case 0:
				xs = append(xs, int64(rng.IntN(1000))-1)
			default: // a stepped block
				x, d := int64(rng.IntN(1000)), int64(rng.IntN(7))-3
				for range rng.IntN(20) {
					xs = append(xs, x)
					x += d
				}
			}
		}
		k := appendSteps([]byte{9}, len(xs), func(pos int) int64 { return xs[pos] })
		if k[0] != 9 {
			t.Fatal("appendSteps changed the prefix")
		}
		var got []int64
		if b := k[1:]; len(b) > 0 {
			x, n := binary.Varint(b)
			got, b = append(got, x), b[n:]
			for len(b) > 0 {
				d, n := binary.Varint(b)
				b = b[n:]
				run, m := binary.Uvarint(b)
				b = b[m:]
				for range run {
					x += d
					got = append(got, x)
				}
			}
		}
		if !slices.Equal(got, xs) {
			t.Fatalf("trial %d: read back %v, wrote %v", trial, got, xs)
		}
	}
}
