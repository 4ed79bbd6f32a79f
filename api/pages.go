package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/board"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/web"
)

// The browser pages (package web) are routed by their own gin engine, so
// that unknown paths outside the API get an HTML 404 page while the API
// keeps its problem+json answers. Every page handler makes the same
// storage reads and service calls as the JSON handler of the same resource
// and only turns the result into a web view.

// PollInterval is how often the page of a running comparison refreshes.
const PollInterval = "1s"

// Page sizes of the lists that pages embed.
const (
	recentComparisons = 10
	gameComparisons   = 20
	// pickerGames bounds the games each picker of the comparison form
	// lists; a search narrows them down.
	pickerGames = 200
	// gameChoices bounds the games offered when a name filter of the
	// comparisons matches several.
	gameChoices = 20
	// MaxQueryLen bounds the search text of the pages.
	MaxQueryLen = 200
)

// isAPIPath reports whether a request path belongs to the JSON API and the
// probes rather than to the browser pages.
func isAPIPath(p string) bool {
	switch p {
	case "/api", "/healthz", "/readyz", "/metrics":
		return true
	}
	return strings.HasPrefix(p, "/api/")
}

// newPages returns the router of the browser pages.
func (s *Server) newPages() *gin.Engine {
	r := gin.New()
	s.trustProxies(r)
	r.HandleMethodNotAllowed = true
	r.ContextWithFallback = true
	r.Use(requestID, s.accessLog)
	if s.metrics != nil {
		r.Use(s.observe)
	}
	r.Use(s.recoverPage, s.limitBody, pageHeaders)
	if s.limiters != nil {
		r.Use(s.rateLimitPage)
	}
	r.Use(s.pageAuth)
	r.NoRoute(func(c *gin.Context) {
		s.pageError(c, gamequiv.Errorf(CodeNotFound, "there is no page at %s", c.Request.URL.Path))
	})
	r.NoMethod(func(c *gin.Context) {
		s.pageError(c, gamequiv.Errorf(CodeMethodNotAllowed, "method %s not allowed on %s", c.Request.Method, c.Request.URL.Path))
	})

	r.GET(web.StaticPrefix+"*file", gin.WrapH(web.Static()))
	r.GET("/", s.homePage)
	r.GET("/classes", s.classesPage)
	r.GET("/classes/:id", s.classPage)
	r.GET("/games", s.gamesPage)
	r.GET("/games/:id", s.gamePage)
	r.GET("/comparisons", s.comparisonsPage)
	r.GET("/comparisons/new", s.compareFormPage)
	r.POST("/comparisons", s.submitComparisonPage)
	r.GET("/comparisons/:id", s.comparisonPage)
	r.POST("/comparisons/:id/cancel", s.cancelComparisonPage)
	r.POST("/games/:id/rename", s.renameGamePage)
	r.POST("/games/:id/delete", s.deleteGamePage)
	r.GET("/login", s.loginPage)
	r.POST("/login", s.login)
	r.POST("/logout", s.logout)
	return r
}

// contentSecurityPolicy allows the pages only their own scripts, styles
// and forms.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

// pageHeaders sets the security headers of every page.
func pageHeaders(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	c.Next()
}

// crossOrigin rejects form posts from other sites (CSRF).
var crossOrigin = http.NewCrossOriginProtection()

// render answers with a page. A template failure becomes a 500 page.
func (s *Server) render(c *gin.Context, status int, name string, v web.View) {
	if s.access.Enabled {
		v.Viewer = &web.Viewer{}
		if u := gamequiv.UserFromContext(c.Request.Context()); u != nil {
			v.Viewer.Name, v.Viewer.Admin = u.Name, u.Admin
		}
	}
	var buf bytes.Buffer
	if err := web.Render(&buf, name, v); err != nil {
		s.log.LogAttrs(c.Request.Context(), slog.LevelError, "render page",
			slog.String("route", route(c)), slog.Any("err", err))
		if name == web.PageError {
			c.Data(http.StatusInternalServerError, "text/plain; charset=utf-8", []byte("internal error\n"))
			return
		}
		s.errorPage(c, http.StatusInternalServerError, "internal error")
		return
	}
	c.Header("Cache-Control", "no-cache")
	c.Data(status, "text/html; charset=utf-8", buf.Bytes())
}

// pageError answers with the error page for err: the status and detail
// are those the JSON API gives (problemFor), and internal errors are
// logged here, once.
func (s *Server) pageError(c *gin.Context, err error) {
	p, retry := problemFor(err)
	if p.Status >= http.StatusInternalServerError {
		level := slog.LevelError
		if p.Code == CodeUnavailable {
			level = slog.LevelWarn
		}
		s.log.LogAttrs(c.Request.Context(), level, "request failed",
			slog.String("route", route(c)), slog.String("code", p.Code), slog.Any("err", err))
	}
	if retry > 0 {
		c.Header("Retry-After", strconv.FormatInt(int64((retry+time.Second-1)/time.Second), 10))
	}
	s.errorPage(c, p.Status, p.Detail)
}

// errorPage answers with the error page and aborts the handler chain.
func (s *Server) errorPage(c *gin.Context, status int, detail string) {
	c.Abort()
	title := http.StatusText(status)
	s.render(c, status, web.PageError, web.View{
		Title:     title,
		RequestID: RequestID(c.Request.Context()),
		Data:      web.ErrorView{Status: status, Title: title, Detail: detail},
	})
}

// recoverPage turns a panic in a page handler into a 500 page (see
// recovering).
func (s *Server) recoverPage(c *gin.Context) {
	s.recovering(c, func() { s.pageError(c, gamequiv.Errorf(CodeInternal, "panic")) })
}

// rateLimitPage throttles form posts per client address, like rateLimit
// does for the API.
func (s *Server) rateLimitPage(c *gin.Context) {
	if c.Request.Method != http.MethodPost {
		c.Next()
		return
	}
	if err := s.throttled(c); err != nil {
		s.pageError(c, err)
		return
	}
	c.Next()
}

// pageID parses the :id path parameter of a page; a malformed id names no
// page, so it is a 404.
func pageID(c *gin.Context, what string) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, gamequiv.Errorf(CodeNotFound, "there is no %s %q", what, c.Param("id"))
	}
	return id, nil
}

// notFound names the missing resource in a gamequiv.ErrNotFound.
func notFound(err error, what string, id int64) error {
	if errors.Is(err, gamequiv.ErrNotFound) {
		return gamequiv.Errorf(CodeNotFound, "there is no %s %d", what, id)
	}
	return err
}

// homePage is GET /: an introduction and the latest comparisons.
func (s *Server) homePage(c *gin.Context) {
	cs, _, err := s.store.ListComparisons(c.Request.Context(), gamequiv.ComparisonFilter{Page: gamequiv.Page{Limit: recentComparisons}})
	if err != nil {
		s.pageError(c, err)
		return
	}
	recent, err := s.namedComparisons(c.Request.Context(), cs)
	if err != nil {
		s.pageError(c, err)
		return
	}
	s.render(c, http.StatusOK, web.PageHome, web.View{
		Title: "Game equivalence", Section: "home",
		Data: web.HomeView{Recent: recent},
	})
}

// classesPage is GET /classes, the page of GET /api/v1/classes.
func (s *Server) classesPage(c *gin.Context) {
	p, err := page(c)
	if err != nil {
		s.pageError(c, err)
		return
	}
	q, err := searchQuery(c)
	if err != nil {
		s.pageError(c, err)
		return
	}
	var classes []gamequiv.Class
	var next int64
	if q == "" {
		classes, next, err = s.store.ListClasses(c.Request.Context(), p)
	} else {
		classes, next, err = s.store.SearchClasses(c.Request.Context(), q, p)
	}
	if err != nil {
		s.pageError(c, err)
		return
	}
	v := web.ClassesView{Query: q, Classes: classes, Next: next}
	s.render(c, http.StatusOK, web.PageClasses, web.View{Title: "Equivalence classes", Section: "classes", Data: v})
}

// classPage is GET /classes/{id}, the page of GET /api/v1/classes/{id}.
func (s *Server) classPage(c *gin.Context) {
	id, err := pageID(c, "class")
	if err != nil {
		s.pageError(c, err)
		return
	}
	cl, err := s.store.GetClass(c.Request.Context(), id)
	if err != nil {
		s.pageError(c, notFound(err, "class", id))
		return
	}
	s.render(c, http.StatusOK, web.PageClass, web.View{
		Title: fmt.Sprintf("Class %d", cl.ID), Section: "classes",
		Data: web.ClassView{Class: *cl},
	})
}

// gamesPage is GET /games, the page of GET /api/v1/games.
func (s *Server) gamesPage(c *gin.Context) {
	p, err := page(c)
	if err != nil {
		s.pageError(c, err)
		return
	}
	q, err := searchQuery(c)
	if err != nil {
		s.pageError(c, err)
		return
	}
	var games []gamequiv.Game
	var next int64
	if q == "" {
		games, next, err = s.store.ListGames(c.Request.Context(), p)
	} else {
		games, next, err = s.store.SearchGames(c.Request.Context(), q, p)
	}
	if err != nil {
		s.pageError(c, err)
		return
	}
	v := web.GamesView{Query: q, Games: make([]web.Game, len(games)), Next: next}
	for i := range games {
		v.Games[i] = gameView(&games[i])
	}
	s.render(c, http.StatusOK, web.PageGames, web.View{Title: "Games", Section: "games", Data: v})
}

// gamePage is GET /games/{id}: the game (GET /api/v1/games/{id}), its
// stored symmetries, and its latest comparisons. With ?symmetries=compute
// it computes missing symmetries as GET /api/v1/games/{id}/symmetries does.
func (s *Server) gamePage(c *gin.Context) {
	id, err := pageID(c, "game")
	if err != nil {
		s.pageError(c, err)
		return
	}
	ctx := c.Request.Context()
	g, err := s.store.GetGame(ctx, id)
	if err != nil {
		s.pageError(c, notFound(err, "game", id))
		return
	}
	v := web.GameView{Game: gameView(g), GDL: string(g.GDL)}
	v.CanChange = gamequiv.MayChange(gamequiv.UserFromContext(ctx), g.Owner)
	gb := boards.get(ctx, g)
	v.Board, v.BoardNote = initialBoard(gb)

	var sym json.RawMessage
	if c.Query("symmetries") == "compute" {
		sym, err = s.games.Symmetries(ctx, id)
		if err != nil {
			// The page still shows; the symmetries section says what
			// went wrong and what to do.
			v.SymmetryError, v.SymmetryHint = s.symmetryProblem(c, err)
			err = nil
		}
	} else {
		var got *gamequiv.SymmetryResult
		if got, err = s.store.GetSymmetries(ctx, id); err == nil {
			sym = got.Result
		} else if errors.Is(err, gamequiv.ErrNotFound) {
			err = nil
		}
	}
	if err != nil {
		s.pageError(c, err)
		return
	}
	if len(sym) > 0 {
		var rep equiv.SymmetryReport
		if err := json.Unmarshal(sym, &rep); err != nil {
			s.pageError(c, fmt.Errorf("symmetry report of game %d: %w", id, err))
			return
		}
		v.Symmetries = symmetriesView(&rep, gb.board)
	}

	cs, _, err := s.store.ListComparisons(ctx, gamequiv.ComparisonFilter{GameID: id, Page: gamequiv.Page{Limit: gameComparisons}})
	if err != nil {
		s.pageError(c, err)
		return
	}
	if v.Comparisons, err = s.namedComparisons(ctx, cs); err != nil {
		s.pageError(c, err)
		return
	}
	s.render(c, http.StatusOK, web.PageGame, web.View{Title: g.Name, Section: "games", Data: v})
}

// comparisonStatuses are the choices of the status filter.
var comparisonStatuses = func() []string {
	out := make([]string, len(gamequiv.Statuses))
	for i, s := range gamequiv.Statuses {
		out[i] = string(s)
	}
	return out
}()

// comparisonsPage is GET /comparisons, the page of GET
// /api/v1/comparisons (same filter: status, game, cursor, limit).
func (s *Server) comparisonsPage(c *gin.Context) {
	p, err := page(c)
	if err != nil {
		s.pageError(c, err)
		return
	}
	f := gamequiv.ComparisonFilter{Status: gamequiv.Status(c.Query("status")), Page: p}
	if f.GameID, err = queryInt(c, "game"); err != nil {
		s.pageError(c, err)
		return
	}
	ctx := c.Request.Context()
	// ?game_q= names the game: one match filters by it, several are
	// offered to pick from.
	gameQ, err := queryText(c, "game_q")
	if err != nil {
		s.pageError(c, err)
		return
	}
	var choices []gamequiv.Member
	if gameQ != "" && f.GameID == 0 {
		games, _, err := s.store.SearchGames(ctx, gameQ, gamequiv.Page{Limit: gameChoices + 1})
		if err != nil {
			s.pageError(c, err)
			return
		}
		if len(games) == 1 {
			f.GameID = games[0].ID
		}
		for _, g := range games {
			choices = append(choices, gamequiv.Member{ID: g.ID, Name: g.Name})
		}
	}
	cs, next, err := s.store.ListComparisons(ctx, f)
	if err != nil {
		s.pageError(c, err)
		return
	}
	list, err := s.namedComparisons(ctx, cs)
	if err != nil {
		s.pageError(c, err)
		return
	}
	v := web.ComparisonsView{
		GameQuery:   gameQ,
		Comparisons: list,
		Status:      string(f.Status),
		GameID:      f.GameID,
		Statuses:    comparisonStatuses,
		Next:        next,
	}
	if len(choices) != 1 {
		v.GameChoices, v.MoreChoices = choices[:min(len(choices), gameChoices)], len(choices) > gameChoices
	}
	title := "Comparisons"
	if f.GameID != 0 {
		names, err := s.store.GameNames(ctx, []int64{f.GameID})
		if err != nil {
			s.pageError(c, err)
			return
		}
		v.GameName = names[f.GameID]
		if v.GameName != "" {
			title = "Comparisons with " + v.GameName
		}
	}
	s.render(c, http.StatusOK, web.PageComparisons, web.View{Title: title, Section: "comparisons", Data: v})
}

// comparisonPage is GET /comparisons/{id}, the page of GET
// /api/v1/comparisons/{id}. While the comparison runs, htmx polls this
// page and swaps in its status section; those requests skip the game
// names, which the section does not show.
func (s *Server) comparisonPage(c *gin.Context) {
	id, err := pageID(c, "comparison")
	if err != nil {
		s.pageError(c, err)
		return
	}
	ctx := c.Request.Context()
	cmp, err := s.store.GetComparison(ctx, id)
	if err != nil {
		s.pageError(c, notFound(err, "comparison", id))
		return
	}
	v := comparisonView(cmp)
	v.CanCancel = gamequiv.MayChange(gamequiv.UserFromContext(ctx), cmp.Owner)
	progressDetail(&v, cmp, time.Now())
	// The games are needed for their names, and once there is a mapping
	// for their boards; a poll of a running comparison needs neither.
	if c.GetHeader("HX-Request") == "" || v.Mapping != nil {
		var games [2]*gamequiv.Game
		for i, id := range []int64{cmp.GameA, cmp.GameB} {
			g, err := s.store.GetGame(ctx, id)
			if err != nil && !errors.Is(err, gamequiv.ErrNotFound) {
				s.pageError(c, err)
				return
			}
			games[i] = g
		}
		if games[0] != nil {
			v.NameA = games[0].Name
		}
		if games[1] != nil {
			v.NameB = games[1].Name
		}
		if v.Mapping != nil && games[0] != nil && games[1] != nil {
			var rep equiv.Report
			if err := json.Unmarshal(cmp.Result, &rep); err == nil && rep.Mapping != nil {
				v.Boards, v.BoardNote = mappingBoards(boards.get(ctx, games[0]), boards.get(ctx, games[1]), rep.Mapping)
			}
		}
	}
	title := fmt.Sprintf("Comparison %d", cmp.ID)
	if v.NameA != "" && v.NameB != "" {
		title += ": " + v.NameA + " and " + v.NameB
	}
	s.render(c, http.StatusOK, web.PageComparison, web.View{
		Title: title, Section: "comparisons",
		Data: web.ComparisonView{Comparison: v, PollInterval: PollInterval},
	})
}

// cancelComparisonPage is POST /comparisons/{id}/cancel, the form of
// DELETE /api/v1/comparisons/{id}; it returns to the comparison's page.
func (s *Server) cancelComparisonPage(c *gin.Context) {
	if err := crossOrigin.Check(c.Request); err != nil {
		s.errorPage(c, http.StatusForbidden, "cross-origin form posts are not accepted")
		return
	}
	id, err := pageID(c, "comparison")
	if err != nil {
		s.pageError(c, err)
		return
	}
	if _, err := s.comparisons.Cancel(c.Request.Context(), id); err != nil {
		s.pageError(c, notFound(err, "comparison", id))
		return
	}
	c.Redirect(http.StatusSeeOther, "/comparisons/"+strconv.FormatInt(id, 10))
}

// compareFormPage is GET /comparisons/new: the form that submits a
// comparison. ?a= and ?b= preselect stored games; ?a_q= and ?b_q= search
// the games each side lists.
func (s *Server) compareFormPage(c *gin.Context) {
	var v web.CompareView
	var err error
	if v.PickA.Query, err = queryText(c, "a_q"); err != nil {
		s.pageError(c, err)
		return
	}
	if v.PickB.Query, err = queryText(c, "b_q"); err != nil {
		s.pageError(c, err)
		return
	}
	if v.A.ID, err = queryInt(c, "a"); err != nil {
		s.pageError(c, err)
		return
	}
	if v.B.ID, err = queryInt(c, "b"); err != nil {
		s.pageError(c, err)
		return
	}
	s.renderCompareForm(c, http.StatusOK, v)
}

// renderCompareForm shows the comparison form with the stored games to
// pick from.
func (s *Server) renderCompareForm(c *gin.Context, status int, v web.CompareView) {
	ctx := c.Request.Context()
	for _, side := range []struct {
		pick *web.Picker
		id   int64
	}{{&v.PickA, v.A.ID}, {&v.PickB, v.B.ID}} {
		games, next, err := s.store.SearchGames(ctx, side.pick.Query, gamequiv.Page{Limit: pickerGames})
		if err != nil {
			s.pageError(c, err)
			return
		}
		side.pick.More = next != 0
		picked := false
		for _, g := range games {
			side.pick.Games = append(side.pick.Games, gamequiv.Member{ID: g.ID, Name: g.Name})
			picked = picked || g.ID == side.id
		}
		if side.id != 0 && !picked {
			// Keep the game picked in the list, whatever the search.
			names, err := s.store.GameNames(ctx, []int64{side.id})
			if err != nil {
				s.pageError(c, err)
				return
			}
			if name, ok := names[side.id]; ok {
				side.pick.Games = append([]gamequiv.Member{{ID: side.id, Name: name}}, side.pick.Games...)
			}
		}
	}
	s.render(c, status, web.PageCompare, web.View{Title: "Compare two games", Section: "compare", Data: v})
}

// submitComparisonPage is POST /comparisons from the form: it validates
// and submits the comparison exactly as POST /api/v1/comparisons does and
// redirects to the comparison's page, or shows the form again with the
// error and the values entered.
func (s *Server) submitComparisonPage(c *gin.Context) {
	if err := crossOrigin.Check(c.Request); err != nil {
		s.errorPage(c, http.StatusForbidden, "cross-origin form posts are not accepted")
		return
	}
	req, v, err := s.readCompareForm(c)
	if err != nil {
		s.compareFormError(c, v, err)
		return
	}
	cmp, _, err := s.comparisons.Submit(c.Request.Context(), req)
	if err != nil {
		s.compareFormError(c, v, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/comparisons/"+strconv.FormatInt(cmp.ID, 10))
}

// compareFormError shows the form again with err, under the status the
// JSON API gives it. A body over the cap is not read again: the form
// comes back empty.
func (s *Server) compareFormError(c *gin.Context, v web.CompareView, err error) {
	p, retry := problemFor(err)
	if p.Status >= http.StatusInternalServerError {
		s.pageError(c, err)
		return
	}
	if retry > 0 {
		c.Header("Retry-After", strconv.FormatInt(int64((retry+time.Second-1)/time.Second), 10))
	}
	v.Error = p.Detail
	v.Side = strings.ToUpper(gamequiv.SideOf(err))
	for _, e := range p.Errors {
		v.Errors = append(v.Errors, web.FieldError{Line: e.Line, Col: e.Col, Message: e.Message})
	}
	if len(v.Errors) == 1 && p.Detail != "" {
		v.Errors = nil // the detail says it all
	}
	s.renderCompareForm(c, p.Status, v)
}

// Form fields of one side of the comparison form, after its key ("a_id").
const (
	fieldID   = "_id"
	fieldName = "_name"
	fieldGDL  = "_gdl"
	fieldFile = "_file"
)

// readCompareForm reads the comparison form into a request and into the
// view that shows it again.
func (s *Server) readCompareForm(c *gin.Context) (gamequiv.ComparisonRequest, web.CompareView, error) {
	var v web.CompareView
	r := c.Request
	var err error
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		err = r.ParseMultipartForm(s.limits.MaxBody)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return gamequiv.ComparisonRequest{}, v, err
		}
		return gamequiv.ComparisonRequest{}, v, &gamequiv.Error{Code: CodeInvalid, Message: "cannot read the form", Err: err}
	}
	if r.MultipartForm != nil {
		defer r.MultipartForm.RemoveAll()
	}
	v.TimeoutSeconds = strings.TrimSpace(r.PostFormValue("timeout_seconds"))

	var req gamequiv.ComparisonRequest
	sides := []struct {
		key  string
		view *web.Side
		ref  *gamequiv.GameRef
	}{{"a", &v.A, &req.A}, {"b", &v.B, &req.B}}
	var first error
	for _, sd := range sides {
		if err := s.readSide(r, sd.key, sd.view, sd.ref); err != nil && first == nil {
			first = &gamequiv.SideError{Side: sd.key, Err: err}
		}
	}
	if first != nil {
		return req, v, first
	}
	if v.TimeoutSeconds != "" {
		secs, err := strconv.ParseInt(v.TimeoutSeconds, 10, 64)
		if err != nil || secs <= 0 || secs > int64(24*time.Hour/time.Second) {
			return req, v, gamequiv.Errorf(CodeInvalid, "time limit %q: want a whole number of seconds between 1 and 86400", v.TimeoutSeconds)
		}
		req.Limits = &gamequiv.JobLimits{TimeoutMs: secs * 1000}
	}
	return req, v, nil
}

// readSide reads one side of the comparison form: a stored game, or a
// description pasted or uploaded.
func (s *Server) readSide(r *http.Request, key string, v *web.Side, ref *gamequiv.GameRef) error {
	v.Name = r.PostFormValue(key + fieldName)
	v.GDL = r.PostFormValue(key + fieldGDL)
	if raw := strings.TrimSpace(r.PostFormValue(key + fieldID)); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			return gamequiv.Errorf(CodeInvalid, "game %s: stored game %q: want a game id", key, raw)
		}
		v.ID = id
	}
	var upload []byte
	var uploadName string
	if r.MultipartForm != nil {
		if fhs := r.MultipartForm.File[key+fieldFile]; len(fhs) > 0 && fhs[0].Size > 0 {
			b, err := readUpload(fhs[0], s.limits.MaxBody)
			if err != nil {
				return err
			}
			upload, uploadName = b, fhs[0].Filename
		}
	}
	pasted := strings.TrimSpace(v.GDL) != ""
	upper := strings.ToUpper(key)
	switch {
	case upload != nil && pasted:
		return gamequiv.Errorf(CodeInvalid, "game %s: paste a description or upload a file, not both", upper)
	case v.ID != 0 && (upload != nil || pasted):
		return gamequiv.Errorf(CodeInvalid, "game %s: pick a stored game or give a description, not both", upper)
	case v.ID != 0:
		*ref = gamequiv.GameRef{ID: v.ID}
		return nil
	case upload == nil && !pasted:
		return gamequiv.Errorf(CodeInvalid, "game %s: pick a stored game or give a description", upper)
	}
	gdl := v.GDL
	if upload != nil {
		gdl = string(upload)
		if strings.TrimSpace(v.Name) == "" {
			v.Name = strings.TrimSuffix(path.Base(uploadName), path.Ext(uploadName))
		}
	}
	*ref = gamequiv.GameRef{Inline: &gamequiv.GameUpload{Name: v.Name, GDL: []byte(gdl)}}
	return nil
}

// readUpload reads an uploaded description of at most limit bytes.
func readUpload(fh *multipart.FileHeader, limit int64) ([]byte, error) {
	if fh.Size > limit {
		return nil, gamequiv.Errorf(CodeTooLarge, "file %s: %d bytes; a game description may have at most %d bytes", fh.Filename, fh.Size, limit)
	}
	f, err := fh.Open()
	if err != nil {
		return nil, fmt.Errorf("open upload: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read upload: %w", err)
	}
	return b, nil
}

// gameView is a game for the pages. Its stats are the document addGame
// stored; one that does not decode shows as empty.
func gameView(g *gamequiv.Game) web.Game {
	v := web.Game{
		ID:            g.ID,
		Name:          g.Name,
		SHA256:        g.SHA256,
		ClassID:       g.ClassID,
		AnalysisError: g.Error,
		CreatedAt:     g.CreatedAt,
		Owner:         g.Owner,
	}
	if len(g.Stats) > 0 {
		_ = json.Unmarshal(g.Stats, &v.Stats)
	}
	return v
}

func comparisonViews(cs []gamequiv.Comparison) []web.Comparison {
	out := make([]web.Comparison, len(cs))
	for i := range cs {
		out[i] = comparisonView(&cs[i])
	}
	return out
}

// comparisonView is a comparison for the pages: status and progress as
// the JSON API reports them (newComparisonJSON), and the report.
func comparisonView(cmp *gamequiv.Comparison) web.Comparison {
	j := newComparisonJSON(cmp)
	v := web.Comparison{
		ID:              j.ID,
		A:               j.A,
		B:               j.B,
		Status:          string(j.Status),
		Phase:           j.Progress.Phase,
		Candidates:      j.Progress.Candidates,
		Fraction:        j.Progress.Fraction,
		Verdict:         j.Verdict,
		Error:           j.Error,
		Limits:          string(j.Limits),
		CancelRequested: j.CancelRequested,
		Owner:           j.Owner,
		Attempts:        j.Attempts,
		CreatedAt:       cmp.CreatedAt,
		StartedAt:       cmp.StartedAt,
		FinishedAt:      cmp.FinishedAt,
	}
	if len(cmp.Result) == 0 {
		return v
	}
	var rep equiv.Report
	if err := json.Unmarshal(cmp.Result, &rep); err != nil {
		return v
	}
	v.Reason, v.Limit, v.LimitHint = rep.Reason, rep.Limit, limitHint(rep.Limit)
	if v.Verdict == "" {
		v.Verdict = string(rep.Verdict)
	}
	if rep.Mapping != nil {
		m := mappingView(rep.Mapping)
		v.Mapping = &m
	}
	v.Stats = statsView(rep.Stats)
	return v
}

func mappingView(m *equiv.Mapping) web.Mapping {
	return web.NewMapping(m.Roles, m.Propositions, m.Actions)
}

// phaseOrder is the order of the pipeline steps in Stats.PhaseMs.
var phaseOrder = []string{"ground", "graph", "search", "verify"}

func statsView(st equiv.Stats) *web.Stats {
	v := &web.Stats{
		Candidates: st.Candidates,
		SATCalls:   st.SATCalls,
		Nodes:      st.Nodes,
		Edges:      st.Edges,
		Functions:  st.Functions,
	}
	var names []string
	for name := range st.PhaseMs {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		ia, ib := slices.Index(phaseOrder, a), slices.Index(phaseOrder, b)
		if ia < 0 {
			ia = len(phaseOrder)
		}
		if ib < 0 {
			ib = len(phaseOrder)
		}
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
	for _, name := range names {
		v.Phases = append(v.Phases, web.Phase{Name: name, Ms: st.PhaseMs[name]})
	}
	return v
}

func symmetriesView(rep *equiv.SymmetryReport, b *board.Board) *web.Symmetries {
	v := &web.Symmetries{Order: rep.Order, RoleSymmetric: rep.RoleSymmetric, Candidates: rep.Candidates, GraphOrder: rep.GraphOrder}
	for i, g := range rep.Generators {
		if g != nil {
			v.Generators = append(v.Generators, generatorView(i, g, b))
		}
	}
	return v
}
