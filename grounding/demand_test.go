package grounding_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

var demandGamesFlag = flag.String("demand.games", "", "TestDemandSameGame checks these comma-separated ggp-base games instead of its short list")

var demandAll = flag.Bool("demand.all", false, "TestDemandSameGame checks every corpus game, not only the short list (per-game Timeout: -corpus.timeout)")

// demandGames have auxiliary fluent relations whose domains the demand
// rewrite restricts. hitori has siblings (two auxiliary relations in one
// body) that a demand rule without a sip order reads circularly: its legal
// moves vanished.
var demandGames = []string{"tictactoe", "connectFour", "breakthroughSmall", "quarto", "checkersTiny", "pentago", "endgame", "minichess-evilconjuncts", "knightfight", "chomp", "hitori", "ruleDepthLinear"}

// The demand rewrite changes nothing a keyword function can reach: with and
// without it a game grounds to the same propositions, actions and functions.
func TestDemandSameGame(t *testing.T) {
	games := demandGames
	if *demandGamesFlag != "" {
		games = strings.Split(*demandGamesFlag, ",")
	}
	paths := make([]string, 0, len(games))
	for _, g := range games {
		paths = append(paths, filepath.Join(corpusDir, "ggp-base", g+".kif"))
	}
	if *demandAll {
		paths = corpusFiles(t)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, lim, with := groundCorpusLenient(t, path)
			without, err := grounding.GroundNoDemand(context.Background(), f, lim)
			if err != nil {
				t.Skipf("grounds only with the demand rewrite: %v", err)
			}
			checkSameGame(t, without, with, rand.New(rand.NewPCG(3, 4)))
		})
	}
}

// groundCorpusLenient reads, parses and grounds a corpus game leniently
// within -corpus.timeout; a missing corpus, a file that does not parse
// and a grounding limit skip the test.
func groundCorpusLenient(t *testing.T, path string) (*grounding.File, grounding.Limits, *grounding.Program) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("corpus not found: %v", err)
	}
	f, err := grounding.Parse(path, src)
	if err != nil {
		t.Skip(err)
	}
	lim := grounding.Limits{LenientUnsafe: true, Timeout: *corpusTimeout}
	p, err := grounding.Ground(context.Background(), f, lim)
	if errors.Is(err, grounding.ErrLimit) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return f, lim, p
}

// countGame counts white pits with an accumulator, as merrills'
// count_loop: a recursive auxiliary relation whose recursive call gets its
// demand from the demand of its own rule.
const countGame = `(role r)
(init (pit 1 w)) (init (pit 2 b)) (init (pit 3 w))
(nextpit 1 2) (nextpit 2 3)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(num 0) (num 1) (num 2) (num 3) (num 4)
(colour w) (colour b)
(<= (countone ?p ?w1 ?w) (true (pit ?p w)) (succ ?w1 ?w))
(<= (countone ?p ?w ?w) (true (pit ?p b)) (num ?w))
(<= (countloop 3 ?w1 ?w) (countone 3 ?w1 ?w))
(<= (countloop ?p1 ?w1 ?w) (countone ?p1 ?w1 ?w2) (nextpit ?p1 ?p2) (countloop ?p2 ?w2 ?w))
(<= (whites ?w) (countloop 1 0 ?w))
(<= (legal r (flip ?p)) (true (pit ?p ?c)))
(<= (next (pit ?p w)) (does r (flip ?p)) (true (pit ?p b)))
(<= (next (pit ?p b)) (does r (flip ?p)) (true (pit ?p w)))
(<= (next (pit ?p ?c)) (true (pit ?p ?c)) (does r (flip ?q)) (distinct ?p ?q))
(<= terminal (whites 3))
(<= (goal r 100) (whites 3))
(<= (goal r 0) (not (whites 3)))
`

func TestDemandRecursive(t *testing.T) {
	f, err := grounding.Parse("count.kif", []byte(countGame))
	if err != nil {
		t.Fatal(err)
	}
	with, err := grounding.Ground(context.Background(), f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	without, err := grounding.GroundNoDemand(context.Background(), f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkSameGame(t, without, with, rand.New(rand.NewPCG(5, 6)))
	s := grounding.NewSim(with)
	if s.Terminal() {
		t.Fatal("terminal with two white pits")
	}
	playNames(t, with, s, "(flip 2)")
	if !s.Terminal() || !slices.Equal(s.Goals(0), []int{100}) {
		t.Errorf("after (flip 2): terminal %v, goals %v; want terminal with 100", s.Terminal(), s.Goals(0))
	}
}

// productDemandGame has an auxiliary relation step(u, x) of n-1 atoms
// whose only caller binds u and x from two independent true atoms: its
// demand relation is the product of n values of u and n values of x. With
// chain, step calls hop(u, x) with both bound by step's demand, as chess's
// rook_move_ig calls clear_row_ig: hop's demand is the product again, fed
// by step's factors once those are split. Without chain, step's rule reads
// (true (on ?u)) too: with u bound by succ alone, step would be a widened
// single-use relation that inlineSingleUse unfolds into reach, and no
// demand relation would be left to factor.
func productDemandGame(n int, chain bool) string {
	var b strings.Builder
	b.WriteString("(role a)\n(init (at 1))\n(init (on 1))\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "(num %d)\n", i)
		if i < n {
			fmt.Fprintf(&b, "(succ %d %d)\n", i, i+1)
		}
	}
	if chain {
		b.WriteString("(<= (step ?u ?x) (hop ?u ?x))\n(<= (hop ?u ?x) (succ ?u ?x) (true (on ?x)))\n")
	} else {
		b.WriteString("(<= (step ?u ?x) (succ ?u ?x) (true (on ?x)) (true (on ?u)))\n")
	}
	b.WriteString(`(<= (next (at ?y)) (true (at ?x)) (num ?y))
(<= (next (on ?y)) (true (on ?x)) (num ?y))
(<= (reach ?x) (true (on ?x)) (true (at ?u)) (step ?u ?x))
(<= (legal a (go ?x)) (reach ?x))
(<= (legal a wait) (true (at ?x)))
(<= terminal (true (at 3)))
(goal a 100)
`)
	return b.String()
}

// TestDemandFactors: step's demand relation (n^2 = 90,000 atoms) would
// outgrow MaxAtoms = 50,000; measured as a product when the atoms run out,
// it is split into one demand relation per argument (n atoms each) and the
// game grounds, the same game as without any demand rewrite. With chain,
// hop's demand outgrows the limit in the second pass and is split in a
// third. Without the factoring passes it stops at MaxAtoms.
func TestDemandFactors(t *testing.T) {
	const n = 300
	for _, chain := range []bool{false, true} {
		t.Run(fmt.Sprintf("chain=%v", chain), func(t *testing.T) {
			f, err := grounding.Parse("product.kif", []byte(productDemandGame(n, chain)))
			if err != nil {
				t.Fatal(err)
			}
			lim := grounding.Limits{MaxAtoms: 50_000}
			if _, err := grounding.GroundNoDemandFactors(context.Background(), f, lim); !errors.Is(err, grounding.ErrLimit) {
				t.Fatalf("GroundNoDemandFactors(MaxAtoms 50,000) = %v, want MaxAtoms", err)
			}
			with, err := grounding.Ground(context.Background(), f, lim)
			if err != nil {
				t.Fatalf("Ground(MaxAtoms 50,000) = %v", err)
			}
			without, err := grounding.GroundNoDemand(context.Background(), f, grounding.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			checkSameGame(t, without, with, rand.New(rand.NewPCG(7, 8)))
		})
	}
}

// TestDemandFactorsEarly: the outgrown demand relations of
// productDemandGame are found as they outgrow, long before MaxAtoms: no
// pass runs into MaxAtoms, the domain phases do no more join work in all,
// and the game is the one the passes stopped at MaxAtoms give.
func TestDemandFactorsEarly(t *testing.T) {
	const n = 300
	for _, chain := range []bool{false, true} {
		t.Run(fmt.Sprintf("chain=%v", chain), func(t *testing.T) {
			f, err := grounding.Parse("product.kif", []byte(productDemandGame(n, chain)))
			if err != nil {
				t.Fatal(err)
			}
			lim := grounding.Limits{MaxAtoms: 50_000}
			late, lateErrs, lateWork, err := grounding.GroundPasses(context.Background(), f, lim, true)
			if err != nil {
				t.Fatalf("GroundPasses(late) = %v", err)
			}
			early, earlyErrs, earlyWork, err := grounding.GroundPasses(context.Background(), f, lim, false)
			if err != nil {
				t.Fatalf("GroundPasses(early) = %v", err)
			}
			for i, err := range earlyErrs {
				if errors.Is(err, grounding.ErrLimit) {
					t.Errorf("pass %d of %d stopped at a limit: %v", i+1, len(earlyErrs), err)
				}
			}
			if earlyWork > lateWork {
				t.Errorf("domain work %d (%d passes), want at most the work at MaxAtoms: %d (%d passes)", earlyWork, len(earlyErrs), lateWork, len(lateErrs))
			}
			t.Logf("domain work %d in %d passes; at MaxAtoms %d in %d passes", earlyWork, len(earlyErrs), lateWork, len(lateErrs))
			checkSameGame(t, late, early, rand.New(rand.NewPCG(7, 8)))
		})
	}
}

// nearProductDemandGame is productDemandGame with step's caller binding u
// and x through a shared variable (the player p that owns x and has an
// "at" atom on u, as chess's attackers reach their cells through the
// piece's owner): the demand of step is the product of n values of u and
// n of x, but its join is no product, so it is only ever measured while
// it grows (one more u each round), a row of u partly there, never a
// product exactly.
func nearProductDemandGame(n int) string {
	var b strings.Builder
	b.WriteString("(role a)\n(init (at 1 p1))\n(init (on 1))\n(player p1)\n(player p2)\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "(num %d)\n(owner p%d %d)\n", i, 1+i%2, i)
		if i < n {
			fmt.Fprintf(&b, "(succ %d %d)\n", i, i+1)
		}
	}
	b.WriteString(`(<= (next (at ?y ?p)) (true (at ?x ?q)) (succ ?x ?y) (player ?p))
(<= (next (on ?y)) (true (on ?x)) (num ?y))
(<= (step ?u ?x) (succ ?u ?x) (true (on ?x)) (true (on ?u)))
(<= (reach ?x) (true (on ?x)) (owner ?p ?x) (true (at ?u ?p)) (step ?u ?x))
(<= (legal a (go ?x)) (reach ?x))
(<= (legal a wait) (true (on ?x)))
(<= terminal (true (at 3 p1)))
(goal a 100)
`)
	return b.String()
}

// TestDemandNearProduct: step's demand (n^2 = 90,000 atoms) outgrows
// MaxAtoms = 50,000, and every measure sees it partly grown. Split when
// its factors' product holds at most demandProductSlack times its atoms,
// it is factored at the first measure and the game grounds, the same game
// as without any demand rewrite; split only when a product exactly, it
// runs into MaxAtoms.
func TestDemandNearProduct(t *testing.T) {
	const n = 300
	f, err := grounding.Parse("nearproduct.kif", []byte(nearProductDemandGame(n)))
	if err != nil {
		t.Fatal(err)
	}
	lim := grounding.Limits{MaxAtoms: 50_000}
	if _, errs, _, err := grounding.GroundPassesExact(context.Background(), f, lim); !errors.Is(err, grounding.ErrLimit) {
		t.Fatalf("GroundPassesExact(MaxAtoms 50,000) = %v after %d passes, want MaxAtoms", err, len(errs))
	}
	near, errs, work, err := grounding.GroundPasses(context.Background(), f, lim, false)
	if err != nil {
		t.Fatalf("GroundPasses(MaxAtoms 50,000) = %v", err)
	}
	for i, err := range errs {
		if errors.Is(err, grounding.ErrLimit) {
			t.Errorf("pass %d of %d stopped at a limit: %v", i+1, len(errs), err)
		}
	}
	t.Logf("domain work %d in %d passes", work, len(errs))
	without, err := grounding.GroundNoDemand(context.Background(), f, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkSameGame(t, without, near, rand.New(rand.NewPCG(7, 8)))
}
