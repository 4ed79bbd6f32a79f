// Package server wires the gamequiv HTTP server together: configuration from
// flags and environment, the data directory, the HTTP listener and graceful
// shutdown. It is internal to cmd/server, the only place that reads flags or
// the environment; end-to-end tests boot the real server through Main.
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
	"sync"
	"time"
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

	ln     net.Listener
	srv    *http.Server
	done   chan struct{} // closed when Serve returns
	failCh chan error    // receives an unexpected Serve error

	closeOnce sync.Once
	closeErr  error
}

// NewMain returns a Main for cfg that logs to log.
func NewMain(cfg Config, log *slog.Logger) *Main {
	return &Main{Config: cfg, Log: log}
}

// Run validates the configuration, creates the data directory and starts
// serving HTTP in the background. It returns once the listener is open, so
// Addr is valid as soon as Run returns nil. ctx bounds the start-up only;
// stop the server with Close.
func (m *Main) Run(ctx context.Context) error {
	if m.Log == nil {
		m.Log = slog.New(slog.DiscardHandler)
	}
	if err := m.Config.Validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	dbKind, _ := DatabaseKind(m.Config.DatabaseURL) // checked by Validate

	if err := os.MkdirAll(m.Config.DataDir, 0o750); err != nil {
		return fmt.Errorf("create data directory: %w", err)
	}
	dataDir, err := filepath.Abs(m.Config.DataDir)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", m.Config.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	m.ln = ln
	m.srv = &http.Server{
		Handler:           newHandler(m.Log),
		ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(m.Log.Handler(), slog.LevelWarn),
	}
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
		slog.Int("workers", m.Config.Workers),
	)
	return nil
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

// Close stops accepting connections, waits up to ShutdownTimeout for requests
// in flight, and releases everything Run acquired. Calling it more than once,
// or before Run, is safe.
func (m *Main) Close() error {
	m.closeOnce.Do(func() {
		if m.srv == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
		defer cancel()
		if err := m.srv.Shutdown(ctx); err != nil {
			m.closeErr = fmt.Errorf("shutdown: %w", err)
			m.srv.Close()
		}
		<-m.done
		m.Log.Info("stopped")
	})
	return m.closeErr
}
