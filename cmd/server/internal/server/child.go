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

	"github.com/gamequiv/gamequiv/service/worker"
)

// ChildCommand is the hidden first argument that makes the server's
// executable a comparison process (Config.WorkerProcess): it runs
// worker.ServeChild on fds 3 and 4 until the server closes them.
const ChildCommand = "__comparison-process"

// RunChild is the main function of a comparison process, with the
// arguments after ChildCommand; compare nil means equiv.Compare. It
// returns the exit code.
func RunChild(args []string, compare worker.CompareFunc) int {
	fs := flag.NewFlagSet(ChildCommand, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	nice := fs.Int("nice", 0, "")
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
			fmt.Fprintf(os.Stderr, "%s: --worker-nice %d: %v\n", ChildCommand, *nice, err)
			return 1
		}
	}
	in, out := os.NewFile(3, "requests"), os.NewFile(4, "responses")
	if err := worker.ServeChild(context.Background(), in, out, compare); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", ChildCommand, err)
		return 1
	}
	return 0
}

// newProcs returns the comparison processes of cfg, not started: the
// running executable re-executed with ChildCommand.
func newProcs(cfg Config) (*worker.Procs, error) {
	exe := "/proc/self/exe" // the running binary even if its file was replaced
	if runtime.GOOS != "linux" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("comparison processes: %w", err)
		}
	}
	var env []string
	if cfg.GCPercent > 0 {
		env = append(env, "GOGC="+strconv.Itoa(cfg.GCPercent))
	}
	maxRSS := cfg.MaxRSS()
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
		Args:   []string{ChildCommand, "-nice", strconv.Itoa(cfg.WorkerNice)},
		Env:    env,
		Size:   cfg.Workers,
		MaxRSS: maxRSS,
	}, nil
}
