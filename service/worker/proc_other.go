//go:build !linux

package worker

// readRSS cannot read a process's memory without /proc: Procs.MaxRSS is
// not enforced here.
func readRSS(pid int) (rss int64, ok bool) { return 0, false }
