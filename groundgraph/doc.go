// Package groundgraph builds the coloured ground graph of a ground game
// (grounding.Program): phase 2 of space-consistent game equivalence (SCGE)
// detection after Zhang & Liu, with the graph's initial colouring (their
// "heuristic grouping") computed from the exact semantics of the reasoning
// functions. Two games are candidates for equivalence when their graphs are
// isomorphic (isomorph.Find, All, Search); each isomorphism gives, through
// Graph.Mapping, a candidate σ for satcheck to verify.
//
// # The graph
//
// Vertices, in this order (Vertex says what each one stands for):
//
//   - Prop: one per state proposition p, standing for both "true p" and
//     "next p" (the paper's first simplification). Its colour records
//     whether p is in the initial state (replacing the paper's init vertices).
//   - Action: one per action a of a role r, standing for both "does r a" and
//     "legal r a" (second simplification).
//   - Role: one per role.
//   - Goal: one per goal function "goal r n" that is not constantly false;
//     the utility n is part of its colour (replacing the integer vertices).
//   - Terminal: one vertex for "terminal".
//   - Interaction: for a function f tabled (see below) with at most
//     Options.MaxInteractionProps semantic propositions, one vertex per pair
//     {p, q} of them with a non-zero interaction in f, that is
//     #{x : f(x) ⊕ f(x^p) ⊕ f(x^q) ⊕ f(x^pq) = 1} ≠ 0 — unless all pairs
//     of f have the same interaction, which would say nothing the edges do
//     not. Arcs p → i, q → i, i → f.
//   - Corner: for a function f whose corners were searched (below), one
//     vertex per corner C, with arcs p → c for p in C and c → f; a corner
//     of a cofactor (below) also has arcs k → c from the ActionClass
//     vertices k of its joint move.
//   - CornerBreakers: for a corner C with breakers (below), one vertex b
//     with arcs q → b for its breakers q and b → c. In a maze, "may move
//     east" has the corners {control, on cell x} for every cell, and the
//     wall east of x is the one breaker of that corner: without breakers
//     every permutation of the walls is an automorphism.
//   - CornerPair: for a function f with more than Options.MaxCorners
//     corners from an anchor (below) and at most
//     Options.MaxCornerCountProps semantic propositions, the corners are
//     counted instead of listed: one vertex per pair {p, q} of
//     propositions that share corners, coloured by how many (unless every
//     pair shares as many, or more than Options.MaxCornerPairs pairs share
//     some), with arcs p → c, q → c, c → f. In lightsOnParallel a
//     quadrant's four cells make the goal true when each is on in one of
//     four ways: 1,024 corners, whose pair counts tell the quadrants apart.
//   - ActionClass: for a next function f and each role r it reads (of at
//     most Options.MaxClassActions actions, see below), one vertex per
//     class of r's actions with equal cofactors: f with r making one action
//     of the class is the same function of everything else as with r
//     making any other (satcheck.ActionClasses, exact). Arcs a → c for the
//     class's actions, c → f. In SimultaneousWin2 a cell's next function
//     reads all 256 presses, and the classes tell the 31 that press the
//     cell from the others. A role of more actions gets classes when f
//     has at most Options.MaxBigClassProps semantic propositions; its
//     strictly largest class is implicit: arcs r → c, none from its
//     actions (restclass.go).
//   - JointMove: for a game of two roles that both have at least two
//     legal actions in the initial state, one vertex per legal joint move
//     (x, y) there, when they are at most Options.MaxJointMoves (joint.go).
//     It carries the outcome of playing the move seen from each role;
//     the action whose view is the smaller points to it, it points to the
//     other (both point to it when the views are equal). In colonelBlotto
//     they tell the troop triples apart by how they fare against each
//     other: the graph group falls from 2.27×10^55 to the game's 12.
//   - Play: for a game where, in the initial state, exactly one role has
//     a choice and every other role exactly one legal action, one vertex
//     per two-move play (x, then y, the second move's role likewise the
//     only one with a choice in the state reached), when they are at most
//     Options.MaxJointMoves (plays.go). Arcs x → play → y. In queens the
//     plays show which placements attack each other, which the goal's
//     count over the whole board hides.
//   - Influence: for a tabled function f whose semantic inputs have more
//     than one influence value (below), one vertex per value v except the
//     value of the largest class of inputs (of those equally large, the
//     greatest value), with arcs u → i for the inputs u of influence v and
//     i → f. They label f's dependency arcs by influence: in Lights Out
//     every move is in the support of every cell's next function (another
//     move could have been made instead), and only the influence tells a
//     neighbour's switch from a far one.
//
// The vertex of a function is p's vertex for next(p), (r,a)'s vertex for
// legal(r,a), the goal or the terminal vertex. Arcs:
//
//   - dependency: input → function, for every input in the function's
//     semantic support: a proposition whose flip, or an action whose
//     replacement by another action of its role (every role doing exactly one
//     action), can change the function's value (satcheck.SemanticSupport,
//     computed here from a truth table when the cone's inputs are few). A
//     redundant literal therefore never adds an arc. Next functions read
//     propositions and actions; legal, goal and terminal read propositions.
//     When all the actions of a role r (at least two) are in f's support
//     and every one of their arcs would carry the same use hash (no
//     influence, action class or corner count tells them apart), the single
//     arc r → f stands for them (Support.roleAt): the automorphisms are the
//     same, the refinement's partition is at least as fine, and amazons'
//     cell functions lose 27 M arcs.
//   - consistency: action → its role, goal → its role.
//
// Functions are exactly the Boolean functions satcheck compares: legal,
// goal and terminal over all 2^|P| states with no moves; next over all
// states and all joint moves in which each role does exactly one action.
// When some role has no action there is no joint move, an SCGE says nothing
// about next functions, and Build leaves them out (no arcs into Prop
// vertices, no next features).
//
// # Semantic features and colours
//
// For a function f, its semantic input space is {0,1}^k × Π A_r over its k
// semantic propositions and the roles r of its semantic actions (a role is
// semantic with all of its actions or not at all). When that space has at
// most 2^Options.MaxTableBits rows (and within Options.MaxTableRows over all
// functions, taken by increasing size, equal sizes together) Build
// evaluates f's cone on every row, 64 rows per machine word (a role's
// actions that the cone does not read share one weighted row), and reads
// off exactly:
//
//   - the model count, #{x : f(x)};
//   - the influence of each proposition, #{x : f(x) ≠ f(x^p)}, and of each
//     action a of role r, #{(x, b) : f(x, r does b) ≠ f(x, r does a)};
//   - the interaction of each pair of propositions (above), when k is at most
//     Options.MaxInteractionProps.
//
// Corners describe big functions, whose tables are out of reach, near the
// two states that every SCGE fixes: the one where no proposition holds and
// the one where all hold. For a function of the state (or a next function
// that reads no action semantically) with k semantic propositions, a corner
// from anchor a is a set C of at most d of them such that flipping C from a
// changes f, while flipping C minus any one proposition does not (a locally
// minimal change). Build evaluates f on every point within distance d of
// both anchors, 64 points per word, with d the largest radius up to
// Options.MaxCornerWeight whose 2·Σ_{j≤d} C(k,j) points fit
// Options.MaxCornerPoints (and functions taken by increasing cost within
// Options.MaxCornerTotal); levels above 4 are visited, from each anchor,
// only up to one level past the first level with corners (a semantic
// condition, so equivalent games visit the same levels). When the budget
// cannot take every function at that radius, every function is first
// searched up to 4, then those that would go on are searched again at
// their radius with what is left. For "a line of x" the corners from the empty
// state are the lines: Connect Four's goals (48 to 96 propositions, far
// beyond a table) give its 84 lines of four per colour, which tie the
// columns together (its graph's group is then the mirror, of order 2,
// instead of the 8! column permutations).
//
// The breakers of a corner C from anchor a are the semantic propositions q
// outside C with f(a ⊕ C ⊕ q) = f(a): they undo the change. An SCGE maps
// corners onto corners and the anchor onto itself, so it maps breakers onto
// breakers.
//
// A next function that reads moves and has no table gets the corners of
// its cofactors: for each joint choice of one action class per role it
// reads (at most Options.MaxCornerCofactors choices), f with each role
// making an action of its class is a function of the state alone (every
// action of a class gives the same one), whose corners and breakers are
// found as above and tied to the classes by arcs. An SCGE maps the cofactor
// of classes K onto the cofactor of σK. They are searched only for the
// functions that the graph built without them leaves in symmetry: whose
// vertex or some input's vertex shares its refined colour with another
// vertex (refinement is canonical, so both games choose the same ones);
// the graph is then built again. In coloredtrails "spot s holds colour c
// next" reads the accept move, the offers and every spot's colour; only its
// cofactor under "accept" pairs each offered spot with that spot's colour,
// and the graph's group falls from 9.8e10 to the game's 16.
//
// A function's colour hashes its kind, its goal value, k, the multiset of
// the action counts of its semantic roles, its corner radius, the sizes
// and breaker counts of its corners (or the fact that an anchor has more
// than Options.MaxCorners of them, and how many of its cofactors' anchors
// do), and, when tabled, its model count and the multisets of its
// influences and interactions. A vertex's semantic colour hashes its kind
// and:
//
//   - Prop: init membership, the colour of next(p), and the multiset of
//     (colour of g, influence of p in g, number of corners of g from each
//     anchor that hold p) over the functions g that p is in the semantic
//     support of;
//   - Action: the number of actions of its role, the colour of legal(r,a),
//     and the multiset of (colour of g, influence) over the next functions g
//     it is in the support of;
//   - Role: its number of actions and its (non-false) goal values;
//   - Goal, Terminal: the function's colour (and the utility);
//   - Interaction: the function's colour, the interaction, and the two
//     influences as a multiset;
//   - Corner: the function's colour, the anchor, the corner's size and its
//     number of breakers;
//   - CornerBreakers: the function's colour and the number of breakers;
//   - Influence: the function's colour and the influence value;
//   - CornerPair: the function's colour, the anchor and the count;
//   - ActionClass: the function's colour, the role's action count and the
//     class's size.
//   - JointMove: the two views in increasing order, each a hash of the
//     successor state's terminal, the viewing role's goal values that hold
//     and number of legal actions, the other role's, and the number of
//     propositions true.
//   - Play: a hash of the state reached: terminal, the goal values that
//     hold and the number of legal actions of the first move's role, of
//     the second's, whether they are one role, the multiset of the other
//     roles' and the number of propositions true.
//
// Color then refines these colours with hashed colour refinement (a colour
// becomes the hash of itself and the multisets of its out- and
// in-neighbours' colours) until a round splits no class: the partition is
// the coarsest equitable refinement, and the colour values are comparable
// across games. Colours are hashes of features, not ranks, so equal
// features give equal colours in two independent Builds; a hash collision
// can only merge classes (a slower search, never a lost isomorphism).
//
// # Soundness: every SCGE is a graph isomorphism
//
// Let σ = (σR, σP, σA) be an SCGE from game A to game B. Define φ on
// vertices: p ↦ σP(p), (r,a) ↦ (σR(r), σA(a)), r ↦ σR(r), goal (r,n) ↦
// goal (σR(r), n), terminal ↦ terminal, interaction (f,p,q) ↦ (σf, σp, σq),
// corner (f, anchor, C) ↦ (σf, anchor, σC) (of the cofactor of σK for a
// cofactor K's corner), breakers (f, anchor, C) ↦ (σf, anchor, σC),
// influence (f, v) ↦ (σf, v),
// corner pair (f, anchor, p, q) ↦ (σf, anchor, σp, σq), action class
// (f, r, C) ↦ (σf, σr, σC),
// where σf is the corresponding
// function (next p ↦ next σP(p) and so on).
//
// σ maps the inputs of A's circuit bijectively onto B's, propositions to
// propositions and each role's actions onto its image role's actions, so it
// maps A's input space bijectively onto B's: all states, and all one-hot
// joint moves. The SCGE conditions say exactly that f_B(σx) = f_A(x) for
// every pair (f, σf) and every point x of that space. Hence:
//
//  1. φ is a bijection. σ is bijective on propositions, roles and actions.
//     goal(r,n) is constantly false iff goal(σr,n) is, so goal vertices
//     correspond. Interaction and corner vertices correspond by 2 and 3
//     below, and influence vertices too: σ preserves each input's
//     influence, hence the classes of equal influence and their sizes.
//     Corner pairs too: σ maps the corners of f onto those of σf, so the
//     number of corners holding p and q is that of σp and σq. Action
//     classes too: f's cofactors under r doing a and b are equal iff σf's
//     under σr doing σa and σb are, so σ maps classes onto classes.
//  2. Arcs are preserved. Input i changes f at x iff σi changes σf at σx
//     (flipping i, or replacing action a by b, commutes with σ), so the
//     semantic supports correspond and so do dependency arcs. Consistency
//     arcs correspond because σA respects roles.
//  3. Colours are preserved. Every feature is a count over the input space
//     of a predicate built from f's values at points related by flips or
//     action changes; σ is a bijection of the space that commutes with those
//     operations and preserves f's values, so the counts are equal input by
//     input. Corners too: σ maps the all-false state of A onto that of B
//     (σS(∅) = ∅) and the all-true state onto the all-true state, and a
//     flip of C onto a flip of σC, so C is a corner of f iff σC is one of
//     σf. Support sizes, role action counts, init membership (an SCGE maps
//     init onto init), goal values and kinds are preserved by definition.
//     Every bound that decides whether a feature is computed depends only on
//     semantic row counts or proposition counts (and on exact counts of
//     corners and of breakers, and on whether a corner search at a radius
//     wanted to go on, a semantic fact), and the tabled set (like the set of
//     corner searches) is chosen from their multiset, so A and B compute the
//     same features for corresponding functions. The functions that get
//     cofactor corners are chosen by the refined colours of the graph built
//     without them: by the argument above that graph is preserved, and
//     refinement commutes with isomorphisms, so φ maps the chosen functions
//     of A onto those of B and both graphs are built again.
//     Colours hash these values in a fixed order, taking every collection
//     of inputs as a multiset, so equal features give equal semantic
//     colours. Colour refinement commutes with isomorphisms and the number
//     of rounds depends only on the isomorphism class, so final colours are
//     equal too.
//
// So φ is an isomorphism of the coloured graphs, and enumerating all
// isomorphisms G_A → G_B enumerates (among others) every SCGE. Features are
// never sampled: a feature that could differ between two equivalent games
// would lose a true equivalence. (Random simulation is used, but only to
// find witnesses of dependence faster; every answer is exact.) The converse
// does not hold: a graph isomorphism need not be an SCGE (ggp-base's
// buttons.kif has a graph automorphism that is not a symmetry), which is
// why satcheck verifies every candidate.
//
// # Worked example: Tic-tac-toe
//
// ggp-base-repo/ticTacToe.kif has 29 propositions ((cell i j b|x|o) and
// (control r)), 2 roles with 10 actions each ((mark i j), noop), 6 goals and
// terminal: 58 vertices in the paper's simplified graph. goal(xplayer,100)
// = "a line of x" has support the nine x cells, 2^9 = 512 rows, 282 models,
// and influences 184 (centre), 132 (corner cells), 84 (edge cells): the paper's
// "number of lines through a cell" (4, 3, 2), made exact. next(cell 1 1 b)
// reads (cell 1 1 b) and every action of both roles: 2 × 10 × 10 = 200
// rows, influence 192 for the proposition, 16 for both (mark 1 1), 4 for
// every other action. The x and o cells thus get three semantic colours
// each (centre, corner cell, edge cell), and refinement carries the split to the
// blank cells and the marks. goal(xplayer,50) and terminal read all 27
// cells (2^27 rows) and are not tabled by default. The pairs of x cells of
// goal(xplayer,100) interact differently when they share a line (144
// interaction vertices), and its corners from the empty state are the eight
// lines (terminal is true in the empty state, which has no blank cell; its
// corners are the nine blank cells). next(cell 1 1 b)'s inputs of influence
// 16 (the two (mark 1 1)) get an influence vertex; those of influence 4
// keep their plain arcs; its action classes are the two (mark 1 1) of
// each role against the others. The graph has 583 vertices (29 props, 20
// actions, 2 roles, 6 goals, terminal, 144 interactions, 229 corners, 80
// influences, 72 action classes), 2483 arcs and 192 colour classes, and its automorphism group is the
// board's dihedral group of order 8, found from 3 search-tree leaves
// (against 4!·4!·1! = 576 in the paper). Number Scrabble (sum15.kif) gets
// an isomorphic graph: the magic square is one of the isomorphisms.
//
// # Cost
//
// Semantic supports cost one truth table per function whose cone reads at
// most Options.SupportTableBits rows' worth of inputs. A function of free
// propositions alone gets its support from its BDD (bdd.go: the variables
// a reduced BDD mentions), in one manager per Build that keeps every
// gate's BDD, so a sub-circuit many functions read is built once
// (merrills' piece count), within Options.MaxBDDNodes. A next function
// whose read roles have at most Options.MaxBDDChoices joint choices gets
// one BDD per choice, its cofactor, a function of the state (bddchoice.go:
// it depends on a proposition some cofactor mentions, and on a role when
// two choices differing in it alone differ), each costing its actions'
// fanout (Stats.ChoiceBDDSupports). Larger cones are simulated: random samples with skewed densities, samples where one role
// does each of its moves in turn, then samples next to the witnesses found
// (one to three propositions flipped, or another move for one role), and,
// for a function of the state, samples where it takes a value random
// samples rarely give (Connect Four's draw: a full board without a line),
// built by justifying that value back through the cone, and, for each
// input still undecided, samples where a path from it to the root is
// sensitized (kalaha's stores read hundreds of pit counts, each through
// one sum term that must hold alone), and, for each role still undecided,
// pairs of samples that differ only in its action, one of them with a path
// from that action to the root sensitized (chinesecheckers6: a move
// matters only when every other role keeps off its cell). This finds
// almost every dependency. The inputs left over are decided by a truth
// table over the cone's inputs when it costs at most
// Options.MaxResidueTableWork gate-words (Stats.ResidueTables;
// colonelBlotto: no role wins all three battles, arithmetic over 66 × 66
// action pairs), else by
// satcheck.Dependence (SAT, on a miter whose two sides share
// every gate outside the candidates' fanout), one
// call for all of a function's undecided inputs when none of them matters,
// else one call per batch of dependencies it finds, whose witnesses start
// further boundary rounds (Stats.DependsOnCalls counts the calls); a
// function's calls share one encoding and solver, a later call adding
// unit clauses that rule out the inputs decided since. These
// calls dominate on the few big games whose dependencies need rare
// contexts (kalaha_2009's stores).
// Functions with the same literal share their support and corner search;
// functions whose cones are the same circuit up to a renaming of their
// propositions (grounding.Cone.PropRenamingKey) share their support,
// mapped through the renaming, their action classes and (with equal
// radius and classes) their corner search. Corner levels that a lower
// bound on the flips changing the function proves empty are not
// evaluated, and the first level that may hold a change only on the
// sets the bound leaves possible (cornerbound.go); levels of more than a
// batch of bases only on the sets that hold a flip core, a set that
// every change holds (cornercores.go). Level k of a big function, and
// its breakers, are evaluated on its ball cone: the gates whose flip bound
// is at most k, the others folded to their value at the anchor
// (cornerreduce.go; othello's goals: 141 k gates, 5-21 k at level 4), and
// each flip re-evaluates only the gates its change reaches
// (cornerflip.go). Truth tables
// reduce each gate's action fanins to a condition on the word's role
// digits (tableEval). A tabled function's action classes are read off its
// table (equal rows for two actions); the others re-evaluate one action's
// fanout per action (satcheck.ActionClassesHinted), on random samples and
// on hints, samples where a path from one action to the function is
// sensitized (four_way_battle: two moves onto a cell differ only when
// another role attacks the cell one of them leaves); SAT proves the
// classes. The sensitizer knows that a role does one action.
// Features cost at most Options.MaxTableRows table rows and
// Options.MaxCornerTotal corner points over all functions, each 64 rows
// evaluating the function's cone once (corner points of radius k are
// evaluated from those of radius k-1, re-evaluating one proposition's
// fanout); Stats reports the rows, points, gate-word evaluations, SAT calls
// and times.
package groundgraph
