package grounding

import (
	"slices"
	"strconv"
	"strings"
)

// dropSubsumed removes a rule whose body holds every literal of another
// rule read from the same source rule with the same head: the source body's
// or/not nesting expands into one rule per alternative, and
// (or A B) (or A B) (gamequiv mutate's merge-or then duplicate) reads as
// A, A B, B A and B. Every instance of the larger rule is an instance of
// the smaller one with the same head (both name their variables as the
// source rule does), so the larger derives nothing new; grounded, its
// cross terms (two does literals of one role) are gates that can never be
// true, and SimultaneousWin2's seed-4 variant had 2.4x its original's
// circuit. Of two rules with the same literals the first stays. Runs after
// resolveUnsafe, so that every rule has been checked and an unsafe variable
// read leniently has its universe literal in the comparison.
func (c *compiler) dropSubsumed() {
	bySrc := map[*Rule][]int32{}
	var srcs []*Rule // in rule order, so the result does not depend on map order
	for i, nr := range c.rules {
		if _, ok := bySrc[nr.src]; !ok {
			srcs = append(srcs, nr.src)
		}
		bySrc[nr.src] = append(bySrc[nr.src], int32(i))
	}
	dead := map[int32]bool{}
	for _, src := range srcs {
		ids := bySrc[src]
		if len(ids) < 2 {
			continue
		}
		heads := make([]string, len(ids))
		bodies := make([][]string, len(ids))
		for k, ri := range ids {
			nr := c.rules[ri]
			var sb strings.Builder
			sb.WriteString(strconv.Itoa(int(nr.head)))
			for _, a := range nr.headArgs {
				writeNamedPat(&sb, nr, a)
			}
			heads[k] = sb.String()
			for _, b := range nr.body {
				sb.Reset()
				writeNamedBasic(&sb, nr, b)
				bodies[k] = append(bodies[k], sb.String())
			}
			slices.Sort(bodies[k])
			bodies[k] = slices.Compact(bodies[k])
		}
		for j := range ids {
			for i := range ids {
				if i == j || dead[ids[i]] || heads[i] != heads[j] || !subsetSorted(bodies[i], bodies[j]) {
					continue
				}
				if len(bodies[i]) == len(bodies[j]) && i > j {
					continue // the same literals: the first stays
				}
				dead[ids[j]] = true
				break
			}
		}
	}
	c.dropRules(dead)
}

// subsetSorted reports whether every string of the sorted xs is in the
// sorted ys.
func subsetSorted(xs, ys []string) bool {
	k := 0
	for _, x := range xs {
		for k < len(ys) && ys[k] < x {
			k++
		}
		if k == len(ys) || ys[k] != x {
			return false
		}
	}
	return true
}

// writeNamedBasic writes b with variables by their names in nr, so that
// literals of two rules of one source rule compare by what they say.
func writeNamedBasic(sb *strings.Builder, nr *nrule, b basic) {
	sb.WriteString(strconv.Itoa(int(b.kind)))
	sb.WriteByte(' ')
	switch b.kind {
	case bPos, bNeg:
		sb.WriteString(strconv.Itoa(int(b.rel)))
		for _, a := range b.args {
			writeNamedPat(sb, nr, a)
		}
	case bDistinct, bEqual:
		writeNamedPat(sb, nr, b.a)
		writeNamedPat(sb, nr, b.b)
	case bAny:
		var subs []string
		for _, s := range b.subs {
			var x strings.Builder
			writeNamedBasic(&x, nr, s)
			subs = append(subs, x.String())
		}
		slices.Sort(subs)
		sb.WriteString("[" + strings.Join(subs, "|") + "]")
	}
}

func writeNamedPat(sb *strings.Builder, nr *nrule, p pat) {
	sb.WriteByte(' ')
	switch {
	case p.v >= 0:
		sb.WriteString("?" + nr.varNames[p.v])
	case p.t >= 0:
		sb.WriteString("t" + strconv.Itoa(int(p.t)))
	default:
		sb.WriteString("(f" + strconv.Itoa(int(p.fn)))
		for _, a := range p.args {
			writeNamedPat(sb, nr, a)
		}
		sb.WriteByte(')')
	}
}
