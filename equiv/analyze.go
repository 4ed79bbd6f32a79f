package equiv

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// Analysis holds the keys that index a game in a search for its
// equivalence class: two games can only be equivalent when both keys are
// equal (an empty Certificate matches any).
type Analysis struct {
	// Certificate is CertificateScheme followed by the hex SHA-256 of the
	// canonical certificate of the game's ground graph, or empty when the
	// canonical search hit a limit. The scheme names the versions of the
	// graph and of the canonical form: the store compares certificates of
	// one scheme only.
	Certificate string
	// Invariants summarises cheap invariants that every equivalence keeps:
	// numbers of roles, state propositions and initial propositions, the
	// sorted numbers of actions per role, and the size of the ground graph.
	Invariants string
}

// CertificateScheme prefixes Analysis.Certificate: "gG.isoI:" for
// groundgraph.Version G and isomorph.CanonicalVersion I.
var CertificateScheme = fmt.Sprintf("g%d.iso%d:", groundgraph.Version, isomorph.CanonicalVersion)

// Analyze grounds a game, builds its ground graph and computes its class
// keys. An invalid description is an error (a grounding.ErrorList), and so
// is a limit hit while grounding or building the graph (IsLimit reports
// it); a limit hit by the canonical search only leaves Certificate empty.
func Analyze(ctx context.Context, src Source, lim Limits) (*Analysis, error) {
	lim = lim.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	p, err := grounding.Load(ctx, src.Name, src.GDL, lim.Ground)
	if err != nil {
		return nil, fmt.Errorf("ground %s: %w", src.Name, err)
	}
	g, err := groundgraph.Build(ctx, p, lim.Graph)
	if err != nil {
		return nil, fmt.Errorf("ground graph of %s: %w", src.Name, err)
	}
	a := &Analysis{Invariants: invariants(p, g)}
	_, cert, err := isomorph.Canonical(ctx, g, lim.Search)
	switch {
	case err == nil:
		a.Certificate = CertificateScheme + cert.String()
	case errors.Is(err, isomorph.ErrLimit):
		// Leave the certificate unknown: comparisons still decide.
	default:
		return nil, fmt.Errorf("certificate of %s: %w", src.Name, err)
	}
	return a, nil
}

// invariants is the Analysis.Invariants key of a grounded game, for
// example "v1 r2 p29 i10 a10,10 n120 e400".
func invariants(p *grounding.Program, g *groundgraph.Graph) string {
	acts := make([]int, len(p.Actions))
	for r, as := range p.Actions {
		acts[r] = len(as)
	}
	slices.Sort(acts)
	s := make([]string, len(acts))
	for i, n := range acts {
		s[i] = strconv.Itoa(n)
	}
	st := g.Stats()
	return fmt.Sprintf("v1 r%d p%d i%d a%s n%d e%d",
		len(p.Roles), len(p.Props), len(p.Init), strings.Join(s, ","), st.Vertices, st.Edges)
}

// IsLimit reports whether err says that a limit of Limits was exceeded
// (grounding, graph search or SAT size), as opposed to invalid input or an
// internal failure. Timeouts and cancellations are not limits here: they
// are the context's errors.
func IsLimit(err error) bool {
	return errors.Is(err, grounding.ErrLimit) || errors.Is(err, isomorph.ErrLimit) || errors.Is(err, satcheck.ErrLimit)
}
