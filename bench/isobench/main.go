// Command isobench compares gamequiv's graph isomorphism engine (isomorph)
// with bliss and nauty/Traces on the same graphs, in one run: the ground
// graphs of the largest corpus games and classic hard families.
//
//	go run ./bench/isobench [-timeout 60s] [-top 20] [-games dir,dir]
//
// For every graph it measures |Aut| and the CPU time of the search of
//
//   - isomorph.Automorphisms, in-process (median of -runs runs of the
//     process CPU time, garbage collection included);
//   - bliss: the bliss binary (bliss -directed, or bliss for undirected
//     graphs) once, for |Aut|, its "Total time" line and its wall time; and,
//     when g++ and the bliss headers are installed, a small harness linked
//     against the same libbliss with the binary's default options that times
//     find_automorphisms with the process CPU clock (median of -runs runs):
//     the binary prints times to 10 ms only. The table uses the harness time
//     if there is one, else the binary's own Total time;
//   - nauty through dreadnaut: sparse mode, digraph flag and the adjacencies
//     invariant at every level (*=13 k=0 999, w=1000) for digraphs;
//   - Traces through dreadnaut (At mode) on the undirected three-layer
//     encoding of a digraph (v, v_out, v_in), or on the graph itself when it
//     is undirected.
//
// Times of nauty and Traces are dreadnaut's cpu time (repeated with M=k for
// short runs). All times are CPU times, not wall times: the benchmark
// machine's cores are shared, and wall time there measures the neighbours
// as much as the tool. Every tool gets a timeout per graph (-timeout). The program
// exits with status 1, before printing any time, as soon as two tools
// disagree on |Aut|. It prints a markdown report on standard output and
// progress on standard error. It runs only local processes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gamequiv/gamequiv/isomorph"
)

// benchGraph is one graph of the benchmark.
type benchGraph struct {
	Name string
	Kind string // "game" or "family"
	G    *isomorph.Graph

	undirected bool
	iso        measurement
	blissLib   measurement
	blissBin   measurement
	nauty      measurement
	traces     measurement
	order      *big.Int
}

type config struct {
	games         []string
	top           int
	groundTimeout time.Duration
	timeout       time.Duration
	runs          int
	budget        time.Duration
	minTime       time.Duration
	corpus        bool
	families      bool
	only          *regexp.Regexp
	keep          bool
	ttt           string
	cache         string
	cpuProfile    string
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == groundChildFlag {
		if err := groundChild(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	var c config
	var games, only string
	flag.StringVar(&games, "games", "/work/shared/games/ggp-base,/work/shared/games/ggp-base-repo", "comma-separated directories of *.kif games")
	flag.IntVar(&c.top, "top", 20, "number of largest ground graphs (by vertices) to benchmark")
	flag.DurationVar(&c.groundTimeout, "ground-timeout", 60*time.Second, "timeout for grounding and building the graph of one game")
	flag.DurationVar(&c.timeout, "timeout", 60*time.Second, "timeout of one tool on one graph")
	flag.IntVar(&c.runs, "runs", 5, "timed runs per tool and graph (median), fewer once they add up to -budget")
	flag.DurationVar(&c.budget, "budget", 2*time.Second, "time budget of the repeated timed runs of one tool on one graph")
	flag.DurationVar(&c.minTime, "min-time", 500*time.Millisecond, "short searches of isomorph and libbliss are repeated until their runs add up to this (at most 1000 runs), as dreadnaut's M=k does for nauty and Traces")
	flag.BoolVar(&c.corpus, "corpus", true, "benchmark the ground graphs of corpus games")
	flag.BoolVar(&c.families, "families", true, "benchmark the classic graph families")
	flag.StringVar(&only, "only", "", "only graphs whose name matches this regexp")
	flag.BoolVar(&c.keep, "keep", false, "keep the temporary directory with the tools' input files")
	flag.StringVar(&c.ttt, "tictactoe", "/work/shared/games/ggp-base-repo/ticTacToe.kif", "game whose self-isomorphism search tree is reported")
	flag.StringVar(&c.cache, "cache", "", "development aid: cache ground graphs in this directory (stale once grounding or groundgraph change)")
	flag.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole measurement phase to this file (the external tools run in other processes, so it shows isomorph)")
	flag.Parse()
	c.games = strings.Split(games, ",")
	if only != "" {
		re, err := regexp.Compile(only)
		if err != nil {
			fmt.Fprintln(os.Stderr, "isobench: -only:", err)
			os.Exit(2)
		}
		c.only = re
	}
	if err := run(context.Background(), c, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "isobench: FAIL:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[%s] %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

// errDisagree marks an |Aut| disagreement.
var errDisagree = errors.New("|Aut| disagreement")

func run(ctx context.Context, c config, w io.Writer) error {
	for _, tool := range []string{"bliss", "dreadnaut"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is not installed: %w", tool, err)
		}
	}
	tmp, err := os.MkdirTemp("", "isobench-")
	if err != nil {
		return err
	}
	if c.keep {
		logf("inputs kept in %s", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	started := time.Now()

	// (1) Graphs.
	var graphs []*benchGraph
	var tttGraph *isomorph.Graph
	var corpusNote string
	if c.corpus {
		res, err := groundCorpus(ctx, c.games, tmp, c.cache, c.groundTimeout, logf)
		if err != nil {
			return err
		}
		var okRes []groundResult
		var failed []string
		var timeouts, limits, others []string
		for _, r := range res {
			if r.Err != "" {
				failed = append(failed, gameName(r.File))
				switch {
				case strings.HasPrefix(r.Err, "timeout"):
					timeouts = append(timeouts, gameName(r.File))
				case strings.Contains(r.Err, "limit"):
					limits = append(limits, gameName(r.File))
				default:
					others = append(others, fmt.Sprintf("%s (%s)", gameName(r.File), r.Err))
				}
				continue
			}
			okRes = append(okRes, r)
			if abs(r.File) == abs(c.ttt) {
				tttGraph = r.G
			}
		}
		sort.SliceStable(okRes, func(i, j int) bool { return okRes[i].G.Order() > okRes[j].G.Order() })
		corpusNote = fmt.Sprintf("%d games, %d grounded within the default limits and a %v timeout per game, %d skipped", len(res), len(okRes), c.groundTimeout, len(failed))
		for _, f := range []struct {
			what  string
			games []string
		}{{"timed out", timeouts}, {"exceeded a grounding limit", limits}, {"failed", others}} {
			if len(f.games) > 0 {
				corpusNote += fmt.Sprintf("; %d %s: %s", len(f.games), f.what, strings.Join(f.games, ", "))
			}
		}
		inTop := false
		for i, r := range okRes {
			if i == c.top {
				break
			}
			graphs = append(graphs, &benchGraph{Name: gameName(r.File), Kind: "game", G: r.G})
			inTop = inTop || r.G == tttGraph
		}
		if tttGraph != nil && !inTop {
			// Tic-tac-toe, the small reference, as an extra row.
			graphs = append(graphs, &benchGraph{Name: gameName(c.ttt) + " †", Kind: "game", G: tttGraph})
		}
	}
	if c.families {
		fam, err := families()
		if err != nil {
			return err
		}
		graphs = append(graphs, fam...)
	}
	if c.only != nil {
		graphs = filterGraphs(graphs, c.only)
	}
	if tttGraph == nil && c.ttt != "" {
		tttGraph, err = groundOne(ctx, c.ttt, tmp, c.cache, c.groundTimeout)
		if err != nil {
			logf("tic-tac-toe: %v", err)
		}
	}

	// (2) Tools.
	harness, herr := buildHarness(ctx, tmp)
	if herr != nil {
		logf("no libbliss harness (%v): bliss times are the binary's Total time", herr)
	}
	startup, err := blissStartup(ctx, tmp)
	if err != nil {
		return err
	}

	// (3) Measurements, with (4) the |Aut| check after each graph.
	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	for i, bg := range graphs {
		if err := measure(ctx, c, tmp, i, bg, harness, startup); err != nil {
			return err
		}
	}

	// Tic-tac-toe's self-isomorphisms.
	var ttt *isomorph.Group
	var tttSearch searchCount
	if tttGraph != nil {
		ttt, err = isomorph.Automorphisms(ctx, tttGraph, isomorph.Limits{})
		if err != nil {
			return fmt.Errorf("tic-tac-toe: %w", err)
		}
		if tttSearch, err = countSearch(ctx, tttGraph); err != nil {
			return fmt.Errorf("tic-tac-toe: %w", err)
		}
	}

	// (5) Report.
	report(w, c, graphs, harness != "", startup, corpusNote, tttGraph, ttt, tttSearch, time.Since(started))
	return nil
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

func filterGraphs(gs []*benchGraph, re *regexp.Regexp) []*benchGraph {
	var out []*benchGraph
	for _, g := range gs {
		if re.MatchString(g.Name) {
			out = append(out, g)
		}
	}
	return out
}

// groundOne grounds a single game (in a child process).
func groundOne(ctx context.Context, file, tmp, cache string, timeout time.Duration) (*isomorph.Graph, error) {
	res, err := groundFiles(ctx, []string{file}, tmp, cache, timeout, func(string, ...any) {})
	if err != nil {
		return nil, err
	}
	if res[0].Err != "" {
		return nil, errors.New(res[0].Err)
	}
	return res[0].G, nil
}

func measure(ctx context.Context, c config, tmp string, i int, bg *benchGraph, harness string, startup time.Duration) error {
	g := bg.G
	bg.undirected = isUndirected(g)
	base := filepath.Join(tmp, fmt.Sprintf("g%02d", i))
	if err := writeFile(base+".bliss", func(w io.Writer) error { return writeBliss(w, g, bg.undirected) }); err != nil {
		return err
	}
	if err := writeFile(base+".nauty.dre", func(w io.Writer) error { return writeNauty(w, g, bg.undirected) }); err != nil {
		return err
	}
	enc := plain
	if !bg.undirected {
		enc = threeLayer
	}
	if err := writeFile(base+".traces.dre", func(w io.Writer) error { return writeTraces(w, enc(g)) }); err != nil {
		return err
	}
	logf("graph %-42s %7d vertices %8d arcs%s", bg.Name, g.Order(), g.Arcs(), map[bool]string{true: " (undirected)"}[bg.undirected])

	bg.iso, _ = measureIsomorph(ctx, g, c.runs, c.budget, c.minTime, c.timeout)
	logf("  isomorph  %s", describe(bg.iso))
	if harness != "" {
		bg.blissLib = measureBlissLib(ctx, harness, base+".bliss", bg.undirected, c.runs, c.budget, c.minTime, c.timeout)
		logf("  libbliss  %s", describe(bg.blissLib))
	}
	bg.blissBin = measureBlissBinary(ctx, base+".bliss", bg.undirected, c.timeout)
	logf("  bliss     %s (wall %v)", describe(bg.blissBin), bg.blissBin.Wall.Round(time.Millisecond))
	bg.nauty = measureDreadnaut(ctx, base+".nauty.dre", c.timeout)
	logf("  nauty     %s", describe(bg.nauty))
	bg.traces = measureDreadnaut(ctx, base+".traces.dre", c.timeout)
	logf("  Traces    %s", describe(bg.traces))

	return checkOrders(bg)
}

func writeFile(path string, f func(io.Writer) error) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := f(fh); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

func describe(m measurement) string {
	switch {
	case !m.Ran:
		return "not run"
	case m.TimeOut:
		return "TIMEOUT"
	case m.Err != "":
		return "ERROR " + m.Err
	}
	return fmt.Sprintf("|Aut|=%s %.3f ms (%d runs) nodes=%d", shortAut(m.Aut), ms(m.Time), m.Runs, m.Nodes)
}

// shortAut writes an exact group order as the report's tables do (sci):
// the order of a ground graph can have 25,000 digits. Orders the tools
// print in floating point are left as they are.
func shortAut(s string) string {
	if n, ok := new(big.Int).SetString(s, 10); ok {
		return sci(n)
	}
	return s
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// checkOrders compares the group orders of every tool that finished. The
// exact order comes from isomorph, else from bliss (both exact); nauty and
// Traces print 13 significant digits for large orders.
func checkOrders(bg *benchGraph) error {
	tools := []struct {
		name string
		m    measurement
	}{{"isomorph", bg.iso}, {"bliss (libbliss harness)", bg.blissLib}, {"bliss binary", bg.blissBin}, {"nauty", bg.nauty}, {"Traces", bg.traces}}
	var ref *big.Int
	var refName string
	for _, t := range tools {
		if t.m.ok() && t.name != "nauty" && t.name != "Traces" {
			if n, ok := new(big.Int).SetString(t.m.Aut, 10); ok {
				ref, refName = n, t.name
				break
			}
		}
	}
	if ref == nil {
		return nil // no exact order: nothing to compare against
	}
	bg.order = ref
	var bad []string
	for _, t := range tools {
		if t.m.ok() && !sameOrder(ref, t.m.Aut) {
			bad = append(bad, fmt.Sprintf("%s says %s", t.name, t.m.Aut))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w on %s (%d vertices): %s says %s, but %s", errDisagree, bg.Name, bg.G.Order(), refName, ref, strings.Join(bad, ", "))
	}
	return nil
}

// toolTime renders a tool's time for the table.
func toolTime(m measurement, timeout time.Duration) string {
	switch {
	case !m.Ran:
		return "–"
	case m.TimeOut:
		return fmt.Sprintf(">%gs", timeout.Seconds())
	case m.Err != "":
		return "error"
	}
	return fmtMS(ms(m.Time))
}

func fmtMS(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	case x >= 1:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.3f", x)
}

// blissTable returns the bliss time used in the comparison.
func (bg *benchGraph) bliss() measurement {
	if bg.blissLib.Ran {
		return bg.blissLib
	}
	return bg.blissBin
}

// ratio returns isomorph's time over the fastest other tool's: the value,
// its rendering, and whether it is a number (both times measured).
func (bg *benchGraph) ratio(timeout time.Duration) (float64, string, bool) {
	fastest := math.Inf(1)
	for _, m := range []measurement{bg.bliss(), bg.nauty, bg.traces} {
		if m.ok() {
			fastest = math.Min(fastest, ms(m.Time))
		}
	}
	switch {
	case bg.iso.ok() && !math.IsInf(fastest, 1):
		r := ms(bg.iso.Time) / math.Max(fastest, 1e-6)
		return r, fmt.Sprintf("%.2f", r), true
	case bg.iso.TimeOut && !math.IsInf(fastest, 1):
		return 0, fmt.Sprintf(">%.0f", ms(timeout)/fastest), false
	case bg.iso.ok():
		return 0, "< 1 (others time out)", false
	}
	return 0, "–", false
}

func report(w io.Writer, c config, graphs []*benchGraph, haveHarness bool, startup time.Duration, corpusNote string, tttGraph *isomorph.Graph, ttt *isomorph.Group, tttSearch searchCount, elapsed time.Duration) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("Run %s on %s/%s, %d CPUs (GOMAXPROCS %d), %s; %s; %s; per-tool timeout %v; took %v.\n\n",
		time.Now().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(),
		versions(), map[bool]string{true: "bliss times from a libbliss harness", false: "bliss times from the binary's Total time line"}[haveHarness],
		c.timeout, elapsed.Round(time.Second))
	if corpusNote != "" {
		p("Corpus: %s.\n\n", corpusNote)
	}
	p("All tools agree on |Aut| on every graph where they finished. Times are CPU times in ms: isomorph is the median of in-process runs of Automorphisms (%s); bliss the median of runs of find_automorphisms in the same libbliss as the bliss binary (both run %d times unless that exceeds %v, and repeated until the runs add up to %v, at most %d runs); nauty and Traces dreadnaut's cpu time (mean of M=k runs when under 1 s). (u) marks an undirected graph (symmetric, loop-free), which bliss, nauty and Traces get in their undirected modes; digraphs go to bliss -directed, nauty with d *=13 k=0 999 w=1000, and Traces as the three-layer encoding. Ratio = isomorph ÷ fastest other tool.\n\n", cpuClock, c.runs, c.budget, c.minTime, maxRuns)
	p("| graph | vertices | arcs | \\|Aut\\| | isomorph | bliss | nauty | Traces | ratio |\n")
	p("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	type mean struct {
		logSum        float64
		n, unmeasured int
		over3         []string
	}
	var all, games, fams mean
	for _, bg := range graphs {
		name := bg.Name
		if bg.undirected {
			name += " (u)"
		}
		aut := "?"
		if bg.order != nil {
			aut = sci(bg.order)
		} else if bg.nauty.ok() {
			aut = bg.nauty.Aut + " (nauty)"
		}
		r, rs, ok := bg.ratio(c.timeout)
		if ok && r > 3 {
			rs = "**" + rs + "**"
		}
		for _, m := range []*mean{&all, map[bool]*mean{true: &games, false: &fams}[bg.Kind == "game"]} {
			if !ok {
				m.unmeasured++
				continue
			}
			m.logSum += math.Log(r)
			m.n++
			if r > 3 {
				m.over3 = append(m.over3, bg.Name)
			}
		}
		p("| %s | %d | %d | %s | %s | %s | %s | %s | %s |\n", name, bg.G.Order(), bg.G.Arcs(), aut,
			toolTime(bg.iso, c.timeout), toolTime(bg.bliss(), c.timeout), toolTime(bg.nauty, c.timeout), toolTime(bg.traces, c.timeout), rs)
	}
	for _, bg := range graphs {
		if strings.HasSuffix(bg.Name, " †") {
			p("\n† not among the %d largest ground graphs: added as the small reference graph.\n", c.top)
			break
		}
	}
	for _, x := range []struct {
		what string
		m    mean
	}{{"all graphs", all}, {"ground graphs", games}, {"classic families", fams}} {
		if x.m.n == 0 {
			continue
		}
		p("\nGeometric mean of the ratios, %s: **%.2f** over %d graphs", x.what, math.Exp(x.m.logSum/float64(x.m.n)), x.m.n)
		if x.m.unmeasured > 0 {
			p(" (%d without a ratio left out)", x.m.unmeasured)
		}
		p("; %d above 3", len(x.m.over3))
		if len(x.m.over3) > 0 {
			p(" (%s)", strings.Join(x.m.over3, ", "))
		}
		p(".\n")
	}

	p("\nSearch-tree nodes of one run (isomorph's leaves and bliss's leaf nodes in brackets), and the bliss binary run once (its Total time, printed to 10 ms; wall time; wall time minus %.1f ms start-up measured on a one-vertex graph):\n\n", ms(startup))
	p("| graph | isomorph nodes [leaves] | bliss nodes [leaves] | nauty nodes | Traces nodes | bliss binary Total time | wall | wall − start-up |\n")
	p("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, bg := range graphs {
		nl := func(m measurement) string {
			if !m.ok() || m.Nodes < 0 {
				return "–"
			}
			if m.Leaves >= 0 {
				return fmt.Sprintf("%d [%d]", m.Nodes, m.Leaves)
			}
			return fmt.Sprint(m.Nodes)
		}
		bin := bg.blissBin
		tot, wall, net := toolTime(bin, c.timeout), "–", "–"
		if bin.ok() {
			tot = fmtMS(ms(bin.Reported))
			wall = fmtMS(ms(bin.Wall))
			net = fmtMS(math.Max(0, ms(bin.Wall-startup)))
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %s |\n", bg.Name, nl(bg.iso), nl(bg.blissLib), nl(bg.nauty), nl(bg.traces), tot, wall, net)
	}

	if ttt != nil {
		p("\nTic-tac-toe (%s) ground graph, %d vertices, %d arcs: isomorph.Automorphisms finds |Aut| = %s from **%d search-tree leaves** (%d nodes, %d generators, depth %d); isomorph.Search of the graph against itself, without automorphism pruning, enumerates its %d self-isomorphisms from **%d leaves** (%d nodes kept). The paper's heuristic grouping leaves 4!·4!·1! = 576.\n",
			gameName(c.ttt), tttGraph.Order(), tttGraph.Arcs(), ttt.Order, ttt.Stats.Leaves, ttt.Stats.Nodes, ttt.Stats.Generators, ttt.Stats.MaxDepth,
			tttSearch.found, tttSearch.leaves, tttSearch.nodes)
	}
}

// versions names the installed bliss and nauty packages, when dpkg knows.
func versions() string {
	out, err := exec.Command("dpkg-query", "-W", "-f", "${Package} ${Version}, ", "bliss", "nauty").Output()
	if err != nil {
		return "bliss and nauty versions unknown"
	}
	return strings.TrimSuffix(strings.TrimSpace(string(out)), ",")
}

// searchCount is the work of isomorph.Search of a graph against itself.
type searchCount struct{ nodes, leaves, found int }

// countSearch enumerates g's self-isomorphisms with isomorph.Search and
// counts the nodes it keeps and its leaves (the nodes whose partial mapping
// is complete), through the prune callback, which sees every kept node.
func countSearch(ctx context.Context, g *isomorph.Graph) (searchCount, error) {
	var c searchCount
	count := func(partial isomorph.Mapping, _ []int32) bool {
		c.nodes++
		if !slices.Contains(partial, -1) {
			c.leaves++
		}
		return false
	}
	for m, err := range isomorph.Search(ctx, g, g, isomorph.Limits{}, count) {
		if err != nil {
			return c, err
		}
		if !isomorph.IsAutomorphism(g, isomorph.Perm(m)) {
			return c, errors.New("isomorph.Search yielded a non-automorphism")
		}
		c.found++
	}
	return c, nil
}
