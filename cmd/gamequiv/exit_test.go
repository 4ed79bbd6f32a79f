package main

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestExitCode checks the documented exit statuses: every limit (grounding,
// graph search, SAT size, time) is 3, wrapped or not.
func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, exitOK},
		{"grounding limit", fmt.Errorf("ground x: %w", grounding.ErrLimit), exitLimit},
		{"search limit", fmt.Errorf("automorphisms: %w", &isomorph.LimitError{What: "search nodes", Limit: 1, Got: 2}), exitLimit},
		{"generator limit", &isomorph.LimitError{What: "generator words", Limit: 1, Got: 2}, exitLimit},
		{"SAT limit", fmt.Errorf("verify: %w", &satcheck.LimitError{What: "MaxClauses", Limit: 1, Got: 2}), exitLimit},
		{"timeout", fmt.Errorf("compare: %w", context.DeadlineExceeded), exitLimit},
		{"invalid input", fmt.Errorf("moves: %w", errInvalidInput), exitInvalid},
		{"other", errors.New("disk on fire"), exitOther},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("%s: exitCode(%v) = %d, want %d", tc.name, tc.err, got, tc.want)
		}
	}
}
