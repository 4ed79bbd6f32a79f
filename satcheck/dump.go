package satcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/crillab/gophersat/solver"
)

// Debug dump of slow SAT questions. With GAMEQUIV_SAT_DUMP set to a
// directory, every CNF handed to the SAT solver is written there as DIMACS
// before it is solved (NNNNNN.cnf, numbered in process order); when the solve
// finishes in less than GAMEQUIV_SAT_DUMP_MIN_MS milliseconds (default
// DefaultDumpMinMs) the file is removed again, so only the slow questions
// stay, each listed in index.txt with its size, answer and solve time. A
// solve still running when the process exits leaves its file without an
// index line. The dump changes no answer; it exists to cross-check and time
// the formulas with external solvers (kissat, CaDiCaL).
const (
	DumpDirEnv       = "GAMEQUIV_SAT_DUMP"
	DumpMinMsEnv     = "GAMEQUIV_SAT_DUMP_MIN_MS"
	DefaultDumpMinMs = 1000
)

var dumpSeq atomic.Int64

// dumper is the dump of one CNF; a nil *dumper does nothing.
type dumper struct {
	path  string
	minMs int64
	start time.Time
	f     *cnf
	what  string
}

// startDump writes f when the dump is enabled. what describes the question.
func startDump(f *cnf, what string) *dumper {
	dir := os.Getenv(DumpDirEnv)
	if dir == "" {
		return nil
	}
	minMs := int64(DefaultDumpMinMs)
	if s := os.Getenv(DumpMinMsEnv); s != "" {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil && v >= 0 {
			minMs = v
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil
	}
	path := filepath.Join(dir, fmt.Sprintf("%06d.cnf", dumpSeq.Add(1)))
	out, err := os.Create(path)
	if err != nil {
		return nil
	}
	werr := f.writeDIMACS(out, []string{"gamequiv satcheck dump: " + what})
	if cerr := out.Close(); werr != nil || cerr != nil {
		os.Remove(path)
		return nil
	}
	return &dumper{path: path, minMs: minMs, start: time.Now(), f: f, what: what}
}

// finish removes the file of a fast solve, or indexes a slow one with its
// answer st (SAT, UNSAT, or INDETERMINATE when interrupted).
func (d *dumper) finish(st solver.Status) {
	if d == nil {
		return
	}
	el := time.Since(d.start)
	if el.Milliseconds() < d.minMs {
		os.Remove(d.path)
		return
	}
	line := fmt.Sprintf("%s\tvars %d\tclauses %d\t%s\t%.3fs\t%s\n", filepath.Base(d.path), d.f.nvars, len(d.f.clauses), st, el.Seconds(), d.what)
	idx, err := os.OpenFile(filepath.Join(filepath.Dir(d.path), "index.txt"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	idx.WriteString(line)
	idx.Close()
}
