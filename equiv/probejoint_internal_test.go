package equiv

import (
	"context"
	"fmt"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

// jointCheck returns colonelBlotto's probe check against b in joint mode
// with its relations computed (no defaults: setUp turns to joint moves).
func jointCheck(t *testing.T, pa, pb *grounding.Program) *probeCheck {
	t.Helper()
	lim := Limits{}.WithDefaults()
	c := newProbeCheck(context.Background(), game{p: pa}, game{p: pb}, &lim)
	c.setUp([]int32{-1, -1}, []int32{-1, -1}, []int32{-1, -1})
	c.computeRelations()
	if !c.joint || c.off {
		t.Fatalf("joint %v, off %v: want the joint check on", c.joint, c.off)
	}
	return c
}

// TestJointProbeUnderTrueMappings checks the claim the joint probe check
// rests on: a game mapping maps the outcome of every joint move (x, y),
// seen from x's role, onto that of (σx, σy) seen from σx's role, whether
// it exchanges the roles or not. colonelBlotto's symmetries (exchange the
// colonels; permute the three battlefields) keep the outcomes, and so
// does the translation to a mutant (every transformation but pair-args:
// roles and actions renumbered); swapping two actions of one role that
// are permutations of each other (what each generator of its graph group
// does) does not.
func TestJointProbeUnderTrueMappings(t *testing.T) {
	p := loadCorpus(t, "ggp-base/colonelBlotto.kif")
	c := jointCheck(t, p, p)
	troops := func(r, x int) [3]int {
		var a [3]int
		if _, err := fmt.Sscanf(p.Actions[r][x], "(troops %d %d %d)", &a[0], &a[1], &a[2]); err != nil {
			t.Fatalf("action %s: %v", p.Actions[r][x], err)
		}
		return a
	}
	id := func(r int, a [3]int) int {
		x, ok := p.ActionID(r, fmt.Sprintf("(troops %d %d %d)", a[0], a[1], a[2]))
		if !ok {
			t.Fatalf("no action %v of role %d", a, r)
		}
		return x
	}
	for _, tc := range []struct {
		name string
		swap bool   // exchange the roles
		perm [3]int // battlefield i goes to perm[i]
		want bool   // rejected
	}{
		{"identity", false, [3]int{0, 1, 2}, false},
		{"exchange the colonels", true, [3]int{0, 1, 2}, false},
		{"rotate the battlefields", false, [3]int{1, 2, 0}, false},
		{"exchange and reflect", true, [3]int{0, 2, 1}, false},
	} {
		role := func(r int) int {
			if tc.swap {
				return 1 - r
			}
			return r
		}
		act := func(r, x int) int {
			a := troops(r, x)
			var b [3]int
			for i := range 3 {
				b[tc.perm[i]] = a[i]
			}
			return id(role(r), b)
		}
		if got := c.rejectsJoint(role, act); got != tc.want {
			t.Errorf("%s: rejected %v, want %v", tc.name, got, tc.want)
		}
	}
	// A transposition of (troops 1 2 7) and (troops 7 1 2) of the first
	// role alone, every other action fixed.
	u, w := id(0, [3]int{1, 2, 7}), id(0, [3]int{7, 1, 2})
	act := func(r, x int) int {
		switch {
		case r == 0 && x == u:
			return w
		case r == 0 && x == w:
			return u
		}
		return x
	}
	if !c.rejectsJoint(func(r int) int { return r }, act) {
		t.Error("a transposition of two actions of one role is not rejected")
	}

	pa, pb, v := gameAndMutant(t, "ggp-base/colonelBlotto.kif")
	cm := jointCheck(t, pa, pb)
	roleOf := make([]int, 2)
	actOf := make([][]int, 2)
	for r, name := range pa.Roles {
		rb, ok := pb.RoleID(translate(t, v, name))
		if !ok {
			t.Fatalf("role %s has no image", name)
		}
		roleOf[r] = rb
		for _, a := range pa.Actions[r] {
			ab, ok := pb.ActionID(rb, translate(t, v, a))
			if !ok {
				t.Fatalf("action %s has no image", a)
			}
			actOf[r] = append(actOf[r], ab)
		}
	}
	if cm.rejectsJoint(func(r int) int { return roleOf[r] }, func(r, x int) int { return actOf[r][x] }) {
		t.Error("the mutant's own translation is rejected")
	}
}

// TestJointProbeOnBlottoGraphGroup: colonelBlotto's graph group fixes no
// action and exchanges the roles, so the two-move plays with defaults
// cannot be set up; the joint check is, and it rejects every generator of
// the graph group (none is a symmetry; each swaps two actions of one role
// that the ground graph cannot tell apart) before verification. Without
// the joint moves setUpFixed turns the check off. The graph is built
// without JointMove vertices (noJointMoves), with which the graph group
// is the game's.
func TestJointProbeOnBlottoGraphGroup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds colonelBlotto's ground graph and group (about 20 s)")
	}
	p := loadCorpus(t, "ggp-base/colonelBlotto.kif")
	x := selfGameOn(t, p, noJointMoves)
	grp, err := isomorph.Automorphisms(context.Background(), x.g, isomorph.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{}.WithDefaults()
	c := newProbeCheck(context.Background(), x, x, &lim)
	c.setUpFixed(p, x.g, grp.Generators)
	if c.off || !c.joint {
		t.Fatalf("off %v, joint %v: want the joint check on", c.off, c.joint)
	}
	base := p.ActionInputBases()
	for gi, sp := range grp.Generators {
		mv, ok, err := movesOf(x.g, base, sp)
		if err != nil || !ok {
			t.Fatalf("generator %d: %v %v", gi, ok, err)
		}
		if !c.rejectsMoves(mv, base) {
			t.Errorf("generator %d is not rejected", gi)
		}
	}
}

// noJointMoves builds ground graphs without JointMove vertices: the joint
// probe check is for the games whose joint moves are over
// groundgraph.Options.MaxJointMoves, where the graph group may permute
// the actions more freely than the joint outcomes allow (with the
// vertices, colonelBlotto's and roshambo2's graph groups are the games').
var noJointMoves = groundgraph.Options{MaxJointMoves: -1}

// TestJointProbeKeepsVerified (from the review of issue-blotto20): on
// roshambo2, where Compare's root leaves the joint check to run, every
// graph isomorphism that verifies survives the probe check alone, against
// the game itself and a mutant, while the check prunes others (its prune
// path, refineJoint and refutes, under a true mapping).
func TestJointProbeKeepsVerified(t *testing.T) {
	joint := false
	probeRefuter := func(s *search) func(*isomorph.Node) bool {
		s.probes = newProbeCheck(s.ctx, s.a, s.b, s.lim)
		return func(n *isomorph.Node) bool {
			r := s.probesRefute(n)
			joint = joint || s.probes.joint
			return r
		}
	}
	pa, pb, _ := gameAndMutant(t, "ggp-base/roshambo2.kif")
	n := keepsVerifiedOn(t, "roshambo2 vs itself", pa, pa, noJointMoves, probeRefuter)
	n += keepsVerifiedOn(t, "roshambo2 vs mutant", pa, pb, noJointMoves, probeRefuter)
	if !joint || n == 0 {
		t.Fatalf("joint check engaged %v, %d nodes refuted: want it engaged and pruning", joint, n)
	}
}
