package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
)

func init() {
	register("classify", "group games (files, or directories searched for *.kif) into equivalence classes", runClassify)
}

// runClassify classifies the games and prints the classes found, then the
// games left undecided with their reason; stopped by a signal or -timeout
// it prints what it found so far. Progress goes to stderr, a line a game.
func runClassify(ctx context.Context, args []string, io stdio) int {
	fset := newFlags("classify", "FILES_OR_DIRS...", io)
	asJSON := fset.Bool("json", false, "print JSON")
	quiet := fset.Bool("quiet", false, "no progress lines on stderr")
	timeout := fset.Duration("timeout", 0, "limit on the whole classification; when reached, print the classes found so far and the games left undecided (0: none)")
	var opt equiv.ClassifyOptions
	fset.DurationVar(&opt.GameTimeout, "game-timeout", equiv.DefaultGameTimeout, "budget of one game's analysis (GameTimeout): grounding, and its ground graph and certificate when another game shares its counts; past it the game is undecided")
	fset.DurationVar(&opt.CompareTimeout, "compare-timeout", equiv.DefaultCompareTimeout, "budget of one comparison with a class representative (CompareTimeout); past it the game keeps a class of its own and is listed as undecided")
	fset.IntVar(&opt.Workers, "workers", 0, "games analysed and placed at once (0: the number of CPUs)")
	fset.Int64Var(&opt.Limits.MaxCandidates, "max-candidates", equiv.DefaultMaxCandidates, "limit on complete candidate mappings verified per comparison (MaxCandidates)")
	ground := groundFlags(fset)
	args0, code, ok := parseArgs(fset, args, 1, -1)
	if !ok {
		return code
	}
	opt.Limits.Ground = *ground
	paths, err := gameFiles(args0)
	if err != nil {
		return fail(io, err)
	}
	srcs := make([]equiv.Source, len(paths))
	for i, p := range paths {
		s, err := readSource(p)
		if err != nil {
			return fail(io, err)
		}
		srcs[i] = s
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	if !*quiet {
		opt.Progress = func(p equiv.ClassifyProgress) {
			line := fmt.Sprintf("[%*d/%d %6.1fs] %s: ", len(fmt.Sprint(p.Total)), p.Done, p.Total, p.Elapsed.Seconds(), paths[p.Game])
			switch p.Outcome {
			case "joined":
				line += fmt.Sprintf("equivalent to %s (%d comparisons)", paths[p.Class], p.Comparisons)
			case "opened":
				line += fmt.Sprintf("new class (%d comparisons)", p.Comparisons)
			default:
				line += "undecided: " + oneLine(p.Reason)
			}
			if p.Outcome != "undecided" && p.Reason != "" {
				line += "; unresolved: " + oneLine(p.Reason)
			}
			fmt.Fprintln(io.err, line)
		}
	}
	start := time.Now()
	res := equiv.Classify(ctx, srcs, opt)
	status := exitOK
	if res.Stopped != "" || len(res.Undecided) > 0 {
		status = exitLimit
	}
	classes := make([][]string, len(res.Classes))
	for c, members := range res.Classes {
		for _, i := range members {
			classes[c] = append(classes[c], paths[i])
		}
	}
	type undecided struct {
		File   string `json:"file"`
		Class  int    `json:"class"` // index into classes, -1 for none
		Limit  string `json:"limit"`
		Reason string `json:"reason"`
	}
	und := make([]undecided, len(res.Undecided))
	for k, u := range res.Undecided {
		und[k] = undecided{File: paths[u.Game], Class: u.Class, Limit: u.Limit, Reason: u.Reason}
	}
	if *asJSON {
		if c := writeJSON(io, map[string]any{"classes": classes, "undecided": und, "comparisons": res.Comparisons,
			"stopped": res.Stopped, "ms": ms(time.Since(start))}); c != exitOK {
			return c
		}
		return status
	}
	nontrivial := 0
	for _, c := range classes {
		if len(c) > 1 {
			nontrivial++
		}
	}
	if res.Stopped != "" {
		fmt.Fprintf(io.out, "stopped (%s): the classes found so far\n", res.Stopped)
	}
	fmt.Fprintf(io.out, "%d games: %d classes (%d with more than one game), %d undecided, %d comparisons, %.1fs\n",
		len(paths), len(classes), nontrivial, len(und), res.Comparisons, time.Since(start).Seconds())
	// Classes of several games first: they are the news.
	order := make([]int, len(classes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(classes[b]) - len(classes[a]) })
	for _, c := range order {
		fmt.Fprintf(io.out, "class %d (%d): %s\n", c+1, len(classes[c]), strings.Join(classes[c], " "))
	}
	if len(und) > 0 {
		fmt.Fprintln(io.out, "undecided:")
		for _, u := range und {
			where := "no class"
			if u.Class >= 0 {
				where = fmt.Sprintf("in class %d", u.Class+1)
			}
			fmt.Fprintf(io.out, "  %s (%s) [%s]: %s\n", u.File, where, u.Limit, oneLine(u.Reason))
		}
	}
	return status
}

// gameFiles expands the arguments: a file stays, a directory gives every
// *.kif file below it, in lexical order.
func gameFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".kif") {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list games in %s: %w", a, err)
		}
	}
	return out, nil
}

// oneLine keeps the first line of a reason (a list of GDL errors has one
// per line) and says how many more there are; --json has them all.
func oneLine(s string) string {
	first, rest, ok := strings.Cut(strings.TrimRight(s, "\n"), "\n")
	if !ok {
		return first
	}
	return fmt.Sprintf("%s (and %d more lines)", first, strings.Count(rest, "\n")+1)
}
