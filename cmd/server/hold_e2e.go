//go:build gamequiv_e2e

package main

import (
	"context"
	"os"
	"sync/atomic"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/service/worker"
)

// HoldPhaseEnv names the phase at which every comparison stops and waits
// until it is cancelled or the process dies. Only binaries built with
// -tags gamequiv_e2e read it: the crash test uses it to kill the server in
// the middle of a comparison however fast the engine has become.
// Production builds ignore it (hold_prod.go).
const HoldPhaseEnv = "GAMEQUIV_E2E_HOLD_PHASE"

// HoldDeafEnv, set to 1, makes the hold ignore the cancellation too, as a
// phase that never looks at its context would: only killing the process
// ends it.
const HoldDeafEnv = "GAMEQUIV_E2E_HOLD_DEAF"

// testCompare returns a Compare that holds at $GAMEQUIV_E2E_HOLD_PHASE, or
// nil (equiv.Compare) when it is unset.
func testCompare() worker.CompareFunc {
	phase := os.Getenv(HoldPhaseEnv)
	if phase == "" {
		return nil
	}
	deaf := os.Getenv(HoldDeafEnv) == "1"
	return func(ctx context.Context, a, b equiv.Source, lim equiv.Limits) (*equiv.Report, error) {
		report := lim.Progress
		var held atomic.Bool
		lim.Progress = func(p equiv.Progress) {
			if report != nil {
				report(p)
			}
			if p.Phase == phase {
				held.Store(true)
				if deaf {
					select {} // until the process is killed
				}
				<-ctx.Done()
			}
		}
		rep, err := equiv.Compare(ctx, a, b, lim)
		if held.Load() && ctx.Err() != nil {
			// A held comparison ends by its cancellation, as a phase that
			// notices it would, even when the hold was reached only after
			// the phase's last step (verify reports its last function
			// proven) and Compare finished with a verdict.
			return nil, context.Cause(ctx)
		}
		return rep, err
	}
}
