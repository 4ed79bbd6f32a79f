package worker

import (
	"context"
	"errors"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
)

// wireError is a job's error as it crosses from a child to the server:
// its text, and the typed causes that the server's callers look for
// (errors.As, errors.Is), so that a limit failure or an invalid game in a
// child is answered and stored as it is in the server's process.
type wireError struct {
	Msg string
	// Context is "canceled" or "deadline" if the error is the context's.
	Context string
	// Ground is a grounding limit the error wraps; List and Source a
	// grounding.ErrorList and a *grounding.Error.
	Ground *grounding.LimitError
	List   grounding.ErrorList
	Source *grounding.Error
	// Domain is a *gamequiv.Error the error wraps, without its cause,
	// whose text is DomainCause.
	Domain      *domainError
	DomainCause string
	// Limit is equiv.IsLimit: a limit of the search or the SAT checks
	// (whose types the service layer does not import) or of the
	// grounding.
	Limit bool
}

// domainError is the data of a *gamequiv.Error.
type domainError struct {
	Code, Message, Limit string
	RetryAfter           time.Duration
}

// encodeError is err as it crosses to the server.
func encodeError(err error) *wireError {
	w := &wireError{Msg: err.Error(), Limit: equiv.IsLimit(err)}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		w.Context = "deadline"
	case errors.Is(err, context.Canceled):
		w.Context = "canceled"
	}
	errors.As(err, &w.Ground)
	errors.As(err, &w.List)
	errors.As(err, &w.Source)
	var de *gamequiv.Error
	if errors.As(err, &de) {
		w.Domain = &domainError{Code: de.Code, Message: de.Message, Limit: de.Limit, RetryAfter: de.RetryAfter}
		if de.Err != nil {
			w.DomainCause = de.Err.Error()
		}
	}
	return w
}

// decode is the error in the server: the child's text over the causes it
// carried.
func (w *wireError) decode() error {
	e := &remoteError{msg: w.Msg}
	switch w.Context {
	case "deadline":
		e.causes = append(e.causes, context.DeadlineExceeded)
	case "canceled":
		e.causes = append(e.causes, context.Canceled)
	}
	if w.Ground != nil {
		e.causes = append(e.causes, w.Ground)
	}
	if len(w.List) > 0 {
		e.causes = append(e.causes, w.List)
	}
	if w.Source != nil {
		e.causes = append(e.causes, w.Source)
	}
	switch {
	case w.Domain != nil:
		de := &gamequiv.Error{Code: w.Domain.Code, Message: w.Domain.Message, Limit: w.Domain.Limit, RetryAfter: w.Domain.RetryAfter}
		if w.DomainCause != "" {
			de.Err = errors.New(w.DomainCause)
		}
		e.causes = append(e.causes, de)
	case w.Limit && w.Ground == nil:
		// A limit of the search or the SAT checks: the service and the
		// API answer it with the error's text and no limit name, as
		// equiv.IsLimit makes them do in the server's process.
		e.causes = append(e.causes, &gamequiv.Error{Code: gamequiv.ELIMIT, Message: w.Msg})
	}
	return e
}

// remoteError is an error of a job in a child process: its text there,
// and its causes rebuilt.
type remoteError struct {
	msg    string
	causes []error
}

func (e *remoteError) Error() string   { return e.msg }
func (e *remoteError) Unwrap() []error { return e.causes }
