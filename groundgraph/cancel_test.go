package groundgraph_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
)

// cancelBound is how soon Build must return once its context is cancelled:
// the issue asks for 1 s of overrun at most, and a loaded test machine gets
// twice that.
const cancelBound = 2 * time.Second

// TestBuildCancel cancels Build in the middle of the graph phase of games
// whose graph takes far longer than the test (kalaha_2009: hundreds of SAT
// questions in its semantic supports; othello-comp2007: big corner
// searches) and checks that it returns the context's error promptly. It
// tests that cancellation is checked often enough, not how fast Build is.
func TestBuildCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("grounds big games")
	}
	for _, tc := range []struct {
		game  string
		after time.Duration
	}{
		{"ggp-base/kalaha_2009.kif", 3 * time.Second},
		{"ggp-base/othello-comp2007.kif", 1 * time.Second},
		{"ggp-base/othello-comp2007.kif", 15 * time.Second},
	} {
		t.Run(tc.game, func(t *testing.T) {
			p := mustLoad(t, tc.game)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type result struct {
				err error
				at  time.Time
			}
			done := make(chan result, 1)
			go func() {
				_, err := groundgraph.Build(ctx, p, groundgraph.Options{})
				done <- result{err, time.Now()}
			}()
			select {
			case r := <-done:
				t.Skipf("Build finished in under %v (err %v): nothing to cancel", tc.after, r.err)
			case <-time.After(tc.after):
			}
			cancel()
			cancelled := time.Now()
			select {
			case r := <-done:
				if !errors.Is(r.err, context.Canceled) {
					t.Errorf("Build after cancel = %v, want context.Canceled", r.err)
				}
				t.Logf("returned %v after cancel", r.at.Sub(cancelled))
			case <-time.After(cancelBound):
				t.Fatalf("Build still running %v after cancel", cancelBound)
			}
		})
	}
}
