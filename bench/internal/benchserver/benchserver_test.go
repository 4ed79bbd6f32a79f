package benchserver

import (
	"testing"
	"time"
)

var percentileTests = []struct {
	ds   []time.Duration
	p    int
	want float64
}{
	{nil, 50, 0},
	{[]time.Duration{time.Millisecond}, 99, 1},
	{[]time.Duration{4 * time.Millisecond, time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond}, 50, 2},
	{[]time.Duration{4 * time.Millisecond, time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond}, 99, 4},
	{[]time.Duration{4 * time.Millisecond, time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond}, 1, 1},
}

func TestPercentile(t *testing.T) {
	for _, tc := range percentileTests {
		if got := Percentile(tc.ds, tc.p); got != tc.want {
			t.Errorf("Percentile(%v, %d) = %v, want %v", tc.ds, tc.p, got, tc.want)
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
	{"postgres://postgres@127.0.0.1:5432/db", true},
	{"http://10.0.0.1:8080", false},
	{"http://192.168.1.2:8080", false},
	{"http://example.com", false},
	{"127.0.0.1:8080", false},
}

func TestCheckLoopback(t *testing.T) {
	for _, tc := range checkLoopbackTests {
		if err := CheckLoopback(tc.url); (err == nil) != tc.ok {
			t.Errorf("CheckLoopback(%q) = %v, want ok %v", tc.url, err, tc.ok)
		}
	}
}
