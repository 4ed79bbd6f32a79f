package satcheck

import (
	"github.com/gamequiv/gamequiv/grounding"
)

// Witness replay: the states SAT found for one pair type question of a
// function are tried on its later questions before a new SAT call. A
// pattern that SAT finds realizable usually needs a particular
// configuration of the whole state (quarto's goal: a line nearly complete
// with pieces sharing an attribute), which random samples miss for every
// pair it holds; the state found for (i, j) often shows the same pattern
// for (i, j') as well (quarto, 200 subgroup-search nodes: 56 of 68 pair
// questions were satisfiable, all on one goal, most sharing a
// proposition). Evaluating a few dozen kept states costs four cone
// evaluations of one word, against a CNF of four cone copies per question.
//
// Soundness: a pattern is marked seen only when the circuit itself shows it
// on a replayed state (i and j set by each combination, the other inputs
// as kept, actions false), exactly what simulation does; a replay that
// shows nothing leaves the question to SAT. A replayed answer is the one
// SAT would give, and it is charged to PairWork as that SAT question
// (its own four one-word evaluations are not counted: they are at most
// a 256th of the charge), so a search prunes exactly the nodes it pruned
// before, only sooner.

// maxPairWitnesses is the number of SAT states kept per function (one
// 64-bit word of simulation); the oldest is overwritten past it.
// maxWitnessFuncs bounds the functions with kept states, and
// maxPairWitnessWords the words they hold: their states and the simulators
// that replay them, one word a cone slot (past either bound the map is
// emptied, as the simulators' maps are).
const (
	maxPairWitnesses    = 64
	maxWitnessFuncs     = 256
	maxPairWitnessWords = 1 << 23
)

// pairWitnesses holds one function's kept states: bit b of in[k] is cone
// input k's value in state b.
type pairWitnesses struct {
	in    []uint64
	n     int // states kept, at most maxPairWitnesses
	next  int // the slot the next state overwrites once full
	words int // what they cost, counted in pairCache.witWords (pairWitnessWords)
	sim   *grounding.ConeSim
}

// keepWitness records the state of a satisfiable pattern question: z[k] is
// the DIMACS variable of cone input k (falseVar where fixed), model the
// solver's assignment (model[d-1] is variable d).
func (pc *pairCache) keepWitness(cn *cone, f grounding.Lit, z []int, model []bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pw := pc.wit[f]
	if pw == nil || len(pw.in) != len(cn.Inputs) {
		if pw != nil {
			delete(pc.wit, f)
			pc.witWords -= pw.words
		}
		words := pairWitnessWords(cn)
		if len(pc.wit) >= maxWitnessFuncs || pc.witWords+words > maxPairWitnessWords {
			clear(pc.wit)
			pc.witWords = 0
		}
		if pc.wit == nil {
			pc.wit = map[grounding.Lit]*pairWitnesses{}
		}
		pw = &pairWitnesses{in: make([]uint64, len(cn.Inputs)), words: words}
		pc.wit[f] = pw
		pc.witWords += words
	}
	b := pw.next
	for k, d := range z {
		v := d > falseVar && d-1 < len(model) && model[d-1]
		pw.in[k] = pw.in[k]&^(1<<b) | boolWord(v)&(1<<b)
	}
	pw.next = (b + 1) % maxPairWitnesses
	pw.n = min(pw.n+1, maxPairWitnesses)
}

// pairWitnessWords is what one function's kept states cost, counted when they
// are first kept: a word per cone input, and a word per cone slot for the
// simulator that replays them (built on the first replay).
func pairWitnessWords(cn *cone) int { return len(cn.Inputs) + cn.NumSlots() }

// replayWitness reports whether a kept state of k.f shows pattern pat of
// T_f(k.i, k.j) on side s.
func (pc *pairCache) replayWitness(s *side, cn *cone, k pairKey, pat int) bool {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pw := pc.wit[k.f]
	if pw == nil || pw.n == 0 || len(pw.in) != len(cn.Inputs) {
		return false
	}
	if pw.sim == nil {
		// Eval builds no cache in the cone (Flip would): the side's
		// cone can be shared.
		pw.sim = grounding.NewConeSim(cn, 1)
	}
	sim := pw.sim
	ki, kj := coneSlot(cn, k.i), coneSlot(cn, k.j)
	live := ^uint64(0)
	if pw.n < 64 {
		live = 1<<pw.n - 1
	}
	var out [1]uint64
	for combo := range 4 {
		for kk, in := range cn.Inputs {
			v := sim.In(kk)
			switch {
			case kk == ki:
				v[0] = -uint64(combo & 1)
			case kk == kj:
				v[0] = -uint64(combo >> 1)
			case s.isProp(in):
				v[0] = pw.in[kk]
			default:
				v[0] = 0
			}
		}
		sim.Eval(out[:])
		if pat>>combo&1 == 0 {
			out[0] = ^out[0]
		}
		live &= out[0]
		if live == 0 {
			break
		}
	}
	return live != 0
}

// boolWord is all ones for true, zero for false.
func boolWord(v bool) uint64 {
	if v {
		return ^uint64(0)
	}
	return 0
}
