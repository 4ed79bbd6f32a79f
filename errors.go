package gamequiv

import (
	"errors"
	"fmt"
	"time"
)

// Errors of the storage. Every error a storage method returns satisfies
// errors.Is with at most one of them; anything else is an internal error
// (or the context's error, wrapped so that errors.Is(err, context.Canceled)
// works).
var (
	// ErrNotFound: the row, or a row it refers to, does not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict: a unique key is taken, or the row is in a state that does
	// not allow the change (cancelling a finished comparison, placing a game
	// that already has a class in another one).
	ErrConflict = errors.New("conflict")
	// ErrLeaseLost: the worker no longer owns the running comparison (its
	// lease ended and another worker claimed it, or it has finished).
	ErrLeaseLost = errors.New("lease lost")
	// ErrForbidden: the user of the context (NewContextWithUser) may not
	// change the row: it is neither its owner nor an admin.
	ErrForbidden = errors.New("forbidden")
	// ErrInvalid: an argument is malformed (invalid JSON or UTF-8, an
	// unknown status, a negative cursor).
	ErrInvalid = errors.New("invalid argument")
)

// Codes of an *Error: what went wrong, for the adapters to translate (the
// JSON API uses them as the stable "code" of its problem documents).
const (
	EINVALID   = "invalid"        // an argument is wrong
	ENOTFOUND  = "not_found"      // a game or comparison does not exist
	ETOOLARGE  = "too_large"      // a game description is longer than allowed
	ELIMIT     = "limit_exceeded" // a game exceeds a grounding or search limit
	EQUEUEFULL = "queue_full"     // too many comparisons are queued
	EBUSY      = "busy"           // every slot for heavy work is taken
)

// Error is an error with a code and a message meant for the user: the
// service layer's, and the JSON API's own (with the API's codes).
type Error struct {
	Code    string
	Message string
	// Limit names the limit a game exceeded (with ELIMIT), if known.
	Limit string
	// RetryAfter, if positive, is when to try again (EQUEUEFULL, EBUSY).
	RetryAfter time.Duration
	// Err is the underlying error, if any.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// SideError is an error about one side of a comparison ("a" or "b"): an
// inline game that does not validate, or a game that does not exist. Its
// message is its cause's; it only tells the side, so that a form can show
// the error beside the right game.
type SideError struct {
	Side string
	Err  error
}

func (e *SideError) Error() string { return e.Err.Error() }

func (e *SideError) Unwrap() error { return e.Err }

// SideOf returns the side ("a" or "b") err is about, or "" if it is about
// neither.
func SideOf(err error) string {
	var se *SideError
	if errors.As(err, &se) {
		return se.Side
	}
	return ""
}
