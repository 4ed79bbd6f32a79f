package api

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/gamequiv/gamequiv"
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
// request for the rate limit), each answered on its own; the service adds
// several at once (gamequiv.GameService.AddGames). The request is
// 200 whenever its body is well formed; each item carries 201, 200 or the
// problem of that game.
func (s *Server) createGames(c *gin.Context) {
	var req batchRequest
	if err := decode(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	if n := len(req.Games); n == 0 || n > s.limits.MaxBatch {
		s.writeError(c, gamequiv.Errorf(CodeInvalid, "games: %d games; a batch holds 1 to %d", n, s.limits.MaxBatch))
		return
	}
	ups := make([]gamequiv.GameUpload, len(req.Games))
	for i := range req.Games {
		ups[i] = req.Games[i].upload()
	}
	results, err := s.games.AddGames(c.Request.Context(), ups)
	if err != nil {
		s.writeError(c, err)
		return
	}
	items := make([]batchItemJSON, len(results))
	for i, r := range results {
		items[i] = s.batchItem(c.Request.Context(), i, r)
	}
	writeJSON(c, http.StatusOK, gin.H{"items": items})
}

// batchItem is the answer for one game of a batch.
func (s *Server) batchItem(ctx context.Context, i int, r gamequiv.AddResult) batchItemJSON {
	item := batchItemJSON{Index: i}
	if r.Err != nil {
		p, _ := problemFor(r.Err)
		p.RequestID = RequestID(ctx)
		if p.Status >= http.StatusInternalServerError {
			s.log.LogAttrs(ctx, slog.LevelError, "batch upload failed", slog.Int("index", i), slog.String("code", p.Code), slog.Any("err", r.Err))
		}
		item.Status, item.Problem = p.Status, &p
		return item
	}
	out := uploadJSON(r.Added)
	item.Status, item.Game = uploadStatus(r.Added), &out
	return item
}
