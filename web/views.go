package web

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/gamequiv/gamequiv"
)

// HomeView is the data of PageHome.
type HomeView struct {
	// Recent are the latest comparisons, newest first.
	Recent []Comparison
}

// ClassesView is the data of PageClasses.
type ClassesView struct {
	// Query is the search in effect: classes with a game whose name
	// contains it.
	Query   string
	Classes []gamequiv.Class
	// Next is the cursor of the following page, 0 on the last page.
	Next int64
}

// ClassView is the data of PageClass.
type ClassView struct {
	Class gamequiv.Class
}

// Game is a stored game.
type Game struct {
	ID     int64
	Name   string
	SHA256 string
	Stats  gamequiv.GameStats
	// ClassID is the game's equivalence class, 0 while it has none.
	ClassID int64
	// AnalysisError says why the game could not be placed in a class.
	AnalysisError string
	CreatedAt     time.Time
	// Owner is the name of the uploader's token, empty without access
	// control.
	Owner string
}

// GamesView is the data of PageGames.
type GamesView struct {
	// Query is the search in effect: games whose name contains it.
	Query string
	Games []Game
	// Next is the cursor of the following page, 0 on the last page.
	Next int64
}

// GameView is the data of PageGame.
type GameView struct {
	Game Game
	// GDL is the game description as submitted.
	GDL string
	// Board draws the initial state on the game's board, nil for a game
	// without one; BoardNote says why there is none when that is not
	// simply the game's shape.
	Board     *Board
	BoardNote string
	// Symmetries is the stored symmetry result, nil if not computed yet.
	Symmetries *Symmetries
	// SymmetryError says why the symmetries could not be computed and
	// SymmetryHint what to do about it.
	SymmetryError, SymmetryHint string
	// Comparisons are the latest comparisons involving the game.
	Comparisons []Comparison
	// CanChange is set when the viewer may rename and delete the game.
	CanChange bool
}

// LoginView is the data of PageLogin.
type LoginView struct {
	// Next is the local path to return to after signing in.
	Next string
	// Error says why signing in failed.
	Error string
}

// Symmetries is a game's verified self-equivalences.
type Symmetries struct {
	// Order counts the symmetries, the identity included (a decimal).
	Order         string
	RoleSymmetric bool
	// Candidates counts the graph automorphisms examined.
	Candidates int64
	// GraphOrder is the order of the ground graph's automorphism group.
	GraphOrder string
	// Generators generate the symmetry group.
	Generators []Generator
}

// Generator is one generator of a symmetry group, in cycle notation on the
// elements it moves.
type Generator struct {
	Roles, Propositions []Cycle
	// Actions are written "role action".
	Actions []Cycle
	// Cells and Contents are the generator on the game's board, by cell
	// names and contents; Board draws it. All nil for a game without a
	// board, or a generator that does not act on the board cell by cell.
	Cells, Contents []Cycle
	Board           *Board
}

// Moves reports whether the generator moves anything (it is not the
// identity).
func (g Generator) Moves() bool {
	return len(g.Roles)+len(g.Propositions)+len(g.Actions) > 0
}

// Pair maps one name of game A to one of game B.
type Pair struct {
	From, To string
}

// Pairs returns the entries of m sorted by key.
func Pairs(m map[string]string) []Pair {
	out := make([]Pair, 0, len(m))
	for k, v := range m {
		out = append(out, Pair{From: k, To: v})
	}
	slices.SortFunc(out, func(a, b Pair) int { return cmp.Compare(a.From, b.From) })
	return out
}

// RoleActions maps the actions of one role.
type RoleActions struct {
	// Role is the role of game A, To its image in game B.
	Role, To string
	Pairs    []Pair
}

// Mapping maps the roles, state propositions and actions of game A to game B.
type Mapping struct {
	Roles        []Pair
	Propositions []Pair
	// Actions are in the order of Roles.
	Actions []RoleActions
}

// NewMapping sorts the maps of a mapping for display.
func NewMapping(roles, props map[string]string, actions map[string]map[string]string) Mapping {
	m := Mapping{Roles: Pairs(roles), Propositions: Pairs(props)}
	for _, r := range m.Roles {
		m.Actions = append(m.Actions, RoleActions{Role: r.From, To: r.To, Pairs: Pairs(actions[r.From])})
	}
	for r, as := range actions {
		if _, ok := roles[r]; !ok { // not expected; shown rather than dropped
			m.Actions = append(m.Actions, RoleActions{Role: r, Pairs: Pairs(as)})
		}
	}
	return m
}

// Phase is the time one step of a comparison took.
type Phase struct {
	Name string
	Ms   float64
}

// Stats are the figures of a finished comparison.
type Stats struct {
	// Phases are in pipeline order (ground, graph, search, verify, others).
	Phases     []Phase
	Candidates int64
	SATCalls   int64
	Nodes      [2]int
	Edges      [2]int
	Functions  int
}

// Comparison is a comparison of two games: a job and, once done, its result.
type Comparison struct {
	ID int64
	// A and B are the ids of the games; NameA and NameB their names where
	// known.
	A, B         int64
	NameA, NameB string
	// Status is queued, running, done, failed or cancelled.
	Status string
	// Phase, Candidates and Fraction are the progress, as the API reports it.
	Phase      string
	Candidates int64
	Fraction   float64
	// Step says what the phase is doing; Done of Total Unit is its
	// sub-progress (Total 0: not known in advance).
	Step        string
	Done, Total int64
	Unit        string
	// Elapsed is the time the comparison has run, or ran, e.g. "2 min 5 s".
	Elapsed string
	// Stalled is set when the worker's lease ended before the job did: the
	// worker died, and the job waits for another worker to take it again.
	Stalled    bool
	LeaseUntil time.Time
	// Verdict is equivalent, not_equivalent or unknown once done.
	Verdict string
	// Reason explains the verdict; Limit names the limit of an unknown one
	// and LimitHint says what to do about it.
	Reason    string
	Limit     string
	LimitHint string
	// Error says why the comparison failed.
	Error string
	// Mapping is the verified mapping of an equivalent verdict.
	Mapping *Mapping
	// Boards draws the mapping on the two games' boards; nil when they have
	// none, and BoardNote then says why when it is worth saying.
	Boards    *BoardPair
	BoardNote string
	// Stats are the figures of the finished comparison, nil before.
	Stats *Stats
	// Owner is the name of the submitter's token, empty without access
	// control; CanCancel is set when the viewer may cancel it.
	Owner     string
	CanCancel bool
	// Limits is the JSON of the client's limits ("{}" for none).
	Limits          string
	CancelRequested bool
	Attempts        int
	CreatedAt       time.Time
	StartedAt       time.Time
	FinishedAt      time.Time
}

// BoardPair is a mapping drawn on the boards of its two games.
type BoardPair struct {
	A, B *Board
	// Contents maps what A's cells hold to what B's cells hold.
	Contents []Pair
}

// Final reports whether the comparison has reached a final status.
func (c Comparison) Final() bool {
	return c.Status == "done" || c.Status == "failed" || c.Status == "cancelled"
}

// ComparisonsView is the data of PageComparisons.
type ComparisonsView struct {
	Comparisons []Comparison
	// Status and GameID are the filter in effect ("" and 0 for none);
	// GameName names the game.
	Status   string
	GameID   int64
	GameName string
	// GameQuery is a search of the game by name; GameChoices are the games
	// it matches when they are several (MoreChoices: more than listed) or
	// none.
	GameQuery   string
	GameChoices []gamequiv.Member
	MoreChoices bool
	// Statuses are the choices of the status filter.
	Statuses []string
	// Next is the cursor of the following page, 0 on the last page.
	Next int64
}

// ComparisonView is the data of PageComparison.
type ComparisonView struct {
	Comparison Comparison
	// PollInterval is how often a browser refreshes a comparison that has
	// not finished, e.g. "1s".
	PollInterval string
}

// Side is one game of the comparison form as the user filled it in.
type Side struct {
	// ID is the stored game picked, 0 for none.
	ID int64
	// Name and GDL are a pasted (or uploaded) game.
	Name, GDL string
}

// FieldError is one error of a submitted game description.
type FieldError struct {
	Line, Col int
	Message   string
}

// Picker is the list of stored games of one side of the comparison
// form, filtered by a search.
type Picker struct {
	// Query is the search; Games the games whose name contains it; More
	// says there are more than listed.
	Query string
	Games []gamequiv.Member
	More  bool
}

// CompareView is the data of PageCompare, the form that submits a
// comparison.
type CompareView struct {
	// PickA and PickB are the stored games to pick from for each side.
	PickA, PickB Picker
	A, B         Side
	// TimeoutSeconds is the optional time limit as entered.
	TimeoutSeconds string
	// Error is the problem with the last submission, if any; Side names
	// the game it concerns ("a", "b" or empty) and Errors lists every
	// error of an invalid description.
	Error  string
	Side   string
	Errors []FieldError
}

// SideField is one fieldset of the comparison form.
type SideField struct {
	// Key prefixes the field names: "a" or "b".
	Key   string
	Label string
	Side  Side
	Pick  Picker
	// Other is the other side's key and stored game, kept by the search.
	Other     string
	OtherID   int64
	OtherPick string
}

// Sides returns the two fieldsets of the form, game A first.
func (v CompareView) Sides() []SideField {
	return []SideField{
		{Key: "a", Label: "Game A", Side: v.A, Pick: v.PickA, Other: "b", OtherID: v.B.ID, OtherPick: v.PickB.Query},
		{Key: "b", Label: "Game B", Side: v.B, Pick: v.PickB, Other: "a", OtherID: v.A.ID, OtherPick: v.PickA.Query},
	}
}

// ErrorView is the data of PageError.
type ErrorView struct {
	Status int
	// Title is the status text, Detail what went wrong.
	Title  string
	Detail string
}

// FormatDuration writes a duration for people, to the second: "45 s",
// "2 min 5 s", "1 h 3 min".
func FormatDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	sec := int64(d.Round(time.Second) / time.Second)
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case sec < 60:
		return fmt.Sprintf("%d s", sec)
	case sec < 3600:
		return fmt.Sprintf("%d min %d s", sec/60, sec%60)
	}
	return fmt.Sprintf("%d h %d min", sec/3600, sec%3600/60)
}
