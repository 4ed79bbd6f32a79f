package isomorph

import (
	"context"
	"iter"
	"math/big"
	"slices"
	"sync"
)

// Group is the automorphism group of a graph, given by generators.
//
// The generators form a strong generating set relative to Base: for every
// i, the generators that fix Base[0:i] pointwise generate the pointwise
// stabiliser of Base[0:i]. Order is the exact product of the orbit lengths
// of that stabiliser chain.
type Group struct {
	n          int
	Generators []Sparse // at most n-1 non-identity automorphisms
	Order      *big.Int // exact group order
	Base       []int32  // the individualized vertices of the first search path
	Orbits     []int32  // Orbits[v] is the smallest vertex in the orbit of v
	Stats      Stats    // work of the search that found the group
	once       sync.Once
	chain      []stabLvl // built on first use by Elements or Contains
	// moved[gi] is the first base index that generator gi moves (built with
	// chain): it fixes Base[0:i] pointwise exactly when moved[gi] >= i.
	moved []int
}

// stabLvl is one level of the stabiliser chain: the orbit of Base[i] under
// the generators fixing Base[0:i], as a Schreier tree.
type stabLvl struct {
	orbit  []int32 // orbit elements in BFS order, orbit[0] == Base[i]
	parent []int32 // per orbit index: index of the parent element
	gen    []int32 // per orbit index: generator that maps parent to it
	gens   []int32 // generators fixing Base[0:i] (a prefix of one shared list)
}

// Automorphisms returns the automorphism group of g (colours included),
// found by individualization-refinement with automorphism pruning (see the
// package documentation).
func Automorphisms(ctx context.Context, g Digraph, lim Limits) (*Group, error) {
	gg, err := Convert(g)
	if err != nil {
		return nil, err
	}
	s := newSearcher(gg, modeAut, lim)
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	return s.group(), nil
}

// NumOrbits returns the number of orbits of the group on the vertices.
func (gr *Group) NumOrbits() int {
	k := 0
	for v, o := range gr.Orbits {
		if int(o) == v {
			k++
		}
	}
	return k
}

// Contains reports whether p is a member of the group: it sifts p through
// the stabiliser chain.
func (gr *Group) Contains(p Perm) bool {
	if len(p) != gr.n {
		return false
	}
	gr.buildChain()
	cur := slices.Clone(p)
	tmp := make([]int32, gr.n)
	inv := make([]int32, gr.n)
	c := newComposer(gr.n)
	for i, lv := range gr.chain {
		img := cur[gr.Base[i]]
		k := slices.Index(lv.orbit, img)
		if k < 0 {
			return false
		}
		gr.transversal(c, lv, k, tmp)
		for v, w := range tmp {
			inv[w] = int32(v)
		}
		for v := range cur {
			cur[v] = inv[cur[v]]
		}
	}
	for v, w := range cur {
		if int(w) != v {
			return false
		}
	}
	return true
}

// Elements returns every element of the group, each exactly once, the
// identity first, as products t_0 ∘ t_1 ∘ ... of coset representatives of
// the stabiliser chain. The yielded Perm is reused: copy it to keep it.
// Elements and Contains may be called from several goroutines.
func (gr *Group) Elements() iter.Seq[Perm] {
	return func(yield func(Perm) bool) {
		gr.buildChain()
		n := gr.n
		k := len(gr.chain)
		// prod[i] is the product t_0 ∘ ... ∘ t_{i-1} of the chosen coset
		// representatives of the levels above i.
		prod := make([][]int32, k+1)
		for i := range prod {
			prod[i] = make([]int32, n)
		}
		for v := range prod[0] {
			prod[0][v] = int32(v)
		}
		t := make([]int32, n)
		c := newComposer(n)
		var rec func(i int) bool
		rec = func(i int) bool {
			if i == k {
				return yield(Perm(prod[k]))
			}
			lv := gr.chain[i]
			for j := range lv.orbit {
				gr.transversal(c, lv, j, t)
				for v := 0; v < n; v++ {
					prod[i+1][v] = prod[i][t[v]]
				}
				if !rec(i + 1) {
					return false
				}
			}
			return true
		}
		rec(0)
	}
}

// buildChain computes the Schreier trees of the stabiliser chain, once.
func (gr *Group) buildChain() {
	gr.once.Do(gr.buildChainOnce)
}

func (gr *Group) buildChainOnce() {
	if len(gr.Base) == 0 {
		return
	}
	gr.moved = firstMovedAll(gr.Generators, gr.Base, gr.n)
	// Who moves each vertex, in generator order (so the Schreier trees
	// are those of scanning every generator at every orbit point): the
	// orbit walks cost the moved points, not the generators times n.
	start := make([]int32, gr.n+1)
	for _, g := range gr.Generators {
		for _, v := range g.Points {
			start[v+1]++
		}
	}
	for v := 0; v < gr.n; v++ {
		start[v+1] += start[v]
	}
	fill := slices.Clone(start[:gr.n])
	byGen := make([]int32, start[gr.n])
	for gi, g := range gr.Generators {
		for _, v := range g.Points {
			byGen[fill[v]] = int32(gi)
			fill[v]++
		}
	}
	gr.chain = make([]stabLvl, len(gr.Base))
	// The generators fixing Base[0:i] are those first moving a base point
	// at level i or later: one list sorted by that level, of which each
	// level keeps a prefix (a list per level cost levels × generators
	// words: 31,920² on amazonsSuicide, beyond 6 GiB).
	byMoved := make([]int32, len(gr.Generators))
	for gi := range byMoved {
		byMoved[gi] = int32(gi)
	}
	slices.SortStableFunc(byMoved, func(x, y int32) int { return gr.moved[y] - gr.moved[x] })
	where := make([]int32, gr.n)
	for v := range where {
		where[v] = -1
	}
	for i, b := range gr.Base {
		lv := &gr.chain[i]
		n, _ := slices.BinarySearchFunc(byMoved, i, func(gi int32, i int) int {
			if gr.moved[gi] >= i {
				return -1
			}
			return 1
		})
		lv.gens = byMoved[:n:n]
		lv.orbit = append(lv.orbit, b)
		lv.parent = append(lv.parent, -1)
		lv.gen = append(lv.gen, -1)
		where[b] = 0
		for q := 0; q < len(lv.orbit); q++ {
			x := lv.orbit[q]
			for _, gi := range byGen[start[x]:start[x+1]] {
				if gr.moved[gi] < i {
					continue
				}
				y := gr.Generators[gi].Image(x)
				if where[y] < 0 {
					where[y] = int32(len(lv.orbit))
					lv.orbit = append(lv.orbit, y)
					lv.parent = append(lv.parent, int32(q))
					lv.gen = append(lv.gen, gi)
				}
			}
		}
		for _, x := range lv.orbit {
			where[x] = -1
		}
	}
}

// firstMovedAll returns, for each generator, the first index of base
// that it moves (len(base) if none), in O(n + points moved).
func firstMovedAll(gens []Sparse, base []int32, n int) []int {
	at := make([]int32, n)
	for v := range at {
		at[v] = int32(len(base))
	}
	for i, b := range base {
		at[b] = min(at[b], int32(i))
	}
	moved := make([]int, len(gens))
	for gi, g := range gens {
		m := int32(len(base))
		for _, v := range g.Points {
			m = min(m, at[v])
		}
		moved[gi] = int(m)
	}
	return moved
}

// transversal writes into t the coset representative of orbit element j:
// an element of the level's group mapping Base[i] to orbit[j]. If the
// Schreier tree path from the root to j uses g1, ..., gk, then t is
// gk ∘ ... ∘ g1.
// c is scratch.
func (gr *Group) transversal(c *composer, lv stabLvl, j int, t []int32) {
	gr.compose(c, lv, j)
	for v := range t {
		t[v] = int32(v)
	}
	c.moved(func(v, w int32) { t[v] = w })
}

// compose sets c to the coset representative of orbit element j, in time
// linear in the points its Schreier-tree path moves.
func (gr *Group) compose(c *composer, lv stabLvl, j int) {
	c.reset()
	var path [64]int32
	steps := path[:0]
	for q := j; lv.parent[q] >= 0; q = int(lv.parent[q]) {
		steps = append(steps, lv.gen[q])
	}
	for i := len(steps) - 1; i >= 0; i-- {
		c.then(gr.Generators[steps[i]])
	}
}
