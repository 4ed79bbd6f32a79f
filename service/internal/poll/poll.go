// Package poll is the idle back-off of the service's background loops
// (the comparison workers, the classifier): after a poll that found no
// work they wait, longer each time up to a bound, and go back to the
// shortest wait once they find some.
package poll

import (
	"context"
	"time"
)

// Backoff is the wait between two polls that found nothing: Min at
// first, doubled after each Wait up to Max. The zero value waits 0.
type Backoff struct {
	Min, Max time.Duration
	next     time.Duration // 0: Min
}

// Wait sleeps for the current delay, or until ctx is done, and doubles
// the next delay up to Max.
func (b *Backoff) Wait(ctx context.Context) {
	d := b.next
	if d == 0 {
		d = b.Min
	}
	b.next = min(max(d*2, b.Min), max(b.Max, b.Min))
	Sleep(ctx, d)
}

// Reset makes the next Wait last Min again.
func (b *Backoff) Reset() { b.next = 0 }

// Sleep waits for d or until ctx is done.
func Sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
