//go:build unix

package grounding_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
)

// groundBenchGames are the games of BenchmarkGround, relative to corpusDir
// (those under testdata/ to this package). The slow ones are the five slowest corpus games that ground under the
// default limits (from the TestCorpus table); -short skips them.
var groundBenchGames = []struct {
	path string
	slow bool
}{
	{"ggp-base-repo/ticTacToe.kif", false},   // target: under 5 ms
	{"ggp-base-repo/connectFour.kif", false}, // target: under 50 ms
	{"ggp-base/breakthrough.kif", false},
	{"ggp-base/sum15.kif", false},
	{"testdata/connect4-10x9-rewritten.kif", false},
	{"ggp-base/crissrace.kif", true},
	{"ggp-base/crisscross.kif", true},
	{"ggp-base/chinesecheckers6.kif", true},
	{"ggp-base/chineseCheckers6p.kif", true},
	{"ggp-base/attritionWar.kif", true},
}

// BenchmarkGround measures Load (parse and ground) of corpus games under the
// default limits, and reports the size of the result. Besides wall time
// (ms/op) it reports the process CPU time per op (cpu-ms/op, all threads
// including the GC), which is the steadier figure on a shared machine.
func BenchmarkGround(b *testing.B) {
	for _, g := range groundBenchGames {
		name := strings.TrimSuffix(filepath.Base(g.path), ".kif")
		b.Run(name, func(b *testing.B) {
			if g.slow && testing.Short() {
				b.Skip("slow game; skipped under -short")
			}
			dir := corpusDir
			if strings.HasPrefix(g.path, "testdata/") {
				dir = "."
			}
			src, err := os.ReadFile(filepath.Join(dir, g.path))
			if err != nil {
				b.Skipf("game corpus not available: %v", err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			var p *grounding.Program
			cpu0 := processCPU()
			for b.Loop() {
				p, err = grounding.Load(ctx, filepath.Base(g.path), src, grounding.Limits{})
				if err != nil {
					b.Fatalf("Load(%q) = %v, want a program", g.path, err)
				}
			}
			cpu := processCPU() - cpu0
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(len(p.Props)), "props")
			b.ReportMetric(float64(p.Circuit.NumNodes()), "nodes")
		})
	}
}

// processCPU is the user plus system CPU time of this process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
