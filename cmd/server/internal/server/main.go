// Package server wires the gamequiv HTTP server together: configuration from
// flags and environment, the store, the API handler, the comparison workers,
// the background classifier, the HTTP listener and graceful shutdown. It is
// internal to cmd/server, the only place that reads flags or the environment;
// end-to-end tests boot the real server through Main.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamequiv/gamequiv/api"
	"github.com/gamequiv/gamequiv/service"
	"github.com/gamequiv/gamequiv/service/classes"
	"github.com/gamequiv/gamequiv/service/worker"
	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/telemetry"
)

// Limits of the HTTP server.
const (
	// ReadHeaderTimeout bounds the time a client may take to send request headers.
	ReadHeaderTimeout = 10 * time.Second
	// IdleTimeout bounds how long an idle keep-alive connection stays open.
	IdleTimeout = 2 * time.Minute
	// MaxHeaderBytes caps the size of request headers.
	MaxHeaderBytes = 64 << 10
	// ShutdownTimeout bounds how long Close waits for requests in flight.
	ShutdownTimeout = 15 * time.Second
)

// Main is the running server. Set Config and Log, call Run, and call Close
// once to stop it.
type Main struct {
	Config Config
	Log    *slog.Logger
	// Compare, if set before Run, replaces equiv.Compare in the workers (a
	// test hook, e.g. to inject a panic); they then run in this process
	// whatever Config.WorkerProcess says.
	Compare worker.CompareFunc

	db         *store.DB
	metrics    *telemetry.Metrics
	classifier *classes.Classifier
	procs      *worker.Procs // the comparison processes, if any
	heavy      *worker.Procs // the processes of heavy request work, if any
	ln         net.Listener
	srv        *http.Server
	done       chan struct{} // closed when Serve returns
	failCh     chan error    // receives an unexpected Serve error
	bgCancel   context.CancelFunc
	bg         sync.WaitGroup // the workers and the classifier

	closeOnce sync.Once
	closeErr  error
	// restoreRuntime puts back the collector settings and GOMAXPROCS
	// that Run changed.
	restoreRuntime func()
}

// NewMain returns a Main for cfg that logs to log.
func NewMain(cfg Config, log *slog.Logger) *Main {
	return &Main{Config: cfg, Log: log}
}

// Run validates the configuration, opens and migrates the store, starts the
// workers and the classifier, and starts serving HTTP in the background. It
// returns once the listener is open, so Addr is valid as soon as Run returns
// nil. ctx bounds the start-up only; stop the server with Close.
func (m *Main) Run(ctx context.Context) error {
	if m.Log == nil {
		m.Log = slog.New(slog.DiscardHandler)
	}
	m.Log = slog.New(api.LogHandler(m.Log.Handler()))
	cfg := m.Config
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	dbKind, _ := DatabaseKind(cfg.DatabaseURL) // checked by Validate
	cpus := runtime.GOMAXPROCS(0)
	procs, graphWorkers := cfg.Procs(cpus)
	m.restoreRuntime = setRuntime(cfg.GCPercent, cfg.ServerMemoryLimit(), procs)

	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return fmt.Errorf("create data directory: %w", err)
	}
	dataDir, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}

	m.db, err = store.Open(ctx, store.Config{
		DataDir:      dataDir,
		DatabaseURL:  cfg.DatabaseURL,
		MaxAttempts:  cfg.MaxAttempts,
		MaxOpenConns: cfg.MaxDBConns,
		MaxReadConns: cfg.MaxReadConns,
		Log:          m.Log,
	})
	if err != nil {
		return err
	}
	m.metrics = telemetry.New()
	m.metrics.RegisterQueue(m.db)
	lim := cfg.Limits()
	lim.Graph.Workers = graphWorkers
	proxies, err := api.ParseTrustedProxies(cfg.TrustedProxies)
	if err != nil {
		return fmt.Errorf("trusted-proxies: %w", err)
	}
	// Heavy request work (grounding uploads, computing symmetries) runs in
	// child processes bounded in memory by the same rule as comparisons:
	// wherever the comparisons do (--worker-process).
	var compute service.Compute
	if cfg.WorkerProcess {
		if m.heavy, err = newHeavyProcs(cfg); err != nil {
			return err
		}
		m.heavy.Log = m.Log
		if err := m.heavy.Start(ctx); err != nil {
			m.heavy = nil
			return err
		}
		compute = m.heavy
	}
	// The pool is made below; a cancel before it exists has no job to stop.
	var pool atomic.Pointer[worker.Pool]
	handler := api.NewServer(api.Deps{
		OnCancelRequested: func(id int64) {
			if p := pool.Load(); p != nil {
				p.Cancel(id)
			}
		},
		Store:   m.db,
		Log:     m.Log,
		Metrics: m.metrics,
		Access:  cfg.Access(),
		Compute: compute,
		Limits: api.Limits{
			MaxBody:        cfg.MaxBody,
			MaxGDL:         cfg.MaxGDL,
			MaxQueue:       cfg.MaxQueue,
			Game:           lim,
			RequestTimeout: cfg.RequestTimeout,
			MaxBatch:       cfg.MaxBatch,
			MaxWait:        cfg.MaxWait,
			WaitInterval:   cfg.WaitInterval,
			RateLimit:      cfg.RateLimit,
			RateBurst:      cfg.RateBurst,
			TrustedProxies: proxies,
			// MaxHeavy bounds grounding uploads and computing symmetries.
			MaxConcurrentCompute: cfg.MaxHeavy,
		},
	})

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	m.ln = ln
	m.srv = &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(m.Log.Handler(), slog.LevelWarn),
	}

	bgCtx, cancel := context.WithCancel(context.Background())
	m.bgCancel = cancel
	host, _ := os.Hostname()
	pl := &worker.Pool{
		Jobs:    m.db,
		Games:   m.db,
		Log:     m.Log,
		Metrics: m.metrics,
		Workers: cfg.Workers,
		Name:    fmt.Sprintf("%s-%d-%p", host, os.Getpid(), m),
		Lease:   cfg.Lease,
		Limits:  lim,
		Compare: m.Compare,
	}
	if cfg.WorkerProcess && m.Compare == nil {
		if m.procs, err = newProcs(cfg); err != nil {
			return err
		}
		m.procs.Log = m.Log
		if err := m.procs.Start(ctx); err != nil {
			m.procs = nil
			return err
		}
		pl.Compare = m.procs.Compare
	}
	if cfg.Classify {
		cw := cfg.ClassifyWorkers
		if cw == 0 {
			cw = cpus // not the raised GOMAXPROCS
		}
		m.classifier = &classes.Classifier{Store: m.db, Log: m.Log, Metrics: m.metrics, Limits: lim,
			Workers: cw, QuickTimeout: cfg.ClassifyQuick,
			GameTimeout: cfg.ClassifyGameTimeout, CompareTimeout: cfg.ClassifyCompareTimeout,
			MaxHeap: cfg.ClassifierMaxHeap()}
		pl.OnEquivalent = m.classifier.Merge
		m.bg.Go(func() { m.classifier.Run(bgCtx) })
	}
	pool.Store(pl)
	m.bg.Go(func() { pl.Run(bgCtx) })

	m.done = make(chan struct{})
	m.failCh = make(chan error, 1)
	go func() {
		defer close(m.done)
		if err := m.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			m.failCh <- fmt.Errorf("serve: %w", err)
		}
	}()

	m.Log.Info("listening",
		slog.String("addr", m.Addr()),
		slog.String("data", dataDir),
		slog.String("database", dbKind),
		slog.Int("workers", cfg.Workers),
		slog.Bool("worker_process", m.procs != nil),
		slog.Int("worker_nice", cfg.WorkerNice),
		slog.Int64("worker_max_rss", cfg.MaxRSS()),
		slog.Bool("heavy_process", m.heavy != nil),
		slog.Int64("heavy_max_rss", cfg.HeavyMaxRSS),
		slog.Int("gomaxprocs", procs),
		slog.Int("graph_workers", graphWorkers),
		slog.Int("gc_percent", cfg.GCPercent),
		slog.Int64("memory_limit", cfg.ServerMemoryLimit()),
		slog.Bool("classify", cfg.Classify),
		slog.Bool("auth", cfg.Auth),
		slog.Bool("public_read", !cfg.Auth || cfg.PublicRead),
	)
	if !cfg.Auth && !isLoopback(ln.Addr()) {
		m.Log.Warn("access control is off on an address other hosts can reach: anyone may delete and cancel; run with --auth (see gamequiv token)",
			slog.String("addr", m.Addr()))
	}
	return nil
}

// setRuntime applies the collector settings (0 leaves one as it is) and
// GOMAXPROCS, and returns the function that restores the previous ones.
func setRuntime(percent int, limit int64, procs int) (restore func()) {
	oldPercent, oldLimit := -2, int64(-1)
	oldProcs := runtime.GOMAXPROCS(0)
	if procs != oldProcs {
		runtime.GOMAXPROCS(procs)
	}
	if percent > 0 {
		oldPercent = debug.SetGCPercent(percent)
	}
	if limit > 0 {
		oldLimit = debug.SetMemoryLimit(limit)
	}
	return func() {
		if oldPercent != -2 {
			debug.SetGCPercent(oldPercent)
		}
		if oldLimit >= 0 {
			debug.SetMemoryLimit(oldLimit)
		}
		if procs != oldProcs {
			runtime.GOMAXPROCS(oldProcs)
		}
	}
}

// isLoopback reports whether a listening address accepts loopback
// connections only.
func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// Addr returns the address the server listens on, with the real port when
// Config.Addr asked for port 0. It is empty before Run.
func (m *Main) Addr() string {
	if m.ln == nil {
		return ""
	}
	return m.ln.Addr().String()
}

// Failed returns a channel that receives an error if the server stops serving
// on its own, before Close. It is nil before Run.
func (m *Main) Failed() <-chan error {
	return m.failCh
}

// WorkerPIDs returns the process ids of the comparison processes, for
// tests; none when the comparisons run in this process.
func (m *Main) WorkerPIDs() []int {
	if m.procs == nil {
		return nil
	}
	return m.procs.PIDs()
}

// HeavyPIDs returns the process ids of the processes that ground uploads
// and compute symmetries, for tests; none when that runs in this process.
func (m *Main) HeavyPIDs() []int {
	if m.heavy == nil {
		return nil
	}
	return m.heavy.PIDs()
}

// Store returns the store, for tests; nil before Run.
func (m *Main) Store() *store.DB { return m.db }

// Close stops accepting connections, waits up to ShutdownTimeout for requests
// in flight, stops the workers (which give their running jobs back to the
// queue) and the classifier, and closes the store. Calling it more than once,
// or before Run, is safe.
func (m *Main) Close() error {
	m.closeOnce.Do(func() {
		var errs []error
		if m.srv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
			if err := m.srv.Shutdown(ctx); err != nil {
				errs = append(errs, fmt.Errorf("shutdown: %w", err))
				m.srv.Close()
			}
			cancel()
			<-m.done
		} else if m.ln != nil {
			m.ln.Close()
		}
		if m.bgCancel != nil {
			m.bgCancel()
			m.bg.Wait()
		}
		if m.procs != nil {
			m.procs.Close()
		}
		if m.heavy != nil {
			m.heavy.Close() // the requests that used them have ended
		}
		if m.restoreRuntime != nil {
			m.restoreRuntime()
		}
		// What requests waited for, for the stop log.
		stopAttrs := schedWaits()
		if m.db != nil {
			stopAttrs = append(stopAttrs, poolWaits(m.db.PoolStats())...)
			if err := m.db.Close(); err != nil {
				errs = append(errs, fmt.Errorf("close store: %w", err))
			}
		}
		m.closeErr = errors.Join(errs...)
		if m.srv != nil {
			m.Log.LogAttrs(context.Background(), slog.LevelInfo, "stopped", stopAttrs...)
		}
	})
	return m.closeErr
}
