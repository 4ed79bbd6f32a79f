//go:build unix && !linux

package server

import (
	"fmt"
	"syscall"
)

// renice lowers the priority of the process (all its threads, outside
// Linux) by inc nice steps, at most to MaxWorkerNice.
func renice(inc int) error {
	cur, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		return fmt.Errorf("renice: %w", err)
	}
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, 0, min(cur+inc, MaxWorkerNice)); err != nil {
		return fmt.Errorf("renice: %w", err)
	}
	return nil
}
