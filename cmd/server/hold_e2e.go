//go:build gamequiv_e2e

package main

import (
	"context"
	"os"

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
		lim.Progress = func(p equiv.Progress) {
			if report != nil {
				report(p)
			}
			if p.Phase == phase {
				if deaf {
					select {} // until the process is killed
				}
				<-ctx.Done() // the worker gets the cancellation as from any phase
			}
		}
		return equiv.Compare(ctx, a, b, lim)
	}
}
