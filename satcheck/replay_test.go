//go:build unix

package satcheck_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestReplayVerification re-runs the verification of a mapping that
// `gamequiv compare --json A B` printed, pair by pair, once with one miter per
// pair (NoSweep) and once with SAT sweeping, and logs the slowest pairs of
// each. It measures the verify phase without the graph and search phases, and
// with GAMEQUIV_SAT_DUMP set it dumps the slow miters (dump.go). It runs only
// when GAMEQUIV_REPLAY_A, GAMEQUIV_REPLAY_B (the two .kif files) and
// GAMEQUIV_REPLAY_REPORT (the JSON report, or the JSON of `gamequiv mutate
// --json --ops rename-symbols`, whose renaming gives the mapping) are set; GAMEQUIV_REPLAY_MODES
// may be "sweep" or "nosweep" to run one of the two. With
// GAMEQUIV_REPLAY_DIMACS set to a directory it only writes the miter of every
// pair there (Checker.WriteDIMACS), to time external solvers on.
func TestReplayVerification(t *testing.T) {
	pa, pb, rp := os.Getenv("GAMEQUIV_REPLAY_A"), os.Getenv("GAMEQUIV_REPLAY_B"), os.Getenv("GAMEQUIV_REPLAY_REPORT")
	if pa == "" || pb == "" || rp == "" {
		t.Skip("set GAMEQUIV_REPLAY_A, GAMEQUIV_REPLAY_B and GAMEQUIV_REPLAY_REPORT to replay a verification")
	}
	ctx := context.Background()
	load := func(path string) *grounding.Program {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := grounding.Load(ctx, path, src, grounding.Limits{})
		if err != nil {
			t.Fatalf("ground %s: %v", path, err)
		}
		return p
	}
	a, b := load(pa), load(pb)
	raw, err := os.ReadFile(rp)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		equiv.Report
		Renaming map[string]string `json:"renaming"` // `gamequiv mutate --json` output
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatalf("report %s: %v", rp, err)
	}
	if rep.Mapping == nil && rep.Renaming != nil {
		rep.Mapping = renamingMapping(a, rep.Renaming)
	}
	if rep.Mapping == nil {
		t.Fatalf("report %s has no mapping (verdict %s) and no renaming", rp, rep.Verdict)
	}
	m, err := rep.Mapping.Indexes(a, b)
	if err != nil {
		t.Fatal(err)
	}
	im := m.InputMap(a, b)
	pairs := satcheck.Pairs(a, b, m)
	if dir := os.Getenv("GAMEQUIV_REPLAY_DIMACS"); dir != "" {
		// Write every pair's miter instead (the CNF one SAT call without
		// sweeping would solve), named by pair index, with an index file.
		c := mustChecker(t, a, b, satcheck.Options{})
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var index []byte
		for i, pr := range pairs {
			var buf bytes.Buffer
			if err := c.WriteDIMACS(&buf, pr.Kind, pr.A, pr.B, im); err != nil {
				t.Fatalf("%s: %v", pr.Name, err)
			}
			name := fmt.Sprintf("%04d.cnf", i+1)
			if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			index = fmt.Appendf(index, "%s\t%s\n", name, pr.Name)
		}
		if err := os.WriteFile(filepath.Join(dir, "index.txt"), index, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	modes := []struct {
		name string
		opt  satcheck.Options
	}{{"nosweep", satcheck.Options{Mode: satcheck.NoSweep}}, {"sweep", satcheck.Options{}}}
	if w := os.Getenv("GAMEQUIV_REPLAY_SWEEP_WINDOW"); w != "" {
		n, err := strconv.Atoi(w)
		if err != nil {
			t.Fatal(err)
		}
		modes[1].opt.SweepWindow = n
	}
	for _, md := range modes {
		if only := os.Getenv("GAMEQUIV_REPLAY_MODES"); only != "" && only != md.name {
			continue
		}
		c := mustChecker(t, a, b, md.opt)
		type timed struct {
			name string
			d    time.Duration
			cpu  time.Duration // process CPU time (user+system) during the check
		}
		var ts []timed
		start, startCPU := time.Now(), cpuTime()
		for _, pr := range pairs {
			t0, c0 := time.Now(), cpuTime()
			eq, err := c.CheckFunc(ctx, pr.Kind, pr.A, pr.B, im)
			if err != nil {
				t.Fatalf("%s %s: %v", md.name, pr.Name, err)
			}
			if !eq {
				t.Fatalf("%s %s: different under the verified mapping", md.name, pr.Name)
			}
			ts = append(ts, timed{fmt.Sprintf("%s (nodes %d vs %d)", pr.Name, pr.A.Node(), pr.B.Node()), time.Since(t0), cpuTime() - c0})
		}
		total, totalCPU := time.Since(start), cpuTime()-startCPU
		slices.SortFunc(ts, func(x, y timed) int { return int(y.d - x.d) })
		t.Logf("%s: %d pairs in %v (CPU %v), stats %+v", md.name, len(pairs), total, totalCPU, c.Stats())
		for _, x := range ts[:min(8, len(ts))] {
			t.Logf("%s:   %v (CPU %v) %s", md.name, x.d, x.cpu, x.name)
		}
	}
}

// renamingMapping is the mapping that a symbol renaming (the "renaming" of
// `gamequiv mutate --json --ops rename-symbols`) induces on a's names.
func renamingMapping(a *grounding.Program, ren map[string]string) *equiv.Mapping {
	rename := func(name string) string {
		var out strings.Builder
		tok := 0
		flush := func(i int) {
			if w := name[tok:i]; w != "" {
				if r, ok := ren[w]; ok {
					w = r
				}
				out.WriteString(w)
			}
		}
		for i := 0; i < len(name); i++ {
			if c := name[i]; c == '(' || c == ')' || c == ' ' {
				flush(i)
				out.WriteByte(c)
				tok = i + 1
			}
		}
		flush(len(name))
		return out.String()
	}
	m := &equiv.Mapping{Roles: map[string]string{}, Propositions: map[string]string{}, Actions: map[string]map[string]string{}}
	for r, role := range a.Roles {
		m.Roles[role] = rename(role)
		m.Actions[role] = map[string]string{}
		for _, act := range a.Actions[r] {
			m.Actions[role][act] = rename(act)
		}
	}
	for _, p := range a.Props {
		m.Propositions[p] = rename(p)
	}
	return m
}

// TestReplayCompare runs the whole comparison of GAMEQUIV_REPLAY_A and
// GAMEQUIV_REPLAY_B (GAMEQUIV_REPLAY_TIMEOUT, default 5m), for profiling the
// SAT questions in place (go test -cpuprofile); GAMEQUIV_REPLAY_NOSWEEP=1
// turns sweeping off. It runs only when GAMEQUIV_REPLAY_COMPARE=1.
func TestReplayCompare(t *testing.T) {
	if os.Getenv("GAMEQUIV_REPLAY_COMPARE") != "1" {
		t.Skip("set GAMEQUIV_REPLAY_COMPARE=1, GAMEQUIV_REPLAY_A and GAMEQUIV_REPLAY_B to replay a comparison")
	}
	src := func(path string) equiv.Source {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return equiv.Source{Name: path, GDL: b}
	}
	lim := equiv.Limits{Timeout: 5 * time.Minute}
	if s := os.Getenv("GAMEQUIV_REPLAY_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		lim.Timeout = d
	}
	if os.Getenv("GAMEQUIV_REPLAY_NOSWEEP") == "1" {
		lim.SAT.Mode |= satcheck.NoSweep
	}
	rep, err := equiv.Compare(context.Background(), src(os.Getenv("GAMEQUIV_REPLAY_A")), src(os.Getenv("GAMEQUIV_REPLAY_B")), lim)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %s; stats %+v", rep.Verdict, rep.Reason, rep.Stats)
}

// cpuTime is the CPU time of the process so far (user + system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
