package groundgraph

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestSimSupportCost checks that the semantic support of a next function
// whose cone reads nearly every move of both roles (amazons on a 5x5
// board: about 8,000 action inputs, one proposition) costs a few words
// per cone input, not the hundreds that rounds unable to decide anything
// new used to allocate (a random round of 128 words and boundary rounds of
// 64 once the only proposition was decided).
func TestSimSupportCost(t *testing.T) {
	src, err := os.ReadFile("testdata/amazons5.kif")
	if err != nil {
		t.Fatal(err)
	}
	p, err := grounding.Load(context.Background(), "amazons5.kif", src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{p: p, opt: Options{}.withDefaults(), moves: true}
	n := 0
	for _, f := range p.Functions() {
		name := p.FunctionName(f)
		if f.Kind != grounding.FuncNext || !strings.HasPrefix(name, "(next (location 3 3 ") {
			continue
		}
		n++
		cn, err := b.cone(f.Lit)
		if err != nil {
			t.Fatal(err)
		}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		supp, err := b.semanticSupport(context.Background(), f)
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.Fatal(err)
		}
		words := float64(m1.TotalAlloc-m0.TotalAlloc) / 8 / float64(len(cn.Inputs))
		t.Logf("%s: %d inputs, support %d, %.1f words allocated per input", name, len(cn.Inputs), supp.Len(), words)
		if words > 64 {
			t.Errorf("%s: %.1f words allocated per cone input, want at most 64", name, words)
		}
	}
	if n != 3 {
		t.Fatalf("%d functions (next (location 3 ...)), want 3", n)
	}
}
