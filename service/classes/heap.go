package classes

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// DefaultHeapEvery is how often the heap bound (Classifier.MaxHeap) is
// checked.
const DefaultHeapEvery = 100 * time.Millisecond

// heapGCEvery: past the bound the heap is collected to tell garbage from
// live data at most this often, so that a heap the collector's target
// keeps above the bound costs one collection a second, not ten.
const heapGCEvery = time.Second

// errHeapBound is the cause of the placements the heap bound stops.
var errHeapBound = errors.New("the classifier's heap bound was passed")

// heapObjects reads the bytes of the heap's objects, garbage included.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// watchHeap keeps the process's live heap at or under c.MaxHeap for the
// classifier's sake: the analyses and comparisons it runs in the server's
// process are bounded by counts and time, not bytes (an amazonsSuicide
// upload took the server to about 500 MiB). Past the bound it first
// collects the garbage, then drops the prepared representatives (they are
// prepared again on demand), and only then stops the placements in
// progress: each counts an attempt (Classifier.MaxAttempts), so a game
// whose placement alone passes the bound ends marked with the reason,
// while a small game stopped beside it is placed on its next attempt.
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
		if heapObjects() <= bound || time.Since(lastGC) < heapGCEvery {
			continue
		}
		lastGC = time.Now()
		runtime.GC()
		if heapObjects() <= bound {
			continue
		}
		if n := c.reps.clear(); n > 0 {
			runtime.GC()
			if live := heapObjects(); live <= bound {
				c.Log.Info("classifier heap bound: dropped the prepared representatives",
					slog.Int("representatives", n), slog.Uint64("heap_bytes", live), slog.Int64("bound_bytes", c.MaxHeap))
				continue
			}
		}
		live := heapObjects()
		n := c.stopPlacements(errHeapBound)
		c.Log.Warn("classifier heap bound: stopped the placements in progress",
			slog.Int("placements", n), slog.Uint64("heap_bytes", live), slog.Int64("bound_bytes", c.MaxHeap))
		debug.FreeOSMemory() // once they return; the next look waits heapGCEvery
	}
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
