//go:build unix && !linux

package server

import (
	"fmt"
	"syscall"
)

// renice sets the nice value of the process (all its threads, outside
// Linux).
func renice(nice int) error {
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, 0, nice); err != nil {
		return fmt.Errorf("renice: %w", err)
	}
	return nil
}
