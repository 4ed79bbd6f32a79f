package equiv_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/mutate"
	"github.com/gamequiv/gamequiv/satcheck"
)

// cancelBound is how soon a cancelled comparison, symmetry computation or
// classification must return (issue 15 point 5).
const cancelBound = time.Second

// phaseClock records the phases a call reports, with the time each began.
type phaseClock struct {
	mu    sync.Mutex
	cur   string
	since time.Time
	seen  []string
}

func (c *phaseClock) report(phase string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if phase != c.cur {
		c.cur, c.since = phase, time.Now()
		c.seen = append(c.seen, fmt.Sprintf("%s@%s", phase, c.since.Format("15:04:05.000")))
	}
}

// in reports whether the call is in phase and has been for at least d.
func (c *phaseClock) in(phase string, d time.Duration) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cur == phase && time.Since(c.since) >= d
}

func (c *phaseClock) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.seen, " ")
}

// renamed is src with every symbol renamed (mutate seed 1): the same game,
// so a comparison with it goes through every phase.
func renamed(tb testing.TB, src equiv.Source, ops mutate.Op) equiv.Source {
	tb.Helper()
	f, err := grounding.Parse(src.Name, src.GDL)
	if err != nil {
		tb.Fatal(err)
	}
	v, err := mutate.Equivalent(f, 1, mutate.Options{Ops: ops})
	if err != nil {
		tb.Fatal(err)
	}
	return equiv.Source{Name: src.Name + "-renamed", GDL: []byte(v.File.String())}
}

// cancelTests start a call heavy in one phase. The games were picked by
// measuring where their time goes (the phase timeline is logged): each
// spends many seconds in its phase, far longer than into. run reports
// phases through progress and returns the call's error.
var cancelTests = []struct {
	name  string
	phase string        // the phase to cancel in
	into  time.Duration // how long into the phase to cancel
	run   func(t *testing.T, ctx context.Context, progress func(string)) error
}{
	{
		// chess grounds for over 30 s (10 s of CPU) before a limit stops it.
		name: "ground/chess", phase: "ground", into: 2 * time.Second,
		run: func(t *testing.T, ctx context.Context, progress func(string)) error {
			a := source(t, "ggp-base/chess.kif")
			_, err := equiv.Compare(ctx, a, a, equiv.Limits{Timeout: time.Hour, Progress: phaseOf(progress)})
			return err
		},
	},
	{
		// kalaha_2009's graph asks hundreds of SAT questions for its
		// semantic supports.
		name: "graph/kalaha_2009", phase: "graph", into: 2 * time.Second,
		run: func(t *testing.T, ctx context.Context, progress func(string)) error {
			a := source(t, "ggp-base/kalaha_2009.kif")
			_, err := equiv.Compare(ctx, a, renamed(t, a, mutate.RenameSymbols), equiv.Limits{Timeout: time.Hour, Progress: phaseOf(progress)})
			return err
		},
	},
	{
		// Without corner breakers and pair types the factoring puzzle's
		// renamed copy searches with early checks
		// (TestUnknownNamesPruningFunction) until the node limit; with
		// pair types it is equivalent after half a second.
		name: "search/factoringTheTurk", phase: "search", into: time.Second,
		run: func(t *testing.T, ctx context.Context, progress func(string)) error {
			a := source(t, "ggp-base/factoringTheTurk.kif")
			_, err := equiv.Compare(ctx, a, renamed(t, a, mutate.RenameSymbols), equiv.Limits{
				Timeout: time.Hour, Progress: phaseOf(progress), NoPairCheck: true,
				Graph:  groundgraph.Options{MaxCornerWeight: -1},
				Search: isomorph.Limits{MaxNodes: 1 << 30},
			})
			return err
		},
	},
	{
		// Without chunked tables and BDDs, ad_game_2x2's generators take
		// gophersat seconds each (sweep proofs of 781-2,053 gates over 20
		// inputs); with either its group is verified in under 2 s.
		name: "verify/ad_game_2x2", phase: "verify", into: 2 * time.Second,
		run: func(t *testing.T, ctx context.Context, progress func(string)) error {
			a := source(t, "ggp-base/ad_game_2x2.kif")
			_, err := equiv.Symmetries(ctx, a, equiv.Limits{Timeout: time.Hour, Progress: phaseOf(progress), SAT: satcheck.Options{TableWork: -1, Mode: satcheck.NoBDD}})
			return err
		},
	},
	{
		// queens' graph group without plays (9.3×10^157) is searched for
		// the game's symmetries for over a minute (the board's rotations
		// are hard to verify). With plays the graph group is the game's 8
		// and the search phase ends at once.
		name: "symmetries/queens", phase: "search", into: 2 * time.Second,
		run: func(t *testing.T, ctx context.Context, progress func(string)) error {
			a := source(t, "ggp-base/queens.kif")
			_, err := equiv.Symmetries(ctx, a, equiv.Limits{Timeout: time.Hour, Progress: phaseOf(progress), Graph: groundgraph.Options{MaxJointMoves: -1}})
			return err
		},
	},
	{
		// Classify analyses kalaha_2009 first (its graph takes many
		// seconds, see above) and would then compare its renamed copy with
		// it; the cancel lands in the analysis.
		name: "classify/kalaha_2009", phase: "classify", into: 3 * time.Second,
		run: func(t *testing.T, ctx context.Context, progress func(string)) error {
			a := source(t, "ggp-base/kalaha_2009.kif")
			srcs := []equiv.Source{a, renamed(t, a, mutate.RenameSymbols)}
			progress("classify")
			got := equiv.Classify(ctx, srcs, equiv.ClassifyOptions{Workers: 1, GameTimeout: time.Hour, CompareTimeout: time.Hour})
			if got.Stopped == "" {
				return nil
			}
			return fmt.Errorf("classification stopped: %s: %w", got.Stopped, context.Cause(ctx))
		},
	},
}

func phaseOf(progress func(string)) func(equiv.Progress) {
	return func(p equiv.Progress) { progress(p.Phase) }
}

// TestCancelEachPhase cancels a call in the middle of each phase and
// checks that it returns the context's error within cancelBound. It tests
// that every phase checks its context often enough, not how fast it is.
func TestCancelEachPhase(t *testing.T) {
	if testing.Short() {
		t.Skip("runs heavy games")
	}
	for _, tc := range cancelTests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var clock phaseClock
			type result struct {
				err error
				at  time.Time
			}
			done := make(chan result, 1)
			go func() {
				err := tc.run(t, ctx, clock.report)
				done <- result{err, time.Now()}
			}()
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			// A call that never reaches its phase (the game got faster
			// there) fails here instead of hanging the package.
			never := time.After(5 * time.Minute)
		wait:
			for {
				select {
				case r := <-done:
					t.Fatalf("returned (err %v) before %v into phase %s; phases %s", r.err, tc.into, tc.phase, &clock)
				case <-never:
					t.Fatalf("not %v into phase %s after 5 minutes; phases %s", tc.into, tc.phase, &clock)
				case <-tick.C:
					if clock.in(tc.phase, tc.into) {
						break wait
					}
				}
			}
			cancel()
			cancelled := time.Now()
			select {
			case r := <-done:
				took := r.at.Sub(cancelled)
				t.Logf("returned %v after cancel; phases %s", took, &clock)
				if !errors.Is(r.err, context.Canceled) {
					t.Errorf("after cancel err = %v, want context.Canceled", r.err)
				}
				if took > cancelBound {
					t.Errorf("returned %v after cancel in phase %s, want at most %v", took, tc.phase, cancelBound)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("still running 30 s after cancel in phase %s; phases %s", tc.phase, &clock)
			}
		})
	}
}
