package store

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"
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
