// Package board finds the board of a game in its state propositions, so
// that pages can draw states, mappings and symmetries on it.
//
// The method is that of invariant projections (Mohapatra, Decoster and
// Genesereth, "Invariant Projections in Games"): a projection <r, S> of a
// relation r onto a set S of its argument positions is invariant when, in
// every reachable state, the true propositions of r projected onto S give
// exactly the projection of all state propositions of r. In Tic-tac-toe,
// <cell, {1,2}> is invariant (every cell always holds some mark, "b" for
// blank) while <cell, {1,3}> is not. The positions of a maximal invariant
// projection are the board's coordinates; the other positions are the
// contents of a cell.
//
// Deciding invariance exactly is Pi-2-complete (the paper, Theorem 1). This
// package checks invariance and keys on the states it is given, the
// initial state and states of random playouts in practice: a sample can
// accept a projection that some unexplored state breaks, never rejects a
// true one. The board
// is only a drawing aid; nothing that decides equivalence reads it.
//
// Nothing here reads symbol names: relations and arguments are compared
// for equality only, and coordinate values are ordered numerically when
// they are all integers, else by their text, for display.
package board

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gamequiv/gamequiv/grounding"
)

// Limits of the detection.
const (
	// MinCells is the fewest cells a board has; smaller projections are
	// not worth drawing.
	MinCells = 3
	// MinFill is the least fraction of the rows x columns grid of a
	// two-dimensional board whose cells exist.
	MinFill = 0.5
	// MaxArity bounds the arity of the relations considered (the subsets
	// of positions are enumerated).
	MaxArity = 8
	// MaxCells bounds the cells of a board that is drawn.
	MaxCells = 1024
)

// Board is the board of a game: a relation whose arguments at Coords name
// a cell and whose other arguments (Contents) name what the cell holds.
type Board struct {
	// Relation is the relation of the board's propositions; Arity its
	// number of arguments.
	Relation string
	Arity    int
	// Coords are the coordinate positions (0-based), one or two: the first
	// indexes rows, the second columns. Contents are the other positions.
	Coords   []int
	Contents []int
	// Rows and Cols are the coordinate values in display order. A
	// one-dimensional board has one row, named "".
	Rows, Cols []string
	// Values are the contents a cell can hold, sorted; a content of
	// several arguments is their texts joined by a space.
	Values []string
	// Full is set when every cell holds something in every state (the
	// coordinates are an invariant projection); else a cell holds at most
	// one thing (they are a key) and may be empty.
	Full bool

	cells map[Cell]bool
	props map[string]Square // proposition -> cell and content
}

// Cell is a square of a board by row and column index.
type Cell struct{ Row, Col int }

// Square is a proposition of the board: the cell and what it holds there.
type Square struct {
	Cell    Cell
	Content string
}

// Has reports whether the board has cell c (a grid may have holes).
func (b *Board) Has(c Cell) bool { return b.cells[c] }

// NumCells is the number of cells of the board.
func (b *Board) NumCells() int { return len(b.cells) }

// Dims is the number of coordinates: 1 or 2.
func (b *Board) Dims() int { return len(b.Coords) }

// Square returns the cell and content of a state proposition, and false
// for propositions that are not of the board.
func (b *Board) Square(prop string) (Square, bool) {
	s, ok := b.props[prop]
	return s, ok
}

// Name names a cell by its coordinate values, "1,3" or "7".
func (b *Board) Name(c Cell) string {
	if b.Dims() == 1 {
		return b.Cols[c.Col]
	}
	return b.Rows[c.Row] + "," + b.Cols[c.Col]
}

// Cells lists the cells of the board, row by row.
func (b *Board) Cells() []Cell {
	out := make([]Cell, 0, len(b.cells))
	for r := range b.Rows {
		for c := range b.Cols {
			if b.cells[Cell{r, c}] {
				out = append(out, Cell{r, c})
			}
		}
	}
	return out
}

// Occupants returns what each cell holds in a state given by its true
// propositions; a cell may hold several contents if the state is odd.
func (b *Board) Occupants(state []string) map[Cell][]string {
	out := map[Cell][]string{}
	for _, p := range state {
		if s, ok := b.props[p]; ok {
			out[s.Cell] = append(out[s.Cell], s.Content)
		}
	}
	return out
}

// group is the state propositions of one relation and arity.
type group struct {
	rel   string
	arity int
	props []string
	args  [][]string
}

// projection is a set of argument positions of a group, with the
// projection of each of its propositions interned as a small integer.
type projection struct {
	g     *group
	pos   []int
	ids   []int32 // ids[i]: the projection of g.props[i]
	n     int     // distinct projections over all propositions
	cells int
	// invariant: every state holds all n projections; key: no state holds
	// two propositions with the same projection.
	invariant, key bool
}

// Detect finds the board among the state propositions props, testing its
// coordinates on states (each a list of the propositions true in it; the
// initial state should be among them). It returns nil when nothing makes
// a board.
//
// A board is a relation r and one or two of its argument positions C, the
// coordinates, such that either
//   - <r, C> is a maximal invariant projection: every state has something
//     in every cell (a full board, as Tic-tac-toe's blanks make it), or
//   - C is a minimal key of r: no state has two things in one cell (a
//     sparse board, whose empty cells have no proposition, as in
//     Breakthrough or Connect Four);
//
// with at least MinCells cells, contents that take two values or more, and
// a grid at least MinFill full. Full boards come before sparse ones; then
// the board with the most cells, then the one with two coordinates, then
// the one with more propositions; remaining ties go to the relation and
// positions that sort first, so the answer is deterministic.
func Detect(props []string, states [][]string) *Board {
	if len(states) == 0 {
		return nil
	}
	groups := map[string]*group{}
	var keys []string
	type ref struct {
		g *group
		i int
	}
	where := map[string]ref{}
	for _, p := range props {
		rel, args, ok := grounding.SplitProp(p)
		if !ok || len(args) < 2 || len(args) > MaxArity {
			continue
		}
		if _, dup := where[p]; dup {
			continue
		}
		key := rel + "/" + strconv.Itoa(len(args))
		g := groups[key]
		if g == nil {
			g = &group{rel: rel, arity: len(args)}
			groups[key] = g
			keys = append(keys, key)
		}
		where[p] = ref{g, len(g.props)}
		g.props = append(g.props, p)
		g.args = append(g.args, args)
	}
	slices.Sort(keys)
	var projs []*projection
	byGroup := map[*group][]*projection{}
	for _, k := range keys {
		g := groups[k]
		for mask := 1; mask < 1<<g.arity-1; mask++ {
			pos := positions(mask, g.arity)
			if len(pos) > 2 {
				continue
			}
			pr := newProjection(g, pos)
			projs = append(projs, pr)
			byGroup[g] = append(byGroup[g], pr)
		}
	}
	// Test every projection on every state: the propositions of each
	// group true in the state, then their projections.
	seen := map[*projection][]int{}
	for _, pr := range projs {
		seen[pr] = make([]int, pr.n)
	}
	trueOf := map[*group][]int{}
	for si, st := range states {
		clear(trueOf)
		for _, p := range st {
			if r, ok := where[p]; ok {
				trueOf[r.g] = append(trueOf[r.g], r.i)
			}
		}
		stamp := si + 1
		for _, pr := range projs {
			if !pr.invariant && !pr.key {
				continue
			}
			marks, distinct := seen[pr], 0
			for _, i := range trueOf[pr.g] {
				id := pr.ids[i]
				if marks[id] == stamp {
					pr.key = false
					continue
				}
				marks[id] = stamp
				distinct++
			}
			if distinct != pr.n {
				pr.invariant = false
			}
		}
	}
	var best *candidate
	for _, k := range keys {
		for _, c := range candidates(byGroup[groups[k]]) {
			if best == nil || better(c, best) {
				best = c
			}
		}
	}
	if best == nil {
		return nil
	}
	return build(best)
}

func newProjection(g *group, pos []int) *projection {
	pr := &projection{g: g, pos: pos, ids: make([]int32, len(g.props)), invariant: true, key: true}
	intern := map[string]int32{}
	for i, args := range g.args {
		k := key(args, pos)
		id, ok := intern[k]
		if !ok {
			id = int32(len(intern))
			intern[k] = id
		}
		pr.ids[i] = id
	}
	pr.n = len(intern)
	pr.cells = pr.n
	return pr
}

// candidate is a projection that could be drawn as a board.
type candidate struct {
	g      *group
	coords []int
	cells  int
	full   bool // an invariant projection, not only a key
}

// better orders candidates as Detect documents.
func better(c, d *candidate) bool {
	if c.full != d.full {
		return c.full
	}
	if c.cells != d.cells {
		return c.cells > d.cells
	}
	if len(c.coords) != len(d.coords) {
		return len(c.coords) > len(d.coords)
	}
	if len(c.g.props) != len(d.g.props) {
		return len(c.g.props) > len(d.g.props)
	}
	return false // the earlier one (relation, then positions) stays
}

// candidates returns the boards of one group's tested projections: the
// maximal invariant ones, and the minimal keys.
func candidates(projs []*projection) []*candidate {
	var out []*candidate
	for _, pr := range projs {
		full := pr.invariant
		if full {
			for _, q := range projs {
				if q.invariant && len(q.pos) > len(pr.pos) && subset(pr.pos, q.pos) {
					full = false // not maximal
					break
				}
			}
		}
		sparse := pr.key
		if sparse {
			for _, q := range projs {
				if q.key && len(q.pos) < len(pr.pos) && subset(q.pos, pr.pos) {
					sparse = false // not minimal
					break
				}
			}
		}
		if !full && !sparse {
			continue
		}
		c := &candidate{g: pr.g, coords: pr.pos, cells: pr.cells, full: full}
		if drawable(c) {
			out = append(out, c)
		}
	}
	return out
}

// drawable checks the shape rules of Detect.
func drawable(c *candidate) bool {
	if c.cells < MinCells || c.cells > MaxCells {
		return false
	}
	rest := complement(c.coords, c.g.arity)
	if len(project(c.g, rest)) < 2 {
		return false
	}
	if len(c.coords) == 2 {
		rows := len(project(c.g, c.coords[:1]))
		cols := len(project(c.g, c.coords[1:]))
		if rows < 2 || cols < 2 || float64(c.cells) < MinFill*float64(rows*cols) {
			return false
		}
	}
	return true
}

// project returns the set of projections onto pos of g's propositions.
func project(g *group, pos []int) map[string]bool {
	out := map[string]bool{}
	for _, args := range g.args {
		out[key(args, pos)] = true
	}
	return out
}

// key joins the arguments at pos with a space, which no argument text
// holds at its top level.
func key(args []string, pos []int) string {
	parts := make([]string, len(pos))
	for i, p := range pos {
		parts[i] = args[p]
	}
	return strings.Join(parts, " ")
}

func positions(mask, n int) []int {
	var out []int
	for i := range n {
		if mask&(1<<i) != 0 {
			out = append(out, i)
		}
	}
	return out
}

func complement(pos []int, n int) []int {
	var out []int
	for i := range n {
		if !slices.Contains(pos, i) {
			out = append(out, i)
		}
	}
	return out
}

func subset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// build lays out the board of a candidate.
func build(c *candidate) *Board {
	g := c.g
	b := &Board{
		Relation: g.rel,
		Arity:    g.arity,
		Coords:   c.coords,
		Contents: complement(c.coords, g.arity),
		Full:     c.full,
		cells:    map[Cell]bool{},
		props:    map[string]Square{},
	}
	if len(c.coords) == 1 {
		b.Rows = []string{""}
		b.Cols = sortValues(project(g, c.coords))
	} else {
		b.Rows = sortValues(project(g, c.coords[:1]))
		b.Cols = sortValues(project(g, c.coords[1:]))
	}
	b.Values = sortValues(project(g, b.Contents))
	for i, args := range g.args {
		var cell Cell
		if len(c.coords) == 1 {
			cell.Col = slices.Index(b.Cols, args[c.coords[0]])
		} else {
			cell.Row = slices.Index(b.Rows, args[c.coords[0]])
			cell.Col = slices.Index(b.Cols, args[c.coords[1]])
		}
		b.cells[cell] = true
		b.props[g.props[i]] = Square{Cell: cell, Content: key(args, b.Contents)}
	}
	return b
}

// sortValues sorts a set of argument texts: numerically when all are
// integers, else by text.
func sortValues(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	numeric := true
	for v := range set {
		out = append(out, v)
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			numeric = false
		}
	}
	if numeric {
		slices.SortFunc(out, func(a, b string) int {
			x, _ := strconv.ParseInt(a, 10, 64)
			y, _ := strconv.ParseInt(b, 10, 64)
			return cmp.Compare(x, y)
		})
	} else {
		slices.Sort(out)
	}
	return out
}

// Transfer is a mapping of game A's board to game B's board: where each
// cell goes and what each content becomes.
type Transfer struct {
	Cells    map[Cell]Cell
	Contents map[string]string
}

// Map reads a proposition mapping (A's propositions to B's) as a mapping
// of board a to board b. It fails, saying why, when the mapping does not
// respect the boards: a proposition of a's board maps outside b's board,
// the contents of one cell go to different cells, or one content becomes
// different contents in different cells. a and b may be the same board
// (a symmetry).
func Map(a, b *Board, props map[string]string) (*Transfer, error) {
	return transfer(a, b, props, false)
}

// MapSymmetry is Map for a symmetry of board b written by what it moves:
// a proposition of the board that moved does not name maps to itself.
func MapSymmetry(b *Board, moved map[string]string) (*Transfer, error) {
	return transfer(b, b, moved, true)
}

func transfer(a, b *Board, props map[string]string, fixUnnamed bool) (*Transfer, error) {
	t := &Transfer{Cells: map[Cell]Cell{}, Contents: map[string]string{}}
	names := make([]string, 0, len(a.props))
	for p := range a.props {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		sa := a.props[p]
		img, ok := props[p]
		switch {
		case !ok && fixUnnamed:
			img = p
		case !ok:
			return nil, fmt.Errorf("the mapping does not name %s", p)
		}
		sb, ok := b.props[img]
		if !ok {
			return nil, fmt.Errorf("%s maps to %s, which is not on the board", p, img)
		}
		if c, ok := t.Cells[sa.Cell]; ok && c != sb.Cell {
			return nil, fmt.Errorf("cell %s maps to both %s and %s", a.Name(sa.Cell), b.Name(c), b.Name(sb.Cell))
		}
		t.Cells[sa.Cell] = sb.Cell
		if v, ok := t.Contents[sa.Content]; ok && v != sb.Content {
			return nil, fmt.Errorf("content %s maps to both %s and %s", sa.Content, v, sb.Content)
		}
		t.Contents[sa.Content] = sb.Content
	}
	return t, nil
}
