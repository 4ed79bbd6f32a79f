package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/store"
)

// DefaultGameName names games uploaded without a name.
const DefaultGameName = "untitled"

// gameRequest is the body of POST /games, and an inline game of POST
// /comparisons.
type gameRequest struct {
	Name string `json:"name"`
	GDL  string `json:"gdl"`
	// unnamed is set by validate when Name was empty and became
	// DefaultGameName: such an upload of a stored text adds no alias.
	unnamed bool
}

func (r *gameRequest) validate(field string) error {
	switch {
	case utf8.RuneCountInString(r.Name) > DefaultMaxNameLen:
		return errorf(CodeInvalid, "%sname: at most %d characters", field, DefaultMaxNameLen)
	case strings.ContainsRune(r.Name, 0):
		return errorf(CodeInvalid, "%sname: must not contain NUL", field)
	}
	if strings.TrimSpace(r.Name) == "" {
		r.Name, r.unnamed = DefaultGameName, true
	}
	return checkGDLText(r.Name, r.GDL)
}

// GameStats is the size of a grounded game, as `gamequiv ground --json`
// prints it.
type GameStats struct {
	Roles        []string       `json:"roles"`
	Propositions int            `json:"propositions"`
	Actions      map[string]int `json:"actions"`
	Functions    int            `json:"functions"`
	CircuitNodes int            `json:"circuit_nodes"`
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

func newGameJSON(g *store.Game) gameJSON {
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
func uploadJSON(a added) gameJSON {
	out := newGameJSON(a.game)
	out.GDL = ""
	out.AliasAdded = &a.aliasAdded
	return out
}

// uploadStatus is the status of an upload: 201 for a new game, else 200.
func uploadStatus(a added) int {
	if a.created {
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
	if err := req.validate(""); err != nil {
		s.writeError(c, err)
		return
	}
	a, err := s.addGame(c.Request.Context(), &req)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Header("Location", gameLocation(a.game.ID))
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
	f := store.GameFilter{Name: c.Query("name"), NameContains: c.Query("name_contains"), SHA256: strings.ToLower(c.Query("sha256")), Page: p}
	if f.SHA256 != "" && !isHexSHA256(f.SHA256) {
		s.writeError(c, errorf(CodeInvalid, "query parameter sha256=%.70q: want 64 hex digits", c.Query("sha256")))
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

// validate checks the new name as an upload's name is checked; it is
// required.
func (r *renameRequest) validate() (string, error) {
	if r.Name == nil || strings.TrimSpace(*r.Name) == "" {
		return "", errorf(CodeInvalid, "name: required, not blank")
	}
	switch name := *r.Name; {
	case utf8.RuneCountInString(name) > DefaultMaxNameLen:
		return "", errorf(CodeInvalid, "name: at most %d characters", DefaultMaxNameLen)
	case !utf8.ValidString(name) || strings.ContainsRune(name, 0):
		return "", errorf(CodeInvalid, "name: must be UTF-8 without NUL")
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
	name, err := req.validate()
	if err != nil {
		s.writeError(c, err)
		return
	}
	g, err := s.store.RenameGame(c.Request.Context(), id, name)
	if err != nil {
		s.writeError(c, err)
		return
	}
	s.log.InfoContext(c.Request.Context(), "game renamed", slog.Int64("game", id), slog.String("name", g.Name))
	writeJSON(c, http.StatusOK, newGameJSON(g))
}

// deleteGame is DELETE /games/{id}: 204, and the game is gone with its
// comparisons, symmetries and aliases; its class keeps the other members
// (see store.DeleteGame). With access control only its owner or an admin
// may.
func (s *Server) deleteGame(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	if err := s.store.DeleteGame(c.Request.Context(), id); err != nil {
		s.writeError(c, err)
		return
	}
	s.log.InfoContext(c.Request.Context(), "game deleted", slog.Int64("game", id))
	c.Status(http.StatusNoContent)
}

// getSymmetries is GET /games/{id}/symmetries.
func (s *Server) getSymmetries(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	res, err := s.symmetries(c.Request.Context(), id)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", res)
}

// added is the outcome of addGame.
type added struct {
	game *store.Game
	// created: the text is new; aliasAdded: it was stored before, and the
	// request's name became one of its aliases.
	created, aliasAdded bool
}

// addGame stores a validated upload. A text stored before (the same up to
// line endings) is found by its content hash without grounding it again,
// and a name given with it that the game does not carry yet becomes an
// alias. A new text is validated by grounding it and stored with its
// stats.
func (s *Server) addGame(ctx context.Context, req *gameRequest) (added, error) {
	gdl := []byte(req.GDL)
	if int64(len(gdl)) > s.limits.MaxGDL {
		return added{}, errorf(CodeTooLarge, "gdl: %d bytes; a game description may have at most %d bytes", len(gdl), s.limits.MaxGDL)
	}
	g, err := s.store.GameBySHA256(ctx, store.ContentSHA256(gdl))
	switch {
	case err == nil:
		return s.addAlias(ctx, added{game: g}, req)
	case !isNotFound(err):
		return added{}, err
	}
	g, created, err := s.groundAndStore(ctx, req.Name, gdl)
	if err != nil {
		return added{}, err
	}
	return s.addAlias(ctx, added{game: g, created: created}, req)
}

// addAlias records the request's name as an alias of a game stored before.
func (s *Server) addAlias(ctx context.Context, a added, req *gameRequest) (added, error) {
	if a.created || req.unnamed || req.Name == a.game.Name || slices.Contains(a.game.Aliases, req.Name) {
		return a, nil
	}
	ok, err := s.store.AddGameAlias(ctx, a.game.ID, req.Name)
	if err != nil {
		return added{}, err
	}
	if ok {
		a.aliasAdded = true
		a.game.Aliases = append(a.game.Aliases, req.Name)
	}
	return a, nil
}

// groundAndStore validates a new description by grounding it and stores it
// with its stats.
func (s *Server) groundAndStore(ctx context.Context, name string, gdl []byte) (*store.Game, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, s.limits.RequestTimeout)
	defer cancel()
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, false, err
	}
	lim := s.limits.Game.Ground
	if dl, ok := ctx.Deadline(); ok && (lim.Timeout <= 0 || time.Until(dl) < lim.Timeout) {
		lim.Timeout = max(time.Until(dl), time.Millisecond)
	}
	p, err := grounding.Load(ctx, name, gdl, lim)
	release()
	if err != nil {
		return nil, false, err
	}
	st := GameStats{
		Roles:        p.Roles,
		Propositions: len(p.Props),
		Actions:      make(map[string]int, len(p.Roles)),
		Functions:    p.NumFunctions(),
		CircuitNodes: p.Circuit.NumNodes(),
	}
	for r, as := range p.Actions {
		st.Actions[p.Roles[r]] = len(as)
	}
	stats, err := json.Marshal(st)
	if err != nil {
		return nil, false, fmt.Errorf("game stats: %w", err)
	}
	return s.store.CreateGame(ctx, name, gdl, stats)
}

// symmetries returns the stored symmetry report of a game, computing and
// storing it first if there is none. A computation that failed on a limit
// (or on the time limit) is stored too, and its problem is answered again
// from the store instead of being computed again. Requests for a game
// whose symmetries are being computed wait for that computation.
func (s *Server) symmetries(ctx context.Context, id int64) (json.RawMessage, error) {
	got, err := s.store.GetSymmetries(ctx, id)
	if err == nil {
		s.countSymmetries("stored")
		return storedSymmetries(got)
	}
	if !isNotFound(err) {
		return nil, err
	}
	return s.symFlight.do(ctx, id, func() (json.RawMessage, error) { return s.computeSymmetries(ctx, id) })
}

// storedSymmetries is the stored result, or the stored failure as an
// error.
func storedSymmetries(got *store.SymmetryResult) (json.RawMessage, error) {
	if got.Problem == nil {
		return got.Result, nil
	}
	var p Problem
	if err := json.Unmarshal(got.Problem, &p); err != nil || p.Status == 0 {
		return nil, fmt.Errorf("stored symmetry failure of game %d: %w", got.GameID, errors.Join(err, errors.New("not a problem document")))
	}
	return nil, &storedProblem{p}
}

// computeSymmetries computes a game's symmetries under a compute slot and
// stores the report, or the failure if a limit stopped it.
func (s *Server) computeSymmetries(ctx context.Context, id int64) (json.RawMessage, error) {
	// A computation that ended between our first look and now stored its
	// answer already.
	if got, err := s.store.GetSymmetries(ctx, id); err == nil {
		s.countSymmetries("stored")
		return storedSymmetries(got)
	}
	g, err := s.store.GetGame(ctx, id)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, s.limits.RequestTimeout)
	defer cancel()
	release, err := s.acquire(cctx)
	if err != nil {
		return nil, err
	}
	lim := s.limits.Game
	lim.Timeout = s.limits.RequestTimeout
	rep, err := equiv.Symmetries(cctx, equiv.Source{Name: g.Name, GDL: g.GDL}, lim)
	release()
	if err != nil {
		return nil, s.symmetryFailure(ctx, id, err)
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		return nil, fmt.Errorf("symmetry report: %w", err)
	}
	stored, err := s.store.PutSymmetries(ctx, id, raw)
	if err != nil {
		return nil, err
	}
	s.countSymmetries("computed")
	return stored.Result, nil
}

// symmetryFailure stores the failure err of game id's symmetry computation
// when it is final: a limit, or the time limit of the computation (not the
// client leaving). It returns the error to answer.
func (s *Server) symmetryFailure(ctx context.Context, id int64, err error) error {
	if ctx.Err() != nil {
		return err
	}
	p, _ := problemFor(err)
	if errors.Is(err, context.DeadlineExceeded) && p.Code != CodeLimit {
		p, _ = problemFor(errorf(CodeLimit, "symmetries of game %d: time limit of %s reached", id, s.limits.RequestTimeout))
		p.Limit = "Timeout"
	}
	if p.Code != CodeLimit {
		return err
	}
	raw, merr := json.Marshal(p)
	if merr != nil {
		return fmt.Errorf("symmetry failure: %w", merr)
	}
	if _, perr := s.store.PutSymmetryFailure(ctx, id, raw); perr != nil {
		s.log.Warn("store symmetry failure", slog.Int64("game", id), slog.Any("err", perr))
	}
	s.countSymmetries("computed")
	return &storedProblem{p}
}

func (s *Server) countSymmetries(source string) {
	if s.metrics != nil {
		s.metrics.SymmetryQueries.WithLabelValues(source).Inc()
	}
}

// isHexSHA256 reports whether v is 64 lower-case hex digits.
func isHexSHA256(v string) bool {
	if len(v) != 64 {
		return false
	}
	for _, c := range []byte(v) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
