package groundgraph

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestSupportsSizedExactly checks that no semantic support that reads
// actions holds room beyond its inputs: such a support lists every action
// of each role it reads, and amazons' supports took 400 MB of its graph
// phase, up to a quarter more with append's growth.
func TestSupportsSizedExactly(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "amazons5.kif"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := grounding.Load(context.Background(), "amazons5", src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	roles := 0
	for _, ff := range g.Functions() {
		if len(ff.roles) == 0 {
			continue
		}
		roles++
		if cap(ff.Support) != len(ff.Support) {
			t.Errorf("%s: support of %d inputs has room for %d", p.FunctionName(ff.Function), len(ff.Support), cap(ff.Support))
		}
	}
	if roles == 0 {
		t.Fatal("no function reads actions: the test checks nothing")
	}
}
