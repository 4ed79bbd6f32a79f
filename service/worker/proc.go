package worker

// Comparisons (and a server's other heavy work: symmetries, grounding an
// upload) in child processes. Go cannot give goroutines OS
// priorities, so a comparison running in the server's process competes
// for the cores with request handling at the same priority. Procs runs
// each comparison in a long-lived child process instead (the server
// re-executes itself; the child runs ServeChild), which the OS can run
// at a lower priority and the parent can kill: on cancel past a grace
// period, on a memory bound, or when it hangs past the job's time limit.
//
// The protocol is gob over two pipes (the child's fds 3 and 4, so stray
// writes to its stdout cannot corrupt it): the parent sends requests (a
// job, or the cancel of one), the child answers a hello, then per job
// progress events and one final message (a JSON report or an error).
// An error crosses as its text plus the typed causes its callers look
// for (wire.go), so that a limit failure in a child is the same limit
// failure as in the server's process.

import (
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
)

// Defaults of Procs.
const (
	// DefaultCancelGrace is how long a child has to stop a cancelled job
	// before it is killed; with the heartbeat's DefaultCancelEvery a
	// cancel takes effect within a second.
	DefaultCancelGrace = 400 * time.Millisecond
	// DefaultRSSEvery is how often the parent reads a busy child's RSS.
	DefaultRSSEvery = 100 * time.Millisecond
	// DefaultStartTimeout bounds a child's start, until its hello. A
	// child that fails exits at once; this bounds one that hangs. It is
	// long because a child at nice 19 on a busy machine gets little CPU:
	// a race-enabled child took 6-7 s for 0.09 s of CPU at load 16.
	DefaultStartTimeout = time.Minute
	// DefaultHangSlack is how long past its job's Limits.Timeout a child
	// may take to answer before it is killed as hung (gophersat cannot be
	// interrupted, so a comparison may overrun its timeout a little).
	DefaultHangSlack = 30 * time.Second
	// childProgressEvery is the least time between two progress events of
	// one phase that a child sends; a new phase is sent at once.
	childProgressEvery = 50 * time.Millisecond
	// stderrTail is how much of a child's last stderr output the parent
	// keeps, to say why a child died.
	stderrTail = 2048
)

// errNotSent is the error of a job that could not be sent to its child.
var errNotSent = errors.New("send job")

// ErrMemoryLimit is the cause of a job stopped because its process grew
// past Procs.MaxRSS.
var ErrMemoryLimit = errors.New("memory limit")

// MemoryLimitError is the error of a job whose process was killed past
// Procs.MaxRSS. It matches ErrMemoryLimit, and as a *gamequiv.Error it is
// an ELIMIT naming the setting, so that the service stores it and the API
// answers it as the limit failure it is.
type MemoryLimitError struct {
	Process string // what the process ran ("comparison process")
	RSS     int64  // its resident memory when it was killed, in bytes
	Max     int64  // the bound, in bytes
	Setting string // the setting of the bound ("worker-max-rss")
}

func (e *MemoryLimitError) Error() string {
	return fmt.Sprintf("memory limit: the %s used %d MiB of memory, over the bound of %d MiB (--%s); it was killed",
		e.Process, e.RSS>>20, e.Max>>20, e.Setting)
}

// Is makes errors.Is(err, ErrMemoryLimit) true.
func (e *MemoryLimitError) Is(target error) bool { return target == ErrMemoryLimit }

// As makes errors.As find the limit failure as a *gamequiv.Error.
func (e *MemoryLimitError) As(target any) bool {
	if t, ok := target.(**gamequiv.Error); ok {
		*t = &gamequiv.Error{Code: gamequiv.ELIMIT, Message: e.Error(), Limit: e.Setting}
		return true
	}
	return false
}

// PanicError is a panic of a comparison in a child process.
type PanicError struct {
	Value string // the panic value, printed
	Stack string // the child's stack at the panic
}

func (e *PanicError) Error() string { return "internal error: panic: " + e.Value }

// Operations of a job.
const (
	opCompare    = ""           // compare A and B
	opSymmetries = "symmetries" // the symmetries of A
	opGround     = "ground"     // ground A (Limits.Ground) and give its statistics
)

// request is a message to a child: a job, or the cancel of job ID.
type request struct {
	ID     uint64
	Cancel bool
	Op     string
	A, B   equiv.Source
	Limits equiv.Limits
}

// response is a message from a child: its hello (ID 0), or for job ID
// its receipt (Started), a progress event, or its final message (Report
// or Err).
type response struct {
	ID       uint64
	PID      int
	Started  bool // the child has the job
	Progress *equiv.Progress
	Final    bool
	Report   []byte // JSON, so the stored report is byte for byte the in-process one
	Err      *wireError
	Panic    *PanicError
}

// Procs runs comparisons in child processes, one job at a time per child.
// Set the fields, call Start, use Compare as a Pool's Compare (or
// Symmetries and Ground for a server's heavy request work), and call
// Close when the pool has stopped.
type Procs struct {
	// Path and Args start a child, which must run ServeChild on fds 3
	// (requests) and 4 (responses); Env is added to the parent's
	// environment.
	Path string
	Args []string
	Env  []string
	// Size is the number of children (the pool's Workers); at least 1.
	Size int
	// MaxRSS bounds a child's resident memory in bytes while it runs a
	// job (read from /proc/PID/statm every RSSEvery): past it the child is
	// killed and the job fails with ErrMemoryLimit. 0 means no bound.
	// Where /proc is missing (not Linux) it is not enforced; Start logs it.
	MaxRSS int64
	// What names the children in errors and logs; "" means "comparison
	// process". Setting names MaxRSS's setting in the memory limit error;
	// "" means "worker-max-rss".
	What    string
	Setting string
	// CancelGrace, RSSEvery, StartTimeout and HangSlack: 0 means their
	// defaults (DefaultCancelGrace, ...).
	CancelGrace  time.Duration
	RSSEvery     time.Duration
	StartTimeout time.Duration
	HangSlack    time.Duration
	// Stderr receives the children's standard error; nil means os.Stderr.
	Stderr io.Writer
	// Log receives child deaths and restarts; nil discards them.
	Log *slog.Logger

	slots  chan *child // nil entries: a child to start
	nextID atomic.Uint64
	closed atomic.Bool
	mu     sync.Mutex
	live   map[*child]bool
}

// Start starts the children, so that no job pays for a process start.
func (p *Procs) Start(ctx context.Context) error {
	if p.Size < 1 {
		p.Size = 1
	}
	if p.CancelGrace <= 0 {
		p.CancelGrace = DefaultCancelGrace
	}
	if p.RSSEvery <= 0 {
		p.RSSEvery = DefaultRSSEvery
	}
	if p.StartTimeout <= 0 {
		p.StartTimeout = DefaultStartTimeout
	}
	if p.HangSlack <= 0 {
		p.HangSlack = DefaultHangSlack
	}
	if p.Stderr == nil {
		p.Stderr = os.Stderr
	}
	if p.Log == nil {
		p.Log = slog.New(slog.DiscardHandler)
	}
	if p.What == "" {
		p.What = "comparison process"
	}
	if p.Setting == "" {
		p.Setting = "worker-max-rss"
	}
	if p.MaxRSS > 0 {
		if _, ok := readRSS(os.Getpid()); !ok {
			p.Log.Warn("the memory bound of the "+p.What+"es is not enforced: no /proc/PID/statm on this system",
				slog.Int64("max_rss", p.MaxRSS))
		}
	}
	p.live = make(map[*child]bool)
	p.slots = make(chan *child, p.Size)
	for range p.Size {
		c, err := p.start(ctx)
		if err != nil {
			p.Close()
			return err
		}
		p.slots <- c
	}
	return nil
}

// PIDs returns the process ids of the running children, for tests.
func (p *Procs) PIDs() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var pids []int
	for c := range p.live {
		pids = append(pids, c.pid)
	}
	return pids
}

// Close stops the children: it closes their requests pipe, which makes
// them exit, and kills those still running after CancelGrace. Run it
// after every Compare has returned.
func (p *Procs) Close() {
	p.closed.Store(true)
	p.mu.Lock()
	live := make([]*child, 0, len(p.live))
	for c := range p.live {
		live = append(live, c)
	}
	p.mu.Unlock()
	for _, c := range live {
		c.stop(p.CancelGrace)
		p.forget(c)
	}
}

func (p *Procs) forget(c *child) {
	p.mu.Lock()
	delete(p.live, c)
	p.mu.Unlock()
}

// Compare runs a comparison in a child; it has the signature of
// equiv.Compare. A child that dies fails only its job, with an error
// that says so, and is replaced for the next job.
func (p *Procs) Compare(ctx context.Context, a, b equiv.Source, lim equiv.Limits) (*equiv.Report, error) {
	var rep equiv.Report
	if err := p.do(ctx, request{Op: opCompare, A: a, B: b, Limits: lim}, &rep); err != nil {
		return nil, err
	}
	return &rep, nil
}

// Symmetries computes a game's symmetries in a child, as equiv.Symmetries.
func (p *Procs) Symmetries(ctx context.Context, src equiv.Source, lim equiv.Limits) (*equiv.SymmetryReport, error) {
	var rep equiv.SymmetryReport
	if err := p.do(ctx, request{Op: opSymmetries, A: src, Limits: lim}, &rep); err != nil {
		return nil, err
	}
	return &rep, nil
}

// Ground grounds a game in a child within lim and returns its statistics,
// as GroundFunc.
func (p *Procs) Ground(ctx context.Context, name string, gdl []byte, lim grounding.Limits) (gamequiv.GameStats, error) {
	var st gamequiv.GameStats
	// The grounding's own time limit bounds the job (the hang timer).
	err := p.do(ctx, request{Op: opGround, A: equiv.Source{Name: name, GDL: gdl}, Limits: equiv.Limits{Ground: lim, Timeout: lim.Timeout}}, &st)
	return st, err
}

// do runs one job in a child and decodes its JSON answer into out.
func (p *Procs) do(ctx context.Context, req request, out any) error {
	var c *child
	select {
	case c = <-p.slots:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { p.slots <- c }()
	var raw []byte
	var reusable bool
	var err error
	// A child that died while idle is found dead here, or when the job
	// cannot be sent to it: the job then goes to a new child.
	for try := 0; ; try++ {
		if c == nil || c.dead() {
			if c != nil {
				c.kill() // closes its requests pipe; it has exited already
				p.forget(c)
			}
			if c, err = p.start(ctx); err != nil {
				c = nil
				return err
			}
		}
		raw, reusable, err = p.run(ctx, c, req)
		if !reusable {
			c.kill()
			p.forget(c)
			c = nil
		}
		if !errors.Is(err, errNotSent) || try > 0 {
			break
		}
		p.Log.Warn(p.What+" found dead; the job goes to a new one", slog.Any("err", err))
	}
	if reusable && p.MaxRSS > 0 {
		// A child whose heap stays large after a big job would start the
		// next one near the bound: replace it.
		if rss, known := readRSS(c.pid); known && rss > p.MaxRSS/2 {
			c.stop(p.CancelGrace)
			p.forget(c)
			c = nil
		}
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s: decode answer: %w", p.What, err)
	}
	return nil
}

// child is one running child process.
type child struct {
	cmd    *exec.Cmd
	pid    int
	in     *os.File // requests
	enc    *gob.Encoder
	msgs   chan response // closed when the responses pipe ends
	exited chan struct{} // closed when the process has been waited for
	tail   *tailWriter
	err    error // of Wait, set before exited closes
}

// start starts a child and waits for its hello.
func (p *Procs) start(ctx context.Context) (*child, error) {
	if p.closed.Load() {
		return nil, errors.New(p.What + "es: closed")
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", p.What, err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("start %s: %w", p.What, err)
	}
	c := &child{in: reqW, enc: gob.NewEncoder(reqW), msgs: make(chan response, 16), exited: make(chan struct{}), tail: &tailWriter{}}
	c.cmd = exec.Command(p.Path, p.Args...)
	c.cmd.Env = append(os.Environ(), p.Env...)
	c.cmd.ExtraFiles = []*os.File{reqR, respW}
	c.cmd.Stderr = io.MultiWriter(p.Stderr, c.tail)
	err = c.cmd.Start()
	reqR.Close()
	respW.Close()
	if err != nil {
		reqW.Close()
		respR.Close()
		return nil, fmt.Errorf("start %s: %w", p.What, err)
	}
	c.pid = c.cmd.Process.Pid
	go func() {
		dec := gob.NewDecoder(respR)
		for {
			var m response
			if err := dec.Decode(&m); err != nil {
				break
			}
			c.msgs <- m
		}
		close(c.msgs)
		respR.Close()
	}()
	go func() {
		c.err = c.cmd.Wait()
		close(c.exited)
	}()
	t := time.NewTimer(p.StartTimeout)
	defer t.Stop()
	select {
	case m, ok := <-c.msgs:
		if ok && m.ID == 0 && m.PID == c.pid {
			p.mu.Lock()
			p.live[c] = true
			p.mu.Unlock()
			return c, nil
		}
		c.kill()
		return nil, fmt.Errorf("start %s %s: %s", p.What, p.Path, c.death("no hello"))
	case <-t.C:
		c.kill()
		return nil, fmt.Errorf("start %s %s: no hello within %s", p.What, p.Path, p.StartTimeout)
	case <-ctx.Done():
		c.kill()
		return nil, ctx.Err()
	}
}

// run runs one job in c and returns its JSON answer. reusable is false
// when c must not run another job (it died or was killed).
func (p *Procs) run(ctx context.Context, c *child, req request) (raw []byte, reusable bool, err error) {
	id := p.nextID.Add(1)
	req.ID = id
	progress := req.Limits.Progress
	if err := c.enc.Encode(req); err != nil {
		return nil, false, fmt.Errorf("%s %d: %w: %s", p.What, c.pid, errNotSent, c.death(err.Error()))
	}
	rss := time.NewTicker(p.RSSEvery)
	defer rss.Stop()
	hang := time.NewTimer(req.Limits.WithDefaults().Timeout + p.HangSlack)
	defer hang.Stop()
	done := ctx.Done()
	var grace <-chan time.Time
	started := false
	for {
		select {
		case m, open := <-c.msgs:
			if !open && !started {
				// It died before it had the job: the job never ran.
				return nil, false, fmt.Errorf("%s %d: %w: %s", p.What, c.pid, errNotSent, c.death("died"))
			}
			if !open {
				return nil, false, fmt.Errorf("%s %d died: %s", p.What, c.pid, c.death(""))
			}
			if m.ID != id {
				continue // of a job cancelled earlier
			}
			if m.Started {
				started = true
				continue
			}
			if !m.Final {
				if m.Progress != nil && progress != nil {
					progress(*m.Progress)
				}
				continue
			}
			raw, err := final(m)
			if err != nil && ctx.Err() != nil {
				// The job stopped because ctx ended: it matches why, as
				// the same job in this process would (a deadline is a
				// time limit, not the child's cancel); its text stays
				// the child's.
				err = &remoteError{msg: err.Error(), causes: []error{context.Cause(ctx), err}}
			}
			return raw, true, err
		case <-done:
			done = nil
			if err := c.enc.Encode(request{ID: id, Cancel: true}); err != nil {
				return nil, false, fmt.Errorf("%s %d: send cancel: %s", p.What, c.pid, c.death(err.Error()))
			}
			t := time.NewTimer(p.CancelGrace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			c.kill()
			return nil, false, fmt.Errorf("%s %d killed: the job did not stop within %s of its cancel: %w",
				p.What, c.pid, p.CancelGrace, context.Cause(ctx))
		case <-hang.C:
			c.kill()
			return nil, false, fmt.Errorf("%s %d killed: no answer %s past the time limit of %s",
				p.What, c.pid, p.HangSlack, req.Limits.WithDefaults().Timeout)
		case <-rss.C:
			if p.MaxRSS <= 0 {
				continue
			}
			if n, known := readRSS(c.pid); known && n > p.MaxRSS {
				c.kill()
				return nil, false, &MemoryLimitError{Process: p.What, RSS: n, Max: p.MaxRSS, Setting: p.Setting}
			}
		}
	}
}

// final is the outcome of a job's final message: its JSON answer or its
// error.
func final(m response) ([]byte, error) {
	switch {
	case m.Panic != nil:
		return nil, m.Panic
	case m.Err != nil:
		return nil, m.Err.decode()
	case len(m.Report) == 0:
		return nil, errors.New("internal error: no answer")
	}
	return m.Report, nil
}

// dead reports whether c's process has exited.
func (c *child) dead() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

// kill kills c's process and waits for it.
func (c *child) kill() {
	c.cmd.Process.Kill()
	<-c.exited
	c.in.Close()
}

// stop closes c's requests, which makes it exit, and kills it if it has
// not after grace.
func (c *child) stop(grace time.Duration) {
	c.in.Close()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-c.exited:
	case <-t.C:
		c.kill()
	}
}

// death says how c ended: its exit status and the last line it wrote to
// stderr, or what if it has not exited within a second.
func (c *child) death(what string) string {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-c.exited:
	case <-t.C:
		c.kill()
	}
	msg := "exit status unknown"
	if c.err != nil {
		msg = c.err.Error()
	} else if c.cmd.ProcessState != nil {
		msg = c.cmd.ProcessState.String()
	}
	if what != "" {
		msg = what + " (" + msg + ")"
	}
	if last := c.tail.lastLine(); last != "" {
		msg += `; its last output: "` + last + `"`
	}
	return msg
}

// tailWriter keeps the last stderrTail bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	buf []byte
}

func (w *tailWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, b...)
	if len(w.buf) > stderrTail {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-stderrTail:]...)
	}
	return len(b), nil
}

// lastLine is the last non-empty line written, or a line starting with
// "fatal error" or "panic" if there is one (the Go runtime's reason).
func (w *tailWriter) lastLine() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(w.buf)), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "fatal error") || strings.HasPrefix(l, "panic") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// SymmetriesFunc is the signature of equiv.Symmetries.
type SymmetriesFunc func(ctx context.Context, src equiv.Source, lim equiv.Limits) (*equiv.SymmetryReport, error)

// GroundFunc grounds a game within lim and returns its statistics
// (service.GroundStats).
type GroundFunc func(ctx context.Context, name string, gdl []byte, lim grounding.Limits) (gamequiv.GameStats, error)

// ChildFuncs are the computations a child runs. Compare nil means
// equiv.Compare, Symmetries nil equiv.Symmetries; Ground nil refuses
// grounding jobs.
type ChildFuncs struct {
	Compare    CompareFunc
	Symmetries SymmetriesFunc
	Ground     GroundFunc
}

// ServeChild is the child's side: it reads jobs from in, runs them with
// f and writes their progress and outcome to out, until in ends (the
// parent closed it or died) or ctx is done. Jobs run concurrently, each
// until its cancel arrives.
func ServeChild(ctx context.Context, in io.Reader, out io.Writer, f ChildFuncs) error {
	if f.Compare == nil {
		f.Compare = equiv.Compare
	}
	if f.Symmetries == nil {
		f.Symmetries = equiv.Symmetries
	}
	s := &childServer{enc: gob.NewEncoder(out), jobs: make(map[uint64]context.CancelFunc)}
	if err := s.send(response{PID: os.Getpid()}); err != nil {
		return fmt.Errorf("hello: %w", err)
	}
	// Returning cancels the jobs still running; it does not wait for them
	// (the process exits).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	dec := gob.NewDecoder(in)
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read request: %w", err)
		}
		s.mu.Lock()
		if req.Cancel {
			if c := s.jobs[req.ID]; c != nil {
				c()
			}
			s.mu.Unlock()
			continue
		}
		jctx, jcancel := context.WithCancel(ctx)
		s.jobs[req.ID] = jcancel
		s.mu.Unlock()
		if err := s.send(response{ID: req.ID, Started: true}); err != nil {
			jcancel()
			return fmt.Errorf("receipt: %w", err)
		}
		go func() {
			s.run(jctx, req, f)
			s.mu.Lock()
			delete(s.jobs, req.ID)
			s.mu.Unlock()
			jcancel()
		}()
	}
}

type childServer struct {
	encMu sync.Mutex
	enc   *gob.Encoder
	mu    sync.Mutex
	jobs  map[uint64]context.CancelFunc
}

func (s *childServer) send(m response) error {
	s.encMu.Lock()
	defer s.encMu.Unlock()
	return s.enc.Encode(m)
}

// run runs one job and sends its progress and final message.
func (s *childServer) run(ctx context.Context, req request, f ChildFuncs) {
	var latest atomic.Pointer[equiv.Progress]
	phase := make(chan struct{}, 1)
	var lastPhase atomic.Pointer[string]
	req.Limits.Progress = func(pr equiv.Progress) {
		latest.Store(&pr)
		if lp := lastPhase.Load(); lp == nil || *lp != pr.Phase {
			lastPhase.Store(&pr.Phase)
			select {
			case phase <- struct{}{}:
			default:
			}
		}
	}
	stop := make(chan struct{})
	var sender sync.WaitGroup
	sender.Go(func() {
		tick := time.NewTicker(childProgressEvery)
		defer tick.Stop()
		var sent *equiv.Progress
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			case <-phase:
			}
			if cur := latest.Load(); cur != nil && cur != sent {
				s.send(response{ID: req.ID, Progress: cur})
				sent = cur
			}
		}
	})
	m := response{ID: req.ID, Final: true}
	ans, err := runJob(ctx, req, f)
	close(stop)
	sender.Wait()
	var pe *PanicError
	switch {
	case errors.As(err, &pe):
		m.Panic = pe
	case err != nil:
		m.Err = encodeError(err)
	default:
		raw, err := json.Marshal(ans)
		if err != nil {
			m.Err = encodeError(fmt.Errorf("encode answer: %w", err))
		}
		m.Report = raw
	}
	// Give the job's memory back to the OS before the answer: an idle
	// child would otherwise keep the peak of its last job (a heavy work
	// process kept 306 MiB after grounding amazonsSuicide, 45 MiB with
	// this), and the parent reads the child's memory when the answer
	// comes, to replace a child that stays large (review13: read before
	// this, a job's passing peak replaced the child every time).
	ans = nil
	debug.FreeOSMemory()
	s.send(m)
}

// runJob runs a job's operation, turning a panic into a *PanicError. Its
// answer is a non-nil value to encode as JSON.
func runJob(ctx context.Context, req request, f ChildFuncs) (ans any, err error) {
	defer func() {
		if v := recover(); v != nil {
			ans, err = nil, &PanicError{Value: fmt.Sprint(v), Stack: string(debug.Stack())}
		}
	}()
	var rep any
	switch req.Op {
	case opCompare:
		r, err := f.Compare(ctx, req.A, req.B, req.Limits)
		if err != nil || r == nil {
			return nil, noAnswer(err)
		}
		rep = r
	case opSymmetries:
		r, err := f.Symmetries(ctx, req.A, req.Limits)
		if err != nil || r == nil {
			return nil, noAnswer(err)
		}
		rep = r
	case opGround:
		if f.Ground == nil {
			return nil, errors.New("this process does not ground games")
		}
		st, err := f.Ground(ctx, req.A.Name, req.A.GDL, req.Limits.Ground)
		if err != nil {
			return nil, err
		}
		rep = st
	default:
		return nil, fmt.Errorf("unknown operation %q", req.Op)
	}
	return rep, nil
}

// noAnswer is err, or the error of a computation that gave neither an
// answer nor an error.
func noAnswer(err error) error {
	if err == nil {
		return errors.New("internal error: no report")
	}
	return err
}
