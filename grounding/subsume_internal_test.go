package grounding

import "testing"

// subsumeGame's next rule is (or A B) (or A B), mutate's merge-or then
// duplicate: read as A, A B, B A and B, of which A B and B A join two does
// literals of one role, never true together. The source rule of the
// terminal rule reads as A C, A and so loses A C; the goal rule's two
// alternatives have different heads' variables in different literals and
// must both stay.
const subsumeGame = `
(role r)
(pos 1) (pos 2) (pos 3) (pos 4) (pos 5)
(init (lit 1))
(<= (legal r (press ?x ?y)) (pos ?x) (pos ?y))
(<= (next (lit ?x))
    (or (does r (press ?x ?y)) (does r (press ?y ?x)))
    (or (does r (press ?x ?y)) (does r (press ?y ?x))))
(<= (next (lit ?x)) (true (lit ?x)) (or (does r (press ?x ?x)) (and (does r (press ?x ?x)) (true (lit 5)))))
(<= terminal (true (lit 3)) (true (lit 4)))
(<= (goal r 100) (or (true (lit 1)) (true (lit 2))))
(<= (goal r 0) (not (true (lit 1))) (not (true (lit 2))))
`

// TestDropSubsumed: the subsumed alternatives go, the circuit shrinks and
// the game is the same in every reachable state. Fails with dropSubsumed
// off (the circuit keeps the cross terms' gates).
func TestDropSubsumed(t *testing.T) {
	got := groundVisited(t, "subsume.kif", subsumeGame, variant{})
	want := groundVisited(t, "subsume.kif", subsumeGame, variant{noSubsume: true})
	if err := sameGame(got, want, 100000); err != nil {
		t.Fatalf("with and without dropSubsumed: %v", err)
	}
	if g, w := got.Circuit.NumNodes(), want.Circuit.NumNodes(); g >= w {
		t.Errorf("circuit nodes %d with dropSubsumed, %d without: the cross terms stayed", g, w)
	}
	// Written as one alternative per rule, the game grounds to the same size.
	const plain = `
(role r)
(pos 1) (pos 2) (pos 3) (pos 4) (pos 5)
(init (lit 1))
(<= (legal r (press ?x ?y)) (pos ?x) (pos ?y))
(<= (next (lit ?x)) (does r (press ?x ?y)))
(<= (next (lit ?x)) (does r (press ?y ?x)))
(<= (next (lit ?x)) (true (lit ?x)) (does r (press ?x ?x)))
(<= terminal (true (lit 3)) (true (lit 4)))
(<= (goal r 100) (true (lit 1)))
(<= (goal r 100) (true (lit 2)))
(<= (goal r 0) (not (true (lit 1))) (not (true (lit 2))))
`
	p := groundVisited(t, "plain.kif", plain, variant{})
	if err := sameGame(got, p, 100000); err != nil {
		t.Fatalf("against the game written plainly: %v", err)
	}
	if g, w := got.Circuit.NumNodes(), p.Circuit.NumNodes(); g > w {
		t.Errorf("circuit nodes %d, %d written plainly", g, w)
	}
}

// TestDropSubsumedKeeps: rules of one source rule that differ in a
// variable's literal, or of different source rules, all stay.
func TestDropSubsumedKeeps(t *testing.T) {
	src := `
(role r)
(pos 1) (pos 2)
(init (lit 1))
(<= (legal r (press ?x)) (pos ?x))
(<= (next (lit ?x)) (does r (press ?x)) (or (true (lit ?x)) (and (true (lit ?y)) (pos ?y) (distinct ?x ?y))))
(<= (next (lit ?x)) (does r (press ?x)) (true (lit ?x)))
(<= (next (lit ?x)) (does r (press ?x)) (true (lit ?x)) (pos ?x))
(<= terminal (true (lit 2)))
(<= (goal r 100) (true (lit 2)))
(<= (goal r 0) (not (true (lit 2))))
`
	f, err := Parse("keeps.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := &compiler{file: f.Name, ts: newTermStore(), lim: Limits{}.WithDefaults()}
	c.compile(f)
	c.analyze()
	c.resolveUnsafe()
	n := len(c.rules)
	c.dropSubsumed()
	if len(c.rules) != n {
		t.Errorf("dropSubsumed dropped %d of %d rules, want none", n-len(c.rules), n)
	}
}
