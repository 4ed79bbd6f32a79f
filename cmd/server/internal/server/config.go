package server

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"runtime"
	"strings"
)

// Default values of the server configuration.
const (
	DefaultAddr = "127.0.0.1:8080"
	DefaultData = "./data"
)

// Config is the configuration of the server. Each field has a command-line
// flag and an environment variable; a flag given on the command line wins over
// the environment, which wins over the default.
type Config struct {
	// Addr is the TCP address to listen on (host:port). Port 0 picks a free port.
	Addr string
	// DataDir is the directory for the SQLite file and anything else the
	// server keeps on disk. It is created if it does not exist.
	DataDir string
	// DatabaseURL selects the database: empty means SQLite in DataDir, and a
	// postgres:// (or postgresql://) URL selects PostgreSQL.
	DatabaseURL string
	// Workers is the number of comparisons run at the same time.
	Workers int
}

// DefaultConfig returns the configuration used when neither a flag nor an
// environment variable is given.
func DefaultConfig() Config {
	return Config{
		Addr:    DefaultAddr,
		DataDir: DefaultData,
		Workers: runtime.NumCPU(),
	}
}

// setting ties one flag to its environment variable.
type setting struct {
	flag string
	env  string
}

// settings lists every flag that has an environment fallback, in --help order.
var settings = []setting{
	{"addr", "GAMEQUIV_ADDR"},
	{"data", "GAMEQUIV_DATA"},
	{"database-url", "GAMEQUIV_DATABASE_URL"},
	{"workers", "GAMEQUIV_WORKERS"},
}

// ParseConfig reads the configuration from the command-line arguments (without
// the program name) and, for every flag not given there, from the environment
// through getenv. Usage and parse errors are written to output. It returns
// flag.ErrHelp when -h or --help is given.
func ParseConfig(name string, args []string, getenv func(string) string, output io.Writer) (Config, error) {
	cfg := DefaultConfig()
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(output)
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr,
		"TCP `address` to listen on (host:port; port 0 picks a free port) [env GAMEQUIV_ADDR]")
	fs.StringVar(&cfg.DataDir, "data", cfg.DataDir,
		"`directory` for the SQLite file and other server data, created if missing [env GAMEQUIV_DATA]")
	fs.StringVar(&cfg.DatabaseURL, "database-url", cfg.DatabaseURL,
		"database `URL`: empty for SQLite in the data directory, postgres://... for PostgreSQL [env GAMEQUIV_DATABASE_URL]")
	fs.IntVar(&cfg.Workers, "workers", cfg.Workers,
		"`number` of comparisons run at the same time, one per CPU by default [env GAMEQUIV_WORKERS]")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s [flags]\n\n", name)
		fmt.Fprintf(fs.Output(), "%s serves the gamequiv HTTP API. Each flag falls back to the\n", name)
		fmt.Fprintf(fs.Output(), "environment variable in brackets; a flag on the command line wins.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return Config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}

	given := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, s := range settings {
		if given[s.flag] {
			continue
		}
		v := getenv(s.env)
		if v == "" {
			continue
		}
		if err := fs.Set(s.flag, v); err != nil {
			return Config{}, fmt.Errorf("%s=%q: %w", s.env, v, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// Validate reports the first invalid field of c.
func (c Config) Validate() error {
	if c.Addr == "" {
		return errors.New("addr: must not be empty")
	}
	if c.DataDir == "" {
		return errors.New("data: must not be empty")
	}
	if c.Workers < 1 {
		return fmt.Errorf("workers: must be at least 1, got %d", c.Workers)
	}
	if _, err := DatabaseKind(c.DatabaseURL); err != nil {
		return fmt.Errorf("database-url: %w", err)
	}
	return nil
}

// DatabaseKind names the database that a database URL selects: "sqlite" for
// the empty URL, "postgres" for a postgres:// or postgresql:// URL. Any other
// URL is an error. The error never repeats the URL, which may hold a password.
func DatabaseKind(databaseURL string) (string, error) {
	if databaseURL == "" {
		return "sqlite", nil
	}
	u, err := url.Parse(databaseURL)
	if err != nil {
		return "", errors.New("not a valid URL")
	}
	switch strings.ToLower(u.Scheme) {
	case "postgres", "postgresql":
		return "postgres", nil
	default:
		return "", fmt.Errorf("unsupported scheme %q (want postgres:// or empty for SQLite)", u.Scheme)
	}
}
