package isomorph_test

import (
	"errors"
	"math/big"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

var sparseTests = []struct {
	perm isomorph.Perm
	want string
}{
	{isomorph.Perm{0, 1, 2}, "()"},
	{isomorph.Perm{2, 3, 0, 1}, "(0 2)(1 3)"},
	{isomorph.Perm{0, 3, 1, 2, 4}, "(1 3 2)"},
}

func TestSparse(t *testing.T) {
	for _, tc := range sparseTests {
		s := isomorph.SparseOf(tc.perm)
		if got := s.String(); got != tc.want {
			t.Errorf("SparseOf(%v).String() = %q, want %q", tc.perm, got, tc.want)
		}
		if got := s.Dense(make(isomorph.Perm, len(tc.perm))); !slices.Equal(got, tc.perm) {
			t.Errorf("SparseOf(%v).Dense = %v", tc.perm, got)
		}
		for v, w := range tc.perm {
			if got := s.Image(int32(v)); got != w {
				t.Errorf("SparseOf(%v).Image(%d) = %d, want %d", tc.perm, v, got, w)
			}
		}
	}
}

// TestGeneratorWordsSparse checks that Limits.MaxGenWords counts the
// vertices the generators move, not the graph's order: k coloured copies
// of the path a'-a-m-b-b' have k reflections of four moved vertices each,
// 8k words in all however many vertices the graph has (a dense generator
// of 5k vertices each would need 5k^2).
func TestGeneratorWordsSparse(t *testing.T) {
	const k = 1000
	colors := make([]int32, 0, 5*k)
	var edges [][2]int32
	for i := int32(0); i < k; i++ {
		a1, a, m, b, b1 := 5*i, 5*i+1, 5*i+2, 5*i+3, 5*i+4
		colors = append(colors, i, i, i, i, i)
		edges = append(edges, [2]int32{a1, a}, [2]int32{a, m}, [2]int32{m, b}, [2]int32{b, b1})
	}
	g := mustNew(t, 5*k, colors, undirected(edges))
	words := int64(8 * k)
	gr, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{MaxGenWords: words})
	if err != nil {
		t.Fatalf("Automorphisms with %d generator words: %v", words, err)
	}
	if want := new(big.Int).Lsh(big.NewInt(1), k); gr.Order.Cmp(want) != 0 {
		t.Errorf("order %v, want 2^%d", gr.Order, k)
	}
	checkGroup(t, g, gr)
	for i, s := range gr.Generators {
		if s.Len() != 4 {
			t.Fatalf("generator %d = %v moves %d vertices, want 4", i, s, s.Len())
		}
	}
	// The product of all reflections is in the group, one reflection
	// with a fixed vertex moved is not.
	all := make(isomorph.Perm, g.Order())
	for v := range all {
		all[v] = int32(v)
	}
	for _, s := range gr.Generators {
		for j, v := range s.Points {
			all[v] = s.Images[j]
		}
	}
	if !gr.Contains(all) {
		t.Errorf("Contains(product of the reflections) = false")
	}
	all[2], all[7] = 7, 2 // swaps m of the first two copies
	if gr.Contains(all) {
		t.Errorf("Contains(a non-automorphism) = true")
	}
	_, err = isomorph.Automorphisms(ctx, g, isomorph.Limits{MaxGenWords: words - 1})
	var le *isomorph.LimitError
	if !errors.As(err, &le) || le.What != "generator words" || le.Got != words {
		t.Errorf("Automorphisms with %d generator words: %v, want a generator-words LimitError at %d", words-1, err, words)
	}
}
