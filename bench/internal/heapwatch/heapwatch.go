// Package heapwatch writes heap profiles near a program's peak live heap,
// for the benchmark commands (bench/graphphase, bench/cmpprof): a profile
// written when the program ends shows the garbage left, not what was live
// at the peak.
package heapwatch

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

// heapStep is how much the live heap must grow past the last profile's
// before Watch writes another: profiles cost a stop of the world each.
const heapStep = 1.10

// Watch samples the live heap every second and rewrites path with a
// heap profile whenever it is heapStep above the last one written. The
// returned function stops the sampling.
func Watch(path string) func() {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var last uint64
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if float64(ms.HeapAlloc) < float64(last)*heapStep {
				continue
			}
			last = ms.HeapAlloc
			if err := writeHeap(path); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return
			}
			fmt.Fprintf(os.Stderr, "heap profile at %d MiB live (%d MiB from the OS)\n", ms.HeapAlloc>>20, ms.Sys>>20)
		}
	}()
	return func() { close(done); <-finished }
}

func writeHeap(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("heap profile: %w", err)
	}
	return f.Close()
}
