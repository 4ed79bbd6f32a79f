package groundgraph

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// Action classes: what a big function does with each move.
//
// A next function whose table is out of reach gets no influences, and
// influences do not always tell moves apart either (see actionClasses), so
// its dependency arcs may not tell the moves it reads apart: in
// SimultaneousWin2 every cell's next function reads all 256 two-cell
// presses, and the graph let all of them be permuted (6.8e513
// automorphisms). Such a function's actions are instead partitioned by
// cofactor: two actions of a role are in one class when the function, with
// the role making the one, is the same function of everything else as with
// the role making the other (read off the truth table when the function
// is tabled, else satcheck.ActionClassesHinted; both exact). An SCGE maps
// the classes of f onto those of σf, so the partition is invariant, and
// each class becomes an ActionClass vertex with arcs action → class → f.

// actionClasses computes the action classes of every next function that
// reads actions, for roles of at most Options.MaxClassActions actions (a
// bound on an invariant quantity). Influences cannot always stand in for
// them: in coins, a cell's next "zero coins" is true after a jump from it
// and false after a jump onto it, and both kinds of move have the same
// influence (as many rows true as false), so only the classes tell them
// apart.
func (b *builder) actionClasses(ctx context.Context) error {
	// Functions with the same cone up to a renaming of propositions
	// (b.shapeOf) have the same classes: the renaming is a bijection of
	// the states and leaves the actions alone.
	firstOf := map[int]int{} // first function of each shape
	var uniq []int
	dup := map[int]int{}
	for i := range b.funcs {
		ff := &b.funcs[i]
		if !b.classesWanted(ff) || ff.actClasses != nil {
			continue // none wanted, or read off the table (tabulate)
		}
		if j, seen := firstOf[b.shapeOf[i]]; seen {
			dup[i] = j
			continue
		}
		firstOf[b.shapeOf[i]] = i
		uniq = append(uniq, i)
	}
	tick := b.tick("action classes", len(uniq))
	err := parallel(ctx, len(uniq), b.opt.Workers, func(k int) error {
		defer tick()
		ff := &b.funcs[uniq[k]]
		cn, err := b.cone(ff.Function.Lit)
		if err != nil {
			return err
		}
		var cs [][][]int
		if slices.ContainsFunc(ff.roles, b.bigRole) {
			// Many actions: the class table (classtable.go) first.
			if cs, err = b.classTable(ctx, ff, cn, b.opt.MaxClassTableWork); err != nil {
				return err
			}
		}
		if cs == nil {
			if cs, err = b.classesBySATOrBDD(ctx, ff, cn); err != nil {
				return fmt.Errorf("groundgraph: action classes of %s: %w", b.p.FunctionName(ff.Function), err)
			}
		}
		b.setClasses(ff, cs)
		return nil
	})
	if err != nil {
		return err
	}
	for i, j := range dup {
		b.funcs[i].actClasses = b.funcs[j].actClasses
		b.funcs[i].actRest = b.funcs[j].actRest
	}
	return nil
}

// classesBySATOrBDD returns ff's action classes (cone cn) from satcheck's
// simulation, structural hashing and hints (satcheck.ActionClassesSimulated)
// where these settle them, from a BDD (bddclasses.go) where satcheck would
// make a SAT call, and from satcheck with SAT when the BDD outgrows its
// bound; all three are exact and give the same partition. Which goes
// first is effort only: simulation settles 206 of slidingpieces' 220
// shapes and 43 of four_way_battle's 44, where BDDs fit none and 4 (BDDs
// first had cost slidingpieces' action classes 1.6 times satcheck's);
// tttcc4's 240 cell shapes all need SAT and 231 fit a BDD, so
// simulating them first would only add its cost. A Build therefore takes
// BDDs first once they have decided bddClassFirstSlack more functions
// than twice those simulation settled, and stops trying them once they
// outgrew their bound bddClassFailSlack more times than twice they
// decided.
func (b *builder) classesBySATOrBDD(ctx context.Context, ff *FuncFeatures, cn *cone) ([][][]int, error) {
	// The hints are built at most once: the run with SAT asks for the same
	// ones (the classes do not depend on them either way).
	var hs [][]int
	asked := false
	hints := func(open int) [][]int {
		if !asked {
			hs, asked = b.classHints(ctx, ff, cn, open), true
		}
		return hs
	}
	wins := b.bddClassWins.Load()
	if b.choiceBDDs == nil || b.bddClassFails.Load() >= 2*wins+bddClassFailSlack {
		return satcheck.ActionClassesHinted(ctx, b.p, ff.Function.Lit, ff.roles, hints)
	}
	if wins < 2*b.simClassWins.Load()+bddClassFirstSlack {
		cs, err := satcheck.ActionClassesSimulated(ctx, b.p, ff.Function.Lit, ff.roles, hints)
		if !errors.Is(err, satcheck.ErrNeedsSAT) {
			if err == nil {
				b.simClassWins.Add(1)
			}
			return cs, err
		}
	}
	d := b.choiceBDDs.get()
	cs, err := d.classesByBDD(ctx, b.p, cn, ff.roles)
	d.clear() // its nodes are of no use to the next function
	b.choiceBDDs.put(d)
	switch {
	case errors.Is(err, errBDDLimit):
		b.bddClassFails.Add(1)
		return satcheck.ActionClassesHinted(ctx, b.p, ff.Function.Lit, ff.roles, hints)
	case err == nil:
		b.bddClassWins.Add(1)
	}
	return cs, err
}

// classesWanted reports whether ff gets action classes: a next function
// that reads moves, of roles of at most Options.MaxClassActions actions,
// or else of at most Options.MaxBigClassProps semantic propositions (both
// invariant bounds).
func (b *builder) classesWanted(ff *FuncFeatures) bool {
	if b.opt.MaxClassActions < 0 || len(ff.roles) == 0 || ff.Function.Kind != grounding.FuncNext {
		return false
	}
	return !slices.ContainsFunc(ff.roles, b.bigRole) || ff.nProps <= b.opt.MaxBigClassProps
}

// classSizes returns, per role of ff (in ff.roles order), the sizes of its
// action classes, the implicit one included, ascending.
func classSizes(ff *FuncFeatures) [][]int64 {
	out := make([][]int64, len(ff.actClasses))
	for ri, cs := range ff.actClasses {
		for _, c := range cs {
			out[ri] = append(out[ri], int64(len(c)))
		}
		if ff.hasRest(ri) {
			out[ri] = append(out[ri], int64(ff.actRest[ri].size))
		}
		slices.Sort(out[ri])
	}
	return out
}

// classOf returns the size of the action class of action a of role r in
// ff, or 0 when ff has no classes for r.
func classOf(ff *FuncFeatures, r, a int) int64 {
	ri := slices.Index(ff.roles, r)
	if ri < 0 || ri >= len(ff.actClasses) {
		return 0
	}
	for _, c := range ff.actClasses[ri] {
		if _, ok := slices.BinarySearch(c, a); ok {
			return int64(len(c))
		}
	}
	return 0
}

// classHints returns points of the input space of ff (cone cn) where a
// path from one of the actions it reads to it is sensitized (see
// sensitizer), up to classHintAttempts tries for one per action tried, within
// maxSensitizeWork, at most maxClassHints in all: on such a point the
// action usually gives the function another value than most other
// choices, which separates classes that random samples do not (see
// satcheck.ActionClassesHinted, which asks for them only before a SAT
// call, with the number of choices still open). A sample can cost the
// whole cone (brawl's justify every other term of a 5,400-input OR), and
// a hint saves at most a SAT call, so the actions tried, in random order,
// are classHintsPerOpen per open choice (at least minClassHintActions):
// one try per action made brawl's hints cost 5,400 samples of its cone
// per function where 2 choices were open. They are only candidates: the
// classes do not depend on them, so a cancelled context gives none (the
// caller's next check reports it).
func (b *builder) classHints(ctx context.Context, ff *FuncFeatures, cn *cone, open int) [][]int {
	srs := b.simRoles(cn, ff.roles)
	z := newSensitizer(cn, srs)
	rng := rand.New(rand.NewPCG(uint64(ff.Function.Lit), 0x5e75))
	budget := max(64, maxSensitizeWork/int64(cn.NumSlots()))
	var ks []int
	for _, sr := range srs {
		ks = append(ks, sr.ks...)
	}
	rng.Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
	ks = ks[:min(len(ks), max(minClassHintActions, classHintsPerOpen*open))]
	var hints [][]int
	for _, k := range ks {
		if len(hints) == maxClassHints {
			break
		}
		for a := range classHintAttempts {
			if budget--; budget < 0 {
				return hints
			}
			// Each sample costs up to the cone: brawl's hints ran
			// 1.6 s past the comparison's time limit unchecked.
			if budget%cancelCheckEvery == 0 && ctx.Err() != nil {
				return nil
			}
			x := z.sample(k, a%2 == 1, rng)
			if x == nil {
				continue
			}
			var pt []int
			for kk, in := range cn.Inputs {
				if x[kk/64]>>(kk%64)&1 == 1 {
					pt = append(pt, int(in))
				}
			}
			hints = append(hints, pt)
			break
		}
	}
	return hints
}

// classHintAttempts is the number of sensitized points tried per action
// for action-class hints (one is kept); maxClassHints bounds the hints of
// one function (16 simulation words); classHintsPerOpen is the number of
// actions tried per choice still open, minClassHintActions the fewest.
const (
	classHintAttempts   = 2
	maxClassHints       = 1024
	classHintsPerOpen   = 4
	minClassHintActions = 16
)
