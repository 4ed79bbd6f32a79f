package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMemoryLimit: a subcommand that grounds sets the soft memory limit
// -memory-limit gives, the default one without GOMEMLIMIT, and none with
// -memory-limit 0.
func TestMemoryLimit(t *testing.T) {
	if _, err := os.Stat(compareTicTacToe); err != nil {
		t.Skipf("game corpus not available: %v", err)
	}
	old := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(old) })
	t.Setenv("GOMEMLIMIT", "")
	for _, tc := range []struct {
		flags []string
		want  int64
	}{
		{[]string{"-memory-limit", "123456789"}, 123456789},
		{nil, defaultMemoryLimit},
		{[]string{"-memory-limit", "0"}, 1 << 50}, // left as it was
	} {
		debug.SetMemoryLimit(1 << 50)
		args := append(append([]string{"ground"}, tc.flags...), compareTicTacToe)
		if code, _, errOut := runCmd(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if got := debug.SetMemoryLimit(-1); got != tc.want {
			t.Errorf("%v: memory limit %d, want %d", args, got, tc.want)
		}
	}
}
