package satcheck

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
)

// Verdict is the outcome of verifying a candidate mapping.
type Verdict uint8

// Verdicts. The zero value, Unknown, means that nothing was decided.
const (
	Unknown    Verdict = iota // not decided (only seen together with an error)
	Equivalent                // the mapping is a space-consistent game equivalence
	Different                 // the mapping is not one: some mapped pair differs
)

// String returns "equivalent", "different" or "unknown".
func (v Verdict) String() string {
	switch v {
	case Equivalent:
		return "equivalent"
	case Different:
		return "different"
	}
	return "unknown"
}

// Mode selects which of the cheap stages a Checker skips. The zero Mode runs
// them all; the flags exist for tests and benchmarks that want to time or
// cross-check one stage (the SAT stage always runs when nothing else decided).
type Mode uint8

// Mode flags.
const (
	NoStructure  Mode = 1 << iota // skip the structural-hash shortcut, flattened structure and normal forms (dnf.go)
	NoSimulation                  // skip random bit-parallel simulation
	NoExhaustive                  // skip complete truth tables (small ones, and chunked ones within TableWork)
	NoCache                       // neither read nor fill the cache of decided pairs
	NoSweep                       // solve each miter whole, without SAT sweeping (sweep.go)
	NoBDD                         // skip the BDD checks of large pairs (bdd.go, sweepbdd.go), like a negative MaxBDDNodes
	NoLemmas                      // sweeps neither keep nor read the equalities earlier sweeps of the mapping proved (lemmas.go)

	// SATOnly decides every non-constant pair with a SAT call (sweeping may
	// still split it into several).
	SATOnly = NoStructure | NoSimulation | NoExhaustive | NoCache | NoBDD | NoLemmas
)

// Default option values, used for the zero fields of Options.
const (
	DefaultSimWords        = 8       // 512 random input vectors
	DefaultExhaustiveBits  = 12      // truth tables of at most 4096 rows
	DefaultMaxVars         = 1 << 20 // CNF variables per SAT call
	DefaultMaxClauses      = 1 << 21 // CNF clauses per SAT call
	DefaultMaxCacheEntries = 1 << 16 // decided function pairs remembered
	DefaultSeed            = 0x9e3779b97f4a7c15
	// DefaultSweepConflictsBeforeBDD: wargame03's large pair needs 671
	// conflicts; a pair of merrills' counts spends 4,096 in 0.2 s.
	DefaultSweepConflictsBeforeBDD = 4_096
	// DefaultSweepProofConflicts: two partial counts of queens' attacked
	// queens taken in different orders (a 6x6 board: 928 gates, 72
	// inputs) ran gophersat 96 s, MiniSat and CaDiCaL 20-100 s, without
	// an answer; racer's longest internal proof that finishes needs
	// 22,743 conflicts.
	DefaultSweepProofConflicts = 8_192
)

// maxCacheBytes bounds the keys of a Checker's cache of decided pairs
// (MaxCacheEntries bounds their number): past it the cache is emptied.
const maxCacheBytes = 1 << 28

// maxExhaustiveBits caps Options.ExhaustiveBits (a 2^20-row table is 128 KiB per node).
const maxExhaustiveBits = 20

// maxSignatureWords caps the precomputed simulation signatures of a Checker
// (nodes × SimWords); larger circuits are simulated cone by cone instead.
const maxSignatureWords = 1 << 22

// Options tune a Checker. The zero value is the documented default of every field.
type Options struct {
	// Mode skips stages; zero runs them all.
	Mode Mode
	// SimWords is the number of 64-bit words of random simulation per check
	// (64 input vectors each). Zero means DefaultSimWords; negative disables
	// simulation like NoSimulation.
	SimWords int
	// ExhaustiveBits: a pair whose joint input space has at most
	// 2^ExhaustiveBits rows (one-hot move choices count as one digit per role)
	// is decided by complete truth tables, without SAT. Zero means
	// DefaultExhaustiveBits; values above 20 are treated as 20.
	ExhaustiveBits int
	// MaxVars and MaxClauses bound each CNF handed to the SAT solver; a larger
	// miter fails with a *LimitError. Zero means DefaultMaxVars/DefaultMaxClauses.
	MaxVars    int
	MaxClauses int
	// MaxConcurrentSolves bounds the SAT solves of one Checker that run at
	// the same time. Zero means GOMAXPROCS.
	MaxConcurrentSolves int
	// MaxCacheEntries bounds the cache of decided pairs; when it is full the
	// cache is emptied. Zero means DefaultMaxCacheEntries.
	MaxCacheEntries int
	// Seed seeds the random simulation; zero means DefaultSeed. The same seed
	// gives the same counterexamples.
	Seed uint64
	// SweepMinGates: a miter over at least this many gates (both cones
	// together) is decided by SAT sweeping (sweep.go) instead of one SAT
	// call. Zero means DefaultSweepMinGates; Mode NoSweep turns sweeping off.
	SweepMinGates int
	// SweepWindow bounds the gates encoded when sweeping proves one pair of
	// internal nodes; when the window cannot decide, the pair's whole cone is
	// encoded. Zero means DefaultSweepWindow; negative encodes whole cones.
	SweepWindow int
	// TableWork: a pair of cones that reaches the SAT stage with at least
	// SweepMinGates gates together is decided instead by a complete truth
	// table simulated a chunk of rows at a time (table.go) when the fanins
	// of both cones times the table's 64-row words are at most TableWork.
	// Zero means DefaultTableWork; negative disables.
	TableWork int64
	// MaxBDDNodes: a pair of cones that reaches the SAT stage with at
	// least SweepMinGates gates together, and that sweeping does not
	// decide within SweepConflictsBeforeBDD, is compared as BDDs (bdd.go)
	// of at most this many nodes (and 1,024 a gate plus 2^16); past the
	// bound SAT decides. Zero means DefaultMaxBDDNodes; negative
	// disables.
	MaxBDDNodes int
	// SweepConflictsBeforeBDD: before the BDDs of a pair are built, SAT
	// sweeping may try the pair with this many conflicts in all; the BDDs
	// and then unbounded sweeping take the pairs it leaves. Zero means
	// DefaultSweepConflictsBeforeBDD; negative goes to BDDs at once.
	SweepConflictsBeforeBDD int
	// SweepProofConflicts bounds the conflicts of one SAT proof of an
	// internal pair of a sweep (never the final miter of the roots): past
	// it the two nodes stay apart, which is sound, since merging is only
	// an optimization. Zero means DefaultSweepProofConflicts; negative
	// means no bound.
	SweepProofConflicts int
	// BoundedEffort, when positive, bounds every check that reaches the
	// SAT stage: sweeping within SweepConflictsBeforeBDD conflicts and
	// BoundedEffort proofs, then BDDs of at most boundedBDDNodes nodes;
	// a pair they leave undecided fails with a *LimitError (What
	// "BoundedEffort") instead of going to unbounded sweeping. A search
	// tries its candidates so first, and spends unbounded effort only when
	// none verifies cheaply: of the mappings that differ by a symmetry of
	// the game, one may be proven equal structurally where another makes
	// SAT compare counts taken in two orders (othelloHoles against a
	// renamed copy of itself). Zero means no bound.
	BoundedEffort int
	// Progress, if set, is told how Verify advances: proven of total pairs
	// of reasoning functions. It must be quick; it changes no result.
	Progress func(proven, total int)
}

func (o Options) withDefaults() Options {
	if o.SimWords == 0 {
		o.SimWords = DefaultSimWords
	}
	if o.SimWords < 0 {
		o.SimWords = 0
		o.Mode |= NoSimulation
	}
	if o.ExhaustiveBits == 0 {
		o.ExhaustiveBits = DefaultExhaustiveBits
	}
	o.ExhaustiveBits = min(max(o.ExhaustiveBits, 0), maxExhaustiveBits)
	if o.MaxVars <= 0 {
		o.MaxVars = DefaultMaxVars
	}
	if o.MaxClauses <= 0 {
		o.MaxClauses = DefaultMaxClauses
	}
	if o.MaxConcurrentSolves <= 0 {
		o.MaxConcurrentSolves = runtime.GOMAXPROCS(0)
	}
	if o.SweepMinGates <= 0 {
		o.SweepMinGates = DefaultSweepMinGates
	}
	if o.SweepWindow == 0 {
		o.SweepWindow = DefaultSweepWindow
	}
	if o.SweepWindow < 0 {
		o.SweepWindow = 0
	}
	if o.TableWork == 0 {
		o.TableWork = DefaultTableWork
	}
	if o.MaxBDDNodes == 0 {
		o.MaxBDDNodes = DefaultMaxBDDNodes
	}
	if o.MaxBDDNodes < 0 {
		o.Mode |= NoBDD
	}
	if o.SweepConflictsBeforeBDD == 0 {
		o.SweepConflictsBeforeBDD = DefaultSweepConflictsBeforeBDD
	}
	if o.SweepProofConflicts == 0 {
		o.SweepProofConflicts = DefaultSweepProofConflicts
	}
	if o.MaxCacheEntries <= 0 {
		o.MaxCacheEntries = DefaultMaxCacheEntries
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	return o
}

// Stats counts how pairs of functions were decided.
type Stats struct {
	Checks      int64 // function pairs asked about
	Vacuous     int64 // next pairs equal because some role has no action (no joint move exists)
	Structural  int64 // pairs equal because their cones are identical under the mapping
	CacheHits   int64 // pairs answered from the cache
	Exhaustive  int64 // pairs decided by complete truth tables
	Tables      int64 // of those, pairs decided by chunked tables (TableWork) instead of SAT
	Simulations int64 // random-simulation runs
	SimRefuted  int64 // pairs shown different by random simulation
	// WitnessRefuted counts pairs shown different by replaying assignments
	// that separated the same function of A from earlier images.
	WitnessRefuted int64
	SATCalls       int64 // SAT solves started
	SATUnsat       int64 // solves that proved a pair equal
	Abandoned      int64 // solves interrupted by a cancellation (no answer; they stop at once)
	SweepMerged    int64 // internal node pairs proven equal and merged by SAT sweeping
	LemmaMerged    int64 // sweep nodes merged, without a proof, by what an earlier sweep of the mapping proved
	BDDs           int64 // pairs decided by BDDs (Options.MaxBDDNodes) instead of SAT
	BDDOverBound   int64 // pairs whose BDDs reached the node bound, then decided by SAT
	BDDCollections int64 // times the kept BDDs left a pair too little room and nodes were freed (grounding.BDD.Collect)
	// BDDRepeats counts pairs whose BDDs were not built again: they had
	// reached the bound before with no smaller budget (counted in
	// BDDOverBound too).
	BDDRepeats int64
	// SweepOverBudget counts pairs that sweeping did not decide within
	// SweepConflictsBeforeBDD conflicts, so BDDs were tried.
	SweepOverBudget int64
	// CutRefuted counts sweep candidate pairs separated by a proof
	// window's model extended to whole inputs (no whole-cone solve).
	CutRefuted int64
	// SweepProofCapped counts internal sweep proofs stopped at
	// Options.SweepProofConflicts (the two nodes stayed apart).
	SweepProofCapped int64
	// CutBDD counts pairs proven equal by BDDs over the nodes both cones
	// share, taken as free variables (sweepbdd.go).
	CutBDD int64
	// BoundedOut counts pairs left undecided under Options.BoundedEffort.
	BoundedOut int64
	// PairChecks counts the pair types compared (PairsDiffer), PairSAT the
	// SAT questions they asked, PairRefuted the pairs shown different,
	// PairReplayed the questions answered by a kept SAT state instead
	// (pairwitness.go).
	PairChecks, PairSAT, PairRefuted, PairReplayed int64
	// NormalForms counts pairs proven equal by their disjunctive normal
	// forms (dnf.go), DNFFailed those the forms did not prove.
	NormalForms, DNFFailed int64
	// BDDComposed counts the BDD checks whose image (B's function) was
	// built in B's own order and composed into the joint one (bdd.go's
	// composedRoot), instead of built over the joint order.
	BDDComposed int64
}

// counters is the concurrent form of Stats.
type counters struct {
	checks, vacuous, structural, cacheHits, exhaustive, tables, simulations, simRefuted, witnessRefuted          atomic.Int64
	satCalls, satUnsat, abandoned, sweepMerged, lemmaMerged, bdds, bddOverBound, bddCollections, sweepOverBudget atomic.Int64
	pairChecks, pairSAT, pairRefuted, pairReplayed, cutRefuted, cutBDD, sweepProofCapped, boundedOut, bddRepeats atomic.Int64
	normalForms, dnfFailed, bddComposed                                                                          atomic.Int64
}

func (c *counters) snapshot() Stats {
	return Stats{
		Checks:           c.checks.Load(),
		Vacuous:          c.vacuous.Load(),
		Structural:       c.structural.Load(),
		CacheHits:        c.cacheHits.Load(),
		Exhaustive:       c.exhaustive.Load(),
		Tables:           c.tables.Load(),
		Simulations:      c.simulations.Load(),
		SimRefuted:       c.simRefuted.Load(),
		WitnessRefuted:   c.witnessRefuted.Load(),
		SATCalls:         c.satCalls.Load(),
		SATUnsat:         c.satUnsat.Load(),
		Abandoned:        c.abandoned.Load(),
		SweepMerged:      c.sweepMerged.Load(),
		LemmaMerged:      c.lemmaMerged.Load(),
		BDDs:             c.bdds.Load(),
		BoundedOut:       c.boundedOut.Load(),
		BDDOverBound:     c.bddOverBound.Load(),
		BDDCollections:   c.bddCollections.Load(),
		BDDRepeats:       c.bddRepeats.Load(),
		SweepOverBudget:  c.sweepOverBudget.Load(),
		PairChecks:       c.pairChecks.Load(),
		PairSAT:          c.pairSAT.Load(),
		PairReplayed:     c.pairReplayed.Load(),
		PairRefuted:      c.pairRefuted.Load(),
		CutRefuted:       c.cutRefuted.Load(),
		CutBDD:           c.cutBDD.Load(),
		SweepProofCapped: c.sweepProofCapped.Load(),
		NormalForms:      c.normalForms.Load(),
		DNFFailed:        c.dnfFailed.Load(),
		BDDComposed:      c.bddComposed.Load(),
	}
}

// ErrLimit is matched (errors.Is) by every *LimitError.
var ErrLimit = errors.New("satcheck: limit exceeded")

// LimitError reports that a miter was too large for the configured limits.
type LimitError struct {
	What  string // the limit's name, as in Options ("MaxClauses", "MaxVars")
	Limit int64  // its configured value
	Got   int64  // the size the miter would have had
}

// Error describes the exceeded limit.
func (e *LimitError) Error() string {
	return fmt.Sprintf("limit %s=%d exceeded (reached %d)", e.What, e.Limit, e.Got)
}

// Is makes errors.Is(err, ErrLimit) true.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// ErrInvalidMapping is matched (errors.Is) by every *MappingError.
var ErrInvalidMapping = errors.New("satcheck: invalid mapping")

// MappingError reports a mapping that cannot be a bijection between the
// inputs of two programs (wrong length, out of range, two inputs with the
// same image, a proposition mapped to an action, roles mixed up). It is a
// caller bug, unlike a mapping that is well formed but not an equivalence,
// which Verify reports as the verdict Different.
type MappingError struct {
	Msg string
}

// Error describes what is wrong with the mapping.
func (e *MappingError) Error() string { return "invalid mapping: " + e.Msg }

// Is makes errors.Is(err, ErrInvalidMapping) true.
func (e *MappingError) Is(target error) bool { return target == ErrInvalidMapping }

func mappingErrorf(format string, args ...any) error {
	return &MappingError{Msg: fmt.Sprintf(format, args...)}
}

// ErrMalformed is wrapped by the errors about programs that break the
// invariants documented on grounding.Program and grounding.Circuit.
var ErrMalformed = errors.New("satcheck: malformed program")

func malformedf(p string, format string, args ...any) error {
	return fmt.Errorf("%w %q: %s", ErrMalformed, p, fmt.Sprintf(format, args...))
}
