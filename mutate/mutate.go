package mutate

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gamequiv/gamequiv/grounding"
)

// Variant is a description produced by Equivalent together with what relates
// it to the original.
type Variant struct {
	// File is the variant description; File.String() prints it as GDL.
	File *grounding.File
	// Renaming maps every symbol of the original that was renamed to its name
	// in File. Keywords and goal values never appear in it.
	Renaming map[string]string
	// Applied lists the transformations that changed the description, in the
	// order they were applied (a name may repeat).
	Applied []string

	termOps []termOp // the term-level rewrites, in order, for TranslateTerm
}

// transformations are the rewrites of Equivalent, indexed by bit of Op. Each
// reports whether it changed the description.
var transformations = [numOps]func(m *mutator) bool{
	(*mutator).renameSymbols,
	(*mutator).renameVars,
	(*mutator).reorderRules,
	(*mutator).reorderBody,
	(*mutator).permuteArgs,
	(*mutator).pairArgs,
	(*mutator).deMorgan,
	(*mutator).splitOr,
	(*mutator).mergeOr,
	(*mutator).unfold,
	(*mutator).fold,
	(*mutator).tautology,
	(*mutator).duplicate,
}

// ErrNilFile is returned by Equivalent and Different when given no description.
var ErrNilFile = errors.New("mutate: nil description")

// Equivalent returns a variant of f that describes the same game up to a
// renaming of roles, propositions and actions: a random composition,
// determined by seed, of the transformations in opt.Ops (see Op). f is not
// modified. The variant grounds whenever f does, to a program with the same
// numbers of roles, propositions, actions and reasoning functions.
func Equivalent(f *grounding.File, seed int64, opt Options) (*Variant, error) {
	if f == nil {
		return nil, ErrNilFile
	}
	if rest := opt.Ops &^ AllOps; rest != 0 {
		return nil, fmt.Errorf("mutate: unknown transformation bits %#x", uint32(rest))
	}
	opt = opt.withDefaults()
	m := newMutator(cloneFile(f), seed)
	var enabled []int
	for i := range numOps {
		if opt.Ops&(1<<i) != 0 {
			enabled = append(enabled, i)
		}
	}
	order := m.rng.Perm(len(enabled))
	for step := range opt.Steps {
		i := enabled[m.rng.IntN(len(enabled))]
		if step < len(enabled) {
			i = enabled[order[step]]
		}
		if transformations[i](m) {
			m.applied = append(m.applied, opNames[i])
		}
	}
	v := &Variant{File: m.f, Renaming: map[string]string{}, Applied: m.applied, termOps: m.ops}
	for orig, cur := range m.names {
		if orig != cur {
			v.Renaming[orig] = cur
		}
	}
	return v, nil
}

// TranslateTerm maps a ground term of the original description (a state
// proposition, a move or a role, in KIF) to the term that stands for it in
// the variant, in canonical KIF.
func (v *Variant) TranslateTerm(kif string) (string, error) {
	t, err := parseGroundTerm(kif)
	if err != nil {
		return "", err
	}
	for _, op := range v.termOps {
		if t, err = op.translate(t); err != nil {
			return "", fmt.Errorf("translate %s: %w", kif, err)
		}
	}
	return t.String(), nil
}

// parseGroundTerm reads one ground term.
func parseGroundTerm(kif string) (*grounding.Term, error) {
	f, err := grounding.Parse("term", []byte("(term "+kif+")"))
	if err != nil {
		return nil, err
	}
	if len(f.Rules) != 1 || len(f.Rules[0].Body) != 0 || len(f.Rules[0].Head.Args) != 1 {
		return nil, fmt.Errorf("%q is not one term", kif)
	}
	t := f.Rules[0].Head.Args[0]
	if !t.IsGround() {
		return nil, fmt.Errorf("%q is not ground", kif)
	}
	return t, nil
}

// mutator is the state of one Equivalent run.
type mutator struct {
	rng     *rand.Rand
	f       *grounding.File
	used    map[string]bool   // every symbol name in f or ever handed out
	names   map[string]string // original symbol -> its current name
	paired  map[string]bool   // symbols pair-args re-encoded or introduced, by current name
	ops     []termOp
	applied []string
}

func newMutator(f *grounding.File, seed int64) *mutator {
	m := &mutator{
		rng:    rand.New(rand.NewPCG(uint64(seed), 0x6d75746174652121)),
		f:      f,
		used:   map[string]bool{},
		names:  map[string]string{},
		paired: map[string]bool{},
	}
	for k := range keywords {
		m.used[k] = true
	}
	for _, s := range symbols(f) {
		m.used[s] = true
		m.names[s] = s
	}
	return m
}

// applyTermOp rewrites every rule of the description with op and records op
// for TranslateTerm.
func (m *mutator) applyTermOp(op termOp) {
	for i, r := range m.f.Rules {
		m.f.Rules[i] = mapRule(r, op.atom, op.term)
	}
	m.ops = append(m.ops, op)
}

var (
	consonants = []string{"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "ch", "sh", "tr", "gl"}
	vowels     = []string{"a", "e", "i", "o", "u", "ai", "ou"}
)

// word makes a random pronounceable lower-case word of n syllables.
func (m *mutator) word(n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(consonants[m.rng.IntN(len(consonants))])
		b.WriteString(vowels[m.rng.IntN(len(vowels))])
	}
	return b.String()
}

// fresh returns a symbol name used nowhere in the description and never
// handed out before.
func (m *mutator) fresh() string {
	for n := 2; ; n++ {
		for range 8 {
			w := m.word(n)
			if !m.used[w] {
				m.used[w] = true
				return w
			}
		}
	}
}

// freshVar returns a variable name not in taken, and adds it to taken.
func (m *mutator) freshVar(taken map[string]bool) string {
	for n := 1; ; n++ {
		for range 4 {
			w := m.word(n)
			if !taken[w] {
				taken[w] = true
				return w
			}
		}
	}
}

// renameApart renames the variables of r to names not in taken (which it extends).
func (m *mutator) renameApart(r *grounding.Rule, taken map[string]bool) *grounding.Rule {
	ren := map[string]string{}
	for _, v := range ruleVars(r) {
		ren[v] = m.freshVar(taken)
	}
	return renameRuleVars(r, ren)
}

// sites returns a random non-empty subset of 0..n-1 (each kept with
// probability one half), in random order, or nil when n is 0.
func (m *mutator) sites(n int) []int {
	if n == 0 {
		return nil
	}
	var out []int
	for _, i := range m.rng.Perm(n) {
		if len(out) == 0 || m.rng.IntN(2) == 0 {
			out = append(out, i)
		}
	}
	return out
}

// varSet returns the variables of r as a set.
func varSet(r *grounding.Rule) map[string]bool {
	s := map[string]bool{}
	for _, v := range ruleVars(r) {
		s[v] = true
	}
	return s
}

// maxSites bounds how many rules one call of a local rewrite changes, so that
// a variant stays close to the size of the original.
const maxSites = 4

// fewSites is sites cut to at most maxSites.
func (m *mutator) fewSites(n int) []int {
	s := m.sites(n)
	return s[:min(len(s), maxSites)]
}
