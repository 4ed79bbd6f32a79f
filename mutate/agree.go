package mutate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gamequiv/gamequiv/grounding"
)

// Translator maps a ground term of one game (a role, a proposition or a
// move, in canonical KIF) to the term that stands for it in another.
// (*Variant).TranslateTerm is one.
type Translator func(kif string) (string, error)

// Identity is the Translator that keeps every name.
func Identity(kif string) (string, error) { return kif, nil }

// MismatchError is where Agree found two games to disagree.
type MismatchError struct {
	Playout int    // which playout (from 0); -1 when found before playing
	Step    int    // joint moves made in that playout before the disagreement
	What    string // "roles", "init", "next", "terminal", "goal" or "legal"
	Detail  string
}

// Error says where the games disagree and how.
func (e *MismatchError) Error() string {
	if e.Playout < 0 {
		return fmt.Sprintf("%s differ: %s", e.What, e.Detail)
	}
	return fmt.Sprintf("playout %d, step %d: %s differs: %s", e.Playout, e.Step, e.What, e.Detail)
}

// Agree plays random playouts of a (at most steps joint moves each, moves
// chosen by a generator seeded with seed) and plays the translated moves in
// b alongside. In every state it compares the translated state of a with the
// state of b, and terminal, goals and legal moves of every role. It returns
// nil if all agree, a *MismatchError at the first disagreement, or the error
// of tr. Agreement is evidence of equivalence under tr, not a proof.
func Agree(a, b *grounding.Program, tr Translator, seed int64, playouts, steps int) error {
	if len(a.Roles) != len(b.Roles) {
		return &MismatchError{Playout: -1, What: "roles", Detail: fmt.Sprintf("%d roles against %d", len(a.Roles), len(b.Roles))}
	}
	roleB := make([]int, len(a.Roles))
	for r, name := range a.Roles {
		n, err := tr(name)
		if err != nil {
			return err
		}
		id, ok := b.RoleID(n)
		if !ok {
			return &MismatchError{Playout: -1, What: "roles", Detail: fmt.Sprintf("role %s (as %s) is no role of the second game", name, n)}
		}
		roleB[r] = id
	}
	c := &comparison{a: a, b: b, tr: tr, roleB: roleB, props: map[int]string{}, acts: map[[2]int]string{}}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6167726565212121))
	sa, sb := grounding.NewSim(a), grounding.NewSim(b)
	for p := range playouts {
		sa.SetState(a.InitialState())
		sb.SetState(b.InitialState())
		what := "init"
		for step := 0; ; step++ {
			mismatch := func(what, format string, args ...any) error {
				return &MismatchError{Playout: p, Step: step, What: what, Detail: fmt.Sprintf(format, args...)}
			}
			sta, err := c.state(sa)
			if err != nil {
				return err
			}
			if stb := sb.StateProps(); !slices.Equal(sta, stb) {
				return mismatch(what, "%s", setDiff(sta, stb))
			}
			if ta, tb := sa.Terminal(), sb.Terminal(); ta != tb {
				return mismatch("terminal", "%v against %v", ta, tb)
			}
			for r := range a.Roles {
				if ga, gb := sa.Goals(r), sb.Goals(roleB[r]); !slices.Equal(ga, gb) {
					return mismatch("goal", "role %s: %v against %v", a.Roles[r], ga, gb)
				}
				la, err := c.legal(sa, r)
				if err != nil {
					return err
				}
				var lb []string
				for _, m := range sb.Legal(roleB[r]) {
					lb = append(lb, b.Actions[roleB[r]][m])
				}
				slices.Sort(lb)
				if !slices.Equal(la, lb) {
					return mismatch("legal", "role %s: %s", a.Roles[r], setDiff(la, lb))
				}
			}
			if sa.Terminal() || step >= steps {
				break
			}
			moveA := make([]int, len(a.Roles))
			moveB := make([]int, len(a.Roles))
			var joint []string
			stuck := false
			for r := range a.Roles {
				legal := sa.Legal(r)
				if len(legal) == 0 {
					stuck = true
					break
				}
				moveA[r] = legal[rng.IntN(len(legal))]
				name, err := c.action(r, moveA[r])
				if err != nil {
					return err
				}
				id, ok := b.ActionID(roleB[r], name)
				if !ok {
					return mismatch("legal", "role %s: move %s has no counterpart", a.Roles[r], name)
				}
				moveB[roleB[r]] = id
				joint = append(joint, a.Actions[r][moveA[r]])
			}
			if stuck {
				break
			}
			sa.Step(moveA)
			sb.Step(moveB)
			what = "next (after " + strings.Join(joint, " ") + ")"
		}
	}
	return nil
}

// comparison caches the translated names of a's propositions and actions.
type comparison struct {
	a, b  *grounding.Program
	tr    Translator
	roleB []int
	props map[int]string
	acts  map[[2]int]string
}

// state returns the translated propositions true in sa, sorted.
func (c *comparison) state(sa *grounding.Sim) ([]string, error) {
	var out []string
	for q, v := range sa.State() {
		if !v {
			continue
		}
		n, ok := c.props[q]
		if !ok {
			var err error
			if n, err = c.tr(c.a.Props[q]); err != nil {
				return nil, err
			}
			c.props[q] = n
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}

// action returns the translated name of action m of role r.
func (c *comparison) action(r, m int) (string, error) {
	k := [2]int{r, m}
	if n, ok := c.acts[k]; ok {
		return n, nil
	}
	n, err := c.tr(c.a.Actions[r][m])
	if err != nil {
		return "", err
	}
	c.acts[k] = n
	return n, nil
}

// legal returns the translated legal moves of role r in sa, sorted.
func (c *comparison) legal(sa *grounding.Sim, r int) ([]string, error) {
	var out []string
	for _, m := range sa.Legal(r) {
		n, err := c.action(r, m)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}

// setDiff describes how two sorted lists differ, naming at most a few items.
func setDiff(a, b []string) string {
	const show = 4
	var onlyA, onlyB []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			onlyA = append(onlyA, x)
		}
	}
	for _, x := range b {
		if _, ok := slices.BinarySearch(a, x); !ok {
			onlyB = append(onlyB, x)
		}
	}
	list := func(xs []string) string {
		if len(xs) > show {
			return strings.Join(xs[:show], " ") + fmt.Sprintf(" and %d more", len(xs)-show)
		}
		if len(xs) == 0 {
			return "nothing"
		}
		return strings.Join(xs, " ")
	}
	return fmt.Sprintf("only in the first: %s; only in the second: %s", list(onlyA), list(onlyB))
}
