package satcheck_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// reflectCell maps "(cell c rNN …)" or "(place c rNN)" on a board of
// columns a, b, … and rows r01, r02, … to its image under the diagonal
// reflection; other terms are their own image.
func reflectCell(s string) string {
	const cols = "abcdefghij"
	f := strings.Fields(strings.Trim(s, "()"))
	for i := 0; i+1 < len(f); i++ {
		ci := strings.Index(cols, f[i])
		if len(f[i]) != 1 || ci < 0 || len(f[i+1]) != 3 || f[i+1][0] != 'r' {
			continue
		}
		r := int(f[i+1][1]-'0')*10 + int(f[i+1][2]-'0')
		f[i], f[i+1] = string(cols[r-1]), "r"+string(rune('0'+(ci+1)/10))+string(rune('0'+(ci+1)%10))
		break
	}
	return "(" + strings.Join(f, " ") + ")"
}

// TestQueens6ReflectionGoals: queens6's goals count the attacked queens
// walking the board column by column; under the diagonal reflection the
// image walks it row by row. Both read the same "attacked" gates, and the
// cut BDDs over them (sweepbdd.go), tried once the budgeted sweep has given
// up, prove every goal equal; a 6x6 board's miter ran gophersat 96 s and
// CaDiCaL 100 s without an answer, and the sweep before cut BDDs did not
// finish in 60 s.
func TestQueens6ReflectionGoals(t *testing.T) {
	path := "../equiv/testdata/queens6.kif"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	p, err := grounding.Load(ctx, path, src, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	props, moved := imagesOf(t, p.Props, reflectCell)
	if moved == 0 {
		t.Fatal("the reflection moves no proposition")
	}
	actions, _ := imagesOf(t, p.Actions[0], reflectCell)
	m := satcheck.Mapping{Roles: []int{0}, Props: props, Actions: [][]int{actions}}
	c := mustChecker(t, p, p, satcheck.Options{})
	im := m.InputMap(p, p)
	for _, g := range p.Goals[0] {
		eq, err := c.CheckFunc(ctx, grounding.FuncGoal, g.Lit, g.Lit, im)
		if err != nil {
			t.Fatalf("goal %d: %v (%+v)", g.Value, err, c.Stats())
		}
		if !eq {
			t.Fatalf("goal %d: not equal under the reflection, a symmetry of queens", g.Value)
		}
	}
	st := c.Stats()
	if st.CutBDD == 0 {
		t.Errorf("cut BDDs %d, SAT calls %d: want goals proven by cut BDDs", st.CutBDD, st.SATCalls)
	}
	t.Logf("cut BDDs %d, SAT calls %d", st.CutBDD, st.SATCalls)
}
