package equiv

import (
	"slices"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
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
	s      *search
	sigA   map[int][]uint64 // sorted signatures of A by level
	sigB   []uint64
	vals   []uint64
	buf    []uint64
	funcs  []int32 // F: indices into s.funcs
	imgs   []grounding.Lit
	inA    []int32 // unmapped propositions of A
	nodes  int64
	pruned int64
	off    bool
}

// cofactorWords is the number of propositions evaluated together (one word
// of 64 random states each) per evaluation of the circuit.
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
// its image.
func (c *cofactorCheck) signatures(a bool, partial isomorph.Mapping) []uint64 {
	s := c.s
	pa, ga, pb, gb := s.a.p, s.a.g, s.b.p, s.b.g
	p := pb
	if a {
		p = pa
	}
	const w = cofactorWords
	nn := p.Circuit.NumNodes()
	if len(c.vals) < nn*w {
		c.vals = make([]uint64, nn*w)
	}
	vals := c.vals[:nn*w]
	clear(vals)
	// The random states, on M (A) or its image (B); image[j] marks B's
	// propositions in the image.
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
		r := mix(uint64(i)*0x9e3779b97f4a7c15 + 0x2545f4914f6cdd1d)
		node := p.TrueInput(j).Node()
		for k := range w {
			vals[node*w+k] = r
		}
	}
	var lits []grounding.Lit
	if a {
		for _, f := range c.funcs {
			lits = append(lits, s.funcs[f].Lit)
		}
	} else {
		lits = c.imgs
	}
	var out []uint64
	var batch []int
	flush := func() {
		for k, j := range batch {
			node := p.TrueInput(j).Node()
			vals[node*w+k] = ^uint64(0)
		}
		p.Circuit.EvalWords(vals, w)
		for k := range batch {
			h := uint64(len(lits))
			for _, l := range lits {
				x := vals[l.Node()*w+k] ^ -uint64(l&1)
				h = mix(h ^ x)
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
	slices.Sort(out)
	return out
}
