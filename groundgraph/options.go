package groundgraph

import (
	"runtime"
	"time"
)

// Version names the graphs that Build makes. It is incremented whenever
// Build can make a different graph (vertices, arcs or colours) for the same
// program, so that digests of graphs made by different versions, such as
// stored certificates, are never compared.
const Version = 8

// Defaults of Options.
const (
	// DefaultMaxTableBits: functions whose semantic input space has at most
	// 2^22 rows get exact truth-table features.
	DefaultMaxTableBits = 22
	// DefaultMaxTableRows bounds the rows of all truth tables of one Build.
	DefaultMaxTableRows = 1 << 28
	// DefaultMaxCornerWeight: corners of up to 6 propositions (the lines
	// of five of 5x5 Tic-tac-toe, Pentago and Gomoku-like games), within the
	// point budgets.
	DefaultMaxCornerWeight = 6
	// DefaultMaxCornerPoints bounds the points one function's corner search
	// evaluates (both anchors): corners of 4 among up to 176 propositions
	// (a goal that reads 11 blocks of 4 cells of 4 states each, as in the
	// factoring puzzles, whose block structure only corners of 4 show).
	DefaultMaxCornerPoints = 1 << 27
	// DefaultMaxCornerTotal bounds the points of all corner searches of a
	// Build: two such functions (a goal and its complement).
	DefaultMaxCornerTotal = 1 << 28
	// DefaultMaxCorners: a function with more than 256 corners from an anchor
	// gets none from it.
	DefaultMaxCorners = 256
	// DefaultMaxCornerCountProps: functions of at most 256 semantic
	// propositions count their corners by pair when there are too many to
	// list.
	DefaultMaxCornerCountProps = 256
	// DefaultMaxCornerPairs: at most 4096 corner-pair vertices per function
	// and anchor.
	DefaultMaxCornerPairs = 4096
	// DefaultMaxBreakerArcs: at most 4096 breakers over all corners of one
	// function and anchor (a maze's "may move east" has one per cell).
	DefaultMaxBreakerArcs = 4096
	// DefaultMaxClassActions: action classes for roles of at most 1024
	// actions.
	DefaultMaxClassActions = 1024
	// DefaultMaxBigClassProps: action classes of roles with more actions
	// for next functions of at most 12 semantic propositions (amazons'
	// cells read one).
	DefaultMaxBigClassProps = 12
	// DefaultMaxClassTableWork: a class table (classtable.go) of at most
	// 2^25 gate-words, like a residue table (amazons: 4 M per function).
	DefaultMaxClassTableWork = 1 << 25
	// DefaultSupportTableBits: semantic supports of functions whose
	// syntactic input space has at most 2^16 rows are read off truth tables.
	// Larger ones are cheaper by simulation and one batched SAT question
	// (checkersSmall: 2^22 spent most of the graph phase in support tables).
	DefaultSupportTableBits = 16
	// DefaultMaxResidueTableWork: the inputs that simulation leaves
	// undecided are settled by a truth table instead of SAT when it costs
	// at most 2^25 gate-words (tens of milliseconds; colonelBlotto's cones
	// need 6.2 M).
	DefaultMaxResidueTableWork = 1 << 25
	// DefaultMaxBDDNodes: a Build's BDD manager holds at most 2^21 nodes
	// (about 40 MiB with its tables).
	DefaultMaxBDDNodes = 1 << 21
	// DefaultMaxBDDChoices: next functions of up to 4,096 joint choices of
	// their read roles (skirmish's capture counter reads 1,792 moves of
	// one role) get their supports from cofactor BDDs.
	DefaultMaxBDDChoices = 4096
	// DefaultMaxInteractionProps: interaction vertices for functions of at
	// most 12 semantic propositions (at most 66 pairs each).
	DefaultMaxInteractionProps = 12
)

// maxTableBits caps Options.MaxTableBits: one table of 2^40 rows is far
// beyond any sensible budget and keeps row counts inside int64 with room for
// the weighted sums.
const maxTableBits = 40

// Options bound the work of Build. The zero value is the documented default
// of every field. Every bound is applied to quantities that an SCGE preserves
// (sizes of semantic input spaces), so two equivalent games are always
// treated alike: a feature skipped in one game is skipped in the other.
type Options struct {
	// MaxTableBits: a reasoning function gets exact truth-table features
	// (model count, influence of every input, pairwise interactions) only
	// when its semantic input space, 2^(semantic propositions) × the product
	// of the action counts of the roles it semantically reads, has at most
	// 2^MaxTableBits rows. 0 means DefaultMaxTableBits; a negative value
	// disables truth tables (only support sizes then colour functions);
	// values above 40 are treated as 40.
	MaxTableBits int
	// MaxTableRows bounds the total rows of all truth tables of one Build.
	// The functions are taken by increasing table size, all functions of one
	// size together, while the total stays within the bound. 0 means
	// DefaultMaxTableRows; a negative value means no bound.
	MaxTableRows int64
	// MaxInteractionProps: a tabled function with 2..MaxInteractionProps
	// semantic propositions gets one interaction vertex per pair of its
	// propositions whose second derivative is not zero (unless every pair
	// has the same interaction, which says nothing that its edges do not).
	// 0 means DefaultMaxInteractionProps; a negative value disables
	// interaction vertices.
	MaxInteractionProps int
	// MaxCornerWeight is the largest corner searched (see Corner): corners of a
	// function with n semantic propositions are searched up to the largest
	// d ≤ MaxCornerWeight with 2·Σ_{k≤d} C(n,k) ≤ MaxCornerPoints. 0 means
	// DefaultMaxCornerWeight; a negative value disables corners.
	MaxCornerWeight int
	// MaxCornerPoints bounds the points of one function's corner search
	// (both anchors, and every cofactor of a next function that reads
	// moves: the radius is the largest d with cofactors·2·Σ_{k≤d} C(n,k)
	// within the bound); 0 means DefaultMaxCornerPoints.
	MaxCornerPoints int64
	// MaxCornerTotal bounds the points of all corner searches: functions are
	// taken by increasing cost, equal costs together, within the bound. 0
	// means DefaultMaxCornerTotal; a negative value means no bound.
	MaxCornerTotal int64
	// MaxCorners: when a function has more than MaxCorners corners from one
	// anchor, none of them become vertices (the fact is part of its colour).
	// 0 means DefaultMaxCorners.
	MaxCorners int
	// MaxCornerCountProps: when a function with at most this many semantic
	// propositions has more than MaxCorners corners from an anchor, they are
	// counted by proposition and by pair of propositions instead (part of
	// its colour, and CornerPair vertices). 0 means
	// DefaultMaxCornerCountProps; a negative value never counts.
	MaxCornerCountProps int
	// MaxCornerPairs: when more than this many pairs of a function's
	// propositions share corners from one anchor, they get no CornerPair
	// vertices (their counts stay in the function's colour). 0 means
	// DefaultMaxCornerPairs.
	MaxCornerPairs int
	// MaxBreakerArcs: the corners of a function (of one cofactor, for a
	// next function that reads moves) from one anchor get CornerBreakers
	// vertices when they have at most this many breakers in all (see
	// CornerSet.Breakers). 0 means DefaultMaxBreakerArcs; a
	// negative value disables breakers.
	MaxBreakerArcs int
	// MaxCornerCofactors: a next function without a table that reads
	// moves gets the corners of each of its cofactors (one per joint
	// choice of action classes, see cofactors.go) when it has at most this
	// many; each costs a corner search. 0 means DefaultMaxCornerCofactors;
	// a negative value disables them.
	MaxCornerCofactors int
	// MaxClassActions: a next function gets action classes (ActionClass
	// vertices) for the roles it reads when each has at most this many
	// actions; each class may cost SAT calls. Beyond it, MaxBigClassProps
	// decides, and the largest class of such a role is implicit (see
	// restclass.go). 0 means DefaultMaxClassActions; a negative value
	// disables action classes.
	MaxClassActions int
	// MaxBigClassProps: a next function that reads a role of more than
	// MaxClassActions actions gets action classes when it has at most this
	// many semantic propositions. 0 means DefaultMaxBigClassProps; a
	// negative value gives such functions none.
	MaxBigClassProps int
	// MaxClassTableWork: the classes of a function that reads a role of
	// more than MaxClassActions actions come from a table over its
	// semantic propositions and the moves' digit classes (classtable.go)
	// when it costs at most this many gate-words, else from SAT
	// (satcheck.ActionClassesHinted). Exact either way, so it never changes
	// the graph. 0 means DefaultMaxClassTableWork; a negative value always
	// asks SAT.
	MaxClassTableWork int64
	// SupportTableBits: the semantic support of a function whose syntactic
	// input space (the inputs its cone reads) has at most 2^SupportTableBits
	// rows is read off its truth table; for larger ones random simulation
	// finds the inputs that matter and satcheck.FindDependence (SAT, one
	// question for all undecided inputs) decides the rest. Both ways are exact, so this only trades time:
	// it never changes the graph. 0 means DefaultSupportTableBits; a
	// negative value never uses tables; values above 30 are treated as 30.
	SupportTableBits int
	// MaxResidueTableWork: when simulation leaves inputs of a function
	// undecided, a truth table over its cone's syntactic input space
	// settles them instead of SAT if evaluating it costs at most this many
	// gate-words (cone gates × 64-row words). A next function over roles
	// beyond SupportTableBits gets its support from a truth table before
	// any simulation when the table's words and the gate evaluations its
	// block keys predict (table.go) stay within the same bound. Exact
	// either way, so it never changes the graph. 0 means
	// DefaultMaxResidueTableWork; a negative value always asks SAT.
	MaxResidueTableWork int64
	// MaxBDDNodes: when simulation leaves propositions of a function of
	// free propositions undecided and no residue table is small enough,
	// the function's BDD settles them instead of SAT, in one manager per
	// Build that keeps every gate's BDD; once it holds this many nodes,
	// SAT decides for the rest of the Build. Exact either way. 0 means
	// DefaultMaxBDDNodes; a negative value never builds BDDs.
	MaxBDDNodes int
	// MaxBDDChoices: a next function whose read roles have at most this
	// many joint choices gets its support from one BDD per choice, in a
	// manager of at most MaxBDDNodes nodes per worker, before simulation
	// is tried. Exact either way. 0 means DefaultMaxBDDChoices; a negative
	// value never does.
	MaxBDDChoices int
	// MaxJointMoves: a game of two roles that both have at least two
	// legal actions in the initial state gets a JointMove vertex per
	// legal joint move there when it has at most this many (joint.go); a
	// game where one role moves at a time gets a Play vertex per two-move
	// play from the initial state when it has at most this many
	// (plays.go). 0 means DefaultMaxJointMoves; a negative value disables
	// both.
	MaxJointMoves int
	// Workers is the number of goroutines that analyse functions; 0 means
	// GOMAXPROCS. The result does not depend on it.
	Workers int
	// Progress, if set, is told how the analysis of the reasoning functions
	// advances: stage names the analysis ("semantic supports", "truth
	// tables", "action classes", "corners", "cofactor corners"), done of total functions of that stage. It is
	// called from several goroutines and must be quick. It never changes
	// the graph.
	Progress func(stage string, done, total int)

	// listClasses lists every class of a big role (no implicit class):
	// the graph before restclass.go, for tests.
	listClasses bool
	// perActionArcs draws one arc per action even where a role arc would
	// do (Support.roleAt): the graph before role arcs, for tests.
	perActionArcs bool
	// fullColors, if set, receives the refinement's 64-bit colours, which
	// Graph keeps as 31-bit Color values (collisions merge classes), for
	// tests that compare partitions.
	fullColors *[]uint64
}

func (o Options) withDefaults() Options {
	if o.MaxTableBits == 0 {
		o.MaxTableBits = DefaultMaxTableBits
	}
	o.MaxTableBits = min(o.MaxTableBits, maxTableBits)
	if o.MaxTableRows == 0 {
		o.MaxTableRows = DefaultMaxTableRows
	}
	if o.MaxTableRows < 0 {
		o.MaxTableRows = 1<<63 - 1
	}
	if o.MaxCornerWeight == 0 {
		o.MaxCornerWeight = DefaultMaxCornerWeight
	}
	if o.MaxCornerPoints <= 0 {
		o.MaxCornerPoints = DefaultMaxCornerPoints
	}
	if o.MaxCornerTotal == 0 {
		o.MaxCornerTotal = DefaultMaxCornerTotal
	}
	if o.MaxCornerTotal < 0 {
		o.MaxCornerTotal = 1<<63 - 1
	}
	if o.MaxCorners <= 0 {
		o.MaxCorners = DefaultMaxCorners
	}
	if o.SupportTableBits == 0 {
		o.SupportTableBits = DefaultSupportTableBits
	}
	o.SupportTableBits = min(o.SupportTableBits, 30)
	if o.MaxResidueTableWork == 0 {
		o.MaxResidueTableWork = DefaultMaxResidueTableWork
	}
	if o.MaxBDDNodes == 0 {
		o.MaxBDDNodes = DefaultMaxBDDNodes
	}
	if o.MaxBDDChoices == 0 {
		o.MaxBDDChoices = DefaultMaxBDDChoices
	}
	if o.MaxInteractionProps == 0 {
		o.MaxInteractionProps = DefaultMaxInteractionProps
	}
	if o.MaxCornerCountProps == 0 {
		o.MaxCornerCountProps = DefaultMaxCornerCountProps
	}
	if o.MaxClassActions == 0 {
		o.MaxClassActions = DefaultMaxClassActions
	}
	if o.MaxBigClassProps == 0 {
		o.MaxBigClassProps = DefaultMaxBigClassProps
	}
	if o.MaxClassTableWork == 0 {
		o.MaxClassTableWork = DefaultMaxClassTableWork
	}
	if o.MaxCornerCofactors == 0 {
		o.MaxCornerCofactors = DefaultMaxCornerCofactors
	}
	if o.MaxBreakerArcs == 0 {
		o.MaxBreakerArcs = DefaultMaxBreakerArcs
	}
	if o.MaxCornerPairs <= 0 {
		o.MaxCornerPairs = DefaultMaxCornerPairs
	}
	if o.MaxJointMoves == 0 {
		o.MaxJointMoves = DefaultMaxJointMoves
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// Stats reports the size of a Graph and the work that built it.
type Stats struct {
	Vertices int           // vertices of the graph
	Edges    int           // arcs of the graph
	ByKind   [NumKinds]int // vertices of each Kind
	Colors   int           // distinct colours (colour classes)

	Functions        int   // reasoning functions analysed
	Tabled           int   // functions with exact truth-table features
	TableRows        int64 // rows of their semantic input spaces, summed
	GateWords        int64 // gate evaluations × 64-row words: tables (supports, features) and corner searches
	LargestTableBits int   // log2 of the largest table built (rounded up)
	SkippedTables    int   // functions whose tables the bounds excluded
	CornerFuncs      int   // functions whose corners were searched
	CornerPoints     int64 // points planned for corner searches (worst case; searches stop early)
	SkippedCorners   int   // functions whose corner search the bounds excluded
	DependsOnCalls   int64 // SAT questions (satcheck.FindDependence) on inputs that simulation left undecided
	ResidueTables    int64 // truth tables that settled such inputs instead (Options.MaxResidueTableWork)
	SupportBDDs      int64 // BDDs that settled them (Options.MaxBDDNodes)
	// ChoiceBDDSupports counts the next functions whose supports one BDD
	// per joint choice of their read roles settled (Options.MaxBDDChoices).
	ChoiceBDDSupports int64
	// FamilyFunctions counts the functions whose supports started from
	// one simulation of the union of their cones (famsim.go).
	FamilyFunctions int

	Support  time.Duration // semantic supports (tables, simulation, satcheck)
	Features time.Duration // truth-table features and corner searches
	Total    time.Duration // all of Build
}
