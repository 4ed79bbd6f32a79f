package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"
)

// DefaultMaxBatch is the default of Limits.MaxBatch.
const DefaultMaxBatch = 100

// batchRequest is the body of POST /games/batch.
type batchRequest struct {
	Games []gameRequest `json:"games"`
}

// batchItemJSON is the outcome of one game of a batch: the game, or the
// problem that kept it out.
type batchItemJSON struct {
	// Index is the game's position in the request.
	Index int `json:"index"`
	// Status is the status the game would have had alone: 201, 200, or
	// the problem's.
	Status  int       `json:"status"`
	Game    *gameJSON `json:"game,omitempty"`
	Problem *Problem  `json:"problem,omitempty"`
}

// createGames is POST /games/batch: many uploads in one request (one
// request for the rate limit), each answered on its own. The request is
// 200 whenever its body is well formed; each item carries 201, 200 or the
// problem of that game.
func (s *Server) createGames(c *gin.Context) {
	var req batchRequest
	if err := decode(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	if n := len(req.Games); n == 0 || n > s.limits.MaxBatch {
		s.writeError(c, errorf(CodeInvalid, "games: %d games; a batch holds 1 to %d", n, s.limits.MaxBatch))
		return
	}
	// Each worker of the batch holds one compute slot for the batch's
	// life: as many as are free, up to one per game, at least one (else
	// the batch gets 429 busy). Each game's time limit starts when its
	// turn comes, not when the batch arrived.
	held := 0
	for held < min(s.limits.MaxConcurrentCompute, len(req.Games)) && s.tryAcquire() {
		held++
	}
	if held == 0 {
		s.writeError(c, s.busy())
		return
	}
	defer func() {
		for range held {
			s.releaseSlot()
		}
	}()
	ctx := context.WithValue(c.Request.Context(), slotKey{}, true)
	items := make([]batchItemJSON, len(req.Games))
	next := make(chan int)
	var wg sync.WaitGroup
	for range held {
		wg.Go(func() {
			for i := range next {
				items[i] = s.batchItem(ctx, i, &req.Games[i])
			}
		})
	}
	for i := range req.Games {
		next <- i
	}
	close(next)
	wg.Wait()
	writeJSON(c, http.StatusOK, gin.H{"items": items})
}

// batchItem uploads one game of a batch.
func (s *Server) batchItem(ctx context.Context, i int, g *gameRequest) batchItemJSON {
	item := batchItemJSON{Index: i}
	err := g.validate(fmt.Sprintf("games[%d].", i))
	var a added
	if err == nil {
		a, err = s.addGame(ctx, g)
	}
	if err != nil {
		p, _ := problemFor(err)
		p.RequestID = RequestID(ctx)
		if p.Status >= http.StatusInternalServerError {
			s.log.LogAttrs(ctx, slog.LevelError, "batch upload failed", slog.Int("index", i), slog.String("code", p.Code), slog.Any("err", err))
		}
		item.Status, item.Problem = p.Status, &p
		return item
	}
	out := uploadJSON(a)
	item.Status, item.Game = uploadStatus(a), &out
	return item
}
