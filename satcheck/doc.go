// Package satcheck verifies that two ground games' reasoning functions are
// equal under a candidate mapping: phase 3 of space-consistent game
// equivalence (SCGE) detection (Zhang & Liu).
//
// # What is checked
//
// A candidate σ maps the roles, the state propositions and each role's
// actions of program A bijectively onto those of program B (Mapping). It is
// an SCGE iff
//
//   - init maps onto init;
//   - for every state s ⊆ P (all 2^|P| of them, not only reachable ones)
//     terminal(s) ⇔ terminal'(σs), legal(r,a)(s) ⇔ legal'(σr,σa)(σs) and
//     goal(r,n)(s) ⇔ goal'(σr,n)(σs) for every value n, a value that one side
//     lacks being a constant-false function there;
//   - for every state and every joint move j in which each role does exactly
//     one of its actions (legal or not), next(p)(s,j) ⇔ next'(σp)(σs,σj).
//     When some role has no action at all no joint move exists, and the next
//     conditions hold vacuously.
//
// Every reasoning function is a literal of the program's circuit
// (grounding.Circuit) over the inputs "true p" and "does r a", so σ becomes a
// bijection of circuit inputs (Mapping.InputMap) and each condition is the
// equality of two literals of two circuits under an identification of their
// inputs. Functions of the state alone see every does-input false; next
// functions see one-hot does-inputs per role.
//
// # How one pair is decided
//
// Checker.CheckFunc (and Verify, pair by pair) tries cheap, complete methods
// before SAT:
//
//  1. The cache: a pair is identified by its two literals, its semantics and
//     the images of fa's syntactic support, which is all the answer depends
//     on; so later candidate mappings that agree on the support are answered
//     at once, whether the pair was equal or different (the paper's cache of
//     bad functions).
//  2. Structural hashing: fa's cone is rebuilt, gate by gate, inside B's
//     structural-hash table with A's inputs replaced by their images. If it
//     lands on fb, the functions are the same circuit.
//  3. Truth tables: when the joint input space is small (at most
//     2^Options.ExhaustiveBits rows, a role's one-hot choice counting as one
//     digit) both cones are simulated on every row, 64 rows per machine word.
//  4. Random simulation: Options.SimWords words of random inputs (512 vectors
//     by default), one-hot per role. A's inputs get fixed random vectors
//     chosen once per Checker, so A's values come from signatures precomputed
//     for its whole circuit and only B's cone is simulated per check; any
//     differing bit is a counterexample. Then witness replay (witness.go):
//     for legal, goal and terminal functions, the last 64 assignments that
//     separated the same function of A from earlier images are evaluated
//     through the mapping at hand, since the states that tell a function
//     apart (the few where a goal holds) are often ones random vectors
//     never draw and SAT found at great cost. A pair that simulation does
//     not separate is then compared flattened (flat.go): AND gates as sets
//     of literals, nested ANDs read positively merged into their readers,
//     so that two groupings of one disjunction (Connect Four's lines under
//     rewritten rules) are one formula.
//  5. Chunked truth tables (table.go): when the cones hold SweepMinGates
//     gates or more and the joint space is too large for one table in
//     memory but the fanins of both cones times its 64-row words are at
//     most Options.TableWork (2^27 by default), both cones are
//     simulated on every row, 4,096 rows at a time, looking at the context
//     between chunks. Equal only when every row agrees; else the first row
//     that does not is the counterexample. ad_game_2x2's pairs over 20
//     inputs, which gophersat took 2-9 s each to prove, take milliseconds.
//     Where it costs less, the split table (tablesplit.go) visits the same
//     rows but simulates the gates that read no free proposition once, on
//     the rows of the moves alone (colonelBlotto's score functions, whose
//     gates nearly all read the moves only).
//  6. BDDs (bdd.go): a pair of cones of SweepMinGates gates or more is
//     built as two BDDs over the joint variables in the Checker's one
//     manager (grounding.BDD), in grounding.PropOrder's order of A's
//     inputs; equal when (fa XOR fb) under the groups' one-hot constraints
//     is the constant false, else a path to true is the counterexample.
//     Gate BDDs are kept between checks (B's while its inputs keep their
//     images), so a piece count that many functions read is built once.
//     A pair over its node budget (Options.MaxBDDNodes) goes on to SAT.
//     merrills' piece counts through a mapping took gophersat minutes.
//  7. SAT: the Tseitin encoding of both cones, a miter asserting fa ≠ fb, and
//     the exactly-one constraint of each role whose actions the pair reads,
//     solved by a fresh gophersat solver. UNSAT proves equality; a model is a
//     counterexample. When the two cones hold Options.SweepMinGates gates or
//     more, the miter is decided by SAT sweeping instead (sweep.go): both
//     cones are merged into one structurally hashed graph over the joint
//     inputs, simulated, and swept in topological order, each internal node
//     whose signature matches an earlier node's (or a constant's) being
//     proven equal to it by a small SAT question over a window of the graph
//     before it is merged (encoding only the joint variables the window
//     reaches, each role's one-hot constraint projected onto them: at most
//     one of the reached actions when the role has others, so the question
//     is equisatisfiable and its model extends to a one-hot move); the roots
//     are equal when they end on the same node, or when the final miter over
//     the swept graph is UNSAT. Before its SAT questions the unbounded sweep
//     tries cut BDDs (sweepbdd.go): the two roots as BDDs over the internal
//     nodes both read, taken as free variables, and the inputs; equal, the
//     roots are equal for every value of those nodes (a count of the same
//     items in another order: queens' goals under a reflection). A single miter of a rewritten goal or
//     terminal function can take gophersat many minutes (and CaDiCaL tens
//     of seconds); sweeping answers in about a second.
//
// Exactly-one constraints are stated over all actions of the role, not only
// the ones that appear: a role's actions that neither function reads are
// interchangeable, so they are represented together by one "other" choice
// (then the members are at most one, instead of exactly one). At-most-one is
// encoded pairwise up to 5 members and with the sequential (ladder) encoding
// above. Verify completes a counterexample into a full state and joint move of
// A and evaluates both circuits on it again before reporting it.
//
// VerifyMoves verifies a self-mapping of one program by what it moves, for
// symmetry groups with thousands of generators: it carries σ through the
// circuit from the moved inputs (structural hashing, stopping at gates σ
// maps onto themselves), proves the pairs whose circuits σ maps onto their
// images, looks for differences by event-driven simulation from one base
// evaluation of the circuit, and checks the remaining pairs as Verify does.
// Functions that σ fixes, with all their inputs, are not visited.
//
// # Worked example
//
// Program A has one role x with actions (mark 1..3) and propositions
// (cell 1..3 x); next(cell 1 x) = (cell 1 x) ∨ (does x (mark 1)), stored as
// ¬AND(¬(cell 1 x), ¬(mark 1)). Program B is A in disguise: squares a, b, c
// stand for cells 3, 1, 2 and next(square b) is written
// (square b) ∨ ¬(put a) ∧ ¬(put c), which equals the original only because
// white does exactly one action. Under σ: (cell 1 x) ↦ (square b),
// (mark 1) ↦ (put b), WriteDIMACS prints the miter:
//
//	c var 1 = constant false
//	c var 2 = (true (cell 1 x)) = (true (square b))
//	c var 3 = (does x (mark 1)) = (does white (put b))
//	c var 4 = (does white (put a))
//	c var 5 = (does white (put c))
//	p cnf 8 16
//	-1 0          constant false
//	-6 -2 0       6 = AND(¬2, ¬3): A's next is ¬6
//	-6 -3 0
//	6 2 3 0
//	-7 -4 0       7 = AND(¬4, ¬5): neither (put a) nor (put c)
//	-7 -5 0
//	7 4 5 0
//	-8 -2 0       8 = AND(¬2, ¬7): B's next is ¬8
//	-8 -7 0
//	8 2 7 0
//	-6 -8 0       miter: ¬6 ∨ ¬8 and 6 ∨ 8, i.e. ¬6 ≠ ¬8
//	6 8 0
//	4 3 5 0       white does at least one action...
//	-4 -3 0       ...and at most one
//	-4 -5 0
//	-3 -5 0
//
// The formula is unsatisfiable, so the functions are equal; without the
// exactly-one clauses the model "no action at all" would separate them. (In
// practice this pair never reaches SAT: its 6-row truth table decides it.)
//
// # Semantic support
//
// DependsOn and SemanticSupport tell the ground-graph builder which inputs a
// function really depends on: a proposition whose flip can change it, or an
// action whose replacement by another action of the same role can change it
// (under one-hot moves, f = does(r,a1) depends on a2 and a3 as well, like its
// equivalent ¬does(r,a2) ∧ ¬does(r,a3)). Small supports are decided by truth
// tables, larger ones by simulation then SAT. FindDependence asks one SAT
// question about many candidate inputs at once (two copies of the cone,
// the second with the candidates behind selectors): unsatisfiable settles
// them all, a model gives witnesses; Dependence asks it again about fewer
// candidates on the same solver (unit clauses rule out the rest). Cones, their bit-parallel simulation
// and the structural hash come from grounding's circuit toolkit
// (grounding.Cone, grounding.ConeSim, grounding.StrashIndex).
//
// # Debugging slow SAT questions
//
// With the environment variable GAMEQUIV_SAT_DUMP set to a directory, every
// CNF handed to gophersat is written there as DIMACS before it is solved and
// removed again when the solve took less than GAMEQUIV_SAT_DUMP_MIN_MS
// milliseconds (default 1000); index.txt lists the files kept with their
// size, answer, solve time and what they ask (dump.go). WriteDIMACS writes
// the plain miter of one pair, and `gamequiv compare --dump-cnf DIR` the
// miters of every pair of a verified mapping, for external solvers.
//
// # Limits, cancellation, concurrency
//
// The CNF size is bounded before solving (Options.MaxVars,
// Options.MaxClauses; a larger miter gives a *LimitError matching ErrLimit).
// Solves use the patched gophersat v1.4.0 in third_party/gophersat (its
// README says what was changed): when the context of a check is cancelled
// the running solve is interrupted, stops within milliseconds and returns
// ctx.Err() (Stats.Abandoned); an interrupted solve never counts as UNSAT.
// Solves in different goroutines are independent, so one Checker runs up to
// Options.MaxConcurrentSolves of them at once. A Checker is safe for
// concurrent use.
package satcheck
