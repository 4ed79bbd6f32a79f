package satcheck_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// soloStd adds to std's shape a role with a single action.
func soloStd(name string) *prog {
	return newProg(name, []string{"r", "s", "solo"}, []string{"p0", "p1", "p2", "p3", "p4", "p5"},
		[][]string{{"a1", "a2", "a3"}, {"b1", "b2"}, {"only"}})
}

var supportTests = []struct {
	name string
	f    func(q *prog) grounding.Lit
	want []string // names of inputs: propositions or "role.action"
}{
	{"Absorbed", func(q *prog) grounding.Lit { return q.or(q.t("p0"), q.and(q.t("p0"), q.t("p1"))) }, []string{"p0"}},
	{"Xor", func(q *prog) grounding.Lit { return q.xor(q.t("p0"), q.t("p1")) }, []string{"p0", "p1"}},
	{"Constant", func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.t("p0").Not()) }, nil},
	{"OneHotTautology", func(q *prog) grounding.Lit { return q.or(q.d("r", "a1"), q.d("r", "a2"), q.d("r", "a3")) }, nil},
	{"OneHotContradiction", func(q *prog) grounding.Lit { return q.and(q.d("r", "a1"), q.d("r", "a2")) }, nil},
	{"TwoOfThree", func(q *prog) grounding.Lit { return q.or(q.d("r", "a1"), q.d("r", "a2")) }, []string{"r.a1", "r.a2", "r.a3"}},
	{"OneOfThree", func(q *prog) grounding.Lit { return q.and(q.t("p3"), q.d("r", "a1")) }, []string{"p3", "r.a1", "r.a2", "r.a3"}},
	{"OneOfTwo", func(q *prog) grounding.Lit { return q.d("s", "b2") }, []string{"s.b1", "s.b2"}},
	{"SingleAction", func(q *prog) grounding.Lit { return q.and(q.t("p0"), q.d("solo", "only")) }, []string{"p0"}},
	{"Mixed", func(q *prog) grounding.Lit {
		return q.or(q.and(q.t("p1"), q.d("s", "b1")), q.and(q.t("p1"), q.d("s", "b2")), q.and(q.t("p2"), q.d("r", "a3")))
	}, []string{"p1", "p2", "r.a1", "r.a2", "r.a3"}},
}

func inputID(q *prog, name string) int {
	for i := range len(name) {
		if name[i] == '.' {
			return q.actionInput(name[:i], name[i+1:])
		}
	}
	return q.propID(name)
}

func TestSemanticSupport(t *testing.T) {
	stages := []struct {
		name string
		bits int
		sim  bool
	}{{"Table", 16, true}, {"SimSAT", 0, true}, {"SAT", 0, false}}
	for _, st := range stages {
		for _, tc := range supportTests {
			t.Run(st.name+"/"+tc.name, func(t *testing.T) {
				defer satcheck.SetSupportStages(st.bits, st.sim)()
				q := soloStd("p")
				f := tc.f(q)
				p := q.done()
				var want []int
				for _, n := range tc.want {
					want = append(want, inputID(q, n))
				}
				slices.Sort(want)
				got, err := satcheck.SemanticSupport(context.Background(), p, f)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("SemanticSupport = %v, want %v", got, want)
				}
				for i := range p.Circuit.NumInputs {
					dep, err := satcheck.DependsOn(context.Background(), p, f, i)
					if err != nil {
						t.Fatal(err)
					}
					if dep != slices.Contains(want, i) {
						t.Errorf("DependsOn(%d) = %v", i, dep)
					}
				}
			})
		}
	}
}

// bruteSupport computes the semantic support by enumeration.
func bruteSupport(p *grounding.Program, f grounding.Lit) []int {
	n := len(p.Props)
	var choices []int
	for _, as := range p.Actions {
		choices = append(choices, len(as))
	}
	total := 1
	for _, c := range choices {
		total *= c
	}
	eval := func(s, mv int) bool {
		in := make([]bool, p.Circuit.NumInputs)
		for i := range n {
			in[i] = s>>i&1 == 1
		}
		off := n
		for r, c := range choices {
			in[off+mv%c] = true
			mv /= c
			off += len(p.Actions[r])
		}
		return grounding.Value(p.Circuit.Eval(in, nil), f)
	}
	dep := map[int]bool{}
	for s := range 1 << n {
		for mv := range total {
			v := eval(s, mv)
			for i := range n {
				if eval(s^1<<i, mv) != v {
					dep[i] = true
				}
			}
			// Change one role's action.
			stride, off := 1, n
			for r, c := range choices {
				cur := mv / stride % c
				for alt := range c {
					if alt != cur && eval(s, mv+(alt-cur)*stride) != v {
						dep[off+cur], dep[off+alt] = true, true
					}
				}
				stride *= c
				off += len(p.Actions[r])
			}
		}
	}
	var out []int
	for i := range p.Circuit.NumInputs {
		if dep[i] {
			out = append(out, i)
		}
	}
	return out
}

func TestSemanticSupportRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := [][]int{{2, 3}, {1, 2}, {4}, {7}, {}}
	trials := 150
	if testing.Short() {
		trials = 30
	}
	for trial := range trials {
		q, pool, shape := shapedCircuitProgram(rng, shapes, trial, 10)
		// Functions with redundancy: f ∨ (f ∧ g) reads g but does not depend on it.
		f := pool[rng.IntN(len(pool))]
		g := pool[rng.IntN(len(pool))]
		fs := []grounding.Lit{f, q.or(f, q.and(f, g)), q.xor(f, g)}
		p := q.done()
		for _, f := range fs {
			want := bruteSupport(p, f)
			for _, st := range []struct {
				bits int
				sim  bool
			}{{16, true}, {0, true}, {0, false}} {
				restore := satcheck.SetSupportStages(st.bits, st.sim)
				got, err := satcheck.SemanticSupport(context.Background(), p, f)
				restore()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("trial %d stage %+v: SemanticSupport = %v, brute force %v (shape %v)", trial, st, got, want, shape)
				}
			}
		}
	}
}

// TestSemanticSupportLarge: a support too large for truth tables, where
// simulation cannot see the dependencies (an AND of 20 inputs is almost never
// true) and SAT has to decide.
func TestSemanticSupportLarge(t *testing.T) {
	var props []string
	for i := range 21 {
		props = append(props, string(rune('a'+i)))
	}
	q := newProg("big", nil, props, nil)
	var all []grounding.Lit
	for i := range 20 {
		all = append(all, grounding.InputLit(i))
	}
	big := q.and(all...)
	f := q.or(big, q.and(big, grounding.InputLit(20)))
	p := q.done()
	got, err := satcheck.SemanticSupport(context.Background(), p, f)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, 20)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(got, want) {
		t.Errorf("SemanticSupport = %v, want 0..19", got)
	}
	if dep, err := satcheck.DependsOn(context.Background(), p, f, 20); err != nil || dep {
		t.Errorf("DependsOn(20) = %v, %v, want false", dep, err)
	}
	if _, err := satcheck.DependsOn(context.Background(), p, f, 21); err == nil {
		t.Errorf("DependsOn(21) succeeded, want an out-of-range error")
	}
}
