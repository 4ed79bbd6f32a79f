package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/board"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/web"
)

// This file turns store and equiv values into the views of package web
// beyond plain copies: names, boards, cycles and progress.

// namedComparisons is comparisonViews with the names of the games, read
// in one query.
func (s *Server) namedComparisons(ctx context.Context, cs []gamequiv.Comparison) ([]web.Comparison, error) {
	out := comparisonViews(cs)
	now := time.Now()
	for i := range cs {
		progressDetail(&out[i], &cs[i], now)
	}
	ids := make([]int64, 0, 2*len(cs))
	for _, c := range cs {
		ids = append(ids, c.GameA, c.GameB)
	}
	slices.Sort(ids)
	names, err := s.store.GameNames(ctx, slices.Compact(ids))
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].NameA, out[i].NameB = names[out[i].A], names[out[i].B]
	}
	return out, nil
}

// searchQuery reads the ?q= search of a list page.
func searchQuery(c *gin.Context) (string, error) { return queryText(c, "q") }

// queryText reads a search parameter: trimmed, at most MaxQueryLen bytes
// of UTF-8.
func queryText(c *gin.Context, name string) (string, error) {
	q := strings.TrimSpace(c.Query(name))
	if !utf8.ValidString(q) || strings.ContainsRune(q, 0) {
		return "", gamequiv.Errorf(CodeInvalid, "search %s: want text", name)
	}
	if len(q) > MaxQueryLen {
		return "", gamequiv.Errorf(CodeInvalid, "search %s: at most %d bytes", name, MaxQueryLen)
	}
	return q, nil
}

// progressDetail adds what the pages show beyond the API's progress: the
// step and sub-progress of the phase, the time spent, and whether the
// worker's lease ran out (the worker died; the job waits for a new one).
func progressDetail(v *web.Comparison, c *gamequiv.Comparison, now time.Time) {
	switch {
	case c.Status == gamequiv.StatusRunning && !c.StartedAt.IsZero():
		v.Elapsed = web.FormatDuration(now.Sub(c.StartedAt))
	case c.Status.Final() && !c.StartedAt.IsZero() && !c.FinishedAt.IsZero():
		v.Elapsed = web.FormatDuration(c.FinishedAt.Sub(c.StartedAt))
	}
	if c.Status != gamequiv.StatusRunning {
		return
	}
	if !c.LeaseUntil.IsZero() && now.After(c.LeaseUntil) {
		v.Stalled, v.LeaseUntil = true, c.LeaseUntil
	}
	if len(c.Progress) == 0 {
		return
	}
	var p equiv.Progress
	if json.Unmarshal(c.Progress, &p) != nil {
		return
	}
	v.Step, v.Done, v.Total, v.Unit = p.Step, max(p.Done, 0), max(p.Total, 0), p.Unit
}

// initialBoard draws the initial state of a game on its board.
func initialBoard(gb *gameBoard) (*web.Board, string) {
	if gb.err != nil {
		return nil, "No board is drawn: " + gb.err.Error() + "."
	}
	b := gb.board
	if b == nil {
		return nil, ""
	}
	occ := b.Occupants(gb.init)
	var cells []web.BoardCell
	for _, c := range b.Cells() {
		held := strings.Join(occ[c], ", ")
		cells = append(cells, web.BoardCell{
			Row: c.Row, Col: c.Col, Label: held, Corner: b.Name(c),
			Title: fmt.Sprintf("cell %s holds %s", b.Name(c), orNothing(held)),
		})
	}
	d := web.NewBoard("board-initial", fmt.Sprintf("The initial state on the %s board", b.Relation), b.Rows, b.Cols, cells)
	d.Caption = boardCaption(b) + " Each cell shows what it holds in the initial state."
	return d, ""
}

func orNothing(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

// boardCaption says how the board was read from the propositions.
func boardCaption(b *board.Board) string {
	where := func(pos []int) string {
		var parts []string
		for _, p := range pos {
			parts = append(parts, fmt.Sprint(p+1))
		}
		return strings.Join(parts, " and ")
	}
	shape := fmt.Sprintf("%d cells in a row", b.NumCells())
	if b.Dims() == 2 {
		shape = fmt.Sprintf("%d rows by %d columns", len(b.Rows), len(b.Cols))
	}
	holds := "what a cell holds"
	if !b.Full {
		holds += " (a cell without a proposition is empty)"
	}
	return fmt.Sprintf("Board of %s: arguments %s of (%s …) are the coordinates, argument %s %s.",
		shape, where(b.Coords), b.Relation, where(b.Contents), holds)
}

// mappingBoards draws a mapping on the boards of its games: each cell of
// A labelled with the cell of B it maps to, each cell of B with the cell
// of A that maps to it, and what the contents become.
func mappingBoards(ga, gb *gameBoard, m *equiv.Mapping) (*web.BoardPair, string) {
	switch {
	case ga.err != nil:
		return nil, "No boards are drawn: game A: " + ga.err.Error() + "."
	case gb.err != nil:
		return nil, "No boards are drawn: game B: " + gb.err.Error() + "."
	case ga.board == nil && gb.board == nil:
		return nil, ""
	case ga.board == nil || gb.board == nil:
		which := "A"
		if gb.board == nil {
			which = "B"
		}
		return nil, fmt.Sprintf("No boards are drawn: no board was found in game %s.", which)
	}
	a, b := ga.board, gb.board
	t, err := board.Map(a, b, m.Propositions)
	if err != nil {
		return nil, "No boards are drawn: the mapping does not carry game A's board onto game B's cell by cell (" + err.Error() + ")."
	}
	from := map[board.Cell]board.Cell{}
	var cellsA, cellsB []web.BoardCell
	for _, c := range a.Cells() {
		to := t.Cells[c]
		from[to] = c
		cellsA = append(cellsA, web.BoardCell{Row: c.Row, Col: c.Col, Label: b.Name(to), Corner: a.Name(c),
			Title: fmt.Sprintf("cell %s of game A maps to cell %s of game B", a.Name(c), b.Name(to))})
	}
	for _, c := range b.Cells() {
		bc := web.BoardCell{Row: c.Row, Col: c.Col, Label: b.Name(c), Title: fmt.Sprintf("cell %s of game B", b.Name(c))}
		if f, ok := from[c]; ok {
			bc.Corner = a.Name(f)
			bc.Title += " is the image of cell " + a.Name(f) + " of game A"
		}
		cellsB = append(cellsB, bc)
	}
	pair := &web.BoardPair{
		A: web.NewBoard("board-a", "Game A's board, each cell labelled with the cell of game B it maps to", a.Rows, a.Cols, cellsA),
		B: web.NewBoard("board-b", "Game B's board, each cell with the cell of game A that maps to it in the corner", b.Rows, b.Cols, cellsB),
	}
	pair.A.Caption = "Game A. Large: the cell of game B each cell maps to; small: the cell itself."
	pair.B.Caption = "Game B. Large: the cell; small: the cell of game A that maps to it."
	pair.Contents = web.Pairs(t.Contents)
	return pair, ""
}

// generatorView writes a symmetry in cycle notation on what it moves, and
// draws it on the board when it moves the board cell by cell.
func generatorView(i int, m *equiv.Mapping, b *board.Board) web.Generator {
	g := web.Generator{Roles: web.Cycles(m.Roles), Propositions: web.Cycles(m.Propositions)}
	acts := map[string]string{}
	for r, as := range m.Actions {
		to := m.Roles[r]
		if to == "" {
			to = r
		}
		for x, y := range as {
			acts[r+" "+x] = to + " " + y
		}
	}
	g.Actions = web.Cycles(acts)
	if b == nil {
		return g
	}
	t, err := board.MapSymmetry(b, m.Propositions)
	if err != nil {
		return g
	}
	cells, contents := map[string]string{}, map[string]string{}
	var drawn []web.BoardCell
	for _, c := range b.Cells() {
		to := t.Cells[c]
		cells[b.Name(c)] = b.Name(to)
		bc := web.BoardCell{Row: c.Row, Col: c.Col, Label: b.Name(c), Class: "fixed", Title: "cell " + b.Name(c) + " stays"}
		if to != c {
			bc.Class, bc.Title = "moved", fmt.Sprintf("cell %s goes to %s", b.Name(c), b.Name(to))
		}
		drawn = append(drawn, bc)
	}
	for x, y := range t.Contents {
		contents[x] = y
	}
	g.Cells, g.Contents = web.Cycles(cells), web.Cycles(contents)
	g.Board = web.NewBoard(fmt.Sprintf("generator-%d", i+1), "The symmetry on the board: arrows lead each moved cell to its image", b.Rows, b.Cols, drawn)
	for _, c := range b.Cells() {
		if to := t.Cells[c]; to != c {
			g.Board.AddArrow(c.Row, c.Col, to.Row, to.Col)
		}
	}
	return g
}

// symmetryProblem says why the symmetries could not be computed on a
// page, and what to do; internal errors are logged here, once.
func (s *Server) symmetryProblem(c *gin.Context, err error) (msg, hint string) {
	p, _ := problemFor(err)
	switch p.Code {
	case CodeLimit:
		return p.Detail, "The game is beyond a limit of the server. Run `gamequiv symmetries` on the command line with larger limits (see `gamequiv symmetries -h`)."
	case CodeUnavailable:
		return fmt.Sprintf("The computation did not finish within the %v a page request may take.", s.computeTimeout),
			"Try again when the server is less busy, or run `gamequiv symmetries` on the command line, which has no request time limit."
	case CodeInternal:
		s.log.LogAttrs(c.Request.Context(), slog.LevelError, "symmetries on a page",
			slog.String("route", route(c)), slog.Any("err", err))
		return "An internal error stopped the computation.", "Report it with the request id at the foot of this page."
	}
	return p.Detail, "Check the game description; the same error comes from GET /api/v1/games/{id}/symmetries."
}

// limitHint says what to do about the limit that made a verdict unknown.
func limitHint(limit string) string {
	switch {
	case limit == "":
		return ""
	case limit == "Timeout":
		return "Submit the comparison again with a larger time limit (the form's time limit, or limits.timeout_ms in the API), up to the server's own limit; or run `gamequiv compare -timeout` on the command line."
	case strings.HasSuffix(limit, "MaxCandidates"):
		return "Submit it again with a larger limits.max_candidates, up to the server's own limit, or run `gamequiv compare -max-candidates` on the command line."
	}
	return "This limit is a setting of the server; run `gamequiv compare` on the command line, whose limits can be raised (see `gamequiv compare -h`)."
}
