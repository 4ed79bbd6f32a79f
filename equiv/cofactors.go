package equiv

import (
	"slices"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

// cofactorWay says how cofactor signatures are computed.
type cofactorWay int8

const (
	wayCheaper cofactorWay = iota // whichever costs fewer gate evaluations
	wayFlips
	wayBatches
	nWays
)

// cofactorCheck refutes a node of Symmetries' subgroup search from the
// images the unmapped propositions can still take. Let F be the goal and
// terminal functions whose own vertex is mapped, M the mapped propositions
// of A, and r_1..r_64 random states of M (the rest false). For an unmapped
// proposition u of A, its signature is the bits f(r_i + u) of every f in F;
// for an unmapped proposition w of B, the bits of f's image on σ(r_i) + w,
// σ the partial mapping. A symmetry extending σ maps r_i + u onto
// σ(r_i) + σ(u) and keeps each f equal to its image on every state, so u
// and σ(u) have the same signature: where the multisets of signatures
// differ, no completion verifies. refute sees a difference only on states
// of the mapped propositions alone; this sees one proposition more, which
// is what decides a board's lines and squares (in quad, three mapped
// corners and the one unmapped cell that completes their square) long
// before the whole board is mapped.
//
// A's multiset depends only on the level of the coset (the mapped vertices
// are those the level determines), so it is computed once per level.
type cofactorCheck struct {
	s    *search
	sigA map[int][]uint64 // sorted signatures of A by level
	sigB []uint64
	// cones[side][f]: function f's cone (side 0 A, 1 B), nil when it
	// cannot be built.
	cones  [2]map[grounding.Lit]*cofactorCone
	vals   []uint64    // byBatches' node values
	way    cofactorWay // tests force one way; the zero value picks the cheaper
	funcs  []int32     // F: indices into s.funcs
	imgs   []grounding.Lit
	inA    []int32 // unmapped propositions of A
	nodes  int64
	pruned int64
	off    bool
}

// cofactorWords is the number of propositions evaluated together (one word
// of 64 random states each) per evaluation of F's cones.
const cofactorWords = 8

// cofactorMaxWork bounds one side's work at a node, in word operations
// (circuit nodes times words evaluated); a game above it is not checked.
const cofactorMaxWork = 1 << 24

// cofactorGiveUp is the number of nodes the check runs without pruning
// any before it turns itself off, as the probe check does.
const cofactorGiveUp = 64

func newCofactorCheck(s *search) *cofactorCheck {
	return &cofactorCheck{s: s, sigA: map[int][]uint64{}}
}

// refutes reports whether the signatures show that no completion of the
// partial mapping verifies. key identifies the set of vertices of A that
// partial maps (the same at every node with that key): the level of a
// coset, or the depth of a node of an isomorph search (the first path's
// singletons).
func (c *cofactorCheck) refutes(key int, partial isomorph.Mapping) bool {
	if c.off {
		return false
	}
	if c.nodes >= cofactorGiveUp && c.pruned == 0 {
		c.off = true
		return false
	}
	s := c.s
	pa := s.a.p
	if work := int64(len(pa.Props)) * int64(pa.Circuit.NumNodes()); work > cofactorMaxWork {
		c.off = true
		return false
	}
	// F and the images, in A's order.
	c.funcs, c.imgs = c.funcs[:0], c.imgs[:0]
	for f, fn := range s.funcs {
		if fn.Kind != grounding.FuncGoal && fn.Kind != grounding.FuncTerminal {
			continue
		}
		if !s.ownMapped(partial, f) {
			continue
		}
		fb, ok := s.imageFunc(partial, fn)
		if !ok {
			return false // the search's own checks reject it
		}
		c.funcs = append(c.funcs, int32(f))
		c.imgs = append(c.imgs, fb)
	}
	if len(c.funcs) == 0 {
		return false
	}
	c.nodes++
	sa, ok := c.sigA[key]
	if !ok {
		sa = c.signatures(true, partial)
		if sa == nil {
			return false
		}
		c.sigA[key] = sa
	}
	sb := c.signatures(false, partial)
	if sb == nil || slices.Equal(sa, sb) {
		return false
	}
	c.pruned++
	return true
}

// signatures returns the sorted signatures of the unmapped propositions of
// A (side a) or of B, nil when a mapped proposition has no proposition as
// its image or a function's cone cannot be built. Only F's cones are
// evaluated (the whole circuit cost quad's search 25% of its time, most of
// it on next and legal functions that no signature reads), in one of two
// ways of the same result, whichever costs fewer gate evaluations:
// cofactorWords propositions at a time on the union of the cones, or each
// cone once on the random states and then each unmapped proposition it
// reads flipped (ConeSim.Flip re-evaluates only its fanout). Flips are
// cheaper where a proposition reaches a small part of the cones (quad's
// squares: 2.7 against 6.4 CPU s), batches where it reaches most of them
// (quarto's lines of pieces: 1.0 against 3.1 CPU s).
func (c *cofactorCheck) signatures(a bool, partial isomorph.Mapping) []uint64 {
	s := c.s
	pa, ga, pb, gb := s.a.p, s.a.g, s.b.p, s.b.g
	p, side := pb, 1
	if a {
		p, side = pa, 0
	}
	var lits []grounding.Lit
	if a {
		for _, f := range c.funcs {
			lits = append(lits, s.funcs[f].Lit)
		}
	} else {
		lits = c.imgs
	}
	cones := make([]*cofactorCone, len(lits))
	for x, l := range lits {
		cc, ok := c.coneOf(side, p, l)
		if !ok {
			return nil
		}
		cones[x] = cc
	}
	// The random states, on M (A) or its image (B): r[j] is proposition
	// j's word of 64 states; mapped marks M or its image.
	r := make([]uint64, len(p.Props))
	mapped := make([]bool, len(p.Props))
	for i := range pa.Props {
		w0 := partial[ga.PropVertex(i)]
		if w0 < 0 {
			continue
		}
		v := gb.Vertex(int(w0))
		if v.Kind != groundgraph.Prop {
			return nil
		}
		j := i
		if !a {
			j = v.Index
		}
		mapped[j] = true
		r[j] = mix(uint64(i)*0x9e3779b97f4a7c15 + 0x2545f4914f6cdd1d)
	}
	var gates []int32
	var flipWork int64
	for _, cc := range cones {
		gates = append(gates, cc.cn.Gates...)
		flipWork += int64(len(cc.cn.Gates))
		for k, in := range cc.cn.Inputs {
			if int(in) < len(p.Props) && !mapped[in] {
				flipWork += int64(cc.fanout[k])
			}
		}
	}
	slices.Sort(gates)
	gates = slices.Compact(gates)
	unmapped := int64(len(p.Props))
	for _, m := range mapped {
		if m {
			unmapped--
		}
	}
	var out []uint64
	if c.way == wayFlips || c.way == wayCheaper && cofactorFlipFactor*flipWork < unmapped*int64(len(gates)) {
		out = c.byFlips(p, cones, r, mapped)
	} else {
		out = c.byBatches(p, lits, gates, r, mapped)
	}
	slices.Sort(out)
	return out
}

// cofactorFlipFactor weighs a gate that Flip re-evaluates against one
// evaluated in a batch (bookkeeping of the event-driven walk, one word
// against cofactorWords); 4 separates quad (flips 2.4 times faster) from
// quarto (3 times slower), whose estimates differ by 2.5 times.
const cofactorFlipFactor = 4

// cofactorCone is one function's cone, its simulator and the size of each
// cone input's fanout (indices as cn.Inputs).
type cofactorCone struct {
	cn     *grounding.Cone
	sim    *grounding.ConeSim
	fanout []int32
}

// coneOf returns function l's cone on one side, built once.
func (c *cofactorCheck) coneOf(side int, p *grounding.Program, l grounding.Lit) (*cofactorCone, bool) {
	if cc, ok := c.cones[side][l]; ok {
		return cc, cc != nil
	}
	if c.cones[side] == nil {
		c.cones[side] = map[grounding.Lit]*cofactorCone{}
	}
	cn, err := grounding.NewCone(&p.Circuit, l)
	if err != nil {
		c.cones[side][l] = nil
		return nil, false
	}
	cc := &cofactorCone{cn: cn, sim: grounding.NewConeSim(cn, 1), fanout: make([]int32, len(cn.Inputs))}
	var buf []int32
	for k := range cn.Inputs {
		buf = cn.Fanout(k, buf)
		cc.fanout[k] = int32(len(buf))
	}
	c.cones[side][l] = cc
	return cc, true
}

// byFlips returns the signatures of the unmapped propositions by
// simulating each cone on the states r and flipping each unmapped
// proposition it reads; a cone that does not read one keeps its value.
func (c *cofactorCheck) byFlips(p *grounding.Program, cones []*cofactorCone, r []uint64, mapped []bool) []uint64 {
	base := make([]uint64, len(cones))
	for x, cc := range cones {
		for k, in := range cc.cn.Inputs {
			v := uint64(0)
			if int(in) < len(p.Props) {
				v = r[in] // actions read false: no move made
			}
			cc.sim.In(k)[0] = v
		}
		cc.sim.Eval(base[x : x+1])
	}
	var out []uint64
	var fl [1]uint64
	for j := range p.Props {
		if mapped[j] {
			continue
		}
		h := uint64(len(cones))
		for x, cc := range cones {
			v := base[x]
			if k, ok := slices.BinarySearch(cc.cn.Inputs, int32(j)); ok {
				cc.sim.Flip(k, 1, fl[:])
				v = fl[0]
			}
			h = mix(h ^ v)
		}
		out = append(out, h)
	}
	return out
}

// byBatches returns the signatures of the unmapped propositions by
// evaluating gates (the union of the cones of lits, ascending)
// cofactorWords propositions at a time, each in its own word.
func (c *cofactorCheck) byBatches(p *grounding.Program, lits []grounding.Lit, gates []int32, r []uint64, mapped []bool) []uint64 {
	const w = cofactorWords
	nn := p.Circuit.NumNodes()
	if len(c.vals) < nn*w {
		c.vals = make([]uint64, nn*w)
	}
	vals := c.vals[:nn*w]
	clear(vals[:(p.Circuit.NumInputs+1)*w])
	for j := range p.Props {
		if mapped[j] {
			node := p.TrueInput(j).Node()
			for k := range w {
				vals[node*w+k] = r[j]
			}
		}
	}
	var out []uint64
	var batch []int
	flush := func() {
		for k, j := range batch {
			vals[p.TrueInput(j).Node()*w+k] = ^uint64(0)
		}
		evalGates(&p.Circuit, gates, vals, w)
		for k := range batch {
			h := uint64(len(lits))
			for _, l := range lits {
				h = mix(h ^ vals[l.Node()*w+k] ^ -uint64(l&1))
			}
			out = append(out, h)
		}
		for k, j := range batch {
			vals[p.TrueInput(j).Node()*w+k] = 0
		}
		batch = batch[:0]
	}
	for j := range p.Props {
		if mapped[j] {
			continue
		}
		batch = append(batch, j)
		if len(batch) == w {
			flush()
		}
	}
	if len(batch) > 0 {
		flush()
	}
	return out
}

// evalGates is Circuit.EvalWords on the given gates only (ascending, closed
// under fanin): the constant's and inputs' words must be set.
func evalGates(cc *grounding.Circuit, gates []int32, vals []uint64, w int) {
	for _, g := range gates {
		dst := vals[int(g)*w:][:w]
		for i := range dst {
			dst[i] = ^uint64(0)
		}
		for _, l := range cc.Fanins(int(g)) {
			src := vals[l.Node()*w:][:w]
			neg := -uint64(l & 1)
			for i := range dst {
				dst[i] &= src[i] ^ neg
			}
		}
	}
}
