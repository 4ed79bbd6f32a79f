package gamequiv

import (
	"context"
	"encoding/json"
	"time"
)

// The interfaces below are what a storage of the domain offers; package
// store implements every one over SQLite or PostgreSQL. Adapters read
// through them, and the service layer (package service) changes data
// through them.

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

// Search finds games and classes by name, for the pickers and lists of
// the web pages.
type Search interface {
	// GameNames returns the names of the games with the given ids.
	GameNames(ctx context.Context, ids []int64) (map[int64]string, error)
	// SearchGames returns games whose name contains q, ascending id.
	SearchGames(ctx context.Context, q string, p Page) (games []Game, next int64, err error)
	// SearchClasses returns classes with a member whose name contains q.
	SearchClasses(ctx context.Context, q string, p Page) (classes []Class, next int64, err error)
}

// Tokens stores the API tokens of access control.
type Tokens interface {
	// CreateToken makes a new token for the user name and returns it with
	// its secret, which is not stored and cannot be shown again.
	CreateToken(ctx context.Context, name string, admin bool) (t *Token, secret string, err error)
	// ListTokens returns every token, revoked ones too, in id order.
	ListTokens(ctx context.Context) ([]Token, error)
	// RevokeToken revokes one token.
	RevokeToken(ctx context.Context, id int64) (*Token, error)
	// RevokeUserTokens revokes every token of a user and returns how many
	// it revoked.
	RevokeUserTokens(ctx context.Context, name string) (int64, error)
	// Authenticate returns the user of a valid (known, not revoked) token
	// secret.
	Authenticate(ctx context.Context, secret string) (*User, error)
}

// Analyses keeps the classifier's analysis of each game: computed once,
// stored, read back instead of computed again.
type Analyses interface {
	// PutGameAnalysis stores the analysis document of a game and its class
	// keys at once.
	PutGameAnalysis(ctx context.Context, gameID int64, keys Analysis, doc GameAnalysis) error
	// GetGameAnalysis returns the stored analysis document of a game.
	GetGameAnalysis(ctx context.Context, gameID int64) (*GameAnalysis, error)
	// AwaitingClass returns one page of the games awaiting a class.
	AwaitingClass(ctx context.Context, p Page) (games []Game, next int64, err error)
	// ClassedWithoutAnalysis returns up to limit games that have a class
	// but no stored analysis, with their GDL text.
	ClassedWithoutAnalysis(ctx context.Context, limit int) ([]Game, error)
}

// GameAnalysis is a stored analysis of a game.
type GameAnalysis struct {
	// Doc is the analysis as a JSON document (equiv.Analysis).
	Doc json.RawMessage
	// HasGraph says that Doc holds the graph part (graph invariants and
	// canonical certificate), not only the ground sizes.
	HasGraph  bool
	UpdatedAt time.Time
}
