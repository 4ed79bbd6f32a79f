package server

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// renice sets the nice value of every thread of the process. Linux keeps
// it per thread and a new thread inherits its creator's, so once every
// thread has it, the threads the runtime starts later have it too; the
// loop ends when a pass finds no thread it had not seen.
func renice(nice int) error {
	done := make(map[int]bool)
	for {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return fmt.Errorf("renice: %w", err)
		}
		fresh := false
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil || done[tid] {
				continue
			}
			if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice); err != nil {
				// A thread that ended between the listing and now.
				if _, serr := os.Stat("/proc/self/task/" + t.Name()); serr != nil {
					continue
				}
				return fmt.Errorf("renice thread %d: %w", tid, err)
			}
			done[tid], fresh = true, true
		}
		if !fresh {
			return nil
		}
	}
}
