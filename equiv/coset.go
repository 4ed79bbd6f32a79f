package equiv

import (
	"errors"
	"fmt"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// The coset search is Compare's second strategy. The graph isomorphisms
// from A to B are exactly the coset f∘Aut(A's graph) for any one of them,
// f; isomorph.FindInCoset backtracks over the automorphism group's base,
// as Symmetries does for subgroups, and prunes a coset when a function
// whose inputs every element maps alike differs from its image (the same
// checks as the first strategy) or when the functions of its cells differ
// on cell-constant states (cells: orbits of the level's stabiliser against
// their images). Its branching follows the group's orbits, not the
// refinement's target cells, which finds factoring puzzles' mappings that
// the first strategy does not reach. It runs once, inside the first
// search, when that has visited Limits.CosetAfterNodes nodes; if it finds
// a verified mapping, or proves that no isomorphism verifies, the first
// search stops with that answer, else it goes on where it was.

// coset is the state of the coset search of one comparison.
type coset struct {
	f      isomorph.Mapping // one graph isomorphism from A to B
	done   bool
	found  *satcheck.Mapping // a verified mapping, when found
	proven bool              // no isomorphism verifies
	nodes  int64
	err    error
}

// runCoset is the coset search. verify checks a complete candidate.
func (s *search) runCoset(lim *Limits, verify func(satcheck.Mapping) (bool, error)) {
	c := s.coset
	c.done = true
	grp, err := isomorph.Automorphisms(s.ctx, s.a.g, lim.Search)
	if err != nil {
		c.err = err
		return
	}
	cells := newCellCheck(s.a, s.b, lim) // its own: A's cells are orbits here
	probes := s.probes.forCosets()
	test := func(co *isomorph.Coset) (bool, error) {
		if s.prune(co.Partial, co.Fixed) {
			return false, s.err
		}
		if probes != nil && probes.refutesCoset(co) {
			s.pruned++
			s.probePruned++
			return false, nil
		}
		if co.Complete {
			m, err := s.a.g.Mapping(s.b.g, co.Partial)
			if errors.Is(err, groundgraph.ErrNotGameMapping) {
				return false, nil
			}
			if err != nil {
				return false, fmt.Errorf("graph isomorphism to mapping: %w", err)
			}
			ok, err := verify(m)
			if ok {
				c.found = &m
			}
			return ok, err
		}
		if cells != nil && s.cellsActive() {
			if err := s.ctx.Err(); err != nil {
				return false, err
			}
			if cells.refutesCoset(co) {
				s.pruned++
				s.cellPruned++
				return false, nil
			}
		}
		return true, nil
	}
	x, st, err := grp.FindInCoset(s.ctx, c.f, test, isomorph.Limits{MaxNodes: lim.CosetMaxNodes})
	c.nodes = st.Nodes
	switch {
	case errors.Is(err, isomorph.ErrLimit):
		// Not decided within its budget: the first search goes on.
	case err != nil:
		c.err = err
	case x == nil:
		c.proven = true
	}
}
