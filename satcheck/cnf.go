package satcheck

import (
	"bufio"
	"fmt"
	"io"
)

// cnf is a formula in DIMACS numbering (variables from 1, literal -v negates v).
// Variable 1 is the constant false (fixed by a unit clause).
type cnf struct {
	nvars   int
	clauses [][]int
	buf     []int  // backing store of clauses, grown in chunks
	what    string // what the formula asks, for the debug dump (dump.go)

	// maxConflicts, when positive, bounds the solve's conflicts: past it
	// the solve fails with errConflictBudget. conflicts is what the last
	// solve of f used.
	maxConflicts, conflicts int
}

const falseVar = 1

func newCNF() *cnf {
	f := &cnf{nvars: 1}
	f.add(-falseVar)
	return f
}

func (f *cnf) newVar() int {
	f.nvars++
	return f.nvars
}

func (f *cnf) add(lits ...int) {
	if len(f.buf)+len(lits) > cap(f.buf) {
		f.buf = make([]int, 0, max(1024, 2*len(lits)))
	}
	start := len(f.buf)
	f.buf = append(f.buf, lits...)
	f.clauses = append(f.clauses, f.buf[start:len(f.buf):len(f.buf)])
}

// size accumulates the variables and clauses a formula will need, so that
// the limits are checked before anything is allocated.
type size struct{ vars, clauses int64 }

func (z *size) cone(cn *cone) {
	z.vars += int64(len(cn.Gates))
	z.clauses += int64(len(cn.Fanin) + len(cn.Gates))
}

// amo counts an at-most-one constraint over k literals (exactly-one adds one clause).
func (z *size) amo(k int) {
	switch {
	case k <= 1:
	case k <= pairwiseMax:
		z.clauses += int64(k * (k - 1) / 2)
	default:
		z.vars += int64(k - 1)
		z.clauses += int64(3*k - 4)
	}
}

func (z size) check(o *Options) error {
	if z.vars > int64(o.MaxVars) {
		return &LimitError{What: "MaxVars", Limit: int64(o.MaxVars), Got: z.vars}
	}
	if z.clauses > int64(o.MaxClauses) {
		return &LimitError{What: "MaxClauses", Limit: int64(o.MaxClauses), Got: z.clauses}
	}
	return nil
}

// pairwiseMax is the largest group encoded with pairwise at-most-one clauses;
// larger groups use the sequential (ladder) encoding with k-1 auxiliary variables.
const pairwiseMax = 5

// amo adds "at most one of lits".
func (f *cnf) amo(lits []int) {
	k := len(lits)
	switch {
	case k <= 1:
	case k <= pairwiseMax:
		for i := range k {
			for j := i + 1; j < k; j++ {
				f.add(-lits[i], -lits[j])
			}
		}
	default:
		// s_i: some of lits[0..i] is true.
		s := make([]int, k-1)
		for i := range s {
			s[i] = f.newVar()
		}
		f.add(-lits[0], s[0])
		for i := 1; i < k-1; i++ {
			f.add(-lits[i], s[i])
			f.add(-s[i-1], s[i])
			f.add(-lits[i], -s[i-1])
		}
		f.add(-lits[k-1], -s[k-2])
	}
}

// group adds the constraint of g over the given member literals: exactly one
// when every action of the role is a member, at most one otherwise.
// groups adds the constraint of every group of j over its joint variables
// (DIMACS variable v+2 for joint variable v), and the constraint of group
// gi once more over copied, the literals of a second copy of its members
// (the side of a miter where that role's choice changes; gi < 0: none).
func (f *cnf) groups(j *joint, gi int, copied []int) {
	for i := range j.groups {
		g := &j.groups[i]
		ls := make([]int, len(g.members))
		for k, m := range g.members {
			ls[k] = int(m) + 2
		}
		f.group(g, ls)
		if i == gi {
			f.group(g, copied)
		}
	}
}

func (f *cnf) group(g *group, lits []int) {
	if !g.other {
		f.add(lits...)
	}
	f.amo(lits)
}

// cone Tseitin-encodes cn with input literals in(k) for cone input k and
// returns the literal of the root. Gate g = AND(l1..lk) gives the clauses
// (¬g ∨ li) for each i and (g ∨ ¬l1 ∨ … ∨ ¬lk).
func (f *cnf) cone(cn *cone, in func(k int) int) int {
	lit := make([]int, cn.NumSlots())
	lit[0] = falseVar
	for k := range cn.Inputs {
		lit[1+k] = in(k)
	}
	of := func(l uint32) int {
		if l&1 == 1 {
			return -lit[l>>1]
		}
		return lit[l>>1]
	}
	first := 1 + len(cn.Inputs)
	long := make([]int, 0, 8)
	for gi := range cn.Gates {
		g := f.newVar()
		lit[first+gi] = g
		long = append(long[:0], g)
		for _, l := range cn.Fanin[cn.Start[gi]:cn.Start[gi+1]] {
			x := of(l)
			f.add(-g, x)
			long = append(long, -x)
		}
		f.add(long...)
	}
	return of(cn.Root)
}

// writeDIMACS writes the formula, with comment lines first.
func (f *cnf) writeDIMACS(w io.Writer, comments []string) error {
	bw := bufio.NewWriter(w)
	for _, c := range comments {
		fmt.Fprintf(bw, "c %s\n", c)
	}
	fmt.Fprintf(bw, "p cnf %d %d\n", f.nvars, len(f.clauses))
	var num []byte
	for _, cl := range f.clauses {
		num = num[:0]
		for _, l := range cl {
			num = fmt.Appendf(num, "%d ", l)
		}
		num = append(num, '0', '\n')
		bw.Write(num)
	}
	return bw.Flush()
}
