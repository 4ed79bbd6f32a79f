package groundgraph

import (
	"context"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// Action classes of roles with many actions.
//
// A next function of amazons reads all ~65,000 moves of each role, and
// satcheck.ActionClassesHinted re-evaluates a fanout of ~65,000 fanins per
// move (seconds per function). But the cone reads a role only through a
// few conditions on its choice (tableEval: "the move is a", "the move is
// none of these"), so the role's moves fall into digit classes, those that
// meet the same conditions (tableEval.digitClasses, one pass over the
// fanins), and any two moves of one digit class give the same cofactor
// circuit. The cofactors are then compared on a table over the semantic
// propositions and one move per digit class of every read role: a move of
// another role stands for its whole digit class, and a proposition outside
// the support changes nothing, so two digit classes of a role give equal
// cofactors exactly when their slices of this table are equal. The classes
// are those of satcheck.ActionClasses, decided without SAT.

// classTable returns ff's action classes (as satcheck.ActionClassesHinted
// does, one list per role of ff.roles) read off the table above, or nil
// when the table would cost more than maxWork gate-words or its
// evaluation scratch more than maxTableScratchWords.
func (b *builder) classTable(ctx context.Context, ff *FuncFeatures, cn *cone, maxWork int64) ([][][]int, error) {
	p := b.p
	nProps := len(p.Props)
	nr := len(ff.roles)
	if nr == 0 || ff.Function.Kind != grounding.FuncNext {
		return nil, nil
	}
	props := ff.Support.Props()
	kk := max(len(props), 6)
	if kk-6 >= 30 {
		return nil, nil
	}
	// The cone's inputs as table sources: semantic propositions are
	// digits, others false; moves of ff's roles are role digits (their
	// position among the role's read moves), other roles make their first
	// move (ff does not depend on them).
	read := make([][]int32, nr)
	kinds := make([]uint8, len(cn.Inputs))
	roleOf := make([]int, len(cn.Inputs))
	digitOf := make([]int, len(cn.Inputs))
	propDigit := make([]int, len(cn.Inputs))
	for k, in := range cn.Inputs {
		if int(in) < nProps {
			if j, ok := slices.BinarySearch(props, int(in)); ok {
				kinds[k], propDigit[k] = srcProp, j
			}
			continue
		}
		r, a := p.InputOf(int(in))
		ri := slices.Index(ff.roles, r)
		switch {
		case ri >= 0:
			kinds[k], roleOf[k], digitOf[k] = srcRole, ri, len(read[ri])
			read[ri] = append(read[ri], int32(a))
		case a == 0:
			kinds[k] = srcTrue
		}
	}
	outer := nr - 1
	te := newTableEval(cn, kinds, roleOf, digitOf, outer)
	classOf := make([][]int32, nr)
	reps := make([][]int32, nr)
	words := int64(1) << (kk - 6)
	stride := make([]int64, nr)
	for ri, r := range ff.roles {
		radix := len(read[ri])
		if radix < len(p.Actions[r]) {
			radix++ // the "other" digit: the moves the cone does not read
		}
		classOf[ri], reps[ri] = te.moveClasses(ri, radix)
		stride[ri] = words
		if words *= int64(len(reps[ri])); words*int64(max(len(cn.Gates), 1)) > maxWork {
			return nil, nil
		}
	}
	inner := int(stride[outer]) // words of one outer value
	if int64(te.numVecs())*int64(inner) > maxTableScratchWords {
		return nil, nil
	}
	vals := make([]uint64, te.numVecs()*inner)
	for v, k := range te.propVecs {
		dst, j := vals[v*inner:(v+1)*inner], propDigit[k]
		if j < 6 {
			fill(dst, propPattern[j])
			continue
		}
		for w := range dst {
			dst[w] = -uint64(w >> (j - 6) & 1)
		}
	}
	digits := make([][]int32, nr)
	for ri := range outer {
		digits[ri] = make([]int32, inner)
		for w := range inner {
			digits[ri][w] = reps[ri][int64(w)/stride[ri]%int64(len(reps[ri]))]
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	te.evalInner(vals, inner, inner, digits)
	bits := make([]uint64, int(words))
	scal := make([]uint64, len(cn.Gates))
	for c, d := range reps[outer] {
		te.evalOuter(vals, inner, inner, digits, d, scal)
		te.rootValue(vals, inner, inner, digits, d, scal, bits[c*inner:(c+1)*inner])
	}
	b.gateWords.Add(words * int64(len(cn.Gates)))
	out := make([][][]int, nr)
	for ri, r := range ff.roles {
		out[ri] = tableSliceClasses(bits, stride[ri], len(reps[ri]), classOf[ri], read[ri], len(p.Actions[r]))
	}
	return out, nil
}

// tableSliceClasses groups the values of one digit of a table (stride
// words apart, n values) by their slices of bits, and returns the action
// classes they make: digit class classOf[d] of read move d (the "other"
// digit, len(read), for moves not read) takes the value of its
// representative. Classes hold action indexes, ascending, ordered by
// their first action.
func tableSliceClasses(bits []uint64, stride int64, n int, classOf []int32, read []int32, numActions int) [][]int {
	span := stride * int64(n)
	slice := func(v int) string {
		buf := make([]byte, 0, 8*len(bits)/n)
		for base := int64(0); base < int64(len(bits)); base += span {
			for _, w := range bits[base+int64(v)*stride : base+int64(v+1)*stride] {
				for s := 0; s < 64; s += 8 {
					buf = append(buf, byte(w>>s))
				}
			}
		}
		return string(buf)
	}
	groupOf := map[string]int{}
	group := make([]int, n) // value -> class index
	for v := range n {
		key := slice(v)
		g, ok := groupOf[key]
		if !ok {
			g = len(groupOf)
			groupOf[key] = g
		}
		group[v] = g
	}
	of := make([]int32, numActions) // each action's class
	if len(read) < numActions {
		fill(of, int32(group[classOf[len(read)]]))
	}
	for d, a := range read {
		of[a] = int32(group[classOf[d]])
	}
	classes := make([][]int, len(groupOf))
	for a, g := range of {
		classes[g] = append(classes[g], a)
	}
	classes = slices.DeleteFunc(classes, func(c []int) bool { return len(c) == 0 })
	slices.SortFunc(classes, func(x, y []int) int { return x[0] - y[0] })
	return classes
}

// moveClasses is tableEval.digitClasses without its bound on digits ×
// conditions: the classes of condClasses, whatever the role's size.
func (te *tableEval) moveClasses(ri, radix int) (classOf, reps []int32) {
	return te.condClasses(te.roleConds(ri), ri, radix)
}

// condClasses partitions the radix digits of role digit ri as
// digitClasses does, in time linear in the conditions' digit lists rather
// than digits × conditions (amazons: ~100 conditions on 65,000 moves per
// function): a digit's key is the list of conditions that name it (as pos
// or in neg), which decides every condition on it, and so the same
// classes, each represented by its first digit.
func (te *tableEval) condClasses(conds []*roleCond, ri, radix int) (classOf, reps []int32) {
	named := func(c *roleCond, yield func(d int32)) {
		if c.pos >= 0 {
			yield(c.pos)
			return
		}
		for _, d := range c.neg {
			yield(d)
		}
	}
	// Each digit's conditions, ascending, in one array (start[d]: first).
	start := make([]int32, radix+1)
	for _, c := range conds {
		named(c, func(d int32) { start[d+1]++ })
	}
	rootBit := te.rootRole == ri && int(te.rootDigit) < radix
	if rootBit {
		start[te.rootDigit+1]++
	}
	for d := range radix {
		start[d+1] += start[d]
	}
	list := make([]int32, start[radix])
	fillAt := slices.Clone(start[:radix])
	for i, c := range conds {
		named(c, func(d int32) {
			list[fillAt[d]] = int32(i)
			fillAt[d]++
		})
	}
	if rootBit {
		list[fillAt[te.rootDigit]] = int32(len(conds))
	}
	classOf = make([]int32, radix)
	byHash := map[uint64][]int32{}
	for d := range radix {
		key := list[start[d]:start[d+1]]
		h := uint64(len(key))
		for _, i := range key {
			h = mix64(h ^ uint64(i))
		}
		k := int32(-1)
		for _, e := range byHash[h] {
			r := reps[e]
			if slices.Equal(list[start[r]:start[r+1]], key) {
				k = e
				break
			}
		}
		if k < 0 {
			k = int32(len(reps))
			reps = append(reps, int32(d))
			byHash[h] = append(byHash[h], k)
		}
		classOf[d] = k
	}
	return classOf, reps
}
