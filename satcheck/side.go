package satcheck

import (
	"slices"
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
	supp map[int32][]int32 // node -> sorted support, filled on demand

	strashOnce sync.Once
	strash     map[uint64]int32 // hash of sorted fanins -> last gate with that hash
	chain      []int32          // chain[g-NumInputs-1]: previous gate with the same hash, or -1

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

// cone is the part of a circuit below one root, renumbered densely: slot 0 is
// the constant false, slots 1..len(inputs) are the inputs in sorted order, and
// the gates follow in ascending (topological) order.
type cone struct {
	inputs []int32  // circuit inputs, sorted (the syntactic support)
	gates  []int32  // gate nodes, ascending
	start  []int32  // len(gates)+1 offsets into fanin
	fanin  []uint32 // local literals: slot<<1 | negated
	root   uint32   // local literal of the root
}

func (cn *cone) numSlots() int { return 1 + len(cn.inputs) + len(cn.gates) }

// collect walks the cone of root and returns its inputs and gates, sorted.
func (s *side) collect(root grounding.Lit) (inputs, gates []int32, err error) {
	c := s.c
	nn := c.NumNodes()
	r := root.Node()
	if r >= nn {
		return nil, nil, malformedf(s.p.Name, "literal %d beyond %d nodes", root, nn)
	}
	if r == 0 {
		return nil, nil, nil
	}
	if r <= c.NumInputs {
		return []int32{int32(r - 1)}, nil, nil
	}
	seen := map[int32]struct{}{int32(r): {}}
	stack := []int32{int32(r)}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n <= int32(c.NumInputs) {
			inputs = append(inputs, n-1)
			continue
		}
		gates = append(gates, n)
		lo, hi := c.Start[n], c.Start[n+1]
		if lo > hi || int(hi) > len(c.Fanin) {
			return nil, nil, malformedf(s.p.Name, "bad fanin range of gate %d", n)
		}
		for _, l := range c.Fanin[lo:hi] {
			m := int32(l.Node())
			if m >= n {
				return nil, nil, malformedf(s.p.Name, "gate %d has fanin node %d, not below it", n, m)
			}
			if m == 0 {
				continue
			}
			if _, ok := seen[m]; !ok {
				seen[m] = struct{}{}
				stack = append(stack, m)
			}
		}
	}
	slices.Sort(inputs)
	slices.Sort(gates)
	return inputs, gates, nil
}

// support returns the sorted syntactic support of l, cached per node.
func (s *side) support(l grounding.Lit) ([]int32, error) {
	n := int32(l.Node())
	s.mu.Lock()
	in, ok := s.supp[n]
	s.mu.Unlock()
	if ok {
		return in, nil
	}
	in, _, err := s.collect(l)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.supp[n] = in
	s.mu.Unlock()
	return in, nil
}

// cone builds the renumbered cone of root.
func (s *side) cone(root grounding.Lit) (*cone, error) {
	inputs, gates, err := s.collect(root)
	if err != nil {
		return nil, err
	}
	cn := &cone{inputs: inputs, gates: gates, start: make([]int32, 1, len(gates)+1)}
	slot := func(n int32) uint32 {
		switch {
		case n == 0:
			return 0
		case n <= int32(s.c.NumInputs):
			k, _ := slices.BinarySearch(inputs, n-1)
			return uint32(1 + k)
		}
		k, _ := slices.BinarySearch(gates, n)
		return uint32(1 + len(inputs) + k)
	}
	for _, g := range gates {
		for _, l := range s.c.Fanins(int(g)) {
			cn.fanin = append(cn.fanin, slot(int32(l.Node()))<<1|uint32(l&1))
		}
		cn.start = append(cn.start, int32(len(cn.fanin)))
	}
	cn.root = slot(int32(root.Node()))<<1 | uint32(root&1)
	return cn, nil
}

// buildStrash indexes the gates of the circuit by their fanins.
func (s *side) buildStrash() {
	s.strashOnce.Do(func() {
		c := s.c
		s.strash = make(map[uint64]int32, c.NumGates())
		s.chain = make([]int32, c.NumGates())
		for g := c.NumInputs + 1; g < c.NumNodes(); g++ {
			h := hashLits(c.Fanins(g))
			prev, ok := s.strash[h]
			if !ok {
				prev = -1
			}
			s.chain[g-c.NumInputs-1] = prev
			s.strash[h] = int32(g)
		}
	})
}

// findGate returns the gate whose fanins are exactly fs (sorted), if any.
func (s *side) findGate(fs []grounding.Lit) (grounding.Lit, bool) {
	g, ok := s.strash[hashLits(fs)]
	if !ok {
		return 0, false
	}
	for ; g >= 0; g = s.chain[int(g)-s.c.NumInputs-1] {
		if slices.Equal(s.c.Fanins(int(g)), fs) {
			return grounding.Lit(g) << 1, true
		}
	}
	return 0, false
}

func hashLits(ls []grounding.Lit) uint64 {
	h := uint64(14695981039346656037)
	for _, l := range ls {
		h ^= uint64(l)
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}
