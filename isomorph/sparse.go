package isomorph

import (
	"slices"
	"strconv"
	"strings"
)

// Sparse is a permutation given by the vertices it moves: Points in
// increasing order, and Images[i], the image of Points[i]. Every other
// vertex maps to itself. A Group keeps its generators this way: on a big
// graph most generators swap a few vertices, and a dense Perm per
// generator would hold n int32s for each.
type Sparse struct {
	Points []int32
	Images []int32
}

// SparseOf returns the vertices that p moves, with their images.
func SparseOf(p Perm) Sparse {
	var s Sparse
	for v, w := range p {
		if int(w) != v {
			s.Points = append(s.Points, int32(v))
			s.Images = append(s.Images, w)
		}
	}
	return s
}

// Len is the number of vertices moved.
func (s Sparse) Len() int { return len(s.Points) }

// Image returns the image of v.
func (s Sparse) Image(v int32) int32 {
	if i, ok := slices.BinarySearch(s.Points, v); ok {
		return s.Images[i]
	}
	return v
}

// Dense writes the permutation into p, whose length is the number of
// vertices, and returns p.
func (s Sparse) Dense(p Perm) Perm {
	for v := range p {
		p[v] = int32(v)
	}
	for i, v := range s.Points {
		p[v] = s.Images[i]
	}
	return p
}

// String writes the permutation as cycles, each from its smallest vertex:
// "(0 2)(1 3)"; the identity is "()".
func (s Sparse) String() string {
	if len(s.Points) == 0 {
		return "()"
	}
	var b strings.Builder
	done := make(map[int32]bool, len(s.Points))
	for _, v := range s.Points {
		if done[v] {
			continue
		}
		b.WriteByte('(')
		for w := v; !done[w]; w = s.Image(w) {
			if w != v {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(int(w)))
			done[w] = true
		}
		b.WriteByte(')')
	}
	return b.String()
}

// composer multiplies sparse permutations in O(points moved), never O(n):
// fwd and inv are the identity except at the vertices in touched.
type composer struct {
	fwd, inv []int32
	in       []bool
	touched  []int32
	tmp      []int32
}

func newComposer(n int) *composer {
	c := &composer{fwd: make([]int32, n), inv: make([]int32, n), in: make([]bool, n)}
	for v := range c.fwd {
		c.fwd[v] = int32(v)
		c.inv[v] = int32(v)
	}
	return c
}

// reset makes the product the identity.
func (c *composer) reset() {
	for _, v := range c.touched {
		c.fwd[v], c.inv[v], c.in[v] = v, v, false
	}
	c.touched = c.touched[:0]
}

// then replaces the product t by g∘t (t first, then g).
func (c *composer) then(g Sparse) {
	// The vertices that t sends to g's points: their images change.
	c.tmp = c.tmp[:0]
	for _, p := range g.Points {
		c.tmp = append(c.tmp, c.inv[p])
	}
	for i, v := range c.tmp {
		w := g.Images[i]
		c.fwd[v] = w
		c.inv[w] = v
		c.touch(v)
		c.touch(w)
	}
}

func (c *composer) touch(v int32) {
	if !c.in[v] {
		c.in[v] = true
		c.touched = append(c.touched, v)
	}
}

// moved calls f for every vertex the product moves, with its image.
func (c *composer) moved(f func(v, w int32)) {
	for _, v := range c.touched {
		if w := c.fwd[v]; w != v {
			f(v, w)
		}
	}
}
