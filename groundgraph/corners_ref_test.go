package groundgraph

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/gamegen"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

// runReference is the straightforward corner enumeration that run
// replaced (one subset per batch lane, full re-evaluation, per-lane checks);
// TestCornersReference checks that both give the same corners.
func (w *cornersWork) runReference(ctx context.Context, anchor bool) (corners [][]int, tooMany bool, err error) {
	n, cn := len(w.props), w.cn
	pos, s, base, out, f0 := w.atAnchor(anchor)
	// changed[k-1]: bit r is set when flipping the k-subset of colex rank r
	// changes f.
	var prev []uint64 // level k-1
	prev = []uint64{0}
	comb := make([]int, 0, w.d)
	const batchCap = 64 * cornerBatchWords
	var flat []int // the batch's subsets, k elements each
	for k := 1; k <= w.d && k <= n; k++ {
		cnt := binomial(n, k)
		cur := make([]uint64, (cnt+63)/64)
		comb = comb[:k]
		for i := range comb {
			comb[i] = i
		}
		rank := int64(0)
		flat = flat[:0]
		flush := func() error {
			nb := len(flat) / k
			if nb == 0 {
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			for _, k := range pos {
				fill(s.In(k), base)
			}
			for b := range nb {
				for _, j := range flat[b*k : (b+1)*k] {
					s.In(pos[j])[b/64] ^= 1 << (b % 64)
				}
			}
			s.Eval(out)
			w.ops += int64(len(cn.Gates) * cornerBatchWords)
			r0 := rank - int64(nb)
			for b := range nb {
				c := flat[b*k : (b+1)*k]
				if (out[b/64]>>(b%64)&1 == 1) == f0 {
					continue
				}
				r := r0 + int64(b)
				cur[r/64] |= 1 << (r % 64)
				// Locally minimal: no subset with one proposition fewer changes f.
				minimal := true
				for drop := range c {
					if sr := colexRankWithout(c, drop); prev[sr/64]>>(sr%64)&1 == 1 {
						minimal = false
						break
					}
				}
				if minimal {
					if len(corners) == w.max {
						return errTooManyCorners
					}
					corners = append(corners, slices.Clone(c))
				}
			}
			flat = flat[:0]
			return nil
		}
		for {
			flat = append(flat, comb...)
			rank++
			if len(flat) == batchCap*k {
				if err := flush(); err != nil {
					if err == errTooManyCorners {
						return nil, true, nil
					}
					return nil, false, err
				}
			}
			if !nextComb(comb, n) {
				break
			}
		}
		if err := flush(); err != nil {
			if err == errTooManyCorners {
				return nil, true, nil
			}
			return nil, false, err
		}
		prev = cur
	}
	return corners, false, nil
}

// TestCornersReference compares run with runReference on every function
// of some games, from both anchors, with a small corner cap too.
func TestCornersReference(t *testing.T) {
	srcs := map[string][]byte{
		"connect3-4x4": gamegen.ConnectK(3, 4, 4),
		"connect4-5x4": gamegen.ConnectK(4, 5, 4),
		"connect4-7x6": gamegen.ConnectK(4, 7, 6),
	}
	for _, name := range []string{"ggp-base/3pConnectFour.kif", "ggp-base/checkLines.kif"} {
		if b, err := os.ReadFile(filepath.Join(testgames.Root(), name)); err == nil {
			srcs[name] = b
		}
	}
	if b, err := os.ReadFile(filepath.Join(testgames.Root(), "ggp-base-repo", "ticTacToe.kif")); err == nil {
		srcs["ticTacToe"] = b
	}
	for name, src := range srcs {
		p, err := grounding.Load(context.Background(), name, src, grounding.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		g, err := Build(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ff := range g.Functions() {
			if ff.nProps == 0 || len(ff.roles) > 0 {
				continue
			}
			d := 1
			for d < min(4, ff.nProps) && ballPoints(ff.nProps, d+1) <= 1<<18 {
				d++
			}
			for _, mx := range []int{3, DefaultMaxCorners} {
				cn, err := newCone(&p.Circuit, ff.Function.Lit)
				if err != nil {
					t.Fatal(err)
				}
				w := &cornersWork{cn: cn, d: d, max: mx}
				for _, in := range ff.Support.Props() {
					w.props = append(w.props, int32(in))
				}
				if ff.Function.Kind == grounding.FuncNext {
					for k, in := range w.cn.Inputs {
						if int(in) >= len(p.Props) {
							if _, a := p.InputOf(int(in)); a == 0 {
								w.on = append(w.on, k)
							}
						}
					}
				}
				for _, anchor := range []bool{false, true} {
					c1, t1, e1 := w.run(context.Background(), anchor)
					c2, t2, e2 := w.runReference(context.Background(), anchor)
					if e1 != nil || e2 != nil || t1 != t2 || !reflect.DeepEqual(c1, c2) {
						t.Fatalf("%s %s anchor %v max %d: run = %v %v %v, reference %v %v %v",
							name, p.FunctionName(ff.Function), anchor, mx, c1, t1, e1, c2, t2, e2)
					}
				}
			}
		}
	}
}
