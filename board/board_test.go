package board_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/board"
	"github.com/gamequiv/gamequiv/grounding"
)

// ticTacToe returns the state propositions of Tic-tac-toe, its initial
// state and a later state.
func ticTacToe() (props []string, states [][]string) {
	var init, later []string
	for i := 1; i <= 3; i++ {
		for j := 1; j <= 3; j++ {
			for _, c := range []string{"b", "o", "x"} {
				p := fmt.Sprintf("(cell %d %d %s)", i, j, c)
				props = append(props, p)
				if c == "b" {
					init = append(init, p)
				}
				if (i == 2 && j == 2 && c == "x") || (i == 1 && j == 3 && c == "o") || (c == "b" && !(i == 2 && j == 2) && !(i == 1 && j == 3)) {
					later = append(later, p)
				}
			}
		}
	}
	props = append(props, "(control oplayer)", "(control xplayer)")
	init = append(init, "(control xplayer)")
	later = append(later, "(control xplayer)")
	return props, [][]string{init, later}
}

// numberScrabble returns the state propositions of Number Scrabble
// (sum15) and two states.
func numberScrabble() (props []string, states [][]string) {
	var init, later []string
	for n := 1; n <= 9; n++ {
		for _, c := range []string{"available", "black", "white"} {
			p := fmt.Sprintf("(num %d %s)", n, c)
			props = append(props, p)
			if c == "available" {
				init = append(init, p)
				if n != 5 {
					later = append(later, p)
				}
			}
			if n == 5 && c == "white" {
				later = append(later, p)
			}
		}
	}
	props = append(props, "(control black)", "(control white)")
	return props, [][]string{append(init, "(control white)"), append(later, "(control black)")}
}

func TestDetectTicTacToe(t *testing.T) {
	props, states := ticTacToe()
	b := board.Detect(props, states)
	if b == nil {
		t.Fatal("Detect(ticTacToe) = nil, want the cell board")
	}
	if b.Relation != "cell" || !slices.Equal(b.Coords, []int{0, 1}) || !slices.Equal(b.Contents, []int{2}) {
		t.Errorf("Detect(ticTacToe) = %s coords %v contents %v, want cell [0 1] [2]", b.Relation, b.Coords, b.Contents)
	}
	if !slices.Equal(b.Rows, []string{"1", "2", "3"}) || !slices.Equal(b.Cols, []string{"1", "2", "3"}) || !slices.Equal(b.Values, []string{"b", "o", "x"}) {
		t.Errorf("rows %v cols %v values %v", b.Rows, b.Cols, b.Values)
	}
	if b.NumCells() != 9 || b.Dims() != 2 || !b.Full {
		t.Errorf("NumCells %d Dims %d, want 9 and 2", b.NumCells(), b.Dims())
	}
	sq, ok := b.Square("(cell 1 3 o)")
	if !ok || sq.Cell != (board.Cell{Row: 0, Col: 2}) || sq.Content != "o" || b.Name(sq.Cell) != "1,3" {
		t.Errorf("Square((cell 1 3 o)) = %+v %v", sq, ok)
	}
	if _, ok := b.Square("(control xplayer)"); ok {
		t.Error("control is on the board")
	}
	occ := b.Occupants(states[1])
	if got := occ[board.Cell{Row: 1, Col: 1}]; !slices.Equal(got, []string{"x"}) {
		t.Errorf("Occupants(later)[2,2] = %v, want [x]", got)
	}
}

// A projection that holds in the initial state can fail later: here every
// square is occupied at first and a capture empties one. The sample of
// states decides.
func TestDetectNeedsReachableStates(t *testing.T) {
	var props []string
	for n := 1; n <= 4; n++ {
		props = append(props, fmt.Sprintf("(at %d x)", n), fmt.Sprintf("(at %d o)", n))
	}
	init := []string{"(at 1 x)", "(at 2 o)", "(at 3 x)", "(at 4 o)"}
	if b := board.Detect(props, [][]string{init}); b == nil || b.NumCells() != 4 || !b.Full {
		t.Fatalf("Detect(initial state only) = %+v, want a full board of 4 cells", b)
	}
	// After the capture the square is empty: the board is sparse.
	later := []string{"(at 1 x)", "(at 3 x)", "(at 4 o)"}
	if b := board.Detect(props, [][]string{init, later}); b == nil || b.NumCells() != 4 || b.Full {
		t.Errorf("Detect(with a capture) = %+v, want a sparse board of 4 cells", b)
	}
	// Two things in one square: neither invariant nor a key, no board.
	odd := []string{"(at 1 x)", "(at 1 o)"}
	if b := board.Detect(props, [][]string{init, later, odd}); b != nil {
		t.Errorf("Detect(two in a square) = %+v, want nil", b)
	}
}

// The board does not depend on names or argument order: renaming every
// symbol and moving the content first gives the same shape.
func TestDetectRenamedAndPermuted(t *testing.T) {
	props, states := ticTacToe()
	rename := func(p string) string {
		rel, args, _ := grounding.SplitProp(p)
		if rel != "cell" {
			return "(turn " + strings.Join(args, " ") + ")"
		}
		r := strings.NewReplacer("1", "a", "2", "b", "3", "c", "x", "cross", "o", "nought")
		return fmt.Sprintf("(sq %s %s %s)", r.Replace(args[2]), r.Replace(args[0]), r.Replace(args[1]))
	}
	var rp []string
	for _, p := range props {
		rp = append(rp, rename(p))
	}
	var rs [][]string
	for _, st := range states {
		var s []string
		for _, p := range st {
			s = append(s, rename(p))
		}
		rs = append(rs, s)
	}
	b := board.Detect(rp, rs)
	if b == nil || b.Relation != "sq" || !slices.Equal(b.Coords, []int{1, 2}) || !slices.Equal(b.Contents, []int{0}) {
		t.Fatalf("Detect(renamed) = %+v", b)
	}
	if !slices.Equal(b.Rows, []string{"a", "b", "c"}) {
		t.Errorf("rows %v", b.Rows)
	}
}

func TestDetectNumberScrabble(t *testing.T) {
	props, states := numberScrabble()
	b := board.Detect(props, states)
	if b == nil || b.Relation != "num" || b.Dims() != 1 || b.NumCells() != 9 {
		t.Fatalf("Detect(numberScrabble) = %+v", b)
	}
	if !slices.Equal(b.Cols, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}) || b.Name(board.Cell{Col: 4}) != "5" {
		t.Errorf("cols %v", b.Cols)
	}
}

var noBoardTests = []struct {
	name   string
	props  []string
	states [][]string
}{
	{"NoStates", []string{"(cell 1 1 x)"}, nil},
	{"Unary", []string{"(step 1)", "(step 2)", "(step 3)"}, [][]string{{"(step 1)"}, {"(step 2)"}}},
	// <at,{1}> changes and a square holds two things at once.
	{"NeitherInvariantNorKey", []string{"(at 1 x)", "(at 2 x)", "(at 3 x)", "(at 1 o)", "(at 2 o)", "(at 3 o)"},
		[][]string{{}, {"(at 1 x)", "(at 1 o)"}}},
	// Too few cells.
	{"Small", []string{"(c 1 x)", "(c 1 o)", "(c 2 x)", "(c 2 o)"}, [][]string{{"(c 1 x)", "(c 2 x)"}}},
	// Contents that never vary: the relation is a constant.
	{"OneValue", []string{"(c 1 x)", "(c 2 x)", "(c 3 x)"}, [][]string{{"(c 1 x)", "(c 2 x)", "(c 3 x)"}}},
}

func TestDetectNoBoard(t *testing.T) {
	for _, tc := range noBoardTests {
		t.Run(tc.name, func(t *testing.T) {
			if b := board.Detect(tc.props, tc.states); b != nil {
				t.Errorf("Detect = %+v, want nil", b)
			}
		})
	}
}

// magic is the mapping of Tic-tac-toe to Number Scrabble through the
// magic square 2 7 6 / 9 5 1 / 4 3 8.
func magic() map[string]string {
	square := [3][3]int{{2, 7, 6}, {9, 5, 1}, {4, 3, 8}}
	contents := map[string]string{"x": "white", "o": "black", "b": "available"}
	m := map[string]string{"(control xplayer)": "(control white)", "(control oplayer)": "(control black)"}
	for i := range 3 {
		for j := range 3 {
			for c, d := range contents {
				m[fmt.Sprintf("(cell %d %d %s)", i+1, j+1, c)] = fmt.Sprintf("(num %d %s)", square[i][j], d)
			}
		}
	}
	return m
}

func TestMapMagicSquare(t *testing.T) {
	pa, sa := ticTacToe()
	pb, sb := numberScrabble()
	a, b := board.Detect(pa, sa), board.Detect(pb, sb)
	tr, err := board.Map(a, b, magic())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range a.Cells() {
		got = append(got, b.Name(tr.Cells[c]))
	}
	if want := []string{"2", "7", "6", "9", "5", "1", "4", "3", "8"}; !slices.Equal(got, want) {
		t.Errorf("cells map to %v, want %v", got, want)
	}
	if tr.Contents["x"] != "white" || tr.Contents["b"] != "available" {
		t.Errorf("contents %v", tr.Contents)
	}
}

func TestMapRejects(t *testing.T) {
	pa, sa := ticTacToe()
	pb, sb := numberScrabble()
	a, b := board.Detect(pa, sa), board.Detect(pb, sb)
	m := magic()
	m["(cell 1 1 x)"] = "(num 7 white)" // cell 1,1 now splits
	if _, err := board.Map(a, b, m); err == nil || !strings.Contains(err.Error(), "cell 1,1") {
		t.Errorf("Map(split cell) error = %v", err)
	}
	m = magic()
	m["(cell 1 1 x)"] = "(control white)"
	if _, err := board.Map(a, b, m); err == nil || !strings.Contains(err.Error(), "not on the board") {
		t.Errorf("Map(off board) error = %v", err)
	}
	m = magic()
	delete(m, "(cell 2 2 o)")
	if _, err := board.Map(a, b, m); err == nil {
		t.Error("Map(partial) = nil error")
	}
	// A content that changes from cell to cell.
	m = magic()
	m["(cell 1 1 x)"], m["(cell 1 1 o)"] = "(num 2 black)", "(num 2 white)"
	if _, err := board.Map(a, b, m); err == nil || !strings.Contains(err.Error(), "content") {
		t.Errorf("Map(inconsistent content) error = %v", err)
	}
}

// breakthrough returns a sparse board: pieces on a 3x4 grid, empty cells
// without propositions, and a state after a capture.
func breakthrough() (props []string, states [][]string) {
	var init []string
	for x := 1; x <= 3; x++ {
		for y := 1; y <= 4; y++ {
			for _, c := range []string{"black", "white"} {
				p := fmt.Sprintf("(cellholds %d %d %s)", x, y, c)
				props = append(props, p)
				if (y == 1 && c == "white") || (y == 4 && c == "black") {
					init = append(init, p)
				}
			}
		}
	}
	props = append(props, "(control black)", "(control white)")
	// Column 2 and row 2 are empty now: no projection onto the cells is
	// invariant.
	later := []string{"(cellholds 1 1 white)", "(cellholds 3 3 white)", "(cellholds 3 1 white)", "(cellholds 1 4 black)", "(cellholds 3 4 black)"}
	return props, [][]string{append(init, "(control white)"), append(later, "(control black)")}
}

func TestDetectSparse(t *testing.T) {
	props, states := breakthrough()
	b := board.Detect(props, states)
	if b == nil || b.Relation != "cellholds" || !slices.Equal(b.Coords, []int{0, 1}) || b.Full || b.NumCells() != 12 {
		t.Fatalf("Detect(breakthrough) = %+v, want a sparse 3x4 cellholds board", b)
	}
	occ := b.Occupants(states[1])
	if len(occ) != 5 || !slices.Equal(occ[board.Cell{Row: 2, Col: 2}], []string{"white"}) {
		t.Errorf("Occupants(later) = %v", occ)
	}
}

// A full board wins over a sparse one with more cells.
func TestDetectPrefersFull(t *testing.T) {
	pa, sa := ticTacToe()
	pb, sb := breakthrough()
	var states [][]string
	for i := range sa {
		states = append(states, append(slices.Clone(sa[i]), sb[i]...))
	}
	if b := board.Detect(append(pa, pb...), states); b == nil || b.Relation != "cell" {
		t.Errorf("Detect(both) = %+v, want the full cell board", b)
	}
}

// TestMapSymmetry reads a symmetry written by what it moves: Tic-tac-toe's
// transpose names only the off-diagonal cells, and the diagonal stays.
func TestMapSymmetry(t *testing.T) {
	props, states := ticTacToe()
	b := board.Detect(props, states)
	moved := map[string]string{}
	for i := 1; i <= 3; i++ {
		for j := 1; j <= 3; j++ {
			if i != j {
				for _, c := range []string{"b", "o", "x"} {
					moved[fmt.Sprintf("(cell %d %d %s)", i, j, c)] = fmt.Sprintf("(cell %d %d %s)", j, i, c)
				}
			}
		}
	}
	tr, err := board.MapSymmetry(b, moved)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range b.Cells() {
		to := tr.Cells[c]
		if to.Row != c.Col || to.Col != c.Row {
			t.Errorf("cell %s goes to %s, want its transpose", b.Name(c), b.Name(to))
		}
	}
	if _, err := board.Map(b, b, moved); err == nil {
		t.Error("Map(b, b, moved only) = nil error, want the unnamed diagonal reported")
	}
}
