package classes

import (
	"context"
	"sync"

	"github.com/gamequiv/gamequiv/equiv"
)

// repCache keeps the prepared form of up to cap class representatives,
// least recently used out first, so that a representative is grounded
// (and its graph built) once, not once per comparison. Concurrent misses
// of one representative prepare it once.
type repCache struct {
	cap  int
	load func(ctx context.Context, id int64) (*equiv.Prepared, error)

	mu      sync.Mutex
	entries map[int64]*repEntry
	tick    int64
}

type repEntry struct {
	mu   sync.Mutex // held while loading
	prep *equiv.Prepared
	used int64
}

// get returns the prepared representative, loading it on a miss.
func (r *repCache) get(ctx context.Context, id int64) (*equiv.Prepared, error) {
	r.mu.Lock()
	e := r.entries[id]
	if e == nil {
		e = &repEntry{}
		r.entries[id] = e
		r.evict()
	}
	r.tick++
	e.used = r.tick
	r.mu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	if e.prep != nil {
		return e.prep, nil
	}
	p, err := r.load(ctx, id)
	if err != nil {
		return nil, err
	}
	e.prep = p
	return p, nil
}

// put keeps p as the prepared form of representative id.
func (r *repCache) put(id int64, p *equiv.Prepared) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tick++
	r.entries[id] = &repEntry{prep: p, used: r.tick}
	r.evict()
}

// clear drops every prepared representative and returns how many there
// were; they are prepared again when asked for.
func (r *repCache) clear() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.entries {
		if e.mu.TryLock() { // one being loaded is in use
			if e.prep != nil {
				n++
			}
			e.prep = nil
			e.mu.Unlock()
		}
	}
	clear(r.entries)
	return n
}

// evict drops least recently used entries beyond cap; r.mu is held.
func (r *repCache) evict() {
	for len(r.entries) > r.cap {
		var old int64
		first := true
		for id, e := range r.entries {
			if first || e.used < r.entries[old].used {
				old, first = id, false
			}
		}
		delete(r.entries, old)
	}
}
