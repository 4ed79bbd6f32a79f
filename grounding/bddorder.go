package grounding

import (
	"cmp"
	"context"
	"iter"
	"slices"
	"strconv"
	"strings"
)

// PropOrder returns the BDD variable order of the propositions props
// (their level by proposition id, and the proposition at each level),
// given rank, each proposition's place in StructuralRanks' order (-1:
// none; nil: none has one).
//
// A BDD's size hinges on its variable order, and input numbers follow
// symbol names. merrills' piece count is a chain of links, each reading
// one point's white, black and empty propositions; its BDDs are small when
// each point's propositions are neighbours and the points follow the
// chain, and its names happen to sort them so. A renaming that permutes
// the arguments sorts them colour by colour instead: the count's BDDs
// outgrew their bound and SAT took over (the variant's graph phase did not
// finish in 300 s where the original's takes 10 CPU s). The circuit's
// structure alone orders the points well but can split a point's
// propositions (knightwar's legal moves read every red knight above every
// blue one), and the terms alone keep a point's propositions together but
// not the points in chain order (merrills in point-name order outgrew the
// bound too). So both are used: the terms say which propositions describe
// one object (per relation, the argument positions with more distinct
// values name the object, the one with the fewest, say a colour, is its
// attribute; on a tie, the one whose objects the ranks keep together,
// then the later one), and objects go in the order
// of their best-ranked proposition, then by name; an object's
// propositions go together, by name. Supports do not depend on the order,
// only the effort does.
func PropOrder(props []string, rank []int32) (level, prop []int32) {
	if rank == nil {
		rank = make([]int32, len(props))
		for i := range rank {
			rank[i] = -1
		}
	}
	type relKey struct {
		rel   string
		arity int
	}
	rels := make([]relKey, len(props))
	args := make([][]string, len(props))
	values := map[relKey][]map[string]bool{}
	for i, s := range props {
		var rel string
		var ok bool
		if rel, args[i], ok = SplitProp(s); !ok {
			rel, args[i] = s, nil
		}
		k := relKey{rel, len(args[i])}
		rels[i] = k
		vs := values[k]
		if vs == nil {
			vs = make([]map[string]bool, len(args[i]))
			for j := range vs {
				vs[j] = map[string]bool{}
			}
			values[k] = vs
		}
		for j, a := range args[i] {
			vs[j][a] = true
		}
	}
	// attr[k]: relation k's attribute position (-1: none), the position
	// with the fewest values. On a tie (merrills' ring and colour have
	// three values each), the one whose objects' propositions the
	// structural ranks hold closest together, then the later one.
	byRel := map[relKey][]int{}
	for i, k := range rels {
		byRel[k] = append(byRel[k], i)
	}
	attr := make(map[relKey]int, len(values))
	for k, vs := range values {
		attr[k] = -1
		if len(vs) < 2 {
			continue
		}
		fewest := len(vs[0])
		for j := range vs {
			fewest = min(fewest, len(vs[j]))
		}
		best, bestSpread := -1, int64(0)
		for a := range vs {
			if len(vs[a]) != fewest {
				continue
			}
			spread := objectSpread(byRel[k], args, rank, a)
			if best < 0 || spread <= bestSpread {
				best, bestSpread = a, spread
			}
		}
		attr[k] = best
	}
	// Objects: the propositions equal but for the attribute.
	objOf := make([]int32, len(props))
	objects := map[string]int32{}
	var objName []string
	var objRank []int32
	for i := range props {
		k := rels[i]
		var sb strings.Builder // the relation, its arity, the other arguments
		sb.WriteString(k.rel)
		sb.WriteByte('/')
		sb.WriteString(strconv.Itoa(k.arity))
		for j, a := range args[i] {
			if j != attr[k] {
				sb.WriteByte(' ')
				sb.WriteString(a)
			}
		}
		name := sb.String()
		o, ok := objects[name]
		if !ok {
			o = int32(len(objName))
			objects[name] = o
			objName = append(objName, name)
			objRank = append(objRank, -1)
		}
		objOf[i] = o
		if r := rank[i]; r >= 0 && (objRank[o] < 0 || r < objRank[o]) {
			objRank[o] = r
		}
	}
	prop = make([]int32, len(props))
	for i := range prop {
		prop[i] = int32(i)
	}
	slices.SortFunc(prop, func(x, y int32) int {
		ox, oy := objOf[x], objOf[y]
		if ox != oy {
			rx, ry := objRank[ox], objRank[oy]
			switch {
			case rx >= 0 && ry < 0:
				return -1
			case rx < 0 && ry >= 0:
				return 1
			case rx != ry:
				return cmp.Compare(rx, ry)
			}
			return strings.Compare(objName[ox], objName[oy])
		}
		return cmp.Or(strings.Compare(props[x], props[y]), cmp.Compare(x, y))
	})
	level = make([]int32, len(props))
	for l, i := range prop {
		level[i] = int32(l)
	}
	return level, prop
}

// StructuralRanks ranks the propositions (inputs below nProps) of the
// cones, largest first, as their circuits suggest: each cone ranks its
// propositions not ranked yet, those whose highest reader gate is higher
// first, ties in the order a depth-first walk from the root (fanins in
// stored order) first reaches them. In a chain of gates (merrills' count
// walks the points one after the other) the link's height orders the
// points as the chain does. Unranked propositions get -1.
func StructuralRanks(ctx context.Context, nProps int, cones iter.Seq[*Cone]) ([]int32, error) {
	rank := make([]int32, nProps)
	for i := range rank {
		rank[i] = -1
	}
	next := int32(0)
	for cn := range cones {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if int(next) == nProps {
			break // every proposition ranked: the other cones need not be built
		}
		var ks []int // cone inputs to rank
		for k, in := range cn.Inputs {
			if int(in) < nProps && rank[in] < 0 {
				ks = append(ks, k)
			}
		}
		if len(ks) == 0 {
			continue
		}
		first := cn.FirstGate()
		// height[s]: the longest path from an input up to slot s (gates
		// come after their fanins); top[k]: the height of input k's
		// highest reader.
		height := make([]int32, cn.NumSlots())
		top := make([]int32, len(cn.Inputs))
		for gi := range cn.Gates {
			h := int32(0)
			fan := cn.GateFanin(gi)
			for _, l := range fan {
				h = max(h, height[l>>1])
			}
			height[first+gi] = h + 1
			for _, l := range fan {
				if s := int(l >> 1); s > 0 && s < first {
					top[s-1] = max(top[s-1], h+1)
				}
			}
		}
		// walk[k]: when the depth-first walk first reaches input k.
		walk := make([]int32, len(cn.Inputs))
		seen := make([]bool, cn.NumSlots())
		stack := []uint32{cn.Root >> 1}
		for n := int32(1); len(stack) > 0; {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch {
			case seen[s] || s == 0:
			case int(s) < first:
				walk[s-1] = n
				n++
			default:
				fan := cn.GateFanin(int(s) - first)
				for i := len(fan) - 1; i >= 0; i-- { // the first fanin first
					stack = append(stack, fan[i]>>1)
				}
			}
			seen[s] = true
		}
		slices.SortFunc(ks, func(a, b int) int {
			if c := cmp.Compare(top[b], top[a]); c != 0 {
				return c
			}
			return cmp.Or(cmp.Compare(walk[a], walk[b]), cmp.Compare(a, b))
		})
		for _, k := range ks {
			rank[cn.Inputs[k]] = next
			next++
		}
	}
	return rank, nil
}

// objectSpread returns, for the propositions ps of one relation grouped
// as objects with attribute position a, the sum over objects of the
// distance between their best and worst structural ranks.
func objectSpread(ps []int, args [][]string, rank []int32, a int) int64 {
	type span struct{ lo, hi int32 }
	spans := map[string]span{}
	for _, i := range ps {
		r := rank[i]
		if r < 0 {
			continue
		}
		key := strings.Join(slices.Delete(slices.Clone(args[i]), a, a+1), " ")
		sp, ok := spans[key]
		if !ok {
			sp = span{r, r}
		}
		spans[key] = span{min(sp.lo, r), max(sp.hi, r)}
	}
	var sum int64
	for _, sp := range spans {
		sum += int64(sp.hi - sp.lo)
	}
	return sum
}
