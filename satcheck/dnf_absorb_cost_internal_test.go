package satcheck

import (
	"slices"
	"testing"
)

// revAbsorbWorst (from the review of issue-quad22) is a set of n cubes,
// half B+a_i, half B+b_j+b'_j (none absorbs another), B of baseLen atoms:
// with long cubes sharing most atoms the 256-bit signatures saturate and
// most pairs reach subset, which walks the cube.
func revAbsorbWorst(n, baseLen int) dnf {
	var s dnf
	base := make([]uint32, baseLen)
	for k := range base {
		base[k] = uint32(2*k+2) << 1
	}
	next := uint32(2*baseLen + 4)
	for k := 0; k < n; k++ {
		c := slices.Clone(base)
		if k%2 == 0 {
			c = append(c, next<<1)
			next++
		} else {
			c = append(c, next<<1, (next+1)<<1)
			next += 2
		}
		slices.Sort(c)
		s = append(s, c)
	}
	slices.SortFunc(s, slices.Compare)
	return s
}

// TestAbsorbChargesAsItGoes: on the review's worst set (16,384 cubes of 41
// or 42 atoms sharing 40, whose signatures all but saturate, so that most
// of the 2^27 pairs walk a cube), absorb with the least budget runs out
// and stops, having charged no more than its budget and one cube's work
// past it; charged only at the end it took 3.5 s at load 10.
func TestAbsorbChargesAsItGoes(t *testing.T) {
	s := revAbsorbWorst(dnfMaxCubes, 40)
	dt := newDNFTable(10, dnfMinAtoms, dnfCaps{dnfMaxCubes, dnfMaxProduct})
	if _, ok := dt.absorb(s); ok || !dt.out {
		t.Fatalf("absorb within the least budget: ok %v, out %v; want it to run out", ok, dt.out)
	}
	if over := -dt.budget; over > (len(s)*(41+2))/dnfAbsorbWorkPerAtom+1 {
		t.Errorf("charged %d past the budget: more than one cube's work", over)
	}
	// A set of the same size whose cubes are apart fits: most pairs are
	// ruled out by their signatures.
	var apart dnf
	for k := range 2048 {
		apart = append(apart, []uint32{uint32(k+2) << 1})
	}
	dt = newDNFTable(10, dnfMinAtoms, dnfCaps{dnfMaxCubes, dnfMaxProduct})
	if got, ok := dt.absorb(apart); !ok || len(got) != len(apart) {
		t.Fatalf("2,048 single-atom cubes: ok %v, %d kept", ok, len(got))
	}
}
