package groundgraph

import (
	"encoding/json"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// Support is a function's semantic support (satcheck.SemanticSupport): the
// circuit inputs, ascending, whose change can change the function. A
// role's actions are in it all or none (a joint move is one choice per
// role), so it keeps the propositions and the roles read, and Len and At
// read it as the list of inputs. Listed, amazons' 302 next functions,
// each reading two roles of 86,981 actions, took 400 MB.
type Support struct {
	props []int // propositions, ascending
	roles []int // roles whose actions are in it, ascending
	spans []int // spans[i]: Len up to and including roles[i]
	bases []int // bases[i]: input of action 0 of roles[i]
	n     int   // Len
}

// newSupport returns the support of the propositions props (ascending)
// and of every action of each role of roles (ascending).
func newSupport(p *grounding.Program, props []int, roles []int) Support {
	s := Support{props: props, n: len(props)}
	if len(roles) == 0 {
		return s
	}
	s.roles = roles
	s.spans = make([]int, len(roles))
	s.bases = make([]int, len(roles))
	for i, r := range roles {
		s.n += len(p.Actions[r])
		s.spans[i] = s.n
		s.bases[i] = p.ActionInputBase(r)
	}
	return s
}

// Len returns the number of inputs in s.
func (s *Support) Len() int { return s.n }

// At returns the k-th input of s (0 <= k < Len).
func (s *Support) At(k int) int {
	if k < len(s.props) {
		return s.props[k]
	}
	lo := len(s.props)
	for i, end := range s.spans {
		if k < end {
			return s.bases[i] + k - lo
		}
		lo = end
	}
	panic("groundgraph: support index out of range")
}

// Props returns the propositions of s, ascending. They are its first
// inputs. The slice must not be modified.
func (s *Support) Props() []int { return s.props }

// Roles returns the roles whose actions are in s, ascending. The slice
// must not be modified.
func (s *Support) Roles() []int { return s.roles }

// RoleSpan returns the positions [lo, hi) of the actions of s.Roles()[i].
func (s *Support) RoleSpan(i int) (lo, hi int) {
	lo = len(s.props)
	if i > 0 {
		lo = s.spans[i-1]
	}
	return lo, s.spans[i]
}

// roleAt reports whether s's inputs k..e-1 are all the actions of one role
// r (at least two). When every one of them also has the same use hash, the
// arcs from each action to the function carry nothing that the single arc
// from r says: every action of r is adjacent to f in the same way, and
// every action has an arc to its role. graph draws the one arc from r
// instead (amazons' cell functions read all 90,001 actions of each role:
// 27 M arcs, most of the graph phase's time and memory). The graph's
// automorphisms are the same, since any automorphism maps a role's actions
// onto its image's. The refinement's partition is at least as fine: the
// role arc says what the per-action arcs say, and also that the role is
// read alike by all its actions, which per-action arcs can hide
// (TestRoleArcsKeepGroupAndPartition's roleArcsFiner); on the corpus it
// was the same. The construction reads only features an equivalence maps
// input by input, so the graph stays an invariant.
func (s *Support) roleAt(k int) (r, e int, ok bool) {
	for i := range s.roles {
		lo, hi := s.RoleSpan(i)
		if k == lo && hi-lo >= 2 {
			return s.roles[i], hi, true
		}
	}
	return 0, 0, false
}

// Inputs returns the inputs of s as a new list.
func (s *Support) Inputs() []int {
	if s.n == 0 {
		return nil
	}
	in := make([]int, 0, s.n)
	in = append(in, s.props...)
	for i := range s.roles {
		lo, hi := s.RoleSpan(i)
		for k := range hi - lo {
			in = append(in, s.bases[i]+k)
		}
	}
	return in
}

// Equal reports whether s and t hold the same inputs.
func (s *Support) Equal(t *Support) bool {
	return slices.Equal(s.props, t.props) && slices.Equal(s.roles, t.roles) && slices.Equal(s.spans, t.spans)
}

// MarshalJSON writes s as the list of its inputs.
func (s Support) MarshalJSON() ([]byte, error) { return json.Marshal(s.Inputs()) }
