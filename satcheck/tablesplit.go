package satcheck

import (
	"context"
	"math"
)

// Split truth tables: the chunked table (table.go) of a pair of next
// functions simulates every gate on every row, 2^(free propositions) ×
// the product of the roles' choices. In a next function that adds up what
// the moves do (colonelBlotto's scores: a few score propositions, and the
// battlefields' outcomes over 66×66 joint moves) nearly every gate reads
// the moves only, and its value is the same under every assignment of the
// propositions. So the split table simulates the gates that read no free
// proposition once, on the rows of the choices alone, and only the gates
// that do read one again per assignment of the propositions, on the same
// rows. It visits every row of the same space, so its answer is the
// chunked table's: equal only when every row agrees, different with a row
// that does not.

// splitTableWork estimates the word operations of the split table of ca
// and cb over j (fanins × words, as tableWork), or math.MaxInt64 when j
// has no free proposition or no group (nothing to split) or the rows do not
// fit in the words or in the memory bound.
func splitTableWork(j *joint, ca, cb *cone) int64 {
	if len(j.props) == 0 || len(j.groups) == 0 || j.log2Rows() > 60 {
		return math.MaxInt64
	}
	words := int64(j.groupRows()+63) / 64
	// It holds every slot of both cones and every variable over all the
	// choices' rows at once: no more than the chunked table's chunks of
	// both cones (tableChunkSlotWords each), or it is not a candidate.
	if slots := int64(ca.NumSlots() + cb.NumSlots() + len(j.vars)); slots > 2*tableChunkSlotWords/words {
		return math.MaxInt64
	}
	var moveFan, propFan int64
	for _, cn := range []*cone{ca, cb} {
		m, p := splitFanins(cn, propInputs(j, cn, cn == ca))
		moveFan += m
		propFan += p
	}
	per := (moveFan + 1) * words
	props := int64(1) << len(j.props)
	if (propFan+1)*words > (math.MaxInt64-per)/props {
		return math.MaxInt64
	}
	return per + props*(propFan+1)*words
}

// groupRows is the product of the groups' radices: the rows of the
// choices alone.
func (j *joint) groupRows() int {
	n := 1
	for _, g := range j.groups {
		n *= g.radix()
	}
	return n
}

// propInputs marks the cone inputs of cn (A's cone when isA) that are
// free propositions of j.
func propInputs(j *joint, cn *cone, isA bool) []bool {
	vars := j.bVar
	if isA {
		vars = j.aVar
	}
	marks := make([]bool, len(cn.Inputs))
	for k := range marks {
		if v := vars[k]; v >= 0 && j.group[v] < 0 {
			marks[k] = true
		}
	}
	return marks
}

// splitFanins counts the fanins of cn's gates that read no free
// proposition (move) and of those that do (prop), given the marked
// inputs.
func splitFanins(cn *cone, propIn []bool) (move, prop int64) {
	dep := propSlots(cn, propIn)
	first := cn.FirstGate()
	for gi := range cn.Gates {
		n := int64(len(cn.GateFanin(gi)))
		if dep[first+gi] {
			prop += n
		} else {
			move += n
		}
	}
	return move, prop
}

// propSlots marks the slots of cn that depend on a marked input.
func propSlots(cn *cone, propIn []bool) []bool {
	dep := make([]bool, cn.NumSlots())
	for k, m := range propIn {
		dep[1+k] = m
	}
	first := cn.FirstGate()
	for gi := range cn.Gates {
		for _, l := range cn.GateFanin(gi) {
			if dep[l>>1] {
				dep[first+gi] = true
				break
			}
		}
	}
	return dep
}

// splitSide is one cone of a split table: its slot values on the rows of
// the choices, w words a slot.
type splitSide struct {
	cn   *cone
	dep  []bool
	vals []uint64
	in   []int32 // in[k]: the joint variable of cone input k, -1: false
}

func newSplitSide(j *joint, cn *cone, isA bool, vec []uint64, w int) *splitSide {
	s := &splitSide{cn: cn, in: j.bVar}
	if isA {
		s.in = j.aVar
	}
	s.dep = propSlots(cn, propInputs(j, cn, isA))
	s.vals = make([]uint64, cn.NumSlots()*w)
	for k, v := range s.in {
		if v >= 0 && j.group[v] >= 0 {
			copy(s.vals[(1+k)*w:(2+k)*w], vec[int(v)*w:int(v+1)*w])
		}
	}
	s.eval(w, false)
	return s
}

// eval simulates the gates that depend on a free proposition (prop) or
// those that do not (!prop).
func (s *splitSide) eval(w int, prop bool) {
	cn, vals := s.cn, s.vals
	first := cn.FirstGate()
	for gi := range cn.Gates {
		if s.dep[first+gi] != prop {
			continue
		}
		dst := vals[(first+gi)*w:][:w]
		fan := cn.GateFanin(gi)
		if len(fan) == 0 {
			fillSplit(dst, ^uint64(0))
			continue
		}
		l := fan[0]
		src := vals[int(l>>1)*w:][:w]
		neg := -uint64(l & 1)
		for i := range dst {
			dst[i] = src[i] ^ neg
		}
		for _, l := range fan[1:] {
			src := vals[int(l>>1)*w:][:w]
			neg := -uint64(l & 1)
			for i := range dst {
				dst[i] &= src[i] ^ neg
			}
		}
	}
}

// setProps sets the cone's free-proposition inputs to their values in
// assignment a (bit k: the k-th of j.props) on every row.
func (s *splitSide) setProps(j *joint, bit []int, a int, w int) {
	for k, v := range s.in {
		if v < 0 || j.group[v] >= 0 {
			continue
		}
		x := uint64(0)
		if a>>bit[v]&1 == 1 {
			x = ^uint64(0)
		}
		fillSplit(s.vals[(1+k)*w:(2+k)*w], x)
	}
}

// root returns the root's words.
func (s *splitSide) root(w int, dst []uint64) []uint64 {
	dst = dst[:0]
	neg := -uint64(s.cn.Root & 1)
	for _, x := range s.vals[int(s.cn.Root>>1)*w:][:w] {
		dst = append(dst, x^neg)
	}
	return dst
}

// splitTableDecide decides ca against cb on every row of j's truth table,
// the gates that read no free proposition simulated once (see above). It
// returns nil when they agree on every row, else the joint assignment of a
// row where they differ. It looks at ctx between assignments of the
// propositions.
func splitTableDecide(ctx context.Context, j *joint, ca, cb *cone) ([]bool, error) {
	rows := j.groupRows()
	w := (rows + 63) / 64
	// The choices' rows: the groups' digits, numbered as
	// exhaustiveVectors numbers them above the propositions.
	vec := make([]uint64, len(j.vars)*w)
	stride := 1
	for _, g := range j.groups {
		rad := g.radix()
		for c, v := range g.members {
			setDigitRuns(vec[int(v)*w:int(v+1)*w], rows, stride, rad, c)
		}
		stride *= rad
	}
	bit := make([]int, len(j.vars))
	for k, v := range j.props {
		bit[v] = k
	}
	sa, sb := newSplitSide(j, ca, true, vec, w), newSplitSide(j, cb, false, vec, w)
	var outA, outB []uint64
	for a := range 1 << len(j.props) {
		if a%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		sa.setProps(j, bit, a, w)
		sb.setProps(j, bit, a, w)
		sa.eval(w, true)
		sb.eval(w, true)
		outA, outB = sa.root(w, outA), sb.root(w, outB)
		if r := firstDiff(outA, outB, rows); r >= 0 {
			m := assignmentAt(vec, len(j.vars), w, r)
			for k, v := range j.props {
				m[v] = a>>k&1 == 1
			}
			return m, nil
		}
	}
	return nil, nil
}

func fillSplit(dst []uint64, x uint64) {
	for i := range dst {
		dst[i] = x
	}
}
