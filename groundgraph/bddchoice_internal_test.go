package groundgraph

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// TestChoiceBDDSupports checks that cofactor BDDs (supportByChoice) give
// every next function of real games that reads moves the semantic support
// that simulation and SAT give.
func TestChoiceBDDSupports(t *testing.T) {
	games := []string{"tictactoe", "connectFour", "nim1", "breakthroughSmall", "pacman3p", "battle"}
	if testing.Short() {
		games = games[:4]
	}
	ctx := context.Background()
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			path := filepath.Join(testgames.Root(), "ggp-base", g+".kif")
			src, err := os.ReadFile(path)
			if err != nil {
				t.Skipf("game not available: %v", err)
			}
			p, err := grounding.Load(ctx, g+".kif", src, grounding.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			// The reference: no support tables and no cofactor BDDs.
			o := Options{SupportTableBits: -1, MaxBDDChoices: -1}.withDefaults()
			level, prop := grounding.PropOrder(p.Props, nil)
			b := &builder{p: p, opt: o, moves: true, bdd: newSupportBDD(o.MaxBDDNodes, level, prop)}
			d := newChoiceBDDs(1, o.MaxBDDNodes, level, prop)
			nProps := len(p.Props)
			tried, limit := 0, 0
			for _, f := range p.Functions() {
				if f.Kind != grounding.FuncNext {
					continue
				}
				cn, err := b.cone(f.Lit)
				if err != nil {
					t.Fatal(err)
				}
				var props []int32
				var roles []int
				for _, in := range cn.Inputs {
					if int(in) < nProps {
						props = append(props, in)
					} else if r, _ := p.InputOf(int(in)); len(roles) == 0 || roles[len(roles)-1] != r {
						roles = append(roles, r)
					}
				}
				srs := b.simRoles(cn, roles)
				if len(srs) == 0 || jointChoices(srs, DefaultMaxBDDChoices) < 0 {
					continue
				}
				m := d.get()
				propDep, roleDep, err := m.supportByChoice(ctx, cn, len(props), srs)
				d.put(m)
				if errors.Is(err, errBDDLimit) {
					limit++
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				tried++
				got := b.supportOf(props, srs, &simState{propDep: propDep, roleDep: roleDep})
				want, err := b.semanticSupport(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(&want) {
					t.Errorf("%s: support %v by cofactor BDDs, %v by simulation and SAT", p.FunctionName(f), got.Inputs(), want.Inputs())
				}
			}
			if tried == 0 {
				t.Fatalf("no next function within the cofactor BDDs' bounds")
			}
			t.Logf("%d next functions compared, %d over the node bound", tried, limit)
		})
	}
}

// TestChoiceBDDFanoutCacheFull: supportByChoice keeps the slice CachedFanout
// returns as its scratch buffer (found by review). Once the
// cone's fanout cache is full (maxFanoutCache entries), an uncached input's
// Fanout is written into buf[:0], which is then a cached input's region of
// cn.fanBuf: that input's cached fanout is overwritten and later choices skip
// its gates.
//
// Circuit: p (proposition), role 0 actions a_0..a_{A-1} (radix A+1: it has
// unread actions), role 1 actions b_0, b_1 (radix 2).
//
//	h = OR(a_i); c_1..c_L a buffer chain from h; x = AND(p, b_0);
//	y = AND(NOT p, b_1); root = OR(x, y, c_L).
//
// With role 0 doing "another action" and role 1 doing b_0 the root is p, so
// the true support is {p, role 0, role 1}.
func TestChoiceBDDFanoutCacheFull(t *testing.T) {
	const A, L = 130, 1 << 17
	nIn := 1 + A + 2
	c := &grounding.Circuit{NumInputs: nIn}
	c.Start = make([]int32, nIn+2) // constant and inputs: empty ranges
	add := func(ls ...grounding.Lit) grounding.Lit {
		c.Fanin = append(c.Fanin, ls...)
		c.Start = append(c.Start, int32(len(c.Fanin)))
		return grounding.Lit(c.NumNodes()-1) << 1
	}
	p := grounding.InputLit(0)
	a := func(i int) grounding.Lit { return grounding.InputLit(1 + i) }
	b := func(i int) grounding.Lit { return grounding.InputLit(1 + A + i) }
	x := add(p, b(0))
	y := add(p.Not(), b(1))
	var na []grounding.Lit
	for i := range A {
		na = append(na, a(i).Not())
	}
	h := add(na...).Not()
	cl := h
	for range L {
		cl = add(cl)
	}
	root := add(x.Not(), y.Not(), cl.Not()).Not()
	cn, err := grounding.NewCone(c, root)
	if err != nil {
		t.Fatal(err)
	}
	var ks0, ks1 []int
	for i := range A {
		ks0 = append(ks0, 1+i)
	}
	ks1 = []int{1 + A, 2 + A}
	srs := []simRole{{role: 0, ks: ks0, radix: A + 1}, {role: 1, ks: ks1, radix: 2}}
	d := newSupportBDD(DefaultMaxBDDNodes, []int32{0}, []int32{0})
	propDep, roleDep, err := d.supportByChoice(context.Background(), cn, 1, srs)
	if err != nil {
		t.Fatalf("supportByChoice: %v", err)
	}
	if !propDep[0] || !roleDep[0] || !roleDep[1] {
		t.Errorf("propDep %v roleDep %v, want [true] [true true]", propDep, roleDep)
	}
}
