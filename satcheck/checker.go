package satcheck

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gamequiv/gamequiv/grounding"
)

// Checker decides whether functions of program A equal functions of program B
// under an identification of their inputs. Create one per pair of programs and
// reuse it across candidate mappings: it caches supports, simulation signatures
// of A and every decided pair. A Checker is safe for concurrent use.
type Checker struct {
	a, b  *side
	opt   Options
	stats counters
	pool  *pool

	mu    sync.Mutex
	cache map[string]bool // cacheKey -> equal

	witnesses witnessStore

	bdd bddState // the BDD check's manager (bdd.go)

	lemmas [2]lemmaStore // by semantics: equalities sweeps proved under one input map (lemmas.go)

	cacheBytes int // bytes of the cache's keys

	movesState // VerifyMoves' index and scratch (moves.go)

	effort atomic.Int64 // Options.BoundedEffort until Unbound
}

// Unbound lifts Options.BoundedEffort for the checks that follow, keeping
// what the bounded ones decided (a search's second pass asks them again).
// No check may run during the call.
func (c *Checker) Unbound() { c.effort.Store(0) }

// boundedEffort is Options.BoundedEffort, or 0 once unbound.
func (c *Checker) boundedEffort() int { return int(c.effort.Load()) }

// NewChecker prepares the comparison of programs a and b. It validates both
// programs (circuit shape, function literals in range) and returns an error
// wrapping ErrMalformed when one breaks the grounding invariants.
func NewChecker(a, b *grounding.Program, opt Options) (*Checker, error) {
	sa, err := newSide(a)
	if err != nil {
		return nil, err
	}
	sb, err := newSide(b)
	if err != nil {
		return nil, err
	}
	if err := sa.validate(); err != nil {
		return nil, err
	}
	if err := sb.validate(); err != nil {
		return nil, err
	}
	if a == b {
		sb.pairs = sa.pairs // one program: its pair types are one set of facts
	}
	c := &Checker{a: sa, b: sb, opt: opt.withDefaults(), cache: make(map[string]bool)}
	c.pool = newPool(c.opt.MaxConcurrentSolves, &c.stats)
	c.effort.Store(int64(max(c.opt.BoundedEffort, 0)))
	return c, nil
}

// Stats returns the counters accumulated so far.
func (c *Checker) Stats() Stats { return c.stats.snapshot() }

// CheckFunc reports whether fa (a literal of A's circuit) and fb (of B's),
// two reasoning functions of the given kind, are equal when A's input i is
// identified with B's input inputMap[i]. The kind fixes how does-inputs are
// read, as in the paper's definition:
//
//   - grounding.FuncNext: every role does exactly one of its actions, so the
//     does-inputs of each role are one-hot; when some role of A or B has no
//     action, no joint move exists and the answer is vacuously true;
//   - legal, goal, terminal: the function is evaluated on a state alone, with
//     every does-input false (valid GDL never lets them read one).
//
// inputMap has one entry per input of A; only the entries of fa's syntactic
// support are read (others may be -1), so a search can call CheckFunc as soon
// as those are fixed. A mapping that cannot be part of a bijection of inputs
// (out of range, not injective on the support, a proposition mapped to an
// action, roles mixed up) gives a *MappingError.
//
// Equal pairs are proven (structurally, by a complete truth table, or by an
// unsatisfiable miter); different pairs are shown by a counterexample. Errors
// are a *LimitError when the miter exceeds MaxVars/MaxClauses, ctx.Err() on
// cancellation, and the errors above.
func (c *Checker) CheckFunc(ctx context.Context, kind grounding.FuncKind, fa, fb grounding.Lit, inputMap []int32) (bool, error) {
	o, err := c.check(ctx, fa, fb, inputMap, semanticsOf(kind), 0)
	return o.equal, err
}

func semanticsOf(kind grounding.FuncKind) semantics {
	if kind == grounding.FuncNext {
		return oneHot
	}
	return noMoves
}

// checkFlags adjust one check.
type checkFlags uint8

const (
	needModel checkFlags = 1 << iota // a cached "different" is not enough: find the counterexample
	cheapOnly                        // stop before SAT, leaving the pair undecided
	satNow                           // the cheap stages already ran (a second pass): go to SAT
)

// outcome is the full answer of check: for a different pair, the joint space
// and a separating assignment of its variables (when one was asked for).
type outcome struct {
	equal     bool
	undecided bool // only with cheapOnly
	j         *joint
	model     []bool
}

// check runs the stages: vacuity, cache, mapping validation, structural
// hashing, exhaustive truth table, random simulation, SAT.
func (c *Checker) check(ctx context.Context, fa, fb grounding.Lit, inputMap []int32, sem semantics, fl checkFlags) (outcome, error) {
	if fl&satNow == 0 {
		c.stats.checks.Add(1)
	}
	if len(inputMap) != c.a.numInputs() {
		return outcome{}, mappingErrorf("input map has %d entries, want %d (inputs of %q)", len(inputMap), c.a.numInputs(), c.a.p.Name)
	}
	if fa.Node() >= c.a.c.NumNodes() || fb.Node() >= c.b.c.NumNodes() {
		return outcome{}, fmt.Errorf("satcheck: literal out of range (%d of %d nodes, %d of %d nodes)",
			fa, c.a.c.NumNodes(), fb, c.b.c.NumNodes())
	}
	if sem == oneHot && (c.a.emptyRole >= 0 || c.b.emptyRole >= 0) {
		c.stats.vacuous.Add(1)
		return outcome{equal: true}, nil
	}
	suppA, err := c.a.support(fa)
	if err != nil {
		return outcome{}, err
	}
	suppB, err := c.b.support(fb)
	if err != nil {
		return outcome{}, err
	}
	if c.a.p == c.b.p && fa == fb && fixesAll(inputMap, suppA) {
		// A function of a game against itself under a mapping that fixes
		// every input it reads: the same circuit on the same inputs. Most
		// functions of a symmetry are such, so the symmetry search saves a
		// cache key and lookup for each.
		c.stats.structural.Add(1)
		return outcome{equal: true}, nil
	}
	useCache := c.opt.Mode&NoCache == 0
	var key string
	if useCache {
		key = cacheKey(fa, fb, suppA, inputMap, sem, c.a)
		c.mu.Lock()
		eq, ok := c.cache[key]
		c.mu.Unlock()
		if ok && (eq || fl&needModel == 0) {
			c.stats.cacheHits.Add(1)
			return outcome{equal: eq}, nil
		}
	}
	o, err := c.decide(ctx, fa, fb, suppA, suppB, inputMap, sem, fl)
	if err != nil || o.undecided {
		return o, err
	}
	if !o.equal && o.model != nil && sem == noMoves && c.opt.Mode&NoSimulation == 0 {
		c.witnesses.record(fa, len(suppA), o.j, o.model)
	}
	if useCache {
		c.mu.Lock()
		if len(c.cache) >= c.opt.MaxCacheEntries || c.cacheBytes+len(key) > maxCacheBytes {
			clear(c.cache)
			c.cacheBytes = 0
		}
		c.cache[key] = o.equal
		c.cacheBytes += len(key)
		c.mu.Unlock()
	}
	return o, nil
}

// fixesAll reports whether inputMap maps every input of supp to itself.
func fixesAll(inputMap, supp []int32) bool {
	for _, i := range supp {
		if inputMap[i] != i {
			return false
		}
	}
	return true
}

// cacheKey identifies a question completely: the two literals, the semantics
// and A's support mapped through inputMap (the support is a function of fa,
// so the restricted mapping is the list of images in support order). When
// inputMap fixes most of the support (a symmetry of a big game moves a few
// of a function's thousands of inputs), the key lists only the positions it
// moves and their images: dense keys of such functions held 700 MB of
// amazonsSuicide's cache after 15 s of its symmetries' verification.
// Otherwise it lists the images as the first one and runs of equal steps
// (appendSteps): a mapping of a block of actions onto a block keeps its
// step, and amazons' next functions, which read 173,962 actions, had keys
// of 680 KB (168 MB of its comparison's cache). The form is a function of
// the question and tagged in the key, and each form can be read back, so a
// question has one key and two questions never share one.
func cacheKey(fa, fb grounding.Lit, suppA []int32, inputMap []int32, sem semantics, a *side) string {
	// ignored: an action read with no move made, never true.
	ignored := func(i int32) bool { return sem == noMoves && a.isAction(i) }
	moved := 0
	for _, i := range suppA {
		if !ignored(i) && inputMap[i] != i {
			moved++
		}
	}
	sparse := 2*moved < len(suppA)
	n := len(suppA)
	if sparse {
		n = 2 * moved
	}
	k := make([]byte, 0, 10+4*min(n, 64))
	k = append(k, byte(sem))
	if sparse {
		k = append(k, 1)
	} else {
		k = append(k, 0)
	}
	k = binary.LittleEndian.AppendUint32(k, uint32(fa))
	k = binary.LittleEndian.AppendUint32(k, uint32(fb))
	if !sparse {
		return string(appendSteps(k, len(suppA), func(pos int) int64 {
			if i := suppA[pos]; !ignored(i) {
				return int64(inputMap[i])
			}
			return -1
		}))
	}
	for pos, i := range suppA {
		if !ignored(i) && inputMap[i] != i {
			k = binary.LittleEndian.AppendUint32(k, uint32(pos))
			k = binary.LittleEndian.AppendUint32(k, uint32(inputMap[i]))
		}
	}
	return string(k)
}

// appendSteps appends the n values x(0), ..., x(n-1) to k as x(0), then
// runs of equal differences between neighbours, each as its difference
// (varint) and its length (uvarint); the values can be read back from the
// bytes alone.
func appendSteps(k []byte, n int, x func(pos int) int64) []byte {
	if n == 0 {
		return k
	}
	prev := x(0)
	k = binary.AppendVarint(k, prev)
	var step int64
	run := uint64(0)
	for pos := 1; pos < n; pos++ {
		v := x(pos)
		if d := v - prev; run > 0 && d == step {
			run++
		} else {
			if run > 0 {
				k = binary.AppendUvarint(binary.AppendVarint(k, step), run)
			}
			step, run = d, 1
		}
		prev = v
	}
	if run > 0 {
		k = binary.AppendUvarint(binary.AppendVarint(k, step), run)
	}
	return k
}

func (c *Checker) decide(ctx context.Context, fa, fb grounding.Lit, suppA, suppB, inputMap []int32, sem semantics, fl checkFlags) (outcome, error) {
	j, err := buildJoint(c.a, c.b, suppA, suppB, inputMap, sem)
	if err != nil {
		return outcome{}, err
	}
	if c.opt.Mode&NoLemmas == 0 {
		j.lem, j.im = &c.lemmas[sem], inputMap
	}
	if fl&satNow != 0 {
		return c.decideSAT(ctx, fa, fb, j)
	}
	if fa.Node() == 0 && fb.Node() == 0 {
		c.stats.structural.Add(1)
		if fa == fb {
			return outcome{equal: true}, nil
		}
		return outcome{j: j, model: make([]bool, len(j.vars))}, nil
	}
	ca, err := c.a.coneOf(fa)
	if err != nil {
		return outcome{}, err
	}
	if c.opt.Mode&NoStructure == 0 && c.structurallyEqual(ca, fa, fb, j, inputMap) {
		c.stats.structural.Add(1)
		return outcome{equal: true}, nil
	}
	cb, err := c.b.coneOf(fb)
	if err != nil {
		return outcome{}, err
	}
	if c.opt.Mode&NoExhaustive == 0 && j.log2Rows() <= float64(c.opt.ExhaustiveBits) {
		c.stats.exhaustive.Add(1)
		vec, w, rows := j.exhaustiveVectors()
		va, vb := simulatePair(ca, cb, j, vec, w)
		if bit := firstDiff(va, vb, rows); bit >= 0 {
			return outcome{j: j, model: assignmentAt(vec, len(j.vars), w, bit)}, nil
		}
		return outcome{equal: true}, nil
	}
	if c.opt.Mode&NoSimulation == 0 && c.opt.SimWords > 0 {
		c.stats.simulations.Add(1)
		if m := c.simulate(ca, cb, fa, fb, j, sem); m != nil {
			c.stats.simRefuted.Add(1)
			return outcome{j: j, model: m}, nil
		}
		if sem == noMoves {
			if m := c.replayWitnesses(ca, cb, fa, j, nil); m != nil {
				return outcome{j: j, model: m}, nil
			}
		}
	}
	// After simulation, which refutes most different pairs at once: the
	// flattened comparison is for the pairs that are likely equal.
	if c.opt.Mode&NoStructure == 0 && flatEqual(ca, cb, j) {
		c.stats.structural.Add(1)
		return outcome{equal: true}, nil
	}
	if fl&cheapOnly != 0 {
		return outcome{undecided: true}, nil
	}
	return c.solveMiter(ctx, j, ca, cb)
}

// decideSAT builds the cones again and goes straight to the SAT stage.
func (c *Checker) decideSAT(ctx context.Context, fa, fb grounding.Lit, j *joint) (outcome, error) {
	ca, err := c.a.coneOf(fa)
	if err != nil {
		return outcome{}, err
	}
	cb, err := c.b.coneOf(fb)
	if err != nil {
		return outcome{}, err
	}
	return c.solveMiter(ctx, j, ca, cb)
}

func (c *Checker) solveMiter(ctx context.Context, j *joint, ca, cb *cone) (outcome, error) {
	// Large cones only: on small ones gophersat answers in milliseconds
	// where a table of 2^27 rows took seconds (sum15 against ticTacToe).
	// The split table (tablesplit.go) where it is cheaper: the same rows.
	large := len(ca.Gates)+len(cb.Gates) >= c.opt.SweepMinGates
	if c.opt.Mode&NoExhaustive == 0 && c.opt.TableWork > 0 && large && c.tableFits(j, ca, cb) {
		c.stats.exhaustive.Add(1)
		c.stats.tables.Add(1)
		decide := tableDecide
		if splitTableWork(j, ca, cb) < tableWork(j, ca, cb) {
			decide = splitTableDecide
		}
		m, err := decide(ctx, j, ca, cb)
		if err != nil {
			return outcome{}, err
		}
		if m == nil {
			return outcome{equal: true}, nil
		}
		return outcome{j: j, model: m}, nil
	}
	sweep := c.opt.Mode&NoSweep == 0 && large
	if c.boundedEffort() > 0 {
		return c.boundedMiter(ctx, j, ca, cb, large, sweep)
	}
	if c.opt.Mode&NoBDD == 0 && large && !c.bdd.givenUp() {
		// Sweeping within a budget first: most pairs need a few hundred
		// conflicts, while BDDs that blow up spend their whole node budget
		// before giving up (wargame03: 671 conflicts in 42 ms against 21 s
		// of BDD). The pairs sweeping finds hard (merrills' counts) go to
		// BDDs, then to sweeping without a bound. Once BDDs are given up
		// (bddFailSlack), a budgeted sweep that runs out is followed by the
		// unbounded one at once, which asks its last proof again: so
		// sweeping goes unbounded from the start.
		afterSweep := false
		if sweep && c.opt.SweepConflictsBeforeBDD > 0 && !c.bdd.leads() {
			o, err := c.sweepMiter(ctx, j, ca, cb, c.opt.SweepConflictsBeforeBDD)
			// Past the budget, and past the CNF size limits (which BDDs
			// do not have), the BDDs try.
			if !errors.Is(err, errConflictBudget) && !errors.Is(err, ErrLimit) {
				if err == nil {
					c.bdd.swept()
				}
				return o, err
			}
			c.stats.sweepOverBudget.Add(1)
			afterSweep = true
		}
		if afterSweep && c.normalFormsEqual(j, ca, cb) {
			return outcome{equal: true}, nil
		}
		o, ok, err := c.bddDecide(ctx, j, ca, cb)
		if err == nil {
			c.bdd.tried(ok, afterSweep)
		}
		if err != nil || ok {
			return o, err
		}
	}
	if sweep {
		return c.sweepMiter(ctx, j, ca, cb, -1)
	}
	return c.plainMiter(ctx, j, ca, cb, -1)
}

// normalFormsEqual proves a large pair equal by its disjunctive normal
// forms (dnf.go). It runs only where a pair has shown itself hard, past
// the budgeted sweep (before BDDs and the unbounded sweep), since on pairs
// that SAT settles in a few conflicts the expansion would cost more than
// it saves; and it stops being tried once it has failed dnfFailSlack times
// more than twice the pairs it proved (merrills' counts: 197 failures of
// 84 ms). Effort only: SAT decides what it leaves.
func (c *Checker) normalFormsEqual(j *joint, ca, cb *cone) bool {
	if c.opt.Mode&NoStructure != 0 || c.stats.dnfFailed.Load() > 2*c.stats.normalForms.Load()+dnfFailSlack {
		return false
	}
	if !dnfEqual(ca, cb, j) {
		c.stats.dnfFailed.Add(1)
		return false
	}
	c.stats.normalForms.Add(1)
	return true
}

// tableFits reports whether the chunked or the split table of ca and cb
// costs at most Options.TableWork.
func (c *Checker) tableFits(j *joint, ca, cb *cone) bool {
	return tableWork(j, ca, cb) <= c.opt.TableWork || splitTableWork(j, ca, cb) <= c.opt.TableWork
}

// boundedMiter is solveMiter under Options.BoundedEffort: the budgeted
// stages only, then a *LimitError.
func (c *Checker) boundedMiter(ctx context.Context, j *joint, ca, cb *cone, large, sweep bool) (outcome, error) {
	budget := max(c.opt.SweepConflictsBeforeBDD, 0)
	var o outcome
	var err error
	if sweep {
		o, err = c.sweepMiter(ctx, j, ca, cb, budget)
	} else {
		o, err = c.plainMiter(ctx, j, ca, cb, budget)
	}
	if !errors.Is(err, errConflictBudget) && !errors.Is(err, ErrLimit) {
		return o, err
	}
	if large && c.normalFormsEqual(j, ca, cb) {
		return outcome{equal: true}, nil
	}
	if c.opt.Mode&NoBDD == 0 && large && !c.bdd.givenUp() {
		o, ok, err := c.bddDecide(ctx, j, ca, cb)
		if err != nil || ok {
			return o, err
		}
	}
	c.stats.boundedOut.Add(1)
	b := int64(c.boundedEffort())
	return outcome{}, &LimitError{What: "BoundedEffort", Limit: b, Got: b + 1}
}

// plainMiter decides the pair with one SAT call on the miter of both
// cones; a non-negative budget bounds its conflicts as in sweepMiter.
func (c *Checker) plainMiter(ctx context.Context, j *joint, ca, cb *cone, budget int) (outcome, error) {
	f, err := miter(j, ca, cb, &c.opt)
	if err != nil {
		return outcome{}, err
	}
	if budget == 0 {
		return outcome{}, errConflictBudget
	}
	f.maxConflicts = max(budget, 0)
	f.what = fmt.Sprintf("miter %q node %d (%d gates) vs %q node %d (%d gates), %d inputs",
		c.a.p.Name, rootNode(ca), len(ca.Gates), c.b.p.Name, rootNode(cb), len(cb.Gates), len(j.vars))
	sat, model, err := c.pool.solve(ctx, f)
	if err != nil {
		return outcome{}, err
	}
	if !sat {
		return outcome{equal: true}, nil
	}
	m := make([]bool, len(j.vars))
	for v := range m {
		m[v] = model[v+1] // DIMACS variable v+2
	}
	return outcome{j: j, model: m}, nil
}

// rootNode is the circuit node of cn's root (for messages): a gate, an
// input node, or 0 for a constant.
func rootNode(cn *cone) int32 {
	slot := int(cn.Root >> 1)
	switch {
	case slot == 0:
		return 0
	case slot < cn.FirstGate():
		return cn.Inputs[slot-1] + 1
	}
	return cn.Gates[slot-cn.FirstGate()]
}

// simulatePair evaluates both cones on the joint variable vectors.
func simulatePair(ca, cb *cone, j *joint, vec []uint64, w int) (va, vb []uint64) {
	in := func(vars []int32) func(k int) []uint64 {
		return func(k int) []uint64 {
			if v := vars[k]; v >= 0 {
				return vec[int(v)*w : int(v+1)*w]
			}
			return nil
		}
	}
	va, vals := ca.Simulate(w, in(j.aVar), nil, nil)
	vb, _ = cb.Simulate(w, in(j.bVar), vals, nil)
	return va, vb
}

// simulate runs random simulation with A's fixed input vectors on the shared
// variables; A's value comes from its precomputed signatures when they exist
// and apply (with no does-input forced false). It returns a separating
// assignment of the joint variables, or nil.
func (c *Checker) simulate(ca, cb *cone, fa, fb grounding.Lit, j *joint, sem semantics) []bool {
	w := c.opt.SimWords
	c.a.initSim(w, c.opt.Seed)
	rng := rand.New(rand.NewPCG(c.opt.Seed, uint64(fa)<<32|uint64(fb)))
	fixed := func(i int32) []uint64 { return c.a.inVec[int(i)*w : int(i+1)*w] }
	vec := j.randomVectors(w, fixed, rng)
	var va []uint64
	if c.a.sig != nil && !slices.Contains(j.aVar, -1) {
		n := fa.Node()
		va = make([]uint64, w)
		neg := -uint64(fa & 1)
		for i := range va {
			va[i] = c.a.sig[n*w+i] ^ neg
		}
		in := func(k int) []uint64 {
			if v := j.bVar[k]; v >= 0 {
				return vec[int(v)*w : int(v+1)*w]
			}
			return nil
		}
		vb, _ := cb.Simulate(w, in, nil, nil)
		if bit := firstDiff(va, vb, 64*w); bit >= 0 {
			return assignmentAt(vec, len(j.vars), w, bit)
		}
		return nil
	}
	va, vb := simulatePair(ca, cb, j, vec, w)
	if bit := firstDiff(va, vb, 64*w); bit >= 0 {
		return assignmentAt(vec, len(j.vars), w, bit)
	}
	return nil
}

// structurallyEqual rebuilds A's cone inside B's structural-hash table, with
// A's inputs replaced by their images: if it lands on fb, the functions are
// the same circuit.
func (c *Checker) structurallyEqual(ca *cone, fa, fb grounding.Lit, j *joint, inputMap []int32) bool {
	if slices.Contains(j.aVar, -1) {
		return false
	}
	if len(ca.Gates) > 0 {
		c.b.buildStrash()
	}
	lit := make([]grounding.Lit, ca.NumSlots())
	for k, i := range ca.Inputs {
		lit[1+k] = grounding.InputLit(int(inputMap[i]))
	}
	first := 1 + len(ca.Inputs)
	var fs []grounding.Lit
	for gi := range ca.Gates {
		fs = fs[:0]
		for _, l := range ca.Fanin[ca.Start[gi]:ca.Start[gi+1]] {
			fs = append(fs, lit[l>>1]^grounding.Lit(l&1))
		}
		slices.Sort(fs)
		g, ok := c.b.findGate(fs)
		if !ok {
			return false
		}
		lit[first+gi] = g
	}
	return lit[ca.Root>>1]^grounding.Lit(ca.Root&1) == fb
}

// miter encodes "fa XOR fb" with the group constraints of j. Joint variable v
// is DIMACS variable v+2.
func miter(j *joint, ca, cb *cone, o *Options) (*cnf, error) {
	z := size{vars: 1 + int64(len(j.vars)), clauses: 3}
	z.cone(ca)
	z.cone(cb)
	for _, g := range j.groups {
		z.amo(len(g.members))
		if !g.other {
			z.clauses++
		}
	}
	if err := z.check(o); err != nil {
		return nil, err
	}
	f := newCNF()
	for range j.vars {
		f.newVar()
	}
	lit := func(vars []int32) func(k int) int {
		return func(k int) int {
			if v := vars[k]; v >= 0 {
				return int(v) + 2
			}
			return falseVar
		}
	}
	ra := f.cone(ca, lit(j.aVar))
	rb := f.cone(cb, lit(j.bVar))
	f.add(ra, rb)
	f.add(-ra, -rb)
	f.groups(j, -1, nil)
	return f, nil
}

// WriteDIMACS writes the miter of CheckFunc(kind, fa, fb, inputMap) as a
// DIMACS CNF: satisfiable exactly when the functions differ. Comment lines
// name every input variable. When the question is vacuous (a next function
// and a role without actions) the formula written is unsatisfiable. The CNF
// is the one miter the SAT stage solves without sweeping (Mode NoSweep, or
// cones under Options.SweepMinGates gates), whatever the Mode, so any
// external solver can cross-check a verdict.
func (c *Checker) WriteDIMACS(w io.Writer, kind grounding.FuncKind, fa, fb grounding.Lit, inputMap []int32) error {
	if len(inputMap) != c.a.numInputs() {
		return mappingErrorf("input map has %d entries, want %d", len(inputMap), c.a.numInputs())
	}
	sem := semanticsOf(kind)
	comments := []string{
		fmt.Sprintf("gamequiv satcheck miter: %s function, %q literal %d XOR %q literal %d (SAT = different)", kind, c.a.p.Name, fa, c.b.p.Name, fb),
	}
	if sem == oneHot && (c.a.emptyRole >= 0 || c.b.emptyRole >= 0) {
		f := newCNF()
		f.add(falseVar)
		return f.writeDIMACS(w, append(comments, "a role has no action: no joint move exists, vacuously equal"))
	}
	suppA, err := c.a.support(fa)
	if err != nil {
		return err
	}
	suppB, err := c.b.support(fb)
	if err != nil {
		return err
	}
	j, err := buildJoint(c.a, c.b, suppA, suppB, inputMap, sem)
	if err != nil {
		return err
	}
	ca, err := c.a.coneOf(fa)
	if err != nil {
		return err
	}
	cb, err := c.b.coneOf(fb)
	if err != nil {
		return err
	}
	f, err := miter(j, ca, cb, &c.opt)
	if err != nil {
		return err
	}
	comments = append(comments, "var 1 = constant false")
	for v, x := range j.vars {
		name := inputName(c.b.p, c.b, int(x.bIn))
		if x.aIn >= 0 {
			name = inputName(c.a.p, c.a, int(x.aIn)) + " = " + name
		}
		comments = append(comments, fmt.Sprintf("var %d = %s", v+2, name))
	}
	return f.writeDIMACS(w, comments)
}

// inputName renders input i of p: "(true p)" or "(does r a)".
func inputName(p *grounding.Program, s *side, i int) string {
	if i < s.nProps {
		return "(true " + p.Props[i] + ")"
	}
	r := s.role(int32(i))
	return "(does " + p.Roles[r] + " " + p.Actions[r][int32(i)-s.base[r]] + ")"
}
