package groundgraph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamequiv/gamequiv/grounding"
)

// FuncFeatures are the semantic features of one reasoning function: what
// Build knows about it besides its place in the graph. Every field except
// Function is invariant under space-consistent equivalence: the image of
// the function under an SCGE has the same values, input by input.
type FuncFeatures struct {
	Function grounding.Function
	// Support is the semantic support (satcheck.SemanticSupport): the
	// circuit inputs, ascending, whose change can change the function. For
	// legal, goal and terminal it holds propositions only.
	Support Support
	// RowsLog2 is log2 of the size of the semantic input space:
	// 2^(propositions of Support) × Π (actions of each role of Support).
	RowsLog2 float64
	// Tabled reports whether the complete truth table over the semantic
	// input space was computed (see Options). Models, Influence and
	// Interaction are zero otherwise.
	Tabled bool
	// Rows is the size of the semantic input space, or 0 when it exceeds
	// 2^40 (such a function is never tabled).
	Rows int64
	// Models counts the rows where the function is true. A function with an
	// empty Support is constant: Models is then its value, 0 or 1.
	Models int64
	// Influence[i] is the influence of Support[i]: for a proposition, the
	// number of rows x with f(x) ≠ f(x with the proposition flipped); for an
	// action a of role r, the number of rows (whose choice for r is some
	// action b) with f ≠ f with b replaced by a.
	Influence []int64
	// Interaction lists, for each pair of propositions of Support (i < j in
	// the order (0,1), (0,2), ..., (1,2), ...), the number of rows x with
	// f(x) ⊕ f(x^i) ⊕ f(x^j) ⊕ f(x^ij) = 1; nil when the function has more
	// than Options.MaxInteractionProps propositions or is not tabled.
	Interaction []int64
	// CornerRadius is the distance up to which corners were searched (0:
	// not searched, see Options.MaxCornerWeight). Corners of up to
	// CornerRadius propositions are searched from both anchors: the state
	// where no proposition of Support holds and the one where all hold.
	// Only functions that read no actions semantically have corners.
	CornerRadius int
	// Corners lists the corners found, from the all-false anchor first,
	// each group in colex order of positions in Support.
	Corners []CornerSet
	// TooManyCorners[a] reports that the anchor (0: all false, 1: all
	// true) has more than Options.MaxCorners corners; none of them are in
	// Corners. When the function has at most Options.MaxCornerCountProps
	// semantic propositions they are counted instead (cornerCounts).
	TooManyCorners [2]bool
	// Color is the function's colour: a hash of its kind (and goal value)
	// and of the invariant features above, as multisets.
	Color int32

	// cornerCounts[a]: per proposition and per pair of propositions
	// (positions in Support), the number of corners from anchor a that
	// hold them, when there were too many corners to list.
	cornerCounts [2]*cornerCounts
	// actClasses[ri]: for a next function, the classes of the actions of
	// role roles[ri] with equal cofactors (see actions.go); nil otherwise.
	actClasses [][][]int
	// actRest[ri]: the implicit class of a role with many actions, whose
	// actions actClasses[ri] does not list (restclass.go); nil when none.
	actRest []restClass
	// tooManyCofactorCorners counts the (cofactor, anchor) pairs of a
	// next function that reads actions with more than Options.MaxCorners
	// corners (dropped).
	tooManyCofactorCorners int
	nProps                 int    // propositions in Support (they come first)
	roles                  []int  // roles of the actions in Support, ascending
	hash                   uint64 // full-width colour
}

// Constant reports whether f is a constant function, and its value.
func (ff *FuncFeatures) Constant() (value, ok bool) {
	if ff.Support.Len() != 0 || !ff.Tabled {
		return false, false
	}
	return ff.Models == 1, true
}

// Build returns the coloured ground graph of p. It fails only on a cancelled
// context, a malformed Program, or a satcheck error (a SAT limit) while
// computing semantic supports; options never make it fail, they make it
// compute fewer features.
func Build(ctx context.Context, p *grounding.Program, opt Options) (*Graph, error) {
	t0 := time.Now()
	opt = opt.withDefaults()
	if err := checkProgram(p); err != nil {
		return nil, err
	}
	b := &builder{p: p, opt: opt, moves: true}
	for _, as := range p.Actions {
		if len(as) == 0 {
			b.moves = false
		}
	}
	for _, f := range p.Functions() {
		if f.Kind == grounding.FuncNext && !b.moves {
			continue
		}
		b.funcs = append(b.funcs, FuncFeatures{Function: f})
	}
	if err := b.supports(ctx); err != nil {
		return nil, err
	}
	// Only supports use the manager: its tables go before the features.
	putSupportBDD(b.bdd)
	b.bdd = nil
	t1 := time.Now()
	if err := b.tables(ctx); err != nil {
		return nil, err
	}
	if err := b.actionClasses(ctx); err != nil {
		return nil, err
	}
	if err := b.corners(ctx); err != nil {
		return nil, err
	}
	for i := range b.funcs {
		b.funcs[i].hash = b.funcHash(&b.funcs[i])
		b.funcs[i].Color = color32(b.funcs[i].hash)
	}
	g, err := b.graph(ctx)
	if err != nil {
		return nil, err
	}
	// Cofactor corners where the graph leaves symmetry (cofactors.go).
	if redo, err := b.cofactorCorners(ctx, g); err != nil {
		return nil, err
	} else if redo {
		for i := range b.funcs {
			b.funcs[i].hash = b.funcHash(&b.funcs[i])
			b.funcs[i].Color = color32(b.funcs[i].hash)
		}
		if g, err = b.graph(ctx); err != nil {
			return nil, err
		}
	}
	t2 := time.Now()
	// The cofactor round's corner stats, also when it rebuilt nothing.
	g.stats.CornerFuncs = b.stats.CornerFuncs
	g.stats.CornerPoints = b.stats.CornerPoints
	g.stats.SkippedCorners = b.stats.SkippedCorners
	g.stats.GateWords = b.gateWords.Load()
	g.stats.DependsOnCalls = b.dependsOn.Load()
	g.stats.ResidueTables = b.residueTables.Load()
	g.stats.SupportBDDs = b.supportBDDs.Load()
	if b.fam != nil {
		g.stats.FamilyFunctions = len(b.fam.row)
	}
	g.stats.ChoiceBDDSupports = b.choiceSupports.Load()
	g.stats.Support = t1.Sub(t0)
	g.stats.Features = t2.Sub(t1)
	g.stats.Total = time.Since(t0)
	return g, nil
}

// checkProgram rejects Programs whose shape the builder would index out of
// range.
func checkProgram(p *grounding.Program) error {
	if p == nil {
		return errors.New("groundgraph: nil program")
	}
	n := len(p.Props)
	if len(p.Actions) != len(p.Roles) || len(p.Legal) != len(p.Roles) || len(p.Goals) != len(p.Roles) {
		return fmt.Errorf("groundgraph: %s: %d roles but %d action, %d legal and %d goal lists",
			p.Name, len(p.Roles), len(p.Actions), len(p.Legal), len(p.Goals))
	}
	for r, as := range p.Actions {
		if len(p.Legal[r]) != len(as) {
			return fmt.Errorf("groundgraph: %s: role %s has %d actions but %d legal functions", p.Name, p.Roles[r], len(as), len(p.Legal[r]))
		}
		n += len(as)
	}
	if len(p.Next) != len(p.Props) {
		return fmt.Errorf("groundgraph: %s: %d propositions but %d next functions", p.Name, len(p.Props), len(p.Next))
	}
	if p.Circuit.NumInputs != n {
		return fmt.Errorf("groundgraph: %s: circuit has %d inputs, want %d", p.Name, p.Circuit.NumInputs, n)
	}
	nn := p.Circuit.NumNodes()
	for _, f := range p.Functions() {
		if f.Lit.Node() >= nn {
			return fmt.Errorf("groundgraph: %s: %s is literal %d beyond %d circuit nodes", p.Name, p.FunctionName(f), f.Lit, nn)
		}
	}
	return nil
}

type builder struct {
	p     *grounding.Program
	opt   Options
	moves bool // every role has an action, so next functions are constrained
	funcs []FuncFeatures
	stats Stats

	gateWords     atomic.Int64 // gate evaluations × words of all tables
	dependsOn     atomic.Int64 // calls of satcheck.DependsOn
	residueTables atomic.Int64 // truth tables that settled simulation's undecided inputs
	supportBDDs   atomic.Int64 // BDDs that did
	// choiceBDDs: cofactor BDD managers of next functions (bddchoice.go),
	// nil when Options.MaxBDDNodes or MaxBDDChoices is negative.
	choiceBDDs *choiceBDDs
	// bddClassWins and bddClassFails count the functions whose action
	// classes BDDs decided or outgrew their bound on (bddClassFailSlack);
	// simClassWins those satcheck settled without SAT (bddClassFirstSlack).
	bddClassWins, bddClassFails atomic.Int64
	simClassWins                atomic.Int64
	choiceSupports              atomic.Int64 // next functions whose cofactor BDDs settled them
	bdd                         *supportBDD  // nil when Options.MaxBDDNodes < 0
	fam                         *famDeps     // family simulation's witnesses (famsim.go), or nil

	// shapeOf[i]: the first function whose cone is function i's up to a
	// renaming of its propositions (grounding.Cone.PropRenamingKey) and
	// that reads moves when it does: functions of one shape share it.
	// The keys themselves are dropped once grouped (amazons: 662 distinct
	// keys of ~200 KiB each).
	shapeOf []int

	cones coneCache
}

// maxCachedFanins bounds the fanins of the cones one Build keeps (4 bytes
// each): the small games' cones, built once instead of once per stage,
// and a bounded share of a big game's.
const maxCachedFanins = 1 << 24

// coneCache keeps the cones of function literals across the stages of a
// Build, within maxCachedFanins.
type coneCache struct {
	mu     sync.Mutex
	of     map[grounding.Lit]*cone
	fanins int
}

// cone returns the cone of lit, for the caller's use alone (a clone of the
// one kept).
func (b *builder) cone(lit grounding.Lit) (*cone, error) {
	cc := &b.cones
	cc.mu.Lock()
	cn, ok := cc.of[lit]
	cc.mu.Unlock()
	if ok {
		return cn.Clone(), nil
	}
	cn, err := newCone(&b.p.Circuit, lit)
	if err != nil {
		return nil, err
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if _, ok := cc.of[lit]; !ok && cc.fanins+len(cn.Fanin) <= maxCachedFanins {
		if cc.of == nil {
			cc.of = map[grounding.Lit]*cone{}
		}
		cc.of[lit] = cn.Clone()
		cc.fanins += len(cn.Fanin)
	}
	return cn, nil
}

// coneShape is what is kept of a function's cone up to a renaming of its
// propositions: its propositions in the order of its key (groupByKey).
type coneShape struct {
	props []int32
	bdd   int // the cone's gates when a BDD may decide its support, else 0
}

// supports computes each function's semantic support and the size of its
// semantic input space.
func (b *builder) supports(ctx context.Context) error {
	p := b.p
	nProps := len(p.Props)
	// The support depends only on the literal and on whether moves are
	// read (next functions): functions that share both (say two goals that
	// are the same function) share one computation.
	type suppKey struct {
		lit  grounding.Lit
		next bool
	}
	firstOf := map[suppKey]int{}
	var uniq []int
	for i := range b.funcs {
		f := b.funcs[i].Function
		key := suppKey{f.Lit, f.Kind == grounding.FuncNext}
		if _, ok := firstOf[key]; !ok {
			firstOf[key] = i
			uniq = append(uniq, i)
		}
	}
	// Functions whose cones are the same circuit up to a renaming of
	// their propositions (kalaha's pits, battle's capture counters) have
	// the same support up to that renaming: it is computed for the first
	// of them and mapped to the others.
	shapes := make([]coneShape, len(uniq))
	repOf, reps, err := groupByKey(ctx, len(uniq), b.opt.Workers, func(k int) (string, error) {
		cn, err := b.cone(b.funcs[uniq[k]].Function.Lit)
		if err != nil {
			return "", err
		}
		key, props := cn.PropRenamingKey(func(in int32) bool { return int(in) < nProps })
		shapes[k].props = props
		if n := len(cn.Inputs); n > 0 && n > b.opt.SupportTableBits && int(cn.Inputs[n-1]) < nProps {
			shapes[k].bdd = len(cn.Gates) // no truth table, no moves read (simSupport)
		}
		if b.funcs[uniq[k]].Function.Kind == grounding.FuncNext {
			return key + "n", nil // reads moves
		}
		return key + "s", nil
	})
	if err != nil {
		return err
	}
	if b.opt.MaxBDDNodes > 0 {
		var fs []int
		for _, k := range reps {
			if shapes[k].bdd > 0 {
				fs = append(fs, k)
			}
		}
		slices.SortStableFunc(fs, func(x, y int) int { return cmp.Compare(shapes[y].bdd, shapes[x].bdd) })
		for j, k := range fs {
			fs[j] = uniq[k]
		}
		if err := b.newBDDs(ctx, fs); err != nil {
			return err
		}
	}
	var fam []int
	var famGates int64
	for _, k := range reps {
		if shapes[k].bdd > 0 {
			fam = append(fam, uniq[k])
			famGates += int64(shapes[k].bdd)
		}
	}
	if err := b.simulateFamily(ctx, fam, famGates); err != nil {
		return err
	}
	b.shapeOf = make([]int, len(b.funcs))
	tick := b.tick("semantic supports", len(reps))
	err = parallel(ctx, len(reps), b.opt.Workers, func(k int) error {
		defer tick()
		ff := &b.funcs[uniq[reps[k]]]
		f := ff.Function
		supp, err := b.semanticSupport(ctx, f)
		if err != nil {
			return fmt.Errorf("groundgraph: semantic support of %s: %w", p.FunctionName(f), err)
		}
		ff.Support = supp
		return nil
	})
	if err != nil {
		return err
	}
	for k, i := range uniq {
		r := repOf[k]
		b.shapeOf[i] = uniq[r]
		if r == k {
			continue
		}
		rename := make(map[int]int, len(shapes[r].props))
		for j, in := range shapes[r].props {
			rename[int(in)] = int(shapes[k].props[j])
		}
		rs := &b.funcs[uniq[r]].Support
		var props []int
		if n := len(rs.Props()); n > 0 {
			props = make([]int, 0, n)
		}
		for _, in := range rs.Props() {
			props = append(props, rename[in])
		}
		slices.Sort(props)
		b.funcs[i].Support = newSupport(p, props, rs.Roles())
	}
	for i := range b.funcs {
		ff := &b.funcs[i]
		f := ff.Function
		if j := firstOf[suppKey{f.Lit, f.Kind == grounding.FuncNext}]; j != i {
			ff.Support = b.funcs[j].Support // shared: supports are not modified
			b.shapeOf[i] = b.shapeOf[j]
		}
		rows := uint64(1)
		for range ff.Support.Props() {
			ff.nProps++
			ff.RowsLog2++
			rows = mulSat(rows, 2)
		}
		ff.roles = ff.Support.Roles()
		for _, r := range ff.roles {
			ff.RowsLog2 += math.Log2(float64(len(p.Actions[r])))
			rows = mulSat(rows, uint64(len(p.Actions[r])))
		}
		if rows <= 1<<maxTableBits {
			ff.Rows = int64(rows)
		}
	}
	return nil
}

// newBDDs makes the Build's BDD managers, their variable order
// (grounding.PropOrder) ranked by the cones of fs, the functions whose supports a
// BDD may decide, largest cone first: the largest cones hold the structure
// most functions share (merrills' piece count, read by its goals, terminal
// and legal moves).
func (b *builder) newBDDs(ctx context.Context, fs []int) error {
	var err error
	cones := func(yield func(*cone) bool) {
		for _, i := range fs {
			var cn *cone
			if cn, err = b.cone(b.funcs[i].Function.Lit); err != nil || !yield(cn) {
				return
			}
		}
	}
	rank, rerr := grounding.StructuralRanks(ctx, len(b.p.Props), cones)
	if err := cmp.Or(err, rerr); err != nil {
		return err
	}
	level, prop := grounding.PropOrder(b.p.Props, rank)
	b.bdd = getSupportBDD(b.opt.MaxBDDNodes, level, prop)
	if b.opt.MaxBDDChoices > 0 {
		b.choiceBDDs = newChoiceBDDs(b.opt.Workers, b.opt.MaxBDDNodes, level, prop)
	}
	return nil
}

// semanticSupport returns the semantic support of f (as
// satcheck.SemanticSupport defines it, restricted to propositions for
// functions of the state alone). When the syntactic input space is small
// enough it is read off a truth table of the cone; otherwise satcheck
// decides it by simulation and SAT. Both are exact, so the choice, which
// depends on the description, does not change the result.
func (b *builder) semanticSupport(ctx context.Context, f grounding.Function) (Support, error) {
	p := b.p
	nProps := len(p.Props)
	moves := f.Kind == grounding.FuncNext
	cn, err := b.cone(f.Lit)
	if err != nil {
		return Support{}, err
	}
	var sp fnSpace
	nP, _ := slices.BinarySearch(cn.Inputs, int32(nProps))
	if nP > 0 {
		sp.props = slices.Clone(cn.Inputs[:nP])
	}
	logRows := float64(nP)
	// The roles read, one span of inputs each (see roleSpan).
	for k := nP; moves && k < len(cn.Inputs); {
		r, _ := p.InputOf(int(cn.Inputs[k]))
		sp.roles = append(sp.roles, r)
		_, k = roleSpan(p, cn, r)
	}
	if len(sp.roles) > 0 {
		for _, r := range sp.roles {
			radix := roleRadix(p, cn, r)
			logRows += math.Log2(float64(radix))
		}
	}
	var t *table
	switch {
	case logRows <= float64(b.opt.SupportTableBits):
		t, err = newTable(ctx, p, cn, sp, moves)
	case moves && len(sp.roles) > 0 && b.opt.SupportTableBits >= 0 && b.opt.MaxResidueTableWork > 0:
		// Roles of many moves whose table splits into few blocks
		// (cylinder-checkers' next functions: two roles of 1,145 moves,
		// a few dozen block keys) cost less as a table than simulation's
		// choice rounds, which evaluate the cone once per move.
		t, err = newTableWithin(ctx, p, cn, sp, moves, maxSupportTableWords, b.opt.MaxResidueTableWork)
	}
	if err != nil {
		return Support{}, err
	}
	if t == nil {
		return b.simSupport(ctx, f, cn, sp.props, sp.roles)
	}
	b.gateWords.Add(t.gateOps)
	return b.supportWhere(sp.props, sp.roles, t.dependsOnProp, t.dependsOnRole), nil
}

// maxSupportTableWords bounds the tables semanticSupport builds beyond
// Options.SupportTableBits (16 MiB): amazons' next functions, two roles of
// thousands of moves, stay with simulation.
const maxSupportTableWords = 1 << 21

// mulSat multiplies, saturating at 2^64-1.
func mulSat(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

// tables selects the functions to tabulate and computes their features.
// Constant functions (Rows == 1) are always tabulated: their value decides
// whether a goal vertex exists.
func (b *builder) tables(ctx context.Context) error {
	var cand []int
	for i, ff := range b.funcs {
		if ff.Rows > 1 && b.opt.MaxTableBits >= 0 && ff.Rows <= 1<<b.opt.MaxTableBits {
			cand = append(cand, i)
		}
	}
	slices.SortStableFunc(cand, func(i, j int) int { return cmp.Compare(b.funcs[i].Rows, b.funcs[j].Rows) })
	total := int64(0)
	chosen := []int{}
	for i := 0; i < len(cand); {
		j := i
		sum := int64(0)
		for j < len(cand) && b.funcs[cand[j]].Rows == b.funcs[cand[i]].Rows {
			sum += b.funcs[cand[j]].Rows
			j++
		}
		if total+sum > b.opt.MaxTableRows {
			break
		}
		total += sum
		chosen = append(chosen, cand[i:j]...)
		i = j
	}
	b.stats.SkippedTables = len(cand) - len(chosen)
	for i, ff := range b.funcs {
		if ff.Rows == 1 {
			chosen = append(chosen, i)
		}
	}
	slices.Sort(chosen)
	tick := b.tick("truth tables", len(chosen))
	err := parallel(ctx, len(chosen), b.opt.Workers, func(k int) error {
		defer tick()
		ff := &b.funcs[chosen[k]]
		ops, err := b.tabulate(ctx, ff)
		b.gateWords.Add(ops)
		return err
	})
	if err != nil {
		return err
	}
	for _, i := range chosen {
		ff := &b.funcs[i]
		b.stats.Tabled++
		b.stats.TableRows += ff.Rows
		b.stats.LargestTableBits = max(b.stats.LargestTableBits, int(math.Ceil(ff.RowsLog2)))
	}
	return nil
}

// corners searches the corners of the functions of the state (see
// corners.go), within Options.MaxCornerTotal.
func (b *builder) corners(ctx context.Context) error {
	if b.opt.MaxCornerWeight < 0 {
		return nil
	}
	var cand []int
	for i := range b.funcs {
		if len(b.funcs[i].roles) == 0 {
			cand = append(cand, i)
		}
	}
	return b.planCorners(ctx, cand)
}

// planCorners chooses among cand the functions whose corners are searched
// and finds them, with what is left of Options.MaxCornerTotal. When the
// budget allows, each is searched up to the largest radius its point
// budget allows (the search itself stops one level past the first
// corners, at least fullCornerWeight). Otherwise in two rounds: the first
// searches every function up to fullCornerWeight; the second goes on with
// the functions whose search wanted to go past it (no corners below it),
// with what the first round left. Planning all of them with the larger
// radius would spend the bound on levels most functions never search.
// Every choice is made on worst-case costs and on whether a search wanted
// to go on (a property of the function's semantics at that radius),
// quantities every SCGE preserves, so both games search the same levels.
func (b *builder) planCorners(ctx context.Context, cand []int) error {
	budget := b.opt.MaxCornerTotal - b.stats.CornerPoints
	var all []int
	full := map[int]int{} // largest radius within the point budget
	cost := make([]int64, len(b.funcs))
	fullCost := make([]int64, len(b.funcs))
	var fullTotal int64
	for _, i := range cand {
		ff := &b.funcs[i]
		cofactors := b.cofactorCount(ff)
		if ff.nProps == 0 || cofactors == 0 {
			continue
		}
		for d := 1; d <= min(b.opt.MaxCornerWeight, ff.nProps); d++ {
			pts := ballPoints(ff.nProps, d)
			if pts > b.opt.MaxCornerPoints/(2*cofactors) {
				break
			}
			full[i], fullCost[i] = d, 2*cofactors*pts
			if d <= fullCornerWeight {
				ff.CornerRadius, cost[i] = d, 2*cofactors*pts
			}
		}
		if ff.CornerRadius > 0 {
			all = append(all, i)
			fullTotal = min(fullTotal+fullCost[i], 1<<62)
		}
	}
	if fullTotal <= budget {
		for _, i := range all {
			b.funcs[i].CornerRadius = full[i]
		}
		b.stats.CornerFuncs += len(all)
		b.stats.CornerPoints += fullTotal
		_, err := b.searchCorners(ctx, all)
		return err
	}
	chosen, total := chooseByCost(all, cost, budget)
	for _, i := range all[len(chosen):] {
		b.funcs[i].CornerRadius = 0
	}
	wantMore, err := b.searchCorners(ctx, chosen)
	if err != nil {
		return err
	}
	// Second round: the functions that would search past their radius.
	var more []int
	for _, i := range chosen {
		if wantMore[i] && full[i] > b.funcs[i].CornerRadius {
			more = append(more, i)
			cost[i] = fullCost[i] // the search starts again at level 1
		}
	}
	extended, extra := chooseByCost(more, cost, budget-total)
	for _, i := range extended {
		ff := &b.funcs[i]
		ff.CornerRadius = full[i]
		ff.Corners, ff.TooManyCorners, ff.cornerCounts = nil, [2]bool{}, [2]*cornerCounts{}
		ff.tooManyCofactorCorners = 0
	}
	if _, err := b.searchCorners(ctx, extended); err != nil {
		return err
	}
	b.stats.SkippedCorners += len(all) - len(chosen)
	b.stats.CornerFuncs += len(chosen)
	b.stats.CornerPoints += total + extra
	return nil
}

// chooseByCost returns the functions of cand, cheapest first, whose costs
// sum to at most budget (functions of equal cost are taken together or not
// at all, so that the choice depends on the costs alone), and their sum.
// It sorts cand by cost.
func chooseByCost(cand []int, cost []int64, budget int64) (chosen []int, total int64) {
	slices.SortStableFunc(cand, func(i, j int) int { return cmp.Compare(cost[i], cost[j]) })
	for i := 0; i < len(cand); {
		j := i
		sum := int64(0)
		for j < len(cand) && cost[cand[j]] == cost[cand[i]] {
			sum += cost[cand[j]]
			j++
		}
		if total+sum > budget {
			break
		}
		total += sum
		i = j
		chosen = cand[:j]
	}
	return slices.Clone(chosen), total
}

// searchCorners finds the corners (and their breakers) of the functions
// idx, each up to its CornerRadius, and reports for each whether its
// search stopped at that radius though it would have gone on.
func (b *builder) searchCorners(ctx context.Context, idx []int) (map[int]bool, error) {
	if len(idx) == 0 {
		return map[int]bool{}, nil
	}
	idx = slices.Clone(idx)
	slices.Sort(idx)
	// Functions with the same literal and kind class (next or of the state)
	// have the same semantic support, radius and corners: search once, in
	// the first of them, and copy.
	type cornerKey struct {
		lit  grounding.Lit
		next bool
	}
	firstOf := map[cornerKey]int{}
	var uniq []int
	dup := map[int]int{} // function -> function whose search it shares
	for _, i := range idx {
		f := b.funcs[i].Function
		key := cornerKey{f.Lit, f.Kind == grounding.FuncNext}
		if j, ok := firstOf[key]; ok {
			dup[i] = j
			continue
		}
		firstOf[key] = i
		uniq = append(uniq, i)
	}
	wantMore := make(map[int]bool, len(uniq))
	var mu sync.Mutex
	stage := "corners"
	if len(b.funcs[uniq[0]].roles) > 0 {
		stage = "cofactor corners"
	}
	shapeRep, shapes, err := b.cornerShapes(ctx, uniq)
	if err != nil {
		return nil, err
	}
	var reps []int // positions in uniq searched
	for k, r := range shapeRep {
		if r == k {
			reps = append(reps, k)
		}
	}
	tick := b.tick(stage, len(reps))
	err = parallel(ctx, len(reps), b.opt.Workers, func(x int) error {
		defer tick()
		k := reps[x]
		ff := &b.funcs[uniq[k]]
		cn, err := b.cone(ff.Function.Lit)
		if err != nil {
			return err
		}
		w := &cornersWork{cn: cn, d: ff.CornerRadius, max: b.opt.MaxCorners, countProps: b.opt.MaxCornerCountProps}
		w.buf = getCornerBufs()
		defer putCornerBufs(w.buf)
		for _, in := range ff.Support.Props() {
			w.props = append(w.props, int32(in))
		}
		more := false
		for _, classes := range cofactors(ff) {
			w.on = b.cofactorInputs(ff, cn, classes)
			if classes != nil {
				w.countProps = 0 // a cofactor's corners are listed or dropped
			}
			for a, anchor := range []bool{false, true} {
				cs, tooMany, err := w.run(ctx, anchor)
				if err != nil {
					return err
				}
				more = more || w.wantMore
				if classes == nil {
					ff.TooManyCorners[a] = tooMany
					ff.cornerCounts[a] = w.counts
				} else if tooMany {
					ff.tooManyCofactorCorners++
				}
				brk, err := w.breakers(ctx, anchor, cs, b.opt.MaxBreakerArcs)
				if err != nil {
					return err
				}
				for ci, c := range cs {
					set := CornerSet{FromTrue: anchor, Classes: classes}
					for _, j := range c {
						set.Props = append(set.Props, ff.Support.At(j))
					}
					if brk != nil {
						for _, j := range brk[ci] {
							set.Breakers = append(set.Breakers, ff.Support.At(j))
						}
					}
					ff.Corners = append(ff.Corners, set)
				}
			}
		}
		mu.Lock()
		wantMore[uniq[k]] = more
		mu.Unlock()
		b.gateWords.Add(w.ops)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k, r := range shapeRep {
		if r != k {
			b.mapCorners(uniq[k], uniq[r], shapes[k], shapes[r])
			wantMore[uniq[k]] = wantMore[uniq[r]]
		}
	}
	for i, j := range dup {
		ff, src := &b.funcs[i], &b.funcs[j]
		ff.TooManyCorners = src.TooManyCorners
		ff.cornerCounts = src.cornerCounts
		ff.tooManyCofactorCorners = src.tooManyCofactorCorners
		ff.Corners = slices.Clone(src.Corners)
		wantMore[i] = wantMore[j]
	}
	return wantMore, nil
}

// tabulate computes the truth-table features of one function.
func (b *builder) tabulate(ctx context.Context, ff *FuncFeatures) (int64, error) {
	p := b.p
	cn, err := b.cone(ff.Function.Lit)
	if err != nil {
		return 0, err
	}
	sp := fnSpace{roles: ff.roles}
	for _, in := range ff.Support.Props() {
		sp.props = append(sp.props, int32(in))
	}
	t, err := newTable(ctx, p, cn, sp, ff.Function.Kind == grounding.FuncNext)
	if err != nil {
		return 0, err
	}
	ff.Tabled = true
	ff.Models = t.models()
	ff.Influence = append(t.propInfluence(), make([]int64, ff.Support.Len()-ff.nProps)...)
	for ri, r := range ff.roles {
		lo, hi := ff.Support.RoleSpan(ri)
		copy(ff.Influence[lo:hi], t.actionInfluence(ri, len(p.Actions[r])))
	}
	if b.classesWanted(ff) {
		// Read off the table: the same classes as satcheck's, without
		// its simulation and SAT calls (four_way_battle's next functions).
		cs := make([][][]int, len(ff.roles))
		for ri, r := range ff.roles {
			cs[ri] = t.actionClasses(ri, len(p.Actions[r]))
		}
		b.setClasses(ff, cs)
	}
	if ff.nProps >= 2 && ff.nProps <= b.opt.MaxInteractionProps {
		ff.Interaction, err = t.interactions(ctx)
		if err != nil {
			return 0, err
		}
	}
	return t.gateOps, nil
}

// funcHash is the colour of a function: its kind, goal value, and every
// invariant feature, with inputs taken as multisets (their identities are
// not invariant).
func (b *builder) funcHash(ff *FuncFeatures) uint64 {
	h := newHasher(tagFunc)
	f := ff.Function
	h.add(uint64(f.Kind))
	if f.Kind == grounding.FuncGoal {
		h.addInt(int64(f.Index))
	}
	h.add(uint64(ff.nProps))
	sizes := make([]int64, len(ff.roles))
	for i, r := range ff.roles {
		sizes[i] = int64(len(b.p.Actions[r]))
	}
	h.addInts(sortedInts(sizes))
	h.addInt(int64(ff.CornerRadius))
	for a := range 2 {
		if cc := ff.cornerCounts[a]; cc != nil {
			h.add(tagCornerPair)
			h.addInts(sortedInts(slices.Clone(cc.single)))
			h.addInts(sortedInts(nonZero(cc.pair)))
			continue
		}
		if ff.TooManyCorners[a] {
			h.add(tagNone)
			continue
		}
		var cs []int64
		for _, c := range ff.Corners {
			if c.FromTrue == (a == 1) {
				cs = append(cs, int64(len(c.Props))<<32|int64(len(c.Breakers)))
			}
		}
		h.addInts(sortedInts(cs))
	}
	h.addInt(int64(ff.tooManyCofactorCorners))
	if ff.actClasses != nil {
		var perRole []uint64
		for ri, sizes := range classSizes(ff) {
			rh := newHasher(tagActionClass)
			rh.addInt(int64(len(b.p.Actions[ff.roles[ri]])))
			rh.addInts(sizes)
			perRole = append(perRole, rh.sum())
		}
		h.addMultiset(perRole)
	}
	if !ff.Tabled {
		h.add(tagNone)
		return h.sum()
	}
	h.addInt(ff.Models)
	h.addInts(sortedInts(ff.Influence[:ff.nProps]))
	// Action influences, one multiset per role, the roles as a multiset.
	var perRole []uint64
	for ri, r := range ff.roles {
		lo, hi := ff.Support.RoleSpan(ri)
		rh := newHasher(tagAction)
		rh.addInt(int64(len(b.p.Actions[r])))
		rh.addInts(sortedInts(ff.Influence[lo:hi]))
		perRole = append(perRole, rh.sum())
	}
	h.addMultiset(perRole)
	if ff.Interaction != nil {
		h.addInts(sortedInts(ff.Interaction))
	} else {
		h.add(tagNone)
	}
	return h.sum()
}

// interactionPairs returns the pairs (i, j) of proposition positions in
// Support that get an interaction vertex, with their interaction: those
// with a non-zero interaction, unless all pairs have the same interaction.
func interactionPairs(ff *FuncFeatures) (pairs [][2]int, val []int64) {
	if len(ff.Interaction) == 0 {
		return nil, nil
	}
	uniform := true
	for _, x := range ff.Interaction {
		if x != ff.Interaction[0] {
			uniform = false
		}
	}
	if uniform {
		return nil, nil
	}
	n := 0
	for i := range ff.nProps {
		for j := i + 1; j < ff.nProps; j++ {
			if x := ff.Interaction[n]; x != 0 {
				pairs = append(pairs, [2]int{i, j})
				val = append(val, x)
			}
			n++
		}
	}
	return pairs, val
}

// cornerPair is a pair of a function's propositions (positions in Support,
// i < j) and the number of its corners from one anchor that hold both.
type cornerPair struct {
	i, j  int
	count int64
}

// cornerPairs returns the pairs of propositions that get a CornerPair
// vertex: those that share a corner, unless every pair shares the same
// number of corners (which says nothing the arcs do not) or more than max
// pairs share one (the vertices would cost more than they tell; the
// counts are still part of the function's colour). Both conditions depend
// only on the counts, which every SCGE preserves pair by pair.
//
// They describe corners too many to list: in lightsOnParallel each
// quadrant's four cells make the goal true when each is on in one of four
// ways, 1,024 corners of four propositions in all, and only the counts of
// the pairs tell the quadrants apart.
func cornerPairs(cc *cornerCounts, max int) []cornerPair {
	if cc == nil {
		return nil
	}
	var out []cornerPair
	uniform := true
	for j := 1; j < cc.n; j++ {
		for i := range j {
			x := cc.at(i, j)
			if x != cc.pair[0] {
				uniform = false
			}
			if x != 0 {
				if len(out) == max {
					return nil
				}
				out = append(out, cornerPair{i, j, x})
			}
		}
	}
	if uniform {
		return nil
	}
	return out
}

// nonZero returns the non-zero values of xs.
func nonZero(xs []int64) []int64 {
	var out []int64
	for _, x := range xs {
		if x != 0 {
			out = append(out, x)
		}
	}
	return out
}

// influenceClass is a set of a function's semantic inputs (positions in
// Support) that share one influence value.
type influenceClass struct {
	value  int64
	inputs []int
}

// influenceClasses groups a tabled function's inputs by influence and
// returns the classes that get an Influence vertex: every class but the
// largest (the one of greater influence among equally large ones), whose
// inputs keep only their plain dependency arc. A function whose inputs all
// have one influence gets none: its arcs already say everything. The choice
// depends only on the multiset of influences, which every SCGE preserves
// input by input, so equivalent games get corresponding vertices.
//
// Without these vertices a dependency arc says only that an input matters,
// not how much: in Lights Out every move changes every cell's next state
// (another move could have been made instead), and only the influence tells
// the switch of a cell's neighbours from a far one. Labelling the arcs puts
// the board's adjacency into the graph, and its automorphism group shrinks
// from 5.6×10^20 to the board's symmetries.
func influenceClasses(ff *FuncFeatures) []influenceClass {
	if !ff.Tabled || ff.Support.Len() < 2 {
		return nil
	}
	byValue := map[int64][]int{}
	for k, x := range ff.Influence {
		byValue[x] = append(byValue[x], k)
	}
	if len(byValue) < 2 {
		return nil
	}
	classes := make([]influenceClass, 0, len(byValue))
	for x, ks := range byValue {
		classes = append(classes, influenceClass{x, ks})
	}
	// Largest class first, then greater influence; drop the first.
	slices.SortFunc(classes, func(a, b influenceClass) int {
		if c := cmp.Compare(len(b.inputs), len(a.inputs)); c != 0 {
			return c
		}
		return cmp.Compare(b.value, a.value)
	})
	return classes[1:]
}

// graph lays out the vertices and edges and computes the colours.
func (b *builder) graph(ctx context.Context) (*Graph, error) {
	p := b.p
	g := &Graph{prog: p, funcs: b.funcs, stats: b.stats}
	g.stats.Functions = len(b.funcs)
	add := func(x Vertex) int {
		g.verts = append(g.verts, x)
		return len(g.verts) - 1
	}
	for i := range p.Props {
		add(Vertex{Kind: Prop, Role: -1, Index: i})
	}
	g.actionBase = make([]int, len(p.Roles))
	for r, as := range p.Actions {
		g.actionBase[r] = len(g.verts)
		for a := range as {
			add(Vertex{Kind: Action, Role: r, Index: a})
		}
	}
	g.roleBase = len(g.verts)
	for r := range p.Roles {
		add(Vertex{Kind: Role, Role: r, Index: -1})
	}
	// Goal vertices for the goal functions that are not constantly false.
	byFunc := map[grounding.Function]*FuncFeatures{}
	for i := range b.funcs {
		f := b.funcs[i].Function
		f.Lit = 0
		byFunc[f] = &b.funcs[i]
	}
	feat := func(kind grounding.FuncKind, role, index int) *FuncFeatures {
		return byFunc[grounding.Function{Kind: kind, Role: role, Index: index}]
	}
	g.goalVertex = make([]map[int]int, len(p.Roles))
	goalValues := make([][]int64, len(p.Roles))
	for r, gs := range p.Goals {
		g.goalVertex[r] = map[int]int{}
		for i, gl := range gs {
			if v, ok := feat(grounding.FuncGoal, r, gl.Value).Constant(); ok && !v {
				continue
			}
			g.goalVertex[r][gl.Value] = add(Vertex{Kind: Goal, Role: r, Index: i, Value: gl.Value})
			goalValues[r] = append(goalValues[r], int64(gl.Value))
		}
	}
	g.terminal = add(Vertex{Kind: Terminal, Role: -1, Index: -1})

	// Dependency edges, interaction vertices, and the uses of each input.
	// Arcs are kept as int32 pairs: the largest graphs have tens of
	// millions before the uniform role arcs below (amazons: 27 M).
	type arc struct{ u, v int32 }
	var arcs []arc
	addArc := func(u, v int) { arcs = append(arcs, arc{int32(u), int32(v)}) }
	uses := make([][]uint64, len(g.verts))
	inputVertex := func(in int) int {
		if in < len(p.Props) {
			return in
		}
		r, a := p.InputOf(in)
		return g.ActionVertex(r, a)
	}
	type inter struct {
		v    int
		hash uint64
	}
	var inters []inter
	var hs []uint64 // use hashes of a run of one role's actions
	for fi := range b.funcs {
		if fi%cancelCheckEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ff := &b.funcs[fi]
		fv, ok := g.FunctionVertex(ff.Function)
		if !ok {
			continue
		}
		// How many corners of f, from each anchor, each input is in.
		inCorners := map[int][2]int64{}
		for _, c := range ff.Corners {
			for _, q := range c.Props {
				n := inCorners[q]
				if c.FromTrue {
					n[1]++
				} else {
					n[0]++
				}
				inCorners[q] = n
			}
		}
		// useHash is what the arc from the k-th input of the support to f
		// says about that input's part in f.
		useHash := func(k int) uint64 {
			in := ff.Support.At(k)
			h := newHasher(tagUse)
			h.add(ff.hash)
			if ff.Tabled {
				h.addInt(ff.Influence[k])
			} else {
				h.add(tagNone)
			}
			if r, a := p.InputOf(in); r >= 0 && ff.actClasses != nil && !b.bigRole(r) {
				h.add(tagActionClass)
				h.addInt(classOf(ff, r, a))
			}
			n := inCorners[in]
			for a, cc := range ff.cornerCounts {
				if cc != nil && k < cc.n {
					n[a] = cc.single[k]
				}
			}
			h.addInt(n[0])
			h.addInt(n[1])
			return h.sum()
		}
		for k := 0; k < ff.Support.Len(); {
			e := k + 1
			hs = append(hs[:0], useHash(k))
			if r, end, ok := ff.Support.roleAt(k); ok && !b.opt.perActionArcs {
				for i := k + 1; i < end; i++ {
					hs = append(hs, useHash(i))
				}
				e = end
				if !slices.ContainsFunc(hs, func(h uint64) bool { return h != hs[0] }) {
					rv := g.RoleVertex(r)
					addArc(rv, fv)
					rh := newHasher(tagRoleUse)
					rh.add(hs[0])
					uses[rv] = append(uses[rv], rh.sum())
					k = e
					continue
				}
			}
			for i := k; i < e; i++ {
				u := inputVertex(ff.Support.At(i))
				addArc(u, fv)
				uses[u] = append(uses[u], hs[i-k])
			}
			k = e
		}
		classVertex := make([][]int, len(ff.actClasses))
		for ri := range ff.actClasses {
			r := ff.roles[ri]
			for ci := range numClasses(ff, ri) {
				first, size := classFirst(ff, ri, ci)
				cv := add(Vertex{Kind: ActionClass, Role: r, Index: fi, Value: size, Pair: [2]int{g.ActionVertex(r, first), -1}})
				rest := ci == len(ff.actClasses[ri])
				if rest {
					// Its actions have no arcs (restclass.go); the role's
					// arc ties it to the role.
					addArc(g.RoleVertex(r), cv)
				} else {
					for _, a := range ff.actClasses[ri][ci] {
						addArc(g.ActionVertex(r, a), cv)
					}
				}
				addArc(cv, fv)
				classVertex[ri] = append(classVertex[ri], cv)
				h := newHasher(tagActionClass)
				h.add(ff.hash)
				h.addInt(int64(len(p.Actions[r])))
				h.addInt(int64(size))
				if rest {
					h.add(tagNone)
				}
				inters = append(inters, inter{cv, h.sum()})
			}
		}
		for ci, c := range ff.Corners {
			cv := add(Vertex{Kind: Corner, Role: -1, Index: fi, Corner: ci})
			for _, q := range c.Props {
				addArc(inputVertex(q), cv)
			}
			addArc(cv, fv)
			// A cofactor's corner: arcs from the classes of the moves.
			for ri, ci := range c.Classes {
				addArc(classVertex[ri][ci], cv)
			}
			h := newHasher(tagCorner)
			h.add(ff.hash)
			if c.FromTrue {
				h.add(1)
			} else {
				h.add(0)
			}
			h.addInt(int64(len(c.Props)))
			h.addInt(int64(len(c.Breakers)))
			inters = append(inters, inter{cv, h.sum()})
			if len(c.Breakers) > 0 {
				bv := add(Vertex{Kind: CornerBreakers, Role: -1, Index: fi, Corner: ci})
				for _, q := range c.Breakers {
					addArc(inputVertex(q), bv)
				}
				addArc(bv, cv)
				h := newHasher(tagCornerBreakers)
				h.add(ff.hash)
				h.addInt(int64(len(c.Breakers)))
				inters = append(inters, inter{bv, h.sum()})
			}
		}
		for _, ic := range influenceClasses(ff) {
			iv := add(Vertex{Kind: Influence, Role: -1, Index: fi, Value: int(ic.value)})
			for _, k := range ic.inputs {
				addArc(inputVertex(ff.Support.At(k)), iv)
			}
			addArc(iv, fv)
			h := newHasher(tagInfluence)
			h.add(ff.hash)
			h.addInt(ic.value)
			inters = append(inters, inter{iv, h.sum()})
		}
		for a, cc := range ff.cornerCounts {
			for _, cp := range cornerPairs(cc, b.opt.MaxCornerPairs) {
				pu, pv := inputVertex(ff.Support.At(cp.i)), inputVertex(ff.Support.At(cp.j))
				cv := add(Vertex{Kind: CornerPair, Role: -1, Index: fi, Corner: a, Value: int(cp.count), Pair: [2]int{pu, pv}})
				addArc(pu, cv)
				addArc(pv, cv)
				addArc(cv, fv)
				h := newHasher(tagCornerPair)
				h.add(ff.hash)
				h.addInt(int64(a))
				h.addInt(cp.count)
				inters = append(inters, inter{cv, h.sum()})
			}
		}
		pairs, val := interactionPairs(ff)
		for k, pr := range pairs {
			a, c := inputVertex(ff.Support.At(pr[0])), inputVertex(ff.Support.At(pr[1]))
			iv := add(Vertex{Kind: Interaction, Role: -1, Index: fi, Pair: [2]int{min(a, c), max(a, c)}})
			addArc(a, iv)
			addArc(c, iv)
			addArc(iv, fv)
			h := newHasher(tagInteraction)
			h.add(ff.hash)
			h.addInt(val[k])
			h.addInts(sortedInts([]int64{ff.Influence[pr[0]], ff.Influence[pr[1]]}))
			inters = append(inters, inter{iv, h.sum()})
		}
	}
	moves, err := b.jointMoves(ctx)
	if err != nil {
		return nil, err
	}
	addJointMoves(g, moves, add, addArc, func(v int, h uint64) { inters = append(inters, inter{v, h}) })
	plays, err := b.plays(ctx)
	if err != nil {
		return nil, err
	}
	addPlays(g, plays, add, addArc, func(v int, h uint64) { inters = append(inters, inter{v, h}) })
	// Consistency edges: every action and every goal to its role.
	for r, as := range p.Actions {
		for a := range as {
			addArc(g.ActionVertex(r, a), g.RoleVertex(r))
		}
	}
	for r := range p.Roles {
		for _, v := range g.goalVertex[r] {
			addArc(v, g.RoleVertex(r))
		}
	}
	n := len(g.verts)
	// One backing array for all out-lists, filled by counting, rather
	// than n growing slices.
	deg := make([]int32, n+1)
	for _, a := range arcs {
		deg[a.u+1]++
	}
	for v := range n {
		deg[v+1] += deg[v]
	}
	backing := make([]int32, len(arcs))
	g.out = make([][]int32, n)
	for v := range n {
		g.out[v] = backing[deg[v]:deg[v]:deg[v+1]]
	}
	for _, a := range arcs {
		g.out[a.u] = append(g.out[a.u], a.v)
	}
	arcs = nil
	for v := range g.out {
		if v%cancelCheckVertices == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		slices.Sort(g.out[v])
		g.out[v] = slices.Clip(slices.Compact(g.out[v]))
		g.nEdges += len(g.out[v])
	}

	// Semantic colours.
	initial := make([]bool, len(p.Props))
	for _, q := range p.Init {
		initial[q] = true
	}
	sem := make([]uint64, n)
	for v := range g.verts {
		if v%cancelCheckVertices == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		x := g.verts[v]
		var h hasher
		switch x.Kind {
		case Prop:
			h = newHasher(tagProp)
			if initial[x.Index] {
				h.add(1)
			} else {
				h.add(0)
			}
			if ff := feat(grounding.FuncNext, 0, x.Index); ff != nil {
				h.add(ff.hash)
			} else {
				h.add(tagNone)
			}
		case Action:
			h = newHasher(tagAction)
			h.addInt(int64(len(p.Actions[x.Role])))
			h.add(feat(grounding.FuncLegal, x.Role, x.Index).hash)
		case Role:
			h = newHasher(tagRole)
			h.addInt(int64(len(p.Actions[x.Role])))
			h.addInts(goalValues[x.Role])
		case Goal:
			h = newHasher(tagGoal)
			h.addInt(int64(x.Value))
			h.add(feat(grounding.FuncGoal, x.Role, x.Value).hash)
		case Terminal:
			h = newHasher(tagTerminal)
			h.add(feat(grounding.FuncTerminal, 0, 0).hash)
		case Interaction, Corner, Influence, CornerPair, ActionClass, CornerBreakers, JointMove, Play:
			continue
		}
		h.addMultiset(uses[v])
		sem[v] = h.sum()
	}
	for _, it := range inters {
		sem[it.v] = it.hash
	}
	g.semColors = make([]int32, n)
	for v, h := range sem {
		g.semColors[v] = color32(h)
	}
	final, err := refineColors(ctx, g.out, sem, b.opt.Workers)
	if err != nil {
		return nil, err
	}
	if b.opt.fullColors != nil {
		*b.opt.fullColors = final
	}
	g.colors = make([]int32, n)
	for v, h := range final {
		g.colors[v] = color32(h)
	}

	g.stats.Vertices = n
	g.stats.Edges = g.nEdges
	for _, x := range g.verts {
		g.stats.ByKind[x.Kind]++
	}
	distinct := slices.Clone(g.colors)
	slices.Sort(distinct)
	g.stats.Colors = len(slices.Compact(distinct))
	return g, nil
}

// cancelCheckVertices: graph and refineColors look at the context once per
// this many vertices in their per-vertex loops (racer4's graph has 525,000
// vertices; its layout ran seconds past the time limit without a look).
const cancelCheckVertices = 1 << 12

// parallel calls fn(0..n-1) on up to `workers` goroutines and returns the
// error of the smallest index that failed.
// tick reports the start of a stage of total functions to
// Options.Progress and returns the function to call after each of them.
func (b *builder) tick(stage string, total int) func() {
	if b.opt.Progress == nil {
		return func() {}
	}
	b.opt.Progress(stage, 0, total)
	var done atomic.Int64
	return func() { b.opt.Progress(stage, int(done.Add(1)), total) }
}

func parallel(ctx context.Context, n, workers int, fn func(i int) error) error {
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					errs[i] = err
					failed.Store(true)
					return
				}
				if err := fn(i); err != nil {
					errs[i] = err
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
