package grounding

import "testing"

// TestCofactorHasher: f = (x ∧ y) ∨ (x ∧ z) ∨ (w ∧ ¬w), written as
// ¬(¬(x∧y) ∧ ¬(x∧z) ∧ ¬(w∧¬w)). Slots: 0 false, 1..4 inputs x y z w,
// 5 = x∧y, 6 = x∧z, 7 = w∧¬w, 8 = ¬5 ∧ ¬6 ∧ ¬7; the root is ¬8.
func TestCofactorHasher(t *testing.T) {
	lit := func(slot uint32, neg bool) uint32 {
		if neg {
			return slot<<1 | 1
		}
		return slot << 1
	}
	cn := &Cone{
		Inputs: []int32{0, 1, 2, 3},
		Gates:  []int32{10, 11, 12, 13},
		Start:  []int32{0, 2, 4, 6, 9},
		Fanin: []uint32{
			lit(1, false), lit(2, false),
			lit(1, false), lit(3, false),
			lit(4, false), lit(4, true),
			lit(5, true), lit(6, true), lit(7, true),
		},
		Root: lit(8, true),
	}
	h := NewCofactorHasher(cn)
	fix := func(vals map[int]bool) func(int) (bool, bool) {
		return func(k int) (bool, bool) { v, ok := vals[k]; return v, ok }
	}
	yOnly := h.Literal(fix(map[int]bool{1: true, 2: false}))
	zOnly := h.Literal(fix(map[int]bool{1: false, 2: true}))
	neither := h.Literal(fix(map[int]bool{1: false, 2: false}))
	x := uint32(1) << 1 // input slot 1 (x), unfixed
	if yOnly != x || zOnly != x {
		t.Errorf("f with y alone = %d, with z alone = %d; want both x's literal %d", yOnly, zOnly, x)
	}
	if neither != CofactorFalse {
		t.Errorf("f with neither y nor z = %d, want false (w ∧ ¬w folds away)", neither)
	}
	both := h.Literal(fix(map[int]bool{1: true, 2: true}))
	if both != x {
		t.Errorf("f with y and z = %d, want x's literal %d", both, x)
	}
	free := h.Literal(fix(nil))
	if free == x || free == CofactorFalse || free == CofactorTrue {
		t.Errorf("f with nothing fixed = %d, want a gate of its own", free)
	}
	if again := h.Literal(fix(nil)); again != free {
		t.Errorf("the same cofactor twice: %d then %d", free, again)
	}
}
