package grounding_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
)

var updateGolden = flag.Bool("update", false, "rewrite the testdata/golden/*.golden files")

// maxTableInputs is the largest support printed as a truth table; larger
// functions are printed as their circuit cone.
const maxTableInputs = 6

// printProgram renders a Program in a stable text form: roles, propositions,
// actions, the initial state, diagnostics, then every reasoning function in
// the order of Program.Functions, as a truth table over its support or, for a
// large support, as the cone of its circuit.
func printProgram(p *grounding.Program) string {
	var b strings.Builder
	fmt.Fprintf(&b, "roles: %s\n", strings.Join(p.Roles, " "))
	fmt.Fprintf(&b, "props (%d):\n", len(p.Props))
	for i, q := range p.Props {
		fmt.Fprintf(&b, "  %d %s\n", i, q)
	}
	for r, as := range p.Actions {
		fmt.Fprintf(&b, "actions of %s (%d):\n", p.Roles[r], len(as))
		for i, a := range as {
			fmt.Fprintf(&b, "  %d %s\n", i, a)
		}
	}
	b.WriteString("init:")
	for _, q := range p.Init {
		fmt.Fprintf(&b, " %s", p.Props[q])
	}
	b.WriteString("\n")
	for _, e := range p.Warnings {
		fmt.Fprintf(&b, "warning: %s: %s\n", e.Pos, e.Msg)
	}
	for _, e := range p.Notes {
		fmt.Fprintf(&b, "note: %s: %s\n", e.Pos, e.Msg)
	}
	fmt.Fprintf(&b, "circuit: %d inputs, %d gates\n", p.Circuit.NumInputs, p.Circuit.NumGates())
	for _, f := range p.Functions() {
		fmt.Fprintf(&b, "%s = ", p.FunctionName(f))
		printFunction(&b, p, f.Lit)
	}
	return b.String()
}

// inputName names circuit input i as the keyword proposition it stands for.
func inputName(p *grounding.Program, i int) string {
	role, idx := p.InputOf(i)
	if role < 0 {
		return "(true " + p.Props[idx] + ")"
	}
	return "(does " + p.Roles[role] + " " + p.Actions[role][idx] + ")"
}

func printFunction(b *strings.Builder, p *grounding.Program, l grounding.Lit) {
	switch l {
	case grounding.False:
		b.WriteString("false\n")
		return
	case grounding.True:
		b.WriteString("true\n")
		return
	}
	c := &p.Circuit
	support := c.Support(l)
	if len(support) > maxTableInputs {
		printCone(b, p, l)
		return
	}
	// Row i gives support[k] the value of bit k of i; the table lists the
	// value of every row, row 0 first.
	in := make([]bool, c.NumInputs)
	var vals []bool
	b.WriteString("table ")
	for row := 0; row < 1<<len(support); row++ {
		for k, s := range support {
			in[s] = row>>k&1 == 1
		}
		vals = c.Eval(in, vals)
		if grounding.Value(vals, l) {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	b.WriteString(" over")
	for _, s := range support {
		b.WriteString(" " + inputName(p, s))
	}
	b.WriteString("\n")
}

// printCone prints the gates below l in post-order, each named by the order
// in which it is first completed.
func printCone(b *strings.Builder, p *grounding.Program, l grounding.Lit) {
	c := &p.Circuit
	names := map[int]string{}
	var lines []string
	litName := func(l grounding.Lit) string {
		n := l.Node()
		s, ok := names[n]
		if !ok {
			in, _ := c.IsInput(n)
			s = inputName(p, in)
		}
		if l.IsNeg() {
			return "!" + s
		}
		return s
	}
	var visit func(n int)
	visit = func(n int) {
		if _, ok := names[n]; ok || !c.IsGate(n) {
			return
		}
		for _, f := range c.Fanins(n) {
			visit(f.Node())
		}
		parts := make([]string, 0, len(c.Fanins(n)))
		for _, f := range c.Fanins(n) {
			parts = append(parts, litName(f))
		}
		name := fmt.Sprintf("g%d", len(names)+1)
		names[n] = name
		lines = append(lines, fmt.Sprintf("  %s = and(%s)", name, strings.Join(parts, ", ")))
	}
	visit(l.Node())
	fmt.Fprintf(b, "%s\n", litName(l))
	for _, s := range lines {
		b.WriteString(s + "\n")
	}
}

func TestGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.kif"))
	if len(files) == 0 {
		t.Fatal("no testdata/golden/*.kif")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p := mustLoad(t, filepath.Base(path), string(src))
			got := printProgram(p)
			// The same game parsed from its own printing grounds to the same program.
			f, err := grounding.Parse(filepath.Base(path), src)
			if err != nil {
				t.Fatal(err)
			}
			q := mustLoad(t, filepath.Base(path), f.String())
			if again := printProgram(q); stripDiagnostics(again) != stripDiagnostics(got) {
				t.Errorf("the printed description grounds to another program")
			}
			golden := strings.TrimSuffix(path, ".kif") + ".golden"
			if *updateGolden {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("printed program differs from %s (go test -update rewrites it):\n%s", golden, lineDiff(string(want), got))
			}
		})
	}
}

// stripDiagnostics drops warning and note lines, whose positions differ
// between a description and its printing.
func stripDiagnostics(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "warning: ") && !strings.HasPrefix(l, "note: ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// lineDiff shows the first lines where two texts differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b bytes.Buffer
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 10; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}

// The golden games also play as their rules say.
func TestGoldenPlay(t *testing.T) {
	load := func(name string) *grounding.Program {
		src, err := os.ReadFile(filepath.Join("testdata", "golden", name))
		if err != nil {
			t.Fatal(err)
		}
		return mustLoad(t, name, string(src))
	}
	t.Run("counter", func(t *testing.T) {
		p := load("counter.kif")
		s := grounding.NewSim(p)
		playNames(t, p, s, "jump")
		if got := s.StateProps(); !slices.Equal(got, []string{"(count 2)"}) {
			t.Fatalf("after jump: %v", got)
		}
		if got := simLegalNames(p, s, 0); !slices.Equal(got, []string{"inc"}) {
			t.Fatalf("legal at 2 = %v, want [inc]", got)
		}
		playNames(t, p, s, "inc")
		if !s.Terminal() || !slices.Equal(s.Goals(0), []int{100}) {
			t.Errorf("at 3: terminal %v goals %v", s.Terminal(), s.Goals(0))
		}
	})
	t.Run("mutex", func(t *testing.T) {
		p := load("mutex.kif")
		s := grounding.NewSim(p)
		playNames(t, p, s, "(take r)", "(take r)")
		if got := s.StateProps(); !slices.Equal(got, []string{"(free r)", "clash"}) {
			t.Fatalf("after a clash: %v", got)
		}
		if !s.Terminal() || !slices.Equal(s.Goals(0), []int{50}) {
			t.Errorf("clash: terminal %v goals %v", s.Terminal(), s.Goals(0))
		}
		s = grounding.NewSim(p)
		playNames(t, p, s, "wait", "(take r)")
		if got := s.StateProps(); !slices.Equal(got, []string{"(owner right r)"}) {
			t.Fatalf("after right takes: %v", got)
		}
		if !s.Terminal() || !slices.Equal(s.Goals(0), []int{0}) || !slices.Equal(s.Goals(1), []int{100}) {
			t.Errorf("right owns: terminal %v goals %v %v", s.Terminal(), s.Goals(0), s.Goals(1))
		}
	})
	t.Run("reach", func(t *testing.T) {
		p := load("reach.kif")
		s := grounding.NewSim(p)
		// a <-> b is a positive loop: c stays unreachable.
		if !slices.Equal(s.Goals(0), []int{0}) {
			t.Fatalf("initial goals %v, want [0]", s.Goals(0))
		}
		playNames(t, p, s, "(link c a)")
		if !slices.Equal(s.Goals(0), []int{0}) {
			t.Fatalf("with c -> a: goals %v, want [0]", s.Goals(0))
		}
		playNames(t, p, s, "(link b c)")
		if !slices.Equal(s.Goals(0), []int{100}) || s.Terminal() {
			t.Fatalf("with a -> b -> c: goals %v terminal %v, want [100] false", s.Goals(0), s.Terminal())
		}
		playNames(t, p, s, "pass")
		if !s.Terminal() {
			t.Errorf("not terminal after done")
		}
	})
}
