package groundgraph

import (
	"context"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
)

// refineColors runs colour refinement with hashed colours (one-dimensional
// Weisfeiler-Leman on the digraph): a vertex's new colour hashes its colour
// and the multisets of its out- and in-neighbours' colours. It stops when a
// round splits no class and returns the colours of that last round. The
// number of rounds and the colours depend only on the isomorphism class of
// the coloured graph. A round's vertices are split among up to workers
// goroutines (each vertex's new colour reads only the last round's), so
// the colours do not depend on workers. The workers look at ctx before each
// chunk: without it racer4's Build (525,000 vertices) returned 474 s after
// a cancel, most of it here (bench/cancellatency, goroutine dumps).
//
// A multiset is hashed as its size and then its colours in ascending order
// (hasher.addMultiset). Each vertex gathers its neighbours' colours and
// sorts them itself: a short list by insertion, a long one (a hub) by
// buckets, so a round is linear in the graph. The classes are counted in a
// hash set. An earlier version ranked all distinct colours every round
// (a sort and a binary search per vertex) to list every neighbourhood in
// order by one counting sort; racer (752,573 vertices, 51 rounds) spent
// 25 s CPU in it, two fifths of that in the ranking.
func refineColors(ctx context.Context, out [][]int32, c []uint64, workers int) ([]uint64, error) {
	n := len(out)
	// adj[start[v]:mid[v]] are v's out-neighbours, adj[mid[v]:start[v+1]]
	// its in-neighbours.
	start := make([]int, n+1)
	mid := make([]int, n)
	for u, vs := range out {
		start[u+1] += len(vs)
		for _, v := range vs {
			start[v+1]++
		}
	}
	for v := range n {
		start[v+1] += start[v]
	}
	adj := make([]int32, start[n])
	for u, vs := range out {
		mid[u] = start[u] + copy(adj[start[u]:], vs)
	}
	fill := slices.Clone(mid)
	for u, vs := range out {
		for _, v := range vs {
			adj[fill[v]] = int32(u)
			fill[v]++
		}
	}
	fill = nil
	// Chunks of about refineChunk arcs, taken by the workers in turn.
	var bounds []int
	for v, arcs := 0, 0; v < n; v++ {
		if arcs == 0 {
			bounds = append(bounds, v)
		}
		arcs += 1 + start[v+1] - start[v]
		if arcs >= refineChunk {
			arcs = 0
		}
	}
	bounds = append(bounds, n)
	workers = max(1, min(workers, len(bounds)-1))
	set := newColorSet(n)
	classes := set.count(c)
	cur, next := c, make([]uint64, n)
	var spare []uint64 // the colours before cur, once not the caller's
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var chunk atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var buf []uint64
				var sc sortScratch
				for {
					k := int(chunk.Add(1) - 1)
					if k >= len(bounds)-1 || ctx.Err() != nil {
						break
					}
					for v := bounds[k]; v < bounds[k+1]; v++ {
						h := newHasher(tagRefine)
						h.add(cur[v])
						buf = buf[:0]
						for _, w := range adj[start[v]:mid[v]] {
							buf = append(buf, cur[w])
						}
						addSorted(&h, buf, &sc)
						buf = buf[:0]
						for _, w := range adj[mid[v]:start[v+1]] {
							buf = append(buf, cur[w])
						}
						addSorted(&h, buf, &sc)
						next[v] = h.sum()
					}
				}
			}()
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k := set.count(next)
		if k <= classes {
			return next, nil
		}
		classes = k
		if spare == nil {
			spare = make([]uint64, n) // c stays as it was
		} else {
			spare = cur
		}
		cur, next = next, spare
	}
}

// addSorted hashes the multiset xs as hasher.addMultiset does. It may
// reorder xs; sc is scratch space for the long lists.
func addSorted(h *hasher, xs []uint64, sc *sortScratch) {
	if len(xs) <= insertionMax {
		insertionSort(xs)
	} else {
		xs = sc.bucketSort(xs)
	}
	h.add(uint64(len(xs)))
	for _, x := range xs {
		h.add(x)
	}
}

func insertionSort(xs []uint64) {
	for i := 1; i < len(xs); i++ {
		x := xs[i]
		j := i
		for ; j > 0 && xs[j-1] > x; j-- {
			xs[j] = xs[j-1]
		}
		xs[j] = x
	}
}

// sortScratch is one worker's scratch space for bucketSort.
type sortScratch struct {
	out   []uint64
	start []int32
}

// bucketSort returns the values of xs in ascending order (in sc's space;
// xs is left as it was): one counting pass and one scatter into about
// len(xs)/2 buckets by the top bits, then each bucket sorted on its own.
// Colours are hashes, so buckets hold two values on average and the sort
// is linear; a bucket with many values (equal colours, or colours that
// are not hashes) is sorted by slices.Sort. A hub's neighbour list is
// sorted every round: racer has 7,000 lists of 512 to 32,768 colours,
// two thirds of its arcs.
func (sc *sortScratch) bucketSort(xs []uint64) []uint64 {
	lg := max(1, bits.Len(uint(len(xs)))-1)
	nb := 1 << lg
	if cap(sc.out) < len(xs) {
		sc.out = make([]uint64, len(xs))
	}
	if cap(sc.start) < nb+1 {
		sc.start = make([]int32, nb+1)
	}
	out, start := sc.out[:len(xs)], sc.start[:nb+1]
	clear(start)
	shift := uint(64 - lg)
	for _, x := range xs {
		start[x>>shift+1]++
	}
	for b := range nb {
		start[b+1] += start[b]
	}
	for _, x := range xs {
		b := x >> shift
		out[start[b]] = x
		start[b]++
	}
	// start[b] is now the end of bucket b.
	lo := int32(0)
	for _, hi := range start[:nb] {
		if k := hi - lo; k > 1 {
			if k <= insertionMax {
				insertionSort(out[lo:hi])
			} else {
				slices.Sort(out[lo:hi])
			}
		}
		lo = hi
	}
	return out
}

// insertionMax is the longest list (or bucket) refineColors sorts by
// insertion.
const insertionMax = 16

// refineChunk is the number of arcs (plus vertices) of one piece of a
// refinement round handed to a worker.
const refineChunk = 1 << 14

// colorSet counts the distinct values of a slice of colours (open
// addressing, linear probing).
type colorSet struct {
	slots []uint64
	shift uint
}

// newColorSet returns a set for up to n colours, at most half full.
func newColorSet(n int) *colorSet {
	b := bits.Len(uint(2*n)) + 1
	return &colorSet{slots: make([]uint64, 1<<b), shift: uint(64 - b)}
}

// count returns the number of distinct values of cs.
func (s *colorSet) count(cs []uint64) int {
	clear(s.slots)
	k, zero := 0, false
	mask := len(s.slots) - 1
	for _, x := range cs {
		if x == 0 { // 0 marks an empty slot
			if !zero {
				zero = true
				k++
			}
			continue
		}
		i := int((x * 0x9e3779b97f4a7c15) >> s.shift)
		for {
			y := s.slots[i]
			if y == x {
				break
			}
			if y == 0 {
				s.slots[i] = x
				k++
				break
			}
			i = (i + 1) & mask
		}
	}
	return k
}
