package equiv

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"
)

// Defaults of ClassifyOptions: large enough that every corpus game that
// grounds under the default limits (chess and slaughter take about 40 s on
// an idle 2-core machine) is analysed and compared, so a classification of
// the whole corpus leaves only the games that do not ground undecided. The
// server's slow lane uses the same budgets.
const (
	DefaultGameTimeout    = time.Minute
	DefaultCompareTimeout = 2 * time.Minute
)

// StopGrace is how long Classify waits, once its context ended, for the
// steps running to return before it answers without them.
const StopGrace = 2 * time.Second

// ClassifyOptions bounds a classification. The zero value means every
// default.
type ClassifyOptions struct {
	// Limits bounds grounding, graphs, searches and SAT of every step;
	// its Timeout is ignored (see the budgets below).
	Limits Limits
	// GameTimeout is the budget of one game's analysis (grounding, ground
	// graph, canonical certificate); default DefaultGameTimeout.
	GameTimeout time.Duration
	// CompareTimeout is the budget of one comparison with a class
	// representative; default DefaultCompareTimeout.
	CompareTimeout time.Duration
	// Workers is the number of games analysed and placed at once; default
	// runtime.GOMAXPROCS(0).
	Workers int
	// Progress, if set, is called after each game is done (placed or left
	// undecided), from the worker that did it, one call at a time.
	Progress func(ClassifyProgress)
}

// ClassifyProgress reports one game done.
type ClassifyProgress struct {
	Game        int // index into the input
	Done, Total int // games done so far, of all
	// Outcome is "joined" (proven equivalent to a class representative),
	// "opened" (a new class) or "undecided".
	Outcome     string
	Class       int // representative's index, or -1 when undecided
	Comparisons int
	Reason      string // why undecided, or the unresolved comparisons
	Elapsed     time.Duration
}

// Classification groups games into equivalence classes.
type Classification struct {
	// Classes lists the classes as indexes into the input, each ascending,
	// classes ordered by their first member. Every member of a class was
	// proven equivalent (a verified mapping) to the class's first-placed
	// member. Games that could not be analysed are in no class.
	Classes [][]int
	// Undecided lists, by ascending index, the games whose class is not
	// known for sure: those not analysed (a limit, invalid rules, or the
	// classification stopped first) and those placed in a class of their
	// own while a comparison with another candidate class ended without a
	// verdict.
	Undecided []Undecided
	// Comparisons counts the comparisons run with class representatives.
	Comparisons int
	// Stopped, if not empty, says why the classification stopped before
	// every game was placed (the context's error).
	Stopped string
}

// Undecided is a game whose class is not known for sure.
type Undecided struct {
	Game int
	// Class is the index of the class the game is in (Classification.
	// Classes), or -1 when the game is in none.
	Class int
	// Limit names what stopped the decision: a limit of Limits (MaxAtoms,
	// Search.MaxNodes, ...), GameTimeout, CompareTimeout, invalid,
	// stopped, or error.
	Limit  string
	Reason string
}

// Classify sorts games into equivalence classes with a Placer over classes
// kept in memory, the algorithm of the server's classifier: every game is
// analysed once (Prepare, within GameTimeout); a game is compared (within
// CompareTimeout each) only with the representatives of the classes whose
// keys may match its own, and joins a class only on a verified
// equivalence. Smaller descriptions go first, Workers at a time. When ctx
// ends, Classify returns at once what it found: the classes so far, and
// every game not placed as undecided.
func Classify(ctx context.Context, srcs []Source, opt ClassifyOptions) *Classification {
	opt = opt.withDefaults()
	start := time.Now()
	book := &memBook{classOf: make([]int64, len(srcs)), analyses: make([]*Analysis, len(srcs)), reps: map[int64]*Prepared{}}
	for i := range book.classOf {
		book.classOf[i] = -1
	}
	cmpLim := opt.Limits
	cmpLim.Timeout = opt.CompareTimeout
	cmpLim.Progress = nil
	pl := &Placer{Book: book, Limits: cmpLim, Representative: book.representative,
		Analyzed: func(_ context.Context, game int64, a Analysis) { book.setAnalysis(int(game), a, nil) }}

	order := make([]int, len(srcs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(srcs[a].GDL) - len(srcs[b].GDL) })

	var (
		mu         sync.Mutex // guards the fields below and serializes Progress
		undecided  = map[int]Undecided{}
		unresolved = map[int][]Unresolved{}
		done       int
		comps      int
		answered   bool // Classify has returned: later reports are dropped
	)
	finish := func(i int, ev ClassifyProgress, u *Undecided, pm *Placement) {
		mu.Lock()
		defer mu.Unlock()
		if answered {
			return
		}
		done++
		if u != nil {
			undecided[i] = *u
		}
		if pm != nil {
			comps += pm.Comparisons
			if len(pm.Unresolved) > 0 {
				unresolved[i] = pm.Unresolved
			}
		}
		if opt.Progress != nil {
			ev.Game, ev.Done, ev.Total, ev.Elapsed = i, done, len(srcs), time.Since(start)
			opt.Progress(ev)
		}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(opt.Workers, max(len(srcs), 1)) {
		wg.Go(func() {
			for i := range next {
				classifyOne(ctx, i, srcs[i], opt, pl, book, finish)
			}
		})
	}
feed:
	for _, i := range order {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-ctx.Done():
		// Steps check ctx at coarse points only: wait a little for them,
		// then answer with what is placed (a game still running is
		// reported as stopped).
		t := time.NewTimer(StopGrace)
		select {
		case <-finished:
		case <-t.C:
		}
		t.Stop()
	}

	mu.Lock()
	defer mu.Unlock()
	answered = true
	book.mu.Lock()
	defer book.mu.Unlock()
	out := &Classification{Comparisons: comps}
	if err := ctx.Err(); err != nil {
		out.Stopped = err.Error()
	}
	members := map[int64][]int{}
	for i, c := range book.classOf {
		if c >= 0 {
			members[c] = append(members[c], i)
		}
	}
	classIndex := map[int64]int{}
	for c, ms := range members {
		classIndex[c] = ms[0]
	}
	for _, ms := range members {
		out.Classes = append(out.Classes, ms)
	}
	slices.SortFunc(out.Classes, func(a, b []int) int { return a[0] - b[0] })
	for k, ms := range out.Classes {
		classIndex[book.classOf[ms[0]]] = k
	}
	for i := range srcs {
		if u, ok := undecided[i]; ok {
			out.Undecided = append(out.Undecided, u)
			continue
		}
		if book.classOf[i] < 0 {
			out.Undecided = append(out.Undecided, Undecided{Game: i, Class: -1, Limit: "stopped",
				Reason: "not classified: the classification stopped before this game was placed"})
			continue
		}
		if us := unresolved[i]; len(us) > 0 {
			u := Undecided{Game: i, Class: classIndex[book.classOf[i]], Limit: us[0].Limit}
			for k, x := range us {
				if k > 0 {
					u.Reason += "; "
				}
				u.Reason += fmt.Sprintf("may belong to the class of %s: %s", srcs[x.Representative].Name, x.Reason)
			}
			out.Undecided = append(out.Undecided, u)
		}
	}
	return out
}

func (o ClassifyOptions) withDefaults() ClassifyOptions {
	if o.GameTimeout <= 0 {
		o.GameTimeout = DefaultGameTimeout
	}
	if o.CompareTimeout <= 0 {
		o.CompareTimeout = DefaultCompareTimeout
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	o.Limits = o.Limits.WithDefaults()
	return o
}

// classifyOne analyses game i and places it, then reports it to finish.
func classifyOne(ctx context.Context, i int, src Source, opt ClassifyOptions, pl *Placer, book *memBook,
	finish func(int, ClassifyProgress, *Undecided, *Placement)) {
	lim := opt.Limits
	lim.Timeout = opt.GameTimeout
	lim.Progress = nil
	g, err := Prepare(ctx, src, lim, false)
	if err != nil {
		u := undecidedAnalysis(ctx, i, err)
		finish(i, ClassifyProgress{Outcome: "undecided", Class: -1, Reason: u.Reason}, &u, nil)
		return
	}
	book.setAnalysis(i, g.Analysis(), g)
	pm, err := pl.Place(ctx, int64(i), g)
	if err != nil {
		limit := "error"
		if ctx.Err() != nil {
			limit = "stopped"
		}
		u := Undecided{Game: i, Class: -1, Limit: limit, Reason: "not placed: " + err.Error()}
		finish(i, ClassifyProgress{Outcome: "undecided", Class: -1, Reason: u.Reason}, &u, nil)
		return
	}
	ev := ClassifyProgress{Outcome: "joined", Class: int(book.representativeOf(pm.Class)), Comparisons: pm.Comparisons}
	if pm.Opened {
		ev.Outcome = "opened"
	}
	for k, x := range pm.Unresolved {
		if k > 0 {
			ev.Reason += "; "
		}
		ev.Reason += x.Reason
	}
	finish(i, ev, nil, pm)
}

// undecidedAnalysis says why game i could not be analysed.
func undecidedAnalysis(ctx context.Context, i int, err error) Undecided {
	u := Undecided{Game: i, Class: -1, Reason: err.Error(), Limit: LimitName(ctx, err)}
	switch u.Limit {
	case "stopped":
		u.Reason = "not classified: the classification stopped during its analysis"
	case "GameTimeout":
		u.Reason = "analysis budget (GameTimeout) exceeded: " + err.Error()
	}
	return u
}

// memBook is the ClassBook of Classify: game ids are input indexes, a
// class's id is the index of its representative.
type memBook struct {
	mu       sync.Mutex
	classOf  []int64 // -1 while unplaced
	analyses []*Analysis
	reps     map[int64]*Prepared // the prepared form of each representative
	pending  map[int64]*Prepared // prepared games not yet placed
}

func (b *memBook) setAnalysis(i int, a Analysis, g *Prepared) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.analyses[i] = &a
	if g == nil {
		return
	}
	if b.pending == nil {
		b.pending = map[int64]*Prepared{}
	}
	b.pending[int64(i)] = g
}

func (b *memBook) Candidates(_ context.Context, a *Analysis) ([]ClassRef, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	seen := map[int64]bool{}
	var out []ClassRef
	for i, c := range b.classOf {
		if c < 0 || seen[c] || b.analyses[i] == nil || !b.analyses[i].MayEqual(a) {
			continue
		}
		seen[c] = true
		out = append(out, ClassRef{ID: c, Representative: c})
	}
	slices.SortFunc(out, func(x, y ClassRef) int { return int(x.ID - y.ID) })
	return out, nil
}

func (b *memBook) Join(_ context.Context, game, class int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c := b.classOf[game]; c >= 0 {
		return fmt.Errorf("game %d is in class %d: %w", game, c, ErrPlaced)
	}
	b.classOf[game] = class
	delete(b.pending, game) // only representatives keep their prepared form
	return nil
}

func (b *memBook) Open(_ context.Context, game int64) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c := b.classOf[game]; c >= 0 {
		return 0, fmt.Errorf("game %d is in class %d: %w", game, c, ErrPlaced)
	}
	b.classOf[game] = game
	b.reps[game] = b.pending[game]
	delete(b.pending, game)
	return game, nil
}

func (b *memBook) representative(_ context.Context, game int64) (*Prepared, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p := b.reps[game]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("game %d is no class representative", game)
}

func (b *memBook) representativeOf(class int64) int64 { return class }
