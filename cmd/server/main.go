// Command server runs the gamequiv HTTP service.
//
// Usage:
//
//	server [--addr host:port] [--data dir] [--database-url url] [--workers n] [flags]
//
// It serves the REST API under /api/v1 (games, comparisons, classes,
// symmetries, the OpenAPI document), /healthz, /readyz and /metrics, and
// the web UI (package web) at every other path, starting at /. It runs the
// queued comparisons on --workers workers, each in a child process of its
// own at a lower OS priority (--worker-process, --worker-nice,
// --worker-max-rss), grounds uploads and computes symmetries in child
// processes too, one per --max-heavy slot, each bounded by
// --heavy-max-rss, and keeps the equivalence classes of the stored games
// up to date in the background.
//
// Every flag falls back to an environment variable (GAMEQUIV_ADDR,
// GAMEQUIV_DATA, GAMEQUIV_DATABASE_URL, GAMEQUIV_WORKERS, GAMEQUIV_MAX_QUEUE,
// GAMEQUIV_JOB_TIMEOUT, ...); run with --help for the full list. The server
// logs JSON lines to standard error and shuts down gracefully on SIGINT or
// SIGTERM, giving running comparisons back to the queue.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/gamequiv/gamequiv/cmd/server/internal/server"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == server.ChildCommand {
		// A child process of a server (--worker-process).
		os.Exit(server.RunChild(os.Args[2:], testCompare()))
	}
	os.Exit(run())
}

// run starts the server and blocks until a signal or a serve failure, and
// returns the process exit code.
func run() int {
	cfg, err := server.ParseConfig(filepath.Base(os.Args[0]), os.Args[1:], os.Getenv, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", filepath.Base(os.Args[0]), err)
		return 2
	}

	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.Level()}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	m := server.NewMain(cfg, log)
	if !cfg.WorkerProcess {
		m.Compare = testCompare() // with --worker-process, RunChild applies it
	}
	if err := m.Run(ctx); err != nil {
		log.Error("start", slog.Any("err", err))
		m.Close()
		return 1
	}

	code := 0
	select {
	case <-ctx.Done():
		log.Info("shutting down", slog.String("reason", "signal"))
	case err := <-m.Failed():
		log.Error("server failed", slog.Any("err", err))
		code = 1
	}
	stop() // a second signal now kills the process at once
	if err := m.Close(); err != nil {
		log.Error("close", slog.Any("err", err))
		code = 1
	}
	return code
}
