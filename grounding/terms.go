package grounding

import (
	"encoding/binary"
	"strings"
)

// termStore interns symbols and ground terms so that equal terms have equal ids.
type termStore struct {
	syms     []string
	symIndex map[string]int32

	fn    []int32 // fn[t]: function symbol (or the constant's symbol)
	start []int32 // args of t are argPool[start[t]:start[t+1]]
	pool  []int32
	depth []int32 // nesting depth: 0 for constants
	index map[string]int32
	key   []byte
}

func newTermStore() *termStore {
	return &termStore{symIndex: map[string]int32{}, index: map[string]int32{}, start: []int32{0}}
}

func (s *termStore) sym(name string) int32 {
	if id, ok := s.symIndex[name]; ok {
		return id
	}
	id := int32(len(s.syms))
	s.syms = append(s.syms, name)
	s.symIndex[name] = id
	return id
}

func (s *termStore) args(t int32) []int32 { return s.pool[s.start[t]:s.start[t+1]] }

// intern returns the id of the term fn(args...) (a constant when args is empty).
func (s *termStore) intern(fn int32, args []int32) int32 {
	k := s.key[:0]
	k = binary.LittleEndian.AppendUint32(k, uint32(fn))
	for _, a := range args {
		k = binary.LittleEndian.AppendUint32(k, uint32(a))
	}
	s.key = k
	if id, ok := s.index[string(k)]; ok {
		return id
	}
	id := int32(len(s.fn))
	s.index[string(k)] = id
	s.fn = append(s.fn, fn)
	s.pool = append(s.pool, args...)
	s.start = append(s.start, int32(len(s.pool)))
	d := int32(0)
	for _, a := range args {
		if s.depth[a]+1 > d {
			d = s.depth[a] + 1
		}
	}
	s.depth = append(s.depth, d)
	return id
}

// lookup returns the id of the term fn(args...) if it was ever interned.
func (s *termStore) lookup(fn int32, args []int32) (int32, bool) {
	return s.lookupKey(fn, args, &s.key)
}

// lookupKey is lookup with the caller's key buffer: with no intern running,
// several goroutines may look terms up at once (parallel domain rounds).
func (s *termStore) lookupKey(fn int32, args []int32, key *[]byte) (int32, bool) {
	k := (*key)[:0]
	k = binary.LittleEndian.AppendUint32(k, uint32(fn))
	for _, a := range args {
		k = binary.LittleEndian.AppendUint32(k, uint32(a))
	}
	*key = k
	id, ok := s.index[string(k)]
	return id, ok
}

// constant returns the id of a constant symbol.
func (s *termStore) constant(name string) int32 { return s.intern(s.sym(name), nil) }

// lookupConstant returns the id of a constant if it was ever interned.
func (s *termStore) lookupConstant(name string) (int32, bool) {
	sym, ok := s.symIndex[name]
	if !ok {
		return 0, false
	}
	var k [4]byte
	binary.LittleEndian.PutUint32(k[:], uint32(sym))
	id, ok := s.index[string(k[:])]
	return id, ok
}

// fromAST interns a ground AST term.
func (s *termStore) fromAST(t *Term) int32 {
	if len(t.Args) == 0 {
		return s.constant(t.Name)
	}
	args := make([]int32, len(t.Args))
	for i, a := range t.Args {
		args[i] = s.fromAST(a)
	}
	return s.intern(s.sym(t.Name), args)
}

// String renders term t in canonical KIF.
func (s *termStore) String(t int32) string {
	var b strings.Builder
	s.write(&b, t)
	return b.String()
}

func (s *termStore) write(b *strings.Builder, t int32) {
	args := s.args(t)
	if len(args) == 0 {
		b.WriteString(s.syms[s.fn[t]])
		return
	}
	b.WriteByte('(')
	b.WriteString(s.syms[s.fn[t]])
	for _, a := range args {
		b.WriteByte(' ')
		s.write(b, a)
	}
	b.WriteByte(')')
}

// tupleString renders a relation's ground atom "(rel a b)" or "rel".
func (s *termStore) tupleString(rel string, tuple []int32) string {
	if len(tuple) == 0 {
		return rel
	}
	var b strings.Builder
	b.WriteByte('(')
	b.WriteString(rel)
	for _, a := range tuple {
		b.WriteByte(' ')
		s.write(&b, a)
	}
	b.WriteByte(')')
	return b.String()
}
