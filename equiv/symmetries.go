package equiv

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
)

// SymmetryReport lists a game's verified self-equivalences.
type SymmetryReport struct {
	// Order is the number of verified symmetries, identity included (a
	// decimal string: groups of board games can be large).
	Order string `json:"order"`
	// Generators generate the group of verified symmetries.
	Generators []*Mapping `json:"generators"`
	// Candidates counts the graph automorphisms examined.
	Candidates int64 `json:"candidates"`
	// RoleSymmetric is set when some symmetry maps a role to another role.
	RoleSymmetric bool `json:"role_symmetric"`
	// GraphOrder is the order of the automorphism group of the ground graph,
	// of which the verified group is a subgroup.
	GraphOrder string             `json:"graph_order"`
	PhaseMs    map[string]float64 `json:"phase_ms"`
}

// Symmetries finds every self-equivalence of a game among the automorphisms
// of its ground graph, each verified by satcheck. Symmetries compose, so when
// every generator of the graph's group verifies, the whole group is verified;
// otherwise the group's elements are enumerated (up to MaxCandidates) and the
// verified ones form the answer.
func Symmetries(ctx context.Context, src Source, lim Limits) (*SymmetryReport, error) {
	lim = lim.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	start := time.Now()
	p, err := grounding.Load(ctx, src.Name, src.GDL, lim.Ground)
	if err != nil {
		return nil, fmt.Errorf("ground %s: %w", src.Name, err)
	}
	groundMs := ms(time.Since(start))
	rep, err := ProgramSymmetries(ctx, p, lim)
	if rep != nil {
		rep.PhaseMs["ground"] = groundMs
	}
	return rep, err
}

// ProgramSymmetries is Symmetries on a grounded game.
func ProgramSymmetries(ctx context.Context, p *grounding.Program, lim Limits) (*SymmetryReport, error) {
	lim = lim.WithDefaults()
	rep := &SymmetryReport{PhaseMs: map[string]float64{}}
	start := time.Now()
	g, err := groundgraph.Build(ctx, p, lim.Graph)
	if err != nil {
		return nil, fmt.Errorf("ground graph: %w", err)
	}
	rep.PhaseMs["graph"] = ms(time.Since(start))
	start = time.Now()
	grp, err := isomorph.Automorphisms(ctx, g, lim.Search)
	if err != nil {
		return nil, fmt.Errorf("automorphisms: %w", err)
	}
	rep.GraphOrder = grp.Order.String()
	rep.PhaseMs["search"] = ms(time.Since(start))
	start = time.Now()
	defer func() { rep.PhaseMs["verify"] = ms(time.Since(start)) }()
	checker, err := satcheck.NewChecker(p, p, lim.SAT)
	if err != nil {
		return nil, fmt.Errorf("verifier: %w", err)
	}
	verify := func(perm isomorph.Perm) (satcheck.Mapping, bool, error) {
		rep.Candidates++
		m, err := g.Mapping(g, isomorph.Mapping(perm))
		if err != nil {
			return m, false, err
		}
		res, err := checker.Verify(ctx, m)
		if err != nil {
			return m, false, err
		}
		return m, res.Verdict == satcheck.Equivalent, nil
	}
	var gens []satcheck.Mapping
	all := true
	for _, perm := range grp.Generators {
		m, ok, err := verify(perm)
		if err != nil {
			return nil, err
		}
		if !ok {
			all = false
			break
		}
		gens = append(gens, m)
	}
	if all {
		rep.Order = grp.Order.String()
	} else {
		// Enumerate the graph group; the verified elements form a subgroup.
		if grp.Order.Cmp(big.NewInt(lim.MaxCandidates)) > 0 {
			// Got is the first candidate past the limit, as in Compare.
			return nil, fmt.Errorf("a generator of the ground graph's automorphism group (order %s) is not a symmetry, and finding the symmetries among its elements needs them all: %w",
				shortNumber(grp.Order), &isomorph.LimitError{What: "MaxCandidates", Limit: lim.MaxCandidates, Got: lim.MaxCandidates + 1})
		}
		gens = nil
		var order int64
		var verified []satcheck.Mapping
		for perm := range grp.Elements() {
			m, ok, err := verify(perm)
			if err != nil {
				return nil, err
			}
			if ok {
				order++
				verified = append(verified, m)
			}
		}
		rep.Order = fmt.Sprint(order)
		gens = generatorsOf(verified, order)
	}
	for _, m := range gens {
		if !isIdentity(m) {
			rep.Generators = append(rep.Generators, names(p, p, m))
		}
		for r, rb := range m.Roles {
			if r != rb {
				rep.RoleSymmetric = true
			}
		}
	}
	if rep.Generators == nil {
		rep.Generators = []*Mapping{}
	}
	return rep, nil
}

func isIdentity(m satcheck.Mapping) bool {
	for i, j := range m.Props {
		if i != j {
			return false
		}
	}
	for r, acts := range m.Actions {
		if m.Roles[r] != r {
			return false
		}
		for i, j := range acts {
			if i != j {
				return false
			}
		}
	}
	return true
}

// generatorsOf picks a generating set from the elements of a group of the
// given order: an element joins when the group generated so far misses it.
func generatorsOf(elems []satcheck.Mapping, order int64) []satcheck.Mapping {
	key := func(m satcheck.Mapping) string { return fmt.Sprint(m.Roles, m.Props, m.Actions) }
	closure := map[string]satcheck.Mapping{}
	var gens []satcheck.Mapping
	for _, e := range elems {
		if int64(len(closure)) == order {
			break
		}
		if _, ok := closure[key(e)]; ok || isIdentity(e) {
			continue
		}
		gens = append(gens, e)
		// The group generated so far, breadth-first from the identity.
		clear(closure)
		id := identityLike(e)
		closure[key(id)] = id
		queue := []satcheck.Mapping{id}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, gm := range gens {
				y := compose(x, gm)
				if _, ok := closure[key(y)]; !ok {
					closure[key(y)] = y
					queue = append(queue, y)
				}
			}
		}
	}
	return gens
}

// compose is the mapping x then y.
func compose(x, y satcheck.Mapping) satcheck.Mapping {
	z := satcheck.Mapping{Roles: make([]int, len(x.Roles)), Props: make([]int, len(x.Props)), Actions: make([][]int, len(x.Actions))}
	for r, rx := range x.Roles {
		z.Roles[r] = y.Roles[rx]
		z.Actions[r] = make([]int, len(x.Actions[r]))
		for a, ax := range x.Actions[r] {
			z.Actions[r][a] = y.Actions[rx][ax]
		}
	}
	for q, qx := range x.Props {
		z.Props[q] = y.Props[qx]
	}
	return z
}

func identityLike(m satcheck.Mapping) satcheck.Mapping {
	id := satcheck.Mapping{Roles: make([]int, len(m.Roles)), Props: make([]int, len(m.Props)), Actions: make([][]int, len(m.Actions))}
	for r := range id.Roles {
		id.Roles[r] = r
		id.Actions[r] = make([]int, len(m.Actions[r]))
		for a := range id.Actions[r] {
			id.Actions[r][a] = a
		}
	}
	for q := range id.Props {
		id.Props[q] = q
	}
	return id
}

// shortNumber writes n in full up to 30 digits, else as its leading digits
// and its number of digits.
func shortNumber(n *big.Int) string {
	s := n.String()
	if len(s) <= 30 {
		return s
	}
	return fmt.Sprintf("%s.%s×10^%d", s[:1], s[1:4], len(s)-1)
}
