package equiv_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// TestProgressDetail checks the sub-progress of each phase: functions
// analysed of all in graph, search nodes in search, functions proven of
// all in verify.
func TestProgressDetail(t *testing.T) {
	dir := testgames.Dir(t)
	read := func(rel string) equiv.Source {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		return equiv.Source{Name: filepath.Base(rel), GDL: b}
	}
	var mu sync.Mutex
	var got []equiv.Progress
	lim := equiv.Limits{Progress: func(p equiv.Progress) { mu.Lock(); got = append(got, p); mu.Unlock() }}
	rep, err := equiv.Compare(context.Background(), read("ggp-base-repo/ticTacToe.kif"), read("ggp-base/sum15.kif"), lim)
	if err != nil || rep.Verdict != equiv.Equivalent {
		t.Fatalf("Compare = %v, %v", rep, err)
	}
	seen := map[string]bool{}
	for _, p := range got {
		if p.Step == "" && p.Phase != "done" {
			t.Errorf("progress %+v has no step", p)
		}
		if p.Total > 0 && p.Done > p.Total {
			t.Errorf("progress %+v: done beyond total", p)
		}
		switch {
		case p.Phase == "graph" && p.Unit == equiv.UnitFunctions && p.Total > 0 && p.Done == p.Total:
			seen["graph complete"] = true
		case p.Phase == "verify" && p.Unit == equiv.UnitFunctions && p.Total > 0 && p.Done == p.Total:
			seen["verify complete"] = true
		case p.Phase == "search" && p.Unit == equiv.UnitNodes:
			seen["search nodes"] = true
		}
	}
	for _, want := range []string{"graph complete", "verify complete", "search nodes"} {
		if !seen[want] {
			t.Errorf("no progress report of %s among %d reports", want, len(got))
		}
	}
}
