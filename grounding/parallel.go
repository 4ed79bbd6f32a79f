package grounding

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
)

// Parallel domain rounds. In a semi-naive round every (rule, delta literal)
// join reads only the facts below the round's bounds (engine.lo, hi), so
// the joins of a round can run at once on a frozen fact store: each worker
// engine (frozen) reads facts, indexes and terms and writes none of them.
// The round's new facts are then added in the sequential order, job by
// job, so fact ids, term ids and everything built from them are the same
// whatever the scheduling and the same as with one worker.
//
// A worker's result is the set of head tuples its join derives. The
// sequential join of the same plan derives the same new facts in the same
// order: it differs only where headDone cuts a branch whose head atom an
// earlier job of the round added, and such a branch derives only that atom.
// A job is run again sequentially at the merge (accept says false) where
// the sequential join could have done something else: its plan was new or
// stale, its head is a watched demand relation (measureProduct), it might
// have reached MaxAtoms (or productSize's count of it), or the worker
// stopped (a new term to intern, a limit, the Timeout).

// maxDomainWorkers bounds the goroutines of a parallel domain round; fewer
// run when GOMAXPROCS is lower.
const maxDomainWorkers = 4

// minParallelFacts is the delta facts of a round below which its joins run
// one after another: a few goroutines per round cost more than small joins.
const minParallelFacts = 64

// errFrozenTerm stops a worker whose join needs a term that does not exist
// yet (interning it would make term ids depend on the scheduling).
var errFrozenTerm = errors.New("grounding: parallel join needs a new term")

// domainWorkers is the default number of workers: one per CPU, at most
// maxDomainWorkers.
func domainWorkers() int { return min(runtime.GOMAXPROCS(0), maxDomainWorkers) }

// roundJob is one join of a semi-naive round.
type roundJob struct {
	key  [2]int // rule, delta literal
	p    *plan  // the plan a worker ran, nil if none did
	res  *joined
	work int64
	err  error
}

// runAhead runs the round's joins whose plans exist and are fresh on
// e.workers goroutines against the frozen facts; accept then takes their
// results in order.
func (e *engine) runAhead(jobs []roundJob, plans map[[2]int]*plan) {
	if e.workers < 2 || len(jobs) < 2 {
		return
	}
	delta := int64(0)
	for i := range e.lo {
		delta += int64(e.hi[i] - e.lo[i])
	}
	if delta < e.minParallel {
		return
	}
	var todo []int
	for i := range jobs {
		p, ok := plans[jobs[i].key]
		if !ok || e.stale(p) {
			continue
		}
		jobs[i].p = p
		todo = append(todo, i)
		// Indexes are brought up to date here, so that workers only read them.
		for k := range p.steps {
			if ix := p.steps[k].ix; ix != nil {
				ix.update(e.ts, e.facts[p.steps[k].rel])
			}
		}
	}
	if len(todo) < 2 {
		for _, i := range todo {
			jobs[i].p = nil
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var panicked atomic.Value // a worker's panic, raised again on the caller's goroutine
	work := func() {
		defer wg.Done()
		defer func() {
			if v := recover(); v != nil {
				panicked.CompareAndSwap(nil, v)
				next.Store(int64(len(todo)))
			}
		}()
		w := *e
		w.frozen, w.tuple, w.key = true, nil, nil
		w.measureAt, w.stopped, w.outgrown = nil, nil, nil
		for {
			k := int(next.Add(1) - 1)
			if k >= len(todo) {
				return
			}
			j := &jobs[todo[k]]
			w.err, w.work = nil, 0
			j.res = w.join(j.p, nil, nil)
			j.work, j.err = w.work, w.err
		}
	}
	n := min(e.workers, len(todo))
	wg.Add(n)
	for range n - 1 {
		go work()
	}
	work()
	wg.Wait()
	if v := panicked.Load(); v != nil {
		panic(v)
	}
	// The round's span on n idle cores, at least its longest job.
	var sum, longest int64
	for _, i := range todo {
		sum += jobs[i].work
		longest = max(longest, jobs[i].work)
	}
	e.parSpan += max(longest, sum/int64(n))
}

// accept returns job j's worker result where it stands for the sequential
// join of plan p at this point of the merge (see above), after doing what
// that join does before it enumerates (domainPrologue, on the real state);
// ok is false where the job must run again. It adds the worker's work to
// e's.
func (e *engine) accept(j *roundJob, p *plan) (tuples [][]int32, ok bool) {
	if j.p == nil {
		return nil, false
	}
	if j.p != p || j.err != nil || e.atoms+int64(len(j.res.tuples)) > e.lim.MaxAtoms {
		e.parRedone++
		return nil, false
	}
	e.work += j.work
	e.parWork += j.work
	e.parAccepted++
	if !e.domainPrologue(p) {
		return nil, true
	}
	return j.res.tuples, true
}

// Circuit plans made ahead. The circuit phase's joins need one plan per
// rule (makePlan in circuit mode), which reads only the final facts: a
// planner goroutine makes them in the order the circuit phase asks for
// them, on its own engine with its own indexes (built in full when made,
// then only read, by the planner and by the joins of its plans) and its own
// view of the terms (the circuit phase may intern terms; the planner reads
// only terms that existed before). A plan depends only on the facts, so it
// is the plan the circuit phase would have made itself.

// planAhead starts making circuit plans for rules, in order; the plan of
// rules[i] is then read with get(i), which waits for it.
func (e *engine) planAhead(rules []*nrule) (get func(i int) *plan, stop func()) {
	plans := make([]*plan, len(rules))
	ready := make([]chan struct{}, len(rules))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	w := *e
	ts := *e.ts
	w.ts, w.key, w.tuple = &ts, nil, nil
	w.ownIndexes = map[*factSet]map[string]*index{}
	noDelta := func(int32) bool { return false }
	var quit atomic.Bool
	var panicked any // the planner's panic, raised again by get
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if v := recover(); v != nil {
				panicked = v
			}
		}()
		for i, r := range rules {
			if quit.Load() {
				return
			}
			plans[i] = w.makePlan(r, -1, noDelta, true)
			close(ready[i])
		}
	}()
	get = func(i int) *plan {
		select {
		case <-ready[i]:
			return plans[i]
		case <-done:
			if panicked != nil {
				panic(panicked)
			}
			<-ready[i] // done after making plan i
			return plans[i]
		}
	}
	stop = func() {
		quit.Store(true)
		<-done
	}
	return get, stop
}
