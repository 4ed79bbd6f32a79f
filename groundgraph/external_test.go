package groundgraph_test

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/isomorph"
)

// externalTimeout bounds isomorph and each external tool on one ground
// graph in checkExternal; a tool that exceeds it is logged and left out.
const externalTimeout = time.Minute

var (
	externalOnce       sync.Once
	dreadnaut, blissFn string
	externalMissing    string
)

// externalTools finds nauty's dreadnaut and bliss (Debian packages nauty
// and bliss), once.
func externalTools() (dn, bl, missing string) {
	externalOnce.Do(func() {
		var errs []string
		var err error
		if dreadnaut, err = exec.LookPath("dreadnaut"); err != nil {
			errs = append(errs, "dreadnaut")
		}
		if blissFn, err = exec.LookPath("bliss"); err != nil {
			errs = append(errs, "bliss")
		}
		if len(errs) > 0 {
			externalMissing = strings.Join(errs, " and ") + " not on PATH (apt-get install nauty bliss)"
		}
	})
	return dreadnaut, blissFn, externalMissing
}

var (
	nautyGrpsizeRE = regexp.MustCompile(`grpsize=([0-9.e+]+)`)
	blissAutRE     = regexp.MustCompile(`\|Aut\|:\s*([0-9.e+]+)`)
)

// checkExternal compares isomorph with nauty and bliss on the ground graph
// g, in a subtest "external" that skips itself, visibly, when the tools are
// missing: |Aut| from Automorphisms against dreadnaut's and bliss's; Find on
// a random relabelling of g, which must give a valid isomorphism; and Find
// on a relabelled copy of g with one arc moved, whose verdict must be
// nauty's (comparison of canonical forms with dreadnaut's #).
func checkExternal(t *testing.T, name string, g *groundgraph.Graph) {
	t.Run("external", func(t *testing.T) {
		dn, bl, missing := externalTools()
		if missing != "" {
			t.Skip("SKIPPED: " + missing)
		}
		ig, err := isomorph.Convert(g)
		if err != nil {
			t.Fatal(err)
		}
		if ig.Order() == 0 {
			t.Skip("no vertices")
		}
		// Each isomorph call gets its own externalTimeout.
		timed := func() context.Context {
			ctx, cancel := context.WithTimeout(context.Background(), externalTimeout)
			t.Cleanup(cancel)
			return ctx
		}
		gr, err := isomorph.Automorphisms(timed(), ig, isomorph.Limits{})
		if unfinished(err) {
			t.Skipf("SKIPPED: Automorphisms did not finish within the default limits and %v: %v", externalTimeout, err)
		}
		if err != nil {
			t.Fatalf("Automorphisms = %v", err)
		}

		var script bytes.Buffer
		if err := isomorph.WriteDreadnaut(&script, ig); err != nil {
			t.Fatal(err)
		}
		if out, ok := runExternal(t, dn, script.Bytes()); ok {
			m := nautyGrpsizeRE.FindSubmatch(out)
			if m == nil {
				t.Fatalf("no grpsize in dreadnaut output:\n%.2000s", out)
			}
			if !sameGroupOrder(gr.Order, string(m[1])) {
				t.Errorf("|Aut| = %v, nauty says %s", gr.Order, m[1])
			}
		}

		file := filepath.Join(t.TempDir(), "g.bliss")
		var in bytes.Buffer
		if err := isomorph.WriteBliss(&in, ig); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, in.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, ok := runExternal(t, bl, nil, "-directed", file); ok {
			m := blissAutRE.FindSubmatch(out)
			if m == nil {
				t.Fatalf("no |Aut| in bliss output:\n%.2000s", out)
			}
			if !sameGroupOrder(gr.Order, string(m[1])) {
				t.Errorf("|Aut| = %v, bliss says %s", gr.Order, m[1])
			}
		}

		rng := rand.New(rand.NewPCG(uint64(len(name)), uint64(ig.Order())))
		h := relabelGraph(t, ig, rng.Perm(ig.Order()), nil)
		m, err := isomorph.Find(timed(), ig, h, isomorph.Limits{})
		if unfinished(err) {
			t.Skipf("SKIPPED: Find did not finish within the default limits and %v: %v", externalTimeout, err)
		}
		if err != nil {
			t.Fatalf("Find(g, relabelled g) = %v", err)
		}
		if !isomorph.IsIsomorphism(ig, h, m) {
			t.Fatalf("Find(g, relabelled g) returned a non-isomorphism")
		}

		if same, ok := nautySame(t, dn, ig, h); ok && !same {
			t.Errorf("nauty says g and a relabelled copy differ")
		}

		moved, ok := moveOneArc(t, ig, rng)
		if !ok {
			return
		}
		h = relabelGraph(t, moved, rng.Perm(ig.Order()), nil)
		m, err = isomorph.Find(timed(), ig, h, isomorph.Limits{})
		if unfinished(err) {
			t.Skipf("SKIPPED: Find did not finish within the default limits and %v: %v", externalTimeout, err)
		}
		if err != nil && !errors.Is(err, isomorph.ErrNotIsomorphic) {
			t.Fatalf("Find(g, g with an arc moved) = %v", err)
		}
		iso := err == nil
		if iso && !isomorph.IsIsomorphism(ig, h, m) {
			t.Fatalf("Find(g, g with an arc moved) returned a non-isomorphism")
		}
		if nautyIso, ok := nautySame(t, dn, ig, h); ok && nautyIso != iso {
			t.Errorf("g with one arc moved: Find says isomorphic %v, nauty says %v", iso, nautyIso)
		}
		t.Logf("|Aut| = %v, checked against nauty and bliss; relabelled copy found isomorphic; one arc moved: isomorphic %v, checked against nauty", gr.Order, iso)
	})
}

// unfinished reports whether err says a search ran out of its limits or
// time: no verdict, which is not a disagreement.
func unfinished(err error) bool {
	return errors.Is(err, isomorph.ErrLimit) || errors.Is(err, context.DeadlineExceeded)
}

// runExternal runs a tool under externalTimeout; on a timeout it logs and
// returns false.
func runExternal(t *testing.T, path string, stdin []byte, args ...string) ([]byte, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), externalTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Logf("%s timed out after %v: left out", filepath.Base(path), externalTimeout)
		return nil, false
	}
	if err != nil {
		t.Fatalf("%s %v: %v\n%.2000s", path, args, err, out)
	}
	return out, true
}

// nautySame asks dreadnaut whether g and h are isomorphic: it canonizes
// both (c x), keeps g's canonical form (@) and compares h's with it (#).
func nautySame(t *testing.T, dn string, g, h *isomorph.Graph) (same, ok bool) {
	t.Helper()
	var a, b bytes.Buffer
	if err := isomorph.WriteDreadnaut(&a, g); err != nil {
		t.Fatal(err)
	}
	if err := isomorph.WriteDreadnaut(&b, h); err != nil {
		t.Fatal(err)
	}
	// h's script must not repeat the mode command As, which forgets h'.
	hs, ok := strings.CutPrefix(b.String(), "As ")
	if !ok {
		t.Fatalf("WriteDreadnaut output does not start with As: %.40q", b.String())
	}
	script := strings.TrimSuffix(a.String(), "x\n") + "c x @\n" + strings.TrimSuffix(hs, "x\n") + "c x #\nq\n"
	out, ok := runExternal(t, dn, []byte(script))
	if !ok {
		return false, false
	}
	switch {
	case bytes.Contains(out, []byte("h and h' are identical")):
		return true, true
	case bytes.Contains(out, []byte("h and h' are different")):
		return false, true
	}
	t.Fatalf("no comparison in dreadnaut output:\n%.2000s", out)
	return false, false
}

// relabelGraph returns g with vertex v renamed perm[v]; colors, if not nil,
// replaces g's colours (indexed by g's vertices).
func relabelGraph(t *testing.T, g *isomorph.Graph, perm []int, colors []int32) *isomorph.Graph {
	t.Helper()
	n := g.Order()
	cs := make([]int32, n)
	var arcs [][2]int32
	for v := range n {
		c := g.Color(v)
		if colors != nil {
			c = colors[v]
		}
		cs[perm[v]] = c
		for _, w := range g.Out(v) {
			arcs = append(arcs, [2]int32{int32(perm[v]), int32(perm[w])})
		}
	}
	h, err := isomorph.New(n, cs, arcs)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// moveOneArc returns g with one random arc moved to a random pair of
// distinct vertices that is not an arc. It returns false when g has no arc
// or no room.
func moveOneArc(t *testing.T, g *isomorph.Graph, rng *rand.Rand) (*isomorph.Graph, bool) {
	t.Helper()
	n := g.Order()
	var arcs [][2]int32
	colors := make([]int32, n)
	for v := range n {
		colors[v] = g.Color(v)
		for _, w := range g.Out(v) {
			arcs = append(arcs, [2]int32{int32(v), w})
		}
	}
	if len(arcs) == 0 || len(arcs) >= n*(n-1) {
		return nil, false
	}
	i := rng.IntN(len(arcs))
	for {
		a := [2]int32{int32(rng.IntN(n)), int32(rng.IntN(n))}
		if a[0] != a[1] && !g.HasArc(int(a[0]), int(a[1])) {
			arcs[i] = a
			break
		}
	}
	h, err := isomorph.New(n, colors, arcs)
	if err != nil {
		t.Fatal(err)
	}
	return h, true
}

// sameGroupOrder compares an exact order with a tool's printed one: exact
// for integers, else to the 10 significant digits nauty prints at least.
func sameGroupOrder(want *big.Int, s string) bool {
	if b, ok := new(big.Int).SetString(s, 10); ok {
		return want.Cmp(b) == 0
	}
	f, ok := new(big.Float).SetPrec(256).SetString(s)
	if !ok {
		return false
	}
	w := new(big.Float).SetPrec(256).SetInt(want)
	d := new(big.Float).Sub(f, w)
	d.Abs(d)
	return d.Cmp(new(big.Float).Mul(w, big.NewFloat(1e-10))) <= 0
}
