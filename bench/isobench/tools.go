package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gamequiv/gamequiv/isomorph"
)

// measurement is one tool's result on one graph.
type measurement struct {
	Ran     bool          // the tool was run
	TimeOut bool          // it exceeded the timeout
	Err     string        // any other failure
	Aut     string        // |Aut| as the tool printed it
	Time    time.Duration // the search time used in the table
	Runs    int           // runs the time is the median or mean of
	Note    string        // how the time was obtained
	Nodes   int64         // search-tree nodes of one run, as reported (-1 unknown)
	Leaves  int64         // search-tree leaves, where reported (-1 unknown)

	// bliss binary only.
	Reported time.Duration // its "Total time" line (10 ms resolution)
	Wall     time.Duration // process wall time
}

func (m measurement) ok() bool { return m.Ran && !m.TimeOut && m.Err == "" }

// runCmd runs name with args under timeout and returns its stdout, wall
// time and whether it timed out.
func runCmd(ctx context.Context, timeout time.Duration, name string, args ...string) (string, time.Duration, bool, error) {
	return runCmdIn(ctx, timeout, "", name, args...)
}

// runCmdIn is runCmd with standard input read from the file stdin ("" for
// none).
func runCmdIn(ctx context.Context, timeout time.Duration, stdin, name string, args ...string) (string, time.Duration, bool, error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, name, args...)
	cmd.WaitDelay = time.Second
	dieWithParent(cmd)
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			return "", 0, false, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cctx.Err() != nil && ctx.Err() == nil {
		return out.String(), wall, true, nil
	}
	if err != nil {
		msg := strings.TrimSpace(lastLine(errb.String()))
		if msg == "" {
			msg = strings.TrimSpace(lastLine(out.String()))
		}
		return out.String(), wall, false, fmt.Errorf("%s: %v: %s", name, err, msg)
	}
	return out.String(), wall, false, nil
}

// maxRuns bounds the timed runs of one tool on one graph.
const maxRuns = 1000

// again reports whether a tool that has made n timed runs adding up to
// total should run once more: runs times unless they add up to budget, and
// in any case until they add up to minTime (short searches are repeated,
// as dreadnaut's M=k does for nauty and Traces), at most maxRuns times.
func again(n int, total time.Duration, runs int, budget, minTime time.Duration) bool {
	return n == 0 || n < maxRuns && (n < runs && total < budget || total < minTime)
}

// measureIsomorph runs isomorph.Automorphisms as again says and reports the
// median time; the group and stats of the first run are returned too.
func measureIsomorph(ctx context.Context, g *isomorph.Graph, runs int, budget, minTime, timeout time.Duration) (measurement, *isomorph.Group) {
	m := measurement{Ran: true, Note: "in-process median of CPU time", Nodes: -1, Leaves: -1}
	var times []time.Duration
	var first *isomorph.Group
	var total time.Duration
	for again(len(times), total, runs, budget, minTime) {
		if len(times) < runs {
			// A clean heap for the first runs; the repeats of short
			// searches pay for their own garbage, as the median shows.
			runtime.GC()
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		start := processTime()
		gr, err := isomorph.Automorphisms(cctx, g, isomorph.Limits{MaxNodes: -1})
		d := processTime() - start
		timedOut := cctx.Err() != nil
		cancel()
		if err != nil || timedOut {
			if timedOut || errors.Is(err, context.DeadlineExceeded) {
				m.TimeOut = true
			} else {
				m.Err = err.Error()
			}
			return m, nil
		}
		if first == nil {
			first = gr
			m.Aut = gr.Order.String()
			m.Nodes, m.Leaves = gr.Stats.Nodes, gr.Stats.Leaves
		}
		times = append(times, d)
		total += d
	}
	m.Time, m.Runs = median(times), len(times)
	return m, first
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

var (
	reBlissAut   = regexp.MustCompile(`(?m)^\|Aut\|:\s*(\S+)`)
	reBlissTime  = regexp.MustCompile(`(?m)^Total time:\s*([0-9.]+) seconds`)
	reNautyGrp   = regexp.MustCompile(`grpsize=([0-9.e+]+)`)
	reNautyCPU   = regexp.MustCompile(`cpu time = ([0-9.e+-]+) seconds`)
	reHarnessMed = regexp.MustCompile(`(?m)^median_ms (\S+) runs (\d+)`)
	reBlissNodes = regexp.MustCompile(`(?m)^Nodes:\s*(\d+)\s+Leaf nodes:\s*(\d+)`)
	reNautyNodes = regexp.MustCompile(`; (\d+) nodes?\b`)
)

// measureBlissBinary runs "bliss [-directed] file" once: |Aut|, its own
// Total time line and the process wall time.
func measureBlissBinary(ctx context.Context, file string, undirected bool, timeout time.Duration) measurement {
	m := measurement{Ran: true, Nodes: -1, Leaves: -1}
	args := []string{"-directed", file}
	if undirected {
		args = args[1:]
	}
	out, wall, to, err := runCmd(ctx, timeout, "bliss", args...)
	if to {
		m.TimeOut = true
		return m
	}
	if err != nil {
		m.Err = err.Error()
		return m
	}
	a := reBlissAut.FindStringSubmatch(out)
	t := reBlissTime.FindStringSubmatch(out)
	if a == nil || t == nil {
		m.Err = "bliss: no |Aut| or Total time in output"
		return m
	}
	m.Aut = a[1]
	if nl := reBlissNodes.FindStringSubmatch(out); nl != nil {
		m.Nodes, _ = strconv.ParseInt(nl[1], 10, 64)
		m.Leaves, _ = strconv.ParseInt(nl[2], 10, 64)
	}
	sec, _ := strconv.ParseFloat(t[1], 64)
	m.Reported = time.Duration(sec * float64(time.Second))
	m.Wall = wall
	m.Time, m.Runs, m.Note = m.Reported, 1, "bliss Total time"
	return m
}

// blissStartup is the median wall time of bliss on a one-vertex graph:
// process start-up, to subtract from wall times.
func blissStartup(ctx context.Context, dir string) (time.Duration, error) {
	f := filepath.Join(dir, "one.bliss")
	if err := os.WriteFile(f, []byte("p edge 1 0\n"), 0o644); err != nil {
		return 0, err
	}
	var ts []time.Duration
	for range 9 {
		_, wall, _, err := runCmd(ctx, 10*time.Second, "bliss", "-directed", f)
		if err != nil {
			return 0, err
		}
		ts = append(ts, wall)
	}
	return median(ts), nil
}

// harnessSource is a small C++ program linked against libbliss (the library
// behind the bliss binary) that reads a bliss file, runs
// find_automorphisms with the binary's default options (splitting heuristic
// fsm, failure recording and component recursion on) repeatedly, and
// prints its search statistics (|Aut| among them) and the median CPU time
// of the search (clock_gettime(CLOCK_PROCESS_CPUTIME_ID), nanoseconds).
// It exists because the bliss binary reports times to 10 ms only.
const harnessSource = `#include <bliss/graph.hh>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <vector>

static void hook(void*, unsigned int, const unsigned int*) {}

int main(int argc, char** argv) {
  if (argc != 7) { std::fprintf(stderr, "usage: harness d|u FILE RUNS BUDGET_MS MIN_MS MAXRUNS\n"); return 2; }
  bool directed = argv[1][0] == 'd';
  int runs = std::atoi(argv[3]);
  double budget = std::atof(argv[4]);
  double mintime = std::atof(argv[5]);
  int maxruns = std::atoi(argv[6]);
  std::vector<double> ms;
  double total = 0;
  for (;;) {
    int n = (int)ms.size();
    if (n > 0 && !(n < maxruns && ((n < runs && total < budget) || total < mintime))) break;
    FILE* fp = std::fopen(argv[2], "r");
    if (!fp) { std::perror(argv[2]); return 1; }
    bliss::AbstractGraph* g;
    if (directed) {
      bliss::Digraph* d = bliss::Digraph::read_dimacs(fp);
      if (d) d->set_splitting_heuristic(bliss::Digraph::shs_fsm);
      g = d;
    } else {
      bliss::Graph* u = bliss::Graph::read_dimacs(fp);
      if (u) u->set_splitting_heuristic(bliss::Graph::shs_fsm);
      g = u;
    }
    std::fclose(fp);
    if (!g) { std::fprintf(stderr, "cannot read %s\n", argv[2]); return 1; }
    g->set_failure_recording(true);
    g->set_component_recursion(true);
    g->set_verbose_level(0);
    bliss::Stats st;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    g->find_automorphisms(st, hook, nullptr);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double d = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (ms.empty()) {
      st.print(stdout);  // "Nodes:", "Leaf nodes:", ..., "|Aut|:" lines
      std::fflush(stdout);
    }
    ms.push_back(d);
    total += d;
    delete g;
  }
  std::sort(ms.begin(), ms.end());
  size_t k = ms.size();
  double med = k % 2 ? ms[k / 2] : (ms[k / 2 - 1] + ms[k / 2]) / 2;
  std::printf("median_ms %.6f runs %zu\n", med, k);
  return 0;
}
`

// buildHarness compiles the bliss harness into dir; it returns "" and the
// reason when g++ or the bliss headers are missing.
func buildHarness(ctx context.Context, dir string) (string, error) {
	src := filepath.Join(dir, "blissharness.cc")
	bin := filepath.Join(dir, "blissharness")
	if err := os.WriteFile(src, []byte(harnessSource), 0o644); err != nil {
		return "", err
	}
	_, _, _, err := runCmd(ctx, 120*time.Second, "g++", "-O2", "-DBLISS_USE_GMP", "-o", bin, src, "-lbliss", "-lgmp")
	if err != nil {
		return "", err
	}
	return bin, nil
}

// measureBlissLib runs the harness, which repeats the search as again does.
func measureBlissLib(ctx context.Context, harness, file string, undirected bool, runs int, budget, minTime, timeout time.Duration) measurement {
	m := measurement{Ran: true, Note: "libbliss median", Nodes: -1, Leaves: -1}
	mode := "d"
	if undirected {
		mode = "u"
	}
	out, _, to, err := runCmd(ctx, timeout+budget+minTime+5*time.Second, harness, mode, file, strconv.Itoa(runs),
		strconv.FormatInt(budget.Milliseconds(), 10), strconv.FormatInt(minTime.Milliseconds(), 10), strconv.Itoa(maxRuns))
	a := reBlissAut.FindStringSubmatch(out)
	med := reHarnessMed.FindStringSubmatch(out)
	if to {
		m.TimeOut = true
		return m
	}
	if err != nil {
		m.Err = err.Error()
		return m
	}
	if a == nil || med == nil {
		m.Err = "harness: unexpected output"
		return m
	}
	ms, _ := strconv.ParseFloat(med[1], 64)
	m.Aut = a[1]
	m.Time = time.Duration(ms * float64(time.Millisecond))
	m.Runs, _ = strconv.Atoi(med[2])
	if nl := reBlissNodes.FindStringSubmatch(out); nl != nil {
		m.Nodes, _ = strconv.ParseInt(nl[1], 10, 64)
		m.Leaves, _ = strconv.ParseInt(nl[2], 10, 64)
	}
	if m.Time > timeout {
		m.TimeOut = true
	}
	return m
}

// measureDreadnaut runs a dreadnaut script (nauty or Traces) once with "x";
// when its cpu time (printed to 10 ms) is under a second it runs it again
// with "M=k x", which makes dreadnaut repeat the search k times and print the
// mean cpu time with more digits. Times are dreadnaut's, not wall time.
func measureDreadnaut(ctx context.Context, script string, timeout time.Duration) measurement {
	m := measurement{Ran: true, Runs: 1, Note: "dreadnaut cpu time", Nodes: -1, Leaves: -1}
	body, err := os.ReadFile(script)
	if err != nil {
		m.Err = err.Error()
		return m
	}
	var nodes int64 = -1
	run := func(cmds string) (grp string, cpu float64, to bool, err error) {
		f := script + ".run"
		if err := os.WriteFile(f, append(slices.Clip(body), []byte(cmds+"\nq\n")...), 0o644); err != nil {
			return "", 0, false, err
		}
		out, _, to, err := runCmdIn(ctx, timeout+5*time.Second, f, "dreadnaut")
		if to || err != nil {
			return "", 0, to, err
		}
		g := reNautyGrp.FindAllStringSubmatch(out, -1)
		c := reNautyCPU.FindAllStringSubmatch(out, -1)
		if len(g) == 0 || len(c) == 0 {
			return "", 0, false, fmt.Errorf("dreadnaut: no grpsize or cpu time in output: %q", lastLine(out))
		}
		cpu, _ = strconv.ParseFloat(c[len(c)-1][1], 64)
		if nm := reNautyNodes.FindAllStringSubmatch(out, -1); len(nm) > 0 && nodes < 0 {
			nodes, _ = strconv.ParseInt(nm[len(nm)-1][1], 10, 64)
		}
		return g[len(g)-1][1], cpu, false, nil
	}
	grp, cpu, to, err := run("x")
	switch {
	case to:
		m.TimeOut = true
		return m
	case err != nil:
		m.Err = err.Error()
		return m
	}
	m.Aut = grp
	m.Nodes = nodes
	m.Time = time.Duration(cpu * float64(time.Second))
	if m.Time > timeout {
		m.TimeOut = true
		return m
	}
	if cpu < 1 {
		k := int(math.Ceil(0.5 / math.Max(cpu, 0.001)))
		k = min(max(k, 3), 1000)
		grp2, cpu2, to, err := run(fmt.Sprintf("M=%d x", k))
		if err == nil && !to && grp2 == grp {
			m.Time = time.Duration(cpu2 * float64(time.Second))
			m.Runs = k
			m.Note = "dreadnaut cpu time, mean"
		}
	}
	return m
}

// sameOrder compares |Aut| as printed by a tool with the exact order.
// bliss prints it exactly (GMP); nauty and Traces print an exact integer
// when it is small and otherwise a mantissa of 13 significant digits and
// an exponent, which must then agree to 1e-10.
func sameOrder(exact *big.Int, printed string) bool {
	if n, ok := new(big.Int).SetString(printed, 10); ok {
		return n.Cmp(exact) == 0
	}
	f, ok := new(big.Float).SetPrec(256).SetString(printed)
	if !ok {
		return false
	}
	e := new(big.Float).SetPrec(256).SetInt(exact)
	diff := new(big.Float).Sub(f, e)
	diff.Abs(diff)
	tol := new(big.Float).Mul(e, big.NewFloat(1e-10))
	return diff.Cmp(tol) <= 0
}

// sci renders a group order: exact below 10^9, else d.ddd×10^k (rounded).
func sci(n *big.Int) string {
	if len(n.String()) <= 9 {
		return n.String()
	}
	t := new(big.Float).SetPrec(256).SetInt(n).Text('e', 3) // "1.871e+51"
	mant, exp, _ := strings.Cut(t, "e")
	return mant + "×10^" + strings.TrimLeft(exp, "+")
}
