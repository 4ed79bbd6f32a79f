package server

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"

	"github.com/gamequiv/gamequiv/service"
	"github.com/gamequiv/gamequiv/service/worker"
)

// ChildCommand is the hidden first argument that makes the server's
// executable a child process (Config.WorkerProcess): a comparison
// process, or one that grounds uploads and computes symmetries. It runs
// worker.ServeChild on fds 3 and 4 until the server closes them.
const ChildCommand = "__comparison-process"

// RunChild is the main function of a child process, with the arguments
// after ChildCommand; compare nil means equiv.Compare. It returns the
// exit code.
func RunChild(args []string, compare worker.CompareFunc) int {
	fs := flag.NewFlagSet(ChildCommand, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	nice := fs.Int("nice", 0, "")
	// kind only names the process (in ps and in its error messages).
	kind := fs.String("kind", "comparison", "")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", ChildCommand, err)
		return 2
	}
	// The server stops its children by closing their requests pipe (and
	// gives their jobs back to the queue); a terminal's ^C to the whole
	// process group must not kill them first.
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	if *nice > 0 {
		if err := renice(*nice); err != nil {
			fmt.Fprintf(os.Stderr, "%s %s: nice %d: %v\n", ChildCommand, *kind, *nice, err)
			return 1
		}
	}
	in, out := os.NewFile(3, "requests"), os.NewFile(4, "responses")
	f := worker.ChildFuncs{Compare: compare, Ground: service.GroundStats}
	if err := worker.ServeChild(context.Background(), in, out, f); err != nil {
		fmt.Fprintf(os.Stderr, "%s %s: %v\n", ChildCommand, *kind, err)
		return 1
	}
	return 0
}

// newProcs returns the comparison processes of cfg, not started: the
// running executable re-executed with ChildCommand.
func newProcs(cfg Config) (*worker.Procs, error) {
	return childProcs(cfg, "comparison", cfg.GCPercent, cfg.Workers, cfg.WorkerNice, cfg.MaxRSS())
}

// newHeavyProcs returns the processes that ground uploads and compute
// symmetries, one per heavy slot, not started. They run at the server's
// priority (a client waits for their answer) and with Go's default GOGC,
// not the server's: their memory is what is bounded (grounding
// amazonsSuicide peaked at 511 MiB with GOGC 400, 308 MiB with 100).
func newHeavyProcs(cfg Config) (*worker.Procs, error) {
	p, err := childProcs(cfg, "heavy", 0, cfg.MaxHeavy, 0, cfg.HeavyMaxRSS)
	if err != nil {
		return nil, err
	}
	p.What, p.Setting = "heavy work process", "heavy-max-rss"
	return p, nil
}

// childProcs returns size child processes of a kind at nice steps below
// the server with GOGC gcPercent (0: the runtime's), each bounded to
// maxRSS bytes (0: none).
func childProcs(cfg Config, kind string, gcPercent, size, nice int, maxRSS int64) (*worker.Procs, error) {
	exe := "/proc/self/exe" // the running binary even if its file was replaced
	if runtime.GOOS != "linux" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("child processes: %w", err)
		}
	}
	var env []string
	if gcPercent > 0 {
		env = append(env, "GOGC="+strconv.Itoa(gcPercent))
	}
	// The child's collector works to stay under the server's memory limit
	// and under its bound, before the parent kills it there.
	soft := cfg.MemoryLimit
	if b := maxRSS / 10 * 9; b > 0 && (soft <= 0 || b < soft) {
		soft = b
	}
	if soft > 0 {
		env = append(env, "GOMEMLIMIT="+strconv.FormatInt(soft, 10))
	}
	return &worker.Procs{
		Path:   exe,
		Args:   []string{ChildCommand, "-kind", kind, "-nice", strconv.Itoa(nice)},
		Env:    env,
		Size:   size,
		MaxRSS: maxRSS,
	}, nil
}
