//go:build !linux

package main

import (
	"os/exec"
	"time"
)

// cpuClock is the name of the clock that processTime reads.
const cpuClock = "wall time (no process CPU clock on this system)"

var epoch = time.Now()

// processTime falls back to wall time where there is no process CPU clock.
func processTime() time.Duration { return time.Since(epoch) }

// dieWithParent does nothing where there is no parent-death signal.
func dieWithParent(*exec.Cmd) {}
