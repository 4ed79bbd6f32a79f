package satcheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gamequiv/gamequiv/grounding"
)

// Mapping is a candidate equivalence σ from program A to program B: bijections
// of roles, of state propositions, and of each role's actions onto the actions
// of its image role. Indices are the dense ids of grounding.Program.
type Mapping struct {
	Roles   []int   // Roles[r]: role of B for role r of A
	Props   []int   // Props[p]: proposition of B for proposition p of A
	Actions [][]int // Actions[r][a]: action of role Roles[r] of B for action a of role r of A
}

// InputMap returns σ on circuit inputs: entry i is the input of b that input
// i of a maps to (the inputMap argument of Checker.CheckFunc). It panics if m
// does not fit the sizes of a and b.
func (m Mapping) InputMap(a, b *grounding.Program) []int32 {
	return m.inputMap(a.ActionInputBases(), b.ActionInputBases(), len(a.Props)+countActions(a))
}

func countActions(p *grounding.Program) int {
	n := 0
	for _, as := range p.Actions {
		n += len(as)
	}
	return n
}

func (m Mapping) inputMap(baseA, baseB []int32, n int) []int32 {
	im := make([]int32, n)
	for p, q := range m.Props {
		im[p] = int32(q)
	}
	for r, as := range m.Actions {
		rb := m.Roles[r]
		for x, y := range as {
			im[int(baseA[r])+x] = baseB[rb] + int32(y)
		}
	}
	return im
}

// Result is the outcome of Verify.
type Result struct {
	Verdict Verdict
	// Function names the first pair that differs, in the order of A's
	// Functions (legal, next, goal, terminal), e.g.
	// "(next (cell 1 1 b)) vs (next (num 2 available))"; or "init", "roles",
	// "propositions", "actions of <role>" when the mapping fails before any
	// function is compared. Empty when Equivalent.
	Function string
	// Reason explains the difference in words, with the counterexample.
	Reason string
	// Counterexample separates the named pair of functions (nil for shape and
	// init failures).
	Counterexample *Counterexample
	// Differs is A's function of the named pair (nil when the failure is
	// not a compared pair: shape, init, a goal value on one side only).
	Differs *grounding.Function
	// Checked counts the function pairs compared (and found equal before the failure).
	Checked int
	// VacuousNext is set when some role has no action: then no joint move
	// exists and the next functions are equal vacuously, without a check.
	VacuousNext bool
	// Stats are the checker's counters after the verification.
	Stats Stats
}

// String renders the verdict and, when Different, the failing pair and its
// counterexample.
func (r *Result) String() string {
	if r.Verdict != Different {
		return r.Verdict.String()
	}
	return fmt.Sprintf("%s: %s: %s", r.Verdict, r.Function, r.Reason)
}

// Counterexample is a point where two mapped functions disagree, in terms of
// program A: the state s and, for next functions, the joint move j. The other
// program is evaluated at σ(s) and σ(j).
type Counterexample struct {
	State []int // propositions of A true in s, ascending
	// Moves[r] is the action of A's role r in j; nil for functions of the
	// state alone (legal, goal, terminal).
	Moves []int
	A, B  bool // value of A's function at (s, j) and of B's at (σs, σj)
}

// Verify checks that m is a space-consistent game equivalence from a to b
// (Zhang & Liu): the role, proposition and action maps are bijections; init
// maps onto init; and for every state (all 2^|P| sets of propositions, not
// only reachable ones) terminal, legal(r, a), goal(r, n) for every value n
// (a value missing on one side is constant false there) and, for every joint
// move where each role does exactly one of its actions, next(p), are equal to
// their images. It stops at the first pair that differs and reports it with a
// counterexample.
//
// A mapping whose sizes do not fit a (wrong lengths) or that is not injective
// is a caller bug and gives a *MappingError; a mapping between programs of
// different shapes (role, proposition or action counts) is a well-formed
// non-equivalence and gives the verdict Different.
func Verify(ctx context.Context, a, b *grounding.Program, m Mapping, opt Options) (*Result, error) {
	c, err := NewChecker(a, b, opt)
	if err != nil {
		return nil, err
	}
	return c.Verify(ctx, m)
}

// Verify is the package-level Verify on the Checker's programs, reusing (and
// filling) its caches, so that candidate mappings that agree on a function's
// support are answered at once.
func (c *Checker) Verify(ctx context.Context, m Mapping) (*Result, error) {
	a, b := c.a.p, c.b.p
	res := &Result{}
	done := func(function, reason string) (*Result, error) {
		res.Verdict, res.Function, res.Reason = Different, function, reason
		res.Stats = c.Stats()
		return res, nil
	}
	// Shape: lengths must fit A (else caller bug), counts must fit B (else Different).
	if len(m.Roles) != len(a.Roles) || len(m.Props) != len(a.Props) || len(m.Actions) != len(a.Roles) {
		return nil, mappingErrorf("mapping has %d roles, %d propositions, %d action lists; %q has %d roles and %d propositions",
			len(m.Roles), len(m.Props), len(m.Actions), a.Name, len(a.Roles), len(a.Props))
	}
	for r, as := range m.Actions {
		if len(as) != len(a.Actions[r]) {
			return nil, mappingErrorf("mapping has %d actions for role %s, which has %d", len(as), a.Roles[r], len(a.Actions[r]))
		}
	}
	if len(a.Roles) != len(b.Roles) {
		return done("roles", fmt.Sprintf("%d roles vs %d", len(a.Roles), len(b.Roles)))
	}
	if len(a.Props) != len(b.Props) {
		return done("propositions", fmt.Sprintf("%d propositions vs %d", len(a.Props), len(b.Props)))
	}
	if err := checkBijection("roles", m.Roles, len(b.Roles)); err != nil {
		return nil, err
	}
	if err := checkBijection("propositions", m.Props, len(b.Props)); err != nil {
		return nil, err
	}
	for r, as := range m.Actions {
		rb := m.Roles[r]
		if len(as) != len(b.Actions[rb]) {
			return done("actions of "+a.Roles[r], fmt.Sprintf("role %s has %d actions, its image %s has %d",
				a.Roles[r], len(as), b.Roles[rb], len(b.Actions[rb])))
		}
		if err := checkBijection("actions of "+a.Roles[r], as, len(b.Actions[rb])); err != nil {
			return nil, err
		}
	}
	// Init.
	inB := make([]bool, len(b.Props))
	for _, q := range b.Init {
		inB[q] = true
	}
	inA := make([]bool, len(a.Props))
	for _, p := range a.Init {
		inA[p] = true
		if q := m.Props[p]; !inB[q] {
			return done("init", fmt.Sprintf("(init %s) holds in %s but its image (init %s) does not hold in %s", a.Props[p], a.Name, b.Props[q], b.Name))
		}
	}
	for p, q := range m.Props {
		if inB[q] && !inA[p] {
			return done("init", fmt.Sprintf("(init %s) holds in %s but its preimage (init %s) does not hold in %s", b.Props[q], b.Name, a.Props[p], a.Name))
		}
	}
	im := m.inputMap(c.a.base, c.b.base, c.a.numInputs())
	res.VacuousNext = c.a.emptyRole >= 0
	return c.verifyPairs(ctx, res, pairs(a, b, m), im, false)
}

// verifyPairs compares the pairs ps, in order, under the input map im, and
// completes res with the verdict and, when some pair differs, the first.
// With anyDiff (VerifyMoves) it names some pair that differs instead: the
// first that the cheap stages show different, with no SAT question on the
// undecided pairs before it, else the first SAT shows different, asking
// first the pairs whose function of A differed in an earlier call (a
// pair over the SAT limits is reported only when no other differs). Each
// SAT question on an equal pair is a proof; quad's generators differ in a
// goal after 20 to 50 next and legal pairs that only SAT decides.
func (c *Checker) verifyPairs(ctx context.Context, res *Result, ps []pair, im []int32, anyDiff bool) (*Result, error) {
	a, b := c.a.p, c.b.p
	done := func(function, reason string) (*Result, error) {
		res.Verdict, res.Function, res.Reason = Different, function, reason
		res.Stats = c.Stats()
		return res, nil
	}
	// Two passes give the same first failure as checking the pairs in order,
	// with fewer SAT calls: the cheap stages run on every pair first, then SAT
	// runs, in order, only on the undecided pairs before the first pair the
	// cheap stages found different.
	report := func() {
		if c.opt.Progress != nil {
			c.opt.Progress(res.Checked, len(ps))
		}
	}
	report()
	var undecided []pending
	first, firstOut := len(ps), outcome{}
	for i, pr := range ps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if pr.fa.Kind == grounding.FuncNext && res.VacuousNext {
			continue
		}
		sem := semanticsOf(pr.fa.Kind)
		o, err := c.check(ctx, pr.fa.Lit, pr.fb.Lit, im, sem, needModel|cheapOnly)
		if err != nil {
			return nil, fmt.Errorf("check %s: %w", pairName(a, b, pr), err)
		}
		switch {
		case o.undecided:
			undecided = append(undecided, pending{i, sem})
		case o.equal:
			res.Checked++
			report()
		default:
			first, firstOut = i, o
		}
		if first < len(ps) {
			break
		}
	}
	if anyDiff && first < len(ps) {
		undecided = nil
	}
	if anyDiff {
		c.differedFirst(ps, undecided)
	}
	var limitErr error // anyDiff: a pair over the SAT limits, reported unless another differs
	for _, u := range undecided {
		if u.i > first {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pr := ps[u.i]
		o, err := c.check(ctx, pr.fa.Lit, pr.fb.Lit, im, u.sem, needModel|satNow)
		if err != nil {
			err = fmt.Errorf("check %s: %w", pairName(a, b, pr), err)
			if anyDiff && errors.Is(err, ErrLimit) {
				if limitErr == nil {
					limitErr = err
				}
				continue
			}
			return nil, err
		}
		if !o.equal {
			first, firstOut = u.i, o
			break
		}
		res.Checked++
		report()
	}
	if first == len(ps) && limitErr != nil {
		return nil, limitErr
	}
	if first == len(ps) {
		res.Verdict = Equivalent
		res.Stats = c.Stats()
		return res, nil
	}
	pr := ps[first]
	if anyDiff {
		c.differed(pr.fa.Lit)
	}
	sem := semanticsOf(pr.fa.Kind)
	cex, err := c.counterexample(firstOut, pr.fa.Lit, pr.fb.Lit, im, sem)
	if err != nil {
		return nil, fmt.Errorf("check %s: %w", pairName(a, b, pr), err)
	}
	res.Counterexample = cex
	res.Differs = &pr.fa
	return done(pairName(a, b, pr), c.describe(pr, cex))
}

// pending is a pair (by index) that verifyPairs' cheap stages left
// undecided, with its semantics.
type pending struct {
	i   int
	sem semantics
}

func pairName(a, b *grounding.Program, pr pair) string {
	return a.FunctionName(pr.fa) + " vs " + b.FunctionName(pr.fb)
}

func checkBijection(what string, xs []int, n int) error {
	seen := make([]bool, n)
	for i, x := range xs {
		if x < 0 || x >= n {
			return mappingErrorf("%s: %d maps to %d, out of range [0,%d)", what, i, x, n)
		}
		if seen[x] {
			return mappingErrorf("%s: two elements map to %d", what, x)
		}
		seen[x] = true
	}
	return nil
}

// pair is a function of A and its image in B.
type pair struct {
	fa, fb  grounding.Function
	missing string // "A" or "B" when a goal value exists on one side only
}

// pairs lists the mapped function pairs in the order of A's Functions, with
// the goal values of each role merged from both sides.
func pairs(a, b *grounding.Program, m Mapping) []pair {
	var ps []pair
	for r, ls := range a.Legal {
		rb := m.Roles[r]
		for x, l := range ls {
			y := m.Actions[r][x]
			ps = append(ps, pair{
				fa: grounding.Function{Kind: grounding.FuncLegal, Role: r, Index: x, Lit: l},
				fb: grounding.Function{Kind: grounding.FuncLegal, Role: rb, Index: y, Lit: b.Legal[rb][y]},
			})
		}
	}
	for p, l := range a.Next {
		q := m.Props[p]
		ps = append(ps, pair{
			fa: grounding.Function{Kind: grounding.FuncNext, Index: p, Lit: l},
			fb: grounding.Function{Kind: grounding.FuncNext, Index: q, Lit: b.Next[q]},
		})
	}
	for r := range a.Goals {
		ps = append(ps, goalPairs(a, b, r, m.Roles[r])...)
	}
	return append(ps, pair{
		fa: grounding.Function{Kind: grounding.FuncTerminal, Lit: a.Terminal},
		fb: grounding.Function{Kind: grounding.FuncTerminal, Lit: b.Terminal},
	})
}

// goalPairs lists the goals of role r of a against those of role rb of b,
// by value, each value of either side once (missing on one side: False).
func goalPairs(a, b *grounding.Program, r, rb int) []pair {
	ga, gb := a.Goals[r], b.Goals[rb]
	var vals []int
	for _, g := range ga {
		vals = append(vals, g.Value)
	}
	for _, g := range gb {
		vals = append(vals, g.Value)
	}
	slices.Sort(vals)
	var ps []pair
	for _, v := range slices.Compact(vals) {
		pr := pair{
			fa: grounding.Function{Kind: grounding.FuncGoal, Role: r, Index: v, Lit: grounding.False},
			fb: grounding.Function{Kind: grounding.FuncGoal, Role: rb, Index: v, Lit: grounding.False},
		}
		if i, ok := slices.BinarySearchFunc(ga, v, func(g grounding.Goal, v int) int { return g.Value - v }); ok {
			pr.fa.Lit = ga[i].Lit
		} else {
			pr.missing = "A"
		}
		if i, ok := slices.BinarySearchFunc(gb, v, func(g grounding.Goal, v int) int { return g.Value - v }); ok {
			pr.fb.Lit = gb[i].Lit
		} else {
			pr.missing = "B"
		}
		ps = append(ps, pr)
	}
	return ps
}

// counterexample completes a separating assignment of the joint variables
// into a state and joint move of A, and re-evaluates both circuits on it (a
// self-check: a wrong counterexample is an internal error, never a verdict).
func (c *Checker) counterexample(o outcome, fa, fb grounding.Lit, im []int32, sem semantics) (*Counterexample, error) {
	a, b := c.a, c.b
	inv := make([]int32, b.numInputs())
	for i, j := range im {
		inv[j] = int32(i)
	}
	in := make([]bool, a.numInputs())
	var j *joint
	var model []bool
	if o.j != nil {
		j, model = o.j, o.model
	}
	if j != nil {
		for v, x := range j.vars {
			if !model[v] {
				continue
			}
			if x.aIn >= 0 {
				in[x.aIn] = true
			} else {
				in[inv[x.bIn]] = true
			}
		}
	}
	ce := &Counterexample{}
	if sem == oneHot {
		ce.Moves = make([]int, len(a.p.Roles))
		for r := range ce.Moves {
			ce.Moves[r] = -1
			for x := a.base[r]; x < a.base[r+1]; x++ {
				if in[x] {
					ce.Moves[r] = int(x - a.base[r])
				}
			}
			if ce.Moves[r] >= 0 {
				continue
			}
			// The role's group chose "other" (or the function ignores the
			// role): take the first action whose image no function reads.
			used := map[int32]bool{}
			if j != nil {
				for _, g := range j.groups {
					for _, v := range g.members {
						used[j.vars[v].bIn] = true
					}
				}
			}
			for x := a.base[r]; x < a.base[r+1]; x++ {
				if !used[im[x]] {
					ce.Moves[r] = int(x - a.base[r])
					in[x] = true
					break
				}
			}
			if ce.Moves[r] < 0 {
				return nil, fmt.Errorf("satcheck: internal error: no free action for role %s in counterexample", a.p.Roles[r])
			}
		}
	}
	for p := range a.nProps {
		if in[p] {
			ce.State = append(ce.State, p)
		}
	}
	inB := make([]bool, b.numInputs())
	for i, x := range in {
		inB[im[i]] = x
	}
	ce.A = grounding.Value(a.c.Eval(in, nil), fa)
	ce.B = grounding.Value(b.c.Eval(inB, nil), fb)
	if ce.A == ce.B {
		return nil, fmt.Errorf("satcheck: internal error: counterexample does not separate the functions (both %v)", ce.A)
	}
	return ce, nil
}

// describe renders the counterexample of a failing pair in A's names.
func (c *Checker) describe(pr pair, ce *Counterexample) string {
	a, b := c.a.p, c.b.p
	var sb strings.Builder
	switch pr.missing {
	case "A":
		fmt.Fprintf(&sb, "%s has no %s (constant false); ", a.Name, a.FunctionName(pr.fa))
	case "B":
		fmt.Fprintf(&sb, "%s has no %s (constant false); ", b.Name, b.FunctionName(pr.fb))
	}
	fmt.Fprintf(&sb, "%s is %v in %s but its image is %v in %s, in state {", a.FunctionName(pr.fa), ce.A, a.Name, ce.B, b.Name)
	for i, p := range ce.State {
		if i > 0 {
			sb.WriteString(" ")
		}
		sb.WriteString(a.Props[p])
	}
	sb.WriteString("}")
	if ce.Moves != nil {
		sb.WriteString(" with moves {")
		for r, x := range ce.Moves {
			if r > 0 {
				sb.WriteString(" ")
			}
			fmt.Fprintf(&sb, "(does %s %s)", a.Roles[r], a.Actions[r][x])
		}
		sb.WriteString("}")
	}
	return sb.String()
}

// Pair is a reasoning function of A and its image in B under a mapping: one
// question of Verify (a goal value missing on one side is grounding.False
// there).
type Pair struct {
	Name string             // "<function of A> vs <function of B>", as in Result.Function
	Kind grounding.FuncKind // how the does-inputs are read (see CheckFunc)
	A, B grounding.Lit      // the two functions
}

// Pairs lists the function pairs that Verify compares under m, in its order,
// for example to write each miter with Checker.WriteDIMACS. m must fit a and
// b (as Verify checks); it panics otherwise.
func Pairs(a, b *grounding.Program, m Mapping) []Pair {
	var out []Pair
	for _, pr := range pairs(a, b, m) {
		out = append(out, Pair{Name: pairName(a, b, pr), Kind: pr.fa.Kind, A: pr.fa.Lit, B: pr.fb.Lit})
	}
	return out
}
