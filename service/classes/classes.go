// Package classes keeps the equivalence classes of the stored games up to
// date in the background, with equiv.Placer: the algorithm of `gamequiv
// classify`, over classes kept in the store. Every new game is analysed
// once (its analysis is stored), compared with the representative of each
// candidate class (representatives keep their prepared form in memory),
// and placed in the first class it is proven equivalent to, or in a new
// class. Several workers place games at once. A placement runs first in a
// fast lane under a short budget; a game that needs more is handed to a
// slow lane, so that a long placement never holds up small games. When a
// comparison job proves two games equivalent, their classes merge at once
// (a game still being placed joins the other's class and its placement
// stops).
package classes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/service/internal/poll"
)

// Store is what the classifier needs; *store.DB implements it.
type Store interface {
	gamequiv.Classes
	gamequiv.Analyses
	GetGame(ctx context.Context, id int64) (*gamequiv.Game, error)
}

// Metrics counts what the classifier does; telemetry.Metrics implements
// it.
type Metrics interface {
	ObserveClassified(outcome string)
	ObservePanic(where string)
}

// noMetrics is the Metrics of a classifier without them.
type noMetrics struct{}

func (noMetrics) ObserveClassified(string) {}
func (noMetrics) ObservePanic(string)      {}

// Defaults of Classifier.
const (
	DefaultBatch           = 50
	DefaultPollMin         = 100 * time.Millisecond
	DefaultPollMax         = time.Second
	DefaultMaxAttempts     = 3
	DefaultQuickTimeout    = 10 * time.Second
	DefaultGameTimeout     = equiv.DefaultGameTimeout
	DefaultCompareTimeout  = equiv.DefaultCompareTimeout
	DefaultSlowWorkers     = 1
	DefaultRepresentatives = 64
	// slowQueue bounds the games waiting for the slow lane; past it a game
	// goes back to the store's backlog and is tried again later.
	slowQueue = 4096
)

// Classifier places games in classes. Set the fields, then call Run once;
// Merge may be called concurrently with Run.
type Classifier struct {
	Store Store
	// Log receives errors and placements; nil discards them.
	Log *slog.Logger
	// Metrics, if not nil, counts the games placed.
	Metrics Metrics
	// Limits bounds grounding, graphs, searches and SAT of every step; its
	// Timeout is ignored (see the budgets below).
	Limits equiv.Limits
	// QuickTimeout is the fast lane's budget for a whole placement
	// (analysis and comparisons); a game that needs more goes to the slow
	// lane. 0 means DefaultQuickTimeout.
	QuickTimeout time.Duration
	// GameTimeout is the slow lane's budget for one game's analysis
	// (grounding; graph and certificate), CompareTimeout for one
	// comparison with a representative; 0 means the defaults.
	GameTimeout, CompareTimeout time.Duration
	// Workers places games in the fast lane at once; 0 means the number of
	// CPUs. SlowWorkers serve the slow lane; 0 means DefaultSlowWorkers.
	Workers, SlowWorkers int
	// Representatives is the number of class representatives kept
	// prepared in memory; 0 means DefaultRepresentatives.
	Representatives int
	// Prepare defaults to equiv.Prepare (tests replace it).
	Prepare func(ctx context.Context, src equiv.Source, lim equiv.Limits, graph bool) (*equiv.Prepared, error)
	// Batch is the number of games fetched at a time; 0 means DefaultBatch.
	Batch int
	// PollMin and PollMax bound the idle back-off; 0 means the defaults.
	PollMin, PollMax time.Duration
	// MaxAttempts is how often a game whose placement fails (a store
	// error, a panic) is retried before it is marked with the error; 0
	// means DefaultMaxAttempts.
	MaxAttempts int
	// MaxHeap, when positive, bounds the process's heap in bytes on the
	// classifier's behalf (watchHeap): past it the garbage is collected,
	// the prepared representatives dropped, and then the placements in
	// progress stopped, each counting an attempt. HeapEvery is how often
	// the heap is read; 0 means DefaultHeapEvery.
	MaxHeap   int64
	HeapEvery time.Duration

	once     sync.Once
	fast     *equiv.Placer
	slow     *equiv.Placer
	reps     *repCache
	slowCh   chan task
	placed   atomic.Int64 // games placed (joined or opened)
	compares atomic.Int64 // comparisons with representatives

	mu       sync.Mutex
	busy     map[int64]context.CancelCauseFunc // games queued or being placed
	attempts map[int64]int
	suspects map[int64]bool // games stopped at the heap bound: placed alone next
	solo     sync.RWMutex   // placements hold it shared, a suspect alone
	pending  [][2]int64     // proven pairs of which neither game had a class
}

// task is a game for a lane; prep is its prepared form when the fast lane
// got that far.
type task struct {
	game gamequiv.Game
	prep *equiv.Prepared
}

func (c *Classifier) defaults() { c.once.Do(c.setDefaults) }

func (c *Classifier) setDefaults() {
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Metrics == nil {
		c.Metrics = noMetrics{}
	}
	if c.Prepare == nil {
		c.Prepare = equiv.Prepare
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
	if c.QuickTimeout <= 0 {
		c.QuickTimeout = DefaultQuickTimeout
	}
	if c.GameTimeout <= 0 {
		c.GameTimeout = DefaultGameTimeout
	}
	if c.CompareTimeout <= 0 {
		c.CompareTimeout = DefaultCompareTimeout
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.SlowWorkers <= 0 {
		c.SlowWorkers = DefaultSlowWorkers
	}
	if c.Representatives <= 0 {
		c.Representatives = DefaultRepresentatives
	}
	if c.HeapEvery <= 0 {
		c.HeapEvery = DefaultHeapEvery
	}
	c.busy = map[int64]context.CancelCauseFunc{}
	c.attempts = map[int64]int{}
	c.suspects = map[int64]bool{}
	c.slowCh = make(chan task, slowQueue)
	c.reps = &repCache{cap: c.Representatives, entries: map[int64]*repEntry{}, load: c.loadRepresentative}
	book := &storeBook{c: c}
	fastLim, slowLim := c.Limits, c.Limits
	fastLim.Timeout, slowLim.Timeout = c.QuickTimeout, c.CompareTimeout
	fastLim.Progress, slowLim.Progress = nil, nil
	c.fast = &equiv.Placer{Book: book, Representative: c.reps.get, Limits: fastLim, Analyzed: c.storeAnalysis,
		Defer: func(us []equiv.Unresolved) bool {
			for _, u := range us {
				if u.Limit == "Timeout" || u.Limit == "GameTimeout" {
					return true // the slow lane's budgets may decide it
				}
			}
			return false
		}}
	c.slow = &equiv.Placer{Book: book, Representative: c.reps.get, Limits: slowLim, Analyzed: c.storeAnalysis}
}

// Stats reports the games placed and the comparisons run since start.
func (c *Classifier) Stats() (placed, comparisons int64) {
	return c.placed.Load(), c.compares.Load()
}

// Run places the games awaiting a class until ctx is cancelled.
func (c *Classifier) Run(ctx context.Context) {
	c.defaults()
	fastCh := make(chan task)
	var wg sync.WaitGroup
	if c.MaxHeap > 0 {
		wg.Go(func() { c.watchHeap(ctx) })
	}
	for range c.Workers {
		wg.Go(func() {
			for t := range fastCh {
				c.run(ctx, t, false)
			}
		})
	}
	for range c.SlowWorkers {
		wg.Go(func() {
			for {
				select {
				case t := <-c.slowCh:
					c.run(ctx, t, true)
				case <-ctx.Done():
					return
				}
			}
		})
	}
	c.dispatch(ctx, fastCh)
	close(fastCh)
	wg.Wait()
}

// dispatch feeds the fast lane with the games awaiting a class, smallest
// descriptions first within a batch, skipping games already queued or
// being placed; when none waits it stores the analyses that games placed
// without one lack.
func (c *Classifier) dispatch(ctx context.Context, fastCh chan<- task) {
	idle := poll.Backoff{Min: c.PollMin, Max: c.PollMax}
	var cursor int64
	for ctx.Err() == nil {
		games, next, err := c.Store.AwaitingClass(ctx, gamequiv.Page{Cursor: cursor, Limit: c.Batch})
		if err != nil {
			if ctx.Err() == nil {
				c.Log.Warn("games awaiting class", slog.Any("err", err))
			}
			idle.Wait(ctx)
			continue
		}
		cursor = next
		slices.SortStableFunc(games, func(a, b gamequiv.Game) int { return len(a.GDL) - len(b.GDL) })
		sent := 0
		for _, g := range games {
			if !c.claim(g.ID) {
				continue
			}
			select {
			case fastCh <- task{game: g}:
				sent++
			case <-ctx.Done():
				c.release(g.ID)
				return
			}
		}
		if sent > 0 || cursor != 0 {
			idle.Reset()
			continue
		}
		if c.rekey(ctx) > 0 {
			continue
		}
		idle.Wait(ctx)
	}
}

// claim marks a game busy; false if it already is.
func (c *Classifier) claim(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.busy[id]; ok {
		return false
	}
	c.busy[id] = func(error) {}
	return true
}

func (c *Classifier) release(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.busy, id)
}

// run places one game in a lane, counting failures; after MaxAttempts
// the game is marked with the error so it no longer blocks the queue.
func (c *Classifier) run(ctx context.Context, t task, slow bool) {
	// The dispatcher's page may be stale: a game released a moment ago may
	// have been placed or marked since.
	if g, err := c.Store.GetGame(ctx, t.game.ID); err != nil || g.ClassID != 0 || g.Error != "" {
		c.release(t.game.ID)
		return
	}
	done, alone, base, err := c.admit(ctx, t.game.ID)
	if err != nil {
		c.release(t.game.ID)
		return
	}
	defer done()
	pctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c.mu.Lock()
	c.busy[t.game.ID] = cancel // Merge stops a placement it made moot, the heap bound any
	c.mu.Unlock()
	outcome, err := c.place(pctx, t, slow)
	if outcome == "slow" {
		return // still busy: the slow lane has it
	}
	defer c.release(t.game.ID)
	if err == nil {
		c.mu.Lock()
		delete(c.attempts, t.game.ID)
		delete(c.suspects, t.game.ID)
		c.mu.Unlock()
		c.count(outcome)
		if outcome == "assigned" || outcome == "new_class" {
			c.applyPending(ctx, t.game.ID)
		}
		return
	}
	heap := errors.Is(context.Cause(pctx), errHeapBound)
	if ctx.Err() != nil || pctx.Err() != nil && !heap {
		return // shutting down, or Merge placed the game
	}
	if heap {
		if g, err := c.Store.GetGame(ctx, t.game.ID); err == nil && g.ClassID != 0 {
			return // Merge placed it as the bound stopped it
		}
		if !alone || base > uint64(c.MaxHeap)/2 {
			// Not shown to be this game's: place it again, alone.
			c.mu.Lock()
			c.suspects[t.game.ID] = true
			c.mu.Unlock()
			c.Log.Info("classifier heap bound: the game is placed again alone", slog.Int64("game", t.game.ID),
				slog.Bool("was_alone", alone), slog.Uint64("heap_bytes_at_start", base))
			return
		}
		err = fmt.Errorf("stopped: the server's heap passed the classifier's bound of %d bytes while it was placed alone", c.MaxHeap)
	}
	c.mu.Lock()
	c.attempts[t.game.ID]++
	n := c.attempts[t.game.ID]
	if n >= c.MaxAttempts {
		delete(c.attempts, t.game.ID)
		delete(c.suspects, t.game.ID)
	}
	c.mu.Unlock()
	c.Log.Warn("classify game", slog.Int64("game", t.game.ID), slog.Int("attempt", n), slog.Any("err", err))
	if n >= c.MaxAttempts {
		if err := c.Store.SetGameError(ctx, t.game.ID, "classification failed: "+err.Error()); err != nil {
			c.Log.Warn("set game error", slog.Int64("game", t.game.ID), slog.Any("err", err))
		}
		c.count("error")
	}
}

func (c *Classifier) count(outcome string) {
	if outcome != "" {
		c.Metrics.ObserveClassified(outcome)
	}
}

// place analyses a game (unless the fast lane did) and places it. It
// returns the outcome for the metric: assigned, new_class, invalid (the
// game cannot be analysed within the limits; it is marked with the
// error), slow (handed to the slow lane) or "" (someone else placed it
// meanwhile).
func (c *Classifier) place(ctx context.Context, t task, slow bool) (outcome string, err error) {
	defer func() {
		if v := recover(); v != nil {
			c.Log.Error("panic in classifier", slog.Int64("game", t.game.ID),
				slog.String("panic", fmt.Sprint(v)), slog.String("stack", string(debug.Stack())))
			c.Metrics.ObservePanic("classifier")
			outcome, err = "", fmt.Errorf("panic: %v", v)
		}
	}()
	start := time.Now()
	lctx, cancel := ctx, context.CancelFunc(func() {})
	if !slow {
		lctx, cancel = context.WithTimeout(ctx, c.QuickTimeout)
	}
	defer cancel()
	toSlow := func(prep *equiv.Prepared) (string, error) {
		select {
		case c.slowCh <- task{game: t.game, prep: prep}:
			c.count("deferred")
			return "slow", nil
		default:
			return "", errors.New("slow lane full")
		}
	}
	g := t.game
	prep := t.prep
	if prep == nil {
		lim := c.Limits
		lim.Timeout = c.GameTimeout
		prep, err = c.Prepare(lctx, equiv.Source{Name: g.Name, GDL: g.GDL}, lim, false)
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			if !slow && lctx.Err() != nil {
				return toSlow(nil)
			}
			// Invalid, or over a limit or the slow lane's budget: say why, once.
			if err := c.Store.SetGameError(ctx, g.ID, err.Error()); err != nil {
				return "", err
			}
			c.Log.Info("game not classified", slog.Int64("game", g.ID), slog.String("limit", equiv.LimitName(ctx, err)), slog.Any("err", err))
			return "invalid", nil
		}
		if err := c.storeAnalysisErr(ctx, g.ID, prep.Analysis()); err != nil {
			return "", err
		}
	}
	pl := c.fast
	if slow {
		pl = c.slow
	}
	pm, err := pl.Place(lctx, g.ID, prep)
	if pm != nil {
		c.compares.Add(int64(pm.Comparisons))
	}
	switch {
	case errors.Is(err, equiv.ErrPlaced):
		return "", nil
	case err != nil && ctx.Err() == nil && !slow && lctx.Err() != nil:
		return toSlow(prep)
	case err != nil:
		return "", err
	case pm.Deferred:
		return toSlow(prep)
	}
	c.placed.Add(1)
	outcome = "assigned"
	if pm.Opened {
		outcome = "new_class"
		c.reps.put(g.ID, prep) // the new class's representative keeps its prepared form
	}
	attrs := []any{slog.Int64("game", g.ID), slog.Int64("class", pm.Class), slog.String("outcome", outcome),
		slog.Int("comparisons", pm.Comparisons), slog.Bool("slow_lane", slow), slog.Int64("duration_ms", time.Since(start).Milliseconds())}
	for _, u := range pm.Unresolved {
		attrs = append(attrs, slog.Group("unresolved", slog.Int64("class", u.Class), slog.String("limit", u.Limit), slog.String("reason", u.Reason)))
	}
	c.Log.Info("game placed", attrs...)
	return outcome, nil
}

// storeAnalysis is Placer.Analyzed: it stores the graph part of an
// analysis once computed.
func (c *Classifier) storeAnalysis(ctx context.Context, game int64, a equiv.Analysis) {
	if err := c.storeAnalysisErr(ctx, game, a); err != nil && ctx.Err() == nil {
		c.Log.Warn("store analysis", slog.Int64("game", game), slog.Any("err", err))
	}
}

func (c *Classifier) storeAnalysisErr(ctx context.Context, game int64, a equiv.Analysis) error {
	doc, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("analysis of game %d: %w", game, err)
	}
	keys := gamequiv.Analysis{Certificate: a.Certificate, Invariants: a.Invariants}
	return c.Store.PutGameAnalysis(ctx, game, keys, gamequiv.GameAnalysis{Doc: doc, HasGraph: a.Vertices > 0})
}

// rekey stores the analysis of games that got a class without one (a
// merge placed them, or they were classified before analyses were
// stored), so that later games find their classes. It returns how many it
// did.
func (c *Classifier) rekey(ctx context.Context) int {
	games, err := c.Store.ClassedWithoutAnalysis(ctx, c.Batch)
	if err != nil {
		if ctx.Err() == nil {
			c.Log.Warn("classed games without analysis", slog.Any("err", err))
		}
		return 0
	}
	n := 0
	for _, g := range games {
		// The fast lane's budget: the dispatcher waits for this. A game
		// its class finds through other members needs no keys of its own.
		lim := c.Limits
		lim.Timeout = c.QuickTimeout
		prep, err := c.Prepare(ctx, equiv.Source{Name: g.Name, GDL: g.GDL}, lim, false)
		if err != nil {
			if ctx.Err() != nil {
				return n
			}
			// Keep the class; a game that cannot be analysed again is
			// simply not a key for later games.
			doc, _ := json.Marshal(map[string]string{"error": err.Error()})
			err = c.Store.PutGameAnalysis(ctx, g.ID, gamequiv.Analysis{Invariants: "unanalysable"}, gamequiv.GameAnalysis{Doc: doc})
		} else {
			err = c.storeAnalysisErr(ctx, g.ID, prep.Analysis())
		}
		if err != nil {
			c.Log.Warn("store analysis", slog.Int64("game", g.ID), slog.Any("err", err))
			continue
		}
		n++
	}
	return n
}

// Merge records that games a and b were proven equivalent (a finished
// comparison with a verified mapping): if they are in different classes,
// the class with the larger id is merged into the other; if only one has
// a class, the other joins it at once and its placement stops; if neither
// has one, the first to be placed pulls the other in.
func (c *Classifier) Merge(ctx context.Context, a, b int64) {
	c.defaults()
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
	switch {
	case ca != 0 && cb != 0 && ca != cb:
		keep, drop := min(ca, cb), max(ca, cb)
		if _, err := c.Store.MergeClasses(ctx, keep, drop); err != nil {
			c.Log.Warn("merge classes", slog.Int64("keep", keep), slog.Int64("drop", drop), slog.Any("err", err))
			return
		}
		c.Log.Info("merged classes", slog.Int64("keep", keep), slog.Int64("drop", drop), slog.Int64("game_a", a), slog.Int64("game_b", b))
		c.count("merged")
	case ca != 0 && cb == 0:
		c.join(ctx, b, ca, a)
	case cb != 0 && ca == 0:
		c.join(ctx, a, cb, b)
	case ca == 0 && cb == 0:
		c.mu.Lock()
		c.pending = append(c.pending, [2]int64{a, b})
		c.mu.Unlock()
	}
}

// join puts game into class (proven equivalent to its member via) and
// stops the game's placement if one runs.
func (c *Classifier) join(ctx context.Context, game, class, via int64) {
	if err := c.Store.AssignClass(ctx, game, class); err != nil {
		if errors.Is(err, gamequiv.ErrConflict) {
			// Placed meanwhile: merge the two classes instead.
			c.Merge(ctx, game, via)
			return
		}
		c.Log.Warn("join class", slog.Int64("game", game), slog.Int64("class", class), slog.Any("err", err))
		return
	}
	c.mu.Lock()
	if stop := c.busy[game]; stop != nil {
		stop(nil)
	}
	c.mu.Unlock()
	c.Log.Info("game placed", slog.Int64("game", game), slog.Int64("class", class), slog.String("outcome", "merged"), slog.Int64("proven_equivalent_to", via))
	c.count("merged")
	c.applyPending(ctx, game)
}

// applyPending applies the proven pairs that involve a game just placed.
func (c *Classifier) applyPending(ctx context.Context, game int64) {
	c.mu.Lock()
	var todo [][2]int64
	keep := c.pending[:0]
	for _, p := range c.pending {
		if p[0] == game || p[1] == game {
			todo = append(todo, p)
		} else {
			keep = append(keep, p)
		}
	}
	c.pending = keep
	c.mu.Unlock()
	for _, p := range todo {
		c.Merge(ctx, p[0], p[1])
	}
}

// loadRepresentative prepares a representative from its stored text.
func (c *Classifier) loadRepresentative(ctx context.Context, id int64) (*equiv.Prepared, error) {
	g, err := c.Store.GetGame(ctx, id)
	if err != nil {
		return nil, err
	}
	lim := c.Limits
	lim.Timeout = c.GameTimeout
	return c.Prepare(ctx, equiv.Source{Name: g.Name, GDL: g.GDL}, lim, false)
}

// storeBook is the equiv.ClassBook of the store.
type storeBook struct{ c *Classifier }

func (b *storeBook) Candidates(ctx context.Context, a *equiv.Analysis) ([]equiv.ClassRef, error) {
	cls, err := b.c.Store.CandidateClasses(ctx, gamequiv.Analysis{Certificate: a.Certificate, Invariants: a.Invariants})
	if err != nil {
		return nil, err
	}
	out := make([]equiv.ClassRef, len(cls))
	for i, cl := range cls {
		out[i] = equiv.ClassRef{ID: cl.ID, Representative: cl.Representative}
	}
	return out, nil
}

func (b *storeBook) Join(ctx context.Context, game, class int64) error {
	err := b.c.Store.AssignClass(ctx, game, class)
	if errors.Is(err, gamequiv.ErrConflict) {
		return fmt.Errorf("%w: %w", equiv.ErrPlaced, err)
	}
	return err
}

func (b *storeBook) Open(ctx context.Context, game int64) (int64, error) {
	cl, err := b.c.Store.NewClass(ctx, game)
	if errors.Is(err, gamequiv.ErrConflict) {
		return 0, fmt.Errorf("%w: %w", equiv.ErrPlaced, err)
	}
	if err != nil {
		return 0, err
	}
	return cl.ID, nil
}
