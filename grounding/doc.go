// Package grounding reads GDL game descriptions (KIF syntax) and grounds them
// into a Program: the state propositions, the roles and their actions, and
// one Boolean circuit over the inputs "true p" and "does r a" with a literal
// for every reasoning function (legal, next, goal, terminal).
//
// The pipeline is Parse (text to File, errors as FILE:LINE:COL), then Ground
// (validation, check relations unfolded and free argument positions
// dropped, static relations evaluated completely, fluent relations
// instantiated over over-approximated domains with planned joins, demand
// driven (a demand that outgrows its relation is split into its factors),
// recursion unrolled to its least fixpoint, disjunctions over "all but the
// excluded" shared across head atoms), or Load for both.
// The joins of a domain round run on several goroutines and their facts
// are added in the sequential order, and the circuit's join plans are made
// ahead on another (parallel.go): the Program is the same whatever the
// scheduling, term and atom order included.
// Alternatives exposes how a rule body's and/or/not is read, for tools that
// rewrite descriptions.
// Every resource is bounded by Limits; a bound that is reached comes back as
// a *LimitError naming the setting.
//
// The package also holds the circuit toolkit that the rest of gamequiv
// shares: Cone (the part of a circuit under one literal, renumbered densely),
// its bit-parallel simulation, structural hashing (StrashIndex, HashLits)
// and CofactorHasher (cofactors rebuilt by constant propagation and
// hashing). Sim plays a Program by evaluating its circuit only, never the
// rules, so that tests exercise the grounding itself.
package grounding
