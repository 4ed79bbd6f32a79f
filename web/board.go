package web

import (
	"fmt"
	"math"
	"unicode/utf8"
)

// Board geometry, in SVG user units.
const (
	cellSize   = 56
	axisMargin = 22
	// maxLabelRunes is the longest cell label drawn in full; longer ones
	// are cut, with the whole text in the cell's tooltip.
	maxLabelRunes = 9
)

// BoardCell is one cell to draw: where it is and what it says.
type BoardCell struct {
	// Row and Col index the board's rows and columns.
	Row, Col int
	// Label is the main text, Corner a small note in the top left corner,
	// Title the tooltip (and accessible text) of the cell.
	Label, Corner, Title string
	// Class is a CSS class of the cell: "moved", "fixed" or empty.
	Class string
}

// SVGCell is a cell placed on the drawing.
type SVGCell struct {
	X, Y     int
	Label    string
	FontSize int
	Corner   string
	Title    string
	Class    string
	// CX and CY are the centre; LabelY the baseline of the label.
	CX, CY, LabelY int
}

// SVGText is an axis label.
type SVGText struct {
	X, Y int
	Text string
}

// SVGArrow is an arrow from one cell to another, as SVG path data.
type SVGArrow struct {
	D string
}

// Board is a board drawn as SVG, server-side: the templates only place
// what this computes.
type Board struct {
	// ID is the drawing's id in the page, unique there.
	ID string
	// Title names the drawing for assistive technology.
	Title string
	// Caption is shown under the drawing.
	Caption       string
	Width, Height int
	Cells         []SVGCell
	Axis          []SVGText
	Arrows        []SVGArrow

	left, top int // the margins of the axis labels
}

// NewBoard lays out the drawing id of a board of rows x cols cells (a one-dimensional board
// has one row named "") with the given cells; cells not listed are holes.
func NewBoard(id, title string, rows, cols []string, cells []BoardCell) *Board {
	left, top := 0, axisMargin
	if len(rows) > 1 || (len(rows) == 1 && rows[0] != "") {
		left = axisMargin
	}
	b := &Board{
		ID:     id,
		Title:  title,
		Width:  left + len(cols)*cellSize + 2,
		Height: top + len(rows)*cellSize + 2,
		left:   left,
		top:    top,
	}
	for c, name := range cols {
		b.Axis = append(b.Axis, SVGText{X: left + c*cellSize + cellSize/2, Y: top - 6, Text: clip(name, 6)})
	}
	if left > 0 {
		for r, name := range rows {
			b.Axis = append(b.Axis, SVGText{X: left / 2, Y: top + r*cellSize + cellSize/2 + 5, Text: clip(name, 3)})
		}
	}
	for _, c := range cells {
		x, y := left+c.Col*cellSize+1, top+c.Row*cellSize+1
		label := clip(c.Label, maxLabelRunes)
		size := 20
		switch n := utf8.RuneCountInString(label); {
		case n > 6:
			size = 10
		case n > 3:
			size = 13
		}
		b.Cells = append(b.Cells, SVGCell{
			X: x, Y: y, Label: label, FontSize: size, Corner: clip(c.Corner, 8), Title: c.Title, Class: c.Class,
			CX: x + cellSize/2, CY: y + cellSize/2, LabelY: y + cellSize/2 + size/3 + 3,
		})
	}
	return b
}

// AddArrow draws an arrow from cell (r1, c1) to cell (r2, c2), bent to
// its left so that the arrows of a swap do not overlap.
func (b *Board) AddArrow(r1, c1, r2, c2 int) {
	centre := func(r, c int) (float64, float64) {
		return float64(b.left + c*cellSize + cellSize/2 + 1), float64(b.top + r*cellSize + cellSize/2 + 1)
	}
	x1, y1 := centre(r1, c1)
	x2, y2 := centre(r2, c2)
	dx, dy := x2-x1, y2-y1
	d := math.Hypot(dx, dy)
	if d == 0 {
		return
	}
	// Start and end a little off the centres, and bend by a fifth of the
	// length.
	ux, uy := dx/d, dy/d
	sx, sy := x1+ux*12, y1+uy*12
	ex, ey := x2-ux*14, y2-uy*14
	mx, my := (sx+ex)/2-uy*d/5, (sy+ey)/2+ux*d/5
	b.Arrows = append(b.Arrows, SVGArrow{D: fmt.Sprintf("M%.1f %.1f Q%.1f %.1f %.1f %.1f", sx, sy, mx, my, ex, ey)})
}

// clip cuts s to n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
