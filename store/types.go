package store

import (
	"context"
	"encoding/json"
	"time"
)

// Games stores game descriptions, deduplicated by content.
type Games interface {
	// CreateGame stores a game and reports whether it is new; a GDL text
	// stored before (same SHA-256 up to line endings) returns the existing
	// game, with name added to its aliases if it is another name.
	CreateGame(ctx context.Context, name string, gdl []byte, stats json.RawMessage) (g *Game, created bool, err error)
	// GetGame returns one game with its GDL text.
	GetGame(ctx context.Context, id int64) (*Game, error)
	// GameBySHA256 returns the game whose text has this content hash.
	GameBySHA256(ctx context.Context, sum string) (*Game, error)
	// AddGameAlias records another name of a game and reports whether it
	// was new.
	AddGameAlias(ctx context.Context, gameID int64, name string) (added bool, err error)
	// RenameGame gives a game another name.
	RenameGame(ctx context.Context, id int64, name string) (*Game, error)
	// DeleteGame deletes a game with its comparisons, symmetries and
	// aliases, and takes it out of its class.
	DeleteGame(ctx context.Context, id int64) error
	// ListGames returns games in ascending id order, without GDL text.
	ListGames(ctx context.Context, p Page) (games []Game, next int64, err error)
	// FindGames returns the games f selects in ascending id order, without
	// GDL text.
	FindGames(ctx context.Context, f GameFilter) (games []Game, next int64, err error)
}

// GameFilter selects games for FindGames; its zero value selects all.
type GameFilter struct {
	// Name, if set, selects the games with this name or alias (exactly).
	Name string
	// NameContains, if set, selects the games whose name or an alias
	// contains it, ignoring ASCII case.
	NameContains string
	// SHA256, if set, selects the game with this content hash (lower-case
	// hex, see ContentSHA256).
	SHA256 string
	Page
}

// Classes places games in equivalence classes.
type Classes interface {
	// SetGameAnalysis records the class keys of a game.
	SetGameAnalysis(ctx context.Context, gameID int64, a Analysis) error
	// SetGameError records why a game could not be analysed; the game no
	// longer awaits a class.
	SetGameError(ctx context.Context, gameID int64, msg string) error
	// GamesAwaitingClass returns up to limit games, oldest first, that have
	// no class and no error, with their GDL text.
	GamesAwaitingClass(ctx context.Context, limit int) ([]Game, error)
	// CandidateClasses returns the classes that could hold a game with the
	// keys a.
	CandidateClasses(ctx context.Context, a Analysis) ([]Class, error)
	// NewClass creates a class whose representative and only member is the
	// game.
	NewClass(ctx context.Context, gameID int64) (*Class, error)
	// AssignClass places a game that has no class in a class.
	AssignClass(ctx context.Context, gameID, classID int64) error
	// MergeClasses moves every member of drop into keep and deletes drop.
	MergeClasses(ctx context.Context, keep, drop int64) (*Class, error)
	// GetClass returns one class with its members.
	GetClass(ctx context.Context, id int64) (*Class, error)
	// ListClasses returns classes with their members in ascending id order.
	ListClasses(ctx context.Context, p Page) (classes []Class, next int64, err error)
}

// Comparisons is the comparison queue and its results.
type Comparisons interface {
	// CreateComparison queues a comparison of games a and b under limits,
	// or returns the existing one with the same games and limits.
	CreateComparison(ctx context.Context, a, b int64, limits json.RawMessage) (c *Comparison, created bool, err error)
	// GetComparison returns one comparison with its result.
	GetComparison(ctx context.Context, id int64) (*Comparison, error)
	// ListComparisons returns comparisons newest first, without results.
	ListComparisons(ctx context.Context, f ComparisonFilter) (cs []Comparison, next int64, err error)
	// Claim gives the oldest claimable job to owner for lease.
	Claim(ctx context.Context, owner string, lease time.Duration) (*Comparison, error)
	// Heartbeat extends owner's lease and records progress; it reports
	// whether a cancel was requested.
	Heartbeat(ctx context.Context, id int64, owner string, lease time.Duration, p Progress) (cancelRequested bool, err error)
	// Finish writes the outcome of owner's running job, exactly once.
	Finish(ctx context.Context, id int64, owner string, o Outcome) error
	// Release gives owner's running job back to the queue unfinished.
	Release(ctx context.Context, id int64, owner string) error
	// Cancel cancels a queued job, or asks the worker of a running job to
	// stop; only its owner or an admin may (see NewContextWithUser).
	Cancel(ctx context.Context, id int64) (*Comparison, error)
	// QueueDepth counts the queued jobs.
	QueueDepth(ctx context.Context) (int64, error)
	// CountByStatus counts the comparisons of each status.
	CountByStatus(ctx context.Context) (map[Status]int64, error)
}

// Symmetries stores the symmetry result of each game.
type Symmetries interface {
	// GetSymmetries returns the stored symmetry result of a game.
	GetSymmetries(ctx context.Context, gameID int64) (*SymmetryResult, error)
	// PutSymmetries stores (or replaces) the symmetry result of a game.
	PutSymmetries(ctx context.Context, gameID int64, result json.RawMessage) (*SymmetryResult, error)
	// PutSymmetryFailure stores (or replaces) the failure of a game's
	// symmetry computation.
	PutSymmetryFailure(ctx context.Context, gameID int64, problem json.RawMessage) (*SymmetryResult, error)
}

// Game is a stored game description.
type Game struct {
	ID   int64
	Name string
	// SHA256 is the lower-case hex SHA-256 of GDL (ContentSHA256).
	SHA256 string
	// GDL is the text as submitted with its line endings made LF
	// (NormalizeLineEndings). Lists leave it nil.
	GDL []byte
	// Aliases are the other names the text was uploaded under, in the
	// order they were added; Name is the first.
	Aliases []string
	// Stats is the JSON document given to CreateGame (roles, propositions,
	// actions, functions, circuit nodes).
	Stats json.RawMessage
	// Analysis holds the class keys; nil until SetGameAnalysis.
	Analysis *Analysis
	// AnalyzedAt is when SetGameAnalysis ran; zero before.
	AnalyzedAt time.Time
	// ClassID is the game's equivalence class; 0 while it has none.
	ClassID int64
	// Error says why the game could not be analysed; empty if it could.
	Error string
	// Owner is the name of the user who stored the game (see
	// NewContextWithUser); empty if it was stored without one.
	Owner     string
	CreatedAt time.Time
}

// Analysis holds the keys that index a game in the class search.
type Analysis struct {
	// Certificate is a digest of the canonical certificate of the game's
	// ground graph, for example the hex of isomorph.Certificate.Sum(); empty
	// if it could not be computed. At most MaxKeyLen bytes. If it contains
	// a colon, the text up to the first colon is its scheme (such as the
	// version of the canonical form): certificates of another scheme, or of
	// none, count as unknown in CandidateClasses, so stored games keep their
	// classes when the canonical form changes.
	Certificate string
	// Invariants is a key of cheap invariants that equivalent games share
	// (for example counts of roles, propositions and actions); required. At
	// most MaxKeyLen bytes.
	Invariants string
}

// MaxKeyLen bounds Analysis.Certificate and Analysis.Invariants: both are
// indexed, and an index entry has a size limit (about 2.7 kB on PostgreSQL).
const MaxKeyLen = 512

// Class is an equivalence class of games.
type Class struct {
	ID int64
	// Representative is the game that new games are compared with.
	Representative int64
	// Members are the games of the class in ascending id order, the
	// representative among them.
	Members   []Member
	CreatedAt time.Time
}

// Member is a game of a class.
type Member struct {
	ID   int64
	Name string
}

// Status is the state of a comparison.
type Status string

// Statuses of a comparison. Done, Failed and Cancelled are final.
const (
	StatusQueued    Status = "queued"
	StatusRunning   Status = "running"
	StatusDone      Status = "done"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
)

// Final reports whether s is a final status.
func (s Status) Final() bool {
	return s == StatusDone || s == StatusFailed || s == StatusCancelled
}

// valid reports whether s is one of the statuses.
func (s Status) valid() bool {
	return s == StatusQueued || s == StatusRunning || s.Final()
}

// Comparison is a comparison of two games: a job of the queue and, once
// done, its result.
type Comparison struct {
	ID int64
	// GameA and GameB are the games compared; the result maps A to B.
	GameA, GameB int64
	// Limits is the canonical JSON of the limits (keys sorted, no spaces).
	Limits json.RawMessage
	// IdemKey is the hex SHA-256 of (GameA, GameB, Limits) that makes
	// submissions idempotent.
	IdemKey string
	Status  Status
	// Progress is the last progress document a Heartbeat wrote, or nil;
	// Phase and Candidates are copies of its main figures.
	Progress   json.RawMessage
	Phase      string
	Candidates int64
	// LeaseOwner and LeaseUntil name the worker of a running job and the
	// end of its lease; LeaseOwner stays set once the job has finished.
	LeaseOwner string
	LeaseUntil time.Time
	// Attempts counts the claims (a released job gives its claim back).
	Attempts int
	// CancelRequested is set when Cancel hit the running job.
	CancelRequested bool
	// Verdict, Result and Error are the outcome given to Finish. Lists leave
	// Result nil.
	Verdict string
	Result  json.RawMessage
	Error   string
	// Reason is the result's "reason" member (why the verdict), kept
	// beside it so that lists carry it; empty without a result.
	Reason string
	// NameA and NameB are the names of GameA and GameB.
	NameA, NameB string
	// Owner is the name of the user who submitted the comparison (see
	// NewContextWithUser); empty if it was submitted without one.
	Owner string
	// CreatedAt is the submission time, StartedAt the start of the last
	// claim, FinishedAt the time the job reached a final status; zero if
	// not yet.
	CreatedAt  time.Time
	StartedAt  time.Time
	FinishedAt time.Time
}

// ComparisonFilter selects comparisons for ListComparisons.
type ComparisonFilter struct {
	// Status, if not empty, keeps only comparisons in that status.
	Status Status
	// GameID, if not 0, keeps only comparisons with that game on either
	// side.
	GameID int64
	Page
}

// Page selects one page of a list in keyset order: pass the next cursor
// that a list call returned to get the following page.
type Page struct {
	// Limit is the page size: 0 means DefaultPageLimit, more than
	// MaxPageLimit means MaxPageLimit.
	Limit int
	// Cursor is 0 for the first page, or the next cursor of the previous
	// page.
	Cursor int64
}

// Page sizes.
const (
	DefaultPageLimit = 50
	MaxPageLimit     = 500
)

// Progress is what a worker reports while it runs a job.
type Progress struct {
	// Phase names the pipeline step (ground, graph, search, verify).
	Phase string
	// Candidates counts the candidate mappings examined so far.
	Candidates int64
	// JSON is the full progress document, stored as is; nil keeps the last
	// one.
	JSON json.RawMessage
}

// Outcome is the end of a job, given to Finish.
type Outcome struct {
	// Status is StatusDone, StatusFailed or StatusCancelled.
	Status Status
	// Verdict is the comparison's verdict (equivalent, not_equivalent,
	// unknown), empty if there is none.
	Verdict string
	// Result is the report as JSON, or nil.
	Result json.RawMessage
	// Error says why the job failed, empty if it did not.
	Error string
}

// SymmetryResult is the stored symmetry result of a game: its Result, or,
// when the computation failed on a limit, the Problem (a problem+json
// document) to serve in its place. Exactly one of the two is set.
type SymmetryResult struct {
	GameID    int64
	Result    json.RawMessage
	Problem   json.RawMessage
	CreatedAt time.Time
}
