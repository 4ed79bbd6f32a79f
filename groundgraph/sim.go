package groundgraph

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// Semantic support of functions whose cones read too many inputs for a
// truth table: random simulation finds witnesses of dependence (an input is
// a dependency as soon as one sample shows it), and satcheck.DependsOn
// decides the inputs left over exactly. The samples only save time: the
// answer is the same whatever they are.

// simRounds is the number of 64-sample words of each simulation round; a
// round simulates only the inputs that earlier rounds could not show to
// matter.
var simRounds = []int{8, 128}

// simMaxBytes bounds the value vectors of one simulation round's
// simulator (cone slots times words, 8 bytes a word); a round that needs
// more runs as passes of fewer words. A flip's scratch (grounding.ConeSim)
// comes on top, so a simulator takes up to a few times this. racer's
// 128-word rounds allocated about 100 MB per function, four at a time
// (two graphs, two workers): 2.8 GiB resident at the peak of its
// comparison. A variable for tests.
var simMaxBytes int64 = 16 << 20

// simPassWords is the words of one pass of a round of w words over cn:
// the most, down to 1, that divide w and whose vectors fit simMaxBytes.
func simPassWords(cn *cone, w int) int {
	p := w
	for p > 1 && (int64(cn.NumSlots())*int64(p)*8 > simMaxBytes || w%p != 0) {
		p--
	}
	return p
}

// simAfterTrialMaxWork: a function of free propositions whose cone's
// inputs times gates are at most this gets a trial BDD bound before
// simulation (see simSupport). 2^16 left connect4-10x9's goals and
// terminal (180 inputs, 435 gates) on the full BDD bound, which they
// outgrow: 60% of its graph phase, for BDDs that failed. merrills'
// shared piece count (75 inputs, 3,508 gates) stays far above.
const simAfterTrialMaxWork = 1 << 17

// simBias lists the probabilities that a proposition is true, used word by
// word in turn: skewed words find witnesses that need many propositions
// true (or false) at once.
var simBias = []float64{0.5, 0.25, 0.75, 0.1, 0.9, 0.03, 0.97, 0.4, 0.6, 0.15, 0.85, 0.01, 0.99, 0.3, 0.7, 0.06}

// coneSim is the circuit toolkit's bit-parallel simulator of a cone.
type coneSim = grounding.ConeSim

func newConeSim(cn *cone, w int) *coneSim { return grounding.NewConeSim(cn, w) }

// simRole is one role whose actions a cone reads.
type simRole struct {
	role  int
	ks    []int // cone input positions of the role's read actions (consecutive, ascending)
	radix int   // len(ks), plus one for "another action" when the role has more
}

// chosen returns the cone input position of the read action that sample x
// has the role do, or -1 for none. A role's actions are consecutive inputs,
// so its read ones are consecutive positions ks[0]..ks[len-1] and a scan of
// their words finds it (boundary rounds ask this thousands of times, and a
// role can read thousands of actions).
func (sr *simRole) chosen(x sample) int {
	if len(sr.ks) == 0 {
		return -1
	}
	lo, hi := sr.ks[0], sr.ks[len(sr.ks)-1]
	for i := lo / 64; i <= hi/64; i++ {
		w := x[i]
		if i == lo/64 {
			w &= ^uint64(0) << (lo % 64)
		}
		if i == hi/64 {
			w &= ^uint64(0) >> (63 - hi%64)
		}
		if w != 0 {
			return 64*i + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// simRoles returns the simRole of each of roles in cone cn.
func (b *builder) simRoles(cn *cone, roles []int) []simRole {
	p := b.p
	var srs []simRole
	for _, r := range roles {
		sr := simRole{role: r}
		lo, hi := roleSpan(p, cn, r)
		for k := lo; k < hi; k++ {
			sr.ks = append(sr.ks, k)
		}
		sr.radix = len(sr.ks)
		if sr.radix < len(p.Actions[r]) {
			sr.radix++
		}
		srs = append(srs, sr)
	}
	return srs
}

// simSupport decides the semantic support of f by simulation and, for the
// inputs simulation cannot show to matter, satcheck.DependsOn. props are the
// propositions of the cone (its first inputs), roles the roles whose actions
// it reads (empty for functions of the state alone).
//
// Simulation runs random rounds (simRounds); then choice rounds, in which
// each role in turn does each of its choices in every sample (a proposition
// that matters under one move only is found there); then boundary rounds:
// the samples next to a witness (a witness x of proposition i with i
// flipped) lie on the function's boundary, where flipping another
// proposition often changes the value too, even when random samples almost
// never do. A flipped proposition re-evaluates only its fanout.
func (b *builder) simSupport(ctx context.Context, f grounding.Function, cn *cone, props []int32, roles []int) (Support, error) {
	p := b.p
	srs := b.simRoles(cn, roles)
	rng := rand.New(rand.NewPCG(uint64(f.Lit), 0x9b1d))
	st := &simState{ctx: ctx, propDep: make([]bool, len(props)), roleDep: make([]bool, len(srs)), srs: srs, rng: rng}
	if len(srs) == 0 {
		b.fam.seed(f.Lit, props, st.propDep)
	}
	// A function of free propositions alone: its BDD mentions exactly the
	// propositions it depends on (bdd.go), and a sub-circuit that many
	// functions share gets its BDD once, where simulation costs every
	// function again (merrills: 72 of 92 s when the BDD came after it).
	var boundary []sample
	// A function of free propositions alone: its BDD mentions exactly the
	// propositions it depends on (bdd.go), and a sub-circuit that many
	// functions share gets its BDD once, where simulation costs every
	// function again (merrills: 72 of 92 s when the BDD came after it).
	bddTried := len(srs) > 0 || len(props) < len(cn.Inputs) || b.bdd == nil
	tryBDD := func(perGate, minNodes int) (bool, error) {
		if bddTried || st.done() {
			return false, nil
		}
		dep, err := b.bdd.supportWithin(ctx, cn, perGate, minNodes)
		switch {
		case err == nil:
			bddTried = true
			b.supportBDDs.Add(1)
			copy(st.propDep, dep)
			return true, nil
		case errors.Is(err, errBDDLimit):
			bddTried = perGate >= bddNodesPerGate
			return false, nil
		}
		return false, err
	}
	if !bddTried {
		// A small cone's BDD first gets a trial bound, and its full bound
		// only after simulation: simulation of a small cone costs less than
		// a BDD that outgrows its bound (connectFour's goals and terminal:
		// 90% of its graph phase in four BDDs that failed, where samples
		// show every input). A large cone's BDD gets its full bound at
		// once: simulation flips every input, each costing up to the cone
		// (merrills: 1,112 functions over a shared piece count of thousands
		// of gates, whose BDD is built once and simulation costs each
		// function again).
		perGate, minNodes := bddNodesPerGate, bddMinCallNodes
		if int64(len(props))*int64(len(cn.Gates)) <= simAfterTrialMaxWork {
			perGate, minNodes = bddTrialNodesPerGate, bddTrialMinNodes
		}
		switch ok, err := tryBDD(perGate, minNodes); {
		case err != nil:
			return Support{}, err
		case ok:
			return b.supportOf(props, srs, st), nil
		}
	}
	// A next function whose read roles have few joint choices: one BDD per
	// choice (bddchoice.go) settles it exactly. It is tried once, when
	// random samples leave inputs undecided: before the choice rounds when
	// those would cost more than the BDDs' bound (skirmish's capture
	// counters: 1,793 choices over a cone of 2,563 inputs), otherwise
	// after every round of simulation, before a residue table or SAT.
	choiceTried := len(srs) == 0 || b.choiceBDDs == nil || jointChoices(srs, b.opt.MaxBDDChoices) < 0
	tryChoices := func() (bool, error) {
		if choiceTried || st.done() {
			return false, nil
		}
		choiceTried = true
		d := b.choiceBDDs.get()
		propDep, roleDep, err := d.supportByChoice(ctx, cn, len(props), srs)
		b.choiceBDDs.put(d)
		switch {
		case err == nil:
			b.choiceSupports.Add(1)
			copy(st.propDep, propDep)
			copy(st.roleDep, roleDep)
			return true, nil
		case errors.Is(err, errBDDLimit):
			return false, nil
		}
		return false, err
	}
	nIn, nP := len(cn.Inputs), len(props)
	rare := false
	for _, w := range simRounds {
		if err := ctx.Err(); err != nil {
			return Support{}, err
		}
		// Roles are tried in the first round only: a role whose few tried
		// choices all agree is cheaper to settle by one SAT call. A later
		// round with every proposition decided can decide nothing
		// (amazons: 128 words of each of 172,000 action inputs, for
		// nothing).
		roles := w == simRounds[0]
		if st.done() || !roles && (st.propsDone() || rare) {
			break
		}
		// A round wider than simMaxBytes allows runs as passes of fresh
		// samples on one simulator of fewer words.
		pw := simPassWords(cn, w)
		s := newConeSim(cn, pw)
		f0 := make([]uint64, w)
		for off := 0; off < w && !st.done() && ctx.Err() == nil; off += pw {
			if off > 0 {
				clear(s.Vals[s.W : (1+len(cn.Inputs))*s.W]) // randomInto sets role inputs by OR
			}
			randomInto(s.In, len(props), srs, pw, off, rng)
			boundary = append(boundary, st.runLoaded(s, roles, f0[off:off+pw])...)
		}
		// A function of the state that the first round never shows true
		// (or never false) is rare: more random samples seldom show it
		// either, and the justified rounds below build samples of its
		// rare value (checkers-mustjump-torus' legal jumps: no longer
		// jump anywhere on the board).
		rare = len(srs) == 0 && nP == nIn && (!slices.ContainsFunc(f0, isNonZero) || !slices.ContainsFunc(f0, isNotAllOnes))
	}
	// Choice rounds: each role in turn does each of its choices in every
	// sample, the rest staying random. A proposition that matters only
	// under one particular move is found here.
	choices := int64(0)
	for _, sr := range srs {
		choices += int64(sr.radix)
	}
	if choices*int64(len(cn.Fanin)+len(cn.Inputs)) > choiceRoundsPerBDDNode*int64(bddChoiceNodesPerGate*len(cn.Gates)+bddChoiceMinNodes) {
		switch ok, err := tryChoices(); {
		case err != nil:
			return Support{}, err
		case ok:
			return b.supportOf(props, srs, st), nil
		}
	}
	if !st.done() && choices*int64(len(cn.Fanin)+len(cn.Inputs)) <= maxChoiceWork {
		s := newConeSim(cn, choiceWords)
		pool := randomPool(nIn, nP, srs, choiceWords, rng)
		zero, ones := make([]uint64, choiceWords), make([]uint64, choiceWords)
		fill(ones, ^uint64(0))
		// Every choice of a role sees the same samples otherwise, so a
		// sample whose value differs between two choices witnesses that
		// the role matters (hallway's moves: one action of hundreds does
		// something, which the first round's few choices rarely hit; each
		// such role cost a SAT call).
		first, fc := make([]uint64, choiceWords), make([]uint64, choiceWords)
		for i, sr := range srs {
			saved := make([][]uint64, len(sr.ks))
			for j, k := range sr.ks {
				saved[j], pool[k] = pool[k], zero
			}
			for k, v := range pool {
				copy(s.In(k), v)
			}
			for c := range sr.radix {
				if err := ctx.Err(); err != nil {
					return Support{}, err
				}
				if st.done() {
					break
				}
				if c < len(sr.ks) {
					pool[sr.ks[c]] = ones
					copy(s.In(sr.ks[c]), ones)
				}
				boundary = append(boundary, st.runLoaded(s, false, fc)...)
				if c == 0 {
					copy(first, fc)
				} else if !st.roleDep[i] && !slices.Equal(first, fc) {
					st.roleDep[i] = true
				}
				if c < len(sr.ks) {
					pool[sr.ks[c]] = zero
					copy(s.In(sr.ks[c]), zero)
				}
			}
			for j, k := range sr.ks {
				pool[k] = saved[j]
			}
		}
	}
	// A boundary round's candidates live only until it is simulated
	// (runSamples returns fresh witness samples), so every round reuses
	// one list and one allocation for the neighbours it makes: a clone
	// per neighbour was a tenth of checkers-mustjump-torus' semantic
	// supports in allocating (4,096 samples of 3 words a round).
	var cands []sample
	var slab []uint64
	runBoundary := func() error {
		for range boundaryRounds {
			if err := ctx.Err(); err != nil {
				return err
			}
			// Boundary rounds decide propositions only.
			if st.propsDone() || len(boundary) == 0 {
				break
			}
			// The boundary samples and random neighbours of them: one to three
			// propositions flipped, or another choice for one role.
			rng.Shuffle(len(boundary), func(i, j int) { boundary[i], boundary[j] = boundary[j], boundary[i] })
			boundary = boundary[:min(len(boundary), 16*boundaryWords)]
			cands = append(cands[:0], boundary...)
			for len(cands) < 64*boundaryWords {
				x := slabClone(&slab, len(cands), boundary[rng.IntN(len(boundary))])
				if len(srs) > 0 && (nP == 0 || rng.IntN(2) == 0) {
					// Another choice for one role.
					sr := &srs[rng.IntN(len(srs))]
					if k := sr.chosen(x); k >= 0 {
						x[k/64] &^= 1 << (k % 64) // the one action the role does
					}
					if c := rng.IntN(sr.radix); c < len(sr.ks) {
						x[sr.ks[c]/64] |= 1 << (sr.ks[c] % 64)
					}
				} else {
					for range 1 + rng.IntN(3) {
						k := rng.IntN(nP)
						x[k/64] ^= 1 << (k % 64)
					}
				}
				cands = append(cands, x)
			}
			found := st.runSamples(cn, cands, boundaryWords)
			if len(found) == 0 {
				break
			}
			boundary = append(boundary, found...)
		}
		return nil
	}
	if err := runBoundary(); err != nil {
		return Support{}, err
	}
	// Justified rounds, for functions of the state: a function that is
	// almost always 0 (or 1), like "the board is full and has no line",
	// gives random samples no witness at all. Samples where it takes its
	// rare value are built by justifying that value backwards through the
	// cone (justify), and boundary rounds continue from them.
	if !st.done() && len(srs) == 0 && nP == nIn {
		for _, want := range []bool{true, false} {
			if err := ctx.Err(); err != nil {
				return Support{}, err
			}
			if st.done() {
				break
			}
			seeds := justify(cn, want, justifyAttempts, justifySamples, rng)
			if len(seeds) == 0 {
				continue
			}
			found := st.runSamples(cn, seeds, boundaryWords)
			boundary = append(seeds, found...)
			if err := runBoundary(); err != nil {
				return Support{}, err
			}
		}
	}
	// Sensitized rounds: for each proposition still undecided, samples
	// where a path from it to the root is sensitized (see sensitizer),
	// and boundary rounds from the witnesses they give.
	var z *sensitizer
	for round := 0; round < sensitizeRounds && !st.done(); round++ {
		if err := ctx.Err(); err != nil {
			return Support{}, err
		}
		if z == nil {
			z = newSensitizer(cn, srs)
		}
		var seeds []sample
		// Each attempt costs up to the cone: a big cone gets fewer.
		budget := max(64, maxSensitizeWork/int64(cn.NumSlots()))
		tried := 0 // counts the propositions tried, not k: decided ones are skipped
		for k := 0; k < nP && budget > 0 && len(seeds) < 64*boundaryWords; k++ {
			if st.propDep[k] {
				continue
			}
			if tried%cancelCheckEvery == 0 && ctx.Err() != nil {
				return Support{}, ctx.Err()
			}
			tried++
			for a := range sensitizeAttempts {
				budget--
				if x := z.sample(k, a%4 == 3, rng); x != nil {
					seeds = append(seeds, x)
					break
				}
			}
		}
		if len(seeds) == 0 {
			break
		}
		found := st.runSamples(cn, seeds, boundaryWords)
		if len(found) == 0 {
			break
		}
		boundary = found
		if err := runBoundary(); err != nil {
			return Support{}, err
		}
	}
	// Sensitized role rounds: a role that matters only when every other
	// role keeps off the function (chinesecheckers6's "cell p next": one
	// role moving to p, and no other moving to or from it) is rarely
	// shown by random samples, and each such role cost a SAT call.
	// Rounds try 8, 16, 32, then 64 pairs per role: most roles are shown
	// by the first few (knightazons: 7,385 action inputs per cone, each
	// pair costing a pass over them), and a round of 32 or more that
	// shows none ends them.
	for round := 0; round < sensitizeRounds && !st.done() && len(srs) > 0; round++ {
		if err := ctx.Err(); err != nil {
			return Support{}, err
		}
		if z == nil {
			z = newSensitizer(cn, srs)
		}
		attempts := roleSensitizeAttempts >> (sensitizeRounds - 1 - round)
		if !st.sensitizeRoles(z, cn, rng, attempts, max(64, maxSensitizeWork/int64(cn.NumSlots()))) && attempts >= roleSensitizeAttempts/2 {
			break
		}
	}
	switch ok, err := tryChoices(); {
	case err != nil:
		return Support{}, err
	case ok:
		return b.supportOf(props, srs, st), nil
	}
	switch ok, err := tryBDD(bddNodesPerGate, bddMinCallNodes); {
	case err != nil:
		return Support{}, err
	case ok:
		return b.supportOf(props, srs, st), nil
	}
	// The inputs simulation left undecided, when the cone's syntactic
	// space is small enough: its truth table settles them exactly at a
	// cost linear in rows × gates, where SAT may take seconds
	// (colonelBlotto: that white cannot win all three battles is
	// arithmetic over 66 × 66 action pairs, 2-8 s per gophersat call).
	if !st.done() {
		t, err := b.residueTable(ctx, f, cn, props, roles)
		if err != nil {
			return Support{}, err
		}
		if t != nil {
			for k := range props {
				if !st.propDep[k] && t.dependsOnProp(k) {
					st.propDep[k] = true
				}
			}
			for i := range srs {
				if !st.roleDep[i] && t.dependsOnRole(i) {
					st.roleDep[i] = true
				}
			}
			return b.supportOf(props, srs, st), nil
		}
	}
	// The inputs simulation left undecided: one SAT call settles them all
	// when none matters (the common case), and each call that finds a
	// dependency gives a witness, from which boundary rounds continue.
	// The calls share one encoding and solver (satcheck.Dependence): a
	// later call only rules out the inputs decided since (checkers-
	// mustjump-torus: 3,401 calls for 1,674 functions, each fresh one
	// paying an encoding, gophersat's parse and its watch lists).
	var dep *satcheck.Dependence
	for !st.done() {
		var cands []int
		for k, in := range props {
			if !st.propDep[k] {
				cands = append(cands, int(in))
			}
		}
		for i, sr := range srs {
			if !st.roleDep[i] && sr.radix > 1 {
				cands = append(cands, int(cn.Inputs[sr.ks[0]]))
			}
		}
		b.dependsOn.Add(1)
		if dep == nil {
			d, err := satcheck.NewDependence(p, f.Lit)
			if err != nil {
				return Support{}, err
			}
			dep = d
		}
		ws, err := dep.Find(ctx, cands)
		if err != nil {
			return Support{}, err
		}
		if len(ws) == 0 {
			break
		}
		boundary = boundary[:0]
		for _, wt := range ws {
			k, _ := slices.BinarySearch(cn.Inputs, int32(wt.Input))
			if k < nP {
				st.propDep[k] = true
			} else {
				for i, sr := range srs {
					if slices.Contains(sr.ks, k) {
						st.roleDep[i] = true
					}
				}
			}
			seed := make(sample, (nIn+63)/64)
			for _, i := range wt.Point {
				if k, ok := slices.BinarySearch(cn.Inputs, int32(i)); ok {
					seed[k/64] |= 1 << (k % 64)
				}
			}
			boundary = append(boundary, seed)
		}
		if err := runBoundary(); err != nil {
			return Support{}, err
		}
	}
	return b.supportOf(props, srs, st), nil
}

// slabClone returns a copy of x in the i-th sample-sized region of
// *slab, growing *slab (to 64·boundaryWords samples) when the region is
// not in it; the copy's capacity ends at its region. The samples of one
// boundary round are the regions 0, 1, ...; a later round overwrites
// them.
func slabClone(slab *[]uint64, i int, x sample) sample {
	n := len(x)
	if (i+1)*n > len(*slab) {
		*slab = make([]uint64, max((i+1)*n, 64*boundaryWords*n))
	}
	y := (*slab)[i*n : (i+1)*n : (i+1)*n]
	copy(y, x)
	return y
}

// supportOf lists the inputs simulation state st shows to matter: its
// propositions, and every action input of its roles.
func (b *builder) supportOf(props []int32, srs []simRole, st *simState) Support {
	roles := make([]int, len(srs))
	for i, sr := range srs {
		roles[i] = sr.role
	}
	return b.supportWhere(props, roles, func(k int) bool { return st.propDep[k] }, func(i int) bool { return st.roleDep[i] })
}

// supportWhere returns the support of the propositions props[k] for which
// prop(k) holds and of every action of the roles roles[i] for which
// role(i) holds.
func (b *builder) supportWhere(props []int32, roles []int, prop func(k int) bool, role func(i int) bool) Support {
	n := 0 // sized exactly: supports of many functions stay for the Build
	for k := range props {
		if prop(k) {
			n++
		}
	}
	var in []int
	if n > 0 {
		in = make([]int, 0, n)
	}
	for k, x := range props {
		if prop(k) {
			in = append(in, int(x))
		}
	}
	var rs []int
	for i, r := range roles {
		if role(i) {
			rs = append(rs, r)
		}
	}
	return newSupport(b.p, in, rs)
}

// residueTable returns the truth table of f over the syntactic space of
// its cone (propositions props, roles roles, as semanticSupport lays it
// out), or nil when its evaluation would cost more than
// Options.MaxResidueTableWork gate-words. The bound is on the description's
// cone, but the table and SAT answer alike, so the graph does not depend
// on which one is used.
func (b *builder) residueTable(ctx context.Context, f grounding.Function, cn *cone, props []int32, roles []int) (*table, error) {
	if b.opt.MaxResidueTableWork < 0 {
		return nil, nil
	}
	p := b.p
	work := int64(len(cn.Gates))
	for range max(len(props), 6) - 6 {
		work *= 2
		if work > b.opt.MaxResidueTableWork {
			return nil, nil
		}
	}
	for _, r := range roles {
		radix := roleRadix(p, cn, r)
		if work > b.opt.MaxResidueTableWork/int64(max(radix, 1)) {
			return nil, nil
		}
		work *= int64(max(radix, 1))
	}
	if work > b.opt.MaxResidueTableWork {
		return nil, nil
	}
	t, err := newTable(ctx, p, cn, fnSpace{props: props, roles: roles}, f.Kind == grounding.FuncNext)
	if err != nil {
		return nil, err
	}
	b.gateWords.Add(t.gateOps)
	b.residueTables.Add(1)
	return t, nil
}

// sensitizeRoles tries, for each undecided role, pairs of samples that
// differ only in the role's action: one where the role does a read action
// a whose path to the root is sensitized, one where it does another
// action the sample allows. A pair whose values differ is a witness that
// the role matters. It tries up to attempts pairs per role, spends at
// most budget sensitizer attempts in all, and reports whether it decided a
// role. A role's pairs are simulated in batches of 1, 1, 2, 4, ... pairs,
// and its attempts stop once one shows it: a sample costs up to the whole
// cone (amazons: most roles are shown by the first pair, and the seven
// more each cost a pass over 172,000 action inputs).
func (st *simState) sensitizeRoles(z *sensitizer, cn *cone, rng *rand.Rand, attempts int, budget int64) bool {
	decided := false
	made := 0 // pairs made, within 32*boundaryWords
	for i := range st.srs {
		sr := &st.srs[i]
		if st.roleDep[i] || sr.radix < 2 {
			continue
		}
		var pairs []sample
		m := 0 // pairs made for the role
		for a := 0; a < attempts && budget > 0 && made < 32*boundaryWords && !st.roleDep[i]; a++ {
			budget--
			k := sr.ks[rng.IntN(len(sr.ks))]
			x := z.sample(k, a%4 == 3, rng)
			if x == nil {
				continue
			}
			alt := sr.chosen(x) // -1: "another action", a choice only when the role has one
			if alt == k {
				// Another action the requirements allow: "another
				// action" first, then the read ones ascending.
				other := 0
				if sr.radix > len(sr.ks) {
					other = 1
				}
				n := other + z.freeChoices(i) - 1 // not k itself
				if n <= 0 {
					continue
				}
				if j := rng.IntN(n); j < other {
					alt = -1
				} else {
					alt = sr.ks[z.freeChoice(i, k-sr.ks[0], j-other)]
				}
			}
			xa, xb := slices.Clone(x), slices.Clone(x)
			if c := sr.chosen(x); c >= 0 {
				xa[c/64] &^= 1 << (c % 64)
				xb[c/64] &^= 1 << (c % 64)
			}
			xa[k/64] |= 1 << (k % 64)
			if alt >= 0 {
				xb[alt/64] |= 1 << (alt % 64)
			}
			pairs = append(pairs, xa, xb)
			made++
			if m++; m&(m-1) == 0 { // m = 1, 2, 4, ...: batches of 1, 1, 2, 4, ...
				if pairsDiffer(cn, pairs) {
					st.roleDep[i], decided = true, true
				}
				pairs = pairs[:0]
			}
		}
		if !st.roleDep[i] && len(pairs) > 0 && pairsDiffer(cn, pairs) {
			st.roleDep[i], decided = true, true
		}
	}
	return decided
}

// pairsDiffer reports whether the function of cone cn differs between the
// two samples of some pair (pairs[2j], pairs[2j+1]).
func pairsDiffer(cn *cone, pairs []sample) bool {
	w := (len(pairs) + 63) / 64
	s := samplesSim(cn, pairs, w)
	out := make([]uint64, w)
	s.Eval(out)
	for j := 0; j < len(pairs); j += 2 {
		// Pairs never straddle a word: j and j+1 share one.
		if (out[j/64]>>(j%64)^out[j/64]>>(j%64+1))&1 == 1 {
			return true
		}
	}
	return false
}

// boundaryRounds and boundaryWords bound the boundary rounds of simSupport;
// choiceWords and maxChoiceWork its choice rounds.
const (
	// choiceWords: 128 samples per move of a role. With 512 the choice
	// rounds (a whole-cone evaluation and a flip of every undecided
	// proposition per move) were about a fifth of the graph phase of the
	// checkers variants and blobwars, and the samples found hardly more.
	choiceWords = 2
	// maxChoiceWork bounds choice rounds: choices × (fanins + inputs).
	maxChoiceWork = 1 << 24
	// maxRoleChoices bounds the choices tried per role and round when
	// looking for a witness that the role matters.
	maxRoleChoices = 32
	// choiceRoundsPerBDDNode: choice rounds costing more slot-words than
	// this many times the cofactor BDDs' node bound are not run before
	// trying the BDDs.
	choiceRoundsPerBDDNode = 64
	boundaryRounds         = 16
	boundaryWords          = 64
	// witnessesPerInput caps the boundary samples taken from one input's
	// witnesses in one round.
	witnessesPerInput = 16
	// justifyAttempts bounds the tries of justify, justifySamples the
	// samples it returns.
	justifyAttempts = 256
	justifySamples  = 64
	// sensitizeRounds bounds the sensitized rounds, sensitizeAttempts the
	// tries per undecided proposition and round.
	sensitizeRounds   = 4
	sensitizeAttempts = 8
	// roleSensitizeAttempts bounds the sensitized pairs tried per
	// undecided role in the last sensitized role round (earlier ones try
	// halves of it).
	roleSensitizeAttempts = 64
	// maxSensitizeWork bounds the slots one sensitized round may visit
	// (attempts × cone slots).
	maxSensitizeWork = 1 << 27
)

// cancelCheckEvery is how many flips (of one input on a whole batch) run
// between two looks at the context: a flip costs at most the cone times
// the batch's words, so this keeps cancellation well under a second.
const cancelCheckEvery = 16

// simState is what simulation has decided so far.
type simState struct {
	// ctx stops a round early: a cancelled round only leaves inputs
	// undecided, and the caller returns ctx's error before deciding them.
	ctx              context.Context
	propDep, roleDep []bool
	srs              []simRole
	rng              *rand.Rand
	sim              *coneSim // the simulator runSamples last used
}

func (st *simState) done() bool {
	if !st.propsDone() {
		return false
	}
	for i, d := range st.roleDep {
		if !d && st.srs[i].radix > 1 {
			return false
		}
	}
	return true
}

// propsDone reports whether every proposition is decided.
func (st *simState) propsDone() bool { return !slices.Contains(st.propDep, false) }

// biasBits is the precision of biasedWord's probabilities.
const biasBits = 10

// simBiasBits[i] is simBias[i] rounded to biasBits binary digits.
var simBiasBits = func() []uint32 {
	out := make([]uint32, len(simBias))
	for i, p := range simBias {
		out[i] = uint32(p*(1<<biasBits) + 0.5)
	}
	return out
}()

// biasedWord returns 64 independent bits, each set with probability
// q/2^biasBits: from the last binary digit of q to the first, a digit 1
// ORs a fresh random word in and a digit 0 ANDs one in (biasBits random
// words instead of 64 random floats).
func biasedWord(src *splitMix, q uint32) uint64 {
	var x uint64
	for d := range biasBits {
		if q>>d&1 == 1 {
			x |= src.next()
		} else {
			x &= src.next()
		}
	}
	return x
}

// splitMix is the SplitMix64 generator: the random rounds draw biasBits
// words per sample word of every proposition, and through rand.Rand's
// interface that was an eighth of kalaha_2009's semantic supports.
type splitMix uint64

func (s *splitMix) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// sample is one point of the input space: cone input values (bit-packed).
type sample []uint64

// randomPool draws w words of samples: propositions biased word by word,
// each role doing a random one of its read actions or none of them.
func randomPool(nIn, nProps int, srs []simRole, w int, rng *rand.Rand) [][]uint64 {
	pool := poolOf(nIn, w)
	randomInto(func(k int) []uint64 { return pool[k] }, nProps, srs, w, 0, rng)
	return pool
}

// randomInto writes randomPool's samples into the zero vectors in(k); the
// words are words off.. of a round (their biases follow the round's word).
func randomInto(in func(k int) []uint64, nProps int, srs []simRole, w, off int, rng *rand.Rand) {
	src := splitMix(rng.Uint64())
	for k := range nProps {
		v := in(k)
		for i := range w {
			v[i] = biasedWord(&src, simBiasBits[(off+i)%len(simBiasBits)])
		}
	}
	for _, sr := range srs {
		for bit := range 64 * w {
			if c := rng.IntN(sr.radix); c < len(sr.ks) {
				in(sr.ks[c])[bit/64] |= 1 << (bit % 64)
			}
		}
	}
}

// poolOf returns nIn zero vectors of w words, cut from one allocation (a
// cone can have 172,000 inputs, amazons' next functions).
func poolOf(nIn, w int) [][]uint64 {
	back := make([]uint64, nIn*w)
	pool := make([][]uint64, nIn)
	for k := range pool {
		pool[k] = back[k*w : (k+1)*w : (k+1)*w]
	}
	return pool
}

func isNonZero(x uint64) bool    { return x != 0 }
func isNotAllOnes(x uint64) bool { return x != ^uint64(0) }

// loadSamples sets the input bits of samples into vals, a simulator's
// vectors of w words a slot (slot 1+k for input k), whose input slots are
// clear. Bits past the samples repeat the first sample, so they witness
// nothing new. Each block of 64 samples by 64 inputs is one bit-matrix
// transpose: setting the samples' true bits one by one was a sixth of
// kalaha_2009's semantic supports (half its propositions true a sample).
func loadSamples(vals []uint64, w int, samples []sample) {
	var m [64]uint64
	for wb := range w {
		for i := range samples[0] {
			for j := range m {
				x := samples[0]
				if b := 64*wb + j; b < len(samples) {
					x = samples[b]
				}
				m[j] = x[i]
			}
			transpose64(&m)
			for t, v := range m {
				if v != 0 {
					vals[(1+64*i+t)*w+wb] |= v
				}
			}
		}
	}
}

// transpose64 transposes the 64×64 bit matrix m (bit c of m[r] is entry
// (r, c)) in place, by swapping off-diagonal blocks of halving size.
func transpose64(m *[64]uint64) {
	masks := [...]uint64{0x00000000ffffffff, 0x0000ffff0000ffff, 0x00ff00ff00ff00ff, 0x0f0f0f0f0f0f0f0f, 0x3333333333333333, 0x5555555555555555}
	for d, j := 0, 32; j != 0; d, j = d+1, j>>1 {
		mask := masks[d]
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			t := (m[k]>>j ^ m[k+j]) & mask
			m[k+j] ^= t
			m[k] ^= t << j
		}
	}
}

// samplesSim returns a simulator of cn on at most w words whose inputs
// hold the samples, packed bit by bit (written in place: a pool of its own
// cost an allocation and a copy of every input's vector). It is no wider
// than the samples: 64 justified samples on 64 words cost every flip 64
// times what one word does (checkers-mustjump-torus' legal functions).
func samplesSim(cn *cone, samples []sample, w int) *coneSim {
	w = min(w, (len(samples)+63)/64)
	s := newConeSim(cn, w)
	loadSamples(s.Vals, w, samples)
	return s
}

// samplesSim is samplesSim on the simulator of st's last call when it has
// as many words: boundary rounds simulate one cone up to 16 times a run,
// and a fresh simulator (slots and a flip's scratch, each slots × words)
// was a tenth of kalaha_2009's semantic supports in allocating and
// clearing.
func (st *simState) samplesSim(cn *cone, samples []sample, w int) *coneSim {
	w = min(w, (len(samples)+63)/64)
	s := st.sim
	if s == nil || s.Cone != cn || s.W != w {
		s = samplesSim(cn, samples, w)
		st.sim = s
		return s
	}
	clear(s.Vals[w : (1+len(cn.Inputs))*w])
	loadSamples(s.Vals, w, samples)
	return s
}

// runSamples runs the first 64·w samples on cn (see runLoaded), in passes
// no wider than simMaxBytes allows, and returns the witnesses' samples.
func (st *simState) runSamples(cn *cone, samples []sample, w int) []sample {
	samples = samples[:min(len(samples), 64*w)]
	per := 64 * simPassWords(cn, w)
	var found []sample
	for i := 0; i < len(samples) && st.ctx.Err() == nil; i += per {
		found = append(found, st.run(st.samplesSim(cn, samples[i:min(i+per, len(samples))], w), false)...)
	}
	return found
}

// run simulates the samples loaded in s (see runLoaded).
func (st *simState) run(s *coneSim, roles bool) []sample {
	return st.runLoaded(s, roles, make([]uint64, s.W))
}

// runLoaded simulates the samples loaded in s's inputs, marks the
// propositions (and, if roles is set, the roles) it finds a witness for,
// and returns boundary samples: witnesses of the propositions it decided,
// with the proposition flipped. f0 (s.W words) receives the function's
// value on the samples.
func (st *simState) runLoaded(s *coneSim, roles bool, f0 []uint64) []sample {
	w := s.W
	f1 := make([]uint64, w)
	s.Eval(f0)
	// Witnesses (proposition, bit), read out as samples once flips are done.
	type witness struct{ k, bit int }
	var wits []witness
	for k := range st.propDep {
		if st.propDep[k] {
			continue
		}
		// Every flip: one costs up to the cone times W words (othello's
		// supports ran 1.7 s past a deadline at load 19 looking every 16th
		// k, and decided k were skipped before the look).
		if st.ctx.Err() != nil {
			return nil
		}
		s.Flip(k, s.W, f1)
		if slices.Equal(f0, f1) {
			continue
		}
		st.propDep[k] = true
		n := 0
		for i := range w {
			for d := f0[i] ^ f1[i]; d != 0 && n < witnessesPerInput; d &= d - 1 {
				wits = append(wits, witness{k, 64*i + bits.TrailingZeros64(d)})
				n++
			}
		}
	}
	out := st.witnessSamples(s, len(wits), func(j int) (int, int) { return wits[j].k, wits[j].bit })
	for i := range st.srs {
		sr := &st.srs[i]
		if !roles || st.roleDep[i] || sr.radix < 2 {
			continue
		}
		// f under some fixed choices; the role matters if two differ. A role
		// whose choices all agree here is left to the next round or to SAT:
		// trying every choice of a role with thousands of actions costs more
		// than one SAT call.
		cs := []int{0}
		if sr.radix <= maxRoleChoices {
			for c := 1; c < sr.radix; c++ {
				cs = append(cs, c)
			}
		} else {
			for range maxRoleChoices - 1 {
				cs = append(cs, 1+st.rng.IntN(sr.radix-1))
			}
		}
		// With every read action of the role false (its "another action"
		// choice), choice c is that input flipped: one evaluation of the
		// cone, then one of c's fanout per choice (amazons: 32 choices of a
		// cone of 172,000 action inputs were 32 whole evaluations).
		// Only the inputs some sample sets are saved: a role does one
		// action per sample.
		var saved []uint64
		var savedK []int
		for _, k := range sr.ks {
			if v := s.In(k); slices.ContainsFunc(v, func(x uint64) bool { return x != 0 }) {
				savedK = append(savedK, k)
				saved = append(saved, v...)
				clear(v)
			}
		}
		base := make([]uint64, w)
		s.Eval(base)
		s.FewFlips = true // each choice's NOR of actions is flipped about once
		var first []uint64
		for _, c := range cs {
			if c < len(sr.ks) {
				s.Flip(sr.ks[c], w, f1)
			} else {
				copy(f1, base)
			}
			if c == 0 {
				first = slices.Clone(f1)
			} else if !slices.Equal(first, f1) {
				st.roleDep[i] = true
				break
			}
		}
		s.FewFlips = false
		for j, k := range savedK {
			copy(s.In(k), saved[j*w:(j+1)*w])
		}
	}
	return out
}

// witnessSamples returns the n witnesses at(j) = (proposition k, bit) of
// the samples loaded in s, as samples with k flipped, in order; nil when
// every proposition is decided, since boundary samples then serve nothing.
// The bits are read out of every input's vector in one pass (a pass per
// bit was a sixth of knightwar's graph phase).
func (st *simState) witnessSamples(s *coneSim, n int, at func(j int) (k, bit int)) []sample {
	if n == 0 || st.propsDone() {
		return nil
	}
	w, nIn := s.W, len(s.Cone.Inputs)
	need := make([]uint64, w)
	for j := range n {
		_, bit := at(j)
		need[bit/64] |= 1 << (bit % 64)
	}
	// The columns and the returned samples are cut from one allocation
	// each (a sample per witness was most of the allocations of
	// checkers-mustjump-torus' boundary rounds).
	nw := (nIn + 63) / 64
	cols := 0
	for _, x := range need {
		cols += bits.OnesCount64(x)
	}
	back := make([]uint64, cols*nw)
	col := make(map[int]sample, cols)
	for i, x := range need {
		for ; x != 0; x &= x - 1 {
			col[64*i+bits.TrailingZeros64(x)], back = back[:nw:nw], back[nw:]
		}
	}
	for k2 := range nIn {
		v := s.In(k2)
		for i, x := range need {
			for x &= v[i]; x != 0; x &= x - 1 {
				col[64*i+bits.TrailingZeros64(x)][k2/64] |= 1 << (k2 % 64)
			}
		}
	}
	out := make([]sample, n)
	back = make([]uint64, n*nw)
	for j := range n {
		k, bit := at(j)
		out[j], back = back[:nw:nw], back[nw:]
		copy(out[j], col[bit])
		out[j][k/64] ^= 1 << (k % 64)
	}
	return out
}

// justify returns up to max samples of the cone's inputs (all of them
// propositions) where the root has value want, found by justification:
// the root's value is required, an AND gate required true requires every
// fanin literal true, one required false requires one fanin literal false
// (one already required so, else a random one not yet required), and an
// attempt whose requirements conflict is abandoned. Inputs left free are
// random. Every sample it returns has the value want (the requirements
// force it), so it only ever serves as a starting point for simulation.
func justify(cn *cone, want bool, attempts, max int, rng *rand.Rand) []sample {
	nIn := len(cn.Inputs)
	first := 1 + nIn
	req := make([]int8, first+len(cn.Gates)) // 0 free, 1 false, 2 true
	var stack []int32
	var cands []uint32
	var out []sample
	for range attempts {
		if len(out) == max {
			break
		}
		clear(req)
		req[0] = 1 // the constant slot is false
		stack = stack[:0]
		push := func(slot int, v bool) bool {
			r := int8(1)
			if v {
				r = 2
			}
			if req[slot] != 0 {
				return req[slot] == r
			}
			req[slot] = r
			if slot >= first {
				stack = append(stack, int32(slot))
			}
			return true
		}
		ok := push(int(cn.Root>>1), want != (cn.Root&1 == 1))
		for ok && len(stack) > 0 {
			slot := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			gi := slot - first
			fan := cn.Fanin[cn.Start[gi]:cn.Start[gi+1]]
			if req[slot] == 2 {
				for _, l := range fan {
					if !push(int(l>>1), l&1 == 0) {
						ok = false
						break
					}
				}
				continue
			}
			// Some fanin literal false: its slot has value l&1.
			done := false
			cands = cands[:0]
			for _, l := range fan {
				ctrl := int8(1)
				if l&1 == 1 {
					ctrl = 2
				}
				switch req[int(l>>1)] {
				case ctrl:
					done = true
				case 0:
					cands = append(cands, l)
				}
				if done {
					break
				}
			}
			if done {
				continue
			}
			if len(cands) == 0 {
				ok = false
				break
			}
			l := cands[rng.IntN(len(cands))]
			push(int(l>>1), l&1 == 1)
		}
		if !ok {
			continue
		}
		x := make(sample, (nIn+63)/64)
		for k := range nIn {
			v := req[1+k] == 2
			if req[1+k] == 0 {
				v = rng.IntN(2) == 1
			}
			if v {
				x[k/64] |= 1 << (k % 64)
			}
		}
		out = append(out, x)
	}
	return out
}

// roleRadix is the number of choices of role r in the syntactic space of
// cn: each of its actions the cone reads, and one more for all the others
// when it does not read them all.
func roleRadix(p *grounding.Program, cn *cone, r int) int {
	lo, hi := roleSpan(p, cn, r)
	read := hi - lo
	if read < len(p.Actions[r]) {
		return read + 1
	}
	return read
}

// roleSpan returns the positions lo..hi-1 in cn.Inputs of the actions of
// role r that the cone reads: a role's actions are consecutive circuit
// inputs and cn.Inputs ascend, so two binary searches find them (a cone can
// read 172,000 actions, amazons' next functions).
func roleSpan(p *grounding.Program, cn *cone, r int) (lo, hi int) {
	base := p.ActionInputBase(r)
	lo, _ = slices.BinarySearch(cn.Inputs, int32(base))
	hi, _ = slices.BinarySearch(cn.Inputs, int32(base+len(p.Actions[r])))
	return lo, hi
}
