package equiv_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/mutate"
	"github.com/gamequiv/gamequiv/satcheck"
)

// Budgets of the property tests. A game takes part when it grounds within
// corpusGroundTimeout. A comparison with an equivalent mutant must come out
// equivalent within compareTimeout (issue #11): unknown fails the test,
// except on the games listed in pendingEquivalent. So does an unknown
// comparison with a different mutant, with the same exceptions; after one
// the game's later seeds are skipped.
// propertyBudget stops starting new comparisons so that the default
// `go test` stays within a few minutes on two cores (-property.budget=0 runs
// everything); what was not run is counted and logged.
const (
	mutantGroundTimeout = 5 * time.Second
	replayPlayouts      = 4
	replaySteps         = 60
	replayRandomStates  = 8
)

// corpusGroundTimeout decides which games take part. Which games ground
// within it depends on the machine's load, so a run that must include a
// given game (confirming a pendingEquivalent change on a loaded machine)
// raises it.
var corpusGroundTimeout = flag.Duration("property.ground", time.Second, "a corpus game takes part in the property tests when it grounds within this time")

// propertyGames restricts the corpus (not -short's games) to the paths it
// matches, so that a run of a few games does not ground the whole corpus
// first.
var propertyGames = flag.String("property.games", "", "regular expression: only the corpus games whose path (e.g. ggp-base/quad.kif) matches take part")

// propertyBudget stops starting new comparisons after this time per test
// (zero: no budget, the full set); see the constants above.
var propertyBudget = flag.Duration("property.budget", 75*time.Second, "time after which the property tests start no new comparison (0: run everything)")

// compareTimeout is the time limit of one comparison: issue 11 asks every
// comparison of a game with an equivalent variant to finish within 60 s.
var compareTimeout = flag.Duration("property.timeout", 60*time.Second, "time limit of one comparison of the property tests")

// propertySeeds are the mutation seeds of each game (the first two under -short).
var propertySeeds = []int64{1, 2, 3}

// shortGames are the games of the property tests under -short: small games
// of many styles whose comparisons take milliseconds.
var shortGames = []string{
	"ggp-base-repo/maze.kif",
	"ggp-base-repo/ticTacToe.kif",
	"ggp-base/asteroids.kif",
	"ggp-base/beatMania.kif",
	"ggp-base/blocks.kif",
	"ggp-base/breakthroughSmall.kif",
	"ggp-base/buttons.kif",
	"ggp-base/hanoi.kif",
	"ggp-base/nim1.kif",
	"ggp-base/sum15.kif",
}

// corpusGame is a corpus game that grounds in under corpusGroundTimeout.
type corpusGame struct {
	path string
	file *grounding.File
	p    *grounding.Program
}

// groundableCorpus grounds every game of ggp-base and ggp-base-repo (only
// shortGames under -short) in parallel and keeps those that ground in time.
func groundableCorpus(t *testing.T) (games []corpusGame, tried int) {
	t.Helper()
	var only *regexp.Regexp
	if *propertyGames != "" {
		re, err := regexp.Compile(*propertyGames)
		if err != nil {
			t.Fatalf("-property.games: %v", err)
		}
		only = re
	}
	var paths []string
	if testing.Short() {
		paths = shortGames
	} else {
		for _, dir := range []string{"ggp-base-repo", "ggp-base"} {
			fs, err := filepath.Glob(filepath.Join(gamesDir, dir, "*.kif"))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				if path := strings.TrimPrefix(f, gamesDir); only == nil || only.MatchString(path) {
					paths = append(paths, path)
				}
			}
		}
	}
	if len(paths) == 0 {
		t.Skip("game corpus not available")
	}
	out := make([]*corpusGame, len(paths))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, path := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			src, err := os.ReadFile(gamesDir + path)
			if err != nil {
				return
			}
			f, err := grounding.Parse(path, src)
			if err != nil {
				return
			}
			p, err := grounding.Ground(context.Background(), f, grounding.Limits{Timeout: *corpusGroundTimeout})
			if err != nil {
				return
			}
			out[i] = &corpusGame{path: path, file: f, p: p}
		}()
	}
	wg.Wait()
	for _, g := range out {
		if g != nil {
			games = append(games, *g)
		}
	}
	if len(games) == 0 {
		t.Skip("game corpus not available")
	}
	return games, len(paths)
}

// tally counts the outcomes of a property test across parallel subtests.
type tally struct {
	mu     sync.Mutex
	counts map[string]int
	notes  []string
}

func (c *tally) add(what string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	c.counts[what] += n
}

func (c *tally) note(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

func (c *tally) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([]string, 0, len(c.counts))
	for k := range c.counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%d", k, c.counts[k])
	}
	slices.Sort(c.notes)
	for _, n := range c.notes {
		b.WriteString("\n  " + n)
	}
	return b.String()
}

// groundMutant grounds a variant with the mutant limits.
func groundMutant(f *grounding.File) (*grounding.Program, error) {
	ctx, cancel := context.WithTimeout(context.Background(), mutantGroundTimeout)
	defer cancel()
	return grounding.Ground(ctx, f, grounding.Limits{Timeout: mutantGroundTimeout})
}

// TestMutantsEquivalent is the property test of Compare: on every corpus game
// that grounds in under a second and several seeds, Compare(game, equivalent
// mutant) is equivalent, the mapping passes an independent satcheck.Verify,
// and it survives the replay of random playouts and random states translated
// through it (checkReplay).
func TestMutantsEquivalent(t *testing.T) {
	forMutants(t, func(t *testing.T, g corpusGame, seed int64, seedsLeft int, c *tally) bool {
		if _, ok := pendingEquivalent[g.path]; ok && *propertyBudget > 0 {
			c.add("pending_not_run", 1)
			return false
		}
		if !mutantEquivalent(t, g, seed, c) {
			c.add("skipped_later_seeds", seedsLeft)
			return false
		}
		return true
	})
}

// pendingEquivalent lists the games, of those that ground in under a
// second, whose comparison with an equivalent mutant can still come out
// unknown within compareTimeout, with the cause measured (issue #11 stays
// open for them). An unknown on any other game fails TestMutantsEquivalent.
// The budgeted default run skips these games; -property.budget=0 runs them
// too, and notes a listed game that comes out equivalent so that the list
// only shrinks. Measured with -property.budget=0 on 2026-11-25 (36 unknown
// of 168 games, load average 10-18); factoringTheTurk,
// bidding-tictactoe_10coins, ghostMaze2p and coloredtrails were decided
// since, and after the graph-phase work of that evening breakthrough,
// breakthroughHoles, CephalopodMicro, checkersTiny, checkersTorus,
// chinesecheckers4, 4pttc and nineBoardTicTacToe came out equivalent with
// every seed in 3-20 s a comparison at load 15 (-property.budget=0), and so
// did chineseCheckers2p, connect5, crissrace, cubicup, cubicup_3player,
// duplicateStateLarge, minichess-evilconjuncts, quad_7x7,
// tictactoe_3d_6player, tictactoex9 and wallmaze (2-20 s a comparison). On
// 2026-11-26 (branch issue-biggraph, load 30-38) so did
// checkersBarrelNoKings (8-15 s, 3-6 s CPU, a comparison) and
// chinesecheckers6 (31-43 s, 15-17 s CPU). Which games ground in
// under a second depends on the machine's load: the games that ground in
// under 3 s on 2026-11-25 but were not in the measuring run are listed too,
// with what issue 12 measured of them or as not measured.
// On 2026-11-26 entries were measured by CPU time, which does not depend
// on the load (scripts/measure_mutants.sh; BENCHMARKS.md,
// "pendingEquivalent by CPU time"): 3pffa, battle, checkersSmall,
// chineseCheckers4p, chineseCheckers6p, chinesecheckers6, crossers3, god,
// hallway, mummyMaze2p_2007 and Zhadu were equivalent with every seed in
// 1-28 CPU s a comparison and came off (chinesecheckers6 also on branch
// issue-biggraph);
// the causes that name CPU seconds are from that run. On 2026-11-26
// (evening) factoringDelusionsOfAdequacy, factoringPotentPotables and
// factoringTypedefDestruct (through pair types) and pacman3p were
// equivalent with every seed in 1-17 CPU s and came off. On 2026-11-27
// (main 5faf612, with the graph phase's residue tables, action-class hints
// and BDD supports) pacman2p, four_way_battle, tttcc4, chinesecheckers3
// and knightazons were equivalent with every seed in 5-25 CPU s and came
// off (BENCHMARKS.md, "Session 8"). On 2026-11-27 (session 10, chunked
// truth tables in verification) ad_game_2x2 was equivalent with seeds 1-3
// in 1.6-2.3 CPU s and came off; on a quiet machine (main dd4b222,
// BENCHMARKS.md "Session 10's tree on a quiet machine") skirmish and
// strangeSkirmish were equivalent with seeds 1-3 in 20.7-28.6 CPU s
// (12-19 s wall) and came off. In session 11 (main 76a7cd4,
// scripts/measure_mutants.sh -t 900s -C 45 -c 45, load 15-18) checkers was
// equivalent with every seed in 15.0, 23.3 and 21.3 CPU s, and wargame01,
// wargame02 and wargame03 in 6.4-14.0 CPU s, and came off; the other
// entries measured then say so. In session 12 (branch lead12, role arcs;
// scripts/measure_mutants.sh -t 300s -C 60 -c 0, load 12-15) knightfight
// was equivalent with every seed in 18.8, 17.5 and 25.0 CPU s and
// knightwar in 15.5, 23.3 and 22.1, and came off. In session 15 (main
// 5a4a33c; scripts/measure_mutants.sh -t 300s -C 120 -c 30, load 7-27;
// BENCHMARKS.md, "Session 15") wargame01 was equivalent with every seed in
// 7.3, 8.2 and 26.1 CPU s, but it stays: its seed 3 took as long in
// session 13, and then ran over the 60 s wall limit under the full suite's
// load; the entries that name session 15 give its figures (with -c 30 a game's later seeds were not run once a
// seed took over 30 CPU s), the others were not measured again. In session
// 22 (main 4fc0695; scripts/measure_mutants.sh -t 300s -C 60 -c 45, load
// 4-11) colonelBlotto was equivalent with every seed in 7.0-7.5 CPU s and
// wargame01 in 5.6-7.1 CPU s, and came off; with -t 900s at load 15-30
// skirmishFinal1 took 28.5, 31.7 and 47.5 CPU s, skirmishFinal2 36.2,
// 36.4 and 53.9, checkers-mustjump 43.6 and 47.4 (seeds 1, 2),
// skirmishFinal3 50.5 (seed 1), skirmishHoles 30.6 and 19.3 with seed 3
// over 60; brawl, quad, checkers-suicide-cylinder-mustjump, blobwars,
// merrills, quarto and queens went over 60 CPU s with seed 1, and stay
// but queens: with plays in the ground graph (branch lead22) its seeds 1-3
// were equivalent in 3.6, 9.7 and 1.9 CPU s, and it came off.
var pendingEquivalent = map[string]string{
	"ggp-base/blobwars.kif":                           "time limit: the graph phase did not finish in 60 s (issue 12's graph-phase measurements)",
	"ggp-base/brawl.kif":                              "seed 1 equivalent in 6.9 CPU s, seeds 2 and 3 over 60 CPU s (measure_mutants.sh -C 60, branch lead12, 2026-11-27 session 12); session 15 (5a4a33c, load 9-13): seed 1 equivalent in 11.8 CPU s, seed 2 unknown at 300 s wall after 83.3 CPU s with 1 search node and 0 candidates, 266 s of it verifying the first candidate",
	"ggp-base/checkers-mustjump.kif":                  "seeds 1 and 2 equivalent in 44.9 and 46.7 CPU s, seed 3 in 136-138 CPU s, verification-bound: whole-cone sweep proofs in the search's checks (sweep lemmas, branch issue-verify14, session 14); on main seed 3 took 46-242 CPU s from run to run (the BDD stage's path); session 15 (5a4a33c, load 24): seed 1 equivalent in 43.2 CPU s, 219 of 248 s wall in the graph phase",
	"ggp-base/checkers-suicide-cylinder-mustjump.kif": "graph phase over 60 s (issue 12)",
	"ggp-base/merrills.kif":                           "seeds 1 and 2 unknown at 300 s: the graph phase takes 10 s since the BDD order from terms (lead10), then verification runs out of time (286 s; measure_mutants.sh -C 0, 2026-11-27)",
	"ggp-base/quad.kif":                               "equivalent since the corner-pair check of session 12, over the 30 CPU s line: renamed 633 nodes, 46.6 CPU s; seed-1 mutant 1,039 nodes, 65.8 CPU s (branch issue-search12, load 8-17); with backjumps (session 14) renamed seed 1 in 515 nodes but 112.7 CPU s against main's 109.0 at load 15-25, most of it the candidate's verification",
	"ggp-base/quarto.kif":                             "search: renamed seed 1 unknown at 120 s wall (49 CPU s, 920 nodes; graph phase 14.5 s) on main e2a83a9 (session 14): the ground graph's group is S16 x S16 (pieces and squares), pair types separate complementary pieces only, and backjumps cut few subtrees",
	"ggp-base/skirmishFinal1.kif":                     "equivalent with every seed in 25.1, 27.3 and 35.3 CPU s (branch lead12, session 12): seed 3 over the 30 CPU s line; session 15 (5a4a33c, load 12): seed 1 equivalent in 39.7 CPU s, 97 of 125 s wall in the graph phase",
	"ggp-base/skirmishFinal2.kif":                     "equivalent with every seed in 30.0, 32.2 and 45.0 CPU s (branch lead12, session 12): over the 30 CPU s line; session 15 (5a4a33c, load 11): seed 1 equivalent in 42.4 CPU s, 116 of 160 s wall in the graph phase",
	"ggp-base/skirmishFinal3.kif":                     "equivalent with every seed in 50.5, 42.3 and 48.1 CPU s (branch lead12, session 12, load 12-15): over the 30 CPU s line; session 15 (5a4a33c, load 14): seed 1 unknown at 300 s wall, still in the graph phase after 62.4 CPU s",
	"ggp-base/skirmishHoles.kif":                      "seeds 1 and 2 equivalent in 23.2 and 14.9 CPU s, seed 3 over 60 CPU s (branch lead12, session 12); session 15 (5a4a33c, load 11): seed 1 equivalent in 33.4 CPU s, 74 of 110 s wall verifying its one candidate",
}

// forMutants runs one of the property tests: for every corpus game that
// grounds in under corpusGroundTimeout (games in parallel) and every seed
// (two under -short), run(game, seed) until it returns false, while the
// -property.budget lasts; seeds past the budget are counted as
// not_run_budget. seedsLeft is the number of seeds after this one. The
// counts are logged at the end.
func forMutants(t *testing.T, run func(t *testing.T, g corpusGame, seed int64, seedsLeft int, c *tally) bool) {
	games, tried := groundableCorpus(t)
	seeds := propertySeeds
	if testing.Short() {
		seeds = seeds[:2]
	}
	deadline := time.Now().Add(*propertyBudget)
	if *propertyBudget <= 0 {
		deadline = time.Now().Add(24 * time.Hour)
	}
	var c tally
	t.Run("games", func(t *testing.T) {
		for _, g := range games {
			t.Run(strings.TrimSuffix(g.path, ".kif"), func(t *testing.T) {
				t.Parallel()
				for i, seed := range seeds {
					if time.Now().After(deadline) {
						c.add("not_run_budget", 1)
						continue
					}
					if !run(t, g, seed, len(seeds)-1-i, &c) {
						break
					}
				}
			})
		}
	})
	t.Logf("games: %d of %d ground in under %v; seeds %v\ncounts:%s", len(games), tried, *corpusGroundTimeout, seeds, &c)
}

// mutantEquivalent runs one game and seed; it returns false when the
// comparison hit a limit (later seeds would too).
func mutantEquivalent(t *testing.T, g corpusGame, seed int64, c *tally) bool {
	t.Helper()
	v, err := mutate.Equivalent(g.file, seed, mutate.Options{})
	if err != nil {
		t.Errorf("seed %d: mutate.Equivalent: %v", seed, err)
		return true
	}
	pb, err := groundMutant(v.File)
	if err != nil && slices.Contains(v.Applied, "pair-args") {
		// Re-encoded argument pairs can blow up the grounding of recursive
		// relations (connectFour): the same seed without pair-args.
		c.add("pair_args_fallback", 1)
		v, err = mutate.Equivalent(g.file, seed, mutate.Options{Ops: mutate.AllOps &^ mutate.PairArgs})
		if err == nil {
			pb, err = groundMutant(v.File)
		}
	}
	if err != nil {
		c.add("mutant_not_grounded", 1)
		c.note("%s seed %d: mutant does not ground: %v", g.path, seed, err)
		return false
	}
	rep, err := equiv.ComparePrograms(context.Background(), g.p, pb, equiv.Limits{Timeout: *compareTimeout})
	if err != nil {
		t.Errorf("seed %d (%v): Compare: %v", seed, v.Applied, err)
		return true
	}
	switch rep.Verdict {
	case equiv.Unknown:
		if cause, ok := pendingEquivalent[g.path]; ok {
			c.add("unknown_pending", 1)
			c.note("%s seed %d: unknown, as listed in pendingEquivalent (%s): %s", g.path, seed, cause, rep.Reason)
			return false
		}
		c.add("FAILED_unknown", 1)
		t.Errorf("seed %d (%v): Compare = unknown after %v: %s", seed, v.Applied, time.Duration(rep.Stats.PhaseMs["ground"]+rep.Stats.PhaseMs["graph"]+rep.Stats.PhaseMs["search"]+rep.Stats.PhaseMs["verify"])*time.Millisecond, rep.Reason)
		return false
	case equiv.NotEquivalent:
		c.add("FAILED", 1)
		t.Errorf("seed %d (%v): Compare = not_equivalent: %s", seed, v.Applied, rep.Reason)
		return true
	}
	if _, ok := pendingEquivalent[g.path]; ok {
		c.note("%s seed %d: equivalent; if every seed is, take it off pendingEquivalent", g.path, seed)
	}
	if err := checkMapping(g.p, pb, rep, seed); err != nil {
		c.add("FAILED", 1)
		t.Errorf("seed %d (%v): equivalent, but the mapping is wrong: %v", seed, v.Applied, err)
		return true
	}
	c.add("equivalent", 1)
	c.add("candidates", int(rep.Stats.Candidates))
	return true
}

// checkMapping re-checks an Equivalent report independently of the search:
// satcheck.Verify with a fresh Checker, then checkReplay.
func checkMapping(a, b *grounding.Program, rep *equiv.Report, seed int64) error {
	m, err := rep.Mapping.Indexes(a, b)
	if err != nil {
		return err
	}
	res, err := satcheck.Verify(context.Background(), a, b, m, satcheck.Options{Mode: satcheck.NoCache})
	if err != nil {
		return fmt.Errorf("Verify: %w", err)
	}
	if res.Verdict != satcheck.Equivalent {
		return fmt.Errorf("Verify = %v", res)
	}
	return checkReplay(a, b, m, seed)
}

// checkReplay plays random joint moves in a, translates every state and joint
// move through m, and checks that b's circuit gives the mapped legal, next,
// goal and terminal values; then does the same from random states (an
// equivalence holds on every state, reachable or not).
func checkReplay(a, b *grounding.Program, m satcheck.Mapping, seed int64) error {
	sa, sb := grounding.NewSim(a), grounding.NewSim(b)
	rng := rand.New(rand.NewPCG(uint64(seed), 0x7265706c6179))
	mapState := func(s []bool) []bool {
		out := make([]bool, len(b.Props))
		for p, v := range s {
			out[m.Props[p]] = v
		}
		return out
	}
	// same compares the functions of state s (already set in both sims).
	same := func(where string) error {
		if !slices.Equal(mapState(sa.State()), sb.State()) {
			return fmt.Errorf("%s: states differ under the mapping", where)
		}
		if ta, tb := sa.Terminal(), sb.Terminal(); ta != tb {
			return fmt.Errorf("%s: terminal %v vs %v", where, ta, tb)
		}
		for r := range a.Roles {
			rb := m.Roles[r]
			if ga, gb := sa.Goals(r), sb.Goals(rb); !slices.Equal(ga, gb) {
				return fmt.Errorf("%s: goals of %s %v vs %v", where, a.Roles[r], ga, gb)
			}
			for x := range a.Actions[r] {
				if la, lb := sa.IsLegal(r, x), sb.IsLegal(rb, m.Actions[r][x]); la != lb {
					return fmt.Errorf("%s: legal %s %s: %v vs %v", where, a.Roles[r], a.Actions[r][x], la, lb)
				}
			}
		}
		return nil
	}
	step := func(moves []int, where string) error {
		mb := make([]int, len(moves))
		for r, x := range moves {
			mb[m.Roles[r]] = m.Actions[r][x]
		}
		sa.Step(moves)
		sb.Step(mb)
		return same(where)
	}
	randomMoves := func(legalOnly bool) []int {
		moves := make([]int, len(a.Roles))
		for r := range moves {
			if n := len(a.Actions[r]); !legalOnly && n > 0 {
				moves[r] = rng.IntN(n)
				continue
			}
			legal := sa.Legal(r)
			if len(legal) == 0 {
				return nil
			}
			moves[r] = legal[rng.IntN(len(legal))]
		}
		return moves
	}
	for _, acts := range a.Actions {
		if len(acts) == 0 {
			return nil // no joint move exists: nothing to play
		}
	}
	for pl := range replayPlayouts {
		sa.SetState(a.InitialState())
		sb.SetState(b.InitialState())
		if err := same(fmt.Sprintf("playout %d, initial state", pl)); err != nil {
			return err
		}
		for st := range replaySteps {
			if sa.Terminal() {
				break
			}
			moves := randomMoves(true)
			if moves == nil {
				break
			}
			if err := step(moves, fmt.Sprintf("playout %d, step %d", pl, st+1)); err != nil {
				return err
			}
		}
	}
	for i := range replayRandomStates {
		s := make([]bool, len(a.Props))
		for p := range s {
			s[p] = rng.IntN(2) == 0
		}
		sa.SetState(s)
		sb.SetState(mapState(s))
		where := fmt.Sprintf("random state %d", i)
		if err := same(where); err != nil {
			return err
		}
		if err := step(randomMoves(false), where+" after a random joint move"); err != nil {
			return err
		}
	}
	return nil
}

// TestMutantsDifferent is the negative property test: on the same games and
// seeds, a mutate.Different variant (a goal value changed, or a body literal
// dropped, with a difference seen on a playout under the identity) must not
// come out equivalent unless it really is. A changed goal value is a certain
// difference and must give not_equivalent. A dropped literal may leave a game
// equivalent under some other mapping; an equivalent verdict is then accepted
// only when the mapping passes checkMapping, and counted.
//
// An unknown fails the test (issue #11), except on the games of
// pendingEquivalent, whose comparisons with equivalent mutants can still
// hit the time limit for causes that a different mutant meets as well (the
// graph phase above all); the budgeted default run skips them.
func TestMutantsDifferent(t *testing.T) {
	forMutants(t, func(t *testing.T, g corpusGame, seed int64, _ int, c *tally) bool {
		if _, ok := pendingEquivalent[g.path]; ok && *propertyBudget > 0 {
			c.add("pending_not_run", 1)
			return false
		}
		return mutantDifferent(t, g, seed, c)
	})
}

func mutantDifferent(t *testing.T, g corpusGame, seed int64, c *tally) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*mutantGroundTimeout)
	f, change, err := mutate.Different(ctx, g.file, seed)
	cancel()
	if err != nil {
		c.add("no_different_mutant", 1)
		if !errors.Is(err, mutate.ErrNoDifference) {
			c.note("%s seed %d: mutate.Different: %v", g.path, seed, err)
		}
		return !errors.Is(err, context.DeadlineExceeded)
	}
	pb, err := groundMutant(f)
	if err != nil {
		c.add("mutant_not_grounded", 1)
		return true
	}
	rep, err := equiv.ComparePrograms(context.Background(), g.p, pb, equiv.Limits{Timeout: *compareTimeout})
	if err != nil {
		t.Errorf("seed %d (%s): Compare: %v", seed, change, err)
		return true
	}
	switch rep.Verdict {
	case equiv.NotEquivalent:
		c.add("not_equivalent", 1)
		return true
	case equiv.Unknown:
		if cause, ok := pendingEquivalent[g.path]; ok {
			c.add("unknown_pending", 1)
			c.note("%s seed %d: unknown, as listed in pendingEquivalent (%s): %s", g.path, seed, cause, rep.Reason)
			return false
		}
		c.add("FAILED_unknown", 1)
		t.Errorf("seed %d (%s): Compare = unknown: %s", seed, change, rep.Reason)
		return false
	}
	if strings.HasPrefix(change, "goal value") {
		c.add("FAILED", 1)
		t.Errorf("seed %d: %s: Compare = equivalent (%s)", seed, change, rep.Reason)
		return true
	}
	if err := checkMapping(g.p, pb, rep, seed); err != nil {
		c.add("FAILED", 1)
		t.Errorf("seed %d: %s: Compare = equivalent with a wrong mapping: %v", seed, change, err)
		return true
	}
	c.add("equivalent_after_drop", 1)
	c.note("%s seed %d: really equivalent after %s", g.path, seed, change)
	return true
}
