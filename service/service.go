// Package service is the service layer of gamequiv: it implements the
// operations of the domain (gamequiv.GameService, gamequiv.ComparisonService)
// over a storage (gamequiv.Games, Comparisons, Symmetries; package store
// implements them) and the algorithms (grounding, equiv). Adapters call
// it: the JSON API and the pages (package api) for uploads, submissions,
// symmetries, renames, deletions and cancels; the command line for the
// statistics of a game (StatsOf). The long-running loops of the layer
// are its subpackages: service/worker runs queued comparisons and
// service/classes keeps the classes of the stored games; cmd/server only
// starts them.
//
// The business rules live here: what a valid upload is, that a text is
// stored once and later names become aliases, that heavy work (grounding
// an upload, computing symmetries) runs under a bounded number of slots
// (in this process, or in the memory-bounded child processes a server
// gives as Config.Compute) and past it fails at once with EBUSY, that a
// computation stopped by a limit (its process's memory bound included)
// is an ELIMIT, that symmetries are computed once
// and their limit failures stored, and that a full queue refuses new
// comparisons. Errors meant for the user are *gamequiv.Error values with
// a code, and an error about one side of a comparison is a
// *gamequiv.SideError; the adapters translate them, never their text.
//
// The package imports no adapter (no HTTP, no SQL, no metrics library):
// deps_test.go at the module root enforces it.
package service

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
)

// Store is the storage the service works on; *store.DB implements it.
type Store interface {
	gamequiv.Games
	gamequiv.Comparisons
	gamequiv.Symmetries
}

// Defaults of Limits.
const (
	DefaultMaxGDL          = 1 << 20
	DefaultComputeTimeout  = 60 * time.Second
	DefaultQueueRetryAfter = 10 * time.Second
	DefaultBusyRetryAfter  = 2 * time.Second
)

// Limits bounds the work the service accepts. The zero value of each field
// is its documented default.
type Limits struct {
	// MaxGDL caps the text of one game description in bytes; 0 means
	// DefaultMaxGDL. A longer text gets ETOOLARGE.
	MaxGDL int64
	// MaxQueue is the number of queued comparisons at which submissions get
	// EQUEUEFULL; 0 means no limit. QueueRetryAfter is the retry delay of
	// that error; 0 means DefaultQueueRetryAfter.
	MaxQueue        int64
	QueueRetryAfter time.Duration
	// Game bounds the grounding of uploaded games (which validates them)
	// and the symmetry computations. Its Timeout is unused: see
	// ComputeTimeout.
	Game equiv.Limits
	// ComputeTimeout bounds one heavy computation (grounding an upload,
	// computing symmetries); 0 means DefaultComputeTimeout.
	ComputeTimeout time.Duration
	// MaxHeavy bounds the heavy computations at the same time (and so
	// their memory); 0 means GOMAXPROCS. A call past it does not wait: it
	// gets EBUSY with RetryAfter BusyRetryAfter (0 means
	// DefaultBusyRetryAfter).
	MaxHeavy       int
	BusyRetryAfter time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.MaxGDL <= 0 {
		l.MaxGDL = DefaultMaxGDL
	}
	if l.QueueRetryAfter <= 0 {
		l.QueueRetryAfter = DefaultQueueRetryAfter
	}
	if l.ComputeTimeout <= 0 {
		l.ComputeTimeout = DefaultComputeTimeout
	}
	if l.MaxHeavy <= 0 {
		l.MaxHeavy = runtime.GOMAXPROCS(0)
	}
	if l.BusyRetryAfter <= 0 {
		l.BusyRetryAfter = DefaultBusyRetryAfter
	}
	return l
}

// Service implements gamequiv.GameService and gamequiv.ComparisonService.
// Its methods are safe for concurrent use.
type Service struct {
	store  Store
	limits Limits
	log    *slog.Logger
	// onSymmetries counts symmetry requests by source (stored, computed).
	onSymmetries func(source string)
	// onCancelRequested is Config.OnCancelRequested, never nil.
	onCancelRequested func(id int64)
	// heavy holds one token per heavy computation running.
	heavy chan struct{}
	// compute runs the heavy computations (Config.Compute).
	compute Compute
	// symFlight holds the symmetry computations running, by game: a
	// second request for the same game waits for the first's answer.
	symFlight flight
}

var (
	_ gamequiv.GameService       = (*Service)(nil)
	_ gamequiv.ComparisonService = (*Service)(nil)
)

// Config are the dependencies of a Service.
type Config struct {
	Store  Store
	Limits Limits
	// Log receives the lifecycle of games and comparisons (renamed,
	// deleted, cancelled); nil discards it.
	Log *slog.Logger
	// OnSymmetries, if not nil, is called for every symmetry request with
	// its source: "stored" or "computed" (a metric).
	OnSymmetries func(source string)
	// OnCancelRequested, if not nil, is called after the cancel of a
	// running comparison is stored, so that a worker of this process stops
	// it at once instead of at its next heartbeat (worker.Pool.Cancel).
	OnCancelRequested func(id int64)
	// Compute runs the heavy computations; nil runs them in this process.
	// A server gives child processes (worker.Procs), whose memory it
	// bounds and which it kills when the caller leaves.
	Compute Compute
}

// Compute runs the heavy computations of the service: a game's symmetries
// (as equiv.Symmetries) and the grounding of an upload (as GroundStats).
// *worker.Procs implements it.
type Compute interface {
	Symmetries(ctx context.Context, src equiv.Source, lim equiv.Limits) (*equiv.SymmetryReport, error)
	Ground(ctx context.Context, name string, gdl []byte, lim grounding.Limits) (gamequiv.GameStats, error)
}

// inProcess is the Compute of a service without one: this process.
type inProcess struct{}

func (inProcess) Symmetries(ctx context.Context, src equiv.Source, lim equiv.Limits) (*equiv.SymmetryReport, error) {
	return equiv.Symmetries(ctx, src, lim)
}

func (inProcess) Ground(ctx context.Context, name string, gdl []byte, lim grounding.Limits) (gamequiv.GameStats, error) {
	return GroundStats(ctx, name, gdl, lim)
}

// New returns the service over cfg.Store.
func New(cfg Config) *Service {
	s := &Service{
		store:             cfg.Store,
		limits:            cfg.Limits.withDefaults(),
		log:               cfg.Log,
		onSymmetries:      cfg.OnSymmetries,
		onCancelRequested: cfg.OnCancelRequested,
		compute:           cfg.Compute,
	}
	if s.compute == nil {
		s.compute = inProcess{}
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.onSymmetries == nil {
		s.onSymmetries = func(string) {}
	}
	if s.onCancelRequested == nil {
		s.onCancelRequested = func(int64) {}
	}
	s.heavy = make(chan struct{}, s.limits.MaxHeavy)
	return s
}

// Limits returns the limits in force, defaults filled in.
func (s *Service) Limits() Limits { return s.limits }

// isNotFound reports whether err is the storage's ErrNotFound.
func isNotFound(err error) bool {
	return errors.Is(err, gamequiv.ErrNotFound)
}

// RenameGame gives a game another name; with access control only its
// owner or an admin may (the storage checks the user of ctx).
func (s *Service) RenameGame(ctx context.Context, id int64, name string) (*gamequiv.Game, error) {
	if err := checkRename(name); err != nil {
		return nil, err
	}
	g, err := s.store.RenameGame(ctx, id, name)
	if err != nil {
		return nil, err
	}
	s.log.InfoContext(ctx, "game renamed", slog.Int64("game", id), slog.String("name", g.Name))
	return g, nil
}

// DeleteGame deletes a game with its comparisons, symmetries and aliases;
// its class keeps the other members. With access control only its owner
// or an admin may.
func (s *Service) DeleteGame(ctx context.Context, id int64) error {
	if err := s.store.DeleteGame(ctx, id); err != nil {
		return err
	}
	s.log.InfoContext(ctx, "game deleted", slog.Int64("game", id))
	return nil
}
