package grounding

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/internal/testgames"
)

const hexSmall = "testdata/visited/hex22.kif"

func groundVisited(t *testing.T, name, src string, v variant) *Program {
	t.Helper()
	f, err := Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	p, err := groundVariant(context.Background(), f, Limits{}, memoProbe, v)
	if err != nil {
		t.Fatalf("Ground(%s, %+v): %v", name, v, err)
	}
	return p
}

func visitedFired(p *Program) bool {
	return slices.ContainsFunc(p.Notes, func(e *Error) bool { return strings.Contains(e.Msg, "list of visited elements") })
}

// sameGame plays every reachable state of a (up to limit) in a and b
// together and reports the first difference in legal moves, goals,
// terminal or successor.
func sameGame(a, b *Program, limit int) error {
	if !slices.Equal(a.Props, b.Props) || !slices.Equal(a.Roles, b.Roles) {
		return fmt.Errorf("propositions or roles differ")
	}
	for r := range a.Roles {
		if !slices.Equal(a.Actions[r], b.Actions[r]) {
			return fmt.Errorf("actions of %s differ", a.Roles[r])
		}
	}
	sa, sb := NewSim(a), NewSim(b)
	seen := map[string]bool{}
	queue := [][]bool{a.InitialState()}
	for len(queue) > 0 && len(seen) < limit {
		st := queue[0]
		queue = queue[1:]
		sa.SetState(st)
		k := strings.Join(sa.StateProps(), " ")
		if seen[k] {
			continue
		}
		seen[k] = true
		sb.SetState(st)
		if sa.Terminal() != sb.Terminal() {
			return fmt.Errorf("state %s: terminal %v and %v", k, sa.Terminal(), sb.Terminal())
		}
		var legal [][]int
		for r := range a.Roles {
			if !slices.Equal(sa.Goals(r), sb.Goals(r)) {
				return fmt.Errorf("state %s: goals of %s %v and %v", k, a.Roles[r], sa.Goals(r), sb.Goals(r))
			}
			if !slices.Equal(sa.Legal(r), sb.Legal(r)) {
				return fmt.Errorf("state %s: legal moves of %s %v and %v", k, a.Roles[r], sa.Legal(r), sb.Legal(r))
			}
			legal = append(legal, sa.Legal(r))
		}
		if sa.Terminal() {
			continue
		}
		for _, moves := range rowsProduct(legal...) {
			sa.SetState(st)
			sb.SetState(st)
			sa.Step(moves)
			sb.Step(moves)
			if !slices.Equal(sa.State(), sb.State()) {
				return fmt.Errorf("state %s, moves %v: successors differ", k, moves)
			}
			queue = append(queue, slices.Clone(sa.State()))
		}
	}
	if len(seen) < 2 {
		return fmt.Errorf("only %d states played", len(seen))
	}
	return nil
}

// TestVisitedSmallHex: on a board small enough to ground the visited lists
// as written, the rewrite fires and the game is the same in every
// reachable state.
func TestVisitedSmallHex(t *testing.T) {
	src, err := os.ReadFile(hexSmall)
	if err != nil {
		t.Fatal(err)
	}
	got := groundVisited(t, "hex22.kif", string(src), variant{})
	want := groundVisited(t, "hex22.kif", string(src), variant{noVisited: true})
	if !visitedFired(got) {
		t.Fatalf("Ground(hex22) notes %v: the visited list was not dropped", got.Notes)
	}
	if visitedFired(want) {
		t.Fatalf("noVisited dropped the visited list")
	}
	if err := sameGame(got, want, 100000); err != nil {
		t.Errorf("hex22 with and without the rewrite: %v", err)
	}
}

// visitedFiring are hex22 rewritten so that the rewrite must still fire
// and keep the game: a position passed unchanged along the chain that
// dropFreeArgs removes afterwards (a chain key), the append literal and
// the recursive call written twice, and a rule that never applies.
var visitedFiring = []struct {
	name string
	r    *strings.Replacer
	add  string
}{
	{"free argument", strings.NewReplacer("?color ?list)", "?color ?list ?w) (wdom ?w)", "?color ?list2)", "?color ?list2 ?w)",
		"red nil)", "red nil w1)", "blue nil)", "blue nil w1)"), "(wdom w1)\n"},
	{"duplicates and a dead rule", strings.NewReplacer("(append_el ?id ?list ?list2)", "(append_el ?id ?list ?list2) (append_el ?id ?list ?list2)",
		"(connection ?x3 ?y3 ?x2 ?y2 ?color ?list)", "(connection ?x3 ?y3 ?x2 ?y2 ?color ?list) (connection ?x3 ?y3 ?x2 ?y2 ?color ?list)"),
		"(<= (connection2 ?x1 ?y1 ?x2 ?y2 ?c ?l) (color_neighbour ?x1 ?y1 ?x2 ?y2 ?c) (le ?c) (not (le ?c)) (first ?l))\n"},
}

func TestVisitedFiring(t *testing.T) {
	src, err := os.ReadFile(hexSmall)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range visitedFiring {
		t.Run(tc.name, func(t *testing.T) {
			visitedDropped(t, "firing.kif", tc.r.Replace(string(src))+tc.add)
		})
	}
}

// visitedAdversarial are hex22 with one condition of dropVisited broken:
// the rewrite must not fire (several would change the game if it did).
var visitedAdversarial = []struct {
	name     string
	old, new string
}{
	// Two cells share an element: a path through both is refused.
	{"id not injective", "(id 2 1 el21)", "(id 2 1 el11)"},
	// Lists of all four elements fail isList: paths through every cell refused.
	{"isList bounds", "(<= (isList (list ?el1 (list ?el2 (list ?el3 (list ?el4 nil)))))", "(<= (isListX (list ?el1 (list ?el2 (list ?el3 (list ?el4 nil)))))"},
	// No "not in" test: append_el is plain append, walks may repeat.
	{"append without distinct", "(distinct ?el ?head)", ""},
	// A caller starts with a non-empty list.
	{"caller list not empty", "(connection 1 ?y1 2 ?y2 red nil)", "(connection 1 ?y1 2 ?y2 red (list el11 nil))"},
	// The list is read by another literal.
	{"list read", "(connection2 ?x1 ?y1 ?x2 ?y2 ?color ?list2))", "(connection2 ?x1 ?y1 ?x2 ?y2 ?color ?list2) (distinct ?list2 (list el22 (list el12 nil))))"},
	// The colour is not passed unchanged, so an element does not give the atom.
	{"not invariant", "(connection ?x3 ?y3 ?x2 ?y2 ?color ?list)\n(isList ?list))", "(connection ?x3 ?y3 ?x2 ?y2 ?c2 ?list)\n(color_neighbour ?x1 ?y1 ?x3 ?y3 ?c2)\n(isList ?list))"},
	// The element is not the current cell's.
	{"element of another cell", "(id ?x1 ?y1 ?id)", "(id ?x2 ?y2 ?id)"},
	// Two calls of the component in one rule.
	{"not linear", "(connection ?x3 ?y3 ?x2 ?y2 ?color ?list)\n(isList ?list))", "(connection ?x3 ?y3 ?x2 ?y2 ?color ?list)\n(connection ?x3 ?y3 ?x3 ?y3 ?color ?list)\n(isList ?list))"},
}

func TestVisitedAdversarial(t *testing.T) {
	src, err := os.ReadFile(hexSmall)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range visitedAdversarial {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(src), tc.old) {
				t.Fatalf("hex22 has no %q", tc.old)
			}
			visitedKept(t, strings.Replace(string(src), tc.old, tc.new, 1))
		})
	}
}

// visitedDropped: grounding src drops the visited list, and the game is the
// same as without the rewrite.
func visitedDropped(t *testing.T, name, src string) {
	t.Helper()
	got := groundVisited(t, name, src, variant{})
	if !visitedFired(got) {
		t.Fatalf("visited list not dropped: %v", got.Notes)
	}
	want := groundVisited(t, name, src, variant{noVisited: true})
	if err := sameGame(got, want, 100000); err != nil {
		t.Errorf("with and without the rewrite: %v", err)
	}
}

// visitedKept: grounding src keeps the visited list (a condition of the
// rewrite is broken), and the game is the same as without the rewrite.
func visitedKept(t *testing.T, src string) {
	t.Helper()
	got := groundVisited(t, "adv.kif", src, variant{})
	if visitedFired(got) {
		t.Errorf("the visited list was dropped: %v", got.Notes)
	}
	want := groundVisited(t, "adv.kif", src, variant{noVisited: true})
	if err := sameGame(got, want, 100000); err != nil {
		t.Errorf("with and without the rewrite: %v", err)
	}
}

// TestVisitedHexFull: laikLee_hex grounds (it stopped at MaxAtoms in
// isList), and along playouts its terminal and goals agree with
// reachability between the board's sides, computed here from the state.
func TestVisitedHexFull(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testgames.Root(), "ggp-base", "laikLee_hex.kif"))
	if err != nil {
		t.Skipf("game corpus not available: %v", err)
	}
	p := groundVisited(t, "laikLee_hex.kif", string(src), variant{})
	if !visitedFired(p) {
		t.Fatalf("laikLee_hex: visited list not dropped: %v", p.Notes)
	}
	blue, _ := p.RoleID("blue")
	red, _ := p.RoleID("red")
	s := NewSim(p)
	rng := uint64(1)
	ends := 0
	for game := 0; game < 60; game++ {
		s.SetState(p.InitialState())
		for ply := 0; ply < 60; ply++ {
			lineRed, lineBlue := hexLines(s.StateProps())
			if got, want := s.Terminal(), lineRed || lineBlue; got != want {
				t.Fatalf("game %d ply %d: terminal %v, want %v in %v", game, ply, got, want, s.StateProps())
			}
			if lineRed && !slices.Contains(s.Goals(red), 100) || lineBlue && !slices.Contains(s.Goals(blue), 100) {
				t.Fatalf("game %d ply %d: goals red %v blue %v, lines %v %v", game, ply, s.Goals(red), s.Goals(blue), lineRed, lineBlue)
			}
			if s.Terminal() {
				ends++
				break
			}
			moves := make([]int, len(p.Roles))
			for r := range p.Roles {
				ls := s.Legal(r)
				rng = rng*6364136223846793005 + 1442695040888963407
				moves[r] = ls[int(rng>>33)%len(ls)]
			}
			s.Step(moves)
		}
	}
	if ends == 0 {
		t.Errorf("no playout ended")
	}
}

// hexLines computes from laikLee_hex's state whether red connects column 1
// to column 5 and blue row 1 to row 5 through hex neighbours of its colour.
func hexLines(props []string) (red, blue bool) {
	col := map[[2]int]string{}
	for _, q := range props {
		var x, y int
		var c string
		if n, _ := fmt.Sscanf(q, "(cell %d %d %s", &x, &y, &c); n == 3 {
			col[[2]int{x, y}] = strings.TrimSuffix(c, ")")
		}
	}
	reach := func(c string, start func(x, y int) bool, goal func(x, y int) bool) bool {
		var stack [][2]int
		seen := map[[2]int]bool{}
		for k, v := range col {
			if v == c && start(k[0], k[1]) {
				stack = append(stack, k)
				seen[k] = true
			}
		}
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			// Out of k, a step must reach another cell of colour c (the
			// rules' connection needs at least one step).
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {1, 1}, {0, -1}, {-1, -1}} {
				n := [2]int{k[0] + d[0], k[1] + d[1]}
				if col[n] != c {
					continue
				}
				if goal(n[0], n[1]) {
					return true
				}
				if !seen[n] {
					seen[n] = true
					stack = append(stack, n)
				}
			}
		}
		return false
	}
	red = reach("red", func(x, _ int) bool { return x == 1 }, func(x, _ int) bool { return x == 5 })
	blue = reach("blue", func(_, y int) bool { return y == 1 }, func(_, y int) bool { return y == 5 })
	return red, blue
}
