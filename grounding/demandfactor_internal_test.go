package grounding

import (
	"slices"
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
func rowsProduct[T any](cols ...[]T) [][]T {
	rows := [][]T{nil}
	for _, col := range cols {
		var next [][]T
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

// TestNearProductGroups: a product less a row is split with slack 2 (the
// product holds 4/3 of its rows), not with slack 1; a diagonal (the
// product holds 2x its rows) is split only with slack 2, and a relation
// whose factors' product holds 3x its rows is not.
func TestNearProductGroups(t *testing.T) {
	tests := []struct {
		name  string
		rows  [][]int32
		slack int64
		want  [][]int
	}{
		{"less a row, slack 1", rowsProduct([]int32{1, 2}, []int32{3, 4})[1:], 1, [][]int{{0, 1}}},
		{"less a row, slack 2", rowsProduct([]int32{1, 2}, []int32{3, 4})[1:], 2, [][]int{{0}, {1}}},
		{"diagonal of 2, slack 2", [][]int32{{1, 1}, {2, 2}}, 2, [][]int{{0}, {1}}},
		{"diagonal of 3, slack 2", [][]int32{{1, 1}, {2, 2}, {3, 3}}, 2, [][]int{{0, 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFactSet(len(tc.rows[0]))
			for _, r := range tc.rows {
				f.add(r)
			}
			if got := nearProductGroups(f, tc.slack); !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("nearProductGroups(%v, %d) = %v, want %v", tc.rows, tc.slack, got, tc.want)
			}
		})
	}
}
