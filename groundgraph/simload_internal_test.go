package groundgraph

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestLoadSamplesBits checks loadSamples against the definition, bit by
// bit: input k of sample b is bit b of slot 1+k, samples past the last
// repeat the first, on widths that leave part of a word and part of a
// block of 64 inputs.
func TestLoadSamplesBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ nIn, n, w int }{{1, 1, 1}, {63, 5, 1}, {64, 64, 1}, {65, 70, 2}, {130, 129, 3}, {200, 1, 2}} {
		words := (c.nIn + 63) / 64
		samples := make([]sample, c.n)
		for b := range samples {
			samples[b] = make(sample, words)
			for k := range c.nIn {
				if rng.IntN(3) == 0 {
					samples[b][k/64] |= 1 << (k % 64)
				}
			}
		}
		vals := make([]uint64, (1+c.nIn+2)*c.w)
		loadSamples(vals, c.w, samples)
		for k := range c.nIn {
			for b := range 64 * c.w {
				x := samples[0]
				if b < len(samples) {
					x = samples[b]
				}
				want := x[k/64]>>(k%64)&1 == 1
				if got := vals[(1+k)*c.w+b/64]>>(b%64)&1 == 1; got != want {
					t.Fatalf("nIn %d, %d samples, w %d: input %d of sample %d is %v, want %v", c.nIn, c.n, c.w, k, b, got, want)
				}
			}
		}
		for x, v := range vals {
			if (x < c.w || x >= (1+c.nIn)*c.w) && v != 0 {
				t.Fatalf("nIn %d, %d samples, w %d: word %d outside the input slots set", c.nIn, c.n, c.w, x)
			}
		}
	}
}

// TestBiasedWordBias checks that biasedWord's bits are set with the
// probabilities of simBias (within five standard deviations over 2^16
// bits) and that successive words differ.
func TestBiasedWordBias(t *testing.T) {
	src := splitMix(7)
	for i, q := range simBiasBits {
		const words = 1 << 10
		n := 0
		prev := uint64(0)
		for range words {
			x := biasedWord(&src, q)
			if x == prev && 4*q >= 1<<biasBits && 4*q <= 3<<biasBits {
				t.Fatalf("bias %v: the same word %x twice", simBias[i], x)
			}
			prev = x
			n += bits.OnesCount64(x)
		}
		p := float64(q) / (1 << biasBits)
		mean, sd := p*64*words, math.Sqrt(p*(1-p)*64*words)
		if math.Abs(float64(n)-mean) > 5*sd+1 {
			t.Errorf("bias %v: %d of %d bits set, want about %.0f", simBias[i], n, 64*words, mean)
		}
	}
}
