// Package classes keeps the equivalence classes of the stored games up to
// date in the background: every new game is analysed (certificate and
// invariants), compared with the representative of each candidate class,
// and placed in the first class it is equivalent to, or in a new class.
// When a comparison job proves two games of different classes equivalent,
// the classes are merged.
package classes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/gamequiv/gamequiv/api"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/store"
)

// Store is what the classifier needs; *store.DB implements it.
type Store interface {
	store.Classes
	GetGame(ctx context.Context, id int64) (*store.Game, error)
}

// Defaults of Classifier.
const (
	DefaultBatch       = 10
	DefaultPollMin     = 100 * time.Millisecond
	DefaultPollMax     = time.Second
	DefaultMaxAttempts = 3
)

// Classifier places games in classes. Set the fields, then call Run once;
// Merge may be called concurrently with Run.
type Classifier struct {
	Store Store
	// Log receives errors; nil discards them.
	Log *slog.Logger
	// Metrics, if not nil, counts the games placed.
	Metrics *api.Metrics
	// Limits bounds each analysis and each comparison with a
	// representative.
	Limits equiv.Limits
	// Analyze and Compare default to equiv.Analyze and equiv.Compare.
	Analyze func(ctx context.Context, src equiv.Source, lim equiv.Limits) (*equiv.Analysis, error)
	Compare func(ctx context.Context, a, b equiv.Source, lim equiv.Limits) (*equiv.Report, error)
	// Batch is the number of games fetched at a time; 0 means DefaultBatch.
	Batch int
	// PollMin and PollMax bound the idle back-off; 0 means the defaults.
	PollMin, PollMax time.Duration
	// MaxAttempts is how often a game whose placement fails (a store
	// error, a panic) is retried before it is marked with the error; 0
	// means DefaultMaxAttempts.
	MaxAttempts int

	// mu serializes the changes of classes (placing a game, merging).
	mu       sync.Mutex
	once     sync.Once
	attempts map[int64]int // of Run's goroutine only
}

func (c *Classifier) defaults() { c.once.Do(c.setDefaults) }

func (c *Classifier) setDefaults() {
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Analyze == nil {
		c.Analyze = equiv.Analyze
	}
	if c.Compare == nil {
		c.Compare = equiv.Compare
	}
	if c.Batch <= 0 {
		c.Batch = DefaultBatch
	}
	if c.PollMin <= 0 {
		c.PollMin = DefaultPollMin
	}
	if c.PollMax < c.PollMin {
		c.PollMax = max(DefaultPollMax, c.PollMin)
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	c.attempts = map[int64]int{}
}

// Run places the games awaiting a class until ctx is cancelled.
func (c *Classifier) Run(ctx context.Context) {
	c.defaults()
	delay := c.PollMin
	for ctx.Err() == nil {
		games, err := c.Store.GamesAwaitingClass(ctx, c.Batch)
		if err != nil && ctx.Err() == nil {
			c.Log.Warn("games awaiting class", slog.Any("err", err))
		}
		if len(games) == 0 {
			sleep(ctx, delay)
			delay = min(delay*2, c.PollMax)
			continue
		}
		delay = c.PollMin
		for i := range games {
			if ctx.Err() != nil {
				return
			}
			c.place(ctx, &games[i])
		}
	}
}

// place classifies one game, counting failures; after MaxAttempts the
// game is marked with the error so it no longer blocks the queue.
func (c *Classifier) place(ctx context.Context, g *store.Game) {
	outcome, err := c.classify(ctx, g)
	if err == nil {
		delete(c.attempts, g.ID)
		c.count(outcome)
		return
	}
	if ctx.Err() != nil {
		return // shutting down: the game is placed on the next start
	}
	c.attempts[g.ID]++
	c.Log.Warn("classify game", slog.Int64("game", g.ID), slog.Int("attempt", c.attempts[g.ID]), slog.Any("err", err))
	if c.attempts[g.ID] >= c.MaxAttempts {
		delete(c.attempts, g.ID)
		if err := c.Store.SetGameError(ctx, g.ID, "classification failed: "+err.Error()); err != nil {
			c.Log.Warn("set game error", slog.Int64("game", g.ID), slog.Any("err", err))
		}
		c.count("error")
	}
}

func (c *Classifier) count(outcome string) {
	if c.Metrics != nil && outcome != "" {
		c.Metrics.Classified.WithLabelValues(outcome).Inc()
	}
}

// classify analyses a game and places it. It returns the outcome for the
// metric: assigned, new_class, invalid (the game cannot be analysed; it is
// marked with the error) or "" (someone else placed it meanwhile).
func (c *Classifier) classify(ctx context.Context, g *store.Game) (outcome string, err error) {
	defer func() {
		if v := recover(); v != nil {
			c.Log.Error("panic in classifier", slog.Int64("game", g.ID),
				slog.String("panic", fmt.Sprint(v)), slog.String("stack", string(debug.Stack())))
			if c.Metrics != nil {
				c.Metrics.Panics.WithLabelValues("classifier").Inc()
			}
			outcome, err = "", fmt.Errorf("panic: %v", v)
		}
	}()
	src := equiv.Source{Name: g.Name, GDL: g.GDL}
	an, err := c.Analyze(ctx, src, c.Limits)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		// Invalid under the current limits, or too large: say why, once.
		if err := c.Store.SetGameError(ctx, g.ID, err.Error()); err != nil {
			return "", err
		}
		return "invalid", nil
	}
	keys := store.Analysis{Certificate: an.Certificate, Invariants: an.Invariants}
	if err := c.Store.SetGameAnalysis(ctx, g.ID, keys); err != nil {
		return "", err
	}
	cands, err := c.Store.CandidateClasses(ctx, keys)
	if err != nil {
		return "", err
	}
	for _, cl := range cands {
		if cl.Representative == g.ID {
			continue
		}
		rep, err := c.Store.GetGame(ctx, cl.Representative)
		if err != nil {
			return "", err
		}
		r, err := c.Compare(ctx, src, equiv.Source{Name: rep.Name, GDL: rep.GDL}, c.Limits)
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			c.Log.Warn("compare with representative", slog.Int64("game", g.ID), slog.Int64("representative", rep.ID), slog.Any("err", err))
			continue
		}
		if r.Verdict != equiv.Equivalent {
			continue
		}
		c.mu.Lock()
		err = c.Store.AssignClass(ctx, g.ID, cl.ID)
		c.mu.Unlock()
		if errors.Is(err, store.ErrConflict) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		return "assigned", nil
	}
	c.mu.Lock()
	_, err = c.Store.NewClass(ctx, g.ID)
	c.mu.Unlock()
	if errors.Is(err, store.ErrConflict) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return "new_class", nil
}

// Merge records that games a and b were proven equivalent: if they are in
// different classes, the class with the larger id is merged into the
// other. Games without a class are left to Run.
func (c *Classifier) Merge(ctx context.Context, a, b int64) {
	c.defaults()
	c.mu.Lock()
	defer c.mu.Unlock()
	ga, err := c.Store.GetGame(ctx, a)
	if err != nil {
		c.Log.Warn("merge classes", slog.Int64("game", a), slog.Any("err", err))
		return
	}
	gb, err := c.Store.GetGame(ctx, b)
	if err != nil {
		c.Log.Warn("merge classes", slog.Int64("game", b), slog.Any("err", err))
		return
	}
	ca, cb := ga.ClassID, gb.ClassID
	if ca == 0 || cb == 0 || ca == cb {
		return
	}
	keep, drop := min(ca, cb), max(ca, cb)
	if _, err := c.Store.MergeClasses(ctx, keep, drop); err != nil {
		c.Log.Warn("merge classes", slog.Int64("keep", keep), slog.Int64("drop", drop), slog.Any("err", err))
		return
	}
	c.Log.Info("merged classes", slog.Int64("keep", keep), slog.Int64("drop", drop), slog.Int64("game_a", a), slog.Int64("game_b", b))
	c.count("merged")
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
