package satcheck_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestTableMultiplier: bit 7 of x·y against y·x over 8-bit numbers (16
// inputs, 2^16 rows, past ExhaustiveBits) is hard for SAT and for sweeping
// (TestSweepCancel); the chunked truth table proves it equal without a SAT
// call, and refutes bit 7 against bit 6 (simulation off: it would refute
// that pair first).
func TestTableMultiplier(t *testing.T) {
	a, b, fa, fb := multipliers(8, 7)
	_, b6, _, fb6 := multipliers(8, 6)
	for _, tc := range []struct {
		name  string
		b     *grounding.Program
		fb    grounding.Lit
		equal bool
	}{{"Commuted", b, fb, true}, {"OtherBit", b6, fb6, false}} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustChecker(t, a, tc.b, satcheck.Options{Mode: satcheck.NoSimulation})
			got, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, fa, tc.fb, identity(a).InputMap(a, tc.b))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.equal {
				t.Errorf("CheckFunc = %v, want %v (stats %+v)", got, tc.equal, c.Stats())
			}
			if st := c.Stats(); st.Tables != 1 || st.SATCalls != 0 {
				t.Errorf("stats %+v, want one chunked table and no SAT call", st)
			}
		})
	}
}

// TestTableWorkLimit: a table over TableWork is not simulated; the pair
// goes to SAT (bits 3 of a 4×4 multiplier, small enough for gophersat).
// Neither is the table of cones under SweepMinGates gates: gophersat
// decides small cones in milliseconds, and the table of 2^27 rows that
// sum15 against ticTacToe has took seconds.
func TestTableWorkLimit(t *testing.T) {
	a, b, fa, fb := multipliers(4, 3)
	im := identity(a).InputMap(a, b)
	for _, tc := range []struct {
		name     string
		work     int64
		tables   int64
		minGates int
	}{{"Default", 0, 1, 1}, {"Disabled", -1, 0, 1}, {"TooSmall", 2, 0, 1}, {"SmallCones", 0, 0, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustChecker(t, a, b, satcheck.Options{ExhaustiveBits: 4, TableWork: tc.work, SweepMinGates: tc.minGates, Mode: satcheck.NoSimulation})
			eq, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, fa, fb, im)
			if err != nil {
				t.Fatal(err)
			}
			if !eq {
				t.Fatalf("x·y and y·x differ at bit 3 (stats %+v)", c.Stats())
			}
			if got := c.Stats().Tables; got != tc.tables {
				t.Errorf("TableWork %d: %d chunked tables, want %d (stats %+v)", tc.work, got, tc.tables, c.Stats())
			}
		})
	}
}

// TestTableCancel: a table of 2^22 rows (11-bit multiplier) stops within
// milliseconds of its deadline.
func TestTableCancel(t *testing.T) {
	a, b, fa, fb := multipliers(11, 10)
	im := identity(a).InputMap(a, b)
	c := mustChecker(t, a, b, satcheck.Options{TableWork: 1 << 40})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := c.CheckFunc(ctx, grounding.FuncTerminal, fa, fb, im); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("CheckFunc = %v, want context.DeadlineExceeded (stats %+v)", err, c.Stats())
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("CheckFunc returned after %v, want at once", d)
	}
	if st := c.Stats(); st.Tables != 1 || st.SATCalls != 0 {
		t.Errorf("stats %+v, want one interrupted chunked table", st)
	}
}
