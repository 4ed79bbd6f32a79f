package grounding

import (
	"fmt"
	"slices"
	"testing"
)

// TestJoinedIndex adds tuples with repeats past smallJoined, so that the
// index goes from the linear scan to the map, and checks that every tuple
// is kept once, in first-seen order, with all its alternatives.
func TestJoinedIndex(t *testing.T) {
	for _, n := range []int{0, 1, smallJoined - 1, smallJoined, smallJoined + 1, 5 * smallJoined} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			j := &joined{}
			// Tuple i is (i, -i); it is added i%3+1 times, with literals 2i, 2i+1, ...
			var want [][]int32
			for round := range 3 {
				for i := range n {
					if i%3 < round {
						continue
					}
					j.add([]int32{int32(i), int32(-i)}, Lit(2*i+round))
					if round == 0 {
						want = append(want, []int32{int32(i), int32(-i)})
					}
				}
			}
			if !slices.EqualFunc(j.tuples, want, slices.Equal[[]int32]) {
				t.Fatalf("tuples = %v, want %v", j.tuples, want)
			}
			for i := range n {
				got, ok := j.index([]int32{int32(i), int32(-i)})
				if !ok || got != i {
					t.Errorf("index(%d) = %d, %v", i, got, ok)
				}
				if len(j.alts[i]) != i%3+1 {
					t.Errorf("tuple %d has %d alternatives, want %d", i, len(j.alts[i]), i%3+1)
				}
			}
			if _, ok := j.index([]int32{int32(n), 0}); ok {
				t.Errorf("index finds a tuple never added")
			}
			if (j.keys != nil) != (n >= smallJoined) {
				t.Errorf("with %d tuples the map is built: %v", n, j.keys != nil)
			}
		})
	}
}

// TestMemoTable stores and finds live values with array keys (few live
// variables) and string keys (more than maxSmallLive); put stores under the
// key of the last get.
func TestMemoTable(t *testing.T) {
	for _, nlive := range []int{0, 1, maxSmallLive, maxSmallLive + 1, 3 * maxSmallLive} {
		t.Run(fmt.Sprint(nlive), func(t *testing.T) {
			live := make([]int32, nlive)
			for i := range live {
				live[i] = int32(nlive - 1 - i) // not in variable order
			}
			bd := &binding{vals: make([]int32, nlive)}
			set := func(x int32) {
				for i := range bd.vals {
					bd.vals[i] = x + int32(i)
				}
			}
			m := newMemoTable[int](nlive, -1)
			if (m.small != nil) != (nlive <= maxSmallLive) {
				t.Fatalf("array keys = %v for %d live variables", m.small != nil, nlive)
			}
			for x := range int32(50) {
				set(x)
				// With no live variable every assignment is the same key.
				if _, ok := m.get(bd, live); ok != (nlive == 0 && x > 0) {
					t.Errorf("get(%d) before its put: found %v", x, ok)
				}
				m.put(int(x))
			}
			for x := range int32(60) {
				set(x)
				v, ok := m.get(bd, live)
				wantOK := x < 50 || nlive == 0
				if ok != wantOK || ok && nlive > 0 && v != int(x) {
					t.Errorf("get(%d) = %d, %v", x, v, ok)
				}
			}
		})
	}
}

func TestMemoUseful(t *testing.T) {
	tests := []struct {
		lookups, hits int64
		want          bool
	}{
		{0, 0, true},
		{memoProbe - 1, 0, true}, // still probing
		{memoProbe, 0, false},    // never hit
		{memoProbe, memoProbe / memoMinHitRatio, true}, // just enough
		{memoProbe, memoProbe/memoMinHitRatio - 1, false},
		{1 << 20, 1 << 19, true},
	}
	for _, tc := range tests {
		m := &memoTable[int]{probe: memoProbe, lookups: tc.lookups, hits: tc.hits}
		if got := m.useful(); got != tc.want {
			t.Errorf("useful after %d lookups, %d hits = %v, want %v", tc.lookups, tc.hits, got, tc.want)
		}
		if m.probe = -1; !m.useful() {
			t.Errorf("useful with probe -1 after %d lookups, %d hits = false: a negative probe keeps every memo", tc.lookups, tc.hits)
		}
		if m.probe = 0; m.useful() != (m.hits*memoMinHitRatio >= m.lookups) {
			t.Errorf("useful with probe 0 after %d lookups, %d hits = %v", tc.lookups, tc.hits, m.useful())
		}
	}
}

// TestMemoStops: a table that does not pay stops at its next put, and then
// finds nothing and stores nothing.
func TestMemoStops(t *testing.T) {
	bd := &binding{vals: []int32{0}}
	live := []int32{0}
	m := newMemoTable[int](1, 4)
	for x := range int32(4) { // 4 distinct keys: 4 lookups, no hit
		bd.vals[0] = x
		m.get(bd, live)
		if m.put(int(x)); m.off != (x == 3) {
			t.Fatalf("after %d misses off = %v, want %v", x+1, m.off, x == 3)
		}
	}
	bd.vals[0] = 0
	if _, ok := m.get(bd, live); ok {
		t.Errorf("a stopped table finds a value")
	}
	m.put(7)
	if _, ok := m.get(bd, live); ok || m.small != nil || m.lookups != 0 {
		t.Errorf("a stopped table stores or counts: %+v", m)
	}
}
