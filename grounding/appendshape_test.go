package grounding_test

import (
	"context"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// appendShapeTests are relations of three arguments that look like an
// append relation to dropVisited's recognition but are not one: they must
// ground as they did before it existed, not crash it.
var appendShapeTests = []struct {
	name, src string
}{
	// A static arity-3 relation whose base rule's element relation has
	// no facts (its only fact is under a test that fails): appendBase
	// reads facts[0] of an empty list (appendBase).
	{"empty element relation", `
(role r)
(init p)
(<= (legal r go) (true p))
(<= (next p) (does r go))
(<= (le2 a) (distinct a a))
(<= (app ?e nil (c ?e nil)) (le2 ?e))
(<= (q ?x) (true p) (app ?x nil ?y))
(<= (goal r 100) (q a))
(<= (goal r 0) (not (q a)))
(<= terminal (q a))
`},
	// A static arity-3 relation defined by one call of an arity-4
	// relation: appendAlias sizes pos for three arguments and indexes it
	// by the call's (appendAlias).
	{"alias of a wider relation", `
(role r)
(init p)
(<= (legal r go) (true p))
(<= (next p) (does r go))
(f4 a b c a)
(<= (r3 ?x ?y ?z) (f4 ?x ?y ?z ?x))
(<= (q ?x) (true p) (r3 ?x ?y ?z))
(<= (goal r 100) (q a))
(<= (goal r 0) (not (q a)))
(<= terminal (q a))
`},
}

// TestAppendShapesNoPanic: review of session 19's visited-list pass.
func TestAppendShapesNoPanic(t *testing.T) {
	for _, tc := range appendShapeTests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("Load(%s) panicked: %v", tc.name, r)
				}
			}()
			if _, err := grounding.Load(context.Background(), tc.name+".kif", []byte(tc.src), grounding.Limits{}); err != nil {
				t.Fatalf("Load(%s) = %v, want a program", tc.name, err)
			}
		})
	}
}
