package worker_test

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
)

func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	return len(ents)
}

// TestIdleDeathClosesPipes: a child that dies idle is replaced in
// Procs.Compare through the c.dead() branch, which must close the dead
// child's requests pipe (c.in): one fd leaked per idle death before.
func TestIdleDeathClosesPipes(t *testing.T) {
	p := startProcs(t, 1, nil)
	if _, err := p.Compare(context.Background(), src("x"), src("y"), equiv.Limits{}); err != nil {
		t.Fatal(err)
	}
	before := openFDs(t)
	const n = 10
	for range n {
		pid := sortedPIDs(p)[0]
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for alive(pid) {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond) // let the Wait goroutine close exited
		if rep, err := p.Compare(context.Background(), src("x"), src("y"), equiv.Limits{}); err != nil || rep.Reason != "x~y" {
			t.Fatalf("job after an idle child was killed: %+v, %v", rep, err)
		}
	}
	time.Sleep(100 * time.Millisecond)
	after := openFDs(t)
	if after > before {
		t.Errorf("open fds %d -> %d after %d idle deaths and replacements: %d leaked", before, after, n, after-before)
	}
}
