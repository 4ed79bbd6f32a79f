package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gin-gonic/gin"
)

// gameRequest is the body of POST /games, and an inline game of POST
// /comparisons.
type gameRequest struct {
	Name string `json:"name"`
	GDL  string `json:"gdl"`
}

// upload is the request as the service layer takes it.
func (r *gameRequest) upload() gamequiv.GameUpload {
	return gamequiv.GameUpload{Name: r.Name, GDL: []byte(r.GDL)}
}

// gameJSON is a game in responses.
type gameJSON struct {
	ID     int64           `json:"id"`
	Name   string          `json:"name"`
	SHA256 string          `json:"sha256"`
	Stats  json.RawMessage `json:"stats"`
	// ClassID is the game's equivalence class, absent until the
	// classifier has placed it.
	ClassID int64 `json:"class_id,omitempty"`
	// AnalysisError says why the classifier could not analyse the game.
	AnalysisError string    `json:"analysis_error,omitempty"`
	CreatedAt     time.Time `json:"created_at"`
	// GDL is the description, in single-game responses only.
	GDL string `json:"gdl,omitempty"`
	// Aliases are the other names the text was uploaded under.
	Aliases []string `json:"aliases,omitempty"`
	// AliasAdded, in upload responses only, says whether this upload's
	// name was added to the aliases of a game stored before.
	AliasAdded *bool `json:"alias_added,omitempty"`
	// Owner is the name of the uploader's token; absent without access
	// control.
	Owner string `json:"owner,omitempty"`
}

func newGameJSON(g *gamequiv.Game) gameJSON {
	stats := g.Stats
	if len(stats) == 0 {
		stats = json.RawMessage("{}")
	}
	return gameJSON{
		ID:            g.ID,
		Name:          g.Name,
		SHA256:        g.SHA256,
		Stats:         stats,
		ClassID:       g.ClassID,
		AnalysisError: g.Error,
		CreatedAt:     g.CreatedAt,
		GDL:           string(g.GDL),
		Aliases:       g.Aliases,
		Owner:         g.Owner,
	}
}

// uploadJSON is a game in upload responses: without its text, with
// alias_added.
func uploadJSON(a *gamequiv.AddedGame) gameJSON {
	out := newGameJSON(a.Game)
	out.GDL = ""
	out.AliasAdded = &a.AliasAdded
	return out
}

// uploadStatus is the status of an upload: 201 for a new game, else 200.
func uploadStatus(a *gamequiv.AddedGame) int {
	if a.Created {
		return http.StatusCreated
	}
	return http.StatusOK
}

func gameLocation(id int64) string {
	return BasePath + "/games/" + strconv.FormatInt(id, 10)
}

// createGame is POST /games: 201 for a new game, 200 for a text stored
// before.
func (s *Server) createGame(c *gin.Context) {
	var req gameRequest
	if err := decode(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	a, err := s.games.AddGame(c.Request.Context(), req.upload())
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Header("Location", gameLocation(a.Game.ID))
	writeJSON(c, uploadStatus(a), uploadJSON(a))
}

// listGames is GET /games: all games, or those with a name, an alias or
// a content hash.
func (s *Server) listGames(c *gin.Context) {
	p, err := page(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	f := gamequiv.GameFilter{Name: c.Query("name"), NameContains: c.Query("name_contains"), SHA256: strings.ToLower(c.Query("sha256")), Page: p}
	if f.SHA256 != "" && !gamequiv.IsContentSHA256(f.SHA256) {
		s.writeError(c, gamequiv.Errorf(CodeInvalid, "query parameter sha256=%.70q: want 64 hex digits", c.Query("sha256")))
		return
	}
	games, next, err := s.store.FindGames(c.Request.Context(), f)
	if err != nil {
		s.writeError(c, err)
		return
	}
	out := make([]gameJSON, len(games))
	for i := range games {
		out[i] = newGameJSON(&games[i])
	}
	writeJSON(c, http.StatusOK, newList(out, next))
}

// getGame is GET /games/{id}.
func (s *Server) getGame(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	g, err := s.store.GetGame(c.Request.Context(), id)
	if err != nil {
		s.writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, newGameJSON(g))
}

// renameRequest is the body of PATCH /games/{id}.
type renameRequest struct {
	Name *string `json:"name"`
}

// name is the new name; it is required.
func (r *renameRequest) name() (string, error) {
	if r.Name == nil {
		return "", gamequiv.Errorf(CodeInvalid, "name: required, not blank")
	}
	return *r.Name, nil
}

// renameGame is PATCH /games/{id} with {"name": S}: the game gets the
// new name (its aliases stay). With access control only its owner or an
// admin may (the store checks).
func (s *Server) renameGame(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	var req renameRequest
	if err := decode(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	name, err := req.name()
	if err != nil {
		s.writeError(c, err)
		return
	}
	g, err := s.games.RenameGame(c.Request.Context(), id, name)
	if err != nil {
		s.writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, newGameJSON(g))
}

// deleteGame is DELETE /games/{id}: 204, and the game is gone with its
// comparisons, symmetries and aliases; its class keeps the other members
// (see gamequiv.Games.DeleteGame). With access control only its owner or an admin
// may.
func (s *Server) deleteGame(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	if err := s.games.DeleteGame(c.Request.Context(), id); err != nil {
		s.writeError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// getSymmetries is GET /games/{id}/symmetries.
func (s *Server) getSymmetries(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	res, err := s.games.Symmetries(c.Request.Context(), id)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", res)
}
