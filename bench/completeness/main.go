// Command completeness measures issue #11's targets over the game corpus:
// for every game that grounds under the default limits, the verdict of
// Compare against a renamed variant and against a full `gamequiv mutate`
// variant (nodes, candidates, time), and the game's symmetry group (order,
// time). It writes one JSON line per game as it goes (-out) and a Markdown
// summary at the end, with counts of unknown verdicts by cause.
//
//	go run ./bench/completeness -timeout 60s -out /tmp/completeness.jsonl > /tmp/completeness.md
//
// Games run one at a time, so the timings are those of one comparison on
// an otherwise idle process; each comparison also gets its CPU time (user
// plus sys), the figure that does not depend on the machine's load. -only
// restricts the games by a regular expression on their path; -budget stops
// starting new games after a while, and the summary lists those not reached;
// -smallest-first runs the games by file size, so a budget cuts the largest.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/mutate"
)

// run is the outcome of one comparison or symmetry computation.
type run struct {
	Verdict    string  `json:"verdict"` // equivalent, not_equivalent, unknown, error; or the order for symmetries
	Limit      string  `json:"limit,omitempty"`
	Reason     string  `json:"reason,omitempty"`
	Ms         float64 `json:"ms"`
	CPUMs      float64 `json:"cpu_ms"` // user+sys of the whole process meanwhile
	Nodes      int64   `json:"nodes"`
	Candidates int64   `json:"candidates"`
}

// result is one game's line of output.
type result struct {
	Game       string `json:"game"`
	Grounds    bool   `json:"grounds"`
	GroundErr  string `json:"ground_error,omitempty"`
	GroundMs   float64
	Renamed    *run `json:"renamed,omitempty"`
	Mutant     *run `json:"mutant,omitempty"`
	Symmetries *run `json:"symmetries,omitempty"`
	GraphOrder string
}

func main() {
	timeout := flag.Duration("timeout", 60*time.Second, "time limit of each comparison and symmetry computation")
	only := flag.String("only", "", "regular expression: run only the games whose path matches")
	out := flag.String("out", "", "file to write one JSON line per game to (appended as it goes)")
	seed := flag.Int64("seed", 1, "mutation seed of both variants")
	skipSym := flag.Bool("no-symmetries", false, "skip the symmetry groups")
	budget := flag.Duration("budget", 0, "stop starting new games after this long (0: run all)")
	smallFirst := flag.Bool("smallest-first", false, "run the games in order of file size, so that -budget leaves out the largest")
	flag.Parse()
	log.SetFlags(log.Ltime)

	dir, err := testgames.Find()
	if err != nil {
		log.Fatal(err)
	}
	var re *regexp.Regexp
	if *only != "" {
		re = regexp.MustCompile(*only)
	}
	paths := testgames.Files(dir, []string{"ggp-base-repo", "ggp-base", "ggp-base-tests"}, re)
	if *smallFirst {
		sortBySize(dir, paths)
	}
	var jw io.Writer = io.Discard
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		jw = f
	}
	lim := equiv.Limits{Timeout: *timeout}
	var results []result
	var notReached []string
	start := time.Now()
	for i, path := range paths {
		if *budget > 0 && time.Since(start) > *budget {
			notReached = paths[i:]
			break
		}
		r := measure(filepath.Join(dir, path), path, *seed, lim, !*skipSym)
		results = append(results, r)
		line, _ := json.Marshal(r)
		fmt.Fprintf(jw, "%s\n", line)
		log.Printf("%d/%d %s: %s", i+1, len(paths), path, brief(r))
	}
	writeMarkdown(os.Stdout, results, *timeout, *seed)
	if len(notReached) > 0 {
		fmt.Printf("\nNot reached within -budget %v (%d games): %s\n", *budget, len(notReached), strings.Join(notReached, " "))
	}
}

func measure(file, name string, seed int64, lim equiv.Limits, sym bool) result {
	r := result{Game: name}
	src, err := os.ReadFile(file)
	if err != nil {
		r.GroundErr = err.Error()
		return r
	}
	f, err := grounding.Parse(name, src)
	if err != nil {
		r.GroundErr = err.Error()
		return r
	}
	t0 := time.Now()
	p, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	r.GroundMs = msSince(t0)
	if err != nil {
		r.GroundErr = firstLine(err.Error())
		return r
	}
	r.Grounds = true
	r.Renamed = compareVariant(f, p, seed, mutate.Options{Ops: mutate.RenameSymbols}, lim)
	r.Mutant = compareVariant(f, p, seed, mutate.Options{}, lim)
	if sym {
		t0, c0 := time.Now(), cpuMs()
		ctx, cancel := context.WithTimeout(context.Background(), lim.Timeout)
		rep, err := equiv.ProgramSymmetries(ctx, p, lim)
		cancel()
		s := &run{Ms: msSince(t0), CPUMs: cpuMs() - c0}
		if err != nil {
			s.Verdict, s.Reason = "error", firstLine(err.Error())
			s.Limit = limitName(err)
		} else {
			s.Verdict, s.Candidates = rep.Order, rep.Candidates
			r.GraphOrder = rep.GraphOrder
		}
		r.Symmetries = s
	}
	return r
}

// compareVariant compares p with a variant of f made with opt; a variant
// whose pair-args re-encoding does not ground is made again without it.
func compareVariant(f *grounding.File, p *grounding.Program, seed int64, opt mutate.Options, lim equiv.Limits) *run {
	v, err := mutate.Equivalent(f, seed, opt)
	if err != nil {
		return &run{Verdict: "error", Reason: "mutate: " + err.Error()}
	}
	pb, err := grounding.Ground(context.Background(), v.File, grounding.Limits{})
	if err != nil && slices.Contains(v.Applied, "pair-args") {
		opt.Ops = mutate.AllOps &^ mutate.PairArgs
		if v, err = mutate.Equivalent(f, seed, opt); err == nil {
			pb, err = grounding.Ground(context.Background(), v.File, grounding.Limits{})
		}
	}
	if err != nil {
		return &run{Verdict: "variant_not_grounded", Reason: firstLine(err.Error())}
	}
	t0, c0 := time.Now(), cpuMs()
	rep, err := equiv.ComparePrograms(context.Background(), p, pb, lim)
	out := &run{Ms: msSince(t0), CPUMs: cpuMs() - c0}
	if err != nil {
		out.Verdict, out.Reason = "error", firstLine(err.Error())
		return out
	}
	out.Verdict, out.Limit, out.Nodes, out.Candidates = string(rep.Verdict), rep.Limit, rep.Stats.SearchNodes, rep.Stats.Candidates
	if rep.Verdict != equiv.Equivalent {
		out.Reason = firstLine(rep.Reason)
	}
	return out
}

func limitName(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "Timeout"
	case strings.Contains(err.Error(), "limit"):
		return "limit"
	}
	return ""
}

// sortBySize orders paths by file size, smallest first (ties by path); a
// file that cannot be read sorts first and reports its error when run.
func sortBySize(dir string, paths []string) {
	size := make(map[string]int64, len(paths))
	for _, p := range paths {
		if st, err := os.Stat(filepath.Join(dir, p)); err == nil {
			size[p] = st.Size()
		}
	}
	slices.SortStableFunc(paths, func(a, b string) int {
		if size[a] != size[b] {
			return int(size[a] - size[b])
		}
		return strings.Compare(a, b)
	})
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// cpuMs is the user+sys CPU time of this process so far. Games run one at
// a time, so a difference is one comparison's CPU time, a figure that does
// not depend on the machine's load (a SAT solve cancelled at a time limit
// stops at once: satcheck interrupts it).
func cpuMs() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

func brief(r result) string {
	if !r.Grounds {
		return "does not ground: " + r.GroundErr
	}
	s := fmt.Sprintf("renamed %s, mutant %s", r.Renamed.short(), r.Mutant.short())
	if r.Symmetries != nil {
		s += ", symmetries " + r.Symmetries.short()
	}
	return s
}

func (x *run) short() string {
	if x == nil {
		return "-"
	}
	s := x.Verdict
	if x.Limit != "" {
		s += " (" + x.Limit + ")"
	}
	return fmt.Sprintf("%s %.0f ms (%.0f ms CPU) %d nodes %d cand", s, x.Ms, x.CPUMs, x.Nodes, x.Candidates)
}

func writeMarkdown(w io.Writer, rs []result, timeout time.Duration, seed int64) {
	fmt.Fprintf(w, "Time limit %v per comparison and per symmetry group; mutation seed %d.\n\n", timeout, seed)
	fmt.Fprintln(w, "| game | renamed: verdict, ms, CPU ms, nodes, candidates | full mutant: verdict, ms, CPU ms, nodes, candidates | symmetries: order, ms, CPU ms |")
	fmt.Fprintln(w, "|---|---|---|---|")
	counts := map[string]int{}
	for _, r := range rs {
		if !r.Grounds {
			counts["does not ground"]++
			continue
		}
		counts["grounds"]++
		cell := func(x *run, what string) string {
			if x == nil {
				return "-"
			}
			if x.Verdict != string(equiv.Equivalent) {
				counts[what+" "+x.Verdict+" "+x.Limit]++
			}
			v := x.Verdict
			if x.Limit != "" {
				v += " (" + x.Limit + ")"
			}
			return fmt.Sprintf("%s, %.0f, %.0f, %d, %d", v, x.Ms, x.CPUMs, x.Nodes, x.Candidates)
		}
		sym := "-"
		if s := r.Symmetries; s != nil {
			sym = fmt.Sprintf("%s, %.0f, %.0f", short(s.Verdict), s.Ms, s.CPUMs)
			if s.Verdict == "error" {
				counts["symmetries error "+s.Limit]++
				sym = fmt.Sprintf("error %s, %.0f, %.0f", s.Limit, s.Ms, s.CPUMs)
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", r.Game, cell(r.Renamed, "renamed"), cell(r.Mutant, "mutant"), sym)
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintln(w, "\nCounts:")
	for _, k := range keys {
		fmt.Fprintf(w, "- %s: %d\n", strings.TrimSpace(k), counts[k])
	}
}

// short writes a group order in full up to 24 digits.
func short(s string) string {
	if len(s) <= 24 {
		return s
	}
	return fmt.Sprintf("%s.%s×10^%d", s[:1], s[1:4], len(s)-1)
}
