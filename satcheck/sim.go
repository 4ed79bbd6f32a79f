package satcheck

import (
	"math/bits"
	"math/rand/v2"
)

// Bit-parallel simulation: a vector of W uint64 words holds 64·W input
// assignments; an AND gate is a word-wise AND of its (possibly complemented)
// fanin vectors.

// initSim draws the fixed random input vectors of s (moves one-hot per role)
// and, when the circuit is small enough, the signature of every node under them.
func (s *side) initSim(w int, seed uint64) {
	s.simOnce.Do(func() {
		s.simW = w
		if w == 0 {
			return
		}
		rng := rand.New(rand.NewPCG(seed, 0x5a7c))
		n := s.c.NumInputs
		s.inVec = make([]uint64, n*w)
		for i := range s.nProps * w {
			s.inVec[i] = rng.Uint64()
		}
		for r := range len(s.base) - 1 {
			lo, k := int(s.base[r]), s.numActions(int32(r))
			if k == 0 {
				continue
			}
			for bit := range 64 * w {
				a := lo + rng.IntN(k)
				s.inVec[a*w+bit/64] |= 1 << (bit % 64)
			}
		}
		nn := s.c.NumNodes()
		if nn*w > maxSignatureWords {
			return
		}
		sig := make([]uint64, nn*w)
		copy(sig[w:], s.inVec)
		for g := n + 1; g < nn; g++ {
			out := sig[g*w : (g+1)*w]
			for i := range out {
				out[i] = ^uint64(0)
			}
			for _, l := range s.c.Fanins(g) {
				in := sig[l.Node()*w : (l.Node()+1)*w]
				neg := -uint64(l & 1) // all ones when negated
				for i := range out {
					out[i] &= in[i] ^ neg
				}
			}
		}
		s.sig = sig
	})
}

// firstDiff returns the first bit where x and y differ among the first n bits, or -1.
func firstDiff(x, y []uint64, n int) int {
	for i := range x {
		d := x[i] ^ y[i]
		if rem := n - 64*i; rem < 64 {
			if rem <= 0 {
				break
			}
			d &= 1<<rem - 1
		}
		if d != 0 {
			return 64*i + bits.TrailingZeros64(d)
		}
	}
	return -1
}

// assignmentAt reads bit `bit` of every variable vector.
func assignmentAt(vec []uint64, nvars, w, bit int) []bool {
	m := make([]bool, nvars)
	for v := range m {
		m[v] = vec[v*w+bit/64]>>(bit%64)&1 == 1
	}
	return m
}

// exhaustiveVectors lays out all rows of j's truth table: the row index is a
// mixed-radix number whose low digits are the free propositions (radix 2) and
// whose high digits are the groups' choices (member index, or the "other"
// choice last). It returns the variable vectors and the word count.
func (j *joint) exhaustiveVectors() (vec []uint64, w, rows int) {
	rows = j.rows()
	w = (rows + 63) / 64
	vec = make([]uint64, len(j.vars)*w)
	// A digit of stride s is constant on runs of s rows: each run is set
	// a word at a time (row by row, the layout cost a tenth of the search
	// of Tic-tac-toe against Number Scrabble).
	stride := 1
	for _, v := range j.props {
		setDigitRuns(vec[int(v)*w:int(v+1)*w], rows, stride, 2, 1)
		stride *= 2
	}
	for _, g := range j.groups {
		rad := g.radix()
		for c, v := range g.members {
			setDigitRuns(vec[int(v)*w:int(v+1)*w], rows, stride, rad, c)
		}
		stride *= rad
	}
	return vec, w, rows
}

// setDigitRuns sets, in the bit vector dst of rows rows, every row r whose
// digit r/stride%rad is c. A period that divides 64 (the low propositions'
// digits) repeats one word.
func setDigitRuns(dst []uint64, rows, stride, rad, c int) {
	if period := stride * rad; period < 64 && 64%period == 0 {
		var word uint64
		for lo := c * stride; lo < 64; lo += period {
			word |= (1<<stride - 1) << lo
		}
		for i := range dst {
			dst[i] |= word
		}
		if rem := rows % 64; rem != 0 {
			dst[len(dst)-1] &= 1<<rem - 1
		}
		return
	}
	for lo := c * stride; lo < rows; lo += stride * rad {
		setBits(dst, lo, min(lo+stride, rows))
	}
}

// setBits sets bits lo..hi-1 of dst.
func setBits(dst []uint64, lo, hi int) {
	for lo < hi {
		i, b := lo/64, lo%64
		n := min(hi-lo, 64-b)
		m := ^uint64(0)
		if n < 64 {
			m = (1<<n - 1) << b
		}
		dst[i] |= m
		lo += n
	}
}

// digitStrides returns, per free proposition and per group, the stride of
// its digit in the exhaustive row numbering.
func (j *joint) digitStrides() (props, groups []int) {
	stride := 1
	for range j.props {
		props = append(props, stride)
		stride *= 2
	}
	for _, g := range j.groups {
		groups = append(groups, stride)
		stride *= g.radix()
	}
	return props, groups
}

// randomVectors draws w words of random assignments for the joint variables.
// Variables shared with A take A's fixed input vectors (fixed[i] for A input i),
// so A's precomputed signatures stay valid. B-only propositions are random.
// In each group a B-only member is chosen, at random, in every bit where no
// shared member is set, which completes a one-hot assignment of B's role
// (the unknown preimages of those members are A actions outside A's support).
func (j *joint) randomVectors(w int, fixed func(i int32) []uint64, rng *rand.Rand) []uint64 {
	vec := make([]uint64, len(j.vars)*w)
	for v, x := range j.vars {
		dst := vec[v*w : (v+1)*w]
		switch {
		case x.aIn >= 0 && fixed != nil:
			copy(dst, fixed(x.aIn))
		case j.group[v] < 0:
			for i := range dst {
				dst[i] = rng.Uint64()
			}
		}
	}
	for _, g := range j.groups {
		var free []int32 // members not fixed by A
		for _, v := range g.members {
			if j.vars[v].aIn < 0 || fixed == nil {
				free = append(free, v)
			}
		}
		if len(free) == 0 {
			continue
		}
		nch := len(free)
		if g.other {
			nch++
		}
		for i := range w {
			taken := uint64(0)
			for _, v := range g.members {
				taken |= vec[int(v)*w+i]
			}
			for b := range 64 {
				if taken>>b&1 == 1 {
					continue
				}
				if c := rng.IntN(nch); c < len(free) {
					vec[int(free[c])*w+i] |= 1 << b
				}
			}
		}
	}
	return vec
}
