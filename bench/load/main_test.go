package main

import (
	"testing"
	"time"
)

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
