// Package equiv is gamequiv's pipeline: it decides whether two GDL games are
// the same game in disguise (space-consistent game equivalence), finds a
// game's symmetries, and sorts a collection of games into classes.
//
// Compare grounds both games (package grounding), builds their ground graphs
// (groundgraph: vertices for roles, propositions, actions and the semantic
// features of every reasoning function, an invariant of every equivalence),
// searches the graph isomorphisms (isomorph) while checking each reasoning
// function against its image as soon as the partial mapping allows
// (satcheck, which replays the states that separated a function from
// earlier images before it calls SAT), prunes search nodes whose cells
// cannot match (the functions owned by matched cells differ on states that
// are constant on cells: cells.go) or whose mapped pairs of propositions
// lie in different numbers of a function's corners (cornerpairs.go), and
// verifies a complete candidate mapping function by function. Every
// pruning rule holds of all mappings that verify, so it removes none of
// them.
// The verdict is Equivalent only with a mapping under which every legal,
// next, goal and terminal function was proven equal; NotEquivalent when no
// mapping can exist; Unknown, naming the limit, when a limit stopped it.
//
// Symmetries finds the verified self-equivalences of one game: the whole
// graph group when its generators verify, else the subgroup of symmetries
// found along the graph group's stabiliser chain. Classify and Placer sort
// games into classes, merging two classes only on a verified equivalence.
// Every algorithm takes a context and a Limits; Progress reports phases.
package equiv
