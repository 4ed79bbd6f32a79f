package grounding

import "iter"

// Runs is a list of int32 (inputs, nodes, vertices) kept as runs of
// consecutive values (first, count pairs), in the order the values were
// added. Supports are such lists, and the actions of a role are
// consecutive inputs: a next function of amazons reads all 173,962
// actions, 680 KB as a plain list, a few words as runs.
type Runs []int32

// Add appends x.
func (r Runs) Add(x int32) Runs {
	if n := len(r); n > 0 && r[n-2]+r[n-1] == x {
		r[n-1]++
		return r
	}
	return append(r, x, 1)
}

// All yields the values in the order they were added.
func (r Runs) All() iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for k := 0; k < len(r); k += 2 {
			for x, end := r[k], r[k]+r[k+1]; x < end; x++ {
				if !yield(x) {
					return
				}
			}
		}
	}
}

// AppendTo appends the values to dst.
func (r Runs) AppendTo(dst []int32) []int32 {
	for k := 0; k < len(r); k += 2 {
		for x, end := r[k], r[k]+r[k+1]; x < end; x++ {
			dst = append(dst, x)
		}
	}
	return dst
}

// Len is the number of values.
func (r Runs) Len() int {
	n := 0
	for k := 1; k < len(r); k += 2 {
		n += int(r[k])
	}
	return n
}
