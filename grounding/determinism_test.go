package grounding_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Grounding the same description again gives the same Program, to the
// circuit's gate order (no map order leaks into it).
func TestGroundDeterministic(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.kif"))
	for _, g := range []string{"tictactoe", "buttons", "nim1", "connectFour"} {
		paths = append(paths, filepath.Join(corpusDirs[1], g+".kif"))
	}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			want := printProgram(mustLoad(t, filepath.Base(path), string(src)))
			for range 10 {
				if got := printProgram(mustLoad(t, filepath.Base(path), string(src))); got != want {
					t.Fatalf("grounding again gives another program:\n%s", lineDiff(want, got))
				}
			}
		})
	}
}

// The smallest description whose circuit depended on map order: a and b are
// built in the order their keyword relations (terminal, goal) are numbered.
func TestGroundDeterministicGateOrder(t *testing.T) {
	const src = `(role r) (init s) (init t) (init u) (legal r go)
(<= (next s) (true s))
(<= a (true s) (true t))
(<= b (true t) (true u))
(<= terminal a)
(<= (goal r 100) b)`
	p := mustLoad(t, "order.kif", src)
	for range 500 { // map order is random, but only now and then flips these two
		q := mustLoad(t, "order.kif", src)
		if q.Terminal != p.Terminal || q.Goals[0][0].Lit != p.Goals[0][0].Lit || !slices.Equal(q.Circuit.Fanin, p.Circuit.Fanin) {
			t.Fatalf("grounding again: terminal %d goal %d fanins %v, first time %d %d %v",
				q.Terminal, q.Goals[0][0].Lit, q.Circuit.Fanin, p.Terminal, p.Goals[0][0].Lit, p.Circuit.Fanin)
		}
	}
}
