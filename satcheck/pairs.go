package satcheck

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gamequiv/gamequiv/grounding"
)

// Pair types: how two propositions act together in a function of the state.
//
// For a function f of the state (legal, goal, terminal: read with no move
// made) and two propositions i ≠ j, the pair type T_f(i, j) is the set of
// value patterns (f(z), f(z^i), f(z^j), f(z^ij)) over the states z with i and
// j false, one bit per pattern (bit b0 | b1<<1 | b2<<2 | b3<<3). A mapping σ
// that makes f_B∘σ = f_A on every state maps the states with i, j false
// bijectively onto those with σi, σj false and commutes with the flips, so
// T_fA(i, j) = T_fB(σi, σj) whatever σ does elsewhere. A search can thus
// prune as soon as the two propositions and the function are mapped, long
// before the other inputs are: in a goal that needs one of several groups
// of cells all on, two cells of one group have the pattern (1,1,1,0) (each
// alone is not enough, both are), two cells of different groups never do.
//
// Patterns are found by simulation (a pattern seen is realizable) and, where
// the two sides' sets differ, the side without the pattern is asked with SAT
// whether it can show it: only an unsatisfiable answer separates the pair,
// so a pair is never reported different on the strength of sampling.

// pairKey names T_f(i, j) on one side; f is a literal, i and j inputs.
type pairKey struct {
	f    grounding.Lit
	i, j int32
}

// pairType is what one side knows of a pair type: patterns shown realizable
// (by simulation or SAT) and patterns proven unrealizable (by SAT).
type pairType struct {
	seen, never uint16
	unknown     bool   // the cone is too large to analyse: the pair is never compared
	ask         uint16 // patterns seen at least pairAskCount times by simulation
	common      uint16 // patterns seen at least pairCommonCount times by simulation
	deep        bool   // simulated on many more samples (deepSimulate)
}

// pairCommonCount: a pattern that simulation saw this often on one side and
// never on the other is asked about at once with SAT (if the two sides were
// the same function, missing it that often would be unlikely); a pattern
// seen less often on one side only is most likely a rare one that the
// other side's sample missed, and is first looked for there on a larger
// sample, which is cheaper than a SAT question that would mostly confirm it.
const pairCommonCount = 6

// pairAskCount: a pattern seen fewer times, on one side only, is not looked
// for on the other: seen once in thousands of samples, it is almost always
// rare on both sides, and looking for it cost more than the refutations it
// brought (skipping only loses refutations).
const pairAskCount = 2

// pairCache holds one side's pair types.
type pairCache struct {
	mu       sync.Mutex
	m        map[pairKey]pairType
	sims     map[grounding.Lit]*pairSim
	simWords int                              // words held by sims
	deep     map[grounding.Lit]*pairSim       // deepSimulate's simulators and states
	wit      map[grounding.Lit]*pairWitnesses // SAT states kept for replay (pairwitness.go)
	witWords int                              // words held by wit
	work     atomic.Int64                     // gate-word evaluations of simulate and deepSimulate
}

// pairWords is the number of 64-bit words of states simulated per pair of
// a cone of the given number of gates: eight densities (1/2 down to 1/32,
// 3/4, 7/8, 15/16) in turn, so that patterns needing many propositions
// true, or many false, are sampled too; small cones, cheap to simulate,
// get more samples, so that fewer rare patterns are seen on one side only.
func pairWords(gates int) int {
	switch {
	case gates <= 1024:
		return 64
	case gates <= 4096:
		return 32
	}
	return 16
}

// maxPairConeGates bounds the cones whose pair types are computed: the SAT
// question encodes four copies of the cone.
const maxPairConeGates = 1 << 16

// PairsDiffer compares the pair types of fa (of A) and fb (of B), both of
// the given kind (legal, goal or terminal; any other kind is never reported
// different): the pair (ia, ja[x]) of fa against (ib, jb[x]) of fb, for each
// x (circuit inputs; pairs that are not two distinct propositions are
// skipped). It returns the first x whose types differ, or -1. Where they
// differ, no mapping that sends ia to ib, ja[x] to jb[x] and fa to fb makes
// the functions equal, whatever it does with the other inputs; -1 means "not
// shown different", never "equal". Once the call has done more than maxWork
// (PairWork units: gate-word evaluations, and a SAT question counted as
// pairSATWork per gate of its cone) the remaining pairs are not compared.
func (c *Checker) PairsDiffer(ctx context.Context, kind grounding.FuncKind, fa, fb grounding.Lit, ia int32, ja []int32, ib int32, jb []int32, maxWork int64) (int, error) {
	if semanticsOf(kind) != noMoves || len(ja) != len(jb) || !c.a.isProp(ia) || !c.b.isProp(ib) {
		return -1, nil
	}
	if fa.Node() >= c.a.c.NumNodes() || fb.Node() >= c.b.c.NumNodes() {
		return -1, mappingErrorf("literal out of range (%d of %d nodes, %d of %d nodes)",
			fa, c.a.c.NumNodes(), fb, c.b.c.NumNodes())
	}
	ta, err := c.a.pairTypes(fa, ia, ja, c.opt.Seed)
	if err != nil {
		return -1, err
	}
	tb, err := c.b.pairTypes(fb, ib, jb, c.opt.Seed)
	if err != nil {
		return -1, err
	}
	start := c.PairWork()
	for x := range ja {
		if !c.a.isProp(ja[x]) || !c.b.isProp(jb[x]) || ja[x] == ia || jb[x] == ib || ta[x].unknown || tb[x].unknown {
			continue
		}
		if c.PairWork()-start > maxWork {
			break
		}
		c.stats.pairChecks.Add(1)
		differ, err := c.settle(ctx, pairKey{fa, ia, ja[x]}, pairKey{fb, ib, jb[x]}, ta[x], tb[x])
		if err != nil {
			return -1, err
		}
		if differ {
			c.stats.pairRefuted.Add(1)
			return x, nil
		}
	}
	return -1, nil
}

// settle decides whether two pair types are shown different. A pattern
// that one side has seen at least pairAskCount times and the other has not
// settled is looked for there,
// first by simulating that side's pair on many more samples (most such
// patterns are rare ones that the shared sample missed on one side: cheaper
// to find than to prove), then with SAT; each answer is kept, so a pair is
// solved at most once per pattern.
func (c *Checker) settle(ctx context.Context, ka, kb pairKey, ta, tb pairType) (bool, error) {
	for ta.seen&tb.never == 0 && tb.seen&ta.never == 0 {
		open := (ta.ask &^ tb.seen &^ tb.never) | (tb.ask &^ ta.seen &^ ta.never)
		if open == 0 {
			return false, nil
		}
		pat := bits.TrailingZeros16(open)
		s, k, t := c.b, kb, &tb
		if tb.ask&(1<<pat) != 0 {
			s, k, t = c.a, ka, &ta
		}
		other := ta
		if s == c.a {
			other = tb
		}
		if !t.deep && other.common&(1<<pat) == 0 && s.deepAllowed(k.f) {
			seen, err := s.pairs.deepSimulate(s, k, c.opt.Seed)
			if err != nil {
				return false, err
			}
			t.seen |= seen
			t.deep = true
			s.pairs.store(k, *t)
			continue
		}
		ok, err := c.realizable(ctx, s, k, pat)
		if err != nil {
			return false, err
		}
		if ok {
			t.seen |= 1 << pat
		} else {
			t.never |= 1 << pat
		}
		s.pairs.store(k, *t)
	}
	return true, nil
}

// PairWork returns the gate-word evaluations that pair-type simulation has
// done so far on both sides: a search bounds its pair checks per node by it.
func (c *Checker) PairWork() int64 {
	if c.a.pairs == c.b.pairs {
		return c.a.pairs.work.Load()
	}
	return c.a.pairs.work.Load() + c.b.pairs.work.Load()
}

func (s *side) isProp(i int32) bool { return i >= 0 && int(i) < s.nProps }

func (pc *pairCache) load(k pairKey) (pairType, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	t, ok := pc.m[k]
	return t, ok
}

// store keeps t; a cache of maxPairTypes entries is emptied first (what it
// held is recomputed when asked again).
func (pc *pairCache) store(k pairKey, t pairType) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if len(pc.m) >= maxPairTypes {
		pc.m = nil
	}
	if pc.m == nil {
		pc.m = map[pairKey]pairType{}
	}
	pc.m[k] = t
}

// pairTypes returns what is known of T_f(i, j) for each j of js (the zero
// pairType where (i, j) is not a pair of distinct propositions),
// simulating the unknown ones together. A cone too large for
// maxPairConeGates gets types marked unknown, which PairsDiffer never
// compares (claiming patterns not seen could separate equal functions).
func (s *side) pairTypes(f grounding.Lit, i int32, js []int32, seed uint64) ([]pairType, error) {
	out := make([]pairType, len(js))
	var miss []int
	for x, j := range js {
		if !s.isProp(j) || j == i {
			continue
		}
		if t, ok := s.pairs.load(pairKey{f, i, j}); ok {
			out[x] = t
		} else {
			miss = append(miss, x)
		}
	}
	if len(miss) == 0 {
		return out, nil
	}
	cn, err := s.coneOf(f)
	if err != nil {
		return nil, err
	}
	if len(cn.Gates) > maxPairConeGates {
		for _, x := range miss {
			out[x] = pairType{unknown: true}
		}
	} else {
		s.pairs.simulate(s, cn, f, i, js, miss, out, seed)
	}
	for _, x := range miss {
		s.pairs.store(pairKey{f, i, js[x]}, out[x])
	}
	return out, nil
}

// pairSim holds one function's simulator and its random states: every pair
// of the function is simulated on the same states, with its own two
// propositions overwritten.
type pairSim struct {
	sim  *grounding.ConeSim
	base []uint64 // base[k*w:]: the states' values of cone input k, w = pairWords
}

// newPairSim returns a simulator of cn on w words with random states drawn
// from rng at the densities of densityWord (action inputs false).
func newPairSim(s *side, cn *cone, w int, rng *rand.Rand) *pairSim {
	ps := &pairSim{sim: grounding.NewConeSim(cn, w), base: make([]uint64, len(cn.Inputs)*w)}
	for kk, in := range cn.Inputs {
		if s.isProp(in) {
			for x := range w {
				ps.base[kk*w+x] = densityWord(rng, x)
			}
		}
	}
	return ps
}

// simulate fills out[x] for x in miss with the patterns of T_f(i, js[x])
// seen on pairWords·64 random states (action inputs read false: no move
// made). The cone is evaluated twice, with i false and with i true; each j
// is then flipped against both evaluations, re-evaluating only its fanout:
// a sample where j is false gives (f at j false, f at j true) as
// (evaluation, flip), one where j is true the other way round.
func (pc *pairCache) simulate(s *side, cn *cone, f grounding.Lit, i int32, js []int32, miss []int, out []pairType, seed uint64) {
	w := pairWords(len(cn.Gates))
	pc.mu.Lock()
	defer pc.mu.Unlock()
	ps := pc.sims[f]
	if ps == nil {
		if len(pc.sims) >= maxPairSims {
			clear(pc.sims)
			pc.simWords = 0
		}
		words := (cn.NumSlots() + len(cn.Inputs)) * w
		if pc.simWords+words > maxPairSimWords {
			clear(pc.sims)
			pc.simWords = 0
		}
		pc.simWords += words
		// Its own copy of the cone: Flip builds fanout caches in it, and
		// the side's cones are shared read-only (coneOf).
		ps = newPairSim(s, cn.Clone(), w, rand.New(rand.NewPCG(seed, uint64(f))))
		if pc.sims == nil {
			pc.sims = map[grounding.Lit]*pairSim{}
		}
		pc.sims[f] = ps
	}
	sim := ps.sim
	for kk := range cn.Inputs {
		copy(sim.In(kk), ps.base[kk*w:(kk+1)*w])
	}
	ki := coneSlot(cn, i)
	// vals[(4x+c)*w:]: f with i = c&1 and js[miss[x]] = c>>1, per sample.
	vals := make([]uint64, 4*len(miss)*w)
	val := func(x, c int) []uint64 { return vals[(4*x+c)*w : (4*x+c+1)*w] }
	e, fl := make([]uint64, w), make([]uint64, w)
	for iv := range 2 {
		if ki >= 0 {
			fill64(sim.In(ki), -uint64(iv))
		} else if iv == 1 {
			for x := range miss {
				copy(val(x, 1), val(x, 0))
				copy(val(x, 3), val(x, 2))
			}
			break
		}
		work := sim.Eval(e)
		for x, mx := range miss {
			kj := coneSlot(cn, js[mx])
			v0, v1 := val(x, iv), val(x, 2+iv)
			if kj < 0 {
				copy(v0, e)
				copy(v1, e)
				continue
			}
			work += sim.Flip(kj, w, fl)
			zj := sim.In(kj)
			for y := range w {
				v0[y] = e[y]&^zj[y] | fl[y]&zj[y]
				v1[y] = fl[y]&^zj[y] | e[y]&zj[y]
			}
		}
		pc.work.Add(work)
	}
	var n [16]int
	for x, mx := range miss {
		n = [16]int{}
		v0, v1, v2, v3 := val(x, 0), val(x, 1), val(x, 2), val(x, 3)
		for y := range w {
			countPatterns(&n, v0[y], v1[y], v2[y], v3[y])
		}
		out[mx] = pairType{seen: patternsSeen(&n, 1), ask: patternsSeen(&n, pairAskCount), common: patternsSeen(&n, pairCommonCount)}
	}
}

// countPatterns adds to n[pat] the samples of one word whose four values
// (bit c of pat is the value at combination c) form pattern pat: the 16
// masks are the products of the 4 masks of (v0, v1) and the 4 of (v2, v3).
func countPatterns(n *[16]int, v0, v1, v2, v3 uint64) {
	lo := [4]uint64{^v0 &^ v1, v0 &^ v1, ^v0 & v1, v0 & v1}
	hi := [4]uint64{^v2 &^ v3, v2 &^ v3, ^v2 & v3, v2 & v3}
	for h, mh := range hi {
		if mh == 0 {
			continue
		}
		for l, ml := range lo {
			if m := ml & mh; m != 0 {
				n[h<<2|l] += bits.OnesCount64(m)
			}
		}
	}
}

// patternsSeen returns the patterns counted at least `least` times.
func patternsSeen(n *[16]int, least int) uint16 {
	var m uint16
	for pat, c := range n {
		if c >= least {
			m |= 1 << pat
		}
	}
	return m
}

// Bounds of one side's pair-type state: maxPairTypes types, simulators
// (and their states) of maxPairSims functions for simulate and maxDeepSims
// for deepSimulate, and maxPairSimWords words of simulation values in all
// (past a bound the map is emptied). deepSimulate runs only on cones of at
// most maxDeepGates gates; pairSATWork is the PairWork charged per gate of
// a cone for a SAT question (a bound on questions per node: a question on a
// big cone costs seconds).
const (
	maxPairTypes    = 1 << 20
	maxPairSims     = 256
	maxDeepSims     = 32
	maxPairSimWords = 1 << 24
	maxDeepGates    = 4096
	pairSATWork     = 1 << 10
)

// deepAllowed reports whether deepSimulate may run on f's cone.
func (s *side) deepAllowed(f grounding.Lit) bool {
	cn, err := s.coneOf(f)
	return err == nil && len(cn.Gates) <= maxDeepGates
}

// pairDeepWords and pairDeepRounds size deepSimulate's sample: 8,192
// states in all, at the densities of densityWord.
const (
	pairDeepWords  = 64
	pairDeepRounds = 2
)

// deepSimulate evaluates T_f(i, j) on pairDeepRounds·pairDeepWords·64
// random states other than simulate's and returns the patterns seen.
func (pc *pairCache) deepSimulate(s *side, k pairKey, seed uint64) (uint16, error) {
	cn, err := s.coneOf(k.f)
	if err != nil {
		return 0, err
	}
	const w = pairDeepWords
	pc.mu.Lock()
	defer pc.mu.Unlock()
	ds := pc.deep[k.f]
	if ds == nil {
		if len(pc.deep) >= maxDeepSims {
			clear(pc.deep)
		}
		if pc.deep == nil {
			pc.deep = map[grounding.Lit]*pairSim{}
		}
		// One draw of random states per function, shared by its pairs as
		// simulate's are: drawing them per pair cost more than evaluating.
		ds = newPairSim(s, cn, w, rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, uint64(k.f))))
		pc.deep[k.f] = ds
	}
	sim, nIn := ds.sim, len(cn.Inputs)
	ki, kj := coneSlot(cn, k.i), coneSlot(cn, k.j)
	var seen uint16
	var out [4][w]uint64
	var work int64
	for round := range pairDeepRounds {
		// Round r reads input kk's states from input kk+r, rotated by 29r
		// bits: other states at the same densities (rotation keeps a
		// word's density), without drawing again.
		for kk, in := range cn.Inputs {
			v := sim.In(kk)
			if !s.isProp(in) {
				clear(v)
				continue
			}
			src := (kk + round) % nIn
			if !s.isProp(cn.Inputs[src]) {
				src = kk
			}
			for x := range v {
				v[x] = bits.RotateLeft64(ds.base[src*w+x], 29*round)
			}
		}
		for c := range 4 {
			if ki >= 0 {
				fill64(sim.In(ki), -uint64(c&1))
			}
			if kj >= 0 {
				fill64(sim.In(kj), -uint64(c>>1))
			}
			work += sim.Eval(out[c][:])
		}
		var counts [16]int
		for x := range w {
			countPatterns(&counts, out[0][x], out[1][x], out[2][x], out[3][x])
		}
		seen |= patternsSeen(&counts, 1)
	}
	pc.work.Add(work)
	return seen, nil
}

// densityWord draws 64 bits whose density depends on the word's position:
// 1/2, 1/4, 1/8, 1/16, 1/32, 3/4, 7/8, 15/16, repeating.
func densityWord(rng *rand.Rand, x int) uint64 {
	switch x % 8 {
	case 0:
		return rng.Uint64()
	case 1, 2, 3, 4:
		v := rng.Uint64()
		for range x % 8 {
			v &= rng.Uint64()
		}
		return v
	default:
		v := rng.Uint64()
		for range x%8 - 4 {
			v |= rng.Uint64()
		}
		return v
	}
}

// coneSlot returns the index among cn.Inputs of circuit input in, or -1.
func coneSlot(cn *cone, in int32) int {
	if k, ok := slices.BinarySearch(cn.Inputs, in); ok {
		return k
	}
	return -1
}

// realizable tells whether pattern pat of T_f(i, j) occurs on side s: first
// on the states SAT found for f's earlier questions (pairwitness.go), then
// by SAT: four copies of f's cone share every input but i and j, which are
// fixed in each copy, and each copy's root is fixed to its bit of the
// pattern.
func (c *Checker) realizable(ctx context.Context, s *side, k pairKey, pat int) (bool, error) {
	cn, err := s.coneOf(k.f)
	if err != nil {
		return false, err
	}
	ki, kj := coneSlot(cn, k.i), coneSlot(cn, k.j)
	f := newCNF()
	f.what = "pair type pattern"
	z := make([]int, len(cn.Inputs))
	for kk, in := range cn.Inputs {
		if s.isProp(in) && kk != ki && kk != kj {
			z[kk] = f.newVar()
		} else {
			z[kk] = falseVar
		}
	}
	var z4 [4]func(int) int
	for combo := range 4 {
		z4[combo] = func(kk int) int {
			switch {
			case kk == ki:
				return constLit(combo&1 == 1)
			case kk == kj:
				return constLit(combo>>1&1 == 1)
			}
			return z[kk]
		}
	}
	sz := size{vars: 4 * int64(len(cn.Gates)), clauses: 4 * int64(len(cn.Fanin)+len(cn.Gates))}
	if err := sz.check(&c.opt); err != nil {
		return false, err
	}
	// A replayed answer is charged as the question it replaces, so that a
	// search compares at each node exactly the pairs it compared before.
	if s.pairs.replayWitness(s, cn, k, pat) {
		c.stats.pairReplayed.Add(1)
		s.pairs.work.Add(pairSATWork * int64(len(cn.Gates)))
		return true, nil
	}
	roots := f.sharedCones(cn, z4[:]...)
	for combo, r := range roots {
		if pat>>combo&1 == 1 {
			f.add(r)
		} else {
			f.add(-r)
		}
	}
	c.stats.pairSAT.Add(1)
	s.pairs.work.Add(pairSATWork * int64(len(cn.Gates)))
	sat, model, err := c.pool.solve(ctx, f)
	if sat && err == nil {
		s.pairs.keepWitness(cn, k.f, z, model)
	}
	return sat, err
}

// constLit is the DIMACS literal of a constant.
func constLit(v bool) int {
	if v {
		return -falseVar
	}
	return falseVar
}
