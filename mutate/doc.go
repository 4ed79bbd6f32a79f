// Package mutate makes test inputs for game equivalence: variants of a GDL
// description that are the same game in disguise (Equivalent), and variants
// that are a different game (Different).
//
// Equivalent composes, in a random order fixed by a seed, transformations
// that each keep the game the same up to a renaming of roles, propositions
// and actions:
//
//	rename-symbols  every relation, function and constant gets a fresh name
//	                (never keywords, never constants that may be goal values)
//	rename-vars     every rule's variables get new names
//	reorder-rules   the rules are shuffled
//	reorder-body    body literals, or disjuncts and distinct sides are shuffled
//	permute-args    arguments of relations and function symbols are permuted
//	pair-args       (cell ?x ?y ?p) becomes (cell (pq ?x ?y) ?p) everywhere
//	de-morgan       (not (or a b)) <-> (not a) (not b)
//	split-or        a rule with (or a b) becomes one rule per disjunct
//	merge-or        rules "h :- C, a" and "h :- C, b" become "h :- C, (or a b)"
//	unfold          a literal of a one-rule relation is replaced by that body
//	fold            a group of body literals moves into a new relation
//	tautology       (distinct c d), (not (distinct ?x ?x)), (or A (not A))
//	duplicate       a rule or a body literal appears twice
//
// The grounder tolerates some unsafe rules by reading them specially (an
// unbound role variable ranges over the roles, a variable local to one
// negation is read as "there is none", an unsafe variable of a static rule
// ranges over every ground term of the description). So that these readings
// never change: de-morgan, split-or, duplicated rules and (distinct c d)
// keep every alternative of a body literal for literal and apply anywhere;
// the other body rewrites apply only to strictly safe rules (every variable
// bound by a positive atom in every alternative of the body) and must leave
// them strictly safe; pair-args and unfold, which can create new ground
// terms, apply only when every rule is strictly safe.
//
// Variants are often harder for the grounder than their originals: its join
// order depends on body order and on term nesting, so connectFour, grounded
// in 30 ms, has variants that take seconds, and its pair-args variants
// exceed the default limits.
//
// The returned Variant records the term-level rewrites, so a ground term of
// the original (a proposition, a move, a role) can be translated to the
// variant with TranslateTerm. Agree compares two grounded games along random
// playouts under such a translation.
//
// Example (see ExampleEquivalent): with seed 1 and the transformations
// rename-symbols, pair-args and reorder-body, the rule
//
//	(<= (legal robot (mark ?x)) (true (cell ?x b)))
//
// becomes
//
//	(<= (legal regou (tago ?x)) (true (raifou (ropi ?x kogla))))
//
// and TranslateTerm("(cell 1 b)") returns "(raifou (ropi glaibi kogla))".
//
// Different drops one body literal or changes one goal value, and keeps the
// change only when grounding and random playouts show that the game's
// behaviour changed (see Different for how certain that is).
package mutate
