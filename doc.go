// Package gamequiv decides whether two General Game Playing games, written in
// the Game Description Language (GDL), are the same game in disguise, and
// finds the mapping of roles, propositions and actions that proves it.
//
// The work is done by the packages below this one: grounding (parse and
// ground GDL), groundgraph (the ground graph of a program), isomorph (graph
// isomorphism), satcheck (SAT verification of a candidate mapping) and equiv
// (the pipeline). cmd/server serves it over HTTP and cmd/gamequiv is the
// command line. The root package holds no code; deps_test.go here enforces
// the import rules between the packages.
package gamequiv
