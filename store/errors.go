package store

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"
)

// Errors of the store. Every error a method returns satisfies errors.Is with
// at most one of them; anything else is an internal error (or the context's
// error, which is wrapped so that errors.Is(err, context.Canceled) works).
var (
	// ErrNotFound: the row, or a row it refers to, does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: a unique key is taken, or the row is in a state that does
	// not allow the change (cancelling a finished comparison, placing a game
	// that already has a class in another one).
	ErrConflict = errors.New("store: conflict")
	// ErrLeaseLost: the worker no longer owns the running comparison (its
	// lease ended and another worker claimed it, or it has finished).
	ErrLeaseLost = errors.New("store: lease lost")
	// ErrForbidden: the user of the context (NewContextWithUser) may not
	// change the row: it is neither its owner nor an admin.
	ErrForbidden = errors.New("store: forbidden")
	// ErrInvalid: an argument is malformed (invalid JSON or UTF-8, an
	// unknown status, a negative cursor).
	ErrInvalid = errors.New("store: invalid argument")
)

// sentinels are the errors that pass through translate unchanged.
var sentinels = []error{ErrNotFound, ErrConflict, ErrLeaseLost, ErrForbidden, ErrInvalid}

// translate turns err into an error of this package, prefixed by op. gorm's
// and the drivers' errors never escape: they become a sentinel or an opaque
// message (%v, so errors.Is and errors.As cannot reach them).
func translate(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return fmt.Errorf("%s: %w", op, ErrNotFound)
	case errors.Is(err, gorm.ErrDuplicatedKey):
		return fmt.Errorf("%s: %w", op, ErrConflict)
	case errors.Is(err, gorm.ErrForeignKeyViolated):
		return fmt.Errorf("%s: referenced row: %w", op, ErrNotFound)
	case errors.Is(err, gorm.ErrCheckConstraintViolated):
		return fmt.Errorf("%s: %w", op, ErrInvalid)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: %w", op, contextErr(ctx, err))
	case ctx.Err() != nil:
		// Drivers do not always wrap the context's error.
		return fmt.Errorf("%s: %w (%v)", op, ctx.Err(), err)
	}
	return fmt.Errorf("%s: %v", op, err)
}

// contextErr returns the context error that err is or wraps.
func contextErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return context.DeadlineExceeded
	}
	return context.Canceled
}
