package classes

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"runtime/metrics"
	"time"
)

// DefaultHeapEvery is how often the heap bound (Classifier.MaxHeap) is
// checked.
const DefaultHeapEvery = 100 * time.Millisecond

// heapGCEvery: the watchdog and the admission wait collect the heap
// themselves at most this often, to learn how much of it is live when the
// collector has not looked for a while.
const heapGCEvery = time.Second

// errHeapBound is the cause of the placements the heap bound stops.
var errHeapBound = errors.New("the classifier's heap bound was passed")

// heapStats reads the bytes of the heap's objects (garbage included) and
// of the heap that was live at the end of the last collection.
func heapStats() (objects, live uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// liveHeap is the live heap as the last collection saw it; when that is
// over bound, or the heap's objects are over twice bound, it collects
// first (at most every heapGCEvery, tracked in *last) so that the answer
// is not stale.
func liveHeap(bound uint64, last *time.Time) uint64 {
	objects, live := heapStats()
	if (live > bound || objects > 2*bound) && time.Since(*last) >= heapGCEvery {
		*last = time.Now()
		runtime.GC()
		_, live = heapStats()
	}
	return live
}

// watchHeap keeps the process's live heap at or under c.MaxHeap for the
// classifier's sake: the analyses and comparisons it runs in the server's
// process are bounded by counts and time, not bytes (an amazonsSuicide
// upload took the server to about 500 MiB). Past the bound it first
// collects the garbage, then drops the prepared representatives (they are
// prepared again on demand), and only then stops the placements in
// progress. A stopped game is placed again alone (admit), and only a
// game stopped while placed alone, from a heap under half the bound,
// counts an attempt (Classifier.MaxAttempts): a game is never marked
// because another placement, or the rest of the server, took the heap.
func (c *Classifier) watchHeap(ctx context.Context) {
	tick := time.NewTicker(c.HeapEvery)
	defer tick.Stop()
	bound := uint64(c.MaxHeap)
	var lastGC time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if liveHeap(bound, &lastGC) <= bound {
			continue
		}
		if n := c.reps.clear(); n > 0 {
			lastGC = time.Now()
			runtime.GC()
			if _, live := heapStats(); live <= bound {
				c.Log.Info("classifier heap bound: dropped the prepared representatives",
					slog.Int("representatives", n), slog.Uint64("heap_bytes", live), slog.Int64("bound_bytes", c.MaxHeap))
				continue
			}
		}
		if n := c.stopPlacements(errHeapBound); n > 0 {
			_, live := heapStats()
			c.Log.Warn("classifier heap bound: stopped the placements in progress",
				slog.Int("placements", n), slog.Uint64("heap_bytes", live), slog.Int64("bound_bytes", c.MaxHeap))
		}
	}
}

// admit waits until a placement of game may start: while the heap is
// over the bound none starts (it is not this game's), and a game stopped
// at the bound before (a suspect) runs alone. It returns the function that
// ends the placement, whether it runs alone, and the heap when it began.
func (c *Classifier) admit(ctx context.Context, game int64) (done func(), alone bool, base uint64, err error) {
	if c.MaxHeap <= 0 {
		return func() {}, false, 0, nil
	}
	if err := c.waitHeap(ctx); err != nil {
		return nil, false, 0, err
	}
	c.mu.Lock()
	alone = c.suspects[game]
	c.mu.Unlock()
	if !alone {
		c.solo.RLock()
		return c.solo.RUnlock, false, 0, nil
	}
	c.solo.Lock()
	runtime.GC()
	_, base = heapStats()
	return c.solo.Unlock, true, base, nil
}

// waitHeap returns once the live heap is at or under the bound, or when
// ctx is done.
func (c *Classifier) waitHeap(ctx context.Context) error {
	var lastGC time.Time
	for liveHeap(uint64(c.MaxHeap), &lastGC) > uint64(c.MaxHeap) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.HeapEvery):
		}
	}
	return nil
}

// stopPlacements cancels every placement in progress with cause and
// returns how many there were.
func (c *Classifier) stopPlacements(cause error) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, stop := range c.busy {
		if stop != nil {
			stop(cause)
			n++
		}
	}
	return n
}
