// Command symmetries measures issue #11's symmetry target over the game
// corpus: for every game that grounds under the default limits, it runs
// equiv.ProgramSymmetries in-process with a time limit and records the
// group order, the ground graph's group order, the generators, the
// candidates verified, the subgroup search nodes and the time, or the
// failure and the phase it happened in, with its wall and CPU time (the
// CPU time does not depend on the machine's load). Games run one at a time, smallest
// file first, so a run cut short (-budget) is a sample of all the small
// games and as many large ones as fit.
//
//	go run ./bench/symmetries -timeout 60s -budget 40m -out /tmp/sym.tsv > /tmp/sym.md
//
// -only restricts the games by a regular expression on their path.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
	"github.com/gamequiv/gamequiv/isomorph"
)

// result is one game's row.
type result struct {
	Game       string
	Bytes      int64
	GroundErr  string // the game does not ground under the default limits
	Order      string
	GraphOrder string
	Generators int
	Candidates int64
	Nodes      int64
	Ms         float64
	CPUMs      float64 // user+sys of the whole process meanwhile
	Phase      string  // the phase that failed, "" on success
	Err        string
}

// hardGrace is how long past its time limit a game may run before the
// command moves on without it (a phase that does not check its context).
const hardGrace = 30 * time.Second

func main() {
	timeout := flag.Duration("timeout", 60*time.Second, "time limit of each game, grounding included")
	budget := flag.Duration("budget", 0, "stop starting new games after this long (0: run all)")
	only := flag.String("only", "", "regular expression: run only the games whose path matches")
	out := flag.String("out", "", "TSV file to append one row per game to, as it goes")
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
	type game struct {
		rel  string
		size int64
	}
	var games []game
	for _, rel := range testgames.Files(dir, []string{"ggp-base-repo", "ggp-base"}, re) {
		if st, err := os.Stat(filepath.Join(dir, rel)); err == nil {
			games = append(games, game{rel, st.Size()})
		}
	}
	sort.SliceStable(games, func(i, j int) bool { return games[i].size < games[j].size })
	var tw io.Writer = io.Discard
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		tw = f
	}
	start := time.Now()
	var results []result
	skipped := 0
	for i, g := range games {
		if *budget > 0 && time.Since(start) > *budget {
			skipped = len(games) - i
			break
		}
		r := measure(filepath.Join(dir, g.rel), g.rel, *timeout)
		r.Bytes = g.size
		results = append(results, r)
		fmt.Fprintln(tw, strings.Join([]string{r.Game, fmt.Sprint(r.Bytes), r.Order, r.GraphOrder,
			fmt.Sprint(r.Generators), fmt.Sprint(r.Candidates), fmt.Sprint(r.Nodes),
			fmt.Sprintf("%.0f", r.Ms), r.Phase, oneLine(r.Err + r.GroundErr), fmt.Sprintf("%.0f", r.CPUMs)}, "\t"))
		log.Printf("%d/%d %s: order %s graph %s gens %d cand %d nodes %d %.0f ms (%.0f ms CPU) %s %s",
			i+1, len(games), r.Game, r.Order, r.GraphOrder, r.Generators, r.Candidates, r.Nodes, r.Ms, r.CPUMs, r.Phase, oneLine(r.Err+r.GroundErr))
	}
	writeMarkdown(os.Stdout, results, skipped, *timeout)
}

func measure(file, name string, timeout time.Duration) result {
	r := result{Game: name}
	src, err := os.ReadFile(file)
	if err != nil {
		r.GroundErr = err.Error()
		return r
	}
	t0, c0 := time.Now(), cpuMs()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	p, err := grounding.Load(ctx, name, src, grounding.Limits{})
	if err != nil {
		r.GroundErr = err.Error()
		r.Ms, r.CPUMs = msSince(t0), cpuMs()-c0
		return r
	}
	type answer struct {
		rep *equiv.SymmetryReport
		err error
	}
	done := make(chan answer, 1)
	go func() {
		rep, err := equiv.ProgramSymmetries(ctx, p, equiv.Limits{Timeout: timeout})
		done <- answer{rep, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-time.After(timeout + hardGrace):
		a.err = fmt.Errorf("no answer %v after the time limit: the phase does not check its context", hardGrace)
	}
	r.Ms, r.CPUMs = msSince(t0), cpuMs()-c0
	if a.err != nil {
		r.Phase, r.Err = phase(a.err), a.err.Error()
		return r
	}
	r.Order, r.GraphOrder = a.rep.Order, a.rep.GraphOrder
	r.Generators, r.Candidates, r.Nodes = len(a.rep.Generators), a.rep.Candidates, a.rep.SearchNodes
	return r
}

// phase names the part of ProgramSymmetries an error came from, by the
// prefixes it wraps its errors with, and the limit that was hit.
func phase(err error) string {
	msg := err.Error()
	var p string
	switch {
	case strings.HasPrefix(msg, "ground graph"):
		p = "graph"
	case strings.HasPrefix(msg, "automorphisms"):
		p = "automorphisms"
	case strings.HasPrefix(msg, "verifier"), strings.HasPrefix(msg, "verify"):
		p = "verify"
	case strings.HasPrefix(msg, "symmetries among"):
		p = "subgroup"
	default:
		p = "other"
	}
	var le *isomorph.LimitError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return p + ": timeout"
	case errors.As(err, &le):
		return p + ": " + le.What
	}
	return p
}

func writeMarkdown(w io.Writer, results []result, skipped int, timeout time.Duration) {
	ok, noGround := 0, 0
	fails := map[string]int{}
	for _, r := range results {
		switch {
		case r.GroundErr != "":
			noGround++
		case r.Err != "":
			fails[r.Phase]++
		default:
			ok++
		}
	}
	fmt.Fprintf(w, "%d games run (smallest file first; %d not reached), %d do not ground, %d exact groups within %v",
		len(results), skipped, noGround, ok, timeout)
	var causes []string
	for p, n := range fails {
		causes = append(causes, fmt.Sprintf("%s %d", p, n))
	}
	sort.Strings(causes)
	if len(causes) > 0 {
		fmt.Fprintf(w, "; failures: %s", strings.Join(causes, ", "))
	}
	fmt.Fprint(w, ".\n\n| game | order | graph order | generators | candidates | search nodes | ms | CPU ms | failure |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		if r.GroundErr != "" {
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %d | %d | %.0f | %.0f | %s |\n", r.Game, short(r.Order), short(r.GraphOrder),
			r.Generators, r.Candidates, r.Nodes, r.Ms, r.CPUMs, r.Phase)
	}
	if noGround > 0 {
		fmt.Fprint(w, "\nNot grounding under the default limits:")
		for _, r := range results {
			if r.GroundErr != "" {
				fmt.Fprintf(w, " %s", r.Game)
			}
		}
		fmt.Fprintln(w)
	}
}

// short writes a long decimal as its leading digits and exponent.
func short(s string) string {
	if len(s) <= 12 {
		return s
	}
	return fmt.Sprintf("%s.%s×10^%d", s[:1], s[1:3], len(s)-1)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\t", " ")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// cpuMs is the user+sys CPU time of this process so far. Games run one at
// a time, so a difference is one game's CPU time, a figure that does not
// depend on the machine's load (work abandoned at a time limit may still
// run into the next game's).
func cpuMs() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}
