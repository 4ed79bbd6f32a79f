//go:build linux

package main

import (
	"os/exec"
	"syscall"
	"time"
	"unsafe"
)

// cpuClock is the name of the clock that processTime reads.
const cpuClock = "process CPU time (CLOCK_PROCESS_CPUTIME_ID)"

// processTime returns the CPU time of the whole process (all threads, the
// garbage collector's included) with nanosecond resolution. On shared,
// noisy cores it is much steadier than wall time, and it is what bliss and
// dreadnaut report for themselves.
func processTime() time.Duration {
	const clockProcessCPUTimeID = 2
	var ts syscall.Timespec
	_, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		panic("clock_gettime(CLOCK_PROCESS_CPUTIME_ID): " + errno.Error())
	}
	return time.Duration(ts.Nano())
}

// dieWithParent makes the child process get SIGKILL when this process dies,
// so that an interrupted benchmark leaves no grounding or tool behind.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
