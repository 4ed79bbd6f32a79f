package isomorph

import (
	"context"
	"math/big"
	"slices"
)

// CosetTest decides, during Subgroup, whether a coset of
// the search can hold a wanted element. partial maps every vertex whose
// image is the same for all elements of the current coset to that image,
// and holds -1 for the others; fixed lists the vertices that became
// determined at this node (at a coset's root: all determined ones).
// complete reports that the coset is the single element partial. The test
// returns false when no element of the coset is wanted (for a complete
// one: when it is not wanted); it may return true for a coset that holds
// none, which only costs search nodes. Both slices are valid only during
// the call. An error stops the search and is returned by it.
type CosetTest func(partial Mapping, fixed []int32, complete bool) (bool, error)

// CosetNodeTest is CosetTest with the whole coset: besides the partial
// mapping, the cells that every element of the coset maps onto each other.
type CosetNodeTest func(c *Coset) (bool, error)

// Coset is a node of Subgroup's search, valid only during the test call:
// the coset rep∘G_j of gr's pointwise stabiliser G_j of Base[0:j].
type Coset struct {
	// Partial, Fixed and Complete are CosetTest's arguments.
	Partial  Mapping
	Fixed    []int32
	Complete bool
	// Root is set at the root of a coset search (a level of Subgroup, or
	// FindInCoset): Fixed then lists every vertex whose image is
	// determined, not only those determined at this node, so a test may
	// look at what the representative moves instead of all of Fixed.
	Root bool

	cs    *cosetSearch
	level int
	rep   []int32
	allow func(w int32) bool // Restrict's
}

// BasePoint returns Base[Level()], the point whose image tells the
// children of the coset apart, or -1 for a complete coset.
func (c *Coset) BasePoint() int32 {
	if c.Complete || c.level >= len(c.cs.gr.Base) {
		return -1
	}
	return c.cs.gr.Base[c.level]
}

// Restrict, called by a test on a coset it accepts, limits the search to
// the children whose image w of BasePoint() has allow(w): allow must be
// false only where no accepted element of the coset maps BasePoint() to
// w, e.g. where w's colour under an invariant that every accepted element
// preserves differs from BasePoint()'s. A test that prunes a wrong child
// only once it is entered costs a node per child; this costs one call.
// allow is called after the test returns, so it must not read state that
// the children's tests overwrite.
func (c *Coset) Restrict(allow func(w int32) bool) { c.allow = allow }

// Level is j, the number of base points whose images the coset fixes.
func (c *Coset) Level() int { return c.level }

// Cells writes to src[v], for every vertex v, the orbit of v under G_j (as
// its smallest vertex), and to dst[rep(v)] the same id. Every element
// rep∘s (s in G_j) of the coset maps each orbit O onto rep(O), so it maps
// the vertices with src id o onto those with dst id o, like the matched
// cells of SearchNodes. It takes time linear in the order once the orbits
// of the level are known.
func (c *Coset) Cells(src, dst []int32) {
	orb := c.cs.orbitsAt(c.level)
	copy(src, orb)
	for v, o := range orb {
		dst[c.rep[v]] = o
	}
}

// Subgroup returns the subgroup H of gr of the elements that test accepts
// as complete. test must describe a subgroup: the accepted elements contain
// the identity and are closed under composition (the verified symmetries of
// a game among the automorphisms of its graph are such a set).
//
// It never enumerates gr. It computes H's stabiliser chain along gr's base
// from the bottom up: at level i, for each point γ of the orbit of Base[i]
// under gr's stabiliser of Base[0:i], unless γ already lies in the orbit of
// Base[i] under the subgroup found so far (then it is reachable) or in the
// orbit of a point shown unreachable (then it is not), it searches the
// coset of gr's elements that fix Base[0:i] and map Base[i] to γ for one
// accepted element, backtracking over the levels below and pruning every
// coset that test rejects. Each found element joins H's generators; the
// order of H is the exact product of the lengths of the orbits of Base[i]
// under H's stabilisers. The result's generators are a strong generating
// set relative to gr's base, so Contains and Elements work on it.
//
// lim.MaxNodes bounds the search nodes (tests of partial cosets) of the
// whole computation.
func (gr *Group) Subgroup(ctx context.Context, test CosetTest, lim Limits) (*Group, error) {
	return gr.SubgroupNodes(ctx, func(c *Coset) (bool, error) { return test(c.Partial, c.Fixed, c.Complete) }, lim)
}

// SubgroupNodes is Subgroup with a CosetNodeTest.
func (gr *Group) SubgroupNodes(ctx context.Context, test CosetNodeTest, lim Limits) (*Group, error) {
	return gr.SubgroupFrom(ctx, nil, test, lim)
}

// SubgroupFrom is SubgroupNodes given elements of gr already known to be
// accepted (the caller vouches for them: test would accept each as
// complete), such as the generators of gr that verified. Each joins H's
// generators at the level of the first base point it moves, before that
// level's searches (unless it adds nothing there), so the points it
// reaches need no search. Once every level from j down is complete (H's
// stabiliser of Base[0:j] is gr's), a coset below j holds an accepted
// element exactly when its representative is one, since H is a group: the
// search tests the representative and goes no deeper. Seeded with all of
// gr's generators, it tests no coset.
func (gr *Group) SubgroupFrom(ctx context.Context, known []Sparse, test CosetNodeTest, lim Limits) (*Group, error) {
	gr.buildChain()
	cs := newCosetSearch(gr, test, lim)
	k := len(gr.Base)
	seeds := make([][]Sparse, k)
	for gi, i := range firstMovedAll(known, gr.Base, gr.n) {
		if i < k {
			seeds[i] = append(seeds[i], known[gi])
		}
	}
	var gens []Sparse
	order := big.NewInt(1)
	orbit := make([]int32, 0) // orbit of Base[i] under the generators found so far
	for i := k - 1; i >= 0; i-- {
		lv := gr.chain[i]
		if len(lv.orbit) == 1 {
			if cs.completeFrom == i+1 {
				cs.completeFrom = i
			}
			continue
		}
		reach := newOrbitSet(gr.n)
		failed := newOrbitSet(gr.n)
		orbit = reach.grow(orbit[:0], gr.Base[i], gens)
		for _, x := range seeds[i] {
			// A seed that maps Base[i] into the orbit is h∘s for some h
			// of the subgroup so far and s of its (complete) stabiliser
			// of Base[i]: it adds nothing.
			if !reach.has(x.Image(gr.Base[i])) {
				gens = append(gens, x)
				orbit = reach.close(orbit, gens)
			}
		}
		var allow func(w int32) bool
		asked := false
		for q := 1; q < len(lv.orbit); q++ {
			gamma := lv.orbit[q]
			if reach.has(gamma) || failed.has(gamma) {
				continue
			}
			// Only for a level with a coset to search, whose search
			// goes below its root (else one test per image is as cheap).
			// Asked while the test restricts: a test that does not
			// restrict G_i is asked again only once it has restricted
			// some other coset, so one that never does costs one node.
			if !asked && i+1 < cs.completeFrom && cs.restricts {
				asked = true
				var err error
				if allow, err = cs.levelAllow(i); err != nil {
					return nil, err
				}
				cs.restricts = allow != nil
			}
			if allow != nil && !allow(gamma) {
				// No accepted element of G_i maps Base[i] to gamma.
				cs.stats.Pruned++
				failed.grow(nil, gamma, gens)
				continue
			}
			gr.transversal(cs.comp, lv, q, cs.t)
			x, err := cs.find(ctx, Mapping(cs.t), i+1, gens)
			if err != nil {
				return nil, err
			}
			if x == nil {
				failed.grow(nil, gamma, gens)
				continue
			}
			gens = append(gens, SparseOf(Perm(x)))
			orbit = reach.close(orbit, gens)
		}
		cs.hOrbit[i] = len(orbit)
		if len(orbit) == len(lv.orbit) && cs.completeFrom == i+1 {
			cs.completeFrom = i
		}
		order.Mul(order, big.NewInt(int64(len(orbit))))
	}
	return newGroup(gr.n, gens, order, gr.Base, cs.stats), nil
}

// FindInCoset searches the coset f∘gr (f maps gr's vertices to another
// graph's, gr acts on the first) for one element that test accepts as
// complete, with the backtrack of Subgroup over gr's base: every coset
// that test rejects is pruned. It returns nil when no element is accepted;
// lim.MaxNodes bounds the search nodes. With f an isomorphism from g to h
// and gr the automorphism group of g, the coset holds exactly every
// isomorphism from g to h.
func (gr *Group) FindInCoset(ctx context.Context, f Mapping, test CosetNodeTest, lim Limits) (Mapping, Stats, error) {
	gr.buildChain()
	cs := newCosetSearch(gr, test, lim)
	x, err := cs.find(ctx, f, 0, nil)
	return x, cs.stats, err
}

// cosetSearch is the backtrack of Subgroup.
type cosetSearch struct {
	gr       *Group
	test     CosetNodeTest
	node     Coset
	maxNodes int64
	stats    Stats
	// detLevel[v] is the first level j at which v's image is determined:
	// every generator of the stabiliser of Base[0:j] fixes v.
	detLevel []int
	newly    [][]int32 // newly[j]: the vertices with detLevel j
	partial  Mapping
	// cur is the coset representative at the level being searched; a
	// child's differs only where its transversal element moves, so the
	// changes are applied in place and undone on return (undo: pairs of
	// vertex and old image) instead of keeping one n-word product per
	// level (amazonsSuicide: 31,920 levels of 278,631 vertices, beyond
	// 8 GiB).
	cur      []int32
	undo     []int32
	pending  []int32
	t        []int32
	fixedBuf []int32
	// hOrbit[j] is the length of the orbit of Base[j] under H's
	// stabiliser of Base[0:j], once level j is done (1 before).
	hOrbit []int
	tried  []*markSet // per level: images tried, closed under the known stabiliser
	// orbits[j]: the orbits of G_j (Coset.Cells), kept while their total
	// size stays within maxOrbitWords, else recomputed at each call.
	orbits     [][]int32
	orbitWords int
	scratch    []int32
	// completeFrom is the least j such that H's stabiliser of Base[0:j]
	// is known to be all of gr's (every level from j on is done and its
	// H-orbit is the whole orbit); len(Base) until then.
	completeFrom int
	restBuf      []int32
	comp         *composer // scratch of transversals
	id           []int32   // the identity, levelAllow's representative
	restricts    bool      // levelAllow is worth asking (Restrict seen, or not yet asked)
}

// maxOrbitWords bounds the orbit tables that Coset.Cells keeps (int32s).
const maxOrbitWords = 1 << 22

// orbitsAt returns the orbits of G_j, each vertex's as its smallest vertex.
func (cs *cosetSearch) orbitsAt(j int) []int32 {
	if j < len(cs.orbits) && cs.orbits[j] != nil {
		return cs.orbits[j]
	}
	gr := cs.gr
	var orb []int32
	keep := cs.orbitWords+gr.n <= maxOrbitWords
	if keep {
		orb = make([]int32, gr.n)
		cs.orbitWords += gr.n
	} else {
		if cs.scratch == nil {
			cs.scratch = make([]int32, gr.n)
		}
		orb = cs.scratch
	}
	for v := range orb {
		orb[v] = int32(v)
	}
	find := func(v int32) int32 {
		for orb[v] != v {
			orb[v] = orb[orb[v]]
			v = orb[v]
		}
		return v
	}
	if j < len(gr.Base) {
		for _, gi := range gr.chain[j].gens {
			g := gr.Generators[gi]
			for k, v := range g.Points {
				a, b := find(v), find(g.Images[k])
				if a != b {
					orb[max(a, b)] = min(a, b)
				}
			}
		}
	}
	for v := range orb {
		orb[v] = find(int32(v))
	}
	if keep {
		for len(cs.orbits) <= j {
			cs.orbits = append(cs.orbits, nil)
		}
		cs.orbits[j] = orb
	}
	return orb
}

func newCosetSearch(gr *Group, test CosetNodeTest, lim Limits) *cosetSearch {
	k := len(gr.Base)
	cs := &cosetSearch{gr: gr, test: test, maxNodes: lim.maxNodes(), t: make([]int32, gr.n), comp: newComposer(gr.n)}
	moved := gr.moved
	if moved == nil { // no base: no chain
		moved = firstMovedAll(gr.Generators, gr.Base, gr.n)
	}
	cs.detLevel = make([]int, gr.n)
	for gi, g := range gr.Generators {
		for _, v := range g.Points {
			cs.detLevel[v] = max(cs.detLevel[v], min(moved[gi]+1, k))
		}
	}
	cs.newly = make([][]int32, k+1)
	for v, j := range cs.detLevel {
		cs.newly[j] = append(cs.newly[j], int32(v))
	}
	cs.partial = make(Mapping, gr.n)
	cs.cur = make([]int32, gr.n)
	cs.completeFrom = k
	cs.restricts = true
	cs.hOrbit = make([]int, k)
	for j := range cs.hOrbit {
		cs.hOrbit[j] = 1
	}
	return cs
}

// find searches the coset f∘G_from, where G_from is gr's pointwise
// stabiliser of Base[0:from], for an element that test accepts; it returns
// a fresh slice, or nil.
//
// gens are accepted elements found so far. If x is accepted and k is an
// accepted element fixing the images x(Base[0:j]), k∘x is accepted, lies in
// the same coset and maps Base[j] to k(x(Base[j])): at each level the
// search tries one image per orbit of the known elements that fix the
// images chosen above (for a coset without accepted elements this skips
// the subtrees equivalent to one already exhausted).
func (cs *cosetSearch) find(ctx context.Context, f Mapping, from int, gens []Sparse) (Mapping, error) {
	for v := range cs.partial {
		cs.partial[v] = -1
	}
	// At the coset's root every vertex determined at levels up to from is
	// newly determined.
	cs.fixedBuf = cs.fixedBuf[:0]
	for j := 0; j <= from; j++ {
		for _, v := range cs.newly[j] {
			cs.partial[v] = f[v]
			cs.fixedBuf = append(cs.fixedBuf, v)
		}
	}
	copy(cs.cur, f)
	cs.undo = cs.undo[:0]
	var root []Sparse
	for _, g := range gens {
		if fixesImages(g, f, cs.gr.Base[:from]) {
			root = append(root, g)
		}
	}
	var found Mapping
	first := true
	var rec func(j int, fixed []int32, stab []Sparse) (bool, error)
	rec = func(j int, fixed []int32, stab []Sparse) (bool, error) {
		atRoot := first
		first = false
		cs.stats.Nodes++
		if cs.stats.Nodes > cs.maxNodes {
			return false, &LimitError{What: "search nodes", Limit: cs.maxNodes, Got: cs.stats.Nodes}
		}
		if cs.stats.Nodes&255 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		complete := j == len(cs.gr.Base)
		if !complete && j >= cs.completeFrom {
			return cs.testRep(j, fixed, atRoot, &found)
		}
		cs.node = Coset{Partial: cs.partial, Fixed: fixed, Complete: complete, Root: atRoot, cs: cs, level: j, rep: cs.cur}
		ok, err := cs.test(&cs.node)
		if err != nil || !ok {
			return false, err
		}
		if complete {
			cs.stats.Leaves++
			found = slices.Clone(cs.partial)
			return true, nil
		}
		allow := cs.node.allow // cs.node is the children's next
		cs.restricts = cs.restricts || allow != nil
		lv := cs.gr.chain[j]
		cur := cs.cur
		b := cs.gr.Base[j]
		var tried *markSet  // images of b equivalent under stab to one tried
		var moving []Sparse // the elements of stab that move some image of b
		if len(stab) > 0 {
			tried = cs.triedSet(j)
			defer tried.clear()
			// stab fixes cur(Base[0:j]), so it maps the images of b,
			// cur(orbit), among themselves: the others add nothing to
			// the tried orbits (often most of them, e.g. swaps of
			// interchangeable actions below a board's points).
			for _, g := range stab {
				for _, o := range lv.orbit {
					if p := cur[o]; g.Image(p) != p {
						moving = append(moving, g)
						break
					}
				}
			}
		}
		// If an accepted x lies below, so do x∘h for every h in H's
		// stabiliser of Base[0:j] (known: j is below the level being
		// computed), whose images of b are the hOrbit[j] points x(Δ),
		// Δ the orbit of b under that stabiliser; so one of the first
		// len(orbit)-hOrbit[j]+1 images tried holds one (Leon's criterion).
		tries := len(lv.orbit) - cs.hOrbit[j] + 1
		for q := range lv.orbit {
			if q >= tries {
				break
			}
			// next = cur∘t differs from cur only where t moves.
			cs.gr.compose(cs.comp, lv, q)
			img := cur[cs.comp.fwd[b]]
			if allow != nil && !allow(img) {
				cs.stats.Pruned++ // no accepted element maps b to img
				continue
			}
			if len(stab) > 0 {
				if tried.has(img) {
					continue
				}
				tried.addOrbit(img, moving)
			}
			// cur∘t, in place: the new images first (they read cur),
			// then applied with the old ones kept for the undo.
			cs.pending = cs.pending[:0]
			cs.comp.moved(func(v, w int32) { cs.pending = append(cs.pending, v, cur[w]) })
			mark := len(cs.undo)
			for k := 0; k < len(cs.pending); k += 2 {
				v := cs.pending[k]
				cs.undo = append(cs.undo, v, cur[v])
				cur[v] = cs.pending[k+1]
			}
			for _, v := range cs.newly[j+1] {
				cs.partial[v] = cur[v]
			}
			var below []Sparse
			for _, g := range stab {
				if g.Image(img) == img {
					below = append(below, g)
				}
			}
			ok, err := rec(j+1, cs.newly[j+1], below)
			for _, v := range cs.newly[j+1] {
				cs.partial[v] = -1
			}
			for k := len(cs.undo) - 2; k >= mark; k -= 2 {
				cur[cs.undo[k]] = cs.undo[k+1]
			}
			cs.undo = cs.undo[:mark]
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	if _, err := rec(from, cs.fixedBuf, root); err != nil {
		return nil, err
	}
	return found, nil
}

// testRep decides the coset rep∘G_j when G_j lies in H (j >=
// completeFrom): the coset holds an accepted element exactly when rep does
// (if rep∘h is accepted, so is rep = (rep∘h)∘h⁻¹), so rep is tested as a
// complete element, with every vertex not yet fixed as newly fixed.
func (cs *cosetSearch) testRep(j int, fixed []int32, root bool, found *Mapping) (bool, error) {
	rep := cs.cur
	rest := append(cs.restBuf[:0], fixed...)
	for i := j + 1; i < len(cs.newly); i++ {
		for _, v := range cs.newly[i] {
			cs.partial[v] = rep[v]
			rest = append(rest, v)
		}
	}
	cs.restBuf = rest
	defer func() {
		for i := j + 1; i < len(cs.newly); i++ {
			for _, v := range cs.newly[i] {
				cs.partial[v] = -1
			}
		}
	}()
	cs.node = Coset{Partial: cs.partial, Fixed: rest, Complete: true, Root: root, cs: cs, level: len(cs.gr.Base), rep: rep}
	ok, err := cs.test(&cs.node)
	if err != nil || !ok {
		return false, err
	}
	cs.stats.Leaves++
	*found = slices.Clone(cs.partial)
	return true, nil
}

// levelAllow tests the coset G_i itself (the identity's, a root) before
// level i's coset searches, and returns the restriction of its children
// (Coset.Restrict) that the test set, or nil: the images of Base[i] it
// excludes need no coset search of their own. A test that rejects G_i
// (it holds the identity, which a subgroup's test accepts) restricts
// nothing.
func (cs *cosetSearch) levelAllow(i int) (func(w int32) bool, error) {
	if cs.id == nil {
		cs.id = make([]int32, cs.gr.n)
		for v := range cs.id {
			cs.id[v] = int32(v)
		}
	}
	for v := range cs.partial {
		cs.partial[v] = -1
	}
	fixed := cs.fixedBuf[:0]
	for j := 0; j <= i; j++ {
		for _, v := range cs.newly[j] {
			cs.partial[v] = int32(v)
			fixed = append(fixed, v)
		}
	}
	cs.fixedBuf = fixed
	cs.stats.Nodes++
	cs.node = Coset{Partial: cs.partial, Fixed: fixed, Root: true, cs: cs, level: i, rep: cs.id}
	ok, err := cs.test(&cs.node)
	for _, v := range fixed {
		cs.partial[v] = -1
	}
	if err != nil || !ok {
		return nil, err
	}
	return cs.node.allow, nil
}

// fixesImages reports whether g fixes f(b) for every b in base.
func fixesImages(g Sparse, f Mapping, base []int32) bool {
	for _, b := range base {
		if g.Image(f[b]) != f[b] {
			return false
		}
	}
	return true
}

// triedSet returns level j's empty set of tried images.
func (cs *cosetSearch) triedSet(j int) *markSet {
	for len(cs.tried) <= j {
		cs.tried = append(cs.tried, nil)
	}
	if cs.tried[j] == nil {
		cs.tried[j] = &markSet{in: make([]bool, cs.gr.n)}
	}
	return cs.tried[j]
}

// markSet is a set of points that remembers its members, so that clearing
// it costs their number rather than the graph's order.
type markSet struct {
	in   []bool
	list []int32
}

func (m *markSet) has(v int32) bool { return m.in[v] }

// addOrbit adds v, not yet in the set, and its orbit under gens.
func (m *markSet) addOrbit(v int32, gens []Sparse) {
	start := len(m.list)
	m.in[v] = true
	m.list = append(m.list, v)
	for q := start; q < len(m.list); q++ {
		for _, g := range gens {
			if w := g.Image(m.list[q]); !m.in[w] {
				m.in[w] = true
				m.list = append(m.list, w)
			}
		}
	}
}

func (m *markSet) clear() {
	for _, v := range m.list {
		m.in[v] = false
	}
	m.list = m.list[:0]
}

// orbitSet is a set of points closed under a list of permutations.
type orbitSet struct{ in []bool }

func newOrbitSet(n int) orbitSet { return orbitSet{in: make([]bool, n)} }

func (o orbitSet) has(v int32) bool { return o.in[v] }

// grow adds v, not yet in the set, and its orbit under gens to the set and
// to list, which it returns.
func (o orbitSet) grow(list []int32, v int32, gens []Sparse) []int32 {
	o.in[v] = true
	list = append(list, v)
	return o.closeFrom(list, len(list)-1, gens)
}

// close extends list, the set's elements, to its closure under gens.
func (o orbitSet) close(list []int32, gens []Sparse) []int32 { return o.closeFrom(list, 0, gens) }

// closeFrom closes list under gens, expanding the elements from start on.
func (o orbitSet) closeFrom(list []int32, start int, gens []Sparse) []int32 {
	for q := start; q < len(list); q++ {
		for _, g := range gens {
			if w := g.Image(list[q]); !o.in[w] {
				o.in[w] = true
				list = append(list, w)
			}
		}
	}
	return list
}

// newGroup makes a Group from a strong generating set relative to base.
func newGroup(n int, gens []Sparse, order *big.Int, base []int32, st Stats) *Group {
	parent := make([]int32, n)
	for v := range parent {
		parent[v] = int32(v)
	}
	var find func(v int32) int32
	find = func(v int32) int32 {
		for parent[v] != v {
			parent[v] = parent[parent[v]]
			v = parent[v]
		}
		return v
	}
	for _, g := range gens {
		for k, v := range g.Points {
			a, b := find(v), find(g.Images[k])
			if a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	orbits := make([]int32, n)
	for v := range orbits {
		orbits[v] = find(int32(v))
	}
	st.Generators = len(gens)
	return &Group{n: n, Generators: gens, Order: order, Base: slices.Clone(base), Orbits: orbits, Stats: st}
}
