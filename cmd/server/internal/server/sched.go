package server

import (
	"log/slog"
	"math"
	"runtime/metrics"

	"github.com/gamequiv/gamequiv/store"
)

// schedSlowWait is the wait for a processor past which a goroutine's
// wait counts as slow in the stop log (a Go time slice is 10 ms).
const schedSlowWait = 0.010

// schedWaits summarises how long goroutines waited, runnable, for a
// processor since the process started (runtime/metrics
// /sched/latencies:seconds): the count, the 99th percentile and the
// number above schedSlowWait. Each value is a histogram bucket's lower
// bound. It shows whether requests queued behind other goroutines.
func schedWaits() []slog.Attr {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	h := s[0].Value.Float64Histogram()
	var total, slow uint64
	for i, c := range h.Counts {
		total += c
		if h.Buckets[i] >= schedSlowWait {
			slow += c
		}
	}
	p99 := 0.0
	var seen uint64
	for i, c := range h.Counts {
		seen += c
		if seen*100 >= total*99 {
			p99 = max(h.Buckets[i], 0)
			break
		}
	}
	if math.IsInf(p99, 0) {
		p99 = 0
	}
	return []slog.Attr{
		slog.Uint64("sched_waits", total),
		slog.Float64("sched_wait_p99_ms", math.Round(p99*1e6)/1e3),
		slog.Uint64("sched_waits_over_10ms", slow),
	}
}

// poolWaits summarises how often and how long store calls queued for a
// free database connection, in the writer pool (all of PostgreSQL's) and
// in SQLite's read pool.
func poolWaits(s store.PoolStats) []slog.Attr {
	return []slog.Attr{
		slog.Int64("db_write_waits", s.Write.WaitCount),
		slog.Int64("db_write_wait_ms", s.Write.WaitDuration.Milliseconds()),
		slog.Int64("db_read_waits", s.Read.WaitCount),
		slog.Int64("db_read_wait_ms", s.Read.WaitDuration.Milliseconds()),
	}
}
