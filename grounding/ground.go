package grounding

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"time"
)

// Limits bounds the work of Ground. A zero field means its default.
type Limits struct {
	MaxAtoms         int64         // ground atoms of all relations, static and fluent; default 2,000,000
	MaxInstances     int64         // join matches while building the circuit; default 10,000,000
	MaxCircuitNodes  int           // circuit nodes; default 4,000,000
	MaxTermDepth     int           // nesting depth of a derived term; default 64
	MaxRuleExpansion int           // alternatives one rule's or/not nesting expands to; default 1024
	Timeout          time.Duration // wall time of Ground; default 60s

	// LenientUnsafe reads an unsafe variable of a fluent rule (one that no
	// positive body literal binds) as ggp-base's prover plays it: the rule
	// holds for every value, here every ground term of the description, with a
	// warning per variable. Off by default (strict): such a rule is not GDL,
	// its reading is a guess that other players do not share, and an
	// equivalence verdict built on a guess must be asked for.
	LenientUnsafe bool
}

// Default limits of Ground. DefaultMaxInstances bounds time only: a join
// match costs about a microsecond and no memory of its own (the gates it
// makes count against MaxCircuitNodes), so ten million stay well inside
// DefaultTimeout (racer4 needs 5.6 million).
const (
	DefaultMaxAtoms         = 2_000_000
	DefaultMaxInstances     = 10_000_000
	DefaultMaxCircuitNodes  = 4_000_000
	DefaultMaxTermDepth     = 64
	DefaultMaxRuleExpansion = 1024
	DefaultTimeout          = 60 * time.Second
)

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	if l.MaxAtoms <= 0 {
		l.MaxAtoms = DefaultMaxAtoms
	}
	if l.MaxInstances <= 0 {
		l.MaxInstances = DefaultMaxInstances
	}
	if l.MaxCircuitNodes <= 0 {
		l.MaxCircuitNodes = DefaultMaxCircuitNodes
	}
	if l.MaxTermDepth <= 0 {
		l.MaxTermDepth = DefaultMaxTermDepth
	}
	if l.MaxRuleExpansion <= 0 {
		l.MaxRuleExpansion = DefaultMaxRuleExpansion
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	return l
}

// Ground validates a parsed description and grounds it to a Program.
//
// Static relations are evaluated completely. Fluent relations get an
// over-approximated domain (true from init, next and base; does from legal and
// input; negated fluent literals ignored), rules are instantiated over it, and
// every keyword proposition becomes a literal of one circuit over "true p" and
// "does r a". Relations that only test their arguments with distinct are
// unfolded into their callers (inline.go), argument positions a relation's
// truth does not depend on are dropped (argfree.go), auxiliary fluent
// relations keep only the atoms their callers can ask for (demand.go; when
// a demand relation grows large and has outgrown its relation, or the atoms
// run out, a demand relation that is a product is split into its factors
// and Ground starts over), and
// every join is planned from the relations' sizes, not from the order of
// the body. A domain join stops enumerating where nothing new can follow (a
// step whose variables nothing after it needs; a head atom already derived).
// A circuit join whose head variables, once bound, only dense static atoms
// and tests read joins the rest once for all of them and tests its items
// per head atom (share.go: chess's attackers but the captured one).
// Recursion through fluent relations is unrolled to its least
// fixpoint. Validation problems come back as an ErrorList, exceeded limits
// as a *LimitError, cancellation as ctx.Err().
func Ground(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return ground(ctx, f, lim, memoProbe)
}

// ground is Ground with the number of lookups after which a join memo that
// does not pay is dropped (negative: never), for tests that check that
// dropping memos changes nothing.
func ground(ctx context.Context, f *File, lim Limits, memoProbe int64) (*Program, error) {
	return groundWith(ctx, f, lim, memoProbe, false)
}

// groundWith is ground with the demand rewrite (demand.go) optionally off,
// for tests that check that it changes nothing.
func groundWith(ctx context.Context, f *File, lim Limits, memoProbe int64, noDemand bool) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noDemand: noDemand})
}

// variant switches off parts of the grounder, for tests that check that
// they change nothing.
type variant struct {
	noDemand     bool // no demand rewrite (demand.go)
	noHeadFilter bool // no head filter in circuit joins (headFilter)
	// forceHeadFilter uses the head filter wherever it applies, without
	// the trial join first.
	forceHeadFilter bool
	noInline        bool // check relations not unfolded (inline.go)
	noVisited       bool // visited-list accumulators kept (visited.go)
	noReach         bool // relations no keyword relation uses kept (reach.go)
	noSubsume       bool // rules subsumed by another alternative of their source kept (subsume.go)
	noMergeChecks   bool // rules that differ in one test kept apart (mergechecks.go)
	noSingleUse     bool // single-use relations not unfolded (singleuse.go)
	noArgFree       bool // argument-free relations kept as written (argfree.go)
	noDomainCuts    bool // domain joins enumerate every match (step.exists, headDone)
	noDemandFactors bool // no new pass with outgrown demand relations factored (demand.go)
	// noEarlyFactors: outgrown demand relations are found only at MaxAtoms,
	// not as they outgrow (engine.measureDemand).
	noEarlyFactors bool
	noShare        bool // circuit joins without shared items (share.go)
	noPlanMasks    bool // join costs over []bool variable sets (joinCost.masks)
	// exactProducts: a growing demand relation is split only when it is a
	// product exactly (no demandProductSlack).
	exactProducts bool
	// workers of parallel domain rounds (parallel.go); 0: domainWorkers().
	workers int
	// parallelAlways runs every round with more than one join in parallel,
	// however small (no minParallelFacts).
	parallelAlways bool
	// onEngine, when set, sees the engine after grounding (tests read its
	// work counter).
	onEngine func(*engine)
}

func groundVariant(ctx context.Context, f *File, lim Limits, memoProbe int64, v variant) (*Program, error) {
	lim = lim.WithDefaults()
	// One Timeout over every pass.
	deadline := time.Now().Add(lim.Timeout)
	factors := map[string][][]int{}
	for pass := 0; ; {
		p, more, err := groundPass(ctx, f, lim, deadline, memoProbe, v, factors)
		if errors.Is(err, errDemandOutgrown) && len(more) > 0 {
			// Stopped early: each such pass factors one more of the
			// finitely many demand relations, so these end.
			maps.Copy(factors, more)
			continue
		}
		if len(more) == 0 || pass == demandFactorPasses || v.noDemandFactors {
			return p, err
		}
		// Start over with the outgrown demand relations factored (demand.go).
		maps.Copy(factors, more)
		pass++
	}
}

// groundPass is one attempt of groundVariant with the demand relations in
// factors split into groups (demand.go). When its domain phase stops at
// MaxAtoms it also returns the demand relations, not factored yet, that
// have outgrown their relations and are a product (engine.demandFactors).
func groundPass(ctx context.Context, f *File, lim Limits, deadline time.Time, memoProbe int64, v variant, factors map[string][][]int) (*Program, map[string][][]int, error) {
	noDemand := v.noDemand
	ts := newTermStore()
	c := &compiler{file: f.Name, ts: ts, lim: lim, noHeadFilter: v.noHeadFilter, forceHeadFilter: v.forceHeadFilter}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	c.compile(f)
	if c.limitErr != nil {
		return nil, nil, c.limitErr
	}
	if err := c.errs.Err(); err != nil {
		c.errs.Sort()
		return nil, nil, c.errs
	}
	sccs := c.analyze()
	c.resolveUnsafe()
	if len(c.errs) > 0 {
		c.errs.Sort()
		return nil, nil, c.errs
	}
	if !v.noSubsume {
		c.dropSubsumed()
	}
	if !v.noReach {
		c.dropUnreachable()
	}
	if !v.noVisited {
		c.dropVisited(sccs)
	}
	if !v.noInline {
		c.inlineChecks()
	}
	if !v.noSingleUse {
		c.inlineSingleUse()
	}
	if !v.noMergeChecks {
		c.dropRepeatedAtoms()
		c.mergeChecks()
	}
	if !v.noArgFree {
		c.dropFreeArgs()
	}
	if !noDemand {
		c.addDemand(sccs, factors)
	}
	e := &engine{ctx: ctx, lim: lim, ts: ts, c: c, deadline: deadline, memoProbe: memoProbe, noCuts: v.noDomainCuts, noShare: v.noShare, noPlanMasks: v.noPlanMasks, workers: v.workers}
	if e.workers == 0 {
		e.workers = domainWorkers()
	}
	if !v.parallelAlways {
		e.minParallel = minParallelFacts
	}
	e.facts = make([]*factSet, len(c.rels))
	for i, r := range c.rels {
		e.facts[i] = newFactSet(r.arity)
	}
	// Every ground term of the description, for variables that range over all of them.
	for t := range ts.fn {
		e.facts[c.universe].add([]int32{int32(t)})
	}
	if !noDemand && !v.noDemandFactors && !v.noEarlyFactors {
		e.watchDemand(factors)
	}
	e.productSlack = demandProductSlack
	if v.exactProducts {
		e.productSlack = 1
	}
	g := &grounder{c: c, e: e, ts: ts, file: f, sccs: sccs}
	p, err := g.run()
	if v.onEngine != nil {
		v.onEngine(e)
	}
	if err != nil {
		more := map[string][][]int{}
		for k, groups := range g.factors {
			if _, ok := factors[k]; !ok {
				more[k] = groups
			}
		}
		return nil, more, err
	}
	p.Name = f.Name
	p.Warnings = append(append(ErrorList(nil), f.Warnings...), c.warnings...)
	p.Warnings.Sort()
	p.Notes = c.notes
	p.Notes.Sort()
	return p, nil, nil
}

// Load parses and grounds GDL source text.
func Load(ctx context.Context, name string, src []byte, lim Limits) (*Program, error) {
	f, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	return Ground(ctx, f, lim)
}

type grounder struct {
	c    *compiler
	e    *engine
	ts   *termStore
	file *File
	sccs [][]int32
	errs ErrorList
	// factors: the domain phase stopped at MaxAtoms, and these relations'
	// demand relations had outgrown them and were products
	// (engine.demandFactors).
	factors map[string][][]int

	propOf   []int32    // fact id of a true atom -> proposition id
	actionOf [][2]int32 // fact id of a does atom -> (role, action id)
}

func (g *grounder) errorf(pos Pos, format string, args ...any) {
	g.errs.Add(g.file.Name, pos, format, args...)
}

func (g *grounder) rel(k keyword) int32 { return g.c.kwRel[k] }

// startPos is where errors about the description as a whole (no roles, no
// terminal rule) point: its first line, so that every error message reads
// FILE:LINE:COL.
var startPos = Pos{Line: 1, Col: 1}

// rolePos returns the position of the first rule that declares role name,
// or startPos.
func (g *grounder) rolePos(name string) Pos {
	for _, r := range g.file.Rules {
		if h := r.Head; h.Name == "role" && len(h.Args) == 1 && h.Args[0].String() == name {
			return r.Pos
		}
	}
	return startPos
}

func (g *grounder) run() (*Program, error) {
	c, e := g.c, g.e
	static := func(rel int32) bool { return c.rels[rel].static }
	// 1. Static relations, one component at a time in dependency order.
	e.dropNeg = func(int32) bool { return false }
	for i, comp := range g.sccs {
		if !c.rels[comp[0]].static {
			continue
		}
		var rules []*nrule
		for _, v := range comp {
			for _, ri := range c.rels[v].rules {
				rules = append(rules, c.rules[ri])
			}
		}
		if len(rules) == 0 {
			continue
		}
		scc := int32(i)
		e.fixpoint(rules, func(rel int32) bool { return c.rels[rel].scc == scc })
		if e.err != nil {
			return nil, e.err
		}
	}
	roleRel := g.rel(kwRole)
	if e.facts[roleRel].n == 0 {
		g.errorf(startPos, "no roles: the description has no (role ...) facts")
		return nil, g.errs
	}
	if len(c.rels[g.rel(kwTerminal)].rules) == 0 {
		g.errorf(startPos, "no terminal rule: the game can never end")
	}
	// 2. Domains of fluent relations: an over-approximation that ignores negation.
	var rules []*nrule
	for _, r := range c.rules {
		if !static(r.head) {
			rules = append(rules, r)
		}
	}
	bridge := func(head keyword, headArgs []pat, body ...basic) *nrule {
		return &nrule{head: g.rel(head), headArgs: headArgs, body: body, varNames: []string{"x", "y"}}
	}
	x, y := pat{v: 0, t: -1}, pat{v: 1, t: -1}
	atom := func(k keyword, args ...pat) basic { return basic{kind: bPos, rel: g.rel(k), args: args} }
	rules = append(rules,
		bridge(kwTrue, []pat{x}, atom(kwInit, x)),
		bridge(kwTrue, []pat{x}, atom(kwNext, x)),
		bridge(kwTrue, []pat{x}, atom(kwBase, x)),
		bridge(kwDoes, []pat{x, y}, atom(kwRole, x), atom(kwLegal, x, y)),
		bridge(kwDoes, []pat{x, y}, atom(kwRole, x), atom(kwInput, x, y)),
	)
	e.dropNeg = func(rel int32) bool { return !static(rel) }
	e.fixpoint(rules, func(rel int32) bool { return !static(rel) })
	e.domainWork = e.work
	e.measureAt = nil
	if le := (*LimitError)(nil); errors.As(e.err, &le) && le.What == "MaxAtoms" {
		g.factors = e.demandFactors()
	}
	if errors.Is(e.err, errDemandOutgrown) {
		g.factors = e.outgrown
	}
	if e.err != nil {
		return nil, e.err
	}
	if err := e.checkpoint(); err != nil {
		return nil, err
	}
	p := g.program()
	if len(g.errs) > 0 {
		g.errs.Sort()
		return nil, g.errs
	}
	if err := g.circuit(p); err != nil {
		return nil, err
	}
	if err := e.checkpoint(); err != nil {
		return nil, err
	}
	return p, nil
}

// program fills roles, propositions, actions and the initial state.
func (g *grounder) program() *Program {
	e, ts := g.e, g.ts
	p := &Program{}
	roles := e.facts[g.rel(kwRole)]
	roleOf := map[int32]int{}
	for i := int32(0); i < roles.n; i++ {
		t := roles.tuple(i)[0]
		roleOf[t] = len(p.Roles)
		p.Roles = append(p.Roles, ts.String(t))
	}
	trues := e.facts[g.rel(kwTrue)]
	g.propOf = make([]int32, trues.n)
	order := make([]int32, trues.n)
	names := make([]string, trues.n)
	for i := int32(0); i < trues.n; i++ {
		order[i] = i
		names[i] = ts.String(trues.tuple(i)[0])
	}
	sort.Slice(order, func(a, b int) bool { return names[order[a]] < names[order[b]] })
	for id, fact := range order {
		g.propOf[fact] = int32(id)
		p.Props = append(p.Props, names[fact])
	}
	does := e.facts[g.rel(kwDoes)]
	p.Actions = make([][]string, len(p.Roles))
	type act struct {
		role int
		name string
		fact int32
	}
	acts := make([]act, 0, does.n)
	for i := int32(0); i < does.n; i++ {
		t := does.tuple(i)
		acts = append(acts, act{roleOf[t[0]], ts.String(t[1]), i})
	}
	sort.Slice(acts, func(a, b int) bool {
		if acts[a].role != acts[b].role {
			return acts[a].role < acts[b].role
		}
		return acts[a].name < acts[b].name
	})
	g.actionOf = make([][2]int32, does.n)
	for _, a := range acts {
		g.actionOf[a.fact] = [2]int32{int32(a.role), int32(len(p.Actions[a.role]))}
		p.Actions[a.role] = append(p.Actions[a.role], a.name)
	}
	for r, as := range p.Actions {
		if len(as) == 0 {
			g.errorf(g.rolePos(p.Roles[r]), "role %s has no legal move in any state", p.Roles[r])
		}
	}
	inits := e.facts[g.rel(kwInit)]
	for i := int32(0); i < inits.n; i++ {
		id, _ := trues.lookup(inits.tuple(i))
		p.Init = append(p.Init, g.propOf[id])
	}
	slices.Sort(p.Init)
	p.index()
	return p
}

// circuit builds the literal of every fluent atom and the keyword functions.
func (g *grounder) circuit(p *Program) error {
	c, e := g.c, g.e
	nInputs := len(p.Props)
	for _, as := range p.Actions {
		nInputs += len(as)
	}
	if nInputs+1 > e.lim.MaxCircuitNodes {
		return &LimitError{What: "MaxCircuitNodes", Limit: int64(e.lim.MaxCircuitNodes), Got: int64(nInputs + 1), Where: "the inputs (propositions and actions) alone"}
	}
	// Atoms of recursive components get placeholder inputs after the real
	// ones: each component is built once as a template over its own atoms,
	// and its rounds substitute literals into the template.
	placeholders := 0
	for _, comp := range g.sccs {
		if !c.rels[comp[0]].static && g.recursive(comp) {
			for _, rel := range comp {
				placeholders += int(e.facts[rel].n)
			}
		}
	}
	b := newBuilder(nInputs, placeholders, e.lim.MaxCircuitNodes)
	nextPlaceholder := nInputs
	lits := make([][]Lit, len(c.rels))
	trueRel, doesRel := g.rel(kwTrue), g.rel(kwDoes)
	lits[trueRel] = make([]Lit, e.facts[trueRel].n)
	for id, prop := range g.propOf {
		lits[trueRel][id] = p.TrueInput(int(prop))
	}
	lits[doesRel] = make([]Lit, e.facts[doesRel].n)
	for id, ra := range g.actionOf {
		lits[doesRel][id] = p.DoesInput(int(ra[0]), int(ra[1]))
	}
	litOf := func(rel, id int32) Lit { return lits[rel][id] }
	noDelta := func(int32) bool { return false }
	plans := map[*nrule]*plan{}
	// The rules in the order evalComp plans them, planned ahead (parallel.go).
	var order []*nrule
	for _, comp := range g.sccs {
		if c.rels[comp[0]].static || comp[0] == trueRel || comp[0] == doesRel {
			continue
		}
		for _, rel := range comp {
			for _, ri := range c.rels[rel].rules {
				order = append(order, c.rules[ri])
			}
		}
	}
	ahead := map[*nrule]int{}
	var planOf func(i int) *plan
	if e.workers > 1 {
		var stop func()
		planOf, stop = e.planAhead(order)
		defer stop()
		for i, r := range order {
			ahead[r] = i
		}
	}
	// evalComp computes the literals of one component's atoms from the current ones.
	evalComp := func(comp []int32) [][]Lit {
		next := make([][]Lit, len(comp))
		for k, rel := range comp {
			alts := make([][]Lit, e.facts[rel].n)
			for _, ri := range c.rels[rel].rules {
				r := c.rules[ri]
				pl, ok := plans[r]
				if i, planned := ahead[r]; !ok && planned {
					pl = planOf(i)
					plans[r] = pl
				} else if !ok {
					pl = e.makePlan(r, -1, noDelta, true)
					plans[r] = pl
				}
				var res *joined
				if hr := c.headFilter(r); hr != r && c.forceHeadFilter {
					if !ok {
						pl = e.makePlan(hr, -1, noDelta, true)
						plans[r] = pl
					}
				} else if hr != r {
					// A trial: the plain join within a budget, else the
					// join with the head bound first (headFilter).
					res = e.trialJoin(pl, b, litOf, int64(e.facts[rel].n))
					if res == nil {
						pl = e.makePlan(hr, -1, noDelta, true)
						plans[r] = pl
					}
				}
				if res == nil {
					res = e.join(pl, b, litOf)
				}
				for i, t := range res.tuples {
					id, ok := e.facts[rel].lookup(t)
					if !ok {
						e.fail(fmt.Errorf("internal error: derived %s atom outside its domain", c.rels[rel].name))
						return nil
					}
					alts[id] = append(alts[id], res.lits[i])
				}
			}
			next[k] = make([]Lit, len(alts))
			for id, a := range alts {
				next[k][id] = b.Or(a...)
			}
		}
		return next
	}
	for _, comp := range g.sccs {
		if c.rels[comp[0]].static || comp[0] == trueRel || comp[0] == doesRel {
			continue
		}
		if !g.recursive(comp) {
			for k, ls := range evalComp(comp) {
				lits[comp[k]] = ls
			}
		} else {
			// The template: the component's rules over placeholders for its atoms.
			first := nextPlaceholder
			for _, rel := range comp {
				lits[rel] = make([]Lit, e.facts[rel].n)
				for id := range lits[rel] {
					lits[rel][id] = InputLit(nextPlaceholder)
					nextPlaceholder++
				}
			}
			lo := b.c.NumNodes()
			tmpl := evalComp(comp)
			// The least fixpoint: start from all false; each round derives what
			// is provable in one more step, so after as many rounds as the
			// component has atoms nothing new can appear.
			cur := make([]Lit, nextPlaceholder-first)
			memo := b.newSubstMemo(lo, b.c.NumNodes(), first, len(cur))
			var prev []Lit
			rounds := len(cur)
			if n, ok := g.chainRounds(comp); ok {
				rounds = min(rounds, n)
			}
			for round := 0; round <= rounds && e.err == nil && b.err == nil; round++ {
				memo.next(prev, cur)
				next := make([]Lit, 0, len(cur))
				for _, ls := range tmpl {
					for _, l := range ls {
						s, _ := b.substitute(l, first, cur, memo)
						next = append(next, s)
					}
				}
				same := slices.Equal(next, cur)
				prev, cur = cur, next
				if same || !e.tick() {
					break
				}
			}
			k := 0
			for _, rel := range comp {
				for id := range lits[rel] {
					lits[rel][id] = cur[k]
					k++
				}
			}
		}
		if b.err != nil {
			return b.err
		}
		if e.err != nil {
			return e.err
		}
	}
	// lit reads an atom of a keyword relation: constant for static relations.
	lit := func(rel int32, tuple []int32) Lit {
		id, ok := e.facts[rel].lookup(tuple)
		switch {
		case !ok:
			return False
		case c.rels[rel].static:
			return True
		}
		return lits[rel][id]
	}
	ts := g.ts
	legalRel, nextRel, goalRel := g.rel(kwLegal), g.rel(kwNext), g.rel(kwGoal)
	does := e.facts[doesRel]
	p.Legal = make([][]Lit, len(p.Roles))
	for r := range p.Roles {
		p.Legal[r] = make([]Lit, len(p.Actions[r]))
	}
	for id, ra := range g.actionOf {
		p.Legal[ra[0]][ra[1]] = lit(legalRel, does.tuple(int32(id)))
	}
	trues := e.facts[trueRel]
	p.Next = make([]Lit, len(p.Props))
	for id, prop := range g.propOf {
		p.Next[prop] = lit(nextRel, trues.tuple(int32(id)))
	}
	p.Goals = make([][]Goal, len(p.Roles))
	goals := e.facts[goalRel]
	byValue := make([]map[int][]Lit, len(p.Roles)) // "100" and "0100" are one goal value
	for i := int32(0); i < goals.n; i++ {
		t := goals.tuple(i)
		r, ok := p.RoleID(ts.String(t[0]))
		if !ok {
			continue // a goal of something that is not a role never matters
		}
		v, err := strconv.Atoi(ts.String(t[1]))
		if err != nil || v < 0 || v > 100 {
			g.errorf(g.c.goalPos[ts.String(t[0])+" "+ts.String(t[1])], "goal value %s of role %s is not an integer in 0..100", ts.String(t[1]), p.Roles[r])
			continue
		}
		if byValue[r] == nil {
			byValue[r] = map[int][]Lit{}
		}
		byValue[r][v] = append(byValue[r][v], lit(goalRel, t))
	}
	for r, m := range byValue {
		for v, ls := range m {
			p.Goals[r] = append(p.Goals[r], Goal{Value: v, Lit: b.Or(ls...)})
		}
		slices.SortFunc(p.Goals[r], func(a, b Goal) int { return a.Value - b.Value })
	}
	p.Terminal = lit(g.rel(kwTerminal), nil)
	if len(g.errs) > 0 {
		g.errs.Sort()
		return g.errs
	}
	roots := []*Lit{&p.Terminal}
	for r := range p.Legal {
		for a := range p.Legal[r] {
			roots = append(roots, &p.Legal[r][a])
		}
		for k := range p.Goals[r] {
			roots = append(roots, &p.Goals[r][k].Lit)
		}
	}
	for q := range p.Next {
		roots = append(roots, &p.Next[q])
	}
	p.Circuit = compact(&b.c, roots, nInputs)
	return nil
}

// headFilter returns r with its head's domain as a first body literal, a
// pure filter (true in the circuit, like a demand literal), when binding
// the head first splits the rest of the body: in circuit mode the head
// atoms a rule can derive are known (the domain phase over-approximates
// them), and once every head variable is bound, body atoms that share no
// other variable are independent, each one disjunction shared through the
// join memo (keyed by the body's live variables once the head is bound).
// Joined one after another without the head, their instances can
// multiply: racer's legal_speed joins the player's velocities, positions
// and the track (2-4 million rule matches without the head first, 1-2
// million with it). Where the plain join order is good the filter costs
// more (a pass over the head's atoms per rule), so grounder.circuit tries
// the plain join first within a budget (trialJoin); where the body stays
// one piece nothing splits. The filter does not ask how many rules the
// head's relation has: each rule whose trial failed passes over the atoms
// of all of them, but that pass costs less than the failed trial, and a
// condition on the source rules broke on equivalent rewrites (racer4's
// legal_speed written as two rules instead of one with an or: MaxInstances
// where the original needs a tenth of it).
func (c *compiler) headFilter(r *nrule) *nrule {
	head := make([]bool, len(r.varNames))
	for _, a := range r.headArgs {
		markBound(head, a)
	}
	if c.noHeadFilter || !anyBound(head) || r.src == nil || bodyParts(r, head) < 2 {
		return r
	}
	nr := *r
	nr.body = append(slices.Clip(r.body), basic{kind: bPos, pos: srcPos(r), rel: r.head, args: r.headArgs, demand: true})
	return &nr
}

// bodyParts counts the groups of r's positive atoms (demand literals left
// out) that are linked by variables other than the bound ones.
func bodyParts(r *nrule, bound []bool) int {
	parent := make([]int, len(r.varNames))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	var vs []int32
	var atomVars [][]int32
	for _, b := range r.body {
		if b.kind != bPos || b.demand {
			continue
		}
		vs = vs[:0]
		for _, a := range b.args {
			vs = patVars(vs, a)
		}
		var free []int32
		for _, v := range vs {
			if !bound[v] {
				free = append(free, v)
			}
		}
		for _, v := range free[min(1, len(free)):] {
			parent[find(int(v))] = find(int(free[0]))
		}
		atomVars = append(atomVars, free)
	}
	roots := map[int]bool{}
	for _, free := range atomVars {
		if len(free) > 0 {
			roots[find(int(free[0]))] = true
		}
	}
	return len(roots)
}

// recursive reports whether a component has a cycle (several relations, or a self-loop).
func (g *grounder) recursive(comp []int32) bool {
	if len(comp) > 1 {
		return true
	}
	for _, ri := range g.c.rels[comp[0]].rules {
		for _, l := range g.c.rules[ri].body {
			if l.kind == bPos && l.rel == comp[0] {
				return true
			}
		}
	}
	return false
}

// trialBudgetPerAtom is the rule matches per head atom that a circuit
// join may take before the join with the head bound first is tried
// instead (headFilter): that join costs about the matches of its parts per
// head atom, so a plain join that has passed this many has lost.
const trialBudgetPerAtom = 64

// trialMinBudget is the least budget of a trial join.
const trialMinBudget = 100_000

// trialJoin runs a circuit join within a budget of rule matches scaled
// to the head's atoms; nil when it ran out (its matches are not counted).
func (e *engine) trialJoin(p *plan, b *builder, litOf func(rel, id int32) Lit, headAtoms int64) *joined {
	before := e.matches
	e.budget = min(e.lim.MaxInstances, before+max(trialMinBudget, trialBudgetPerAtom*headAtoms))
	res := e.join(p, b, litOf)
	e.budget = 0
	if e.overBudget {
		e.overBudget = false
		e.matches = before
		return nil
	}
	return res
}

// srcPos is the position of the rule r comes from, if any.
func srcPos(r *nrule) Pos {
	if r.src == nil {
		return startPos
	}
	return r.src.Pos
}

// chainRounds bounds the rounds of a recursive component's fixpoint when
// every member has chain keys (visited.go): a shortest derivation is a
// chain of different atoms that agree at the keys, so it is no longer than
// the most atoms of the component that share their key values. A member
// without rules (dropVisitedFolded unfolded it) has no atoms and needs none.
func (g *grounder) chainRounds(comp []int32) (int, bool) {
	count := map[string]int{}
	for _, rel := range comp {
		if _, ok := g.c.chainKeys[rel]; !ok && len(g.c.rels[rel].rules) > 0 {
			return 0, false
		}
	}
	most := 0
	for _, rel := range comp {
		key := g.c.chainKeys[rel]
		fs := g.e.facts[rel]
		buf := make([]byte, 0, 4*len(key))
		for id := int32(0); id < fs.n; id++ {
			t := fs.tuple(id)
			buf = buf[:0]
			for _, q := range key {
				buf = binary.LittleEndian.AppendUint32(buf, uint32(t[q]))
			}
			count[string(buf)]++
			most = max(most, count[string(buf)])
		}
	}
	return most, true
}
