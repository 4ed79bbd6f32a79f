package equiv

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// Source is a game description: a name for messages and its GDL text.
type Source struct {
	Name string
	GDL  []byte
}

// Compare decides whether two games are equivalent (space-consistent game
// equivalence). An invalid description is an error (a grounding.ErrorList);
// an exceeded limit gives an Unknown report naming it. An Equivalent report
// always carries a mapping under which satcheck proved every pair of
// reasoning functions equal.
func Compare(ctx context.Context, a, b Source, lim Limits) (*Report, error) {
	lim = lim.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	lim.progress(Progress{Phase: "ground", Step: "parsing and grounding both games"})
	start := time.Now()
	var pa, pb *grounding.Program
	var ea, eb error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); pa, ea = grounding.Load(ctx, a.Name, a.GDL, lim.Ground) }()
	go func() { defer wg.Done(); pb, eb = grounding.Load(ctx, b.Name, b.GDL, lim.Ground) }()
	wg.Wait()
	for _, e := range []struct {
		name string
		err  error
	}{{a.Name, ea}, {b.Name, eb}} {
		if e.err == nil {
			continue
		}
		if rep, ok := limitReport(ctx, e.err); ok {
			rep.Reason = fmt.Sprintf("grounding %s: %s", e.name, rep.Reason)
			return rep, nil
		}
		return nil, fmt.Errorf("ground %s: %w", e.name, e.err)
	}
	groundMs := ms(time.Since(start))
	rep, err := ComparePrograms(ctx, pa, pb, lim)
	if rep != nil {
		rep.Stats.PhaseMs["ground"] = groundMs
	}
	return rep, err
}

// limitReport turns a limit, timeout or cancellation into an Unknown report.
func limitReport(ctx context.Context, err error) (*Report, bool) {
	rep := &Report{Verdict: Unknown, Stats: Stats{PhaseMs: map[string]float64{}}}
	var gl *grounding.LimitError
	var il *isomorph.LimitError
	var sl *satcheck.LimitError
	switch {
	case errors.As(err, &gl):
		rep.Limit, rep.Reason = gl.What, gl.Error()
	case errors.As(err, &il):
		rep.Limit, rep.Reason = "Search."+il.What, il.Error()
	case errors.As(err, &sl):
		rep.Limit, rep.Reason = "SAT."+sl.What, sl.Error()
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		rep.Limit, rep.Reason = "Timeout", "time limit of the comparison reached"
	default:
		return nil, false
	}
	return rep, true
}

// game is a grounded game with its ground graph.
type game struct {
	p *grounding.Program
	g *groundgraph.Graph
}

// ComparePrograms is Compare on games already grounded.
func ComparePrograms(ctx context.Context, pa, pb *grounding.Program, lim Limits) (*Report, error) {
	lim = lim.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	rep := &Report{Stats: Stats{PhaseMs: map[string]float64{}, Functions: pa.NumFunctions()}}
	if why := shapeDiff(pa, pb); why != "" {
		rep.Verdict, rep.Reason = NotEquivalent, why
		return rep, nil
	}
	lim.progress(Progress{Phase: "graph", Fraction: 0.1, Step: "building the ground graphs"})
	start := time.Now()
	var ga, gb *groundgraph.Graph
	var ea, eb error
	gp := newGraphProgress(&lim)
	buildA := func() { ga, ea = groundgraph.Build(ctx, pa, gp.options(0, lim.Graph)) }
	buildB := func() { gb, eb = groundgraph.Build(ctx, pb, gp.options(1, lim.Graph)) }
	if pa.Circuit.NumNodes()+pb.Circuit.NumNodes() <= lim.MaxConcurrentGraphNodes {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); buildA() }()
		go func() { defer wg.Done(); buildB() }()
		wg.Wait()
	} else if buildA(); ea == nil {
		buildB()
	}
	rep.Stats.PhaseMs["graph"] = ms(time.Since(start))
	if err := errors.Join(ea, eb); err != nil {
		return orLimit(ctx, rep, fmt.Errorf("ground graph: %w", err))
	}
	return compareGames(ctx, game{pa, ga}, game{pb, gb}, lim, rep)
}

// orLimit reports a limit as an Unknown verdict and returns other errors.
func orLimit(ctx context.Context, rep *Report, err error) (*Report, error) {
	if lr, ok := limitReport(ctx, err); ok {
		rep.Verdict, rep.Reason, rep.Limit = Unknown, lr.Reason, lr.Limit
		return rep, nil
	}
	return nil, err
}

// shapeDiff compares invariants that every equivalence preserves: numbers of
// roles, propositions, actions per role (as a multiset) and initial
// propositions, and the goal values each game gives (goalValueDiff).
func shapeDiff(a, b *grounding.Program) string {
	switch {
	case len(a.Roles) != len(b.Roles):
		return fmt.Sprintf("different number of roles: %d vs %d", len(a.Roles), len(b.Roles))
	case len(a.Props) != len(b.Props):
		return fmt.Sprintf("different number of state propositions: %d vs %d", len(a.Props), len(b.Props))
	case len(a.Init) != len(b.Init):
		return fmt.Sprintf("different number of initial propositions: %d vs %d", len(a.Init), len(b.Init))
	}
	count := func(p *grounding.Program) []int {
		var n []int
		for _, as := range p.Actions {
			n = append(n, len(as))
		}
		slices.Sort(n)
		return n
	}
	if na, nb := count(a), count(b); !slices.Equal(na, nb) {
		return fmt.Sprintf("different numbers of actions per role: %v vs %v", na, nb)
	}
	if why := goalValueDiff(a, b); why != "" {
		return why
	}
	return goalValueDiff(b, a)
}

// goalWitnessWords is the number of 64-state words goalValueDiff
// evaluates: the initial state, no proposition, every proposition, and
// random states.
const goalWitnessWords = 4

// goalValueDiff names a goal value that p gives in some state and that q
// has no goal function for (for any role), or returns "". An equivalence
// maps p's "goal r v" onto q's "goal σr v" for every state, and q's is
// constantly false when q names no goal v: so a state where p's holds
// refutes every mapping. The state is a witness found by evaluating p's
// circuit (goal functions read no moves); values without one are left to
// the comparison.
func goalValueDiff(p, q *grounding.Program) string {
	named := map[int]bool{}
	for _, gs := range q.Goals {
		for _, g := range gs {
			if g.Lit != grounding.False {
				named[g.Value] = true
			}
		}
	}
	var missing []grounding.Goal
	var roles []int
	for r, gs := range p.Goals {
		for _, g := range gs {
			if !named[g.Value] && g.Lit != grounding.False {
				missing = append(missing, g)
				roles = append(roles, r)
			}
		}
	}
	if len(missing) == 0 {
		return ""
	}
	const w = goalWitnessWords
	vals := make([]uint64, p.Circuit.NumNodes()*w)
	rng := rand.New(rand.NewPCG(uint64(len(p.Props)), uint64(p.Circuit.NumNodes())))
	for i := range p.Props {
		in := vals[p.TrueInput(i).Node()*w:][:w]
		for k := range in {
			in[k] = rng.Uint64()
		}
		in[0] &^= 0b111 // lane 0: the initial state, lane 1: none, lane 2: all
		in[0] |= 0b100
	}
	for _, i := range p.Init {
		vals[p.TrueInput(int(i)).Node()*w] |= 1
	}
	p.Circuit.EvalWords(vals, w)
	var words []uint64
	for k, g := range missing {
		words = grounding.WordsOf(words[:0], vals, w, g.Lit)
		for _, x := range words {
			if x != 0 {
				return fmt.Sprintf("%s gives goal value %d to role %s in some state, and %s has no goal function of value %d", p.Name, g.Value, p.Roles[roles[k]], q.Name, g.Value)
			}
		}
	}
	return ""
}

func compareGames(ctx context.Context, a, b game, lim Limits, rep *Report) (*Report, error) {
	sa, sb := a.g.Stats(), b.g.Stats()
	rep.Stats.Nodes = [2]int{sa.Vertices, sb.Vertices}
	rep.Stats.Edges = [2]int{sa.Edges, sb.Edges}
	if sa.Vertices != sb.Vertices || sa.Edges != sb.Edges {
		rep.Verdict = NotEquivalent
		rep.Reason = fmt.Sprintf("ground graphs differ in size: %d vertices and %d edges vs %d and %d", sa.Vertices, sa.Edges, sb.Vertices, sb.Edges)
		return rep, nil
	}
	lim.progress(Progress{Phase: "search", Fraction: 0.3, Step: "canonical search for a graph isomorphism"})
	start := time.Now()
	// Both searches below take the graphs in isomorph's form: converted
	// once, not by each.
	ga, err := isomorph.Convert(a.g)
	if err != nil {
		return orLimit(ctx, rep, fmt.Errorf("graph isomorphism: %w", err))
	}
	gb, err := isomorph.Convert(b.g)
	if err != nil {
		return orLimit(ctx, rep, fmt.Errorf("graph isomorphism: %w", err))
	}
	// One canonical search each first: most non-equivalent pairs end here.
	f, err := isomorph.Find(ctx, ga, gb, lim.Search)
	if errors.Is(err, isomorph.ErrNotIsomorphic) {
		rep.Stats.PhaseMs["search"] = ms(time.Since(start))
		rep.Verdict = NotEquivalent
		rep.Reason = "ground graphs are not isomorphic: no bijection of roles, propositions and actions preserves the dependencies and semantic features of the reasoning functions"
		return rep, nil
	} else if err != nil {
		return orLimit(ctx, rep, fmt.Errorf("graph isomorphism: %w", err))
	}
	rep.Stats.PhaseMs["search"] = ms(time.Since(start))
	satOpt := lim.SAT
	if lim.Progress != nil {
		satOpt.Progress = func(proven, total int) {
			// Every pair would be too often: every 64th, and the last.
			if proven%64 == 0 || proven == total {
				// Verify runs on the candidate just counted.
				lim.progress(Progress{Phase: "verify", Candidates: rep.Stats.Candidates, Fraction: 0.8,
					Step: fmt.Sprintf("verifying candidate mapping %d", rep.Stats.Candidates),
					Done: int64(proven), Total: int64(total), Unit: UnitFunctions})
			}
		}
	}
	satOpt.BoundedEffort = max(lim.BoundedEffort, 0)
	checker, err := satcheck.NewChecker(a.p, b.p, satOpt)
	if err != nil {
		return nil, fmt.Errorf("verifier: %w", err)
	}
	if lim.BoundedEffort > 0 {
		// First every candidate under bounded checks (satcheck's
		// BoundedEffort): a candidate whose verification is hard is set
		// aside while the search looks for one that verifies cheaply
		// (mappings that differ by a symmetry of the game can differ
		// that much, and which comes first follows vertex numbers).
		// The pass is final unless it set something aside; then the
		// search runs again with unbounded checks, on the same checker,
		// whose cache answers what the first pass decided.
		out, aside, err := searchPass(ctx, a, b, ga, gb, f, checker, lim, rep, true)
		if err != nil || aside == 0 {
			return out, err
		}
		checker.Unbound()
	}
	out, _, err := searchPass(ctx, a, b, ga, gb, f, checker, lim, rep, false)
	return out, err
}

// searchPass runs the isomorphism search with its early checks and
// verifies its candidates. bounded tells that the checker's checks are
// bounded (satcheck's BoundedEffort): a check past its bound sets its
// node or candidate aside instead of deciding it, and a pass that set any
// aside (aside > 0) returns no verdict unless it found a verified mapping.
// Statistics add up in rep across passes.
func searchPass(ctx context.Context, a, b game, ga, gb *isomorph.Graph, f isomorph.Mapping, checker *satcheck.Checker, lim Limits, rep *Report, bounded bool) (_ *Report, aside int64, _ error) {
	start := time.Now()
	s := newSearch(ctx, a, b, checker, &lim, rep)
	if s.err != nil {
		out, err := orLimit(ctx, rep, s.err)
		return out, 0, err
	}
	s.bounded = bounded
	s.cells = newCellCheck(a, b, &lim)
	s.probes = newProbeCheck(ctx, a, b, &lim)
	s.corners = newCornerPairCheck(a, b)
	var verifyTime time.Duration
	var firstFailure string
	var searchErr error
	s.coset = &coset{f: f}
	s.cosetVerify = func(m satcheck.Mapping) (bool, error) {
		rep.Stats.Candidates++
		if rep.Stats.Candidates > lim.MaxCandidates {
			return false, &isomorph.LimitError{What: "MaxCandidates", Limit: lim.MaxCandidates, Got: rep.Stats.Candidates}
		}
		t0 := time.Now()
		res, err := checker.Verify(ctx, m)
		verifyTime += time.Since(t0)
		if s.setsAside(err) {
			return false, s.err
		}
		if err != nil {
			return false, err
		}
		if res.Verdict == satcheck.Equivalent {
			return true, nil
		}
		if firstFailure == "" {
			firstFailure = res.Function + ": " + res.Reason
		}
		return false, nil
	}
	for iso, err := range isomorph.SearchNodes(ctx, ga, gb, lim.Search, s.visit) {
		if err != nil {
			searchErr = err
			break
		}
		if s.err != nil {
			searchErr = s.err
			break
		}
		rep.Stats.Candidates++
		if rep.Stats.Candidates > lim.MaxCandidates {
			searchErr = &isomorph.LimitError{What: "MaxCandidates", Limit: lim.MaxCandidates, Got: rep.Stats.Candidates}
			break
		}
		m, err := a.g.Mapping(b.g, iso)
		if errors.Is(err, groundgraph.ErrNotGameMapping) {
			if firstFailure == "" {
				firstFailure = err.Error()
			}
			continue // an isomorphism that mixes roles is no candidate
		}
		if err != nil {
			return nil, 0, fmt.Errorf("graph isomorphism to mapping: %w", err)
		}
		t0 := time.Now()
		res, err := checker.Verify(ctx, m)
		verifyTime += time.Since(t0)
		lim.progress(Progress{Phase: "search", Candidates: rep.Stats.Candidates, Fraction: 0.5,
			Step: "searching for a mapping that verifies", Done: s.nodes, Unit: UnitNodes})
		if s.setsAside(err) {
			if s.err != nil {
				break // set enough aside
			}
			continue
		}
		if err != nil {
			searchErr = err
			break
		}
		if res.Verdict == satcheck.Equivalent {
			rep.Verdict = Equivalent
			rep.Reason = fmt.Sprintf("verified mapping found after %d candidate(s): all %d reasoning functions proven equal", rep.Stats.Candidates, res.Checked)
			rep.Mapping = names(a.p, b.p, m)
			break
		}
		if firstFailure == "" {
			firstFailure = res.Function + ": " + res.Reason
		}
	}
	if searchErr == nil && s.err != nil {
		// An early check failed with an error and cut the search before any
		// complete candidate: the error decides, not the empty search.
		searchErr = s.err
	}
	st := checker.Stats()
	rep.Stats.SATCalls = st.SATCalls // the checker's, over both passes
	rep.Stats.FuncChecks = st.Checks
	rep.Stats.SearchNodes += s.nodes
	rep.Stats.Pruned += s.pruned
	rep.Stats.Backjumps += s.backjumps
	rep.Stats.SetAside += s.aside
	rep.Stats.PhaseMs["verify"] += ms(verifyTime + s.checkTime)
	rep.Stats.PhaseMs["search"] += ms(time.Since(start) - verifyTime - s.checkTime)
	if c := s.coset; c.done {
		rep.Stats.CosetNodes += c.nodes
		if c.found != nil && rep.Verdict != Equivalent {
			rep.Verdict = Equivalent
			rep.Reason = fmt.Sprintf("verified mapping found by the coset search after %d candidate(s): all %d reasoning functions proven equal", rep.Stats.Candidates, a.p.NumFunctions())
			rep.Mapping = names(a.p, b.p, *c.found)
		}
	}
	if bounded && errors.Is(searchErr, satcheck.ErrLimit) {
		// Defensive: setsAside counts every bounded limit it sees; one
		// that reached here unseen must not let the pass be final.
		s.aside++
	}
	if rep.Verdict != Equivalent && s.aside > 0 &&
		(searchErr == nil || errors.Is(searchErr, satcheck.ErrLimit) || errors.Is(searchErr, errEnoughAside)) {
		// No verdict from a pass that set something aside: a refutation
		// or a proof it left out could decide. Any other error (the
		// context's, an internal one) is reported as it is below.
		return rep, s.aside, nil
	}
	if c := s.coset; c.done {
		switch {
		case c.proven && searchErr == nil:
			rep.Verdict = NotEquivalent
			rep.Reason = fmt.Sprintf("the ground graphs are isomorphic, but no graph isomorphism verifies: the coset search over the automorphism group of the first graph (%d nodes) pruned or rejected every one (%d complete candidates)", c.nodes, rep.Stats.Candidates)
			if firstFailure != "" {
				rep.Reason += "; first failure: " + firstFailure
			}
			lim.progress(Progress{Phase: "done", Candidates: rep.Stats.Candidates, Fraction: 1})
			return rep, 0, nil
		case c.err != nil && searchErr == nil:
			searchErr = c.err
		}
	}
	lim.progress(Progress{Phase: "done", Candidates: rep.Stats.Candidates, Fraction: 1})
	if rep.Verdict == Equivalent {
		return rep, 0, nil
	}
	if searchErr != nil {
		rep, err := orLimit(ctx, rep, searchErr)
		if rep != nil && rep.Verdict == Unknown {
			if most := s.mostFailed(); most != "" {
				rep.Reason += "; " + most
			}
		}
		return rep, 0, err
	}
	rep.Verdict = NotEquivalent
	rep.Reason = fmt.Sprintf("the ground graphs are isomorphic, but every candidate mapping fails verification (%d complete candidates, %d subtrees pruned by early checks)", rep.Stats.Candidates, s.pruned)
	if firstFailure != "" {
		rep.Reason += "; first failure: " + firstFailure
	} else if s.firstFailure != "" {
		rep.Reason += "; first failure: " + s.firstFailure
	}
	return rep, 0, nil
}

// names turns an index mapping into the names of the report.
func names(a, b *grounding.Program, m satcheck.Mapping) *Mapping {
	out := &Mapping{Roles: map[string]string{}, Propositions: map[string]string{}, Actions: map[string]map[string]string{}}
	for r, rb := range m.Roles {
		out.Roles[a.Roles[r]] = b.Roles[rb]
		acts := map[string]string{}
		for x, xb := range m.Actions[r] {
			acts[a.Actions[r][x]] = b.Actions[rb][xb]
		}
		out.Actions[a.Roles[r]] = acts
	}
	for q, qb := range m.Props {
		out.Propositions[a.Props[q]] = b.Props[qb]
	}
	return out
}
