package main

import (
	"testing"
	"time"
)

var pctTests = []struct {
	ds   []time.Duration
	p    int
	want float64
}{
	{nil, 50, 0},
	{[]time.Duration{time.Millisecond}, 99, 1},
	{[]time.Duration{4 * time.Millisecond, time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond}, 50, 2},
	{[]time.Duration{4 * time.Millisecond, time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond}, 99, 4},
}

func TestPct(t *testing.T) {
	for _, tc := range pctTests {
		if got := pct(tc.ds, tc.p); got != tc.want {
			t.Errorf("pct(%v, %d) = %v, want %v", tc.ds, tc.p, got, tc.want)
		}
	}
}

var checkLoopbackTests = []struct {
	url string
	ok  bool
}{
	{"http://127.0.0.1:8080", true},
	{"http://localhost:8080/", true},
	{"http://[::1]:8080", true},
	{"http://10.0.0.1:8080", false},
	{"http://example.com", false},
	{"127.0.0.1:8080", false},
}

func TestCheckLoopback(t *testing.T) {
	for _, tc := range checkLoopbackTests {
		if err := checkLoopback(tc.url); (err == nil) != tc.ok {
			t.Errorf("checkLoopback(%q) = %v, want ok %v", tc.url, err, tc.ok)
		}
	}
}

// TestRunSmall runs the whole benchmark at a small size: it builds and starts
// the server, and every comparison must complete.
func TestRunSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the server")
	}
	o := options{n: 20, c: 5, maxSize: 2500, workers: 2, timeout: 3 * time.Minute, poll: 50 * time.Millisecond, seed: 2, jsonOut: true}
	if _, err := corpusDir(""); err != nil {
		t.Skip(err)
	}
	if err := run(o); err != nil {
		t.Fatal(err)
	}
}
