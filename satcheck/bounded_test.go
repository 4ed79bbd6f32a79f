package satcheck_test

import "testing"

// TestBoundedEffortAgainstBruteForce: under a bound of one proof a check
// (sweeping only, with a conflict budget that never runs out) answers some
// pairs, every answer as brute force says, and leaves the pairs that need
// more proofs undecided with a limit error instead of sweeping on.
func TestBoundedEffortAgainstBruteForce(t *testing.T) {
	opt := sweepOnly
	opt.SweepConflictsBeforeBDD = 1 << 30
	opt.BoundedEffort = 1
	equal, different, st := againstBruteForce(t, opt)
	t.Logf("%d equal and %d different pairs agree with brute force, %d undecided; stats %+v", equal, different, st.BoundedOut, st)
	if st.BoundedOut == 0 || equal == 0 || different == 0 {
		t.Errorf("want some pairs undecided under a bound of one proof, and some proven equal and different")
	}
}
