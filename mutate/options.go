package mutate

import (
	"fmt"
	"math/bits"
	"strings"
)

// Op is a set of transformations, one bit each. Equivalent composes the
// transformations of its Options.Ops in a random order.
type Op uint32

// The transformations of Equivalent. Each keeps the game the same up to the
// renaming that Variant.TranslateTerm applies.
const (
	RenameSymbols Op = 1 << iota // consistent renaming of relations, functions and constants
	RenameVars                   // renaming of the variables of each rule
	ReorderRules                 // shuffling the rules
	ReorderBody                  // shuffling body literals, disjuncts and distinct arguments
	PermuteArgs                  // permuting the arguments of relations and function symbols
	PairArgs                     // nesting two arguments of a function symbol in a new pair symbol
	DeMorgan                     // (not (or a b)) <-> (not a) (not b)
	SplitOr                      // one rule per disjunct of an or
	MergeOr                      // rules differing in one literal merged with or
	Unfold                       // inlining the single rule of an auxiliary relation
	Fold                         // a new auxiliary relation for a group of body literals
	Tautology                    // adding literals that always hold
	Duplicate                    // duplicating rules and body literals

	numOps = iota
)

// AllOps is every transformation: what the zero Options.Ops means.
const AllOps Op = 1<<numOps - 1

var opNames = [numOps]string{
	"rename-symbols", "rename-vars", "reorder-rules", "reorder-body", "permute-args",
	"pair-args", "de-morgan", "split-or", "merge-or", "unfold", "fold", "tautology", "duplicate",
}

// OpNames lists the names of the transformations, in bit order, as String
// prints them and ParseOps reads them.
func OpNames() []string { return append([]string(nil), opNames[:]...) }

// String lists the names of the transformations in o, separated by commas.
func (o Op) String() string {
	var names []string
	for i := range numOps {
		if o&(1<<i) != 0 {
			names = append(names, opNames[i])
		}
	}
	if rest := o &^ AllOps; rest != 0 {
		names = append(names, fmt.Sprintf("0x%x", uint32(rest)))
	}
	return strings.Join(names, ",")
}

// count returns the number of transformations in o.
func (o Op) count() int { return bits.OnesCount32(uint32(o)) }

// ParseOps reads a list of transformation names separated by commas or
// spaces ("all" means AllOps). An empty list is an error.
func ParseOps(s string) (Op, error) {
	var o Op
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(fields) == 0 {
		return 0, fmt.Errorf("no transformation named (want some of %s, or all)", strings.Join(opNames[:], ", "))
	}
	for _, f := range fields {
		f = strings.ToLower(f)
		if f == "all" {
			o |= AllOps
			continue
		}
		found := false
		for i, n := range opNames {
			if n == f {
				o |= 1 << i
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown transformation %q (want some of %s, or all)", f, strings.Join(opNames[:], ", "))
		}
	}
	return o, nil
}

// Options chooses what Equivalent does. The zero value uses every
// transformation with the default number of steps.
type Options struct {
	// Ops is the set of transformations to compose; zero means AllOps.
	Ops Op
	// Steps is how many transformations are applied; zero means two per
	// transformation in Ops. The first steps try every transformation of
	// Ops once, in a random order; later ones pick at random.
	Steps int
}

func (o Options) withDefaults() Options {
	if o.Ops == 0 {
		o.Ops = AllOps
	}
	if o.Steps <= 0 {
		o.Steps = 2 * o.Ops.count()
	}
	return o
}
