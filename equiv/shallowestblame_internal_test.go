package equiv

import "testing"

// mixedRoles: (next (p 1)) reads both actions of role a.
const mixedRoles = `
(role a) (role b)
(init (p 1)) (init (p 2)) (init (p 3)) (init (p 4))
(legal a x) (legal a y) (legal b x) (legal b y)
(<= (next (p 1)) (does a x))
(<= (next (p 1)) (does a y))
(<= (next (p 2)) (true (p 2)))
(<= (next (p 3)) (true (p 3)))
(<= (next (p 4)) (true (p 4)))
(<= (goal a 100) (true (p 1)) (true (p 2)))
(<= terminal (true (p 4)))
`

// TestShallowestBlameInvalidMappingPrunes (review pend15): a node whose
// partial mapping sends role a's actions to two roles is pruned by
// pruneFunc (ErrInvalidMapping prunes). shallowestBlame's extra refute of
// another function must not turn the same ErrInvalidMapping into a search
// error (s.err), which makes Compare return an error instead of a verdict.
func TestShallowestBlameInvalidMappingPrunes(t *testing.T) {
	x, s, partial := depthSearch(t, "mixedRoles", mixedRoles)
	// (p 2) first: the goal fails its check first.
	fixed := []int32{
		mapPropAt(t, x, s, partial, "(p 2)", "(p 3)", 6),
		mapPropAt(t, x, s, partial, "(p 3)", "(p 2)", 6),
	}
	mapPropAt(t, x, s, partial, "(p 1)", "(p 1)", 2)
	act := func(r, a string) int32 {
		ri, _ := x.p.RoleID(r)
		ai, ok := x.p.ActionID(ri, a)
		if !ok {
			t.Fatalf("no action %s of %s", a, r)
		}
		return int32(x.g.ActionVertex(ri, ai))
	}
	partial[act("a", "x")] = act("a", "x")
	s.fixDepth[act("a", "x")] = 3
	partial[act("a", "y")] = act("b", "y")
	partial[act("b", "y")] = act("a", "y")
	s.fixDepth[act("a", "y")] = 6
	s.fixDepth[act("b", "y")] = 6
	fixed = append(fixed, act("a", "y"), act("b", "y"))
	s.countNode()
	s.depthsOn, s.jumpTo = true, 6
	if !s.pruneFuncs(partial, fixed) {
		t.Fatal("pruneFuncs did not prune")
	}
	if s.err != nil {
		t.Errorf("pruneFuncs left s.err = %v; an invalid partial mapping must prune, not stop the search", s.err)
	}
}
