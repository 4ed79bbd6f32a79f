package groundgraph

import (
	"context"
	"slices"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

// TestSupportReadsAsList checks Support's accessors against the flat list
// of inputs it stands for, on supports of every shape: no propositions, no
// roles, one role of one action (not a role span for roleAt), several
// roles.
func TestSupportReadsAsList(t *testing.T) {
	p, err := grounding.Load(context.Background(), "threeroles.kif", []byte(threeRolesKIF), grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Roles) != 3 || len(p.Actions[0]) != 1 || len(p.Actions[1]) != 3 || len(p.Actions[2]) != 2 {
		t.Fatalf("roles %v, actions %v: the test needs roles of 1, 3 and 2 actions", p.Roles, p.Actions)
	}
	for _, tc := range []struct {
		props, roles []int
	}{
		{nil, nil},
		{[]int{0, 2}, nil},
		{nil, []int{1}},
		{[]int{1}, []int{0, 1, 2}},
		{[]int{0, 1, 2}, []int{0, 2}},
	} {
		s := newSupport(p, tc.props, tc.roles)
		var want []int
		want = append(want, tc.props...)
		var spans [][2]int // want's positions of each role's actions
		for _, r := range tc.roles {
			lo := len(want)
			for a := range p.Actions[r] {
				want = append(want, p.ActionInputBase(r)+a)
			}
			spans = append(spans, [2]int{lo, len(want)})
		}
		if got := s.Inputs(); !slices.Equal(got, want) || s.Len() != len(want) {
			t.Errorf("props %v roles %v: Inputs %v, Len %d; want %v", tc.props, tc.roles, got, s.Len(), want)
		}
		for k, in := range want {
			if got := s.At(k); got != in {
				t.Errorf("props %v roles %v: At(%d) = %d, want %d", tc.props, tc.roles, k, got, in)
			}
		}
		for i := range tc.roles {
			if lo, hi := s.RoleSpan(i); [2]int{lo, hi} != spans[i] {
				t.Errorf("props %v roles %v: RoleSpan(%d) = %d, %d; want %v", tc.props, tc.roles, i, lo, hi, spans[i])
			}
		}
		for k := range want {
			r, e, ok := s.roleAt(k)
			wantOK := false
			for i, sp := range spans {
				if sp[0] == k && sp[1]-sp[0] >= 2 {
					wantOK = true
					if r != tc.roles[i] || e != sp[1] {
						t.Errorf("props %v roles %v: roleAt(%d) = %d, %d; want %d, %d", tc.props, tc.roles, k, r, e, tc.roles[i], sp[1])
					}
				}
			}
			if ok != wantOK {
				t.Errorf("props %v roles %v: roleAt(%d) ok = %v, want %v", tc.props, tc.roles, k, ok, wantOK)
			}
		}
		u := newSupport(p, slices.Clone(tc.props), slices.Clone(tc.roles))
		if !s.Equal(&u) {
			t.Errorf("props %v roles %v: not Equal to a copy", tc.props, tc.roles)
		}
		if len(tc.roles) > 0 {
			v := newSupport(p, tc.props, tc.roles[1:])
			if s.Equal(&v) {
				t.Errorf("props %v roles %v: Equal to the support without role %d", tc.props, tc.roles, tc.roles[0])
			}
		}
	}
}

// threeRolesKIF has roles of 1, 3 and 2 actions and three propositions.
const threeRolesKIF = `
(role a) (role b) (role c)
(init (p 1))
(<= (legal a wait) (true (p 1)))
(<= (legal b (go 1)) (true (p 1)))
(<= (legal b (go 2)) (true (p 1)))
(<= (legal b (go 3)) (true (p 1)))
(<= (legal c left) (true (p 1)))
(<= (legal c right) (true (p 1)))
(<= (next (p 1)) (does b (go 1)))
(<= (next (p 2)) (does c left))
(<= (next (p 3)) (does b (go 3)) (does c right) (does a wait))
(<= terminal (true (p 2)))
(<= (goal a 100) (true (p 3)))
(<= (goal b 100) (true (p 3)))
(<= (goal c 100) (true (p 3)))
`
