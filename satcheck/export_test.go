package satcheck

import (
	"context"

	"github.com/gamequiv/gamequiv/grounding"
)

// SetSupportStages changes the stages of DependsOn and SemanticSupport for a
// test: truth tables up to 2^bits rows, random simulation on or off. It
// returns a function restoring the defaults.
func SetSupportStages(bits int, sim bool) (restore func()) {
	oldBits, oldSim := supportExhaustiveBits, supportSim
	supportExhaustiveBits, supportSim = bits, sim
	return func() { supportExhaustiveBits, supportSim = oldBits, oldSim }
}

// ReferenceActionClasses is the tests' reference implementation of
// ActionClasses (classes_ref_internal_test.go).
var ReferenceActionClasses = referenceActionClasses

// InjectLemma records in c's lemma store of kind's semantics, under input
// map im, the lemma that A's input i is constant false: a wrong lemma, for
// the tests that a sweep does not trust one blindly.
func InjectLemma(c *Checker, kind grounding.FuncKind, im []int32, i int) {
	s := &c.lemmas[semanticsOf(kind)]
	g := s.begin(im)
	defer s.end()
	s.union(g, originOf(0, int32(i)+1), originFalse, 0)
}

// RealizableForTest asks whether pattern pat of T_f(i, j) occurs on side A
// (side B if onB), as settle does (witness replay first, then SAT).
func RealizableForTest(ctx context.Context, c *Checker, onB bool, f grounding.Lit, i, j int32, pat int) (bool, error) {
	s := c.a
	if onB {
		s = c.b
	}
	return c.realizable(ctx, s, pairKey{f, i, j}, pat)
}
