package grounding

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

var productGroupsTests = []struct {
	name string
	rows [][]int32
	want [][]int
}{
	{"product of three columns", rowsProduct([]int32{1, 2}, []int32{3, 4, 5}, []int32{6, 7}), [][]int{{0}, {1}, {2}}},
	{"no product", [][]int32{{1, 1}, {2, 2}}, [][]int{{0, 1}}},
	// Columns 0 and 2 are one factor (equal), column 1 another.
	{"linked columns", [][]int32{{1, 5, 1}, {1, 6, 1}, {2, 5, 2}, {2, 6, 2}}, [][]int{{0, 2}, {1}}},
	// Column 0's group has three columns, more than demandFactorGroup:
	// nothing is split off.
	{"group too large", [][]int32{{1, 1, 1, 7}, {2, 2, 2, 7}, {1, 1, 1, 8}, {2, 2, 2, 8}}, [][]int{{0, 1, 2, 3}}},
	// One missing row breaks the product.
	{"product less a row", rowsProduct([]int32{1, 2}, []int32{3, 4})[1:], [][]int{{0, 1}}},
}

// rowsProduct returns the rows of the product of the columns' values.
func rowsProduct(cols ...[]int32) [][]int32 {
	rows := [][]int32{nil}
	for _, col := range cols {
		var next [][]int32
		for _, r := range rows {
			for _, v := range col {
				next = append(next, append(slices.Clone(r), v))
			}
		}
		rows = next
	}
	return rows
}

func TestProductGroups(t *testing.T) {
	for _, tc := range productGroupsTests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFactSet(len(tc.rows[0]))
			for _, r := range tc.rows {
				f.add(r)
			}
			if got := productGroups(f); !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("productGroups(%v) = %v, want %v", tc.rows, got, tc.want)
			}
		})
	}
}

// TestDemandFactorsEarly: in the wide game of TestDemandFactors the first
// pass stops at MaxAtoms on step's demand (n^3); in the second, hop's
// demand (n^2, within the limit) is a product that outgrows hop, and the
// pass stops when the round that derived it ends, so a third pass grounds
// without it. Measuring only at MaxAtoms, the second pass grounds with it.
func TestDemandFactorsEarly(t *testing.T) {
	const n = 100
	var b strings.Builder
	b.WriteString("(role a)\n(init (at 1))\n(init (on 1))\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "(num %d)\n", i)
		if i < n {
			fmt.Fprintf(&b, "(succ %d %d)\n", i, i+1)
		}
	}
	b.WriteString(`(<= (step ?u ?x ?w) (hop ?u ?x) (true (at ?w)))
(<= (hop ?u ?x) (succ ?u ?x) (true (on ?x)))
(<= (reach ?x) (true (on ?x)) (true (at ?u)) (true (at ?w)) (step ?u ?x ?w))
(<= (next (at ?y)) (true (at ?x)) (num ?y))
(<= (next (on ?y)) (true (on ?x)) (num ?y))
(<= (legal a (go ?x)) (reach ?x))
(<= (legal a wait) (true (at ?x)))
(<= terminal (true (at 3)))
(goal a 100)
`)
	f, err := Parse("wide.kif", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	passes, atoms := 0, int64(0)
	_, err = groundVariant(context.Background(), f, Limits{MaxAtoms: 50_000}, memoProbe, variant{onEngine: func(e *engine) {
		passes++
		atoms = e.atoms
	}})
	if err != nil {
		t.Fatal(err)
	}
	if passes != 3 || atoms >= 3*n*n/2 {
		t.Errorf("Ground(wide, MaxAtoms 50,000): %d passes, %d atoms in the last; want 3 passes and fewer than %d atoms (step has n(n-1), hop's demand n^2 more)", passes, atoms, 3*n*n/2)
	}
}
