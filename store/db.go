package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"gorm.io/driver/postgres"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/gamequiv/gamequiv/migrations"
)

// Dialects that Open supports, as DB.Dialect reports them.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// SQLiteFile is the name of the SQLite database in Config.DataDir.
const SQLiteFile = "gamequiv.db"

// sqliteOptions are the go-sqlite3 DSN options of every SQLite connection:
// write-ahead log, wait up to 5 s for a lock held by another process,
// enforce foreign keys, and take the write lock at BEGIN so that two
// transactions never deadlock upgrading a read lock.
const sqliteOptions = "_journal_mode=WAL&_busy_timeout=5000&_foreign_keys=on&_txlock=immediate"

// Defaults of Config.
const (
	// DefaultMaxAttempts is the default Config.MaxAttempts.
	DefaultMaxAttempts = 3
	// DefaultMaxOpenConns is the default Config.MaxOpenConns (PostgreSQL).
	// Under bench/load (50 pollers, bursts after any stall) 10 made calls
	// queue for a connection 1,000-1,900 times a run, 9-19 s in all, the
	// largest part of a poll's time in the server; 30 cut that to
	// 160-380 waits. Several replicas sharing one PostgreSQL (default
	// max_connections 100) may need less each.
	DefaultMaxOpenConns = 30
	// DefaultMaxReadConns is the default Config.MaxReadConns (SQLite).
	DefaultMaxReadConns = 4
)

// Config says which database Open uses. The zero value is not usable:
// DataDir or DatabaseURL must be set.
type Config struct {
	// DataDir is the directory of the SQLite database file (SQLiteFile). It
	// is created if missing. Unused with PostgreSQL.
	DataDir string
	// DatabaseURL selects the database: empty for SQLite in DataDir, or a
	// postgres:// (postgresql://) URL in the form pgx accepts.
	DatabaseURL string
	// MaxAttempts bounds how often a comparison is claimed whose lease
	// ended (its worker died): when it is due for claim number
	// MaxAttempts+1 it fails instead. Zero means DefaultMaxAttempts.
	MaxAttempts int
	// MaxOpenConns bounds the PostgreSQL connection pool. Zero means
	// DefaultMaxOpenConns. SQLite writes through one connection.
	MaxOpenConns int
	// MaxReadConns bounds SQLite's pool of read-only connections, which
	// serve reads beside the writer (the write-ahead log lets readers run
	// while a transaction writes). Zero means DefaultMaxReadConns. Unused
	// with PostgreSQL.
	MaxReadConns int
	// Log receives migration messages. Nil discards them.
	Log *slog.Logger
}

// DB is an open store. It implements Games, Classes, Comparisons,
// Symmetries and Tokens. Close it when done.
type DB struct {
	// Now returns the current time; the store converts it to UTC with
	// microsecond precision. Open sets it to time.Now; tests may replace it
	// before the DB is used.
	Now func() time.Time

	gdb         *gorm.DB
	sqlDB       *sql.DB
	reader      *gorm.DB // reads that need no transaction: SQLite's read pool, or gdb
	readDB      *sql.DB  // the read pool's own sql.DB (SQLite), or nil
	dialect     string
	migrator    *goose.Provider
	maxAttempts int
}

var (
	_ Games       = (*DB)(nil)
	_ Classes     = (*DB)(nil)
	_ Comparisons = (*DB)(nil)
	_ Symmetries  = (*DB)(nil)
)

// Open opens the database that cfg selects and migrates it to the latest
// schema version. Errors do not show the password of cfg.DatabaseURL (pgx
// masks it).
func Open(ctx context.Context, cfg Config) (*DB, error) {
	if cfg.MaxAttempts < 0 || cfg.MaxOpenConns < 0 || cfg.MaxReadConns < 0 {
		return nil, fmt.Errorf("open store: negative limit: %w", ErrInvalid)
	}
	db := &DB{Now: time.Now, maxAttempts: cfg.MaxAttempts}
	if db.maxAttempts == 0 {
		db.maxAttempts = DefaultMaxAttempts
	}
	var (
		dialector gorm.Dialector
		gooseDia  goose.Dialect
		dir       string
	)
	switch {
	case cfg.DatabaseURL == "":
		if cfg.DataDir == "" {
			return nil, fmt.Errorf("open store: no data directory: %w", ErrInvalid)
		}
		if strings.ContainsAny(cfg.DataDir, "?#") {
			return nil, fmt.Errorf("open store: data directory %q contains ? or #: %w", cfg.DataDir, ErrInvalid)
		}
		if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
		dsn := filepath.Join(cfg.DataDir, SQLiteFile) + "?" + sqliteOptions
		db.dialect, dialector, gooseDia, dir = SQLite, sqlite.Open(dsn), goose.DialectSQLite3, migrations.SQLite
	case isPostgresURL(cfg.DatabaseURL):
		db.dialect, dialector, gooseDia, dir = Postgres, postgres.Open(cfg.DatabaseURL), goose.DialectPostgres, migrations.Postgres
	default:
		return nil, fmt.Errorf("open store: database URL: want empty (SQLite) or postgres://: %w", ErrInvalid)
	}

	gdb, err := gorm.Open(dialector, db.gormConfig())
	if err != nil {
		return nil, fmt.Errorf("open %s store: %v", db.dialect, err)
	}
	db.gdb = gdb
	if db.sqlDB, err = gdb.DB(); err != nil {
		return nil, fmt.Errorf("open %s store: %w", db.dialect, err)
	}
	if db.dialect == SQLite {
		// One connection: SQLite has one writer anyway, and a single
		// connection makes every transaction see the previous one's writes.
		db.sqlDB.SetMaxOpenConns(1)
		db.sqlDB.SetMaxIdleConns(1)
		db.sqlDB.SetConnMaxLifetime(0)
	} else {
		n := cfg.MaxOpenConns
		if n == 0 {
			n = DefaultMaxOpenConns
		}
		db.sqlDB.SetMaxOpenConns(n)
		db.sqlDB.SetMaxIdleConns(n)
		db.sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	}
	if err := db.sqlDB.PingContext(ctx); err != nil {
		db.sqlDB.Close()
		return nil, fmt.Errorf("open %s store: %v", db.dialect, err)
	}

	if err := db.migrate(ctx, gooseDia, dir, cfg.Log); err != nil {
		db.sqlDB.Close()
		return nil, err
	}
	db.reader = db.gdb
	if db.dialect == SQLite {
		if err := db.openReadPool(ctx, filepath.Join(cfg.DataDir, SQLiteFile), cfg.MaxReadConns); err != nil {
			db.sqlDB.Close()
			return nil, err
		}
	}
	return db, nil
}

func (db *DB) gormConfig() *gorm.Config {
	return &gorm.Config{
		Logger:                 logger.Discard,
		TranslateError:         true,
		SkipDefaultTransaction: true,
		NowFunc:                db.now,
		DisableAutomaticPing:   true,
	}
}

// openReadPool opens SQLite's read-only connections (query_only, deferred
// transactions): every read that needs no transaction goes there, so that
// pollers do not queue behind the one writer connection. Under the
// write-ahead log a read started after a write committed sees it.
func (db *DB) openReadPool(ctx context.Context, path string, n int) error {
	if n == 0 {
		n = DefaultMaxReadConns
	}
	dsn := path + "?_journal_mode=WAL&_busy_timeout=5000&_foreign_keys=on&_query_only=true"
	reader, err := gorm.Open(sqlite.Open(dsn), db.gormConfig())
	if err != nil {
		return fmt.Errorf("open sqlite read pool: %v", err)
	}
	if db.readDB, err = reader.DB(); err != nil {
		return fmt.Errorf("open sqlite read pool: %w", err)
	}
	db.readDB.SetMaxOpenConns(n)
	db.readDB.SetMaxIdleConns(n)
	db.readDB.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.readDB.PingContext(ctx); err != nil {
		db.readDB.Close()
		return fmt.Errorf("open sqlite read pool: %v", err)
	}
	db.reader = reader
	return nil
}

// migrate runs every pending migration of dir.
func (db *DB) migrate(ctx context.Context, dialect goose.Dialect, dir string, log *slog.Logger) error {
	sub, err := fs.Sub(migrations.FS, dir)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	opts := []goose.ProviderOption{goose.WithSlog(log), goose.WithDisableGlobalRegistry(true)}
	if db.dialect == Postgres {
		// Replicas starting together take turns.
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return fmt.Errorf("migrations: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, db.sqlDB, sub, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	db.migrator = p
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate %s store: %w", db.dialect, err)
	}
	for _, r := range results {
		log.Info("migrated", slog.String("database", db.dialect), slog.String("migration", r.Source.Path), slog.Int64("took_ms", r.Duration.Milliseconds()))
	}
	return nil
}

// Dialect returns SQLite or Postgres.
func (db *DB) Dialect() string { return db.dialect }

// Ready reports whether the database answers and its schema is at the
// latest migration; it is meant for a readiness probe.
func (db *DB) Ready(ctx context.Context) error {
	if err := db.sqlDB.PingContext(ctx); err != nil {
		return translate(ctx, "ready", err)
	}
	pending, err := db.migrator.HasPending(ctx)
	if err != nil {
		return translate(ctx, "ready: migrations", err)
	}
	if pending {
		return errors.New("ready: migrations pending")
	}
	return nil
}

// SchemaVersion returns the latest migration version applied to the
// database.
func (db *DB) SchemaVersion(ctx context.Context) (int64, error) {
	v, err := db.migrator.GetDBVersion(ctx)
	if err != nil {
		return 0, translate(ctx, "schema version", err)
	}
	return v, nil
}

// PoolStats are the connection pools' counters since Open: the writer
// pool (all of PostgreSQL's) and SQLite's read pool.
type PoolStats struct {
	Write, Read sql.DBStats
}

// PoolStats returns the pools' counters; WaitCount and WaitDuration say
// how often and how long calls queued for a free connection.
func (db *DB) PoolStats() PoolStats {
	s := PoolStats{Write: db.sqlDB.Stats()}
	if db.readDB != nil {
		s.Read = db.readDB.Stats()
	}
	return s
}

// Close closes the database. Calls after the first return an error.
func (db *DB) Close() error {
	if db.readDB != nil {
		db.readDB.Close()
	}
	return db.sqlDB.Close()
}

// now returns db.Now() in UTC with the microsecond precision that both
// databases keep.
func (db *DB) now() time.Time {
	return db.Now().UTC().Truncate(time.Microsecond)
}

// conn returns the gorm handle for one call.
func (db *DB) conn(ctx context.Context) *gorm.DB {
	return db.gdb.WithContext(ctx)
}

// read returns the gorm handle for one read that needs no transaction and
// no isolation from a write in progress (it sees what was committed before
// it started).
func (db *DB) read(ctx context.Context) *gorm.DB {
	return db.reader.WithContext(ctx)
}

// tx runs fn in a transaction, committed if fn returns nil.
func (db *DB) tx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	return db.gdb.WithContext(ctx).Transaction(fn)
}

// isPostgresURL reports whether u is a postgres:// or postgresql:// URL.
func isPostgresURL(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	s := strings.ToLower(p.Scheme)
	return s == "postgres" || s == "postgresql"
}
