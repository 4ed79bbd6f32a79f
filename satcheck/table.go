package satcheck

import (
	"context"
	"math"
)

// Chunked truth tables: a pair of large cones (as many gates as
// SweepMinGates) whose joint input space is too large for one table in
// memory (ExhaustiveBits) but small enough to enumerate is decided by
// simulating both cones on every row, a chunk of rows at a time, before any
// SAT question is asked. ad_game_2x2's internal sweep proofs over 20
// inputs took gophersat 2-9 s each; the pair's whole table (2^16 rows, the
// actions being one-hot) takes 20-100 ms. The answer is exact like the
// small table's: equal only when every row of the constrained input space
// agrees, different with the first row that does not.

// DefaultTableWork is the default Options.TableWork: a tenth of a second of
// word operations or so. ad_game_2x2's pairs need 2^24.5; a larger bound
// would spend seconds on pairs that sweeping may prove in milliseconds.
const DefaultTableWork = 1 << 27

// tableChunkSlotWords bounds one chunk's simulation values (slots × words,
// 8 bytes each: 8 MiB per cone).
const tableChunkSlotWords = 1 << 20

// tableMaxChunkWords is the widest chunk: 4,096 rows.
const tableMaxChunkWords = 64

// tableWork estimates the word operations of the chunked table of ca and cb
// over j: fanins of both cones times the words of all rows. It returns
// math.MaxInt64 when the rows do not fit an int64.
func tableWork(j *joint, ca, cb *cone) int64 {
	bits := j.log2Rows()
	if bits > 60 {
		return math.MaxInt64
	}
	fan := int64(len(ca.Fanin)+len(cb.Fanin)) + 1
	words := int64(j.rows()+63) / 64
	if words > math.MaxInt64/fan {
		return math.MaxInt64
	}
	return fan * words
}

// tableChunk writes into vec (w words per variable) the rows r0 .. r0+64w-1
// of j's truth table, numbered as exhaustiveVectors numbers them; rows past
// the end are copies of earlier rows' digits that the caller ignores. r0 is
// a multiple of 64.
func (j *joint) tableChunk(vec []uint64, w int, r0 int) {
	clear(vec)
	props, groups := j.digitStrides()
	for k, v := range j.props {
		stride := props[k]
		dst := vec[int(v)*w : int(v+1)*w]
		if stride < 64 {
			// The digit repeats within a word: one constant mask.
			var m uint64
			for b := range 64 {
				if b/stride%2 == 1 {
					m |= 1 << b
				}
			}
			for i := range dst {
				dst[i] = m
			}
			continue
		}
		for i := range dst {
			if (r0+64*i)/stride%2 == 1 {
				dst[i] = ^uint64(0)
			}
		}
	}
	for gi, g := range j.groups {
		stride, rad := groups[gi], g.radix()
		for i := range w {
			base := r0 + 64*i
			if stride%64 == 0 {
				// The whole word has one digit value.
				if c := base / stride % rad; c < len(g.members) {
					vec[int(g.members[c])*w+i] = ^uint64(0)
				}
				continue
			}
			for b := range 64 {
				if c := (base + b) / stride % rad; c < len(g.members) {
					vec[int(g.members[c])*w+i] |= 1 << b
				}
			}
		}
	}
}

// tableDecide simulates ca and cb on every row of j's truth table, chunk by
// chunk, looking at ctx between chunks. It returns nil when they agree on
// every row, else the joint assignment of the first row where they differ.
func tableDecide(ctx context.Context, j *joint, ca, cb *cone) ([]bool, error) {
	rows := j.rows()
	slots := max(ca.NumSlots(), cb.NumSlots())
	w := min(tableMaxChunkWords, max(1, tableChunkSlotWords/slots), (rows+63)/64)
	vec := make([]uint64, len(j.vars)*w)
	var valsA, valsB, outA, outB []uint64
	in := func(vars []int32) func(k int) []uint64 {
		return func(k int) []uint64 {
			if v := vars[k]; v >= 0 {
				return vec[int(v)*w : int(v+1)*w]
			}
			return nil
		}
	}
	inA, inB := in(j.aVar), in(j.bVar)
	for r0 := 0; r0 < rows; r0 += 64 * w {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		j.tableChunk(vec, w, r0)
		outA, valsA = ca.Simulate(w, inA, valsA, outA)
		outB, valsB = cb.Simulate(w, inB, valsB, outB)
		if bit := firstDiff(outA, outB, rows-r0); bit >= 0 {
			return assignmentAt(vec, len(j.vars), w, bit), nil
		}
	}
	return nil, nil
}
