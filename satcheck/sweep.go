package satcheck

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
)

// SAT sweeping: instead of one miter over two whole cones, which gophersat
// may take minutes on when the two circuits are written differently, both
// cones are merged into one graph over the joint variables (structurally
// hashed, so identical sub-circuits become one node), simulated on random
// one-hot-respecting vectors, and swept in topological order: a node whose
// signature equals an earlier node's (or its complement's, or a constant's)
// is proven equal to it by a small SAT question and only then merged. With
// the internal equivalences merged, the two roots usually land on the same
// node, and the final miter is never built.
//
// Soundness: a merge happens only after an UNSAT answer to "x ≠ y" over a
// window of the merged graph whose cut nodes are free variables (an
// over-approximation of the values they can take) under the group
// constraints, which hold for every input the functions are compared on. So
// every merged pair is equal under those constraints, substituting one for the
// other changes no function, and the roots are declared equal only when they
// are the same literal of the swept graph, when their cut BDDs (sweepbdd.go:
// the nodes both read taken as free variables, an over-approximation too)
// are equal, or when the final full miter is UNSAT. An internal proof
// stopped at Options.SweepProofConflicts leaves its nodes apart; the final
// miter is never stopped so. Simulation only proposes candidates; it never
// decides an equality.

// Default sweeping settings (Options.SweepMinGates, Options.SweepWindow).
const (
	DefaultSweepMinGates = 256  // smaller pairs go straight to one miter
	DefaultSweepWindow   = 1000 // gates of the swept graph per proof window
)

// maxSweepSigWords bounds the simulation signatures of one sweep (nodes ×
// words, 8 bytes each: 256 MiB); a larger graph is simulated with fewer
// words, or not swept.
const maxSweepSigWords = 1 << 25

// sweepFirstWindow is the first, small proof window of a candidate pair.
const sweepFirstWindow = 24

// sweepCexWords bounds the counterexample words added to the signatures (64
// counterexamples each) when a proposed pair turns out different.
const sweepCexWords = 32

// sweepMinSimWords is the least number of random words a sweep simulates.
// Functions of game states are conjunctions of many propositions, rarely
// true on uniform random states; more words, at several densities (see
// biasProps), leave fewer false candidates for SAT to refute one by one.
const sweepMinSimWords = 32

// biasProps redraws the free propositions of some words of vec at densities
// other than 1/2: word i has density 1/2, 1/4, 3/4, 1/8, 7/8, ... in turn, so
// that nodes true only on sparse or dense states are simulated too.
func biasProps(j *joint, vec []uint64, w int, rng *rand.Rand) {
	for i := 1; i < w; i++ {
		k := (i+1)/2%4 + 1 // 1..4: density 2^-k or 1-2^-k
		dense := i%2 == 0
		for _, v := range j.props {
			x := ^uint64(0)
			for range k {
				x &= rng.Uint64()
			}
			if dense {
				x = ^x
			}
			vec[int(v)*w+i] = x
		}
	}
}

// sweepGraph is two cones merged over the joint variables: node 0 is the
// constant false, nodes 1..len(j.vars) the joint variables, gates follow in
// topological order. Literals are node<<1 | negated.
type sweepGraph struct {
	nv     int
	start  []int32  // fanins of gate node n are fanin[start[n-nv-1]:start[n-nv]]
	fanin  []uint32 // as built (structurally hashed, not swept)
	strash map[string]uint32
	key    []byte // scratch

	// With lemmas (lemmas.go): orig[n] is a circuit node that node n
	// stands for, complemented when oph[n] is 1 (the first one added;
	// same lists the others, as pairs of equal origins).
	orig []origin
	oph  []uint8
	same []originPair
}

// originPair is x == y ^ neg, found while building a sweep graph.
type originPair struct {
	x, y origin
	neg  uint32
}

const (
	litFalse uint32 = 0
	litTrue  uint32 = 1
)

func newSweepGraph(nv int) *sweepGraph {
	return &sweepGraph{nv: nv, start: []int32{0}, strash: map[string]uint32{}}
}

// trackOrigins names the constant and the joint variables of j by their
// inputs (A's when A's function reads one) and makes addCone name gates.
func (g *sweepGraph) trackOrigins(j *joint) {
	g.orig = make([]origin, 1+len(j.vars))
	g.oph = make([]uint8, 1+len(j.vars))
	for v, x := range j.vars {
		o := originOf(1, x.bIn+1)
		if x.aIn >= 0 {
			o = originOf(0, x.aIn+1)
			g.same = append(g.same, originPair{o, originOf(1, x.bIn+1), 0})
		}
		g.orig[v+1] = o
	}
}

// note records that literal l of g is circuit node o of one side.
func (g *sweepGraph) note(l uint32, o origin) {
	n := l >> 1
	for int(n) >= len(g.orig) {
		g.orig = append(g.orig, 0)
		g.oph = append(g.oph, 0)
	}
	if g.orig[n] == 0 && n != 0 {
		g.orig[n], g.oph[n] = o, uint8(l&1)
		return
	}
	g.same = append(g.same, originPair{o, g.orig[n], uint32(g.oph[n]) ^ l&1})
}

func (g *sweepGraph) numNodes() int        { return g.nv + len(g.start) }
func (g *sweepGraph) isGate(n uint32) bool { return int(n) > g.nv }
func (g *sweepGraph) gateFanin(n uint32) []uint32 {
	i := int(n) - g.nv - 1
	return g.fanin[g.start[i]:g.start[i+1]]
}

// normalizeAnd simplifies AND(fs) in place: sorted, duplicate- and
// true-free. It returns a constant or single literal when the gate reduces to
// one (ok false), else the remaining fanins.
func normalizeAnd(fs []uint32) (out []uint32, lit uint32, ok bool) {
	slices.Sort(fs)
	fs = slices.Compact(fs)
	if len(fs) > 0 && fs[0] == litFalse {
		return nil, litFalse, false
	}
	if len(fs) > 0 && fs[0] == litTrue {
		fs = fs[1:]
	}
	for i := 1; i < len(fs); i++ {
		if fs[i] == fs[i-1]^1 {
			return nil, litFalse, false
		}
	}
	switch len(fs) {
	case 0:
		return nil, litTrue, false
	case 1:
		return nil, fs[0], false
	}
	return fs, 0, true
}

// and returns the literal of AND(fs), creating a gate only when no equal
// structure exists. fs is clobbered.
func (g *sweepGraph) and(fs []uint32) uint32 {
	fs, lit, ok := normalizeAnd(fs)
	if !ok {
		return lit
	}
	g.key = g.key[:0]
	for _, l := range fs {
		g.key = binary.LittleEndian.AppendUint32(g.key, l)
	}
	if l, ok := g.strash[string(g.key)]; ok {
		return l
	}
	n := uint32(g.numNodes())
	g.fanin = append(g.fanin, fs...)
	g.start = append(g.start, int32(len(g.fanin)))
	g.strash[string(g.key)] = n << 1
	return n << 1
}

// addCone copies cn into g with cone input k read as joint literal in(k) and
// returns the literal of its root; side (0: A, 1: B) names its gates'
// origins when g tracks them.
func (g *sweepGraph) addCone(cn *cone, vars []int32, side int) uint32 {
	lit := make([]uint32, cn.NumSlots())
	lit[0] = litFalse
	for k := range cn.Inputs {
		if v := vars[k]; v >= 0 {
			lit[1+k] = uint32(v+1) << 1
		} else {
			lit[1+k] = litFalse
		}
	}
	first := cn.FirstGate()
	var fs []uint32
	for gi := range cn.Gates {
		fs = fs[:0]
		for _, l := range cn.GateFanin(gi) {
			fs = append(fs, lit[l>>1]^(l&1))
		}
		lit[first+gi] = g.and(fs)
		if g.orig != nil {
			g.note(lit[first+gi], originOf(side, cn.Gates[gi]))
		}
	}
	return lit[cn.Root>>1] ^ (cn.Root & 1)
}

// sweeper holds the state of one sweep.
type sweeper struct {
	c    *Checker
	j    *joint
	g    *sweepGraph
	w    int      // signature words: random ones then counterexample words
	rw   int      // random words
	cw   int      // counterexample words
	sig  []uint64 // sig[n*w:]: value of node n
	in   []uint64 // in[v*w:]: vector of joint variable v
	nce  int      // counterexamples added
	nsim int      // of those, counterexamples simulated into sig (the rest wait for a batch)

	repr   []uint32          // repr[n]: literal n is merged into (n<<1 when none)
	red    map[string]uint32 // swept gates by their swept fanins
	rfan   [][]uint32        // rfan[n]: swept fanins of a representative gate n
	class  map[uint64]uint32 // hash of a normalized signature -> representative literal of that phase
	done   int               // gates processed (nodes nv+1 .. nv+done)
	merged int64
	key    []byte
	gen    []int32 // gen[n] == curGen: node n already visited by the current window
	curGen int32
	budget int // conflicts the sweep's solves may still use; negative: no bound
	proofs int // proofs asked so far (bounded by Options.BoundedEffort)

	// Lemmas (lemmas.go), nil without: the store, its generation, and
	// local[r], a literal of this graph equal to the class of origin r.
	lem         *lemmaStore
	lemGen      uint64
	local       map[origin]uint32
	lemmaMerged int64

	cutVals    []uint64 // extendCut's node values, reused
	cutRefuted int64    // candidate pairs extendCut separated
}

// errLemmaContradicted: a lemma says two nodes are equal, and a simulated
// vector of the sweep's own space tells them apart. Lemmas are exact, so
// this is a bug; the sweep stops rather than merge on it.
var errLemmaContradicted = errors.New("satcheck: internal error: a lemma of an earlier sweep is contradicted by simulation")

// byLemma merges node n into an earlier node that a lemma says it equals,
// or makes n its class's literal in this graph. It reports whether n was
// merged.
func (s *sweeper) byLemma(n uint32) (bool, error) {
	r, q, ok := s.lem.root(s.lemGen, s.g.orig[n])
	if !ok {
		return false, nil
	}
	q ^= uint32(s.g.oph[n]) // n<<1 == r ^ q
	if l, ok := s.local[r]; ok {
		// A lemma holds on every vector the sweep simulates, so the two
		// signatures must agree: a cheap check that catches a wrong
		// lemma (one kept past a change of map, say) before it merges.
		if !s.sameSig(n<<1, l^q) {
			return false, fmt.Errorf("%w (node %d of the sweep graph)", errLemmaContradicted, n)
		}
		s.repr[n] = s.resolve(l) ^ q
		s.lemmaMerged++
		return true, nil
	}
	s.local[r] = n<<1 ^ q
	return false, nil
}

// learn records that node n equals literal l of the swept graph, and
// makes l the literal of their class in this graph.
func (s *sweeper) learn(n, l uint32) {
	if s.lem == nil {
		return
	}
	m := l >> 1
	s.lem.union(s.lemGen, s.g.orig[n], s.g.orig[m], uint32(s.g.oph[n]^s.g.oph[m])^l&1)
	if r, q, ok := s.lem.root(s.lemGen, s.g.orig[n]); ok {
		s.local[r] = l ^ q ^ uint32(s.g.oph[n])
	}
}

// sweepMiter decides ca ≡ cb over j by sweeping. It returns the outcome like
// solveMiter: equal, or a separating assignment of the joint variables.
// A non-negative budget bounds the conflicts of all its SAT solves
// together: past it sweepMiter fails with errConflictBudget.
func (c *Checker) sweepMiter(ctx context.Context, j *joint, ca, cb *cone, budget int) (outcome, error) {
	g := newSweepGraph(len(j.vars))
	if j.lem != nil {
		g.trackOrigins(j)
	}
	ra := g.addCone(ca, j.aVar, 0)
	rb := g.addCone(cb, j.bVar, 1)
	s := &sweeper{c: c, j: j, g: g, rw: max(c.opt.SimWords, sweepMinSimWords), cw: sweepCexWords}
	if j.lem != nil {
		s.lem, s.lemGen = j.lem, j.lem.begin(j.im)
		defer j.lem.end()
		for _, p := range g.same {
			s.lem.union(s.lemGen, p.x, p.y, p.neg)
		}
	}
	if ra == rb {
		c.stats.structural.Add(1)
		return outcome{equal: true}, nil
	}
	if nn := g.numNodes(); nn*(s.rw+s.cw) > maxSweepSigWords {
		// A huge graph: fewer words, then no sweeping at all.
		s.rw, s.cw = max(c.opt.SimWords, 1), 4
		if nn*(s.rw+s.cw) > maxSweepSigWords {
			return c.plainMiter(ctx, j, ca, cb, budget)
		}
	}
	s.budget = budget
	s.w = s.rw + s.cw
	rng := rand.New(rand.NewPCG(c.opt.Seed, uint64(ra)<<32|uint64(rb)))
	vec := j.randomVectors(s.rw, nil, rng)
	biasProps(j, vec, s.rw, rng)
	s.in = make([]uint64, len(j.vars)*s.w)
	for v := range j.vars {
		copy(s.in[v*s.w:], vec[v*s.rw:(v+1)*s.rw])
	}
	s.simulateAll(0, s.rw)
	if bit := s.diffBit(ra, rb); bit >= 0 {
		c.stats.simRefuted.Add(1)
		return outcome{j: j, model: s.inputAt(bit)}, nil
	}
	nn := g.numNodes()
	s.repr = make([]uint32, nn)
	for n := range s.repr {
		s.repr[n] = uint32(n) << 1
	}
	s.red = map[string]uint32{}
	s.rfan = make([][]uint32, nn)
	s.gen = make([]int32, nn)
	s.class = map[uint64]uint32{}
	s.classify(litFalse)
	for v := 1; v <= g.nv; v++ {
		s.classify(uint32(v) << 1)
	}
	// The counterexamples an earlier sweep of this joint found (the
	// budgeted sweep before BDDs, for the unbounded one) refine the
	// classes at once instead of being searched for again; they are real
	// assignments, so they may also separate the roots.
	s.loadCex()
	defer s.keepCex()
	// Counted however the sweep ends: a budgeted sweep that runs out of
	// budget has still merged and refuted what it did.
	defer func() {
		c.stats.sweepMerged.Add(s.merged)
		c.stats.lemmaMerged.Add(s.lemmaMerged)
		c.stats.cutRefuted.Add(s.cutRefuted)
	}()
	if bit := s.diffBit(ra, rb); bit >= 0 {
		c.stats.simRefuted.Add(1)
		return outcome{j: j, model: s.inputAt(bit)}, nil
	}
	// Roots that combine shared gates differently (a count in another
	// order) are decided over those gates before any SAT question of the
	// unbounded sweep. Not in the budgeted sweep, which comes first: it
	// settles most pairs in milliseconds where a cut BDD that fails can
	// take seconds (the review of issue-leafsat18: 40-73x on a multiplier
	// bit written two ways).
	if budget < 0 && !j.cutTried && c.opt.Mode&NoBDD == 0 {
		j.cutTried = true
		ok, err := s.cutEqual(ctx, ra, rb, g.gateFanin)
		if err != nil {
			return outcome{}, err
		}
		if ok {
			c.stats.cutBDD.Add(1)
			return outcome{equal: true}, nil
		}
	}
	if s.lem != nil {
		s.local = map[origin]uint32{}
		for n := uint32(0); n <= uint32(g.nv); n++ {
			if _, err := s.byLemma(n); err != nil {
				return outcome{}, err
			}
		}
	}
	top := max(ra>>1, rb>>1)
	for n := uint32(g.nv + 1); n <= top; n++ {
		if err := ctx.Err(); err != nil {
			return outcome{}, err
		}
		if err := s.sweepNode(ctx, n); err != nil {
			return outcome{}, err
		}
	}
	xa, xb := s.resolve(ra), s.resolve(rb)
	if xa == xb {
		return outcome{equal: true}, nil
	}
	// The roots did not merge: first their cut BDDs over the nodes the
	// sweep merged, then the final miter over the swept graph, whole.
	if budget < 0 && !j.cutSweptTried && c.opt.Mode&NoBDD == 0 {
		j.cutSweptTried = true
		ok, err := s.cutEqual(ctx, xa, xb, func(n uint32) []uint32 { return s.rfan[n] })
		if err != nil {
			return outcome{}, err
		}
		if ok {
			c.stats.cutBDD.Add(1)
			s.learn(ra>>1, xb^ra&1)
			return outcome{equal: true}, nil
		}
	}
	sat, m, err := s.prove(ctx, xa, xb, 0, false)
	if err != nil {
		return outcome{}, err
	}
	if !sat {
		s.learn(ra>>1, xb^ra&1)
		return outcome{equal: true}, nil
	}
	return outcome{j: j, model: m}, nil
}

func (s *sweeper) resolve(l uint32) uint32 { return s.repr[l>>1] ^ (l & 1) }

// simulateAll computes signature words [lo, hi) of every node.
func (s *sweeper) simulateAll(lo, hi int) {
	g, w := s.g, s.w
	nn := g.numNodes()
	if s.sig == nil {
		s.sig = make([]uint64, nn*w)
	}
	for v := 0; v < g.nv; v++ {
		copy(s.sig[(v+1)*w+lo:(v+1)*w+hi], s.in[v*w+lo:v*w+hi])
	}
	for n := g.nv + 1; n < nn; n++ {
		out := s.sig[n*w+lo : n*w+hi]
		for i := range out {
			out[i] = ^uint64(0)
		}
		for _, l := range g.gateFanin(uint32(n)) {
			in := s.sig[int(l>>1)*w+lo : int(l>>1)*w+hi]
			neg := -uint64(l & 1)
			for i := range out {
				out[i] &= in[i] ^ neg
			}
		}
	}
}

// valid is the number of signature bits in use.
func (s *sweeper) valid() int { return 64*s.rw + s.nsim }

func (s *sweeper) bitOf(l uint32, bit int) bool {
	x := s.sig[int(l>>1)*s.w+bit/64]>>(bit%64)&1 == 1
	return x != (l&1 == 1)
}

// diffBit returns a valid bit where literals x and y differ, or -1.
func (s *sweeper) diffBit(x, y uint32) int {
	for bit := range s.valid() {
		if bit%64 == 0 && bit+64 <= s.valid() {
			wx := s.sig[int(x>>1)*s.w+bit/64] ^ -uint64(x&1)
			wy := s.sig[int(y>>1)*s.w+bit/64] ^ -uint64(y&1)
			if wx == wy {
				continue
			}
		}
		if s.bitOf(x, bit) != s.bitOf(y, bit) {
			return bit
		}
	}
	return -1
}

// inputAt reads the joint assignment of signature bit `bit`.
func (s *sweeper) inputAt(bit int) []bool {
	m := make([]bool, len(s.j.vars))
	for v := range m {
		m[v] = s.in[v*s.w+bit/64]>>(bit%64)&1 == 1
	}
	return m
}

// sigHash hashes the normalized signature of node n (complemented so that
// bit 0 is 0) and returns the phase that normalization applied.
func (s *sweeper) sigHash(n uint32) (uint64, uint32) {
	w := s.sig[int(n)*s.w : int(n+1)*s.w]
	ph := uint32(w[0] & 1)
	neg := -uint64(ph)
	h := uint64(0x9e3779b97f4a7c15)
	nv := s.valid()
	for i := 0; i*64 < nv; i++ {
		x := w[i] ^ neg
		if rem := nv - 64*i; rem < 64 {
			x &= 1<<rem - 1
		}
		h = (h ^ x) * 0x100000001b3
		h ^= h >> 29
	}
	return h, ph
}

// sameSig reports whether literals x and y have the same signature on the valid bits.
func (s *sweeper) sameSig(x, y uint32) bool { return s.diffBit(x, y) < 0 }

// classify records literal l (a representative) under its signature, unless
// the class has one already.
func (s *sweeper) classify(l uint32) {
	h, ph := s.sigHash(l >> 1)
	if _, ok := s.class[h]; !ok {
		s.class[h] = l ^ ph
	}
}

// candidate returns the representative literal equal to n on every
// simulated vector, if there is one.
func (s *sweeper) candidate(n uint32) (uint32, bool) {
	h, ph := s.sigHash(n)
	r, ok := s.class[h]
	if !ok {
		s.class[h] = (n << 1) ^ ph
		return 0, false
	}
	cand := r ^ ph
	if !s.sameSig(n<<1, cand) {
		return 0, false // a hash collision: no candidate
	}
	return cand, true
}

// reclassify rebuilds the classes after new counterexample bits.
func (s *sweeper) reclassify() {
	clear(s.class)
	s.classify(litFalse)
	for n := 1; n <= s.g.nv+s.done; n++ {
		if s.repr[n] == uint32(n)<<1 {
			s.classify(uint32(n) << 1)
		}
	}
}

// sweepNode rebuilds gate n over swept fanins and merges it into an earlier
// node when the structure or a proof says they are equal.
func (s *sweeper) sweepNode(ctx context.Context, n uint32) error {
	defer func() { s.done++ }()
	var fs []uint32
	for _, l := range s.g.gateFanin(n) {
		fs = append(fs, s.resolve(l))
	}
	fs, lit, ok := normalizeAnd(fs)
	if !ok {
		s.repr[n] = lit
		s.learn(n, lit)
		return nil
	}
	s.key = s.key[:0]
	for _, l := range fs {
		s.key = binary.LittleEndian.AppendUint32(s.key, l)
	}
	if l, ok := s.red[string(s.key)]; ok {
		s.repr[n] = s.resolve(l)
		s.learn(n, s.repr[n])
		return nil
	}
	s.red[string(s.key)] = n << 1 // also when a lemma merges n: later copies of it follow
	if s.lem != nil {
		if merged, err := s.byLemma(n); merged || err != nil {
			return err
		}
	}
	s.rfan[n] = fs
	cand, ok := s.candidate(n)
	if !ok {
		return nil
	}
	// n and cand have the same signature: prove them equal, in growing
	// windows (most pairs differ only near the top once their fanins are
	// merged), then over the whole cone, whose answer is exact.
	for _, win := range s.windows() {
		sat, model, err := s.prove(ctx, n<<1, cand, win, true)
		if err != nil {
			if errors.Is(err, ErrLimit) || errors.Is(err, errProofCapped) {
				return nil // too large or too hard to prove here: keep n apart
			}
			return err
		}
		if !sat {
			s.repr[n] = cand
			s.merged++
			s.learn(n, cand)
			return nil
		}
		if model != nil {
			s.addCex(model)
			s.classify(n << 1)
			return nil
		}
	}
	return nil // undecided within the windows: keep n apart
}

// windows lists the proof windows of one candidate pair: a small one, the
// configured one, then the whole cone while counterexamples can still refine
// the classes (past that, a whole-cone proof that fails would be repeated by
// every later node of the same class).
func (s *sweeper) windows() []int {
	w := s.c.opt.SweepWindow
	if w == 0 {
		return []int{0}
	}
	ws := make([]int, 0, 3)
	if w > sweepFirstWindow {
		ws = append(ws, sweepFirstWindow)
	}
	ws = append(ws, w)
	if sweepWholeInternal && s.nce < 64*s.cw {
		ws = append(ws, 0)
	}
	return ws
}

// sweepCexBatch is the number of counterexamples simulated and reclassified
// together. Each batch costs one word of simulation over the whole graph and
// a rehash of every class representative (skirmishHoles: about 9 ms, against
// 0.1 ms for a small proof that a batch's stale classes may add); one by
// one, addCex was 90% of the sweep's CPU.
const sweepCexBatch = 32

// addCex adds a real counterexample to the signatures; every sweepCexBatch
// of them are simulated and the classes rebuilt.
func (s *sweeper) addCex(m []bool) {
	if s.nce >= 64*s.cw {
		return
	}
	bit := 64*s.rw + s.nce
	for v, x := range m {
		if x {
			s.in[v*s.w+bit/64] |= 1 << (bit % 64)
		}
	}
	s.nce++
	if s.nce-s.nsim >= sweepCexBatch || s.nce == 64*s.cw {
		s.flushCex()
	}
}

// keepCex stores the counterexample words of s in its joint, as many
// words a variable as the counterexamples fill, for the next sweep of the
// same joint (loadCex).
func (s *sweeper) keepCex() {
	j := s.j
	if s.nce == 0 {
		return
	}
	cw := (s.nce + 63) / 64
	buf := make([]uint64, len(j.vars)*cw)
	for v := range j.vars {
		copy(buf[v*cw:(v+1)*cw], s.in[v*s.w+s.rw:])
	}
	j.sweepCex, j.sweepCexN = buf, s.nce
}

// loadCex puts the counterexamples an earlier sweep of the joint kept
// into the signatures (the first 64*s.cw of them: a huge graph's sweep
// has fewer words; the bits past the kept ones are zero) and rebuilds
// the classes.
func (s *sweeper) loadCex() {
	j := s.j
	n := min(j.sweepCexN, 64*s.cw)
	if n == 0 {
		return
	}
	cw := (j.sweepCexN + 63) / 64
	for v := range j.vars {
		copy(s.in[v*s.w+s.rw:v*s.w+s.w], j.sweepCex[v*cw:(v+1)*cw])
	}
	s.nce = n
	s.flushCex()
}

// flushCex simulates the counterexamples not yet in sig and rebuilds the
// classes.
func (s *sweeper) flushCex() {
	if s.nsim == s.nce {
		return
	}
	lo, hi := (64*s.rw+s.nsim)/64, (64*s.rw+s.nce-1)/64
	s.simulateAll(lo, hi+1)
	s.nsim = s.nce
	s.reclassify()
}

// prove asks whether literals x and y of the swept graph can differ; an
// internal pair's proof stops at Options.SweepProofConflicts with
// errProofCapped. window
// > 0 encodes at most that many gates, nearest the two literals first, with
// the rest of the cut as free variables; then a satisfying answer proves
// nothing by itself: model is the window's leaf values extended to whole
// inputs (extendCut), which the caller must simulate before using it as a
// counterexample, unless the window held the whole cone. window 0 encodes
// the whole cone, and a model is a separating joint assignment.
//
// Only the joint variables the window reaches are encoded, each group's
// constraint projected onto its reached members (projectGroups): a proof of
// four gates no longer carries the one-hot constraints of thousands of
// actions (skirmishHoles: 4,360 variables and 5,397 clauses per such
// question before).
func (s *sweeper) prove(ctx context.Context, x, y uint32, window int, internal bool) (sat bool, model []bool, err error) {
	f, leaves, varOfLeaf, cut, err := s.proofCNF(x, y, window)
	if err != nil {
		return false, nil, err
	}
	if s.budget == 0 {
		return false, nil, errConflictBudget
	}
	if b := s.c.boundedEffort(); b > 0 && s.budget > 0 {
		// A bounded check: proofs that each need few conflicts add up too
		// (a count compared in another order: thousands of them).
		if s.proofs >= b {
			return false, nil, errConflictBudget
		}
		s.proofs++
	}
	limit, capped := s.budget, false
	if pc := s.c.opt.SweepProofConflicts; internal && pc > 0 && (limit < 0 || pc < limit) {
		limit, capped = pc, true
	}
	f.maxConflicts = max(limit, 0)
	sat, m, err := s.c.pool.solve(ctx, f)
	if s.budget > 0 {
		s.budget = max(s.budget-f.conflicts, 0)
	}
	if capped && errors.Is(err, errConflictBudget) {
		s.c.stats.sweepProofCapped.Add(1)
		return false, nil, errProofCapped
	}
	if err != nil || !sat {
		return false, nil, err
	}
	if cut {
		// The window's model fixes only the leaves it reached, and the
		// cut nodes took any values; extended to whole inputs it often
		// separates x and y anyway, which simulation checks for the price
		// of one word over the graph instead of a whole-cone solve.
		return true, s.extendCut(x, y, leaves, varOfLeaf, m), nil
	}
	j := s.j
	model = make([]bool, len(j.vars))
	reached := make([]bool, len(j.vars))
	for k, v := range leaves {
		model[v] = m[varOfLeaf[k]-1]
		reached[v] = true
	}
	completeGroups(j, model, reached)
	return true, model, nil
}

// errProofCapped: an internal proof reached Options.SweepProofConflicts.
var errProofCapped = errors.New("satcheck: sweep proof reached its conflict bound")

// proofCNF builds prove's formula: leaves are the joint variables reached and
// varOfLeaf their DIMACS variables; cut tells whether the window left gates
// out.
func (s *sweeper) proofCNF(x, y uint32, window int) (f *cnf, leaves []int32, varOfLeaf []int, cut bool, err error) {
	j := s.j
	s.curGen++
	gen := s.curGen
	// Breadth-first from the two nodes over swept fanins.
	queue := []uint32{x >> 1, y >> 1}
	var gates []uint32
	z := size{vars: 1, clauses: 3}
	for i := 0; i < len(queue); i++ {
		n := queue[i]
		if s.gen[n] == gen {
			continue
		}
		s.gen[n] = gen
		if !s.g.isGate(n) {
			if n > 0 {
				leaves = append(leaves, int32(n)-1)
			}
			continue
		}
		if window > 0 && len(gates) >= window {
			cut = true
			continue
		}
		gates = append(gates, n)
		z.vars++
		z.clauses += int64(len(s.rfan[n]) + 1)
		for _, l := range s.rfan[n] {
			queue = append(queue, l>>1)
		}
	}
	groups := projectGroups(j, leaves)
	z.vars += int64(len(leaves))
	for _, gr := range groups {
		z.amo(len(gr.members))
		z.clauses++
	}
	if err := z.check(&s.c.opt); err != nil {
		return nil, nil, nil, false, err
	}
	f = newCNF()
	// DIMACS variable of a node: reached joint variables, gates and cut
	// nodes get fresh variables.
	varOf := make(map[uint32]int, len(gates)+len(leaves))
	nodeVar := func(n uint32) int {
		if n == 0 {
			return falseVar
		}
		if v, ok := varOf[n]; ok {
			return v
		}
		v := f.newVar()
		varOf[n] = v
		return v
	}
	litOf := func(l uint32) int {
		if l&1 == 1 {
			return -nodeVar(l >> 1)
		}
		return nodeVar(l >> 1)
	}
	long := make([]int, 0, 8)
	for _, n := range gates {
		gv := nodeVar(n)
		long = append(long[:0], gv)
		for _, l := range s.rfan[n] {
			xl := litOf(l)
			f.add(-gv, xl)
			long = append(long, -xl)
		}
		f.add(long...)
	}
	lx, ly := litOf(x), litOf(y)
	f.add(lx, ly)
	f.add(-lx, -ly)
	for i := range groups {
		gr := &groups[i]
		ls := make([]int, len(gr.members))
		for k, v := range gr.members {
			ls[k] = nodeVar(uint32(v) + 1)
		}
		f.group(gr, ls)
	}
	f.what = fmt.Sprintf("sweep: %d gates (window %d, cut %v), %d of %d inputs", len(gates), window, cut, len(leaves), len(j.vars))
	varOfLeaf = make([]int, len(leaves))
	for k, v := range leaves {
		varOfLeaf[k] = nodeVar(uint32(v) + 1)
	}
	return f, leaves, varOfLeaf, cut, nil
}

// projectGroups restricts j's groups to the members among vars: a group none
// of whose members is reached constrains nothing that is encoded; one whose
// members are only partly reached keeps "at most one" of them, since any
// assignment of those extends to a one-hot choice of the role (an unreached
// member, or the other choice, takes the role's move). So a formula over the
// reached variables with the projected groups is satisfiable exactly when it
// is with every group whole, and completeGroups extends its models.
func projectGroups(j *joint, vars []int32) []group {
	per := make([][]int32, len(j.groups))
	for _, v := range vars {
		if gi := j.group[v]; gi >= 0 {
			per[gi] = append(per[gi], v)
		}
	}
	var out []group
	for gi, ms := range per {
		if len(ms) == 0 {
			continue
		}
		g := &j.groups[gi]
		slices.Sort(ms)
		out = append(out, group{role: g.role, members: ms, other: g.other || len(ms) < len(g.members)})
	}
	return out
}

// completeGroups makes a model of the projected groups (variables not
// reached false) a one-hot assignment of every group of j: a group without
// "other" choice whose members are all false gets an unreached member set,
// which exists since the projection of that group was "at most one".
func completeGroups(j *joint, model, reached []bool) {
	for gi := range j.groups {
		g := &j.groups[gi]
		if g.other || slices.ContainsFunc(g.members, func(v int32) bool { return model[v] }) {
			continue
		}
		i := slices.IndexFunc(g.members, func(v int32) bool { return !reached[v] })
		model[g.members[i]] = true
	}
}

// sweepWholeInternal allows whole-cone proofs of internal pairs (see
// windows). GAMEQUIV_SWEEP_NO_WHOLE=1 turns them off, for measuring their
// worth (BENCHMARKS.md): the final miter of the roots is always whole.
var sweepWholeInternal = os.Getenv("GAMEQUIV_SWEEP_NO_WHOLE") == ""

// extendCut looks for a real counterexample to x == y near a cut window's
// model m (leaves and varOfLeaf as proofCNF returned them): 64 joint
// assignments that keep the leaves' values, draw the other free variables
// at random and complete every group to a choice its constraint allows,
// simulated over the graph as built. It returns an assignment on which
// x and y differ, or nil. Simulation only refutes: nothing is merged on it.
func (s *sweeper) extendCut(x, y uint32, leaves []int32, varOfLeaf []int, m []bool) []bool {
	j := s.j
	nv := len(j.vars)
	word := make([]uint64, nv)
	reached := make([]bool, nv)
	for k, v := range leaves {
		reached[v] = true
		if m[varOfLeaf[k]-1] {
			word[v] = ^uint64(0)
		}
	}
	rng := rand.New(rand.NewPCG(s.c.opt.Seed^uint64(s.nce), uint64(x)<<32|uint64(y)))
	for v := range word {
		if !reached[v] && j.group[v] < 0 {
			word[v] = rng.Uint64()
		}
	}
	var free []int32
	for gi := range j.groups {
		g := &j.groups[gi]
		chosen := false
		free = free[:0]
		for _, v := range g.members {
			switch {
			case !reached[v]:
				free = append(free, v)
			case word[v] != 0:
				chosen = true
			}
		}
		if chosen || len(free) == 0 {
			continue // the unreached members stay false
		}
		nch := len(free)
		if g.other {
			nch++
		}
		for b := range 64 {
			if c := rng.IntN(nch); c < len(free) {
				word[free[c]] |= 1 << b
			}
		}
	}
	top := int(max(x>>1, y>>1))
	if cap(s.cutVals) < top+1 {
		s.cutVals = make([]uint64, top+1)
	}
	vals := s.cutVals[:top+1]
	vals[0] = 0
	for n := 1; n <= min(top, s.g.nv); n++ {
		vals[n] = word[n-1]
	}
	for n := s.g.nv + 1; n <= top; n++ {
		acc := ^uint64(0)
		for _, l := range s.g.gateFanin(uint32(n)) {
			acc &= vals[l>>1] ^ -uint64(l&1)
		}
		vals[n] = acc
	}
	diff := vals[x>>1] ^ -uint64(x&1) ^ vals[y>>1] ^ -uint64(y&1)
	if diff == 0 {
		return nil
	}
	s.cutRefuted++
	b := bits.TrailingZeros64(diff)
	model := make([]bool, nv)
	for v := range model {
		model[v] = word[v]>>b&1 == 1
	}
	return model
}
