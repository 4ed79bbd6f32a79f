package satcheck_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// TestBDDComposedSelfSharedGates: one program compared with itself (A is B:
// gateSelf is gateA), one Checker per program across many mappings and
// both semantics (next: every input free; terminal: actions forced false),
// and a small manager bound so that the Collect/dropB/reset paths run
// between checks: every BDD answer agrees with brute force, and most are
// composed.
func TestBDDComposedSelfSharedGates(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 77))
	shapes := [][]int{{3}, {2, 2}, {}, {4}}
	var composed, bdds, checks int64
	for trial := range 24 {
		shape := shapes[trial%len(shapes)]
		nActs := 0
		for _, k := range shape {
			nActs += k
		}
		nProps := 11 - nActs
		qa, pool := randomCircuitProgram(rng, "a", nProps, shape, 60)
		k := len(pool)
		var fs, gs []grounding.Lit
		var ims [][]int32
		for f := range 4 {
			fa := qa.xor(qa.xor(pool[k-1-f], pool[k-8-f]), qa.or(pool[k-3-f], qa.and(pool[k-10-f], pool[k-2-f])))
			im := randomInputMap(rng, qa.c.NumInputs, nProps, shape)
			mutate := -1
			if f%2 == 1 {
				_, gates, err := grounding.CollectCone(&qa.c, fa)
				if err != nil {
					t.Fatal(err)
				}
				mutate = int(gates[rng.IntN(len(gates))])
			}
			fs = append(fs, fa)
			gs = append(gs, restructure(qa, &qa.c, fa, im, map[int]grounding.Lit{}, rng, mutate))
			ims = append(ims, im)
		}
		a := qa.done()
		for _, maxNodes := range []int{0, 600} {
			opt := sweepOnly
			opt.Mode = opt.Mode&^satcheck.NoBDD | satcheck.NoSweep
			opt.SweepConflictsBeforeBDD = -1
			opt.MaxBDDNodes = maxNodes
			c := mustChecker(t, a, a, opt)
			for round := range 3 {
				for i := range fs {
					for _, j := range []int{i, (i + round) % len(fs)} {
						im := ims[i]
						if round == 2 {
							im = randomInputMap(rng, qa.c.NumInputs, nProps, shape)
						}
						for _, kind := range []grounding.FuncKind{grounding.FuncNext, grounding.FuncTerminal} {
							want := bruteEqual(a, a, fs[i], gs[j], im, kind == grounding.FuncNext)
							if kind == grounding.FuncTerminal {
								want = bruteEqualNoMoves(a, a, fs[i], gs[j], im)
							}
							got, err := c.CheckFunc(context.Background(), kind, fs[i], gs[j], im)
							if err != nil {
								t.Fatalf("trial %d max %d: %v", trial, maxNodes, err)
							}
							if got != want {
								t.Fatalf("trial %d max %d round %d f%d g%d %v: equal=%v, brute force %v (stats %+v)", trial, maxNodes, round, i, j, kind, got, want, c.Stats())
							}
							// And the other way round: B's functions as A.
							want2 := bruteEqual(a, a, gs[j], gs[i], identityMap(qa.c.NumInputs), kind == grounding.FuncNext)
							if kind == grounding.FuncTerminal {
								want2 = bruteEqualNoMoves(a, a, gs[j], gs[i], identityMap(qa.c.NumInputs))
							}
							got2, err := c.CheckFunc(context.Background(), kind, gs[j], gs[i], identityMap(qa.c.NumInputs))
							if err != nil || got2 != want2 {
								t.Fatalf("trial %d identity g%d g%d %v: equal=%v %v, brute force %v", trial, j, i, kind, got2, err, want2)
							}
						}
					}
				}
			}
			st := c.Stats()
			composed += st.BDDComposed
			bdds += st.BDDs
			checks += st.Checks
		}
	}
	t.Logf("%d checks, %d BDD answers, %d composed", checks, bdds, composed)
	if 2*composed < bdds {
		t.Errorf("%d of %d BDD answers composed", composed, bdds)
	}
}

func identityMap(n int) []int32 {
	im := make([]int32, n)
	for i := range im {
		im[i] = int32(i)
	}
	return im
}
