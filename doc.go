// Package gamequiv decides whether two General Game Playing games, written in
// the Game Description Language (GDL), are the same game in disguise, and
// finds the mapping of roles, propositions and actions that proves it.
//
// The algorithms are the packages below this one: grounding (parse and
// ground GDL), groundgraph (the ground graph of a program), isomorph (graph
// isomorphism), satcheck (SAT verification of a candidate mapping) and equiv
// (the pipeline).
//
// This root package is the domain layer of the service, in the style of
// benbjohnson/wtf: the domain types (Game, Comparison, Class, User,
// GameStats, JobLimits), the errors every layer shares (ErrNotFound, Error
// with its codes, SideError), the storage interfaces (Games, Comparisons,
// Classes, Symmetries, Search, Tokens) that package store implements, and
// the service interfaces (GameService, ComparisonService) that package
// service implements over a storage and equiv. It imports only the
// standard library. Package service and the packages below it
// (service/worker runs queued comparisons, service/classes places games
// in classes) hold the policy. The adapters call them: api (the JSON API
// and the pages), web (the page views), cmd/server (which only wires
// store, API, metrics and the service's loops) and cmd/gamequiv (the
// command line). deps_test.go here enforces the import
// rules between the packages.
package gamequiv
