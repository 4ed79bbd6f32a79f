package equiv

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

// Classification groups games into equivalence classes.
type Classification struct {
	// Classes lists the classes as indexes into the input, each ascending,
	// classes ordered by their first member. Games that could not be
	// analysed are singletons.
	Classes [][]int
	// Errors holds, per input index, why a game could not be analysed.
	Errors map[int]error
	// Comparisons counts the full comparisons run inside candidate groups.
	Comparisons int
}

// Classify sorts games into equivalence classes. Every game's ground graph
// gets a canonical certificate: two games can only be equivalent when their
// certificates are equal, so full comparisons (with verified mappings) run
// only inside groups of equal certificates, against each class's first member.
func Classify(ctx context.Context, srcs []Source, lim Limits) (*Classification, error) {
	lim = lim.WithDefaults()
	games := make([]*game, len(srcs))
	certs := make([]string, len(srcs))
	out := &Classification{Errors: map[int]error{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, s := range srcs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			g, cert, err := prepare(ctx, s, lim)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				out.Errors[i] = err
				return
			}
			games[i], certs[i] = g, cert
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	classOf := make([]int, len(srcs))
	var reps []int // first member of each class
	for i := range srcs {
		classOf[i] = -1
		if games[i] == nil {
			classOf[i] = len(reps)
			reps = append(reps, i)
			continue
		}
		for c, r := range reps {
			if games[r] == nil || certs[r] != certs[i] {
				continue
			}
			out.Comparisons++
			rep := &Report{Stats: Stats{PhaseMs: map[string]float64{}}}
			res, err := compareGames(ctx, *games[r], *games[i], lim, rep)
			if err != nil {
				return nil, fmt.Errorf("compare %s with %s: %w", srcs[r].Name, srcs[i].Name, err)
			}
			if res.Verdict == Equivalent {
				classOf[i] = c
				break
			}
		}
		if classOf[i] < 0 {
			classOf[i] = len(reps)
			reps = append(reps, i)
		}
	}
	out.Classes = make([][]int, len(reps))
	for i, c := range classOf {
		out.Classes[c] = append(out.Classes[c], i)
	}
	return out, nil
}

// prepare grounds a game, builds its graph and its canonical certificate.
func prepare(ctx context.Context, s Source, lim Limits) (*game, string, error) {
	p, err := grounding.Load(ctx, s.Name, s.GDL, lim.Ground)
	if err != nil {
		return nil, "", fmt.Errorf("ground %s: %w", s.Name, err)
	}
	g, err := groundgraph.Build(ctx, p, lim.Graph)
	if err != nil {
		return nil, "", fmt.Errorf("ground graph of %s: %w", s.Name, err)
	}
	_, cert, err := isomorph.Canonical(ctx, g, lim.Search)
	if err != nil {
		return nil, "", fmt.Errorf("certificate of %s: %w", s.Name, err)
	}
	sum := cert.Sum()
	return &game{p: p, g: g}, string(sum[:]), nil
}
