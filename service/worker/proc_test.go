package worker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/service/worker"
	"github.com/gamequiv/gamequiv/store"
)

// childEnv makes the test binary a comparison child (TestMain) running
// childCompare.
const childEnv = "GAMEQUIV_WORKER_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		err := worker.ServeChild(context.Background(), os.NewFile(3, "requests"), os.NewFile(4, "responses"), worker.ChildFuncs{Compare: childCompare, Symmetries: childSymmetries, Ground: childGround})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// sink keeps the memory of the "alloc" game alive.
var sink []byte

// childCompare does what game a's name says: "hold" reports the graph
// phase and waits for its cancel, "deaf" ignores its cancel, "crash"
// exits, "alloc" takes 256 MiB and holds, "panic" panics, "real"
// and "buttons" compare for real; any other name gets an equivalent report whose
// reason is the two names.
func childCompare(ctx context.Context, a, b equiv.Source, lim equiv.Limits) (*equiv.Report, error) {
	switch a.Name {
	case "hold":
		lim.Progress(equiv.Progress{Phase: "graph", Done: 3, Total: 7})
		<-ctx.Done()
		return nil, fmt.Errorf("held: %w", ctx.Err())
	case "deaf":
		lim.Progress(equiv.Progress{Phase: "search"})
		select {}
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal error: test crash")
		os.Exit(7)
	case "alloc":
		sink = make([]byte, 256<<20)
		for i := range sink {
			sink[i] = 1
		}
		<-ctx.Done()
		return nil, ctx.Err()
	case "panic":
		panic("test panic")
	case "transient": // 160 MiB during the job, none after it
		b := make([]byte, 160<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		_ = b[len(b)-1]
	case "real", "buttons":
		return equiv.Compare(ctx, a, b, lim)
	}
	return &equiv.Report{Verdict: equiv.Equivalent, Reason: a.Name + "~" + b.Name,
		Stats: equiv.Stats{PhaseMs: map[string]float64{"ground": 0.25}}}, nil
}

// startProcs starts size children of this test binary.
func startProcs(t *testing.T, size int, edit func(*worker.Procs)) *worker.Procs {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no fds 3 and 4")
	}
	p := &worker.Procs{Path: os.Args[0], Env: []string{childEnv + "=1"}, Size: size}
	if edit != nil {
		edit(p)
	}
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func src(name string) equiv.Source {
	return equiv.Source{Name: name, GDL: []byte("(role " + name + ")")}
}

// TestProcs_ReusesChildren runs many jobs and checks their reports and
// that the children are the ones started at Start: no job pays for a
// process start.
func TestProcs_ReusesChildren(t *testing.T) {
	p := startProcs(t, 2, nil)
	before := fmt.Sprint(sortedPIDs(p))
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			a, b := fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)
			rep, err := p.Compare(context.Background(), src(a), src(b), equiv.Limits{})
			if err != nil || rep.Verdict != equiv.Equivalent || rep.Reason != a+"~"+b || rep.Stats.PhaseMs["ground"] != 0.25 {
				t.Errorf("Compare(%s, %s) = %+v, %v", a, b, rep, err)
			}
		})
	}
	wg.Wait()
	if after := fmt.Sprint(sortedPIDs(p)); after != before {
		t.Errorf("children %s after 40 jobs, %s before", after, before)
	}
}

// TestProcs_SameReport checks that a real comparison's report comes back
// from the child as the in-process one, byte for byte once encoded.
func TestProcs_SameReport(t *testing.T) {
	p := startProcs(t, 1, nil)
	a := equiv.Source{Name: "real", GDL: []byte(buttonsGDL)}
	b := equiv.Source{Name: "renamed", GDL: []byte(renamedGDL)}
	lim := equiv.Limits{Search: equiv.Limits{}.Search}
	lim.Ground.MaxAtoms = 100_000 // a limit other than the default reaches the child
	got, err := p.Compare(context.Background(), a, b, lim)
	if err != nil {
		t.Fatal(err)
	}
	want, err := equiv.Compare(context.Background(), a, b, lim)
	if err != nil {
		t.Fatal(err)
	}
	got.Stats.PhaseMs, want.Stats.PhaseMs = nil, nil // times differ
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if string(gj) != string(wj) {
		t.Errorf("child report\n%s\nin-process\n%s", gj, wj)
	}
	if got.Verdict != equiv.Equivalent {
		t.Errorf("verdict %s, want equivalent", got.Verdict)
	}
}

// TestProcs_LimitsReachChild checks that a job's limits reach the child:
// a grounding limit of 1 atom stops the comparison there.
func TestProcs_LimitsReachChild(t *testing.T) {
	p := startProcs(t, 1, nil)
	lim := equiv.Limits{}
	lim.Ground.MaxAtoms = 1
	a := equiv.Source{Name: "real", GDL: []byte(buttonsGDL)}
	rep, err := p.Compare(context.Background(), a, equiv.Source{Name: "b", GDL: []byte(renamedGDL)}, lim)
	inRep, inErr := equiv.Compare(context.Background(), a, equiv.Source{Name: "b", GDL: []byte(renamedGDL)}, lim)
	if fmt.Sprint(err) != fmt.Sprint(inErr) || (rep == nil) != (inRep == nil) || rep != nil && (rep.Verdict != inRep.Verdict || rep.Limit != inRep.Limit) {
		t.Errorf("child: %+v, %v; in process: %+v, %v", rep, err, inRep, inErr)
	}
	if err == nil && (rep == nil || rep.Verdict != equiv.Unknown) {
		t.Errorf("MaxAtoms 1 gave %+v, want a limit", rep)
	}
}

// TestProcs_ProgressAndCancel checks that progress reaches the caller
// and that a cancel stops the job in the child, which stays.
func TestProcs_ProgressAndCancel(t *testing.T) {
	// A long grace: the child must stop the job itself, however slowly
	// a loaded machine runs it.
	p := startProcs(t, 1, func(p *worker.Procs) { p.CancelGrace = 10 * time.Second })
	pids := fmt.Sprint(sortedPIDs(p))
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan equiv.Progress, 10)
	lim := equiv.Limits{Progress: func(pr equiv.Progress) { got <- pr }}
	errc := make(chan error, 1)
	go func() {
		_, err := p.Compare(ctx, src("hold"), src("b"), lim)
		errc <- err
	}()
	select {
	case pr := <-got:
		if pr.Phase != "graph" || pr.Done != 3 || pr.Total != 7 {
			t.Errorf("progress %+v, want graph 3 of 7", pr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no progress")
	}
	start := time.Now()
	cancel()
	err := <-errc
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancel took %s", d)
	}
	if err == nil || !strings.Contains(err.Error(), "held: context canceled") {
		t.Errorf("cancelled job: %v, want the child's held error", err)
	}
	if now := fmt.Sprint(sortedPIDs(p)); now != pids {
		t.Errorf("children %s after a cancel, %s before: the child was replaced", now, pids)
	}
}

// TestProcs_CancelIgnoredKills checks that a child that ignores a cancel
// is killed after the grace period, and replaced for the next job.
func TestProcs_CancelIgnoredKills(t *testing.T) {
	p := startProcs(t, 1, func(p *worker.Procs) { p.CancelGrace = 200 * time.Millisecond })
	pids := sortedPIDs(p)
	ctx, cancel := context.WithCancelCause(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := p.Compare(ctx, src("deaf"), src("b"), equiv.Limits{})
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	cause := errors.New("cancel requested")
	cancel(cause)
	err := <-errc
	if d := time.Since(start); d < 200*time.Millisecond || d > 3*time.Second {
		t.Errorf("cancel took %s, want the grace 200ms (and the kill)", d)
	}
	if !errors.Is(err, cause) || !strings.Contains(err.Error(), "did not stop") {
		t.Errorf("error %v, want it to say the child did not stop and wrap the cause", err)
	}
	if alive(pids[0]) {
		t.Errorf("child %d still runs", pids[0])
	}
	rep, err := p.Compare(context.Background(), src("x"), src("y"), equiv.Limits{})
	if err != nil || rep.Reason != "x~y" {
		t.Errorf("next job: %+v, %v", rep, err)
	}
}

// TestProcs_ChildDies checks that a child that dies mid-job (it exits, or
// is killed with SIGKILL from outside) fails only that job, with an
// error that says so, and that the next job gets a new child.
func TestProcs_ChildDies(t *testing.T) {
	p := startProcs(t, 1, nil)
	_, err := p.Compare(context.Background(), src("crash"), src("b"), equiv.Limits{})
	if err == nil || !strings.Contains(err.Error(), "died") || !strings.Contains(err.Error(), "exit status 7") ||
		!strings.Contains(err.Error(), "fatal error: test crash") {
		t.Errorf("job of a crashing child: %v, want died, exit status 7 and its last output", err)
	}
	if rep, err := p.Compare(context.Background(), src("x"), src("y"), equiv.Limits{}); err != nil || rep.Reason != "x~y" {
		t.Errorf("job after a crash: %+v, %v", rep, err)
	}

	errc := make(chan error, 1)
	go func() {
		_, err := p.Compare(context.Background(), src("hold"), src("b"), equiv.Limits{Progress: func(equiv.Progress) {}})
		errc <- err
	}()
	time.Sleep(200 * time.Millisecond)
	pids := sortedPIDs(p)
	if len(pids) != 1 {
		t.Fatalf("children %v, want 1", pids)
	}
	if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if err == nil || !strings.Contains(err.Error(), "died") || !strings.Contains(err.Error(), "killed") {
			t.Errorf("job of a killed child: %v, want died ... killed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("job of a killed child did not end")
	}
	if rep, err := p.Compare(context.Background(), src("x"), src("z"), equiv.Limits{}); err != nil || rep.Reason != "x~z" {
		t.Errorf("job after a kill: %+v, %v", rep, err)
	}
}

// TestProcs_IdleChildKilled kills an idle child: the next job goes to a
// new child and is done.
func TestProcs_IdleChildKilled(t *testing.T) {
	p := startProcs(t, 1, nil)
	pids := sortedPIDs(p)
	if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if rep, err := p.Compare(context.Background(), src("x"), src("y"), equiv.Limits{}); err != nil || rep.Reason != "x~y" {
		t.Errorf("job after an idle child was killed: %+v, %v", rep, err)
	}
	if now := sortedPIDs(p); len(now) != 1 || now[0] == pids[0] {
		t.Errorf("children %v after killing %d", now, pids[0])
	}
}

// TestProcs_ChildExitsWithoutParent closes the requests pipe of a child
// that is running a job, as the parent's death does: the child exits at
// once, without waiting for its job.
func TestProcs_ChildExitsWithoutParent(t *testing.T) {
	p := startProcs(t, 1, func(p *worker.Procs) { p.CancelGrace = 10 * time.Second })
	pid := sortedPIDs(p)[0]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Compare(ctx, src("deaf"), src("b"), equiv.Limits{})
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	p.Close() // closes the pipe; kills only after CancelGrace
	if d := time.Since(start); d > 2*time.Second || alive(pid) {
		t.Errorf("child %d alive %v %s after its requests pipe closed, want gone at once", pid, alive(pid), d)
	}
}

// TestProcs_MemoryLimit checks that a child past MaxRSS is killed and its
// job fails with ErrMemoryLimit, and that a job within it is unaffected.
func TestProcs_MemoryLimit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("MaxRSS needs /proc")
	}
	p := startProcs(t, 1, func(p *worker.Procs) { p.MaxRSS = 128 << 20 })
	if rep, err := p.Compare(context.Background(), src("x"), src("y"), equiv.Limits{}); err != nil || rep.Reason != "x~y" {
		t.Errorf("small job under the bound: %+v, %v", rep, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := p.Compare(ctx, src("alloc"), src("b"), equiv.Limits{})
	if !errors.Is(err, worker.ErrMemoryLimit) || !strings.Contains(err.Error(), "over the bound of 128 MiB") {
		t.Errorf("job past the bound: %v, want ErrMemoryLimit", err)
	}
	if rep, err := p.Compare(context.Background(), src("x"), src("w"), equiv.Limits{}); err != nil || rep.Reason != "x~w" {
		t.Errorf("job after the kill: %+v, %v", rep, err)
	}
}

// TestProcs_Panic checks that a panic in the child comes back as a
// *PanicError with the child's stack, and the child stays usable.
func TestProcs_Panic(t *testing.T) {
	p := startProcs(t, 1, nil)
	_, err := p.Compare(context.Background(), src("panic"), src("b"), equiv.Limits{})
	pe, ok := errors.AsType[*worker.PanicError](err)
	if !ok || pe.Value != "test panic" || !strings.Contains(pe.Stack, "childCompare") {
		t.Fatalf("error %#v, want a PanicError with the child's stack", err)
	}
	if rep, err := p.Compare(context.Background(), src("x"), src("y"), equiv.Limits{}); err != nil || rep.Reason != "x~y" {
		t.Errorf("job after a panic: %+v, %v", rep, err)
	}
}

// TestProcs_BadChild checks that a child that does not speak the
// protocol fails Start with a clear error.
func TestProcs_BadChild(t *testing.T) {
	p := &worker.Procs{Path: "/bin/true", Size: 1}
	err := p.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "start comparison process") {
		t.Errorf("Start with /bin/true: %v", err)
	}
}

// TestPool_PanicInChildBecomesFailed runs a pool on Procs: a panic in the
// child fails its job with the panic's message, logged with the child's
// stack, and the next job is done.
func TestPool_PanicInChildBecomesFailed(t *testing.T) {
	f := newFixture(t)
	p := startProcs(t, 1, nil)
	first := f.submit(f.a, f.b, "")
	second := f.submit(f.a, f.b, `{"timeout_ms": 60000}`)
	var calls sync.Mutex
	n := 0
	f.pool.Compare = func(ctx context.Context, a, b equiv.Source, lim equiv.Limits) (*equiv.Report, error) {
		calls.Lock()
		n++
		if n == 1 {
			a.Name = "panic"
		}
		calls.Unlock()
		return p.Compare(ctx, a, b, lim)
	}
	f.start()
	c := f.waitStatus(first, store.StatusFailed)
	if c.Error != "internal error: panic: test panic" {
		t.Errorf("error %q, want the child's panic", c.Error)
	}
	if c = f.waitStatus(second, store.StatusDone); c.Verdict != "equivalent" {
		t.Errorf("second job verdict = %q", c.Verdict)
	}
	if log := f.logText(); !strings.Contains(log, "panic in job") || !strings.Contains(log, "childCompare") {
		t.Errorf("log lacks the panic and the child's stack:\n%s", log)
	}
}

// TestPool_CancelInChild cancels a job held in a child through the store:
// the job ends cancelled within a second, with its progress written.
func TestPool_CancelInChild(t *testing.T) {
	f := newFixture(t)
	p := startProcs(t, 1, nil)
	id := f.submit(f.a, f.b, "")
	f.pool.Compare = func(ctx context.Context, a, b equiv.Source, lim equiv.Limits) (*equiv.Report, error) {
		a.Name = "hold"
		return p.Compare(ctx, a, b, lim)
	}
	f.start()
	f.wait(id, "in the graph phase", func(c *store.Comparison) bool { return strings.Contains(string(c.Progress), `"phase":"graph"`) })
	start := time.Now()
	if _, err := f.db.Cancel(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	f.waitStatus(id, store.StatusCancelled)
	// Issue 15 point 5's bound is a second; room for a loaded machine.
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancel took %s", d)
	}
}

func sortedPIDs(p *worker.Procs) []int {
	pids := p.PIDs()
	for i := range pids {
		for j := i + 1; j < len(pids); j++ {
			if pids[j] < pids[i] {
				pids[i], pids[j] = pids[j], pids[i]
			}
		}
	}
	return pids
}

// alive reports whether process pid exists (and is not a zombie).
func alive(pid int) bool {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(raw))
	return len(f) > 2 && f[2] != "Z"
}

// TestProcs_ChildKeptAfterTransientJob (found by review): a job that used
// 160 MiB while it ran and keeps nothing does not get its child replaced
// under a 256 MiB bound (the child gives its memory back before its
// answer, which is when the parent reads it).
func TestProcs_ChildKeptAfterTransientJob(t *testing.T) {
	p := startProcs(t, 1, func(p *worker.Procs) { p.MaxRSS = 256 << 20; p.RSSEvery = time.Hour })
	replaced := 0
	for i := range 3 {
		before := p.PIDs()
		if _, err := p.Compare(context.Background(), src("transient"), src("b"), equiv.Limits{}); err != nil {
			t.Fatal(err)
		}
		after := p.PIDs()
		if len(after) == 0 || len(before) == 0 || after[0] != before[0] {
			replaced++
		}
		t.Logf("job %d: pids %v -> %v", i, before, after)
	}
	if replaced > 0 {
		t.Errorf("%d of 3 children replaced after a job that keeps no memory", replaced)
	}
}
