package satcheck

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTableChunk: the chunks of every width cover the rows exactly as
// exhaustiveVectors lays them out, for joints with few and many free
// propositions (digits inside and across words) and groups with and
// without an "other" choice.
func TestTableChunk(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range jointShapes {
		j := shuffledJoint(rng, tc.props, tc.groups)
		want, ww, rows := j.exhaustiveVectors()
		for _, w := range []int{1, 2, 3, 64} {
			vec := make([]uint64, len(j.vars)*w)
			for r0 := 0; r0 < rows; r0 += 64 * w {
				j.tableChunk(vec, w, r0)
				for r := r0; r < min(rows, r0+64*w); r++ {
					got := assignmentAt(vec, len(j.vars), w, r-r0)
					if exp := assignmentAt(want, len(j.vars), ww, r); !slices.Equal(got, exp) {
						t.Fatalf("props %d groups %v, width %d: row %d = %v, want %v", tc.props, tc.groups, w, r, got, exp)
					}
				}
			}
		}
	}
}

// jointShapes are joints with few and many free propositions (digits inside
// and across words) and groups with and without an "other" choice.
var jointShapes = []struct {
	props  int
	groups []int // members per group; negative: with an "other" choice
}{{0, []int{3}}, {2, []int{-2, 3}}, {5, []int{-1}}, {7, []int{3, -4}}, {9, nil}, {3, []int{5, -3, 2}}, {6, []int{-3}}, {13, nil}}

// shuffledJoint is a joint of the given shape whose variable numbers are
// shuffled: props and members need not be ordered.
func shuffledJoint(rng *rand.Rand, props int, groups []int) *joint {
	j := &joint{}
	for range props {
		j.props = append(j.props, int32(len(j.vars)))
		j.group = append(j.group, -1)
		j.vars = append(j.vars, jvar{aIn: -1})
	}
	for gi, m := range groups {
		g := group{other: m < 0}
		for range max(m, -m) {
			g.members = append(g.members, int32(len(j.vars)))
			j.group = append(j.group, int32(gi))
			j.vars = append(j.vars, jvar{aIn: -1})
		}
		j.groups = append(j.groups, g)
	}
	// Shuffle variable numbers: props and members need not be ordered.
	perm := rng.Perm(len(j.vars))
	for k := range j.props {
		j.props[k] = int32(perm[j.props[k]])
	}
	for gi := range j.groups {
		for k := range j.groups[gi].members {
			j.groups[gi].members[k] = int32(perm[j.groups[gi].members[k]])
		}
	}
	return j
}

// TestExhaustiveVectors: row r of the layout holds the mixed-radix digits
// of r, free propositions lowest, then each group's member index (no member
// set for the "other" choice), and no bit past the last row is set.
func TestExhaustiveVectors(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range jointShapes {
		j := shuffledJoint(rng, tc.props, tc.groups)
		vec, w, rows := j.exhaustiveVectors()
		if want := j.rows(); rows != want || w != (rows+63)/64 || len(vec) != len(j.vars)*w {
			t.Fatalf("props %d groups %v: rows %d, words %d, len %d; want %d rows", tc.props, tc.groups, rows, w, len(vec), want)
		}
		for r := range 64 * w {
			want := make([]bool, len(j.vars))
			if r < rows {
				x := r
				for _, v := range j.props {
					want[v] = x%2 == 1
					x /= 2
				}
				for _, g := range j.groups {
					if c := x % g.radix(); c < len(g.members) {
						want[g.members[c]] = true
					}
					x /= g.radix()
				}
			}
			if got := assignmentAt(vec, len(j.vars), w, r); !slices.Equal(got, want) {
				t.Fatalf("props %d groups %v: row %d = %v, want %v", tc.props, tc.groups, r, got, want)
			}
		}
	}
}
