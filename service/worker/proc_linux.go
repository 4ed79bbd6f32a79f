package worker

import (
	"fmt"
	"os"
	"strings"
)

// readRSS is the resident memory of process pid in bytes
// (/proc/PID/statm); ok is false if it cannot be read.
func readRSS(pid int) (rss int64, ok bool) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0, false
	}
	var size, pages int64
	if _, err := fmt.Sscan(strings.TrimSpace(string(raw)), &size, &pages); err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}
