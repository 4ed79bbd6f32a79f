package equiv

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// Analysis is what classification knows of a game without comparing it:
// its ground sizes, its graph invariants and the keys that index it in a
// search for its equivalence class. Two games can only be equivalent when
// their Invariants are equal and their Certificates are equal (an empty
// Certificate matches any). It is computed once per game (Prepare) and can
// be stored: it is plain JSON.
type Analysis struct {
	// Certificate is CertificateScheme followed by the hex SHA-256 of the
	// canonical certificate of the game's ground graph, or empty when the
	// canonical search hit a limit. The scheme names the versions of the
	// graph and of the canonical form: the store compares certificates of
	// one scheme only.
	Certificate string `json:"certificate,omitempty"`
	// Invariants summarises cheap invariants that every equivalence keeps:
	// numbers of roles, state propositions and initial propositions, the
	// sorted numbers of actions per role, and the size of the ground graph.
	Invariants string `json:"invariants"`

	// Ground sizes.
	Roles        int   `json:"roles"`
	Propositions int   `json:"propositions"`
	Initial      int   `json:"initial"`
	Actions      []int `json:"actions"` // per role, sorted
	Functions    int   `json:"functions"`
	CircuitNodes int   `json:"circuit_nodes"`
	// Graph invariants.
	Vertices int `json:"vertices"`
	Edges    int `json:"edges"`
	Colors   int `json:"colors"`
	// CertificateLimit names the limit that left Certificate empty.
	CertificateLimit string `json:"certificate_limit,omitempty"`
	// PhaseMs is the time of each step: ground, graph, canonical.
	PhaseMs map[string]float64 `json:"phase_ms"`
}

// CertificateScheme prefixes Analysis.Certificate: "gG.isoI:" for
// groundgraph.Version G and isomorph.CanonicalVersion I.
var CertificateScheme = fmt.Sprintf("g%d.iso%d:", groundgraph.Version, isomorph.CanonicalVersion)

// MayEqual reports whether the keys of a and b allow the two games to be
// equivalent: equal invariants, and equal certificates unless one is
// unknown (empty, or of another scheme). Equal keys prove nothing: only a
// comparison with a verified mapping does.
func (a *Analysis) MayEqual(b *Analysis) bool {
	if a.Invariants != b.Invariants {
		return false
	}
	sa, _, oka := strings.Cut(a.Certificate, ":")
	sb, _, okb := strings.Cut(b.Certificate, ":")
	if a.Certificate == "" || b.Certificate == "" || !oka || !okb || sa != sb {
		return true
	}
	return a.Certificate == b.Certificate
}

// Prepared is a game ready for class comparisons: its ground program, and
// its ground graph and canonical certificate once a comparison needed them
// (Graph), kept so that a class representative is grounded and built once,
// not once per comparison. It is safe for concurrent use.
type Prepared struct {
	Name string
	p    *grounding.Program
	lim  Limits // Graph's limits; lim.Timeout is the budget of Graph

	mu       sync.Mutex
	analysis Analysis
	g        *groundgraph.Graph
	graphErr error // a failure of Graph under its own budget, kept
}

// Program returns the ground program of the game.
func (p *Prepared) Program() *grounding.Program { return p.p }

// Analysis returns a copy of the analysis so far: the ground sizes and the
// Invariants key always, the graph invariants and the certificate once
// Graph succeeded.
func (p *Prepared) Analysis() Analysis {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.analysis
	a.Actions = slices.Clone(a.Actions)
	a.PhaseMs = maps.Clone(a.PhaseMs)
	return a
}

// HasGraph reports whether the ground graph and certificate are computed.
func (p *Prepared) HasGraph() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.g != nil
}

// Prepare grounds a game and computes the ground part of its Analysis
// within lim.Timeout. An invalid description is an error (a
// grounding.ErrorList), and so is a limit hit while grounding (IsLimit
// reports it) or the timeout. With graph true it also computes the graph
// part (Graph) at once.
func Prepare(ctx context.Context, src Source, lim Limits, graph bool) (*Prepared, error) {
	lim = lim.WithDefaults()
	lim.Progress = nil
	gctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	t0 := time.Now()
	prog, err := grounding.Load(gctx, src.Name, src.GDL, lim.Ground)
	if err != nil {
		return nil, fmt.Errorf("ground %s: %w", src.Name, err)
	}
	p := &Prepared{Name: src.Name, p: prog, lim: lim}
	p.analysis.PhaseMs = map[string]float64{"ground": ms(time.Since(t0))}
	acts := make([]int, len(prog.Actions))
	s := make([]string, len(prog.Actions))
	for r, as := range prog.Actions {
		acts[r] = len(as)
	}
	slices.Sort(acts)
	for r, n := range acts {
		s[r] = strconv.Itoa(n)
	}
	a := &p.analysis
	a.Roles, a.Propositions, a.Initial, a.Actions = len(prog.Roles), len(prog.Props), len(prog.Init), acts
	a.Functions, a.CircuitNodes = prog.NumFunctions(), prog.Circuit.NumNodes()
	// Every equivalence keeps these counts (shapeDiff): the graph's come
	// later, in the certificate, so that a game alone with its counts
	// needs no graph at all.
	a.Invariants = fmt.Sprintf("v2 r%d p%d i%d a%s", a.Roles, a.Propositions, a.Initial, strings.Join(s, ","))
	if graph {
		if err := p.Graph(ctx); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Graph builds the game's ground graph and canonical certificate, once,
// within the Timeout of Prepare's limits. A limit or that timeout is kept
// and returned again by later calls; ctx's own end is not. A limit hit by
// the canonical search only leaves the certificate empty.
func (p *Prepared) Graph(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.g != nil || p.graphErr != nil {
		return p.graphErr
	}
	gctx, cancel := context.WithTimeout(ctx, p.lim.Timeout)
	defer cancel()
	t0 := time.Now()
	g, err := groundgraph.Build(gctx, p.p, p.lim.Graph)
	p.analysis.PhaseMs["graph"] = ms(time.Since(t0))
	if err != nil {
		err = fmt.Errorf("ground graph of %s: %w", p.Name, err)
		if ctx.Err() == nil {
			p.graphErr = err
		}
		return err
	}
	t0 = time.Now()
	_, cert, err := isomorph.Canonical(gctx, g, p.lim.Search)
	p.analysis.PhaseMs["canonical"] = ms(time.Since(t0))
	var il *isomorph.LimitError
	switch {
	case err == nil:
		p.analysis.Certificate = CertificateScheme + cert.String()
	case errors.As(err, &il):
		// Leave the certificate unknown: comparisons still decide.
		p.analysis.CertificateLimit = "Search." + il.What
	default:
		err = fmt.Errorf("certificate of %s: %w", p.Name, err)
		if ctx.Err() == nil {
			p.graphErr = err
		}
		return err
	}
	st := g.Stats()
	p.analysis.Vertices, p.analysis.Edges, p.analysis.Colors = st.Vertices, st.Edges, st.Colors
	p.g = g
	return nil
}

// Analyze grounds a game, builds its graph and returns its Analysis.
func Analyze(ctx context.Context, src Source, lim Limits) (*Analysis, error) {
	p, err := Prepare(ctx, src, lim, true)
	if err != nil {
		return nil, err
	}
	a := p.Analysis()
	return &a, nil
}

// ComparePrepared is Compare on prepared games: nothing is grounded or
// built again; a graph not built yet is built once (Prepared.Graph, within
// its own budget). lim.Timeout bounds the rest of the comparison.
func ComparePrepared(ctx context.Context, a, b *Prepared, lim Limits) (*Report, error) {
	lim = lim.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	rep := &Report{Stats: Stats{PhaseMs: map[string]float64{}, Functions: a.p.NumFunctions()}}
	if why := shapeDiff(a.p, b.p); why != "" {
		rep.Verdict, rep.Reason = NotEquivalent, why
		return rep, nil
	}
	for _, p := range []*Prepared{a, b} {
		if err := p.Graph(ctx); err != nil {
			return orLimit(ctx, rep, err)
		}
	}
	ga, gb := game{a.p, a.g}, game{b.p, b.g}
	return compareGames(ctx, ga, gb, lim, rep)
}

// IsLimit reports whether err says that a limit of Limits was exceeded
// (grounding, graph search or SAT size), as opposed to invalid input or an
// internal failure. Timeouts and cancellations are not limits here: they
// are the context's errors.
func IsLimit(err error) bool {
	return errors.Is(err, grounding.ErrLimit) || errors.Is(err, isomorph.ErrLimit) || errors.Is(err, satcheck.ErrLimit)
}
