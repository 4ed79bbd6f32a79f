package groundgraph

import (
	"context"
	"runtime"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestSimMaxBytesPasses checks that simulation rounds wider than
// simMaxBytes run as passes on a smaller simulator: the semantic support
// of Checkers' largest function of the state (terminal, 1,485 slots) (simulated: no BDDs, no tables)
// is the same with a bound of 8 words a slot as with the default, and
// allocates less than half as much (a 128-word round allocated its cone's
// slots times 128 words, per function: 100 MB for racer's cones).
func TestSimMaxBytesPasses(t *testing.T) {
	p := loadGame(t, "ggp-base/checkers.kif")
	b := &builder{p: p, opt: Options{SupportTableBits: -1}.withDefaults(), moves: true}
	// Functions of the state: next functions' rounds include moves, which
	// choice rounds and BDDs often settle first.
	var fs []grounding.Function
	for _, f := range p.Functions() {
		if f.Kind != grounding.FuncNext {
			fs = append(fs, f)
		}
	}
	slots := func(f grounding.Function) int {
		cn, err := b.cone(f.Lit)
		if err != nil {
			t.Fatal(err)
		}
		return cn.NumSlots()
	}
	f := slices.MaxFunc(fs, func(x, y grounding.Function) int { return slots(x) - slots(y) })
	support := func(f grounding.Function, limit int64) ([]int, uint64) {
		defer func(old int64) { simMaxBytes = old }(simMaxBytes)
		simMaxBytes = limit
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		s, err := b.semanticSupport(context.Background(), f)
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.Fatal(err)
		}
		return s.Inputs(), m1.TotalAlloc - m0.TotalAlloc
	}
	n := slots(f)
	want, full := support(f, simMaxBytes)
	got, small := support(f, int64(n)*8*8)
	t.Logf("%s: %d slots, %d bytes allocated with the default bound, %d with 8 words a slot", p.FunctionName(f), n, full, small)
	if !slices.Equal(got, want) {
		t.Errorf("%s: support %v with 8 words a slot, %v with the default", p.FunctionName(f), got, want)
	}
	if 2*small > full {
		t.Errorf("%s: %d bytes allocated with 8 words a slot, %d with the default: want under half", p.FunctionName(f), small, full)
	}
}

// TestSimPassesOneActionPerRole (from the review of issue-verify16): the
// passes of a round clear the inputs between them, since random samples
// set role inputs by OR: without it a later pass holds samples where r
// does a and b at once, and (next q), constant false, would depend on p.
func TestSimPassesOneActionPerRole(t *testing.T) {
	p, err := grounding.Load(context.Background(), "twoacts.kif", []byte(twoActsKIF), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{p: p, opt: Options{SupportTableBits: -1, MaxResidueTableWork: -1}.withDefaults(), moves: true}
	withBytes := func(n int64, f grounding.Function) []int {
		defer func(old int64) { simMaxBytes = old }(simMaxBytes)
		simMaxBytes = n
		sup, err := b.semanticSupport(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		return sup.Inputs()
	}
	for _, f := range p.Functions() {
		if f.Kind != grounding.FuncNext {
			continue
		}
		if got, want := withBytes(8, f), withBytes(simMaxBytes, f); !slices.Equal(got, want) {
			t.Errorf("%s: support %v with one-word passes, %v with the default", p.FunctionName(f), got, want)
		}
	}
}

// twoActsKIF: (next q) needs r to do a and b at once, so it is constant false.
const twoActsKIF = `(role r)
(role s)
(init p)
(<= (legal r a) (true p))
(<= (legal r b) (true p))
(<= (legal r c) (true p))
(legal s x)
(legal s y)
(<= (next q) (does r a) (does r b) (true p))
(<= (next p) (true p))
(<= (next p) (does s x))
(<= terminal (true q))
(goal r 100)
(goal s 100)
`
