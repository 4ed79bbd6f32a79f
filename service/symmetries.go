package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
)

// Symmetries returns the stored symmetry report of a game, computing and
// storing it first if there is none. A computation that failed on a limit
// (or on ComputeTimeout) is stored too, and its error is answered again
// from the store instead of being computed again. Calls for a game whose
// symmetries are being computed wait for that computation.
func (s *Service) Symmetries(ctx context.Context, id int64) (json.RawMessage, error) {
	got, err := s.store.GetSymmetries(ctx, id)
	if err == nil {
		s.onSymmetries("stored")
		return storedSymmetries(got)
	}
	if !isNotFound(err) {
		return nil, err
	}
	return s.symFlight.do(ctx, id, func() (json.RawMessage, error) { return s.computeSymmetries(ctx, id) })
}

// failureDoc is the stored form of a symmetry computation's failure. It
// reads the problem+json documents that earlier versions stored as well:
// they have these members too.
type failureDoc struct {
	Code   string `json:"code"`
	Detail string `json:"detail,omitempty"`
	Limit  string `json:"limit,omitempty"`
}

// storedSymmetries is the stored result, or the stored failure as an
// *gamequiv.Error.
func storedSymmetries(got *gamequiv.SymmetryResult) (json.RawMessage, error) {
	if got.Problem == nil {
		return got.Result, nil
	}
	var f failureDoc
	if err := json.Unmarshal(got.Problem, &f); err != nil || f.Code == "" {
		return nil, fmt.Errorf("stored symmetry failure of game %d: %w", got.GameID, errors.Join(err, errors.New("not a failure document")))
	}
	return nil, &gamequiv.Error{Code: f.Code, Message: f.Detail, Limit: f.Limit}
}

// computeSymmetries computes a game's symmetries under a heavy slot and
// stores the report, or the failure if a limit stopped it.
func (s *Service) computeSymmetries(ctx context.Context, id int64) (json.RawMessage, error) {
	// A computation that ended between our first look and now stored its
	// answer already.
	if got, err := s.store.GetSymmetries(ctx, id); err == nil {
		s.onSymmetries("stored")
		return storedSymmetries(got)
	}
	g, err := s.store.GetGame(ctx, id)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, s.limits.ComputeTimeout)
	defer cancel()
	release, err := s.acquire(cctx)
	if err != nil {
		return nil, err
	}
	lim := s.limits.Game
	lim.Timeout = s.limits.ComputeTimeout
	rep, err := s.compute.Symmetries(cctx, equiv.Source{Name: g.Name, GDL: g.GDL}, lim)
	release()
	if err != nil {
		return nil, s.symmetryFailure(ctx, id, err)
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		return nil, fmt.Errorf("symmetry report: %w", err)
	}
	stored, err := s.store.PutSymmetries(ctx, id, raw)
	if err != nil {
		return nil, err
	}
	s.onSymmetries("computed")
	return stored.Result, nil
}

// limitOf reports whether err is a limit of the grounding or the search,
// or of the process that ran the computation (its memory bound), with the
// message to show and the name of the limit when it is known.
func limitOf(err error) (detail, limit string, ok bool) {
	var gl *grounding.LimitError
	var de *gamequiv.Error
	switch {
	case errors.As(err, &gl):
		return gl.Error(), gl.What, true
	case equiv.IsLimit(err):
		return err.Error(), "", true
	case errors.As(err, &de) && de.Code == gamequiv.ELIMIT:
		return de.Message, de.Limit, true
	}
	return "", "", false
}

// symmetryFailure stores the failure err of game id's symmetry computation
// when it is final: a limit, or the time limit of the computation (not the
// caller leaving). It returns the error to answer.
func (s *Service) symmetryFailure(ctx context.Context, id int64, err error) error {
	if ctx.Err() != nil {
		return err
	}
	detail, limit, ok := limitOf(err)
	if !ok && errors.Is(err, context.DeadlineExceeded) {
		detail = fmt.Sprintf("symmetries of game %d: time limit of %s reached", id, s.limits.ComputeTimeout)
		limit, ok = "Timeout", true
	}
	if !ok {
		return err
	}
	f := failureDoc{Code: gamequiv.ELIMIT, Detail: detail, Limit: limit}
	raw, merr := json.Marshal(f)
	if merr != nil {
		return fmt.Errorf("symmetry failure: %w", merr)
	}
	if _, perr := s.store.PutSymmetryFailure(ctx, id, raw); perr != nil {
		s.log.Warn("store symmetry failure", slog.Int64("game", id), slog.Any("err", perr))
	}
	s.onSymmetries("computed")
	return &gamequiv.Error{Code: f.Code, Message: f.Detail, Limit: f.Limit}
}
