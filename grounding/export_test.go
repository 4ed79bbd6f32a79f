package grounding

import "context"

// GroundMemoProbe is Ground with the join memos' probe set: 0 drops a memo
// at its first lookup that misses, a negative probe keeps every memo (the
// grounder before memos became adaptive). The differential check of
// FuzzValidate compares both with Ground.
func GroundMemoProbe(ctx context.Context, f *File, lim Limits, probe int64) (*Program, error) {
	return ground(ctx, f, lim, probe)
}

// GroundNoDemand is Ground without the demand rewrite of auxiliary relations.
func GroundNoDemand(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundWith(ctx, f, lim, memoProbe, true)
}

// GroundNoHeadFilter is Ground without the head filter of circuit joins
// (headFilter).
func GroundNoHeadFilter(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noHeadFilter: true})
}

// GroundForceHeadFilter is Ground with the head filter wherever it applies,
// without the trial join that decides whether it pays.
func GroundForceHeadFilter(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{forceHeadFilter: true})
}

// GroundNoInline is Ground without unfolding check relations (inline.go).
func GroundNoInline(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noInline: true})
}

// GroundNoSingleUse is Ground with single-use relations kept (singleuse.go).
func GroundNoSingleUse(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noSingleUse: true})
}

// GroundNoArgFree is Ground with argument-free relations kept as written (argfree.go).
func GroundNoArgFree(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noArgFree: true})
}

// GroundNoDomainCuts is Ground with domain joins that enumerate every match
// (no stop at a step whose variables are not needed after it, nor once the
// head atom is derived).
func GroundNoDomainCuts(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noDomainCuts: true})
}

// GroundNoPlanMasks is Ground with the join costs of circuit plans
// computed over []bool variable sets instead of bit masks.
func GroundNoPlanMasks(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noPlanMasks: true})
}

// GroundNoDemandFactors is Ground without the passes that factor outgrown
// demand relations (demand.go).
func GroundNoDemandFactors(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noDemandFactors: true})
}

// GroundNoShare is Ground with circuit joins that enumerate every head
// atom's disjunction on their own (no shared items, share.go).
func GroundNoShare(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noShare: true})
}

// GroundPasses is Ground (noEarly: outgrown demand relations found only at
// MaxAtoms, not as they outgrow) that also returns, per pass, the error
// its engine stopped with (nil: none), and the domain-phase join work of
// all passes.
func GroundPasses(ctx context.Context, f *File, lim Limits, noEarly bool) (*Program, []error, int64, error) {
	return groundPasses(ctx, f, lim, variant{noEarlyFactors: noEarly})
}

// GroundPassesExact is GroundPasses (found as they outgrow) with a growing
// demand relation split only when it is a product exactly, as before
// demandProductSlack.
func GroundPassesExact(ctx context.Context, f *File, lim Limits) (*Program, []error, int64, error) {
	return groundPasses(ctx, f, lim, variant{exactProducts: true})
}

func groundPasses(ctx context.Context, f *File, lim Limits, v variant) (*Program, []error, int64, error) {
	var errs []error
	var work int64
	v.onEngine = func(e *engine) {
		errs = append(errs, e.err)
		work += e.domainWork
	}
	p, err := groundVariant(ctx, f, lim, memoProbe, v)
	return p, errs, work, err
}

// GroundWorkers is Ground with parallel domain rounds on the given number
// of workers (1: none), every round in parallel however small if always;
// it also returns how many worker results the merges took and how many
// they ran again (parallel.go).
func GroundWorkers(ctx context.Context, f *File, lim Limits, workers int, always bool) (p *Program, accepted, redone int64, err error) {
	v := variant{workers: workers, parallelAlways: always, onEngine: func(e *engine) {
		accepted += e.parAccepted
		redone += e.parRedone
	}}
	p, err = groundVariant(ctx, f, lim, memoProbe, v)
	return p, accepted, redone, err
}

// GroundNoReach is Ground with the relations no keyword relation uses kept
// (reach.go).
func GroundNoReach(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noReach: true})
}

// GroundNoMergeChecks is Ground with rules that differ in one test kept
// apart (mergechecks.go).
func GroundNoMergeChecks(ctx context.Context, f *File, lim Limits) (*Program, error) {
	return groundVariant(ctx, f, lim, memoProbe, variant{noMergeChecks: true})
}
