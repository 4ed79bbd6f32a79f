package satcheck_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/crillab/gophersat/solver"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/satcheck"
)

// miterSize reads the header of the miter's DIMACS form.
func miterSize(t *testing.T, c *satcheck.Checker, fa, fb grounding.Lit, im []int32) (vars, clauses int) {
	t.Helper()
	var buf bytes.Buffer
	if err := c.WriteDIMACS(&buf, grounding.FuncNext, fa, fb, im); err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(buf.Bytes(), []byte("\n")) {
		if _, err := fmt.Sscanf(string(line), "p cnf %d %d", &vars, &clauses); err == nil {
			return vars, clauses
		}
	}
	t.Fatalf("no header in\n%s", buf.Bytes())
	return 0, 0
}

func TestLimits(t *testing.T) {
	a, b, fa, _, factored, _ := connectFour(t)
	im := identity(a).InputMap(a, b)
	vars, clauses := miterSize(t, mustChecker(t, a, b, satcheck.Options{}), fa, factored, im)
	for _, tc := range []struct {
		name    string
		opt     satcheck.Options
		wantErr bool
		what    string
		limit   int
		got     int64
	}{
		{"AtClauses", satcheck.Options{MaxClauses: clauses}, false, "", 0, 0},
		{"OverClauses", satcheck.Options{MaxClauses: clauses - 1}, true, "MaxClauses", clauses - 1, int64(clauses)},
		{"AtVars", satcheck.Options{MaxVars: vars}, false, "", 0, 0},
		{"OverVars", satcheck.Options{MaxVars: vars - 1}, true, "MaxVars", vars - 1, int64(vars)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Mode = satcheck.SATOnly
			c := mustChecker(t, a, b, tc.opt)
			eq, err := c.CheckFunc(context.Background(), grounding.FuncNext, fa, factored, im)
			if !tc.wantErr {
				if err != nil || !eq {
					t.Fatalf("CheckFunc = %v, %v, want true", eq, err)
				}
				return
			}
			var le *satcheck.LimitError
			if !errors.As(err, &le) || !errors.Is(err, satcheck.ErrLimit) {
				t.Fatalf("CheckFunc = %v, want a *LimitError", err)
			}
			if le.What != tc.what || le.Limit != int64(tc.limit) || le.Got != tc.got {
				t.Errorf("LimitError = %+v, want {%s %d %d}", le, tc.what, tc.limit, tc.got)
			}
		})
	}
	// Verify wraps the error with the function's name.
	q := connectFourGame(a, fa)
	r := connectFourGame(b, factored)
	_, err := satcheck.Verify(context.Background(), q, r, identity(q), satcheck.Options{Mode: satcheck.SATOnly, MaxClauses: 10})
	if !errors.Is(err, satcheck.ErrLimit) {
		t.Errorf("Verify = %v, want ErrLimit", err)
	}
}

// connectFourGame is p with terminal set to f.
func connectFourGame(p *grounding.Program, f grounding.Lit) *grounding.Program {
	q := *p
	q.Terminal = f
	return &q
}

func TestCancel(t *testing.T) {
	a, b, fa, fb := multipliers(8, 7)
	im := identity(a).InputMap(a, b)
	c := mustChecker(t, a, b, satcheck.Options{Mode: satcheck.SATOnly | satcheck.NoSweep, MaxConcurrentSolves: 1})

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.CheckFunc(ctx, grounding.FuncNext, fa, fb, im)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("CheckFunc = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 200*time.Millisecond {
		t.Errorf("CheckFunc returned after %v, want at once", d)
	}
	if st := c.Stats(); st.Abandoned != 1 || st.SATCalls != 1 || st.SATUnsat != 0 {
		t.Errorf("stats = %+v, want one abandoned solve", st)
	}
	// The interrupted solve has freed the only slot: the next solve starts
	// at once, and is interrupted in turn by its own context.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel2()
	if _, err := c.CheckFunc(ctx2, grounding.FuncNext, fa, fb, im); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("second CheckFunc = %v, want context.DeadlineExceeded", err)
	}
	if st := c.Stats(); st.SATCalls != 2 || st.Abandoned != 2 || st.SATUnsat != 0 {
		t.Errorf("stats = %+v, want a second solve started and interrupted", st)
	}
	// An already cancelled context never starts anything.
	done, cancel3 := context.WithCancel(context.Background())
	cancel3()
	if _, err := c.CheckFunc(done, grounding.FuncNext, fa, fb, im); !errors.Is(err, context.Canceled) {
		t.Errorf("CheckFunc(cancelled) = %v, want context.Canceled", err)
	}
	if _, err := satcheck.Verify(done, a, b, identity(a), satcheck.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Verify(cancelled) = %v, want context.Canceled", err)
	}
}

// TestWriteDIMACS round-trips miters through gophersat's DIMACS parser and,
// when installed, minisat and cadical.
func TestWriteDIMACS(t *testing.T) {
	type miter struct {
		name  string
		c     *satcheck.Checker
		fa    grounding.Lit
		fb    grounding.Lit
		im    []int32
		equal bool
	}
	var ms []miter
	for _, tc := range checkFuncTests {
		qa, qb := std("a"), std("b")
		fa, fb := tc.fa(qa), tc.fb(qb)
		a, b := qa.done(), qb.done()
		ms = append(ms, miter{tc.name, mustChecker(t, a, b, satcheck.Options{}), fa, fb, identity(a).InputMap(a, b), tc.equal})
	}
	a, b, fa, same, factored, dropped := connectFour(t)
	c := mustChecker(t, a, b, satcheck.Options{})
	im := identity(a).InputMap(a, b)
	ms = append(ms, miter{"C4Same", c, fa, same, im, true}, miter{"C4Factored", c, fa, factored, im, true}, miter{"C4Dropped", c, fa, dropped, im, false})

	solvers := map[string][]string{}
	for _, s := range []string{"minisat", "cadical"} {
		if _, err := exec.LookPath(s); err == nil {
			solvers[s] = nil
		}
	}
	if len(solvers) == 0 {
		t.Log("neither minisat nor cadical on PATH: cross-checking with gophersat only (apt-get install minisat cadical)")
	}
	dir := t.TempDir()
	for _, m := range ms {
		t.Run(m.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := m.c.WriteDIMACS(&buf, grounding.FuncNext, m.fa, m.fb, m.im); err != nil {
				t.Fatal(err)
			}
			pb, err := solver.ParseCNF(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("ParseCNF: %v\n%s", err, buf.Bytes())
			}
			sat := solver.New(pb).Solve() == solver.Sat
			if sat == m.equal {
				t.Errorf("gophersat on the DIMACS: sat = %v, want %v", sat, !m.equal)
			}
			eq, err := m.c.CheckFunc(context.Background(), grounding.FuncNext, m.fa, m.fb, m.im)
			if err != nil || eq != m.equal {
				t.Errorf("CheckFunc = %v, %v, want %v", eq, err, m.equal)
			}
			file := filepath.Join(dir, m.name+".cnf")
			if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			for s := range solvers {
				args := []string{file}
				if s == "cadical" {
					args = []string{"-q", file}
				}
				err := exec.Command(s, args...).Run()
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Fatalf("%s: %v", s, err)
				}
				// Exit status 10 is SAT, 20 is UNSAT (both solvers).
				want := 10
				if m.equal {
					want = 20
				}
				if ee.ExitCode() != want {
					t.Errorf("%s exit status %d, want %d", s, ee.ExitCode(), want)
				}
			}
		})
	}
}

// TestConcurrent shares one Checker between goroutines (run with -race).
func TestConcurrent(t *testing.T) {
	perm := [3]int{2, 0, 1}
	a := ticTacToe3("plain", 0, [3]int{0, 1, 2}, id)
	b := ticTacToe3("disguised", 1, perm, scramble)
	c := mustChecker(t, a, b, satcheck.Options{MaxCacheEntries: 8})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 8 {
		wg.Go(func() {
			for i := range 6 {
				p := [][3]int{{0, 1, 2}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}, {0, 2, 1}, {1, 2, 0}}[(g+i)%6]
				res, err := c.Verify(context.Background(), ticTacToeMapping(a, b, p, scramble))
				if err != nil {
					errs <- err
					return
				}
				if res.Verdict != satcheck.Equivalent {
					errs <- fmt.Errorf("Verify(%v) = %v", p, res)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestConcurrentSolves runs SAT calls from several goroutines and Checkers at
// once; under -race it shows that they never run gophersat concurrently
// (gophersat v1.4.0 shares a buffer between solvers).
func TestConcurrentSolves(t *testing.T) {
	a, b, fa, _, factored, dropped := connectFour(t)
	im := identity(a).InputMap(a, b)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for g := range 6 {
		wg.Go(func() {
			c := mustChecker(t, a, b, satcheck.Options{Mode: satcheck.SATOnly, MaxConcurrentSolves: 4})
			for i := range 4 {
				fb, want := factored, true
				if (g+i)%2 == 1 {
					fb, want = dropped, false
				}
				eq, err := c.CheckFunc(context.Background(), grounding.FuncNext, fa, fb, im)
				if err != nil || eq != want {
					errs <- fmt.Errorf("CheckFunc = %v, %v, want %v", eq, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
