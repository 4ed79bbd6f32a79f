package equiv

import "github.com/gamequiv/gamequiv/grounding"

// wideRun is the shortest run that vertexFuncs indexes once rather than
// at each of its vertices: a run this long costs as much as the block
// entries that find it, one per 64 vertices.
const (
	wideRun   = 64
	wideShift = 6 // blocks of 1<<wideShift vertices
)

// vertexFuncs lists, for each vertex of A, the functions whose need holds
// it, in increasing order (a function twice if its need holds the vertex
// twice), as a list per vertex would. Long runs of a need are kept once
// with their functions: the 173,962 action vertices of amazons each
// listed its legal function and all 302 next functions (359 MB that no
// sharing could save, since the legal functions differ).
type vertexFuncs struct {
	narrow [][]int32   // narrow[v]: from runs shorter than wideRun
	wide   []wideFuncs // distinct long runs, each with its functions
	blocks [][]int32   // blocks[v>>wideShift]: the wide runs that meet the block
}

// wideFuncs is a long run of vertices and the functions whose need holds it.
type wideFuncs struct {
	first, count int32
	funcs        []int32
}

// newVertexFuncs indexes need over n vertices.
func newVertexFuncs(n int, need []grounding.Runs) *vertexFuncs {
	x := &vertexFuncs{narrow: make([][]int32, n)}
	ids := map[[2]int32]int{}
	for f, r := range need {
		for k := 0; k < len(r); k += 2 {
			first, count := r[k], r[k+1]
			if count < wideRun {
				for v := first; v < first+count; v++ {
					x.narrow[v] = append(x.narrow[v], int32(f))
				}
				continue
			}
			id, ok := ids[[2]int32{first, count}]
			if !ok {
				id = len(x.wide)
				ids[[2]int32{first, count}] = id
				x.wide = append(x.wide, wideFuncs{first: first, count: count})
			}
			x.wide[id].funcs = append(x.wide[id].funcs, int32(f))
		}
	}
	internLists(x.narrow)
	if len(x.wide) > 0 {
		x.blocks = make([][]int32, (n>>wideShift)+1)
		for id, w := range x.wide {
			for b := w.first >> wideShift; b <= (w.first+w.count-1)>>wideShift; b++ {
				x.blocks[b] = append(x.blocks[b], int32(id))
			}
		}
	}
	return x
}

// funcs returns the functions whose need holds v, in increasing order:
// narrow[v] itself when no long run holds v, else the merge written into
// *buf (the caller's scratch, kept for the next call). The result is read
// only, and valid until the next call with the same buf.
func (x *vertexFuncs) funcs(v int32, buf *[]int32) []int32 {
	if x.blocks == nil {
		return x.narrow[v]
	}
	lists := [][]int32{x.narrow[v]}
	for _, id := range x.blocks[v>>wideShift] {
		if w := &x.wide[id]; w.first <= v && v < w.first+w.count {
			lists = append(lists, w.funcs)
		}
	}
	if len(lists) == 1 {
		return x.narrow[v]
	}
	*buf = mergeSorted((*buf)[:0], lists)
	return *buf
}

// mergeSorted appends the merge of sorted lists to dst (duplicates kept),
// two lists at a time: what is left of a list once the other ends is
// copied whole. A vertex's own few functions and the long runs' many are
// the usual lists (amazons' search merged 174,000 such sets per node,
// most of them of three or more lists; picking element by element among
// them took 14.5 s of its comparison).
func mergeSorted(dst []int32, lists [][]int32) []int32 {
	start := len(dst)
	dst = append(dst, lists[0]...)
	var tmp []int32
	for _, l := range lists[1:] {
		tmp = merge2(tmp[:0], dst[start:], l)
		dst = append(dst[:start], tmp...)
	}
	return dst
}

// merge2 appends the merge of sorted a and b to dst.
func merge2(dst, a, b []int32) []int32 {
	for len(a) > 0 && len(b) > 0 {
		if b[0] < a[0] {
			dst, b = append(dst, b[0]), b[1:]
		} else {
			dst, a = append(dst, a[0]), a[1:]
		}
	}
	return append(append(dst, a...), b...)
}
