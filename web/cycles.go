package web

import (
	"cmp"
	"slices"
	"strings"
)

// Cycle is one cycle of a permutation: each element goes to the next,
// the last to the first.
type Cycle []string

// String writes the cycle in cycle notation, "(a b c)".
func (c Cycle) String() string { return "(" + strings.Join(c, " ") + ")" }

// Cycles writes the permutation m (every key to its value) as its cycles
// of two or more elements: the elements m fixes are left out. Each cycle
// starts at its least element and the cycles are sorted by it, so the
// same permutation always reads the same. If m is not a permutation, an
// element whose image is not a key ends its cycle.
func Cycles(m map[string]string) []Cycle {
	keys := make([]string, 0, len(m))
	for k, v := range m {
		if k != v {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	seen := make(map[string]bool, len(keys))
	var out []Cycle
	for _, k := range keys {
		if seen[k] {
			continue
		}
		var c Cycle
		for x := k; !seen[x]; {
			seen[x] = true
			c = append(c, x)
			next, ok := m[x]
			if !ok || next == k {
				break
			}
			x = next
		}
		if len(c) > 1 {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b Cycle) int { return cmp.Compare(a[0], b[0]) })
	return out
}

// CycleText joins cycles in cycle notation; the identity is "()".
func CycleText(cs []Cycle) string {
	if len(cs) == 0 {
		return "()"
	}
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.String())
	}
	return b.String()
}
