package isomorph

import "fmt"

// Renumbered returns g with each vertex v renumbered to[v] (to must be a
// permutation of g's vertices): the same colours, arcs and search
// preference. Renaming a game's symbols renumbers its ground graph so; a
// search's result must not change, and its effort must not hinge on it.
func Renumbered(g *Graph, to []int32) (*Graph, error) {
	n := g.Order()
	if len(to) != n {
		return nil, fmt.Errorf("isomorph: renumbering of %d vertices for a graph of %d", len(to), n)
	}
	r := &renumbered{g: g, of: make([]int32, n), out: make([][]int32, n)}
	for i := range r.of {
		r.of[i] = -1
	}
	for v, w := range to {
		if w < 0 || int(w) >= n || r.of[w] >= 0 {
			return nil, fmt.Errorf("isomorph: renumbering is not a permutation (vertex %d to %d)", v, w)
		}
		r.of[w] = int32(v)
	}
	for w := range n {
		for _, u := range g.Out(int(r.of[w])) {
			r.out[w] = append(r.out[w], to[u])
		}
	}
	return Convert(r)
}

// renumbered is the Digraph of Renumbered: new vertex w is g's of[w].
type renumbered struct {
	g   *Graph
	of  []int32
	out [][]int32
}

func (r *renumbered) Order() int           { return r.g.Order() }
func (r *renumbered) Color(w int) int32    { return r.g.Color(int(r.of[w])) }
func (r *renumbered) Out(w int) []int32    { return r.out[w] }
func (r *renumbered) Preferred(w int) bool { return r.g.Preferred(int(r.of[w])) }
