package main

import (
	"flag"
	"os"
	"runtime/debug"
)

// defaultMemoryLimit is the soft memory limit of a gamequiv process that
// grounds or compares games, unless GOMEMLIMIT is set: issue 12's 2 GiB
// budget, less room for what the Go heap does not count (stacks, the
// runtime's own structures). Near it the collector runs as often as it
// must; when the live heap alone is larger the collector takes at most
// about half the CPU, so work slows rather than fails. amazons against its
// mutant (live heap at most about 1.8 GB), quiet machine: peak RSS 2,610
// MiB at Go's default GOGC, 1,808 MiB with this limit, for about 8 more
// CPU seconds of 190 (BENCHMARKS.md, session 19).
const defaultMemoryLimit = 1800 << 20

// memoryLimitFlag registers -memory-limit on fs; parseFlags applies it.
func memoryLimitFlag(fs *flag.FlagSet) {
	def := int64(defaultMemoryLimit)
	if os.Getenv("GOMEMLIMIT") != "" {
		def = 0 // the runtime already has the one the environment gives
	}
	fs.Int64Var(new(int64), "memory-limit", def,
		"soft limit on the process's memory in bytes: the garbage collector runs more often near it (0: Go's default, or GOMEMLIMIT; without GOMEMLIMIT the default is 1800 MiB)")
}

// applyMemoryLimit sets the soft memory limit that fs's -memory-limit
// holds, if fs has the flag and it is positive.
func applyMemoryLimit(fs *flag.FlagSet) {
	f := fs.Lookup("memory-limit")
	if f == nil {
		return
	}
	if n := f.Value.(flag.Getter).Get().(int64); n > 0 {
		debug.SetMemoryLimit(n)
	}
}
