package api

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/board"
	"github.com/gamequiv/gamequiv/grounding"
)

// The pages draw games on their boards (package board). Finding a board
// needs the game grounded and a sample of reachable states, so the pages
// keep what they found per game text, bounded in time and in number.
const (
	// BoardTimeout bounds the grounding and playouts of one game for its
	// board; a game that takes longer is shown without a board.
	BoardTimeout = 2 * time.Second
	// BoardPlayouts is the number of random playouts whose states test
	// the invariance of a board's coordinates, BoardPlayoutDepth their
	// length in moves.
	BoardPlayouts     = 24
	BoardPlayoutDepth = 80
	// BoardCacheSize bounds the games whose boards are kept in memory.
	BoardCacheSize = 256
)

// gameBoard is what the pages know of a game's board.
type gameBoard struct {
	board *board.Board // nil: no board
	init  []string     // the propositions of the initial state
	// err says why the board could not be looked for (grounding failed or
	// took too long).
	err error
}

// boardCache holds the boards of games by the SHA-256 of their text: the
// same text always has the same board, whatever server asks.
type boardCache struct {
	mu    sync.Mutex
	m     map[string]*gameBoard
	order []string // insertion order, for eviction
	// sem lets one board be computed at a time: the work is CPU-bound
	// and page requests must not pile it up.
	sem chan struct{}
}

var boards = &boardCache{m: map[string]*gameBoard{}, sem: make(chan struct{}, 1)}

// get returns the board of g (g.GDL must be loaded), computing it once.
func (c *boardCache) get(ctx context.Context, g *gamequiv.Game) *gameBoard {
	c.mu.Lock()
	gb, ok := c.m[g.SHA256]
	c.mu.Unlock()
	if ok {
		return gb
	}
	ctx, cancel := context.WithTimeout(ctx, BoardTimeout)
	defer cancel()
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return &gameBoard{err: fmt.Errorf("the server is busy drawing other boards; reload the page")}
	}
	gb = findBoard(ctx, g)
	<-c.sem
	if errors.Is(ctx.Err(), context.Canceled) {
		return gb // the request went away: the result may be cut short
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[g.SHA256]; !ok {
		if len(c.order) >= BoardCacheSize {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
		c.order = append(c.order, g.SHA256)
	}
	c.m[g.SHA256] = gb
	return gb
}

// findBoard grounds g and detects its board on the initial state and the
// states of seeded random playouts (the same every time).
func findBoard(ctx context.Context, g *gamequiv.Game) *gameBoard {
	p, err := grounding.Load(ctx, g.Name, g.GDL, grounding.Limits{})
	if err != nil {
		if ctx.Err() != nil {
			return &gameBoard{err: fmt.Errorf("grounding the game for its board took more than %v", BoardTimeout)}
		}
		return &gameBoard{err: fmt.Errorf("ground %s: %w", g.Name, err)}
	}
	sim := grounding.NewSim(p)
	init := sim.StateProps()
	states := [][]string{init}
	rng := rand.New(rand.NewPCG(1, 2))
	moves := make([]int, len(p.Roles))
playouts:
	for range BoardPlayouts {
		sim.SetState(p.InitialState())
		for range BoardPlayoutDepth {
			if ctx.Err() != nil {
				break playouts
			}
			if sim.Terminal() {
				break
			}
			stuck := false
			for r := range p.Roles {
				legal := sim.Legal(r)
				if len(legal) == 0 {
					stuck = true
					break
				}
				moves[r] = legal[rng.IntN(len(legal))]
			}
			if stuck {
				break
			}
			sim.Step(moves)
			states = append(states, sim.StateProps())
		}
	}
	return &gameBoard{board: board.Detect(p.Props, states), init: init}
}
