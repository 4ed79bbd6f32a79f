package equiv

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestCellCheckKeepsVerifiedMappings checks the soundness of the search's
// refutation on cell-constant states: on games whose ground graphs have
// more isomorphisms than the games have verified mappings, every complete
// mapping that Verify accepts among all graph isomorphisms must also be
// reached with the cell check pruning the search. Each game is compared
// with itself and with an equivalent mutant (renamed, reordered, rewritten,
// so that indices differ between the sides). The test also requires the
// check to prune somewhere, so that it cannot pass by never refuting.
func TestCellCheckKeepsVerifiedMappings(t *testing.T) {
	games := []string{"ggp-base-repo/ticTacToe.kif", "ggp-base/coins.kif", "ggp-base/pentago.kif",
		"ggp-base/buttons.kif", "ggp-base/sum15.kif", "ggp-base/tictactoe_3d_small_2player.kif"}
	pruned := int64(0)
	for _, path := range games {
		pa, pb, _ := gameAndMutant(t, path)
		pruned += keepsVerified(t, path+" vs itself", pa, pa, cellRefuter)
		pruned += keepsVerified(t, path+" vs mutant", pa, pb, cellRefuter)
	}
	if pruned == 0 {
		t.Error("the cell check refuted no node on any game")
	}
}

// cellRefuter is keepsVerified's refuter for the cell check.
func cellRefuter(s *search) func(*isomorph.Node) bool {
	return newCellCheck(s.a, s.b, s.lim).refutes
}

// keepsVerified enumerates every graph isomorphism from pa to pb, verifies
// each, and fails unless the search pruned by one check alone (the refuter
// refuter makes for a search from pa to pb) still reaches every one that
// verifies. It returns the nodes the check refuted.
func keepsVerified(t *testing.T, name string, pa, pb *grounding.Program, refuter func(*search) func(*isomorph.Node) bool) int64 {
	t.Helper()
	return keepsVerifiedOn(t, name, pa, pb, groundgraph.Options{}, refuter)
}

// keepsVerifiedOn is keepsVerified on the ground graphs that opt builds.
func keepsVerifiedOn(t *testing.T, name string, pa, pb *grounding.Program, opt groundgraph.Options, refuter func(*search) func(*isomorph.Node) bool) int64 {
	t.Helper()
	ctx := context.Background()
	ga, err := groundgraph.Build(ctx, pa, opt)
	if err != nil {
		t.Fatal(err)
	}
	gb, err := groundgraph.Build(ctx, pb, opt)
	if err != nil {
		t.Fatal(err)
	}
	checker, err := satcheck.NewChecker(pa, pb, satcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	verified := map[string]bool{}
	all := 0
	for iso, err := range isomorph.Search(ctx, ga, gb, isomorph.Limits{MaxNodes: 1 << 20}, nil) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all++
		m, err := ga.Mapping(gb, iso)
		if err != nil {
			t.Fatal(err)
		}
		res, err := checker.Verify(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict == satcheck.Equivalent {
			verified[fmt.Sprint(iso)] = true
		}
	}
	if len(verified) == 0 {
		t.Fatalf("%s: none of %d graph isomorphisms verifies", name, all)
	}
	lim := Limits{}.WithDefaults()
	refutes := refuter(newSearch(ctx, game{pa, ga}, game{pb, gb}, checker, &lim, &Report{}))
	refuted := int64(0)
	kept := map[string]bool{}
	visit := func(n *isomorph.Node) bool {
		if refutes(n) {
			refuted++
			return true
		}
		return false
	}
	for iso, err := range isomorph.SearchNodes(ctx, ga, gb, isomorph.Limits{MaxNodes: 1 << 20}, visit) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		kept[fmt.Sprint(iso)] = true
	}
	for m := range verified {
		if !kept[m] {
			t.Fatalf("%s: the check pruned a verified mapping (%d of %d isomorphisms verify, %d nodes refuted)", name, len(verified), all, refuted)
		}
	}
	t.Logf("%s: %d graph isomorphisms, %d verify, %d kept, %d nodes refuted", name, all, len(verified), len(kept), refuted)
	return refuted
}

// TestCellCheckMovesRead compares a game with a copy whose first gate
// legal function also reads a move, legal AND NOT does(r, a): satcheck
// reads legal with every does false, so the identity verifies, and the
// cell check must keep every verified mapping whichever side reads the
// move, also at nodes where no joint move exists (GDL validation rejects
// such rules, but ComparePrograms takes any program). It failed when only
// the side that reads moves left the no-joint-move mark out of its
// signature.
func TestCellCheckMovesRead(t *testing.T) {
	for _, path := range []string{"ggp-base/coins.kif", "ggp-base-repo/ticTacToe.kif", "ggp-base/sum15.kif"} {
		pa, _, _ := gameAndMutant(t, path)
		pm := readsMoveInLegal(t, pa)
		keepsVerified(t, path+" reading a move vs itself", pm, pa, cellRefuter)
		keepsVerified(t, path+" vs itself reading a move", pa, pm, cellRefuter)
	}
}

// readsMoveInLegal returns a copy of p whose first gate legal function
// becomes legal AND NOT does(r, a).
func readsMoveInLegal(t *testing.T, p *grounding.Program) *grounding.Program {
	q := *p
	c := p.Circuit
	c.Start = slices.Clone(c.Start)
	c.Fanin = slices.Clone(c.Fanin)
	q.Legal = make([][]grounding.Lit, len(p.Legal))
	for r := range p.Legal {
		q.Legal[r] = slices.Clone(p.Legal[r])
	}
	for r := range q.Legal {
		for a, l := range q.Legal[r] {
			if l.Node() <= c.NumInputs {
				continue
			}
			fs := []grounding.Lit{l, p.DoesInput(r, a).Not()}
			slices.Sort(fs)
			n := c.NumNodes()
			c.Fanin = append(c.Fanin, fs...)
			c.Start = append(c.Start, int32(len(c.Fanin)))
			q.Legal[r][a] = grounding.Lit(n) << 1
			q.Circuit = c
			return &q
		}
	}
	t.Fatalf("%s has no legal function with a gate", p.Name)
	return nil
}
