package equiv

import (
	"fmt"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// Verdict is the answer of a comparison.
type Verdict string

// Verdicts, as printed in reports.
const (
	Equivalent    Verdict = "equivalent"
	NotEquivalent Verdict = "not_equivalent"
	Unknown       Verdict = "unknown"
)

// Mapping names the correspondence of an equivalence: every role,
// proposition and action (per role) of A to its counterpart in B, by
// canonical KIF names.
type Mapping struct {
	Roles        map[string]string            `json:"roles"`
	Propositions map[string]string            `json:"propositions"`
	Actions      map[string]map[string]string `json:"actions"`
}

// Stats describes the work of a comparison.
type Stats struct {
	PhaseMs     map[string]float64 `json:"phase_ms"` // ground, graph, search, verify
	Candidates  int64              `json:"candidates"`
	SearchNodes int64              `json:"search_nodes"`
	CosetNodes  int64              `json:"coset_nodes,omitempty"` // nodes of the coset search, when it ran
	// SetAside counts the search nodes and candidates that Compare's
	// bounded first pass set aside (Limits.BoundedEffort).
	SetAside int64 `json:"set_aside,omitempty"`
	Pruned   int64 `json:"pruned"`
	// Backjumps counts the pruned nodes whose refutation also refuted an
	// ancestor's remaining subtree (search.go, refutedBy).
	Backjumps  int64  `json:"backjumps,omitempty"`
	SATCalls   int64  `json:"sat_calls"`
	FuncChecks int64  `json:"function_checks"`
	Nodes      [2]int `json:"nodes"`
	Edges      [2]int `json:"edges"`
	Functions  int    `json:"functions"`
}

// Report is the result of Compare.
type Report struct {
	Verdict Verdict  `json:"verdict"`
	Reason  string   `json:"reason"`
	Mapping *Mapping `json:"mapping,omitempty"`
	Stats   Stats    `json:"stats"`
	// Limit names the limit that made the verdict unknown, if one did.
	Limit string `json:"limit,omitempty"`
}

// Progress is reported while a comparison runs.
type Progress struct {
	Phase      string  `json:"phase"` // ground, graph, search, verify, done
	Candidates int64   `json:"candidates"`
	Fraction   float64 `json:"fraction"` // a rough estimate in [0,1]
	// Step says what the phase is doing, for people.
	Step string `json:"step,omitempty"`
	// Done counts the units of work of the step (Unit) done so far, of
	// Total (0 when the total is not known in advance): reasoning
	// functions analysed in graph, search nodes in search, reasoning
	// functions proven equal in verify.
	Done  int64  `json:"done,omitempty"`
	Total int64  `json:"total,omitempty"`
	Unit  string `json:"unit,omitempty"`
}

// Units of Progress.
const (
	UnitFunctions = "functions"
	UnitNodes     = "search nodes"
)

// Limits bounds a comparison. The zero value means every default.
type Limits struct {
	Ground  grounding.Limits
	Graph   groundgraph.Options
	Search  isomorph.Limits
	SAT     satcheck.Options
	Timeout time.Duration // whole comparison; default DefaultTimeout
	// MaxCandidates bounds the complete graph isomorphisms verified;
	// default DefaultMaxCandidates.
	MaxCandidates int64
	// NoCellCheck turns off the search's refutation on cell-constant
	// states (cells.go); for measuring it, not for use.
	NoCellCheck bool `json:"-"`
	// NoPairCheck turns off the search's refutation on pair types
	// (pairs.go); for measuring it, not for use.
	NoPairCheck bool `json:"-"`
	// NoBackjump makes a refuted search node refute only itself, not the
	// ancestor whose mapping already decides the refutation (search.go,
	// refutedBy); for measuring it, not for use.
	NoBackjump bool `json:"-"`
	// NoProbeCheck turns off the search's refutation by two-move plays
	// from the initial state (probes.go); for measuring it, not for use.
	NoProbeCheck bool `json:"-"`
	// NoProbeRestrict makes Symmetries' subgroup search enter every child
	// of a coset, not only those the probe colours allow
	// (proberestrict.go); for measuring it, not for use.
	NoProbeRestrict bool `json:"-"`
	// MaxProbeWork bounds the cost of the probe check's pair outcomes
	// (every ordered pair of a role's actions played from the initial
	// state), in word operations of both games together (probeWork);
	// games that need more go without the check. Default
	// DefaultMaxProbeWork.
	MaxProbeWork int64
	// MaxPairWork bounds the simulation done for pair types at one search
	// node, in gate-word evaluations (satcheck.Checker.PairWork); pairs past
	// it go unchecked at that node. Default DefaultMaxPairWork.
	MaxPairWork int64
	// MaxCornerPairWork bounds the corner counting done for mapped pairs
	// of propositions at one search node (cornerpairs.go), in gate-word
	// evaluations; pairs past it wait for the next node, and functions
	// whose one pair costs more are not counted. Default
	// DefaultMaxCornerPairWork.
	MaxCornerPairWork int64
	// MaxCellCheckNodes bounds the circuit nodes of the two games together
	// for which the search runs the cell check (it evaluates both circuits
	// whole at each node); default DefaultMaxCellCheckNodes.
	MaxCellCheckNodes int
	// CosetAfterNodes is the number of search nodes after which Compare
	// tries its second strategy, the coset search (coset.go), once, with
	// at most CosetMaxNodes nodes; defaults DefaultCosetAfterNodes and
	// DefaultCosetMaxNodes.
	CosetAfterNodes, CosetMaxNodes int64
	// MaxConcurrentGraphNodes bounds the circuit nodes of the two games
	// together for which Compare builds both ground graphs at once; bigger
	// games build one after the other. A big game's Build already keeps
	// every core busy, and two at once hold both Builds' working memory
	// (amazons: 4.1 GB resident against 2.2 GB for one). Default
	// DefaultMaxConcurrentGraphNodes.
	MaxConcurrentGraphNodes int
	// BoundedEffort is satcheck's Options.BoundedEffort for Compare's
	// first search pass, which sets aside the candidates (and search
	// nodes) that no bounded check decides; the unbounded pass runs only
	// when the first finds no verified mapping and set something aside.
	// Default DefaultBoundedEffort; negative: one unbounded pass.
	BoundedEffort int
	// MaxSetAside ends the first pass once it has set this many nodes
	// and candidates aside; default DefaultMaxSetAside.
	MaxSetAside int64
	// AsideSlackNodes: once the first pass has set its first node or
	// candidate aside, it ends after this many more search nodes;
	// default DefaultAsideSlackNodes.
	AsideSlackNodes int64
	// Progress, if set, is called at phase changes and every few hundred
	// search nodes. It must be quick and safe for concurrent use.
	Progress func(Progress) `json:"-"`
}

// Defaults of Limits.
const (
	DefaultTimeout       = 5 * time.Minute
	DefaultMaxCandidates = 100_000
	// DefaultMaxCellCheckNodes: a few milliseconds per node at most.
	DefaultMaxCellCheckNodes = 1 << 20
	// DefaultMaxPairWork: about 10 ms of simulation per node.
	DefaultMaxPairWork = 1 << 23
	// DefaultMaxCornerPairWork: about 10 ms of simulation per node (a pair
	// of quad's square goals, 117 cells, costs about 2^19).
	DefaultMaxCornerPairWork = 1 << 23
	// DefaultMaxProbeWork: about 0.1 s (queens, 100 placements, needs
	// 1/20 of it).
	DefaultMaxProbeWork    = 1 << 26
	DefaultCosetAfterNodes = 1 << 16
	// DefaultMaxConcurrentGraphNodes: games up to kalaha_2009 (116k nodes
	// each) build at once, since some of their Builds wait on one long
	// function with a core idle; othello-comp2007 (194k) and amazons
	// (319k) build one after the other.
	DefaultMaxConcurrentGraphNodes = 1 << 18
	DefaultCosetMaxNodes           = 1 << 21
	// DefaultBoundedEffort: about a CPU second for a pair that goes past
	// it (othelloHoles' piece counts compared across a reflection).
	DefaultBoundedEffort = 256
	// DefaultMaxSetAside: a game with fewer symmetries than this has a
	// cheap candidate among its first ones, if any.
	DefaultMaxSetAside = 8
	// DefaultAsideSlackNodes: othelloHoles' cheap candidate came two
	// nodes after its hard ones; quad's renamed copy set its one true
	// candidate aside at node 515 and searched on, in vain, past node
	// 1,389 (150 s) before this bound.
	DefaultAsideSlackNodes = 256
)

// WithDefaults fills zero fields with their defaults.
func (l Limits) WithDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.MaxCandidates <= 0 {
		l.MaxCandidates = DefaultMaxCandidates
	}
	if l.CosetAfterNodes <= 0 {
		l.CosetAfterNodes = DefaultCosetAfterNodes
	}
	if l.CosetMaxNodes <= 0 {
		l.CosetMaxNodes = DefaultCosetMaxNodes
	}
	if l.MaxPairWork <= 0 {
		l.MaxPairWork = DefaultMaxPairWork
	}
	if l.MaxCornerPairWork <= 0 {
		l.MaxCornerPairWork = DefaultMaxCornerPairWork
	}
	if l.MaxProbeWork <= 0 {
		l.MaxProbeWork = DefaultMaxProbeWork
	}
	if l.MaxConcurrentGraphNodes <= 0 {
		l.MaxConcurrentGraphNodes = DefaultMaxConcurrentGraphNodes
	}
	if l.MaxCellCheckNodes <= 0 {
		l.MaxCellCheckNodes = DefaultMaxCellCheckNodes
	}
	if l.BoundedEffort == 0 {
		l.BoundedEffort = DefaultBoundedEffort
	}
	if l.MaxSetAside <= 0 {
		l.MaxSetAside = DefaultMaxSetAside
	}
	if l.AsideSlackNodes <= 0 {
		l.AsideSlackNodes = DefaultAsideSlackNodes
	}
	l.Ground = l.Ground.WithDefaults()
	return l
}

func (l *Limits) progress(p Progress) {
	if l.Progress != nil {
		l.Progress(p)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// SymmetryIndexes is Indexes for a symmetry of p as Symmetries writes it,
// by what it moves: a proposition or action it does not name (of a role
// that maps to itself) maps to itself.
func (m *Mapping) SymmetryIndexes(p *grounding.Program) (satcheck.Mapping, error) {
	if m == nil {
		return satcheck.Mapping{}, fmt.Errorf("equiv: no mapping")
	}
	full := &Mapping{Roles: m.Roles, Propositions: map[string]string{}, Actions: map[string]map[string]string{}}
	for _, q := range p.Props {
		full.Propositions[q] = q
	}
	for q, img := range m.Propositions {
		if _, ok := full.Propositions[q]; !ok {
			return satcheck.Mapping{}, fmt.Errorf("equiv: symmetry moves %q, no proposition of %s", q, p.Name)
		}
		full.Propositions[q] = img
	}
	for r, role := range p.Roles {
		acts := map[string]string{}
		if m.Roles[role] == role {
			for _, x := range p.Actions[r] {
				acts[x] = x
			}
		}
		for x, img := range m.Actions[role] {
			acts[x] = img
		}
		full.Actions[role] = acts
	}
	return full.Indexes(p, p)
}

// Indexes turns m back into the dense ids of the programs it names, a (the
// first game of the comparison) and b: the form satcheck.Verify and
// satcheck.Mapping.InputMap take. It fails when m does not name every role,
// proposition and action of a, or names something that a or b lacks.
// Grounding is deterministic, so programs grounded again from the same
// descriptions give the same ids.
func (m *Mapping) Indexes(a, b *grounding.Program) (satcheck.Mapping, error) {
	var out satcheck.Mapping
	if m == nil {
		return out, fmt.Errorf("equiv: no mapping")
	}
	if len(m.Roles) != len(a.Roles) || len(m.Propositions) != len(a.Props) {
		return out, fmt.Errorf("equiv: mapping names %d roles and %d propositions, %s has %d and %d",
			len(m.Roles), len(m.Propositions), a.Name, len(a.Roles), len(a.Props))
	}
	out.Roles = make([]int, len(a.Roles))
	out.Actions = make([][]int, len(a.Roles))
	for r, name := range a.Roles {
		rb, ok := b.RoleID(m.Roles[name])
		if !ok {
			return out, fmt.Errorf("equiv: role %s maps to %q, no role of %s", name, m.Roles[name], b.Name)
		}
		out.Roles[r] = rb
		acts := m.Actions[name]
		if len(acts) != len(a.Actions[r]) {
			return out, fmt.Errorf("equiv: mapping names %d actions of %s, %s has %d", len(acts), name, a.Name, len(a.Actions[r]))
		}
		out.Actions[r] = make([]int, len(a.Actions[r]))
		for x, act := range a.Actions[r] {
			y, ok := b.ActionID(rb, acts[act])
			if !ok {
				return out, fmt.Errorf("equiv: action %s of %s maps to %q, no action of %s in %s", act, name, acts[act], b.Roles[rb], b.Name)
			}
			out.Actions[r][x] = y
		}
	}
	out.Props = make([]int, len(a.Props))
	for p, name := range a.Props {
		q, ok := b.PropID(m.Propositions[name])
		if !ok {
			return out, fmt.Errorf("equiv: proposition %s maps to %q, no proposition of %s", name, m.Propositions[name], b.Name)
		}
		out.Props[p] = q
	}
	return out, nil
}
