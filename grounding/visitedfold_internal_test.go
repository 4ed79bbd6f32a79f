package grounding

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// hexFold is mutate's fold in laikLee_hex's seed-23 variant, on hex22:
// the element's lookup and the recursive call leave the appending rule for
// a relation of their own, called once.
var hexFold = strings.NewReplacer(
	"(id ?x1 ?y1 ?id)\n(append_el ?id ?list ?list2)\n(connection2 ?x1 ?y1 ?x2 ?y2 ?color ?list2))",
	"(append_el ?id ?list ?list2)\n(look ?color ?list2 ?y1 ?id ?x2 ?x1 ?y2))\n"+
		"(<= (look ?c ?l ?b ?i ?d ?a ?e) (id ?a ?b ?i) (connection2 ?a ?b ?d ?e ?c ?l))")

func foldedHex(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(hexSmall)
	if err != nil {
		t.Fatal(err)
	}
	s := hexFold.Replace(string(src))
	if s == string(src) {
		t.Fatal("hex22 has no connection rule to fold")
	}
	return s
}

// TestVisitedFolded: the rewrite sees through the fold and the game stays
// the same in every reachable state. Fails without dropVisitedFolded (the
// element is bound by a call of the component, not by a fact literal).
func TestVisitedFolded(t *testing.T) {
	visitedDropped(t, "folded.kif", foldedHex(t))
}

// visitedFoldedAdversarial are the folded hex22 with one condition broken,
// inside or outside the folded relation: the rewrite must not fire, and the
// unfolding tried for it must be undone.
var visitedFoldedAdversarial = []struct {
	name     string
	old, new string
}{
	{"id not injective", "(id 2 1 el21)", "(id 2 1 el11)"},
	{"element of another cell", "(id ?a ?b ?i)", "(id ?d ?e ?i)"},
	{"append without distinct", "(distinct ?el ?head)", ""},
	{"caller list not empty", "(connection 1 ?y1 2 ?y2 red nil)", "(connection 1 ?y1 2 ?y2 red (list el11 nil))"},
	// The folded relation has a second rule: it is not unfolded.
	{"two rules", "(<= (look ", "(<= (look ?c ?l ?b ?i ?d ?a ?e) (id ?a ?b ?i) (color_neighbour ?a ?b ?d ?e ?c) (isList ?l))\n(<= (look "},
}

func TestVisitedFoldedAdversarial(t *testing.T) {
	src := foldedHex(t)
	for _, tc := range visitedFoldedAdversarial {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(src, tc.old) {
				t.Fatalf("folded hex22 has no %q", tc.old)
			}
			s := strings.Replace(src, tc.old, tc.new, 1)
			visitedKept(t, s)
			if !rulesUndone(t, s) {
				t.Errorf("%s: dropVisited changed the rules without firing", tc.name)
			}
		})
	}
}

// rulesUndone compiles src up to dropVisited and reports whether
// dropVisited left every rule as it was.
func rulesUndone(t *testing.T, src string) bool {
	t.Helper()
	f, err := Parse("adv.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := &compiler{file: f.Name, ts: newTermStore(), lim: Limits{}.WithDefaults()}
	c.compile(f)
	sccs := c.analyze()
	c.resolveUnsafe()
	if len(c.errs) > 0 {
		t.Fatal(c.errs)
	}
	c.dropUnreachable()
	before := c.saveRules()
	var rules []nrule
	for _, nr := range c.rules {
		rules = append(rules, *nr)
	}
	c.dropVisited(sccs)
	after := c.saveRules()
	var now []nrule
	for _, nr := range c.rules {
		now = append(now, *nr)
	}
	return reflect.DeepEqual(before.rels, after.rels) && reflect.DeepEqual(rules, now)
}
