package gamequiv

import (
	"context"
	"encoding/json"
)

// DefaultGameName names games uploaded without a name.
const DefaultGameName = "untitled"

// MaxGameNameLen bounds the name of a game, in characters.
const MaxGameNameLen = 200

// GameUpload is a game description to store under a name.
type GameUpload struct {
	// Name names the game; blank means DefaultGameName (and then an upload
	// of a text stored before adds no alias).
	Name string
	GDL  []byte
}

// AddedGame is the outcome of storing an upload.
type AddedGame struct {
	Game *Game
	// Created says that the text is new; AliasAdded that it was stored
	// before and the upload's name became one of its aliases.
	Created, AliasAdded bool
}

// AddResult is the outcome of one game of a batch: the game, or the error
// that kept it out.
type AddResult struct {
	Added *AddedGame
	Err   error
}

// GameService is what the service layer does with games beyond reading
// them (Games): validate and store uploads, compute symmetries once and
// keep them, rename and delete under the rules of ownership.
type GameService interface {
	// AddGame validates an upload and stores it, or finds the game stored
	// with the same text (and adds the upload's name to its aliases). A
	// new text is grounded first, under a bounded number of heavy slots:
	// past the bound the error has code EBUSY.
	AddGame(ctx context.Context, u GameUpload) (*AddedGame, error)
	// AddGames adds a batch of uploads, several at once, and answers each
	// on its own, in order. Only a batch that gets no heavy slot at all
	// fails as a whole (EBUSY).
	AddGames(ctx context.Context, us []GameUpload) ([]AddResult, error)
	// RenameGame gives a game another name (its aliases stay).
	RenameGame(ctx context.Context, id int64, name string) (*Game, error)
	// DeleteGame deletes a game with its comparisons and symmetries.
	DeleteGame(ctx context.Context, id int64) error
	// Symmetries returns a game's symmetry report as JSON, computed once
	// and then stored; a computation stopped by a limit is stored too, and
	// its *Error (ELIMIT) is returned again instead of computing again.
	Symmetries(ctx context.Context, id int64) (json.RawMessage, error)
}

// GameRef is one side of a comparison request: a stored game's ID, or an
// inline game to store first.
type GameRef struct {
	ID     int64
	Inline *GameUpload
}

// ComparisonRequest asks for a comparison of games A and B.
type ComparisonRequest struct {
	A, B GameRef
	// Limits, if not nil, are the client's own limits of the comparison.
	Limits *JobLimits
}

// ComparisonService queues comparisons and cancels them.
type ComparisonService interface {
	// Submit validates a request, stores its inline games, and queues the
	// comparison, or returns the one submitted before with the same games
	// and limits (created false). An error about one side is a
	// *SideError; a full queue is an *Error with code EQUEUEFULL.
	Submit(ctx context.Context, req ComparisonRequest) (c *Comparison, created bool, err error)
	// Cancel cancels a queued comparison, or asks the worker of a running
	// one to stop.
	Cancel(ctx context.Context, id int64) (*Comparison, error)
}
