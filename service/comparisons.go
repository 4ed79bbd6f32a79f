package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/gamequiv/gamequiv"
)

// sides names the two sides of a comparison request.
var sides = [2]string{"a", "b"}

// checkComparison checks a request before anything is stored: both sides
// given, inline games valid, limits not negative. It returns the inline
// uploads checked (nil for a stored game).
func checkComparison(req *gamequiv.ComparisonRequest) ([2]*upload, error) {
	var ups [2]*upload
	for i, ref := range []gamequiv.GameRef{req.A, req.B} {
		side := sides[i]
		switch {
		case ref.Inline != nil:
			up, err := checkUpload(side+".", *ref.Inline)
			if err != nil {
				return ups, &gamequiv.SideError{Side: side, Err: err}
			}
			ups[i] = &up
		case ref.ID <= 0:
			return ups, &gamequiv.SideError{Side: side, Err: gamequiv.Errorf(gamequiv.EINVALID, "%s: required", side)}
		}
	}
	if l := req.Limits; l != nil && (l.TimeoutMs < 0 || l.MaxCandidates < 0) {
		return ups, gamequiv.Errorf(gamequiv.EINVALID, "limits: must not be negative")
	}
	return ups, nil
}

// Submit checks a request, stores its inline games, checks the queue and
// queues the comparison, or returns the one submitted before.
func (s *Service) Submit(ctx context.Context, req gamequiv.ComparisonRequest) (*gamequiv.Comparison, bool, error) {
	ups, err := checkComparison(&req)
	if err != nil {
		return nil, false, err
	}
	ids := [2]int64{req.A.ID, req.B.ID}
	for i, up := range ups {
		if up == nil {
			continue
		}
		a, err := s.add(ctx, *up)
		if err != nil {
			return nil, false, &gamequiv.SideError{Side: sides[i], Err: fmt.Errorf("game %s: %w", sides[i], err)}
		}
		ids[i] = a.Game.ID
	}
	if s.limits.MaxQueue > 0 {
		n, err := s.store.QueueDepth(ctx)
		if err != nil {
			return nil, false, err
		}
		if n >= s.limits.MaxQueue {
			return nil, false, &gamequiv.Error{
				Code:       gamequiv.EQUEUEFULL,
				Message:    fmt.Sprintf("%d comparisons are queued (the limit is %d); retry later", n, s.limits.MaxQueue),
				RetryAfter: s.limits.QueueRetryAfter,
			}
		}
	}
	var limits json.RawMessage
	if req.Limits != nil {
		b, err := json.Marshal(req.Limits)
		if err != nil {
			return nil, false, fmt.Errorf("comparison limits: %w", err)
		}
		limits = b
	}
	cmp, created, err := s.store.CreateComparison(ctx, ids[0], ids[1], limits)
	if errors.Is(err, gamequiv.ErrNotFound) {
		return nil, false, &gamequiv.Error{Code: gamequiv.ENOTFOUND, Message: fmt.Sprintf("game %d or %d does not exist", ids[0], ids[1]), Err: err}
	}
	return cmp, created, err
}

// Cancel cancels a queued comparison at once, or asks the worker of a
// running one to stop; with access control only its owner or an admin
// may (the storage checks).
func (s *Service) Cancel(ctx context.Context, id int64) (*gamequiv.Comparison, error) {
	cmp, err := s.store.Cancel(ctx, id)
	if err != nil {
		return nil, err
	}
	// A queued job is cancelled here and never reaches a worker, so its
	// end is logged here; a running one is logged by its worker.
	msg := "job cancelled"
	if cmp.Status != gamequiv.StatusCancelled {
		msg = "job cancel requested"
	}
	s.log.InfoContext(ctx, msg, slog.Int64("comparison", cmp.ID), slog.String("status", string(cmp.Status)))
	if cmp.Status == gamequiv.StatusRunning {
		s.onCancelRequested(cmp.ID)
	}
	return cmp, nil
}
