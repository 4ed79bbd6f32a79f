package grounding_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// productGame has a static relation big over a product of three copies of
// d (10 facts): 1,000 tuples. With shared set, one body atom shares a
// variable with another, so the join is not a pure product and is
// enumerated instead of counted.
func productGame(arity int, shared bool) string {
	var b strings.Builder
	b.WriteString("(role r) (init p) (<= (legal r a) (true p)) (<= (next p) (true p)) (<= terminal (not (true p))) (<= (goal r 100) (true p))\n")
	for i := range 10 {
		fmt.Fprintf(&b, "(d %d) (e %d)\n", i, i)
	}
	vars := make([]string, arity)
	body := make([]string, arity)
	for i := range vars {
		vars[i] = fmt.Sprintf("?v%d", i)
		body[i] = "(d " + vars[i] + ")"
	}
	if shared {
		body = append(body, "(e ?v0)")
	}
	// e is read by a next rule in both forms, so that both count its facts
	// (relations no keyword relation reads are not grounded).
	fmt.Fprintf(&b, "(<= (big %s) %s)\n(<= (next q) (big %s) (true p))\n(<= (next q) (e 9) (true p))\n",
		strings.Join(vars, " "), strings.Join(body, " "), strings.Repeat("0 ", arity))
	return b.String()
}

// minAtoms returns the smallest MaxAtoms under which src grounds, searching
// lo..hi, and checks that one less is a MaxAtoms LimitError.
func minAtoms(t *testing.T, src string, lo, hi int64) int64 {
	t.Helper()
	for lo < hi {
		mid := (lo + hi) / 2
		_, err := grounding.Load(context.Background(), "p.kif", []byte(src), grounding.Limits{MaxAtoms: mid})
		var le *grounding.LimitError
		switch {
		case err == nil:
			hi = mid
		case errors.As(err, &le) && le.What == "MaxAtoms":
			lo = mid + 1
		default:
			t.Fatalf("Load(MaxAtoms=%d) = %v", mid, err)
		}
	}
	return lo
}

// TestProductCountedAtTheLimit checks that counting a product (instead of
// enumerating it) moves the MaxAtoms boundary by not one atom: the product
// grounds at exactly the limit the enumerated join needs, and fails one
// below it.
func TestProductCountedAtTheLimit(t *testing.T) {
	counted := minAtoms(t, productGame(3, false), 1000, 2000)
	enumerated := minAtoms(t, productGame(3, true), 1000, 2000)
	if counted != enumerated || counted < 1000 {
		t.Errorf("smallest MaxAtoms: %d counted, %d enumerated; want the same, at least 1000", counted, enumerated)
	}
}

// TestProductBlowUp checks that a relation over a product of 10^7 tuples
// fails at once, reporting the product's size rather than MaxAtoms+1.
func TestProductBlowUp(t *testing.T) {
	_, err := grounding.Load(context.Background(), "p.kif", []byte(productGame(7, false)), grounding.Limits{})
	var le *grounding.LimitError
	if !errors.As(err, &le) || le.What != "MaxAtoms" || le.Got < 10_000_000 || !strings.Contains(le.Where, "big") {
		t.Fatalf("Load = %v, want MaxAtoms exceeded with at least 10^7 atoms of big", err)
	}
}
