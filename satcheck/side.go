package satcheck

import (
	"sync"

	"github.com/gamequiv/gamequiv/grounding"
)

// side is one program seen by the checker: its input layout (recomputed from
// the exported fields, so hand-built Programs work), cached supports and, for
// the first program of a Checker, precomputed simulation signatures.
type side struct {
	p         *grounding.Program
	c         *grounding.Circuit
	nProps    int
	base      []int32 // base[r]: first input of role r's actions; base[len(Roles)] = NumInputs
	roleOf    []int32 // roleOf[i-nProps]: role of action input i
	emptyRole int     // a role without actions, or -1

	mu   sync.Mutex
	supp map[int32][]int32 // node -> sorted support, filled on demand (see support)
	// suppRuns holds the supports that runs of consecutive inputs keep in
	// a small part of the space: the next functions of amazons read all
	// 173,962 actions, 480 MB of plain lists for both sides.
	suppRuns map[int32]grounding.Runs

	pairs *pairCache // pair types of functions (pairs.go); shared by both sides of a program compared with itself

	cones     map[grounding.Lit]*cone // read-only cones of function literals (coneOf)
	coneWords int                     // fanin entries held by cones

	strashOnce sync.Once
	strash     *grounding.StrashIndex

	varIndex sync.Pool // *[]int32, one -1 per input between uses (takeVarIndex)

	simOnce sync.Once
	simW    int
	inVec   []uint64 // inVec[i*simW:]: fixed random vector of input i (one-hot per role)
	sig     []uint64 // sig[n*simW:]: value of node n under inVec, nil when too large
}

// newSide computes the layout of p in time linear in its roles and actions.
// The circuit itself is checked lazily, gate by gate, as cones are built.
func newSide(p *grounding.Program) (*side, error) {
	if p == nil {
		return nil, malformedf("", "nil program")
	}
	s := &side{p: p, c: &p.Circuit, nProps: len(p.Props), emptyRole: -1}
	if len(p.Actions) != len(p.Roles) {
		return nil, malformedf(p.Name, "%d roles but %d action lists", len(p.Roles), len(p.Actions))
	}
	s.base = make([]int32, len(p.Roles)+1)
	n := len(p.Props)
	for r, as := range p.Actions {
		s.base[r] = int32(n)
		if len(as) == 0 && s.emptyRole < 0 {
			s.emptyRole = r
		}
		for range as {
			s.roleOf = append(s.roleOf, int32(r))
		}
		n += len(as)
	}
	s.base[len(p.Roles)] = int32(n)
	if p.Circuit.NumInputs != n {
		return nil, malformedf(p.Name, "circuit has %d inputs, want %d propositions + %d actions",
			p.Circuit.NumInputs, len(p.Props), n-len(p.Props))
	}
	if len(p.Circuit.Start) < n+2 {
		return nil, malformedf(p.Name, "circuit has %d nodes, fewer than its %d inputs + 1", len(p.Circuit.Start)-1, n)
	}
	s.supp = make(map[int32][]int32)
	s.suppRuns = make(map[int32]grounding.Runs)
	s.pairs = &pairCache{}
	return s, nil
}

// validate checks the whole circuit and every function literal once, so that
// later passes cannot index out of range.
func (s *side) validate() error {
	p, c := s.p, s.c
	nn := c.NumNodes()
	if c.Start[0] != 0 || c.Start[c.NumInputs+1] != 0 {
		return malformedf(p.Name, "constant or input nodes have fanins")
	}
	if int(c.Start[nn]) != len(c.Fanin) {
		return malformedf(p.Name, "Start[%d] = %d, want len(Fanin) = %d", nn, c.Start[nn], len(c.Fanin))
	}
	for g := c.NumInputs + 1; g < nn; g++ {
		if c.Start[g] > c.Start[g+1] {
			return malformedf(p.Name, "Start decreases at gate %d", g)
		}
		for _, l := range c.Fanins(g) {
			if l.Node() >= g {
				return malformedf(p.Name, "gate %d has fanin node %d, not below it", g, l.Node())
			}
		}
	}
	lit := func(what string, l grounding.Lit) error {
		if l.Node() >= nn {
			return malformedf(p.Name, "%s literal %d beyond %d nodes", what, l, nn)
		}
		return nil
	}
	if len(p.Legal) != len(p.Roles) || len(p.Goals) != len(p.Roles) {
		return malformedf(p.Name, "%d roles but %d legal and %d goal lists", len(p.Roles), len(p.Legal), len(p.Goals))
	}
	for r := range p.Roles {
		if len(p.Legal[r]) != len(p.Actions[r]) {
			return malformedf(p.Name, "role %s has %d actions but %d legal functions", p.Roles[r], len(p.Actions[r]), len(p.Legal[r]))
		}
		for _, l := range p.Legal[r] {
			if err := lit("legal", l); err != nil {
				return err
			}
		}
		for i, g := range p.Goals[r] {
			if i > 0 && g.Value <= p.Goals[r][i-1].Value {
				return malformedf(p.Name, "goals of role %s not sorted by distinct values", p.Roles[r])
			}
			if err := lit("goal", g.Lit); err != nil {
				return err
			}
		}
	}
	if len(p.Next) != len(p.Props) {
		return malformedf(p.Name, "%d propositions but %d next functions", len(p.Props), len(p.Next))
	}
	for _, l := range p.Next {
		if err := lit("next", l); err != nil {
			return err
		}
	}
	for _, q := range p.Init {
		if q < 0 || int(q) >= len(p.Props) {
			return malformedf(p.Name, "init proposition %d out of range", q)
		}
	}
	return lit("terminal", p.Terminal)
}

func (s *side) numInputs() int         { return s.c.NumInputs }
func (s *side) isAction(i int32) bool  { return int(i) >= s.nProps }
func (s *side) role(i int32) int32     { return s.roleOf[int(i)-s.nProps] }
func (s *side) numActions(r int32) int { return int(s.base[r+1] - s.base[r]) }

// availableActions counts the actions role r may take: all of them, or
// with mapped not nil those mapped[i] marks.
func (s *side) availableActions(r int32, mapped []bool) int {
	if mapped == nil {
		return s.numActions(r)
	}
	n := 0
	for i := s.base[r]; i < s.base[r+1]; i++ {
		if mapped[i] {
			n++
		}
	}
	return n
}

// cone is the circuit toolkit's cone (grounding.Cone).
type cone = grounding.Cone

// collect walks the cone of root and returns its inputs and gates, sorted.
func (s *side) collect(root grounding.Lit) (inputs, gates []int32, err error) {
	inputs, gates, err = grounding.CollectCone(s.c, root)
	if err != nil {
		return nil, nil, malformedf(s.p.Name, "%v", err)
	}
	return inputs, gates, nil
}

// suppRunsFactor: a support is kept as runs when they take at most this
// fraction of its plain list, and then listed afresh at each call (in time
// proportional to the support, as the question it serves).
const suppRunsFactor = 8

// support returns the sorted syntactic support of l, cached per node. The
// caller may keep it but must not change it.
func (s *side) support(l grounding.Lit) ([]int32, error) {
	n := int32(l.Node())
	s.mu.Lock()
	in, ok := s.supp[n]
	r, isRuns := s.suppRuns[n]
	s.mu.Unlock()
	if ok {
		return in, nil
	}
	if isRuns {
		return r.AppendTo(make([]int32, 0, r.Len())), nil
	}
	in, _, err := s.collect(l)
	if err != nil {
		return nil, err
	}
	for _, i := range in {
		r = r.Add(i)
		if len(r)*suppRunsFactor > len(in) {
			break
		}
	}
	s.mu.Lock()
	if len(r)*suppRunsFactor <= len(in) {
		s.suppRuns[n] = r
	} else {
		s.supp[n] = in
	}
	s.mu.Unlock()
	return in, nil
}

// cone builds the renumbered cone of root.
func (s *side) cone(root grounding.Lit) (*cone, error) {
	cn, err := grounding.NewCone(s.c, root)
	if err != nil {
		return nil, malformedf(s.p.Name, "%v", err)
	}
	return cn, nil
}

// maxConeCacheWords bounds the fanin entries of the cones a side keeps
// (4 bytes each, plus about as much again for starts and gates); past it the
// cache is emptied and refilled.
const maxConeCacheWords = 1 << 24

// coneOf returns the cone of root, built once per literal and shared: the
// search asks about the same large functions under thousands of partial
// mappings, and rebuilding a cone costs more than the simulation it serves.
// Callers must treat the cone as read-only (Simulate only, never Fanout).
func (s *side) coneOf(root grounding.Lit) (*cone, error) {
	s.mu.Lock()
	cn, ok := s.cones[root]
	s.mu.Unlock()
	if ok {
		return cn, nil
	}
	cn, err := s.cone(root)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cones == nil || s.coneWords+len(cn.Fanin) > maxConeCacheWords {
		s.cones, s.coneWords = map[grounding.Lit]*cone{}, 0
	}
	if len(cn.Fanin) <= maxConeCacheWords {
		s.cones[root] = cn
		s.coneWords += len(cn.Fanin)
	}
	return cn, nil
}

// buildStrash indexes the gates of the circuit by their fanins.
func (s *side) buildStrash() {
	s.strashOnce.Do(func() { s.strash = grounding.NewStrashIndex(s.c) })
}

// findGate returns the gate whose fanins are exactly fs (sorted), if any.
func (s *side) findGate(fs []grounding.Lit) (grounding.Lit, bool) { return s.strash.Find(fs) }

// takeVarIndex lends a slice with one entry per input of s, every entry -1.
func (s *side) takeVarIndex() []int32 {
	if p, ok := s.varIndex.Get().(*[]int32); ok {
		return *p
	}
	return filled(s.numInputs(), -1)
}

// putVarIndex resets the entries that j's variables set (their B inputs)
// and returns idx for the next takeVarIndex.
func (s *side) putVarIndex(idx []int32, j *joint) {
	for _, x := range j.vars {
		idx[x.bIn] = -1
	}
	s.varIndex.Put(&idx)
}
