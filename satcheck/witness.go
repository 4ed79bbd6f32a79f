package satcheck

import (
	"sync"

	"github.com/gamequiv/gamequiv/grounding"
)

// Witness replay: a search asks about one function of A against many
// candidate images, and the assignments that told it apart from earlier
// images are often rare ones that random simulation never draws (the few
// states where a goal holds), found by SAT at great cost. The checker keeps
// the last maxWitnesses such assignments of each function's support and
// evaluates both sides on them, through the mapping at hand, before it
// calls SAT again. A difference found there is a concrete assignment of the
// joint space, so replay can only show pairs different, never equal.
//
// Only functions read with no move made (legal, goal, terminal) keep
// witnesses: their assignments are states alone, valid under every
// mapping, where a next function's joint move would have to be re-chosen.

// maxWitnesses is the number of assignments kept per function: one word.
const maxWitnesses = 64

// maxWitnessWords bounds the memory of a checker's witnesses (one word per
// support input of each function that has some): past it, functions
// without witnesses get none.
const maxWitnessWords = 1 << 22

// witnessSet holds a function's witnesses column by column: cols[k] has
// bit l set when witness l gives the function's k-th support input true.
type witnessSet struct {
	cols []uint64
	n    int // witnesses held
	next int // lane of the next one, replacing the oldest when full
}

// witnessStore maps A's function nodes to their witnesses.
type witnessStore struct {
	mu     sync.Mutex
	byNode map[int]*witnessSet
	words  int
}

// record keeps the A side of a separating assignment m of joint j for the
// function fa with support of size nSupp.
func (w *witnessStore) record(fa grounding.Lit, nSupp int, j *joint, m []bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.byNode == nil {
		w.byNode = map[int]*witnessSet{}
	}
	ws := w.byNode[fa.Node()]
	if ws == nil {
		if w.words+nSupp > maxWitnessWords {
			return
		}
		w.words += nSupp
		ws = &witnessSet{cols: make([]uint64, nSupp)}
		w.byNode[fa.Node()] = ws
	}
	bit := uint64(1) << ws.next
	for k, v := range j.aVar {
		if v >= 0 && m[v] {
			ws.cols[k] |= bit
		} else {
			ws.cols[k] &^= bit
		}
	}
	ws.next = (ws.next + 1) % maxWitnesses
	ws.n = min(ws.n+1, maxWitnesses)
}

// vectors lays fa's witnesses out as one word per variable of j (B's
// inputs outside the image of fa's support false), or returns nil when fa
// has none.
func (w *witnessStore) vectors(fa grounding.Lit, j *joint) (vec []uint64, n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ws := w.byNode[fa.Node()]
	if ws == nil {
		return nil, 0
	}
	vec = make([]uint64, len(j.vars))
	for k, v := range j.aVar {
		if v >= 0 {
			vec[v] = ws.cols[k]
		}
	}
	return vec, ws.n
}

// replayWitnesses evaluates both cones on fa's witnesses laid out for j and
// returns a separating assignment of j's variables, or nil.
func (c *Checker) replayWitnesses(ca, cb *cone, fa grounding.Lit, j *joint, rank Rank) []bool {
	vec, n := c.witnesses.vectors(fa, j)
	if n == 0 {
		return nil
	}
	va, vb := simulatePair(ca, cb, j, vec, 1)
	if bit := j.lowestDiff(vec, va, vb, 1, n, rank); bit >= 0 {
		c.stats.witnessRefuted.Add(1)
		return assignmentAt(vec, len(j.vars), 1, bit)
	}
	return nil
}
