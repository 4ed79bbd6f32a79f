package groundgraph

import (
	"context"
	"fmt"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// Corner searches shared by shape: functions whose cones are the same
// circuit up to a renaming of their propositions (grounding.Cone.
// PropRenamingKey, exact) have the same semantic support up to that
// renaming (see supports), hence the same corners, breakers and corner
// counts up to it, given the same radius and action classes. Connect
// Four's "a line of red" and "a line of black" are one search.

// shareCornerShapes is turned off by a test to compare shared searches
// with separate ones.
var shareCornerShapes = true

// cornerShapes returns, for each function of uniq, the position in uniq of
// the function whose corner search it shares (itself for the first of a
// shape), and the shapes.
func (b *builder) cornerShapes(ctx context.Context, uniq []int) ([]int, []coneShape, error) {
	nProps := len(b.p.Props)
	shapes := make([]coneShape, len(uniq))
	rep, _, err := groupByKey(ctx, len(uniq), b.opt.Workers, func(k int) (string, error) {
		ff := &b.funcs[uniq[k]]
		cn, err := b.cone(ff.Function.Lit)
		if err != nil {
			return "", err
		}
		key, props := cn.PropRenamingKey(func(in int32) bool { return int(in) < nProps })
		shapes[k] = coneShape{props: props}
		return fmt.Sprintf("%s|%t|%d|%d|%v|%v", key, ff.Function.Kind == grounding.FuncNext, ff.CornerRadius, ff.nProps, ff.actClasses, ff.actRest), nil
	})
	if err != nil {
		return nil, nil, err
	}
	if !shareCornerShapes {
		for k := range rep {
			rep[k] = k
		}
	}
	return rep, shapes, nil
}

// mapCorners gives function dst the corner search of src, mapped through
// the renaming of src's shape onto dst's, in the order dst's own search
// would give: by cofactor, anchor, size, then colex order.
func (b *builder) mapCorners(dst, src int, dShape, sShape coneShape) {
	d, s := &b.funcs[dst], &b.funcs[src]
	rename := make(map[int]int, len(sShape.props))
	for i, in := range sShape.props {
		rename[int(in)] = int(dShape.props[i])
	}
	mapSet := func(set []int) []int {
		if set == nil {
			return nil
		}
		out := make([]int, len(set))
		for i, in := range set {
			out[i] = rename[in]
		}
		slices.Sort(out)
		return out
	}
	d.Corners = nil // as a search that finds none leaves it
	for _, c := range s.Corners {
		d.Corners = append(d.Corners, CornerSet{FromTrue: c.FromTrue, Props: mapSet(c.Props), Classes: slices.Clone(c.Classes), Breakers: mapSet(c.Breakers)})
	}
	for lo := 0; lo < len(d.Corners); {
		hi := lo + 1
		for hi < len(d.Corners) && d.Corners[hi].FromTrue == d.Corners[lo].FromTrue && slices.Equal(d.Corners[hi].Classes, d.Corners[lo].Classes) {
			hi++
		}
		slices.SortFunc(d.Corners[lo:hi], func(x, y CornerSet) int {
			if len(x.Props) != len(y.Props) {
				return len(x.Props) - len(y.Props)
			}
			for i := len(x.Props) - 1; i >= 0; i-- {
				if x.Props[i] != y.Props[i] {
					return x.Props[i] - y.Props[i]
				}
			}
			return 0
		})
		lo = hi
	}
	d.TooManyCorners = s.TooManyCorners
	d.tooManyCofactorCorners = s.tooManyCofactorCorners
	// Corner counts are by position in the support's propositions.
	posOf := make([]int, s.nProps)
	for j, in := range s.Support.Props() {
		posOf[j], _ = slices.BinarySearch(d.Support.Props(), rename[in])
	}
	for a, cc := range s.cornerCounts {
		if cc == nil {
			d.cornerCounts[a] = nil
			continue
		}
		m := newCornerCounts(cc.n)
		for j := range cc.n {
			m.single[posOf[j]] = cc.single[j]
			for i := range j {
				pi, pj := posOf[i], posOf[j]
				if pi > pj {
					pi, pj = pj, pi
				}
				m.pair[pj*(pj-1)/2+pi] = cc.at(i, j)
			}
		}
		d.cornerCounts[a] = m
	}
}
