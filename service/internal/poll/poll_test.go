package poll

import (
	"context"
	"testing"
	"time"
)

func TestBackoffDoublesUpToMax(t *testing.T) {
	b := Backoff{Min: time.Millisecond, Max: 5 * time.Millisecond}
	var got []time.Duration
	for range 5 {
		d := b.next
		if d == 0 {
			d = b.Min
		}
		got = append(got, d)
		b.Wait(context.Background())
	}
	want := []time.Duration{1, 2, 4, 5, 5}
	for i := range want {
		if got[i] != want[i]*time.Millisecond {
			t.Fatalf("delays = %v, want %v ms", got, want)
		}
	}
	b.Reset()
	if b.next != 0 {
		t.Errorf("after Reset next = %v, want 0 (Min)", b.next)
	}
}

func TestSleepStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	Sleep(ctx, time.Hour)
	if d := time.Since(start); d > time.Second {
		t.Errorf("Sleep with a cancelled context took %v", d)
	}
	b := Backoff{Min: time.Hour, Max: time.Hour}
	start = time.Now()
	b.Wait(ctx)
	if d := time.Since(start); d > time.Second {
		t.Errorf("Wait with a cancelled context took %v", d)
	}
}
