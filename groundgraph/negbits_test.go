package groundgraph_test

import (
	"context"
	"os"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
)

// TestNegativeSupportTableBits checks that Options.SupportTableBits < 0
// (documented: never tables) builds a game whose constant goal's cone
// reads no input (goalFalse.kif): the test of which cones a BDD may decide
// read cn.Inputs[-1] there (found by review).
func TestNegativeSupportTableBits(t *testing.T) {
	src, err := os.ReadFile("testdata/goalFalse.kif")
	if err != nil {
		t.Fatal(err)
	}
	p, err := grounding.Load(context.Background(), "goalFalse.kif", src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Build panicked: %v", r)
		}
	}()
	if _, err := groundgraph.Build(context.Background(), p, groundgraph.Options{SupportTableBits: -1, Workers: 1}); err != nil {
		t.Fatal(err)
	}
}
