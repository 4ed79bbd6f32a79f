package grounding

import (
	"slices"
	"testing"
)

// TestGateTable inserts gates past several growths, many with one hash
// (so that they share a tag and a probe sequence), and finds each by its
// fanins and none that was never inserted.
func TestGateTable(t *testing.T) {
	var fanins [][]Lit
	at := func(g int) []Lit { return fanins[g] }
	hash := func(fs []Lit) uint64 {
		if fs[0]%4 == 0 {
			return 42 << 32 // one tag for a quarter of them
		}
		return HashLits(fs)
	}
	var tab gateTable
	for g := range 5000 {
		fs := []Lit{Lit(g), Lit(g + 1)}
		if _, ok := tab.find(hash(fs), fs, at); ok {
			t.Fatalf("find(%v) before insert = true", fs)
		}
		fanins = append(fanins, fs)
		tab.insert(hash(fs), int32(g))
	}
	for g, fs := range fanins {
		if got, ok := tab.find(hash(fs), slices.Clone(fs), at); !ok || got != int32(g) {
			t.Errorf("find(%v) = %d, %v, want %d", fs, got, ok, g)
		}
	}
	for _, fs := range [][]Lit{{0, 2}, {4, 6}, {7, 9}} {
		if got, ok := tab.find(hash(fs), fs, at); ok {
			t.Errorf("find(%v) = %d, true for fanins never inserted", fs, got)
		}
	}
}

// TestGateTableSpread inserts the gates of neighbouring literals, as joins
// make them (pairs and triples of nearby inputs), with their real hashes,
// and requires short probe runs: the slot a gate lands in is on average
// within two of the slot its tag chooses.
func TestGateTableSpread(t *testing.T) {
	var tab gateTable
	var fanins [][]Lit
	for i := range Lit(50000) {
		fs := []Lit{2 * i, 2*i + 2}
		if i%2 == 1 {
			fs = append(fs, 2*i+5)
		}
		fanins = append(fanins, fs)
		tab.insert(HashLits(fs), int32(len(fanins)-1))
	}
	if avg := meanProbeDistance(tab.slots, tab.n); avg > 2 {
		t.Errorf("gates lie %.1f slots past their home slot on average, want at most 2", avg)
	}
}

// TestTupleTable inserts tuples of neighbouring values past many growths
// and finds each at its position, none that was never inserted, and each
// within a short probe of the slot its stored tag names (a slot moved by
// growth to anywhere else is found late or never).
func TestTupleTable(t *testing.T) {
	var tuples [][]int32
	at := func(i int32) []int32 { return tuples[i] }
	var tab tupleTable
	for i := range int32(50000) {
		tu := []int32{i % 250, i / 250}
		if i%3 == 0 {
			tu = append(tu, i)
		}
		tuples = append(tuples, tu)
		tab.insert(tu, i)
	}
	for i, tu := range tuples {
		if got, ok := tab.find(slices.Clone(tu), at); !ok || got != int32(i) {
			t.Fatalf("find(%v) = %d, %v, want %d", tu, got, ok, i)
		}
	}
	for _, tu := range [][]int32{{250, 0}, {0, 0, 1}, {1}} {
		if got, ok := tab.find(tu, at); ok {
			t.Errorf("find(%v) = %d, true for a tuple never inserted", tu, got)
		}
	}
	if avg := meanProbeDistance(tab.slots, tab.n); avg > 2 {
		t.Errorf("tuples lie %.1f slots past their home slot on average, want at most 2", avg)
	}
}

// TestTupleArena checks that arena copies equal their tuples, survive
// changes to the source, and do not overlap: appending to one copy leaves
// the next intact.
func TestTupleArena(t *testing.T) {
	var a tupleArena
	var copies [][]int32
	src := make([]int32, 0, 8)
	for i := range 3000 {
		src = append(src[:0], int32(i), int32(-i), int32(i%7))
		copies = append(copies, a.copy(src[:1+i%3]))
		src[0] = -1
	}
	for i := range copies {
		_ = append(copies[i], 99, 99, 99)
	}
	for i, c := range copies {
		want := []int32{int32(i), int32(-i), int32(i % 7)}[:1+i%3]
		if !slices.Equal(c, want) {
			t.Fatalf("copy %d = %v, want %v", i, c, want)
		}
	}
}

// TestIndexLists pushes fact ids for interleaved hashes past several moves
// of their lists and checks that each hash keeps its ids in order and that
// ids taken earlier (as a join holds them while it recurses) do not change.
func TestIndexLists(t *testing.T) {
	ix := newIndex(nil)
	want := map[uint64][]int32{}
	var held [][]int32
	var heldWant [][]int32
	for id := range int32(60000) { // hash 0 gets more than idBlock ids
		h := uint64(id % 7 * id % 5) // hashes of very different list lengths
		ix.push(h, id)
		want[h] = append(want[h], id)
		if id%997 == 0 {
			held = append(held, ix.ids(h))
			heldWant = append(heldWant, slices.Clone(want[h]))
		}
	}
	for h, ids := range want {
		if got := ix.ids(h); !slices.Equal(got, ids) {
			t.Errorf("ids(%d) = %v, want %v", h, got, ids)
		}
	}
	if got := ix.ids(1 << 40); got != nil {
		t.Errorf("ids of a hash never pushed = %v", got)
	}
	for i := range held {
		if !slices.Equal(held[i], heldWant[i]) {
			t.Errorf("ids held before later pushes changed: %v, want %v", held[i], heldWant[i])
		}
	}
}

// TestFreshVars counts each variable of an atom once, however often and
// however deep it occurs, as unbound (fresh) or bound (shared).
func TestFreshVars(t *testing.T) {
	v := func(i int32) pat { return pat{v: i, t: -1} }
	c := pat{v: -1, t: 7}
	f := func(args ...pat) pat { return pat{v: -1, t: -1, fn: 3, args: args} }
	// (p ?0 (f ?0 ?1 (f ?2 ?1)) 7 ?2 ?3 ?3 ... ?20) with ?0 and ?3 bound.
	args := []pat{v(0), f(v(0), v(1), f(v(2), v(1))), c, v(2), v(3), v(3)}
	for i := int32(4); i <= 20; i++ {
		args = append(args, v(i), f(v(i)))
	}
	bound := make([]bool, 21)
	bound[0], bound[3] = true, true
	fresh, shared := freshVars(bound, args)
	if fresh != 19 || shared != 2 {
		t.Errorf("freshVars = %d fresh, %d shared, want 19, 2", fresh, shared)
	}
}

// TestProbeSig: an index's key names each probe's path and functor, so
// that probes of different shapes never share an index, and it is the
// same whether a caller's buffer is empty or not.
func TestProbeSig(t *testing.T) {
	ps := []probe{
		{path: topPath(0), v: 2, ground: -1},
		{path: topPath(1), functor: true, fn: 3, arity: 2, v: -1, ground: -1},
		{path: []int32{1, 0}, v: -1, ground: 5},
		{path: topPath(70), v: 1, ground: -1},
	}
	want := "0.;1.f3/2;1.0.;70.;"
	if got := string(appendProbeSig(nil, ps)); got != want {
		t.Errorf("appendProbeSig = %q, want %q", got, want)
	}
	if got := string(appendProbeSig([]byte("x"), ps)); got != "x"+want {
		t.Errorf("appendProbeSig after x = %q, want %q", got, "x"+want)
	}
	if p := topPath(4); len(p) != 1 || cap(p) != 1 || p[0] != 4 {
		t.Errorf("topPath(4) = %v (cap %d), want [4] with no spare capacity", p, cap(p))
	}
}

// meanProbeDistance is the mean distance of the n used slots of an
// open-addressing table from the home slot their tag (the high 32 bits)
// names.
func meanProbeDistance(slots []uint64, n int) float64 {
	mask := uint64(len(slots) - 1)
	var dist uint64
	for i, s := range slots {
		if s != 0 {
			dist += (uint64(i) - (s>>32)&mask) & mask
		}
	}
	return float64(dist) / float64(n)
}
