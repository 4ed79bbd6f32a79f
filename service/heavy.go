package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/gamequiv/gamequiv"
)

// Heavy work (grounding an upload, computing symmetries) runs under one of
// Limits.MaxHeavy slots, which bounds its CPU and memory. A call that
// finds every slot taken does not queue: it gets EBUSY with RetryAfter,
// so a burst of uploads cannot pile up work (and memory) behind the bound.

// slotKey marks a context whose call already holds a heavy slot (a worker
// of a batch).
type slotKey struct{}

// acquire takes a heavy slot without waiting; past the bound it returns
// the busy error. A context that holds a slot already takes none.
func (s *Service) acquire(ctx context.Context) (release func(), err error) {
	if ctx.Value(slotKey{}) != nil {
		return func() {}, nil
	}
	if !s.tryAcquire() {
		return nil, s.busy()
	}
	return s.releaseSlot, nil
}

// tryAcquire takes a heavy slot if one is free.
func (s *Service) tryAcquire() bool {
	select {
	case s.heavy <- struct{}{}:
		return true
	default:
		return false
	}
}

// releaseSlot gives a slot back.
func (s *Service) releaseSlot() { <-s.heavy }

// busy is the error of a call that found every heavy slot taken.
func (s *Service) busy() error {
	return &gamequiv.Error{
		Code: gamequiv.EBUSY,
		Message: fmt.Sprintf("the server is busy: all %d slots for grounding games and computing symmetries are taken; retry later",
			cap(s.heavy)),
		RetryAfter: s.limits.BusyRetryAfter,
	}
}

// flight runs one computation per key at a time: a caller that finds the
// key's computation running waits for its answer instead of starting
// another. The zero value is ready to use.
type flight struct {
	mu    sync.Mutex
	calls map[int64]*flightCall
}

type flightCall struct {
	done chan struct{}
	res  json.RawMessage
	err  error
}

// errNoAnswer is the answer of a computation that ended without one (it
// panicked).
var errNoAnswer = errors.New("the computation ended without an answer")

// do runs fn for key, or waits (until ctx ends) for the run in progress.
func (f *flight) do(ctx context.Context, key int64, fn func() (json.RawMessage, error)) (json.RawMessage, error) {
	f.mu.Lock()
	if c, ok := f.calls[key]; ok {
		f.mu.Unlock()
		select {
		case <-c.done:
			return c.res, c.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.calls == nil {
		f.calls = make(map[int64]*flightCall)
	}
	c := &flightCall{done: make(chan struct{}), err: errNoAnswer}
	f.calls[key] = c
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.calls, key)
		f.mu.Unlock()
		close(c.done)
	}()
	c.res, c.err = fn()
	return c.res, c.err
}
