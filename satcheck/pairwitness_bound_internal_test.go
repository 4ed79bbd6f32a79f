package satcheck

import (
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestWitnessBounds keeps states for more functions, and bigger cones,
// than the bounds allow: the map never holds more than maxWitnessFuncs
// functions or (past one cone) maxPairWitnessWords words, and its count of
// words is always what its entries hold, also when a function's cone
// changes size.
func TestWitnessBounds(t *testing.T) {
	fake := func(inputs, gates int) *cone {
		return &grounding.Cone{Inputs: make([]int32, inputs), Gates: make([]int32, gates)}
	}
	keep := func(pc *pairCache, cn *cone, f grounding.Lit) {
		z := make([]int, len(cn.Inputs))
		for k := range z {
			z[k] = falseVar + 1 + k
		}
		pc.keepWitness(cn, f, z, make([]bool, len(z)+1))
	}
	check := func(t *testing.T, pc *pairCache) {
		t.Helper()
		sum := 0
		for _, pw := range pc.wit {
			sum += pw.words
		}
		if sum != pc.witWords {
			t.Fatalf("witWords %d, entries hold %d", pc.witWords, sum)
		}
		if len(pc.wit) > maxWitnessFuncs {
			t.Fatalf("%d functions kept, bound %d", len(pc.wit), maxWitnessFuncs)
		}
		if len(pc.wit) > 1 && pc.witWords > maxPairWitnessWords {
			t.Fatalf("%d words kept, bound %d", pc.witWords, maxPairWitnessWords)
		}
	}

	t.Run("functions", func(t *testing.T) {
		var pc pairCache
		small := fake(3, 5)
		for f := range maxWitnessFuncs {
			keep(&pc, small, grounding.Lit(2*f))
			check(t, &pc)
		}
		if len(pc.wit) != maxWitnessFuncs {
			t.Fatalf("%d functions kept at the bound, want %d", len(pc.wit), maxWitnessFuncs)
		}
		keep(&pc, small, grounding.Lit(2*maxWitnessFuncs))
		check(t, &pc)
		if len(pc.wit) != 1 {
			t.Fatalf("%d functions kept past the bound, want 1 (the map emptied)", len(pc.wit))
		}
	})

	t.Run("words", func(t *testing.T) {
		var pc pairCache
		big := fake(1000, maxPairWitnessWords/3)
		keep(&pc, big, 2)
		keep(&pc, big, 4)
		check(t, &pc)
		if len(pc.wit) != 2 {
			t.Fatalf("%d functions kept, want 2 (under the word bound)", len(pc.wit))
		}
		keep(&pc, big, 6)
		check(t, &pc)
		if len(pc.wit) != 1 {
			t.Fatalf("%d functions kept past the word bound, want 1", len(pc.wit))
		}
	})

	t.Run("resized", func(t *testing.T) {
		var pc pairCache
		keep(&pc, fake(4, 10), 2)
		keep(&pc, fake(7, 30), 4)
		keep(&pc, fake(9, 50), 2) // the same function, another cone
		check(t, &pc)
		if want := pairWitnessWords(fake(9, 50)) + pairWitnessWords(fake(7, 30)); pc.witWords != want {
			t.Fatalf("witWords %d, want %d", pc.witWords, want)
		}
	})
}
