package satcheck_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestTableLastRow (found by review): bit 7 of x·y against the same bit
// XOR "every input true": the two differ on the table's last row alone
// (row 2^16-1, the last of the last 4,096-row chunk). The chunked table
// must refute the pair; one that skipped a chunk's last row would prove it.
func TestTableLastRow(t *testing.T) {
	const n, k = 8, 7
	var props []string
	for i := range 2 * n {
		props = append(props, fmt.Sprintf("v%02d", i))
	}
	build := func(name string, flipTop bool) (*grounding.Program, grounding.Lit) {
		q := newProg(name, nil, props, nil)
		var xs, ys, all []grounding.Lit
		for i := range n {
			xs = append(xs, grounding.InputLit(i))
			ys = append(ys, grounding.InputLit(n+i))
		}
		for i := range 2 * n {
			all = append(all, grounding.InputLit(i))
		}
		f := multiplier(q, xs, ys)[k]
		if flipTop {
			f = q.xor(f, q.and(all...))
		}
		return q.done(), f
	}
	a, fa := build("a", false)
	b, fb := build("b", true)
	c := mustChecker(t, a, b, satcheck.Options{Mode: satcheck.NoSimulation})
	got, err := c.CheckFunc(context.Background(), grounding.FuncTerminal, fa, fb, identity(a).InputMap(a, b))
	if err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.Tables != 1 {
		t.Fatalf("stats %+v, want the pair decided by one chunked table", st)
	}
	if got {
		t.Errorf("CheckFunc = true: the pair differs on the all-true row (stats %+v)", c.Stats())
	}
}
