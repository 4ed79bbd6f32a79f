//go:build !unix

package server

import "errors"

// renice is not supported here: run with --worker-nice 0.
func renice(int) error {
	return errors.New("setting a process's nice value is not supported on this system; use --worker-nice 0")
}
