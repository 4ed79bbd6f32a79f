package mutate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
)

// Limits of Different.
const (
	// DifferentTries is how many candidate changes Different grounds and
	// plays at most before it gives up.
	DifferentTries = 32
	// DifferentPlayouts and DifferentSteps bound the playouts that look for a
	// state where a candidate behaves differently.
	DifferentPlayouts = 8
	DifferentSteps    = 200
	// DifferentGroundTimeout bounds the grounding of one candidate.
	DifferentGroundTimeout = 20 * time.Second
)

// ErrNoDifference is returned by Different when no candidate change showed a
// difference within its limits.
var ErrNoDifference = errors.New("mutate: no change with an observable difference found")

// Different returns a variant of f that is a different game, with a one-line
// description of the change. The change is one of: a goal value of one goal
// rule replaced by a value the game never gives (say 100 by 90), or one
// body literal dropped from one rule that legal, next, goal, terminal or
// init depend on. Names are kept, so the variant's propositions and moves
// are those of f. A candidate is accepted only when it grounds and random
// playouts of f reach a state where it disagrees with f (initial state,
// next state, legal moves, terminal or goals); which candidates are tried,
// and in which order, is determined by seed.
//
// A changed goal value is a certain difference: the variant has a reachable
// goal value that f never gives, which no renaming can hide. A dropped
// literal is a difference under the identity mapping, which almost always
// means a different game but is not a proof that no other mapping works.
func Different(ctx context.Context, f *grounding.File, seed int64) (*grounding.File, string, error) {
	if f == nil {
		return nil, "", ErrNilFile
	}
	orig, err := grounding.Ground(ctx, f, grounding.Limits{})
	if err != nil {
		return nil, "", fmt.Errorf("ground %s: %w", f.Name, err)
	}
	values := map[int]bool{}
	for _, gs := range orig.Goals {
		for _, g := range gs {
			values[g.Value] = true
		}
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6469666621212121))
	var goals, drops []change
	relevant := relevantRelations(f)
	for i, r := range f.Rules {
		if h := r.Head; h.Name == "goal" && len(h.Args) == 2 && h.Args[1].Args == nil && !h.Args[1].Var {
			if v, err := strconv.Atoi(h.Args[1].Name); err == nil {
				goals = append(goals, change{rule: i, lit: -1, value: v})
			}
		}
		if !relevant[keyOf(r.Head)] {
			continue
		}
		for j := range r.Body {
			drops = append(drops, change{rule: i, lit: j})
		}
	}
	rng.Shuffle(len(goals), func(i, j int) { goals[i], goals[j] = goals[j], goals[i] })
	rng.Shuffle(len(drops), func(i, j int) { drops[i], drops[j] = drops[j], drops[i] })
	cands := append(goals, drops...)
	if rng.IntN(2) == 0 {
		cands = append(drops, goals...)
	}
	tries := 0
	for _, c := range cands {
		if tries >= DifferentTries {
			break
		}
		mut, desc, ok := c.apply(f, values, rng)
		if !ok {
			continue
		}
		tries++
		gctx, cancel := context.WithTimeout(ctx, DifferentGroundTimeout)
		p, err := grounding.Ground(gctx, mut, grounding.Limits{Timeout: DifferentGroundTimeout})
		cancel()
		if err := ctx.Err(); err != nil {
			return nil, "", err
		}
		if err != nil {
			continue
		}
		var mis *MismatchError
		if err := Agree(orig, p, Identity, seed, DifferentPlayouts, DifferentSteps); errors.As(err, &mis) {
			return mut, desc + "; first difference: " + mis.Error(), nil
		}
	}
	return nil, "", ErrNoDifference
}

// change is a candidate of Different: a goal value (lit < 0) or a dropped literal.
type change struct {
	rule, lit int
	value     int // the goal value of the rule, for goal changes
}

// apply builds the changed description; ok is false when the change is not
// possible (no free goal value, or a dropped literal would leave a variable
// unbound).
func (c change) apply(f *grounding.File, values map[int]bool, rng *rand.Rand) (mut *grounding.File, desc string, ok bool) {
	mut = &grounding.File{Name: f.Name, Rules: append([]*grounding.Rule(nil), f.Rules...)}
	r := cloneRule(f.Rules[c.rule])
	mut.Rules[c.rule] = r
	where := fmt.Sprintf("rule at %s:%s %s", f.Name, f.Rules[c.rule].Pos, f.Rules[c.rule])
	if c.lit < 0 {
		var free []int
		for _, d := range []int{-10, 10, -5, 5, -1, 1, -20, 20} {
			if v := c.value + d; v >= 0 && v <= 100 && !values[v] {
				free = append(free, v)
			}
		}
		if len(free) == 0 {
			return nil, "", false
		}
		v := free[rng.IntN(min(2, len(free)))]
		r.Head.Args[1].Name = strconv.Itoa(v)
		return mut, fmt.Sprintf("goal value %d changed to %d (a value the original never gives) in the %s", c.value, v, where), true
	}
	dropped := r.Body[c.lit]
	r.Body = append(r.Body[:c.lit:c.lit], r.Body[c.lit+1:]...)
	if !strictlySafe(r) {
		return nil, "", false
	}
	return mut, fmt.Sprintf("dropped %s from the %s", dropped, where), true
}

// relevantRelations returns the relations that legal, next, goal, terminal
// or init depend on, themselves included.
func relevantRelations(f *grounding.File) map[symKey]bool {
	deps := dependencies(f)
	out := map[symKey]bool{}
	var stack []symKey
	for k := range deps.rules {
		switch k.name {
		case "legal", "next", "goal", "terminal", "init":
			stack = append(stack, k)
		}
	}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if out[k] {
			continue
		}
		out[k] = true
		stack = append(stack, deps.edges[k]...)
	}
	return out
}
