package equiv

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// ClassBook keeps equivalence classes of games named by int64 ids. Placer
// changes it only through these methods: Classify keeps it in memory, the
// server in its store.
type ClassBook interface {
	// Candidates returns the classes that could hold a game with analysis
	// a: those with a member whose analysis MayEqual a, in ascending id
	// order.
	Candidates(ctx context.Context, a *Analysis) ([]ClassRef, error)
	// Join puts a game without a class into a class. It returns an error
	// wrapping ErrPlaced if the game has a class already.
	Join(ctx context.Context, game, class int64) error
	// Open creates a class whose representative and only member is the
	// game and returns its id, or an error wrapping ErrPlaced.
	Open(ctx context.Context, game int64) (int64, error)
}

// ClassRef names a class and the game that new games are compared with.
type ClassRef struct {
	ID             int64
	Representative int64
}

// ErrPlaced says that a game was placed in a class by someone else
// meanwhile (a merge after a finished comparison, another replica).
var ErrPlaced = errors.New("game already has a class")

// Placer places prepared games in the classes of a ClassBook: a game is
// compared with the representative of every candidate class (MayEqual
// keys) and joins the first class whose representative it is proven
// equivalent to (an Equivalent report, which always carries a mapping that
// SAT verification proved); otherwise it opens a class of its own. A game
// never joins a class on anything less than a verified equivalence.
//
// Place may be called from several goroutines at once: games with equal
// Invariants (the only ones that can be equivalent) are placed one at a
// time, so that two equivalent games placed together cannot open two
// classes; games with other invariants never wait for each other.
type Placer struct {
	Book ClassBook
	// Representative returns the prepared form of a class representative.
	// It should keep it (or rebuild it once), not prepare it per call.
	Representative func(ctx context.Context, game int64) (*Prepared, error)
	// Limits bounds each comparison with a representative; Limits.Timeout
	// is the budget of one comparison.
	Limits Limits
	// Analyzed, if set, receives a game's analysis when Place computed its
	// graph part (the server stores it).
	Analyzed func(ctx context.Context, game int64, a Analysis)
	// Defer, if set, is asked before a game whose comparisons left
	// candidate classes unresolved opens a class of its own: when it
	// returns true, Place leaves the game without a class and returns a
	// Placement with Deferred set (the server's fast lane hands such games
	// to its slow lane, with larger budgets).
	Defer func(unresolved []Unresolved) bool

	locks keyLocks
}

// Placement is where Place put a game.
type Placement struct {
	Class  int64
	Opened bool // a new class, of which the game is the representative
	// Comparisons counts the comparisons run with representatives.
	Comparisons int
	// Unresolved lists the candidate classes whose comparison ended
	// without a verdict: the game may belong to one of them.
	Unresolved []Unresolved
	// Deferred: Placer.Defer kept the game out of any class.
	Deferred bool
}

// Unresolved is a candidate class that a comparison could not decide.
type Unresolved struct {
	Class, Representative int64
	// Limit names the limit that stopped the comparison (Timeout,
	// MaxCandidates, SAT.MaxClauses, ...) or is "error".
	Limit  string
	Reason string
}

// Place puts game id, prepared as g, in a class. It returns ctx's error if
// ctx ends first (the game is then left without a class), and an error
// wrapping ErrPlaced if someone else placed the game meanwhile. The graph
// part of g's analysis is computed only when a candidate class exists.
func (pl *Placer) Place(ctx context.Context, id int64, g *Prepared) (*Placement, error) {
	a := g.Analysis()
	unlock, err := pl.locks.lock(ctx, a.Invariants)
	if err != nil {
		return nil, err
	}
	defer unlock()
	all, err := pl.Book.Candidates(ctx, &a)
	if err != nil {
		return nil, fmt.Errorf("candidate classes: %w", err)
	}
	var cands []ClassRef
	for _, c := range all {
		if c.Representative != id {
			cands = append(cands, c)
		}
	}
	out := &Placement{}
	unresolved := func(c ClassRef, limit, reason string) {
		out.Unresolved = append(out.Unresolved, Unresolved{Class: c.ID, Representative: c.Representative, Limit: limit, Reason: reason})
	}
	if len(cands) > 0 {
		if err := pl.graph(ctx, id, g); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			for _, c := range cands {
				unresolved(c, LimitName(ctx, err), "analysis of this game: "+err.Error())
			}
			cands = nil
		}
	}
	for _, c := range cands {
		r, err := pl.Representative(ctx, c.Representative)
		if err == nil {
			err = pl.graph(ctx, c.Representative, r)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			unresolved(c, LimitName(ctx, err), "representative: "+err.Error())
			continue
		}
		ga, ra := g.Analysis(), r.Analysis()
		if !ga.MayEqual(&ra) {
			continue // different certificates: the graphs are not isomorphic
		}
		out.Comparisons++
		rp, err := ComparePrepared(ctx, g, r, pl.Limits)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			unresolved(c, "error", fmt.Sprintf("compare with %s: %v", r.Name, err))
			continue
		}
		switch rp.Verdict {
		case Equivalent:
			if err := pl.Book.Join(ctx, id, c.ID); err != nil {
				return nil, fmt.Errorf("join class %d: %w", c.ID, err)
			}
			out.Class = c.ID
			return out, nil
		case Unknown:
			unresolved(c, rp.Limit, fmt.Sprintf("compare with %s: %s", r.Name, rp.Reason))
		}
	}
	if len(out.Unresolved) > 0 && pl.Defer != nil && pl.Defer(out.Unresolved) {
		out.Deferred = true
		return out, nil
	}
	cl, err := pl.Book.Open(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("open class: %w", err)
	}
	out.Class, out.Opened = cl, true
	return out, nil
}

// graph computes the graph part of a game's analysis and hands it to
// Analyzed when this call computed it.
func (pl *Placer) graph(ctx context.Context, id int64, g *Prepared) error {
	had := g.HasGraph()
	if err := g.Graph(ctx); err != nil {
		return err
	}
	if !had && pl.Analyzed != nil {
		pl.Analyzed(ctx, id, g.Analysis())
	}
	return nil
}

// LimitName names what stopped a step that failed with err: a limit of
// Limits (MaxAtoms, Search.MaxNodes, SAT.MaxClauses), "GameTimeout" for a
// game's own analysis budget, "stopped" when ctx ended, "invalid" for
// invalid rules, or "error".
func LimitName(ctx context.Context, err error) string {
	var gl *grounding.LimitError
	var il *isomorph.LimitError
	var sl *satcheck.LimitError
	var el grounding.ErrorList
	var pe *grounding.Error
	switch {
	case ctx.Err() != nil:
		return "stopped"
	case errors.As(err, &gl):
		return gl.What
	case errors.As(err, &il):
		return "Search." + il.What
	case errors.As(err, &sl):
		return "SAT." + sl.What
	case errors.Is(err, context.DeadlineExceeded):
		return "GameTimeout"
	case errors.As(err, &el), errors.As(err, &pe):
		return "invalid"
	}
	return "error"
}

// keyLocks is a lock per key, dropped when nobody holds or waits for it.
type keyLocks struct {
	mu sync.Mutex
	m  map[string]*keyLock
}

type keyLock struct {
	ch    chan struct{} // holds a token while locked
	users int
}

// lock takes the lock of key, or returns ctx's error if ctx ends first.
func (k *keyLocks) lock(ctx context.Context, key string) (unlock func(), err error) {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[string]*keyLock{}
	}
	l := k.m[key]
	if l == nil {
		l = &keyLock{ch: make(chan struct{}, 1)}
		k.m[key] = l
	}
	l.users++
	k.mu.Unlock()
	done := func() {
		k.mu.Lock()
		if l.users--; l.users == 0 {
			delete(k.m, key)
		}
		k.mu.Unlock()
	}
	select {
	case l.ch <- struct{}{}:
		return func() { <-l.ch; done() }, nil
	case <-ctx.Done():
		done()
		return nil, ctx.Err()
	}
}
