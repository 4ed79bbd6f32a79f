package main

import (
	"math"
	"os"
	"testing"
	"time"
)

var sinceTests = []struct {
	name        string
	start, end  []uint64
	wantP99Ms   float64
	wantSlow    uint64
	wantDelayMs float64
}{
	// Buckets: [-inf,0.001) [0.001,0.01) [0.01,0.1) [0.1,+inf).
	{"Fast", []uint64{5, 0, 0, 0}, []uint64{105, 0, 0, 0}, 0, 0, 30},
	{"TailOverTenMs", []uint64{0, 0, 0, 0}, []uint64{90, 8, 2, 0}, 10, 2, 30},
	{"OnlyDelta", []uint64{0, 0, 50, 0}, []uint64{100, 0, 50, 0}, 0, 0, 30},
	{"Slowest", []uint64{0, 0, 0, 0}, []uint64{0, 0, 0, 1}, 100, 1, 30},
}

func TestClientSchedSince(t *testing.T) {
	buckets := []float64{math.Inf(-1), 0.001, 0.01, 0.1, math.Inf(1)}
	for _, tc := range sinceTests {
		t.Run(tc.name, func(t *testing.T) {
			start := clientSched{counts: tc.start, buckets: buckets, runDelay: 10 * time.Millisecond, ok: true}
			end := clientSched{counts: tc.end, buckets: buckets, runDelay: 40 * time.Millisecond, ok: true}
			p99, slow, delay := end.since(start)
			if math.Abs(p99-tc.wantP99Ms) > 1e-9 || slow != tc.wantSlow || delay != tc.wantDelayMs {
				t.Errorf("since = %g ms, %d slow, %g ms delay; want %g, %d, %g", p99, slow, delay, tc.wantP99Ms, tc.wantSlow, tc.wantDelayMs)
			}
		})
	}
}

func TestRunDelay(t *testing.T) {
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("no /proc:", err)
	}
	if _, ok := runDelay("/proc/self/task"); !ok {
		t.Errorf("runDelay(/proc/self/task) found no schedstat")
	}
	if d, ok := runDelay(t.TempDir()); ok || d != 0 {
		t.Errorf("runDelay(empty dir) = %v, %v; want 0, false", d, ok)
	}
}

func TestCountOver(t *testing.T) {
	ds := []time.Duration{time.Millisecond, 20 * time.Millisecond, 21 * time.Millisecond, time.Second}
	if got, want := countOver(ds, 20*time.Millisecond), 2; got != want {
		t.Errorf("countOver(%v, 20ms) = %d, want %d", ds, got, want)
	}
}
