package main

import (
	"math"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// slowSchedWait is the wait for a processor past which the client's own
// goroutine waits are counted (a Go time slice is 10 ms).
const slowSchedWait = 0.010

// clientSched is a snapshot of how long this process waited to run: its
// goroutines for a Go processor (runtime/metrics), its threads for a CPU
// (Linux /proc/self/task/*/schedstat). A latency the client measures
// includes both, so a run reports them beside its percentiles.
type clientSched struct {
	counts   []uint64
	buckets  []float64
	runDelay time.Duration
	ok       bool // schedstat was readable
}

func readClientSched() clientSched {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	var c clientSched
	if s[0].Value.Kind() == metrics.KindFloat64Histogram {
		h := s[0].Value.Float64Histogram()
		c.counts, c.buckets = append([]uint64(nil), h.Counts...), h.Buckets
	}
	c.runDelay, c.ok = runDelay("/proc/self/task")
	return c
}

// since returns the client's Go scheduling waits between start and c:
// their 99th percentile in ms (a bucket's lower bound) and how many
// exceeded slowSchedWait; and its threads' total wait for a CPU in ms
// (-1 when unknown).
func (c clientSched) since(start clientSched) (p99Ms float64, slow uint64, runDelayMs float64) {
	runDelayMs = -1
	if c.ok && start.ok {
		runDelayMs = float64((c.runDelay - start.runDelay).Microseconds()) / 1e3
	}
	if len(c.counts) == 0 || len(start.counts) != len(c.counts) {
		return 0, 0, runDelayMs
	}
	d := make([]uint64, len(c.counts))
	var total uint64
	for i := range d {
		d[i] = c.counts[i] - start.counts[i]
		total += d[i]
		if c.buckets[i] >= slowSchedWait {
			slow += d[i]
		}
	}
	var seen uint64
	for i, n := range d {
		seen += n
		if total > 0 && seen*100 >= total*99 {
			if b := c.buckets[i]; !math.IsInf(b, 0) && b > 0 {
				p99Ms = b * 1e3
			}
			break
		}
	}
	return p99Ms, slow, runDelayMs
}

// runDelay sums the time the threads under dir (a /proc/PID/task
// directory) spent runnable waiting for a CPU: the second field of each
// thread's schedstat. Threads that ended are not counted.
func runDelay(dir string) (time.Duration, bool) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "schedstat"))
	var sum int64
	ok := false
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		ns, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		sum += ns
		ok = true
	}
	return time.Duration(sum), ok
}
