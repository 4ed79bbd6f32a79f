package groundgraph

import (
	"context"
	"math/bits"
	"slices"
)

// Breakers: what undoes a corner.
//
// A corner T of f from an anchor a changes f; a breaker of T is a semantic
// proposition q outside T whose flip on top of T gives f its anchor value
// back: f(a ⊕ T ⊕ q) = f(a). Every SCGE maps corners onto corners, so it
// maps the breakers of T onto the breakers of T's image: the relation is an
// invariant. It shows pairings that no corner shows. In a maze, "the
// explorer may move east" is true when it stands on some cell whose east
// side is open: its corners from the empty state are {control, on cell c}
// for every cell, and the wall east of c appears in none of them, but it
// is the one breaker of {control, on cell c}. Without breakers every
// permutation of the walls among the cells is an automorphism of the graph.

// breakers returns, for each corner (positions into w.props) from the
// anchor, its breakers as ascending positions into w.props. It gives up
// (nil) when the corners have more than maxArcs breakers in all: the
// count depends only on f, so both games of an SCGE give up alike.
func (w *cornersWork) breakers(ctx context.Context, anchor bool, corners [][]int, maxArcs int) ([][]int, error) {
	if len(corners) == 0 || maxArcs <= 0 {
		return nil, nil
	}
	n := len(w.props)
	pos, s, base, out, f0 := w.atAnchor(anchor)
	f0mask := uint64(0)
	if f0 {
		f0mask = ^uint64(0)
	}
	// Breaker points lie within the largest corner plus one flip of the
	// anchor: when the cone's evaluations cost more than its bounds
	// (about a pass over the cone per word of n bits), it is evaluated on
	// its ball cone of that radius (cornerreduce.go). Flips are sparse
	// (cornerflip.go): the whole cone's fanouts cost more than the search.
	flip := s.Flip
	if !w.plain {
		m := len(slices.MaxFunc(corners, func(a, b []int) int { return len(a) - len(b) }))
		if int64(len(w.cn.Fanin))*int64(n/64+1) <= int64(len(w.cn.Gates))*int64(len(corners)/64) {
			bd := flipBounds(w.cn, s, pos, m+2, maxBoundWords)
			if bs := ballSim(w.cn, bd, m+1, s.Vals[:w.cn.FirstGate()*cornerBatchWords], &w.bufs().ball); bs != nil {
				s = bs
				w.balls++
			}
		}
		flip = newSparseFlip(s).flip
	}
	vals := s.Vals
	inOff := make([]int, n)
	for j, k := range pos {
		inOff[j] = (1 + k) * cornerBatchWords
	}
	res := make([]uint64, cornerBatchWords)
	sets := make([][]int, len(corners))
	arcs := 0
	const batchCap = 64 * cornerBatchWords
	for start := 0; start < len(corners); start += batchCap {
		batch := corners[start:min(len(corners), start+batchCap)]
		nb := len(batch)
		wn := (nb + 63) / 64
		for _, k := range pos {
			fill(s.In(k), base)
		}
		// member[j]: the lanes whose corner holds j; flipping j there
		// leaves a subset of the corner, not a breaker.
		member := make(map[int][]uint64)
		for lane, c := range batch {
			bit := uint64(1) << (lane % 64)
			for _, j := range c {
				vals[inOff[j]+lane/64] ^= bit
				m := member[j]
				if m == nil {
					m = make([]uint64, wn)
					member[j] = m
				}
				m[lane/64] |= bit
			}
		}
		w.ops += s.EvalN(wn, out)
		for j := range n {
			if j%cancelCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			w.ops += flip(pos[j], wn, res)
			m := member[j]
			for i := range wn {
				back := ^(res[i] ^ f0mask) // f is back at its anchor value
				if m != nil {
					back &^= m[i]
				}
				if rest := nb - 64*i; rest < 64 {
					back &= 1<<rest - 1
				}
				for ; back != 0; back &= back - 1 {
					lane := 64*i + bits.TrailingZeros64(back)
					sets[start+lane] = append(sets[start+lane], j)
					if arcs++; arcs > maxArcs {
						return nil, nil
					}
				}
			}
		}
	}
	for i := range sets {
		sets[i] = slices.Clip(sets[i])
	}
	return sets, nil
}
