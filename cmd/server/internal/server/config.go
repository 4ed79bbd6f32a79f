package server

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/gamequiv/gamequiv/api"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/service"
	"github.com/gamequiv/gamequiv/service/worker"
	"github.com/gamequiv/gamequiv/store"
)

// Default values of the server configuration.
const (
	DefaultAddr           = "127.0.0.1:8080"
	DefaultData           = "./data"
	DefaultMaxQueue       = 1000
	DefaultRateLimit      = 10
	DefaultRateBurst      = 20
	DefaultLogLevel       = "info"
	DefaultJobTimeout     = equiv.DefaultTimeout
	DefaultRequestTimeout = service.DefaultComputeTimeout
	// DefaultGCPercent is the GOGC of the server. The comparison workers
	// allocate fast over a small live heap: at Go's 100 the collector ran
	// about ten times a second under bench/load, and its mark assists and
	// CPU share landed on requests.
	DefaultGCPercent = 400
	// DefaultServeProcs is the number of Go processors (Ps) beyond those
	// the comparison workers can fill (see Procs). Go's scheduler has no
	// priorities: with every P running comparison goroutines, a request
	// waits for a 10-20 ms preemption, behind the preempted comparison
	// goroutines, and the network is polled only every 10 ms. A P that
	// comparisons cannot fill takes the request at once, and the OS
	// shares the cores between the threads at a finer grain.
	DefaultServeProcs = 1
	// DefaultWorkerNice is how much lower than the server's the priority
	// of the comparison processes is, in nice steps: 10 above the server's
	// nice value, the OS gives a runnable request thread about ten times
	// their share of a core.
	DefaultWorkerNice = 10
	// MaxWorkerNice is the largest nice value (the lowest priority).
	MaxWorkerNice = 19
	// DefaultHeavyMaxRSS bounds the resident memory of each process that
	// grounds an upload or computes symmetries: a grounding run to the
	// default count limits took about 290 MiB (BENCHMARKS.md, session
	// 12), and 2 slots (a 2-core machine's default) stay within the
	// issue's 2 GiB.
	DefaultHeavyMaxRSS = 1 << 30
	// DefaultClassifyMaxHeap bounds the server's heap for the background
	// classifier, which analyses and compares games in the server's own
	// process (one amazonsSuicide upload took it to about 500 MiB).
	DefaultClassifyMaxHeap = 1 << 30
)

// DefaultWorkerProcess: comparisons run in child processes wherever the
// pipes and priorities they need exist (not on Windows, where os/exec has
// no ExtraFiles and there is no nice).
const DefaultWorkerProcess = runtime.GOOS != "windows"

// DefaultWorkers is one comparison worker per CPU but one (at least one),
// so that a core is left to the requests while the workers are busy.
func DefaultWorkers() int { return max(1, runtime.NumCPU()-1) }

// DefaultMemoryLimit is the soft memory limit of the server: three
// quarters of the machine's memory (Linux /proc/meminfo), or 0 (none)
// when unknown. Near it the collector runs as often as it must, whatever
// GCPercent says.
func DefaultMemoryLimit() int64 {
	raw, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(raw)) {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err != nil || kb <= 0 {
				return 0
			}
			return kb * 1024 / 4 * 3
		}
	}
	return 0
}

// Config is the configuration of the server. Each field has a command-line
// flag and an environment variable; a flag given on the command line wins over
// the environment, which wins over the default.
// defaultMaxHeavy caps the default of Config.MaxHeavy: one grounding run
// to the default limits takes about 290 MiB (BENCHMARKS.md, "Issue 15 point
// by point"), so four slots keep a many-core server under issue 15's 2 GiB.
const defaultMaxHeavy = 4

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
	// GCPercent is the garbage collector's GOGC for the server process
	// (0: leave the runtime's, from the GOGC variable); MemoryLimit is
	// its soft memory limit in bytes (0: leave the runtime's, from
	// GOMEMLIMIT).
	GCPercent   int
	MemoryLimit int64
	// ServeProcs is the number of Go processors (GOMAXPROCS) the server
	// keeps beyond those its comparison workers can fill (see Procs); 0
	// leaves GOMAXPROCS and the graph workers as the runtime sets them.
	ServeProcs int
	// MaxDBConns bounds the PostgreSQL connection pool; MaxReadConns bounds
	// SQLite's pool of read-only connections beside its one writer. Zero
	// means the store's defaults.
	MaxDBConns   int
	MaxReadConns int
	// WorkerProcess runs each comparison worker's jobs in a child process
	// (the server's own executable, see RunChild) at WorkerNice nice steps
	// below the server's priority (at most nice 19), so the OS runs
	// requests first; false runs them in the server's process.
	// WorkerMaxRSS bounds a child's resident memory in bytes (Linux):
	// past it the child is killed and its job fails with "memory limit".
	// 0 means MemoryLimit divided among the workers (none if MemoryLimit
	// is 0); negative means no bound.
	WorkerProcess bool
	WorkerNice    int
	WorkerMaxRSS  int64
	// HeavyMaxRSS bounds the resident memory in bytes of each child
	// process that grounds an upload or computes symmetries (one per
	// MaxHeavy slot; with WorkerProcess only, the same rule as the
	// comparisons): past it the child is killed and the request fails
	// with a limit error naming the setting.
	HeavyMaxRSS int64

	// MaxBody caps request bodies, in bytes.
	MaxBody int64
	// MaxGDL caps the text of one game description, in bytes.
	MaxGDL int64
	// MaxQueue is the number of queued comparisons at which submissions
	// get 429; 0 means no limit.
	MaxQueue int64
	// RateLimit is the sustained rate of POST and DELETE requests per
	// client address, per second (0: no limit); RateBurst is the burst.
	RateLimit float64
	RateBurst int
	// RequestTimeout bounds the work inside one request (grounding an
	// upload, computing symmetries).
	RequestTimeout time.Duration
	// MaxHeavy bounds the requests grounding an upload or computing
	// symmetries at the same time; past it requests get 429 busy.
	MaxHeavy int
	// MaxBatch caps the games of one POST /games/batch.
	MaxBatch int
	// MaxWait caps the long poll of GET /comparisons/{id}?wait=;
	// WaitInterval is how often a waiting request reads the comparison
	// again.
	MaxWait      time.Duration
	WaitInterval time.Duration

	// JobTimeout bounds each comparison job (and each comparison of the
	// classifier).
	JobTimeout time.Duration
	// Lease is how long a worker's claim on a job lasts without a
	// heartbeat; a job whose worker died is claimed again after it.
	Lease time.Duration
	// MaxAttempts is how often a job whose worker died is run again
	// before it fails.
	MaxAttempts int

	// Grounding and search limits of uploads, comparisons and symmetries.
	MaxAtoms        int64
	MaxInstances    int64
	MaxCircuitNodes int
	GroundTimeout   time.Duration
	MaxCandidates   int64
	MaxSearchNodes  int64
	MaxGenWords     int64

	// Classify runs the background classifier that keeps the
	// equivalence classes of stored games.
	Classify bool
	// ClassifyWorkers places games at once in the classifier's fast lane;
	// ClassifyQuick is that lane's budget per placement, past which a game
	// goes to the slow lane (one worker) with ClassifyGameTimeout per
	// analysis and ClassifyCompareTimeout per comparison. Zero means the
	// defaults of package classes.
	ClassifyWorkers        int
	ClassifyQuick          time.Duration
	ClassifyGameTimeout    time.Duration
	ClassifyCompareTimeout time.Duration
	// ClassifyMaxHeap bounds the server's heap in bytes on the
	// classifier's behalf (classes.Classifier.MaxHeap); 0 leaves it
	// unbounded.
	ClassifyMaxHeap int64

	// Auth turns access control on: changes need an API token (see
	// `gamequiv token`), and owners are recorded.
	Auth bool
	// PublicRead lets requests without a token read when Auth is on.
	PublicRead bool
	// SessionTTL is how long the web login lasts (its cookie's Max-Age).
	SessionTTL time.Duration
	// SecureCookie marks the web session cookie Secure (HTTPS only).
	SecureCookie bool
	// TrustedProxies is a comma-separated list of the IPs or CIDRs of
	// reverse proxies whose X-Forwarded-For names the client (for the rate
	// limit and the log); empty trusts none.
	TrustedProxies string
	// LogLevel is debug, info, warn or error.
	LogLevel string
}

// DefaultConfig returns the configuration used when neither a flag nor an
// environment variable is given.
func DefaultConfig() Config {
	return Config{
		Addr:            DefaultAddr,
		DataDir:         DefaultData,
		Workers:         DefaultWorkers(),
		GCPercent:       DefaultGCPercent,
		MemoryLimit:     DefaultMemoryLimit(),
		ServeProcs:      DefaultServeProcs,
		WorkerProcess:   DefaultWorkerProcess,
		WorkerNice:      DefaultWorkerNice,
		MaxBody:         api.DefaultMaxBody,
		MaxGDL:          service.DefaultMaxGDL,
		MaxQueue:        DefaultMaxQueue,
		RateLimit:       DefaultRateLimit,
		RateBurst:       DefaultRateBurst,
		RequestTimeout:  DefaultRequestTimeout,
		MaxHeavy:        min(runtime.NumCPU(), defaultMaxHeavy),
		HeavyMaxRSS:     DefaultHeavyMaxRSS,
		MaxBatch:        api.DefaultMaxBatch,
		MaxWait:         api.DefaultMaxWait,
		WaitInterval:    api.DefaultWaitInterval,
		JobTimeout:      DefaultJobTimeout,
		Lease:           worker.DefaultLease,
		MaxAttempts:     store.DefaultMaxAttempts,
		MaxAtoms:        grounding.DefaultMaxAtoms,
		MaxInstances:    grounding.DefaultMaxInstances,
		MaxCircuitNodes: grounding.DefaultMaxCircuitNodes,
		GroundTimeout:   grounding.DefaultTimeout,
		MaxCandidates:   equiv.DefaultMaxCandidates,
		Classify:        true,
		ClassifyMaxHeap: DefaultClassifyMaxHeap,
		SessionTTL:      api.DefaultSessionTTL,
		LogLevel:        DefaultLogLevel,
	}
}

// Limits returns the comparison limits the configuration sets; Timeout is
// JobTimeout.
func (c Config) Limits() equiv.Limits {
	var lim equiv.Limits
	lim.Ground = grounding.Limits{
		MaxAtoms:        c.MaxAtoms,
		MaxInstances:    c.MaxInstances,
		MaxCircuitNodes: c.MaxCircuitNodes,
		Timeout:         c.GroundTimeout,
	}
	lim.Search.MaxNodes = c.MaxSearchNodes
	lim.Search.MaxGenWords = c.MaxGenWords
	lim.MaxCandidates = c.MaxCandidates
	lim.Timeout = c.JobTimeout
	return lim
}

// MaxRSS is the memory bound of each comparison process in bytes, 0 for
// none (see WorkerMaxRSS).
func (c Config) MaxRSS() int64 {
	switch {
	case c.WorkerMaxRSS < 0:
		return 0
	case c.WorkerMaxRSS > 0:
		return c.WorkerMaxRSS
	}
	return c.MemoryLimit / int64(max(c.Workers, 1))
}

// ClassifierMaxHeap is the classifier's heap bound
// (classes.Classifier.MaxHeap): ClassifyMaxHeap while the other heavy work
// runs in child processes (WorkerProcess), none otherwise, since then
// comparisons, uploads and symmetries share the server's heap and the
// classifier could not tell its own use from theirs.
func (c Config) ClassifierMaxHeap() int64 {
	if !c.Classify || !c.WorkerProcess {
		return 0
	}
	return c.ClassifyMaxHeap
}

// ServerMemoryLimit is the soft memory limit (GOMEMLIMIT) of the server's
// own process: MemoryLimit, lowered to a quarter above the classifier's
// heap bound when there is one. The classifier's watchdog bounds live
// data; the limit makes the collector keep garbage near that bound too
// (with GOGC 400 alone, one amazonsSuicide analysis took the server to
// 457 MiB resident under a 256 MiB bound), and the quarter keeps it from
// collecting without end while live data sits just under the bound.
func (c Config) ServerMemoryLimit() int64 {
	bound := c.ClassifierMaxHeap()
	if bound <= 0 {
		return c.MemoryLimit
	}
	soft := bound + bound/4
	if c.MemoryLimit <= 0 {
		return soft
	}
	return min(c.MemoryLimit, soft)
}

// Access returns the access control the configuration sets.
func (c Config) Access() api.Access {
	return api.Access{Enabled: c.Auth, PublicRead: c.PublicRead, SessionTTL: c.SessionTTL, SecureCookie: c.SecureCookie}
}

// Level returns the slog level of LogLevel (info if it is invalid).
func (c Config) Level() slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return slog.LevelInfo
	}
	return l
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
	{"gc-percent", "GAMEQUIV_GC_PERCENT"},
	{"memory-limit", "GAMEQUIV_MEMORY_LIMIT"},
	{"serve-procs", "GAMEQUIV_SERVE_PROCS"},
	{"worker-process", "GAMEQUIV_WORKER_PROCESS"},
	{"worker-nice", "GAMEQUIV_WORKER_NICE"},
	{"worker-max-rss", "GAMEQUIV_WORKER_MAX_RSS"},
	{"heavy-max-rss", "GAMEQUIV_HEAVY_MAX_RSS"},
	{"max-body", "GAMEQUIV_MAX_BODY"},
	{"max-gdl", "GAMEQUIV_MAX_GDL"},
	{"max-queue", "GAMEQUIV_MAX_QUEUE"},
	{"rate-limit", "GAMEQUIV_RATE_LIMIT"},
	{"rate-burst", "GAMEQUIV_RATE_BURST"},
	{"request-timeout", "GAMEQUIV_REQUEST_TIMEOUT"},
	{"max-heavy", "GAMEQUIV_MAX_HEAVY"},
	{"max-db-conns", "GAMEQUIV_MAX_DB_CONNS"},
	{"max-read-conns", "GAMEQUIV_MAX_READ_CONNS"},
	{"max-batch", "GAMEQUIV_MAX_BATCH"},
	{"max-wait", "GAMEQUIV_MAX_WAIT"},
	{"wait-interval", "GAMEQUIV_WAIT_INTERVAL"},
	{"job-timeout", "GAMEQUIV_JOB_TIMEOUT"},
	{"lease", "GAMEQUIV_LEASE"},
	{"max-attempts", "GAMEQUIV_MAX_ATTEMPTS"},
	{"max-atoms", "GAMEQUIV_MAX_ATOMS"},
	{"max-instances", "GAMEQUIV_MAX_INSTANCES"},
	{"max-circuit-nodes", "GAMEQUIV_MAX_CIRCUIT_NODES"},
	{"ground-timeout", "GAMEQUIV_GROUND_TIMEOUT"},
	{"max-candidates", "GAMEQUIV_MAX_CANDIDATES"},
	{"max-search-nodes", "GAMEQUIV_MAX_SEARCH_NODES"},
	{"max-generator-words", "GAMEQUIV_MAX_GENERATOR_WORDS"},
	{"classify", "GAMEQUIV_CLASSIFY"},
	{"classify-workers", "GAMEQUIV_CLASSIFY_WORKERS"},
	{"classify-quick", "GAMEQUIV_CLASSIFY_QUICK"},
	{"classify-game-timeout", "GAMEQUIV_CLASSIFY_GAME_TIMEOUT"},
	{"classify-compare-timeout", "GAMEQUIV_CLASSIFY_COMPARE_TIMEOUT"},
	{"classify-max-heap", "GAMEQUIV_CLASSIFY_MAX_HEAP"},
	{"auth", "GAMEQUIV_AUTH"},
	{"public-read", "GAMEQUIV_PUBLIC_READ"},
	{"session-ttl", "GAMEQUIV_SESSION_TTL"},
	{"secure-cookie", "GAMEQUIV_SECURE_COOKIE"},
	{"trusted-proxies", "GAMEQUIV_TRUSTED_PROXIES"},
	{"log-level", "GAMEQUIV_LOG_LEVEL"},
}

// Settings returns the flags and their environment variables, in --help
// order.
func Settings() [][2]string {
	out := make([][2]string, len(settings))
	for i, s := range settings {
		out[i] = [2]string{s.flag, s.env}
	}
	return out
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
		"`number` of comparisons run at the same time; default one per CPU but one (at least 1), which leaves a core to requests [env GAMEQUIV_WORKERS]")
	fs.IntVar(&cfg.GCPercent, "gc-percent", cfg.GCPercent,
		"garbage collector target `percent` (GOGC) of the server; 0 leaves the runtime's [env GAMEQUIV_GC_PERCENT]")
	fs.Int64Var(&cfg.MemoryLimit, "memory-limit", cfg.MemoryLimit,
		"soft memory limit of the server in `bytes` (GOMEMLIMIT); default three quarters of the machine's memory, 0 leaves the runtime's [env GAMEQUIV_MEMORY_LIMIT]")
	fs.IntVar(&cfg.ServeProcs, "serve-procs", cfg.ServeProcs,
		"Go processors (GOMAXPROCS) kept beyond those the comparison workers can fill, so requests never wait behind comparisons for one; 0 leaves GOMAXPROCS as the runtime sets it [env GAMEQUIV_SERVE_PROCS]")
	fs.BoolVar(&cfg.WorkerProcess, "worker-process", cfg.WorkerProcess,
		"run the comparisons in child processes of the server (one per worker, kept between jobs) at a lower OS priority, so requests never wait behind them for a core; false runs them in the server's process [env GAMEQUIV_WORKER_PROCESS]")
	fs.IntVar(&cfg.WorkerNice, "worker-nice", cfg.WorkerNice,
		"nice `steps` (0 to 19) by which the comparison processes run below the server's priority (at most nice 19); 0 is the server's priority [env GAMEQUIV_WORKER_NICE]")
	fs.Int64Var(&cfg.WorkerMaxRSS, "worker-max-rss", cfg.WorkerMaxRSS,
		"bound on a comparison process's resident memory in `bytes` (Linux; read every 100ms): past it the process is killed and its job fails with a memory limit error; 0 divides --memory-limit among the workers, negative means no bound [env GAMEQUIV_WORKER_MAX_RSS]")
	fs.Int64Var(&cfg.MaxBody, "max-body", cfg.MaxBody,
		"cap on request bodies in `bytes`; larger bodies get 413 [env GAMEQUIV_MAX_BODY]")
	fs.Int64Var(&cfg.MaxGDL, "max-gdl", cfg.MaxGDL,
		"cap on one game description (upload or inline game) in `bytes`; longer ones get 413 [env GAMEQUIV_MAX_GDL]")
	fs.Int64Var(&cfg.MaxQueue, "max-queue", cfg.MaxQueue,
		"queued comparisons at which new submissions get 429, 0 for no limit [env GAMEQUIV_MAX_QUEUE]")
	fs.Float64Var(&cfg.RateLimit, "rate-limit", cfg.RateLimit,
		"POST and DELETE `requests` per second allowed per client address, 0 for no limit [env GAMEQUIV_RATE_LIMIT]")
	fs.IntVar(&cfg.RateBurst, "rate-burst", cfg.RateBurst,
		"burst of `requests` allowed above --rate-limit [env GAMEQUIV_RATE_BURST]")
	fs.DurationVar(&cfg.RequestTimeout, "request-timeout", cfg.RequestTimeout,
		"bound on the work inside one request (grounding an upload, computing symmetries); past it 503 [env GAMEQUIV_REQUEST_TIMEOUT]")
	fs.IntVar(&cfg.MaxDBConns, "max-db-conns", cfg.MaxDBConns,
		"`number` of PostgreSQL connections, 0 for the store's default (30) [env GAMEQUIV_MAX_DB_CONNS]")
	fs.IntVar(&cfg.MaxReadConns, "max-read-conns", cfg.MaxReadConns,
		"`number` of SQLite's read-only connections beside its one writer, 0 for the store's default (4) [env GAMEQUIV_MAX_READ_CONNS]")
	fs.IntVar(&cfg.MaxHeavy, "max-heavy", cfg.MaxHeavy,
		"`number` of requests grounding an upload or computing symmetries at once, one per CPU up to 4 by default; more get 429 busy [env GAMEQUIV_MAX_HEAVY]")
	fs.Int64Var(&cfg.HeavyMaxRSS, "heavy-max-rss", cfg.HeavyMaxRSS,
		"bound on the resident memory in `bytes` of each child process grounding an upload or computing symmetries (one per --max-heavy slot, with --worker-process; Linux, read every 100ms): past it the process is killed, the upload gets 422 and the symmetries are stored as a limit failure [env GAMEQUIV_HEAVY_MAX_RSS]")
	fs.IntVar(&cfg.MaxBatch, "max-batch", cfg.MaxBatch,
		"`number` of games one POST /games/batch may hold; more get 400 [env GAMEQUIV_MAX_BATCH]")
	fs.DurationVar(&cfg.MaxWait, "max-wait", cfg.MaxWait,
		"longest long poll of GET /comparisons/{id}?wait=; a longer wait gets 400 [env GAMEQUIV_MAX_WAIT]")
	fs.DurationVar(&cfg.WaitInterval, "wait-interval", cfg.WaitInterval,
		"how often a long poll reads the comparison again [env GAMEQUIV_WAIT_INTERVAL]")
	fs.DurationVar(&cfg.JobTimeout, "job-timeout", cfg.JobTimeout,
		"bound on each comparison job; past it the verdict is unknown [env GAMEQUIV_JOB_TIMEOUT]")
	fs.DurationVar(&cfg.Lease, "lease", cfg.Lease,
		"how long a worker's claim on a job lasts without a heartbeat (heartbeats come every lease/3) [env GAMEQUIV_LEASE]")
	fs.IntVar(&cfg.MaxAttempts, "max-attempts", cfg.MaxAttempts,
		"runs of a job whose worker died before it fails [env GAMEQUIV_MAX_ATTEMPTS]")
	fs.Int64Var(&cfg.MaxAtoms, "max-atoms", cfg.MaxAtoms,
		"grounding limit on ground atoms [env GAMEQUIV_MAX_ATOMS]")
	fs.Int64Var(&cfg.MaxInstances, "max-instances", cfg.MaxInstances,
		"grounding limit on rule instances [env GAMEQUIV_MAX_INSTANCES]")
	fs.IntVar(&cfg.MaxCircuitNodes, "max-circuit-nodes", cfg.MaxCircuitNodes,
		"grounding limit on circuit nodes [env GAMEQUIV_MAX_CIRCUIT_NODES]")
	fs.DurationVar(&cfg.GroundTimeout, "ground-timeout", cfg.GroundTimeout,
		"limit on the time to ground one game [env GAMEQUIV_GROUND_TIMEOUT]")
	fs.Int64Var(&cfg.MaxCandidates, "max-candidates", cfg.MaxCandidates,
		"candidate mappings verified per comparison before the verdict is unknown [env GAMEQUIV_MAX_CANDIDATES]")
	fs.Int64Var(&cfg.MaxSearchNodes, "max-search-nodes", cfg.MaxSearchNodes,
		"search-tree nodes per graph search, 0 for the default (4194304), negative for no limit [env GAMEQUIV_MAX_SEARCH_NODES]")
	fs.Int64Var(&cfg.MaxGenWords, "max-generator-words", cfg.MaxGenWords,
		"int32 words of the automorphism generators kept per graph search (two per vertex a generator moves), 0 for the default (134217728), negative for no limit [env GAMEQUIV_MAX_GENERATOR_WORDS]")
	fs.BoolVar(&cfg.Classify, "classify", cfg.Classify,
		"keep the equivalence classes of stored games up to date in the background [env GAMEQUIV_CLASSIFY]")
	fs.IntVar(&cfg.ClassifyWorkers, "classify-workers", cfg.ClassifyWorkers,
		"games the classifier places at once in its fast lane, 0 for the number of CPUs [env GAMEQUIV_CLASSIFY_WORKERS]")
	fs.DurationVar(&cfg.ClassifyQuick, "classify-quick", cfg.ClassifyQuick,
		"classifier's fast-lane budget per placement, 0 for 10s; a game that needs more goes to the slow lane [env GAMEQUIV_CLASSIFY_QUICK]")
	fs.DurationVar(&cfg.ClassifyGameTimeout, "classify-game-timeout", cfg.ClassifyGameTimeout,
		"classifier's slow-lane budget for one game's analysis (grounding, graph, certificate); 0 for 1m; past it the game is marked with the limit [env GAMEQUIV_CLASSIFY_GAME_TIMEOUT]")
	fs.DurationVar(&cfg.ClassifyCompareTimeout, "classify-compare-timeout", cfg.ClassifyCompareTimeout,
		"classifier's slow-lane budget for one comparison with a class representative, 0 for 2m [env GAMEQUIV_CLASSIFY_COMPARE_TIMEOUT]")
	fs.Int64Var(&cfg.ClassifyMaxHeap, "classify-max-heap", cfg.ClassifyMaxHeap,
		"bound in `bytes` on the server's heap for the classifier, which analyses and compares games in the server's process: past it the classifier drops its prepared representatives, then stops its placements in progress (a game stopped at the bound on every attempt is marked with it); 0 for no bound [env GAMEQUIV_CLASSIFY_MAX_HEAP]")
	fs.BoolVar(&cfg.Auth, "auth", cfg.Auth,
		"access control: changes need an API token (gamequiv token create), games and comparisons record their owner, only the owner or an admin may rename, delete or cancel [env GAMEQUIV_AUTH]")
	fs.BoolVar(&cfg.PublicRead, "public-read", cfg.PublicRead,
		"with --auth, let requests without a token read (GET) [env GAMEQUIV_PUBLIC_READ]")
	fs.DurationVar(&cfg.SessionTTL, "session-ttl", cfg.SessionTTL,
		"with --auth, how long a web login lasts [env GAMEQUIV_SESSION_TTL]")
	fs.BoolVar(&cfg.SecureCookie, "secure-cookie", cfg.SecureCookie,
		"mark the web login cookie Secure (sent over HTTPS only): set it behind a TLS proxy [env GAMEQUIV_SECURE_COOKIE]")
	fs.StringVar(&cfg.TrustedProxies, "trusted-proxies", cfg.TrustedProxies,
		"comma-separated IPs or CIDRs of reverse proxies whose X-Forwarded-For names the client (rate limit, log); empty: the peer is the client [env GAMEQUIV_TRUSTED_PROXIES]")
	fs.StringVar(&cfg.LogLevel, "log-level", cfg.LogLevel,
		"log `level`: debug, info, warn or error [env GAMEQUIV_LOG_LEVEL]")
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
	switch {
	case c.Addr == "":
		return errors.New("addr: must not be empty")
	case c.DataDir == "":
		return errors.New("data: must not be empty")
	case c.Workers < 1:
		return fmt.Errorf("workers: must be at least 1, got %d", c.Workers)
	case c.GCPercent < 0 || c.MemoryLimit < 0:
		return fmt.Errorf("gc-percent, memory-limit: must not be negative, got %d and %d", c.GCPercent, c.MemoryLimit)
	case c.ServeProcs < 0 || c.ServeProcs > MaxServeProcs:
		return fmt.Errorf("serve-procs: must be from 0 to %d, got %d", MaxServeProcs, c.ServeProcs)
	case c.WorkerNice < 0 || c.WorkerNice > MaxWorkerNice:
		return fmt.Errorf("worker-nice: must be from 0 to %d, got %d", MaxWorkerNice, c.WorkerNice)
	case c.MaxBody < 1:
		return fmt.Errorf("max-body: must be at least 1, got %d", c.MaxBody)
	case c.MaxGDL < 1:
		return fmt.Errorf("max-gdl: must be at least 1, got %d", c.MaxGDL)
	case c.MaxQueue < 0:
		return fmt.Errorf("max-queue: must not be negative, got %d", c.MaxQueue)
	case c.RateLimit < 0:
		return fmt.Errorf("rate-limit: must not be negative, got %g", c.RateLimit)
	case c.RateBurst < 0:
		return fmt.Errorf("rate-burst: must not be negative, got %d", c.RateBurst)
	case c.RequestTimeout <= 0:
		return fmt.Errorf("request-timeout: must be positive, got %s", c.RequestTimeout)
	case c.MaxDBConns < 0 || c.MaxReadConns < 0:
		return fmt.Errorf("max-db-conns, max-read-conns: must not be negative, got %d and %d", c.MaxDBConns, c.MaxReadConns)
	case c.MaxHeavy < 1:
		return fmt.Errorf("max-heavy: must be at least 1, got %d", c.MaxHeavy)
	case c.HeavyMaxRSS < 1<<20:
		return fmt.Errorf("heavy-max-rss: must be at least 1 MiB (1048576), got %d", c.HeavyMaxRSS)
	case c.MaxBatch < 1:
		return fmt.Errorf("max-batch: must be at least 1, got %d", c.MaxBatch)
	case c.MaxWait <= 0:
		return fmt.Errorf("max-wait: must be positive, got %s", c.MaxWait)
	case c.WaitInterval < time.Millisecond || c.WaitInterval > c.MaxWait:
		return fmt.Errorf("wait-interval: must be from 1ms to max-wait (%s), got %s", c.MaxWait, c.WaitInterval)
	case c.JobTimeout <= 0:
		return fmt.Errorf("job-timeout: must be positive, got %s", c.JobTimeout)
	case c.Lease < 30*time.Millisecond:
		return fmt.Errorf("lease: must be at least 30ms, got %s", c.Lease)
	case c.MaxAttempts < 1:
		return fmt.Errorf("max-attempts: must be at least 1, got %d", c.MaxAttempts)
	case c.MaxAtoms < 1 || c.MaxInstances < 1 || c.MaxCircuitNodes < 1:
		return errors.New("max-atoms, max-instances, max-circuit-nodes: must be at least 1")
	case c.GroundTimeout <= 0:
		return fmt.Errorf("ground-timeout: must be positive, got %s", c.GroundTimeout)
	case c.MaxCandidates < 1:
		return fmt.Errorf("max-candidates: must be at least 1, got %d", c.MaxCandidates)
	case c.ClassifyMaxHeap < 0:
		return fmt.Errorf("classify-max-heap: must not be negative, got %d", c.ClassifyMaxHeap)
	case c.ClassifyWorkers < 0:
		return fmt.Errorf("classify-workers: must not be negative, got %d", c.ClassifyWorkers)
	case c.ClassifyQuick < 0 || c.ClassifyGameTimeout < 0 || c.ClassifyCompareTimeout < 0:
		return errors.New("classify-quick, classify-game-timeout, classify-compare-timeout: must not be negative")
	case c.SessionTTL < time.Minute:
		return fmt.Errorf("session-ttl: must be at least 1m, got %s", c.SessionTTL)
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return fmt.Errorf("log-level: want debug, info, warn or error, got %q", c.LogLevel)
	}
	if _, err := api.ParseTrustedProxies(c.TrustedProxies); err != nil {
		return fmt.Errorf("trusted-proxies: %w", err)
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
