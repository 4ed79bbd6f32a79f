package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// Heavy work (grounding an upload, computing symmetries) runs under one of
// Limits.MaxConcurrentCompute slots, which bounds its CPU and memory. A
// request that finds every slot taken does not queue: it gets 429 busy
// with Retry-After, so a burst of uploads cannot pile up work (and memory)
// behind the bound.

// slotKey marks a context whose request already holds a compute slot (a
// worker of a batch).
type slotKey struct{}

// acquire takes a compute slot without waiting; past the bound it returns
// the busy error. A context that holds a slot already takes none.
func (s *Server) acquire(ctx context.Context) (release func(), err error) {
	if ctx.Value(slotKey{}) != nil {
		return func() {}, nil
	}
	if !s.tryAcquire() {
		return nil, s.busy()
	}
	return s.releaseSlot, nil
}

// tryAcquire takes a compute slot if one is free.
func (s *Server) tryAcquire() bool {
	select {
	case s.compute <- struct{}{}:
		return true
	default:
		return false
	}
}

// releaseSlot gives a slot back.
func (s *Server) releaseSlot() { <-s.compute }

// busy is the error of a request that found every compute slot taken.
func (s *Server) busy() error {
	return &Error{
		Code: CodeBusy,
		Message: fmt.Sprintf("the server is busy: all %d slots for grounding games and computing symmetries are taken; retry later",
			cap(s.compute)),
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
