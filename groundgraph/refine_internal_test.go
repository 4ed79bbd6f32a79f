package groundgraph

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// refineColorsDef is refineColors as first written: one goroutine, every
// neighbour list sorted every round.
func refineColorsDef(out [][]int32, c []uint64) []uint64 {
	n := len(out)
	in := make([][]int32, n)
	for u, vs := range out {
		for _, v := range vs {
			in[v] = append(in[v], int32(u))
		}
	}
	distinct := func(c []uint64) int {
		s := slices.Clone(c)
		slices.Sort(s)
		return len(slices.Compact(s))
	}
	classes := distinct(c)
	for {
		next := make([]uint64, n)
		for v := range n {
			h := newHasher(tagRefine)
			h.add(c[v])
			var buf []uint64
			for _, w := range out[v] {
				buf = append(buf, c[w])
			}
			h.addMultiset(buf)
			buf = buf[:0]
			for _, w := range in[v] {
				buf = append(buf, c[w])
			}
			h.addMultiset(buf)
			next[v] = h.sum()
		}
		c = next
		k := distinct(c)
		if k <= classes {
			return c
		}
		classes = k
	}
}

// TestRefineColorsMatchesDefinition checks refineColors (neighbour lists
// sorted by one counting sort a round, several workers) against the plain definition on random
// digraphs with hubs of hundreds of neighbours, few initial colours.
func TestRefineColorsMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 40 {
		n := 50 + rng.IntN(1500)
		out := make([][]int32, n)
		hubs := 1 + rng.IntN(5)
		for u := range n {
			for range rng.IntN(4) {
				out[u] = append(out[u], int32(rng.IntN(n)))
			}
			if u >= hubs && rng.IntN(3) > 0 {
				out[u] = append(out[u], int32(rng.IntN(hubs))) // into a hub
			}
		}
		for u := range hubs {
			for range rng.IntN(n) {
				out[u] = append(out[u], int32(rng.IntN(n))) // out of a hub
			}
		}
		for u := range out {
			slices.Sort(out[u])
			out[u] = slices.Compact(out[u])
		}
		c := make([]uint64, n)
		for v := range c {
			c[v] = uint64(rng.IntN(3))
		}
		want := refineColorsDef(out, slices.Clone(c))
		for _, workers := range []int{1, 2, 5} {
			if got, err := refineColors(context.Background(), out, slices.Clone(c), workers); err != nil || !slices.Equal(got, want) {
				t.Fatalf("trial %d (n %d, %d workers): colours differ from the definition", trial, n, workers)
			}
		}
	}
}

// TestRefineColorsLongChains checks refineColors against the definition
// where refinement takes many rounds: directed paths of up to 300
// vertices (racer's positions: 51 rounds, a few classes split in each),
// a few random arcs, some doubled, hubs into and out of every path vertex
// (lists sorted by buckets, with equal colours in one bucket), one initial
// colour for the paths, a small integer or a hash.
func TestRefineColorsLongChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := range 6 {
		var out [][]int32
		for range 1 + rng.IntN(4) {
			l := 50 + rng.IntN(250)
			base := len(out)
			for i := range l {
				var vs []int32
				if i+1 < l {
					vs = append(vs, int32(base+i+1))
				}
				out = append(out, vs)
			}
		}
		n := len(out)
		for range rng.IntN(3) {
			u := rng.IntN(n)
			out[u] = append(out[u], int32(rng.IntN(n)))
			if rng.IntN(2) == 0 {
				out[u] = append(out[u], out[u][len(out[u])-1]) // a doubled arc
			}
		}
		// Hubs into and out of every path vertex, which splits no class
		// of the paths.
		for range 1 + rng.IntN(3) {
			hub := int32(len(out))
			var vs []int32
			for u := range n {
				vs = append(vs, int32(u))
				out[u] = append(out[u], hub)
			}
			out = append(out, vs)
		}
		c := make([]uint64, len(out))
		for v := range c {
			if v >= n {
				c[v] = 1 // a hub
			}
			if trial%2 == 1 {
				c[v] = mix64(c[v] + 1)
			}
		}
		want := refineColorsDef(out, slices.Clone(c))
		for _, workers := range []int{1, 2, 5} {
			in := slices.Clone(c)
			got, err := refineColors(context.Background(), out, in, workers)
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("trial %d (n %d, %d workers): colours differ from the definition", trial, len(out), workers)
			}
			if !slices.Equal(in, c) {
				t.Fatalf("trial %d: refineColors changed its input colours", trial)
			}
		}
	}
}

// TestRefineColorsCancelled: a cancelled context stops the refinement
// with its error (racer4's graph phase ran minutes past its time limit in
// refineColors, which did not look at the context).
func TestRefineColorsCancelled(t *testing.T) {
	out, c := refineBenchGraph()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, workers := range []int{1, 2} {
		if got, err := refineColors(ctx, out, slices.Clone(c), workers); !errors.Is(err, context.Canceled) || got != nil {
			t.Errorf("refineColors(cancelled, %d workers) = %d colours, %v, want context.Canceled", workers, len(got), err)
		}
	}
}

// refineBenchGraph: 20,000 vertices of out-degree 3, a tenth of them also
// into one of 20 hubs of 1,000 out-neighbours each, two initial colours.
func refineBenchGraph() ([][]int32, []uint64) {
	rng := rand.New(rand.NewPCG(3, 3))
	const n, hubs = 20000, 20
	out := make([][]int32, n)
	for u := range n {
		for range 3 {
			out[u] = append(out[u], int32(rng.IntN(n)))
		}
		if u >= hubs && u%10 == 0 {
			out[u] = append(out[u], int32(rng.IntN(hubs)))
		}
	}
	for u := range hubs {
		for range 1000 {
			out[u] = append(out[u], int32(hubs+rng.IntN(n-hubs)))
		}
	}
	for u := range out {
		slices.Sort(out[u])
		out[u] = slices.Compact(out[u])
	}
	c := make([]uint64, n)
	for v := range c {
		c[v] = uint64(v % 2)
	}
	return out, c
}

func BenchmarkRefineColors(b *testing.B) {
	out, c := refineBenchGraph()
	b.Run("definition", func(b *testing.B) {
		for range b.N {
			refineColorsDef(out, c)
		}
	})
	b.Run("1worker", func(b *testing.B) {
		for range b.N {
			refineColors(context.Background(), out, c, 1)
		}
	})
}
