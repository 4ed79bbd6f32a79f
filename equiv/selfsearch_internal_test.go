package equiv

import (
	"context"
	"testing"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// Helpers of the tests that run one search step of a game against itself.

// selfGame returns p with its ground graph (default options).
func selfGame(t *testing.T, p *grounding.Program) game {
	t.Helper()
	return selfGameOn(t, p, groundgraph.Options{})
}

// selfGameOn is selfGame with the ground graph that opt builds.
func selfGameOn(t *testing.T, p *grounding.Program, opt groundgraph.Options) game {
	t.Helper()
	g, err := groundgraph.Build(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	return game{p, g}
}

// selfSearch returns a search of x against itself with a Checker of x's
// program against itself (nil when withChecker is false).
func selfSearch(t *testing.T, x game, withChecker bool) *search {
	t.Helper()
	var checker *satcheck.Checker
	if withChecker {
		var err error
		if checker, err = satcheck.NewChecker(x.p, x.p, satcheck.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	lim := Limits{}.WithDefaults()
	return newSearch(context.Background(), x, x, checker, &lim, &Report{})
}

// rolesFixed returns a partial mapping of x's graph that maps every role
// vertex to itself and nothing else, and those vertices.
func rolesFixed(x game) (isomorph.Mapping, []int32) {
	partial := make(isomorph.Mapping, x.g.Order())
	for v := range partial {
		partial[v] = -1
	}
	var fixed []int32
	for r := range x.p.Roles {
		v := int32(x.g.RoleVertex(r))
		partial[v] = v
		fixed = append(fixed, v)
	}
	return partial, fixed
}

// mapProp maps, in partial, the vertex of proposition a to that of b, and
// returns a's vertex.
func mapProp(t *testing.T, x game, partial isomorph.Mapping, a, b string) int32 {
	t.Helper()
	i, ok := x.p.PropID(a)
	j, ok2 := x.p.PropID(b)
	if !ok || !ok2 {
		t.Fatalf("no proposition %s or %s", a, b)
	}
	v := int32(x.g.PropVertex(i))
	partial[v] = int32(x.g.PropVertex(j))
	return v
}

// stamped counts the functions s considered at its last node.
func stamped(s *search) int {
	n := 0
	for f := range s.funcs {
		if s.stamp[f] == s.nodes {
			n++
		}
	}
	return n
}

// depthSearch loads the game src and returns it with a self-search that
// records fixing depths, and a partial mapping that fixes its roles.
func depthSearch(t *testing.T, name, src string) (game, *search, isomorph.Mapping) {
	t.Helper()
	p, err := grounding.Load(context.Background(), name, []byte(src), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	x := selfGame(t, p)
	s := selfSearch(t, x, true)
	partial, _ := rolesFixed(x)
	s.fixDepth = make([]int32, x.g.Order())
	return x, s, partial
}

// mapPropAt is mapProp with a's vertex fixed at depth in s.
func mapPropAt(t *testing.T, x game, s *search, partial isomorph.Mapping, a, b string, depth int32) int32 {
	t.Helper()
	v := mapProp(t, x, partial, a, b)
	s.fixDepth[v] = depth
	return v
}
