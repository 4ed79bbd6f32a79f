package grounding

import "testing"

// TestSubstituteVisitsChanged builds a template with two chains of gates,
// one over each of two placeholders, and runs fixpoint-like rounds: after
// the first round, a round where only the first placeholder changed must
// rebuild only the first chain, and every round's results must be those of
// a substitution from scratch.
func TestSubstituteVisitsChanged(t *testing.T) {
	const chain = 50
	const nInputs, nph = 4, 2
	b := newBuilder(nInputs, nph, 1<<20)
	first := nInputs
	lo := b.c.NumNodes()
	a, c := InputLit(first), InputLit(first+1)
	for i := range chain {
		a = b.And(a.Not(), InputLit(i%2)) // negated fanins are not flattened: a chain
		c = b.And(c.Not(), InputLit(2+i%2))
	}
	roots := []Lit{a, c}
	hi := b.c.NumNodes()
	rounds := [][]Lit{
		{InputLit(0), InputLit(2)},
		{InputLit(1), InputLit(2)}, // only the first placeholder changes
		{InputLit(1), InputLit(2)}, // nothing changes
		{InputLit(1), InputLit(3)}, // only the second
	}
	m := b.newSubstMemo(lo, hi, first, nph)
	var prev []Lit
	for k, cur := range rounds {
		m.next(prev, cur)
		before := m.rebuilt
		var got []Lit
		for _, r := range roots {
			s, _ := b.substitute(r, first, cur, m)
			got = append(got, s)
		}
		rebuilt := m.rebuilt - before
		fresh := b.newSubstMemo(lo, hi, first, nph)
		fresh.next(nil, cur)
		for i, r := range roots {
			if want, _ := b.substitute(r, first, cur, fresh); got[i] != want {
				t.Errorf("round %d: root %d = %v, want %v (from scratch)", k, i, got[i], want)
			}
		}
		want := map[int]int64{0: 2 * chain, 1: chain, 2: 0, 3: chain}[k]
		if rebuilt != want {
			t.Errorf("round %d rebuilt %d gates, want %d", k, rebuilt, want)
		}
		prev = cur
	}
}
