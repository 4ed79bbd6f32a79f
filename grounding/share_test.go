package grounding_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// allButGame has n cells, one white piece that moves from a to b, a frame
// rule over every move that neither starts nor ends on the cell, and
// attackedb: a black cell with a white piece on another cell (other is a
// dense static relation). Each is an or over all moves (cells) but the
// excluded ones.
func allButGame(n int) string {
	var sb strings.Builder
	sb.WriteString("(role p) (piece b) (piece w)\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "(index %d) ", i)
	}
	sb.WriteString(`
(<= (other ?x ?y) (index ?x) (index ?y) (distinct ?x ?y))
(<= (base (cell ?x ?p)) (index ?x) (piece ?p))
(<= (input p (move ?a ?b)) (index ?a) (index ?b))
(init (cell 1 w))
`)
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&sb, "(init (cell %d b)) ", i)
	}
	fmt.Fprintf(&sb, `
(<= (legal p (move ?a ?b)) (true (cell ?a w)) (true (cell ?b b)))
(<= (next (cell ?b w)) (does p (move ?a ?b)))
(<= (next (cell ?a b)) (does p (move ?a ?b)))
(<= (next (cell ?x ?p)) (true (cell ?x ?p)) (does p (move ?a ?b)) (other ?x ?a) (other ?x ?b))
(<= (attackedb ?c) (true (cell ?c b)) (true (cell ?u w)) (other ?c ?u))
(<= anyatt (attackedb ?c))
(<= (goal p 100) anyatt)
(<= (goal p 0) (not anyatt))
(<= terminal (true (cell %d w)))
`, n)
	return sb.String()
}

// checkSamePlays compares every function of p and q (the same game grounded
// two ways) on random states with one random action per role, the inputs
// under which an or over all moves but some is not trivially true, and on
// states with none.
func checkSamePlays(t *testing.T, p, q *grounding.Program, rng *rand.Rand, rounds int) {
	t.Helper()
	checkSameGame(t, p, q, rng)
	fp, fq := p.Functions(), q.Functions()
	in := make([]bool, p.NumInputs())
	var vp, vq []bool
	for round := range rounds {
		clear(in)
		for i := range p.Props {
			in[p.TrueInput(i).Node()-1] = rng.IntN(2) == 1
		}
		if round%8 != 0 {
			for r := range p.Roles {
				if n := len(p.Actions[r]); n > 0 {
					in[p.DoesInput(r, rng.IntN(n)).Node()-1] = true
				}
			}
		}
		vp = p.Circuit.Eval(in, vp)
		vq = q.Circuit.Eval(in, vq)
		for i := range fp {
			if grounding.Value(vp, fp[i].Lit) != grounding.Value(vq, fq[i].Lit) {
				t.Fatalf("%s differs (round %d)", p.FunctionName(fp[i]), round)
			}
		}
	}
}

// The frame rule and attackedb are grounded once per binding of the moves
// (cells), not once per head atom: under a MaxInstances that the per-atom
// joins exceed, the game grounds, to the same functions.
func TestShareAllButOne(t *testing.T) {
	const n, limit = 30, 10_000
	f, err := grounding.Parse("allbut.kif", []byte(allButGame(n)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lim := grounding.Limits{MaxInstances: limit}
	if _, err := grounding.GroundNoShare(ctx, f, lim); !errors.Is(err, grounding.ErrLimit) || !strings.Contains(err.Error(), "MaxInstances") {
		t.Fatalf("GroundNoShare(allbut, MaxInstances %d) = %v, want MaxInstances", limit, err)
	}
	p, err := grounding.Ground(ctx, f, lim)
	if err != nil {
		t.Fatalf("Ground(allbut, MaxInstances %d) = %v", limit, err)
	}
	q, err := grounding.GroundNoShare(ctx, f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Circuit.NumNodes() > q.Circuit.NumNodes() {
		t.Errorf("Ground(allbut) has %d circuit nodes, more than the %d without sharing", p.Circuit.NumNodes(), q.Circuit.NumNodes())
	}
	checkSamePlays(t, p, q, rand.New(rand.NewPCG(1, 2)), 2000)
	// Every state of a few cells: the white piece and the cells it may
	// move to, exhaustively on a small board.
	small, err := grounding.Parse("allbut4.kif", []byte(allButGame(4)))
	if err != nil {
		t.Fatal(err)
	}
	p4, err := grounding.Ground(ctx, small, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	q4, err := grounding.GroundNoShare(ctx, small, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkAllStates(t, p4, q4)
}

// checkAllStates compares every function of p and q on every state with
// no action or one action per role (p has at most 20 propositions).
func checkAllStates(t *testing.T, p, q *grounding.Program) {
	t.Helper()
	if len(p.Props) > 20 || len(p.Roles) != 1 {
		t.Fatalf("checkAllStates: %d propositions, %d roles", len(p.Props), len(p.Roles))
	}
	fp, fq := p.Functions(), q.Functions()
	in := make([]bool, p.NumInputs())
	var vp, vq []bool
	for s := range 1 << len(p.Props) {
		for a := -1; a < len(p.Actions[0]); a++ {
			clear(in)
			for i := range p.Props {
				in[p.TrueInput(i).Node()-1] = s>>i&1 == 1
			}
			if a >= 0 {
				in[p.DoesInput(0, a).Node()-1] = true
			}
			vp = p.Circuit.Eval(in, vp)
			vq = q.Circuit.Eval(in, vq)
			for i := range fp {
				if grounding.Value(vp, fp[i].Lit) != grounding.Value(vq, fq[i].Lit) {
					t.Fatalf("%s differs in state %b with action %d", p.FunctionName(fp[i]), s, a)
				}
			}
		}
	}
}

// shareGames have rules whose head variables only dense static atoms read
// once the head is bound (different_cells and the like).
var shareGames = []string{"ggp-base/minichess.kif", "ggp-base/skirmish.kif", "ggp-base/knightfight.kif", "ggp-base/checkers.kif", "ggp-base/breakthrough.kif"}

// shareCorpus runs TestShareSameGame on the corpus games whose set/file.kif
// name matches, instead of shareGames.
var shareCorpus = flag.String("share.corpus", "", "TestShareSameGame compares the corpus games whose set/file.kif name matches this regexp")

// Shared items change how a disjunction is built, not what it says: every
// function is the same as without them, and the circuit no larger.
func TestShareSameGame(t *testing.T) {
	games := shareGames
	if *shareCorpus != "" {
		re, err := regexp.Compile(*shareCorpus)
		if err != nil {
			t.Fatalf("-share.corpus: %v", err)
		}
		games = nil
		for _, path := range corpusFiles(t) {
			if name := corpusName(path); re.MatchString(name) {
				games = append(games, name)
			}
		}
	}
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			f, lim, with := groundCorpusLenient(t, filepath.Join(corpusDir, g))
			without, err := grounding.GroundNoShare(context.Background(), f, lim)
			if errors.Is(err, grounding.ErrLimit) {
				t.Skipf("%s grounds only with sharing: %v", g, err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if with.Circuit.NumNodes() > without.Circuit.NumNodes() {
				t.Errorf("Ground(%s) has %d circuit nodes, more than the %d without sharing", g, with.Circuit.NumNodes(), without.Circuit.NumNodes())
			}
			checkSamePlays(t, with, without, rand.New(rand.NewPCG(3, 4)), 500)
			t.Logf("%s: %d circuit nodes, %d without sharing", g, with.Circuit.NumNodes(), without.Circuit.NumNodes())
		})
	}
}
