package store

import "github.com/gamequiv/gamequiv"

// The domain types, interfaces and errors live in the root package
// gamequiv; the names below are aliases, so that callers of the store can
// keep writing store.Game or store.ErrNotFound.

// Domain types the store reads and writes.
type (
	Game             = gamequiv.Game
	GameFilter       = gamequiv.GameFilter
	Analysis         = gamequiv.Analysis
	Class            = gamequiv.Class
	Member           = gamequiv.Member
	Status           = gamequiv.Status
	Comparison       = gamequiv.Comparison
	ComparisonFilter = gamequiv.ComparisonFilter
	Page             = gamequiv.Page
	Progress         = gamequiv.Progress
	Outcome          = gamequiv.Outcome
	SymmetryResult   = gamequiv.SymmetryResult
	User             = gamequiv.User
	Token            = gamequiv.Token
	GameAnalysis     = gamequiv.GameAnalysis
)

// Storage interfaces that *DB implements.
type (
	Games       = gamequiv.Games
	Classes     = gamequiv.Classes
	Comparisons = gamequiv.Comparisons
	Symmetries  = gamequiv.Symmetries
	Search      = gamequiv.Search
	Tokens      = gamequiv.Tokens
	Analyses    = gamequiv.Analyses
)

var (
	_ Games       = (*DB)(nil)
	_ Classes     = (*DB)(nil)
	_ Comparisons = (*DB)(nil)
	_ Symmetries  = (*DB)(nil)
	_ Search      = (*DB)(nil)
	_ Tokens      = (*DB)(nil)
	_ Analyses    = (*DB)(nil)
)

// Statuses of a comparison (gamequiv.Status).
const (
	StatusQueued    = gamequiv.StatusQueued
	StatusRunning   = gamequiv.StatusRunning
	StatusDone      = gamequiv.StatusDone
	StatusFailed    = gamequiv.StatusFailed
	StatusCancelled = gamequiv.StatusCancelled
)

// Bounds of the domain types.
const (
	MaxKeyLen        = gamequiv.MaxKeyLen
	DefaultPageLimit = gamequiv.DefaultPageLimit
	MaxPageLimit     = gamequiv.MaxPageLimit
)

// Errors of the store (see gamequiv.ErrNotFound and the others).
var (
	ErrNotFound  = gamequiv.ErrNotFound
	ErrConflict  = gamequiv.ErrConflict
	ErrLeaseLost = gamequiv.ErrLeaseLost
	ErrForbidden = gamequiv.ErrForbidden
	ErrInvalid   = gamequiv.ErrInvalid
)

// NewContextWithUser, UserFromContext and MayChange are those of package
// gamequiv: the store records the user of a context as the owner of what
// it creates, and checks it before a change.
var (
	NewContextWithUser = gamequiv.NewContextWithUser
	UserFromContext    = gamequiv.UserFromContext
	MayChange          = gamequiv.MayChange
)

// NormalizeLineEndings and ContentSHA256 are those of package gamequiv.
var (
	NormalizeLineEndings = gamequiv.NormalizeLineEndings
	ContentSHA256        = gamequiv.ContentSHA256
)
