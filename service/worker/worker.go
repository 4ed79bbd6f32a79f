// Package worker runs queued comparisons: a pool of workers claims jobs
// from the store, runs equiv.Compare on them under per-job limits, keeps
// their leases alive with heartbeats that also carry progress and bring
// cancel requests back, and writes each outcome exactly once. Procs runs
// the comparisons in child processes instead (proc.go), which the OS can
// run at a lower priority than the server's requests and the pool can
// kill; a server also runs its heavy request work (symmetries, grounding
// uploads) in Procs of their own (service.Config.Compute), so that a byte
// bound and a kill stop what the count limits do not.
package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/service/internal/poll"
)

// Jobs is the part of the comparison queue that workers use;
// *store.DB implements it.
type Jobs interface {
	Claim(ctx context.Context, owner string, lease time.Duration) (*gamequiv.Comparison, error)
	Heartbeat(ctx context.Context, id int64, owner string, lease time.Duration, p gamequiv.Progress) (bool, error)
	Finish(ctx context.Context, id int64, owner string, o gamequiv.Outcome) error
	Release(ctx context.Context, id int64, owner string) error
}

// Games gives the workers the games' text; *store.DB implements it.
type Games interface {
	GetGame(ctx context.Context, id int64) (*gamequiv.Game, error)
}

// Metrics records what the pool does; telemetry.Metrics implements it.
type Metrics interface {
	ObserveReport(r *equiv.Report)
	ObserveJob(outcome string, d time.Duration)
	ObserveAbandoned()
	ObservePanic(where string)
}

// noMetrics is the Metrics of a pool without them.
type noMetrics struct{}

func (noMetrics) ObserveReport(*equiv.Report)      {}
func (noMetrics) ObserveJob(string, time.Duration) {}
func (noMetrics) ObserveAbandoned()                {}
func (noMetrics) ObservePanic(string)              {}

// CompareFunc is the signature of equiv.Compare.
type CompareFunc func(ctx context.Context, a, b equiv.Source, lim equiv.Limits) (*equiv.Report, error)

// Defaults of Pool.
const (
	DefaultLease         = 30 * time.Second
	DefaultProgressEvery = 500 * time.Millisecond
	DefaultPollMin       = 50 * time.Millisecond
	DefaultPollMax       = time.Second
	// DefaultCancelEvery bounds the time between two heartbeats, so a
	// cancel request stops a job within about this much even in a phase
	// that reports no progress (grounding).
	DefaultCancelEvery = 500 * time.Millisecond
	// finishTimeout bounds the final writes of a job (Finish, Release),
	// which run even while the pool shuts down.
	finishTimeout = 10 * time.Second
)

// Outcomes of a job, as the jobs metric labels them.
const (
	OutcomeDone      = "done"
	OutcomeFailed    = "failed"
	OutcomeCancelled = "cancelled"
	OutcomeReleased  = "released"
	OutcomeLeaseLost = "lease_lost"
)

// Pool runs comparisons. Set the fields, then call Run once.
type Pool struct {
	Jobs  Jobs
	Games Games
	// Log receives job errors and panics; nil discards them.
	Log *slog.Logger
	// Metrics, if not nil, records jobs and reports.
	Metrics Metrics
	// Workers is the number of jobs run at once; at least 1.
	Workers int
	// Name prefixes the lease owner of each worker (Name-1, Name-2, ...);
	// it must be unique among the processes sharing the store.
	Name string
	// Lease is how long a claim lasts without a heartbeat; 0 means
	// DefaultLease. Heartbeats renew it every Lease/3.
	Lease time.Duration
	// ProgressEvery is the least time between two progress writes; 0 means
	// DefaultProgressEvery.
	ProgressEvery time.Duration
	// CancelEvery is the longest time between two heartbeats, which bring
	// cancel requests back; 0 means DefaultCancelEvery.
	CancelEvery time.Duration
	// Limits bounds every comparison; Limits.Timeout is the per-job
	// timeout. A job's own limits (gamequiv.JobLimits) can only lower them.
	Limits equiv.Limits
	// Compare runs a comparison; nil means equiv.Compare. Procs.Compare
	// runs it in a child process; tests replace it.
	Compare CompareFunc
	// PollMin and PollMax bound the idle back-off between two claims that
	// found nothing; 0 means DefaultPollMin and DefaultPollMax.
	PollMin, PollMax time.Duration
	// OnEquivalent, if set, is called after a job proved its two games
	// equivalent (the classifier merges their classes).
	OnEquivalent func(ctx context.Context, a, b int64)

	// running maps the id of each job running here to its cancel.
	running sync.Map
}

// Cancel stops the job id at once if it runs in this pool, as a cancel
// request read by its heartbeat would (the caller has stored the request,
// so the job ends cancelled); it reports whether the job runs here. Other
// processes sharing the store see the request at their next heartbeat.
func (p *Pool) Cancel(id int64) bool {
	c, ok := p.running.Load(id)
	if ok {
		c.(context.CancelCauseFunc)(errCancelRequested)
	}
	return ok
}

func (p *Pool) defaults() {
	if p.Log == nil {
		p.Log = slog.New(slog.DiscardHandler)
	}
	if p.Metrics == nil {
		p.Metrics = noMetrics{}
	}
	if p.Workers < 1 {
		p.Workers = 1
	}
	if p.Name == "" {
		p.Name = "worker"
	}
	if p.Lease <= 0 {
		p.Lease = DefaultLease
	}
	if p.ProgressEvery <= 0 {
		p.ProgressEvery = DefaultProgressEvery
	}
	if p.CancelEvery <= 0 {
		p.CancelEvery = DefaultCancelEvery
	}
	if p.Compare == nil {
		p.Compare = equiv.Compare
	}
	if p.PollMin <= 0 {
		p.PollMin = DefaultPollMin
	}
	if p.PollMax < p.PollMin {
		p.PollMax = max(DefaultPollMax, p.PollMin)
	}
	p.Limits = p.Limits.WithDefaults()
}

// Run starts the workers and blocks until ctx is cancelled and every
// worker has stopped. Jobs running at cancellation are released to the
// queue (store.Release) unless they finished.
func (p *Pool) Run(ctx context.Context) {
	p.defaults()
	var wg sync.WaitGroup
	for i := range p.Workers {
		wg.Go(func() { p.work(ctx, fmt.Sprintf("%s-%d", p.Name, i+1)) })
	}
	wg.Wait()
}

// work is one worker's loop: claim, run, repeat; back off while idle.
func (p *Pool) work(ctx context.Context, owner string) {
	idle := poll.Backoff{Min: p.PollMin, Max: p.PollMax}
	for ctx.Err() == nil {
		job, err := p.Jobs.Claim(ctx, owner, p.Lease)
		if err != nil {
			if !errors.Is(err, gamequiv.ErrNotFound) && ctx.Err() == nil {
				p.Log.Warn("claim", slog.String("worker", owner), slog.Any("err", err))
			}
			idle.Wait(ctx)
			continue
		}
		idle.Reset()
		p.run(ctx, owner, job)
	}
}

// Causes of a job's cancellation.
var (
	errCancelRequested = errors.New("cancel requested")
	errLeaseLost       = errors.New("lease lost")
)

// run runs one claimed job to its end and writes its outcome.
func (p *Pool) run(ctx context.Context, owner string, job *gamequiv.Comparison) {
	start := time.Now()
	log := p.Log.With(slog.Int64("comparison", job.ID), slog.String("worker", owner))
	logClaim(log, job)
	jobCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	p.running.Store(job.ID, cancel)
	defer p.running.Delete(job.ID)

	hb := &heartbeat{pool: p, id: job.ID, owner: owner, cancel: cancel, log: log, stop: make(chan struct{})}
	var hbDone sync.WaitGroup
	hbDone.Go(func() { hb.loop(ctx) })

	rep, err := p.compare(jobCtx, job, hb.progress, log)

	close(hb.stop)
	hbDone.Wait()

	fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer fcancel()
	cause := context.Cause(jobCtx)
	decided := err == nil && rep != nil && rep.Verdict != equiv.Unknown
	var o gamequiv.Outcome
	var outcome string
	switch {
	case errors.Is(cause, errLeaseLost):
		log.Warn("job abandoned: lease lost", durationMs(start))
		p.Metrics.ObserveAbandoned()
		p.Metrics.ObserveJob(OutcomeLeaseLost, time.Since(start))
		return
	case decided:
		o, outcome = p.doneOutcome(rep), OutcomeDone
	case errors.Is(cause, errCancelRequested):
		o, outcome = gamequiv.Outcome{Status: gamequiv.StatusCancelled}, OutcomeCancelled
	case ctx.Err() != nil:
		// Shutting down: give the job back for another worker or process.
		if err := p.Jobs.Release(fctx, job.ID, owner); err != nil {
			log.Warn("release", slog.Any("err", err))
		} else {
			log.Info("job released", slog.String("reason", "shutdown"), durationMs(start))
		}
		p.Metrics.ObserveJob(OutcomeReleased, time.Since(start))
		return
	case err != nil:
		o, outcome = gamequiv.Outcome{Status: gamequiv.StatusFailed, Error: err.Error()}, OutcomeFailed
	case rep == nil:
		o, outcome = gamequiv.Outcome{Status: gamequiv.StatusFailed, Error: "internal error: no report"}, OutcomeFailed
	default:
		o, outcome = p.doneOutcome(rep), OutcomeDone
	}
	if err := p.Jobs.Finish(fctx, job.ID, owner, o); err != nil {
		log.Warn("finish", slog.String("status", string(o.Status)), slog.Any("err", err), durationMs(start))
		if errors.Is(err, gamequiv.ErrLeaseLost) {
			outcome = OutcomeLeaseLost
		}
	} else {
		logFinish(log, o, rep, start)
		if outcome == OutcomeDone {
			p.Metrics.ObserveReport(rep)
			if rep.Verdict == equiv.Equivalent && p.OnEquivalent != nil {
				p.OnEquivalent(fctx, job.GameA, job.GameB)
			}
		}
	}
	p.Metrics.ObserveJob(outcome, time.Since(start))
}

// durationMs is the time since start as a log attribute in milliseconds.
func durationMs(start time.Time) slog.Attr {
	return slog.Int64("duration_ms", time.Since(start).Milliseconds())
}

// logClaim logs a claimed job at info; a job whose earlier worker died
// (its lease expired) is logged as reclaimed, with the attempt number.
func logClaim(log *slog.Logger, job *gamequiv.Comparison) {
	attrs := []slog.Attr{
		slog.Int64("game_a", job.GameA), slog.Int64("game_b", job.GameB), slog.Int("attempt", job.Attempts),
	}
	msg := "job claimed"
	if job.Attempts > 1 {
		msg = "job reclaimed after a dead worker"
	}
	log.LogAttrs(context.Background(), slog.LevelInfo, msg, attrs...)
}

// logFinish logs the outcome a job wrote: its status, verdict (with the
// reason of an unknown one) or error, and its duration.
func logFinish(log *slog.Logger, o gamequiv.Outcome, rep *equiv.Report, start time.Time) {
	attrs := []slog.Attr{slog.String("status", string(o.Status)), durationMs(start)}
	msg := "job finished"
	switch o.Status {
	case gamequiv.StatusCancelled:
		msg = "job cancelled"
	case gamequiv.StatusFailed:
		attrs = append(attrs, slog.String("error", o.Error))
	case gamequiv.StatusDone:
		attrs = append(attrs, slog.String("verdict", o.Verdict))
		if rep != nil && rep.Reason != "" {
			attrs = append(attrs, slog.String("reason", rep.Reason))
		}
	}
	log.LogAttrs(context.Background(), slog.LevelInfo, msg, attrs...)
}

// doneOutcome is the outcome of a job with a report.
func (p *Pool) doneOutcome(rep *equiv.Report) gamequiv.Outcome {
	raw, err := json.Marshal(rep)
	if err != nil {
		return gamequiv.Outcome{Status: gamequiv.StatusFailed, Error: "encode report: " + err.Error()}
	}
	return gamequiv.Outcome{Status: gamequiv.StatusDone, Verdict: string(rep.Verdict), Result: raw}
}

// compare loads the job's games and compares them. A panic becomes an
// error, logged once with its stack.
func (p *Pool) compare(ctx context.Context, job *gamequiv.Comparison, progress func(equiv.Progress), log *slog.Logger) (rep *equiv.Report, err error) {
	defer func() {
		if v := recover(); v != nil {
			log.Error("panic in job", slog.String("panic", fmt.Sprint(v)), slog.String("stack", string(debug.Stack())))
			p.Metrics.ObservePanic("job")
			rep, err = nil, fmt.Errorf("internal error: panic: %v", v)
		}
	}()
	lim, err := p.jobLimits(job)
	if err != nil {
		return nil, err
	}
	lim.Progress = progress
	var src [2]equiv.Source
	for i, id := range []int64{job.GameA, job.GameB} {
		g, err := p.Games.GetGame(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("load game %d: %w", id, err)
		}
		src[i] = equiv.Source{Name: g.Name, GDL: g.GDL}
	}
	rep, err = p.Compare(ctx, src[0], src[1], lim)
	if pe, ok := errors.AsType[*PanicError](err); ok {
		// A panic in a comparison process (Procs): log it like one here.
		log.Error("panic in job", slog.String("panic", pe.Value), slog.String("stack", pe.Stack))
		p.Metrics.ObservePanic("job")
		return nil, fmt.Errorf("internal error: panic: %s", pe.Value)
	}
	return rep, err
}

// jobLimits are the pool's limits lowered by the job's own.
func (p *Pool) jobLimits(job *gamequiv.Comparison) (equiv.Limits, error) {
	lim := p.Limits
	jl, err := gamequiv.ParseJobLimits(job.Limits)
	if err != nil {
		return lim, err
	}
	if jl.TimeoutMs > 0 {
		lim.Timeout = min(lim.Timeout, time.Duration(jl.TimeoutMs)*time.Millisecond)
	}
	if jl.MaxCandidates > 0 {
		lim.MaxCandidates = min(lim.MaxCandidates, jl.MaxCandidates)
	}
	return lim, nil
}

// heartbeat keeps a job's lease and writes its progress at a bounded
// rate; it cancels the job when a cancel is requested or the lease is
// lost.
type heartbeat struct {
	pool   *Pool
	id     int64
	owner  string
	cancel context.CancelCauseFunc
	log    *slog.Logger
	stop   chan struct{}
	latest atomic.Pointer[equiv.Progress]
}

// progress is the equiv.Limits.Progress callback: it only records.
func (h *heartbeat) progress(p equiv.Progress) {
	h.latest.Store(&p)
}

// heartbeatTicks is how often per heartbeat period the loop looks whether
// a heartbeat is due.
const heartbeatTicks = 5

// loop writes a heartbeat when there is new progress (at most every
// ProgressEvery) and at least every min(CancelEvery, Lease/3), until stop
// is closed: each renews the lease and reads the cancel request.
func (h *heartbeat) loop(ctx context.Context) {
	p := h.pool
	every := min(p.CancelEvery, p.Lease/3)
	// Tick several times per period: a tick of exactly the period finds
	// the last write a little less than a period ago and skips, so the
	// heartbeats came a period late (1 s apart instead of CancelEvery).
	period := max(min(p.ProgressEvery, every)/heartbeatTicks, time.Millisecond)
	tick := time.NewTicker(period)
	defer tick.Stop()
	var written *equiv.Progress
	last := time.Now()
	for {
		select {
		case <-h.stop:
			return
		case <-tick.C:
		}
		cur := h.latest.Load()
		since := time.Since(last)
		if (cur == written || since < p.ProgressEvery) && since < every-period {
			continue
		}
		last = time.Now()
		var sp gamequiv.Progress
		if cur != nil && cur != written {
			raw, _ := json.Marshal(cur)
			sp = gamequiv.Progress{Phase: cur.Phase, Candidates: cur.Candidates, JSON: raw}
		}
		hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.Lease/3)
		cancelRequested, err := p.Jobs.Heartbeat(hctx, h.id, h.owner, p.Lease, sp)
		cancel()
		switch {
		case errors.Is(err, gamequiv.ErrLeaseLost):
			h.cancel(errLeaseLost)
			return
		case err != nil:
			h.log.Warn("heartbeat", slog.Any("err", err))
			continue
		case cancelRequested:
			h.cancel(errCancelRequested)
		}
		written = cur
	}
}
