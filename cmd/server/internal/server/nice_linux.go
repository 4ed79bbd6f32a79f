package server

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// renice lowers the priority of every thread of the process by inc nice
// steps from the process's nice value (at most to MaxWorkerNice), so a
// child of a server run under nice stays below it. Linux keeps the nice
// value per thread and a new thread inherits its creator's, so once
// every thread has it, the threads the runtime starts later have it too;
// the loop ends when a pass finds no thread it had not seen.
func renice(inc int) error {
	base, err := threadNice("/proc/self/stat")
	if err != nil {
		return fmt.Errorf("renice: %w", err)
	}
	nice := min(base+inc, MaxWorkerNice)
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
				return fmt.Errorf("renice thread %d to %d: %w", tid, nice, err)
			}
			done[tid], fresh = true, true
		}
		if !fresh {
			return nil
		}
	}
}

// threadNice reads the nice value (field 19) of a /proc stat file.
func threadNice(path string) (int, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	// The fields count from the end of the command, which is in
	// parentheses and may hold spaces.
	f := bytes.Fields(raw[bytes.LastIndexByte(raw, ')')+1:])
	if len(f) < 17 {
		return 0, fmt.Errorf("%s: too few fields", path)
	}
	return strconv.Atoi(string(f[16]))
}
