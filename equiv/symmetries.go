package equiv

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// SymmetryReport lists a game's verified self-equivalences.
type SymmetryReport struct {
	// Order is the number of verified symmetries, identity included (a
	// decimal string: groups of board games can be large).
	Order string `json:"order"`
	// Generators generate the group of verified symmetries. Each lists
	// every role and the propositions and actions it moves; a symbol it
	// does not list maps to itself. (A game such as a factoring puzzle has
	// thousands of generators over thousands of symbols: written in full
	// they would take gigabytes.) A role mapped to another role lists all
	// of its actions.
	Generators []*Mapping `json:"generators"`
	// Candidates counts the graph automorphisms verified in full.
	Candidates int64 `json:"candidates"`
	// SearchNodes counts the cosets of the graph group examined by the
	// subgroup search (0 when every generator of the graph group is a
	// symmetry and no search was needed).
	SearchNodes int64 `json:"search_nodes"`
	// RoleSymmetric is set when some symmetry maps a role to another role.
	RoleSymmetric bool `json:"role_symmetric"`
	// GraphOrder is the order of the automorphism group of the ground graph,
	// of which the verified group is a subgroup.
	GraphOrder string             `json:"graph_order"`
	PhaseMs    map[string]float64 `json:"phase_ms"`
}

// Symmetries finds every self-equivalence of a game among the automorphisms
// of its ground graph, each verified by satcheck. Symmetries compose, so when
// every generator of the graph's group verifies, the whole group is verified.
// Otherwise isomorph.Group.SubgroupFrom searches the graph group's
// stabiliser chain for the subgroup of symmetries, starting from the
// generators that verified, never enumerating the graph group:
// a coset is pruned as soon as some reasoning function and all its inputs
// are mapped by every element of it and the function differs from its
// image, when two-move plays or the goals on states of the mapped
// propositions and one more (cofactors.go) tell it apart, and cosets
// already reached by the symmetries found are skipped; the children of a
// coset are only those whose image of the base point has its colour under
// the two-move plays (proberestrict.go).
// The order is exact and every generator is verified in full, by what it
// moves (satcheck.Checker.VerifyMoves): the functions it moves or whose
// inputs it moves are compared, every other one is itself on fixed inputs.
func Symmetries(ctx context.Context, src Source, lim Limits) (*SymmetryReport, error) {
	lim = lim.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	lim.progress(Progress{Phase: "ground", Step: "parsing and grounding the game"})
	start := time.Now()
	p, err := grounding.Load(ctx, src.Name, src.GDL, lim.Ground)
	if err != nil {
		return nil, fmt.Errorf("ground %s: %w", src.Name, err)
	}
	groundMs := ms(time.Since(start))
	rep, err := ProgramSymmetries(ctx, p, lim)
	if rep != nil {
		rep.PhaseMs["ground"] = groundMs
	}
	return rep, err
}

// ProgramSymmetries is Symmetries on a grounded game, within lim.Timeout
// as ComparePrograms is.
func ProgramSymmetries(ctx context.Context, p *grounding.Program, lim Limits) (*SymmetryReport, error) {
	lim = lim.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	rep := &SymmetryReport{PhaseMs: map[string]float64{}}
	lim.progress(Progress{Phase: "graph", Fraction: 0.1, Step: "building the ground graph"})
	start := time.Now()
	g, err := groundgraph.Build(ctx, p, newGraphProgress(&lim).options(0, lim.Graph))
	if err != nil {
		return nil, fmt.Errorf("ground graph: %w", err)
	}
	rep.PhaseMs["graph"] = ms(time.Since(start))
	lim.progress(Progress{Phase: "search", Fraction: 0.3, Step: "automorphisms of the ground graph"})
	start = time.Now()
	grp, err := isomorph.Automorphisms(ctx, g, lim.Search)
	if err != nil {
		return nil, fmt.Errorf("automorphisms: %w", err)
	}
	rep.GraphOrder = grp.Order.String()
	rep.PhaseMs["search"] = ms(time.Since(start))
	start = time.Now()
	defer func() { rep.PhaseMs["verify"] = ms(time.Since(start)) }()
	checker, err := satcheck.NewChecker(p, p, lim.SAT)
	if err != nil {
		return nil, fmt.Errorf("verifier: %w", err)
	}
	probes := newProbeCheck(ctx, game{p, g}, game{p, g}, &lim)
	if probes != nil {
		probes.setUpFixed(p, g, grp.Generators)
	}
	// Each automorphism is verified by what it moves (symmoves.go): the
	// functions it fixes with all their inputs need no proof.
	base := p.ActionInputBases()
	witnesses := newWitnessTable(p)
	verify := func(sp isomorph.Sparse) (satcheck.Moves, bool, error) {
		rep.Candidates++
		mv, ok, err := movesOf(g, base, sp)
		if err != nil || !ok {
			return mv, false, err // !ok: mixes roles, no symmetry
		}
		if probes != nil && probes.rejectsMoves(mv, base) {
			return mv, false, nil
		}
		res, err := checker.VerifyMoves(ctx, mv)
		if err != nil {
			return mv, false, err
		}
		if res.Differs != nil {
			witnesses.add(sp, *res.Differs)
		}
		return mv, res.Verdict == satcheck.Equivalent, nil
	}
	lim.progress(Progress{Phase: "verify", Fraction: 0.5, Step: "verifying the generators of the graph group"})
	// Every generator is verified, not only up to the first that fails:
	// those that verify are symmetries, and seed the subgroup search below.
	// Verified generators are kept in their report form (what they move)
	// only: a big game's group has thousands of generators.
	var names []*Mapping
	roleSym := false
	keep := func(mv satcheck.Moves) {
		if !movesIdentity(mv) {
			names = append(names, movedNamesOf(p, base, mv))
		}
		for r, rb := range mv.Roles {
			if r != rb {
				roleSym = true
			}
		}
	}
	var known []isomorph.Sparse
	for gi, sp := range grp.Generators {
		if gi%256 == 255 {
			lim.progress(Progress{Phase: "verify", Candidates: rep.Candidates, Fraction: 0.5, Step: "verifying the generators of the graph group"})
		}
		mv, ok, err := verify(sp)
		if errors.Is(err, satcheck.ErrLimit) {
			// Undecided within the SAT limits: not a seed; the search
			// below decides the cosets it reaches.
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("verify generator %d of the graph group: %w", gi, err)
		}
		if ok {
			keep(mv)
			known = append(known, sp)
		}
	}
	if len(known) == len(grp.Generators) {
		rep.Order = grp.Order.String()
	} else {
		// Some generator is not a symmetry: search the graph group's
		// stabiliser chain for the subgroup of verified symmetries,
		// starting from the generators that verified, pruning every coset
		// in which a function and its inputs are all mapped and the
		// function differs from its image.
		lim.progress(Progress{Phase: "search", Fraction: 0.6, Candidates: rep.Candidates,
			Step: fmt.Sprintf("searching the graph group for the symmetries (%d of its %d generators are)", len(known), len(grp.Generators))})
		s := newSearch(ctx, game{p, g}, game{p, g}, checker, &lim, &Report{})
		s.cells = newCellCheck(game{p, g}, game{p, g}, &lim)
		s.probes = probes
		s.witnesses = witnesses.by
		cofactors := newCofactorCheck(s)
		test := func(c *isomorph.Coset) (bool, error) {
			partial, complete := c.Partial, c.Complete
			// The probe check first: it costs a few passes over the
			// actions' pairs, where prune may call SAT on a function
			// whose inputs the coset has just mapped (a goal reading the
			// whole board: seconds each on queens6).
			if s.probes != nil {
				if !complete && s.probes.refutesCoset(c) {
					return false, nil
				}
				if complete && rejectsPerm(g, s.probes, partial) {
					rep.Candidates++
					return false, nil
				}
			}
			prune := s.prune
			if c.Root {
				prune = s.pruneMoved // c.Fixed is every mapped vertex
			}
			if prune(partial, c.Fixed) {
				return false, s.err
			}
			if !complete && cofactors.refutes(c.Level(), partial) {
				s.pruned++
				s.cofPruned++
				return false, nil
			}
			if s.cellsActive() && !complete {
				if err := ctx.Err(); err != nil {
					return false, err
				}
				if s.cells.refutesCoset(c) {
					return false, nil
				}
			}
			if !complete {
				if s.probes != nil && !lim.NoProbeRestrict {
					s.probes.restrictCoset(c)
				}
				return true, nil
			}
			if rep.Candidates >= lim.MaxCandidates {
				return false, &isomorph.LimitError{What: "MaxCandidates", Limit: lim.MaxCandidates, Got: rep.Candidates + 1}
			}
			_, ok, err := verify(isomorph.SparseOf(isomorph.Perm(partial)))
			return ok, err
		}
		sub, err := grp.SubgroupFrom(ctx, known, test, lim.Search)
		if err != nil {
			return nil, fmt.Errorf("symmetries among the %s automorphisms of the ground graph: %w", shortNumber(grp.Order), err)
		}
		rep.Order = sub.Order.String()
		rep.SearchNodes = sub.Stats.Nodes
		names, roleSym = names[:0], false
		for _, sp := range sub.Generators {
			mv, ok, err := movesOf(g, base, sp)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, fmt.Errorf("symmetries: a verified generator mixes roles")
			}
			keep(mv)
		}
	}
	rep.Generators, rep.RoleSymmetric = names, roleSym
	if rep.Generators == nil {
		rep.Generators = []*Mapping{}
	}
	return rep, nil
}

// rejectsPerm reports whether the probe check rejects the graph
// automorphism perm as a game mapping (probeCheck.rejects); one that mixes
// roles is left to verify.
func rejectsPerm(g *groundgraph.Graph, c *probeCheck, perm isomorph.Mapping) bool {
	m, err := g.Mapping(g, perm)
	return err == nil && c.rejects(m)
}

// shortNumber writes n in full up to 30 digits, else as its leading digits
// and its number of digits.
func shortNumber(n *big.Int) string {
	s := n.String()
	if len(s) <= 30 {
		return s
	}
	return fmt.Sprintf("%s.%s×10^%d", s[:1], s[1:4], len(s)-1)
}
