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
	for _, n := range []int{0, 1, smallJoined - 1, smallJoined, smallJoined + 1, 5 * smallJoined, 1000} {
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
				alts := []Lit{j.first[i]}
				if j.more != nil {
					alts = append(alts, j.more[i]...)
				}
				var wantAlts []Lit
				for round := range i%3 + 1 {
					wantAlts = append(wantAlts, Lit(2*i+round))
				}
				if !slices.Equal(alts, wantAlts) {
					t.Errorf("tuple %d has alternatives %v, want %v", i, alts, wantAlts)
				}
			}
			if _, ok := j.index([]int32{int32(n), 0}); ok {
				t.Errorf("index finds a tuple never added")
			}
			if (j.keys.slots != nil) != (n >= smallJoined) {
				t.Errorf("with %d tuples the index is built: %v", n, j.keys.slots != nil)
			}
		})
	}
}

// TestFactSet adds tuples with repeats, of arity 0, 1 and 3 and past
// several growths of the index, and checks ids in first-seen order.
func TestFactSet(t *testing.T) {
	for _, arity := range []int{0, 1, 3} {
		f := newFactSet(arity)
		n := 5000
		if arity == 0 {
			n = 1
		}
		tup := func(i int) []int32 {
			t := make([]int32, arity)
			for k := range t {
				t[k] = int32((i >> (4 * k)) & 0xf)
				if k == arity-1 {
					t[k] = int32(i >> (4 * k)) // the rest of i: tuples differ
				}
			}
			return t
		}
		for round := range 2 {
			for i := range n {
				id, isNew := f.add(tup(i))
				if id != int32(i) || isNew != (round == 0) {
					t.Fatalf("arity %d round %d: add(%v) = %d, %v", arity, round, tup(i), id, isNew)
				}
			}
		}
		for i := range n {
			if id, ok := f.lookup(tup(i)); !ok || id != int32(i) || !slices.Equal(f.tuple(id), tup(i)) {
				t.Errorf("arity %d: lookup(%v) = %d, %v", arity, tup(i), id, ok)
			}
		}
		if arity > 0 {
			if _, ok := f.lookup(tup(n)); ok {
				t.Errorf("arity %d: lookup finds a tuple never added", arity)
			}
		}
	}
}

// TestMemoTable stores and finds live values of 0 to 24 live variables;
// put stores under the key of the last get.
func TestMemoTable(t *testing.T) {
	for _, nlive := range []int{0, 1, 8, 9, 24} {
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
			for x := range int32(500) {
				set(x)
				// With no live variable every assignment is the same key.
				if _, ok := m.get(bd, live); ok != (nlive == 0 && x > 0) {
					t.Errorf("get(%d) before its put: found %v", x, ok)
				}
				m.put(int(x))
			}
			for x := range int32(600) {
				set(x)
				v, ok := m.get(bd, live)
				wantOK := x < 500 || nlive == 0
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
	if _, ok := m.get(bd, live); ok || len(m.vals) != 0 || m.lookups != 0 {
		t.Errorf("a stopped table stores or counts: %+v", m)
	}
}
