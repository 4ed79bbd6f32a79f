package server_test

import (
	"errors"
	"flag"
	"io"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv/cmd/server/internal/server"
)

// config returns the default configuration changed by edit.
func config(edit func(*server.Config)) server.Config {
	c := server.DefaultConfig()
	if edit != nil {
		edit(&c)
	}
	return c
}

var parseConfigTests = []struct {
	name string
	args []string
	env  map[string]string
	want server.Config
}{
	{
		name: "Defaults",
		want: config(func(c *server.Config) {
			c.Addr, c.DataDir, c.Workers = "127.0.0.1:8080", "./data", max(1, runtime.NumCPU()-1)
			c.GCPercent, c.MemoryLimit, c.ServeProcs = 400, server.DefaultMemoryLimit(), 1
			c.WorkerProcess, c.WorkerNice, c.WorkerMaxRSS, c.HeavyMaxRSS = true, 10, 0, 1<<30
			c.ClassifyMaxHeap = 1 << 30
			c.MaxBody, c.MaxGDL, c.MaxQueue, c.JobTimeout, c.Classify = 4<<20, 1<<20, 1000, 5*time.Minute, true
			c.MaxBatch, c.MaxWait, c.WaitInterval, c.MaxHeavy = 100, time.Minute, 200*time.Millisecond, min(runtime.NumCPU(), 4)
		}),
	},
	{
		name: "Flags",
		args: []string{"--addr", "0.0.0.0:9000", "--data=/srv/gq", "--database-url", "postgres://u@h/db", "--workers", "3",
			"--gc-percent", "150", "--memory-limit", "1000000", "--serve-procs", "2", "--worker-process=false", "--worker-nice", "0", "--worker-max-rss", "-1", "--heavy-max-rss", "200000000", "--max-body", "1024", "--max-gdl", "512", "--max-queue", "7", "--rate-limit", "2.5", "--rate-burst", "4",
			"--request-timeout", "3s", "--max-heavy", "3", "--max-batch", "6", "--max-wait", "20s", "--wait-interval", "50ms", "--job-timeout", "90s", "--lease", "9s", "--max-attempts", "5",
			"--max-atoms", "100", "--max-instances", "200", "--max-circuit-nodes", "300", "--ground-timeout", "2s",
			"--max-candidates", "11", "--max-search-nodes", "-1", "--max-generator-words", "99", "--classify=false", "--classify-max-heap", "3000000", "--log-level", "debug",
			"--auth", "--public-read", "--session-ttl", "2h", "--secure-cookie", "--trusted-proxies", "10.0.0.0/8, 127.0.0.1"},
		want: server.Config{Addr: "0.0.0.0:9000", DataDir: "/srv/gq", DatabaseURL: "postgres://u@h/db", Workers: 3, GCPercent: 150, MemoryLimit: 1000000, ServeProcs: 2, WorkerMaxRSS: -1, HeavyMaxRSS: 200000000, ClassifyMaxHeap: 3000000,
			MaxBody: 1024, MaxGDL: 512, MaxQueue: 7, RateLimit: 2.5, RateBurst: 4,
			RequestTimeout: 3 * time.Second, MaxHeavy: 3, MaxBatch: 6, MaxWait: 20 * time.Second, WaitInterval: 50 * time.Millisecond, JobTimeout: 90 * time.Second, Lease: 9 * time.Second, MaxAttempts: 5,
			MaxAtoms: 100, MaxInstances: 200, MaxCircuitNodes: 300, GroundTimeout: 2 * time.Second,
			MaxCandidates: 11, MaxSearchNodes: -1, MaxGenWords: 99, Classify: false, LogLevel: "debug",
			Auth: true, PublicRead: true, SessionTTL: 2 * time.Hour, SecureCookie: true, TrustedProxies: "10.0.0.0/8, 127.0.0.1"},
	},
	{
		name: "Env",
		env: map[string]string{
			"GAMEQUIV_ADDR":                "127.0.0.1:0",
			"GAMEQUIV_DATA":                "/tmp/x",
			"GAMEQUIV_DATABASE_URL":        "postgresql://h/db",
			"GAMEQUIV_WORKERS":             "5",
			"GAMEQUIV_GC_PERCENT":          "0",
			"GAMEQUIV_MEMORY_LIMIT":        "0",
			"GAMEQUIV_SERVE_PROCS":         "0",
			"GAMEQUIV_WORKER_PROCESS":      "true",
			"GAMEQUIV_WORKER_NICE":         "19",
			"GAMEQUIV_WORKER_MAX_RSS":      "1073741824",
			"GAMEQUIV_HEAVY_MAX_RSS":       "536870912",
			"GAMEQUIV_CLASSIFY_MAX_HEAP":   "0",
			"GAMEQUIV_MAX_BODY":            "2048",
			"GAMEQUIV_MAX_GDL":             "1000",
			"GAMEQUIV_MAX_QUEUE":           "0",
			"GAMEQUIV_RATE_LIMIT":          "0",
			"GAMEQUIV_RATE_BURST":          "1",
			"GAMEQUIV_REQUEST_TIMEOUT":     "1m",
			"GAMEQUIV_MAX_HEAVY":           "1",
			"GAMEQUIV_MAX_BATCH":           "7",
			"GAMEQUIV_MAX_WAIT":            "2m",
			"GAMEQUIV_WAIT_INTERVAL":       "1s",
			"GAMEQUIV_JOB_TIMEOUT":         "10s",
			"GAMEQUIV_LEASE":               "1s",
			"GAMEQUIV_MAX_ATTEMPTS":        "2",
			"GAMEQUIV_MAX_ATOMS":           "10",
			"GAMEQUIV_MAX_INSTANCES":       "20",
			"GAMEQUIV_MAX_CIRCUIT_NODES":   "30",
			"GAMEQUIV_GROUND_TIMEOUT":      "4s",
			"GAMEQUIV_MAX_CANDIDATES":      "40",
			"GAMEQUIV_MAX_SEARCH_NODES":    "50",
			"GAMEQUIV_MAX_GENERATOR_WORDS": "60",
			"GAMEQUIV_CLASSIFY":            "false",
			"GAMEQUIV_LOG_LEVEL":           "warn",
			"GAMEQUIV_AUTH":                "true",
			"GAMEQUIV_PUBLIC_READ":         "1",
			"GAMEQUIV_SESSION_TTL":         "30m",
			"GAMEQUIV_SECURE_COOKIE":       "true",
			"GAMEQUIV_TRUSTED_PROXIES":     "::1",
		},
		want: server.Config{Addr: "127.0.0.1:0", DataDir: "/tmp/x", DatabaseURL: "postgresql://h/db", Workers: 5,
			WorkerProcess: true, WorkerNice: 19, WorkerMaxRSS: 1 << 30, HeavyMaxRSS: 1 << 29,
			MaxBody: 2048, MaxGDL: 1000, MaxQueue: 0, RateLimit: 0, RateBurst: 1,
			RequestTimeout: time.Minute, MaxHeavy: 1, MaxBatch: 7, MaxWait: 2 * time.Minute, WaitInterval: time.Second, JobTimeout: 10 * time.Second, Lease: time.Second, MaxAttempts: 2,
			MaxAtoms: 10, MaxInstances: 20, MaxCircuitNodes: 30, GroundTimeout: 4 * time.Second,
			MaxCandidates: 40, MaxSearchNodes: 50, MaxGenWords: 60, Classify: false, LogLevel: "warn",
			Auth: true, PublicRead: true, SessionTTL: 30 * time.Minute, SecureCookie: true, TrustedProxies: "::1"},
	},
	{
		name: "FlagWinsOverEnv",
		args: []string{"-addr", ":1", "-workers", "1", "-job-timeout", "1s"},
		env:  map[string]string{"GAMEQUIV_ADDR": ":2", "GAMEQUIV_WORKERS": "7", "GAMEQUIV_DATA": "d", "GAMEQUIV_JOB_TIMEOUT": "1h"},
		want: config(func(c *server.Config) { c.Addr, c.DataDir, c.Workers, c.JobTimeout = ":1", "d", 1, time.Second }),
	},
	{
		name: "EmptyEnvIgnored",
		env:  map[string]string{"GAMEQUIV_ADDR": "", "GAMEQUIV_WORKERS": "", "GAMEQUIV_MAX_QUEUE": ""},
		want: config(nil),
	},
}

func TestParseConfig(t *testing.T) {
	for _, tc := range parseConfigTests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := server.ParseConfig("server", tc.args, getenv(tc.env), io.Discard)
			if err != nil {
				t.Fatalf("ParseConfig(%q) error: %v", tc.args, err)
			}
			if got != tc.want {
				t.Errorf("ParseConfig(%q) = %+v, want %+v", tc.args, got, tc.want)
			}
		})
	}
}

var parseConfigErrorTests = []struct {
	name    string
	args    []string
	env     map[string]string
	wantErr string
}{
	{"ErrWorkersZero", []string{"--workers", "0"}, nil, "workers: must be at least 1"},
	{"ErrGCPercentNegative", []string{"--gc-percent", "-1"}, nil, "gc-percent, memory-limit: must not be negative"},
	{"ErrMemoryLimitNegative", nil, map[string]string{"GAMEQUIV_MEMORY_LIMIT": "-5"}, "gc-percent, memory-limit: must not be negative"},
	{"ErrWorkerNiceNegative", []string{"--worker-nice", "-1"}, nil, "worker-nice: must be from 0 to 19"},
	{"ErrWorkerNiceHuge", nil, map[string]string{"GAMEQUIV_WORKER_NICE": "20"}, "worker-nice: must be from 0 to 19"},
	{"ErrServeProcsNegative", []string{"--serve-procs", "-1"}, nil, "serve-procs: must be from 0 to 64"},
	{"ErrServeProcsHuge", nil, map[string]string{"GAMEQUIV_SERVE_PROCS": "65"}, "serve-procs: must be from 0 to 64"},
	{"ErrClassifyMaxHeapNegative", []string{"--classify-max-heap", "-1"}, nil, "classify-max-heap: must not be negative"},
	{"ErrHeavyMaxRSSZero", []string{"--heavy-max-rss", "0"}, nil, "heavy-max-rss: must be at least 1 MiB"},
	{"ErrHeavyMaxRSSEnvSmall", nil, map[string]string{"GAMEQUIV_HEAVY_MAX_RSS": "1000"}, "heavy-max-rss: must be at least 1 MiB"},
	{"ErrWorkersEnvNotNumber", nil, map[string]string{"GAMEQUIV_WORKERS": "many"}, "GAMEQUIV_WORKERS"},
	{"ErrWorkersFlagNotNumber", []string{"--workers", "many"}, nil, "invalid value"},
	{"ErrAddrEmpty", []string{"--addr", ""}, nil, "addr: must not be empty"},
	{"ErrDataEmpty", []string{"--data="}, nil, "data: must not be empty"},
	{"ErrDatabaseScheme", []string{"--database-url", "mysql://u:secret@h/db"}, nil, `unsupported scheme "mysql"`},
	{"ErrUnknownFlag", []string{"--port", "1"}, nil, "flag provided but not defined"},
	{"ErrMaxBodyZero", []string{"--max-body", "0"}, nil, "max-body: must be at least 1"},
	{"ErrMaxGDLZero", []string{"--max-gdl", "0"}, nil, "max-gdl: must be at least 1"},
	{"ErrMaxQueueNegative", nil, map[string]string{"GAMEQUIV_MAX_QUEUE": "-1"}, "max-queue: must not be negative"},
	{"ErrJobTimeoutZero", []string{"--job-timeout", "0s"}, nil, "job-timeout: must be positive"},
	{"ErrJobTimeoutEnv", nil, map[string]string{"GAMEQUIV_JOB_TIMEOUT": "soon"}, "GAMEQUIV_JOB_TIMEOUT"},
	{"ErrMaxHeavyZero", []string{"--max-heavy", "0"}, nil, "max-heavy: must be at least 1"},
	{"ErrMaxHeavyEnv", nil, map[string]string{"GAMEQUIV_MAX_HEAVY": "all"}, "GAMEQUIV_MAX_HEAVY"},
	{"ErrMaxBatchZero", []string{"--max-batch", "0"}, nil, "max-batch: must be at least 1"},
	{"ErrMaxBatchEnv", nil, map[string]string{"GAMEQUIV_MAX_BATCH": "lots"}, "GAMEQUIV_MAX_BATCH"},
	{"ErrMaxWaitZero", []string{"--max-wait", "0s"}, nil, "max-wait: must be positive"},
	{"ErrMaxWaitEnv", nil, map[string]string{"GAMEQUIV_MAX_WAIT": "long"}, "GAMEQUIV_MAX_WAIT"},
	{"ErrWaitIntervalZero", []string{"--wait-interval", "0s"}, nil, "wait-interval: must be from 1ms"},
	{"ErrWaitIntervalOverMaxWait", []string{"--max-wait", "1s", "--wait-interval", "2s"}, nil, "wait-interval"},
	{"ErrLeaseTiny", []string{"--lease", "1ms"}, nil, "lease: must be at least 30ms"},
	{"ErrMaxAtomsZero", []string{"--max-atoms", "0"}, nil, "max-atoms"},
	{"ErrMaxCandidatesZero", []string{"--max-candidates", "0"}, nil, "max-candidates"},
	{"ErrClassifyEnv", nil, map[string]string{"GAMEQUIV_CLASSIFY": "maybe"}, "GAMEQUIV_CLASSIFY"},
	{"ErrLogLevel", []string{"--log-level", "loud"}, nil, "log-level"},
	{"ErrAuthEnv", nil, map[string]string{"GAMEQUIV_AUTH": "sure"}, "GAMEQUIV_AUTH"},
	{"ErrSessionTTLShort", []string{"--session-ttl", "5s"}, nil, "session-ttl: must be at least 1m"},
	{"ErrTrustedProxies", nil, map[string]string{"GAMEQUIV_TRUSTED_PROXIES": "10.0.0.0/8,proxy.lan"}, `trusted proxy "proxy.lan"`},
	{"ErrRateLimitNegative", []string{"--rate-limit", "-1"}, nil, "rate-limit"},
	{"ErrArgument", []string{"extra"}, nil, "unexpected argument"},
}

func TestParseConfigErrors(t *testing.T) {
	for _, tc := range parseConfigErrorTests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := server.ParseConfig("server", tc.args, getenv(tc.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("ParseConfig(%q) error = %v, want one containing %q", tc.args, err, tc.wantErr)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("ParseConfig(%q) error %q leaks the database password", tc.args, err)
			}
		})
	}
}

// TestParseConfigHelp checks that --help documents every flag with its
// environment variable.
func TestParseConfigHelp(t *testing.T) {
	var out strings.Builder
	_, err := server.ParseConfig("server", []string{"--help"}, getenv(nil), &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("ParseConfig(--help) error = %v, want flag.ErrHelp", err)
	}
	want := []string{"127.0.0.1:8080", "./data", "4194304", "1000", "5m0s"}
	for _, s := range server.Settings() {
		if !regexp.MustCompile(`(?m)^  -` + s[0] + `( |$)`).MatchString(out.String()) {
			t.Errorf("--help output lacks flag -%s", s[0])
		}
		want = append(want, "[env "+s[1]+"]")
	}
	for _, want := range want {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help output lacks %q:\n%s", want, out.String())
		}
	}
}

func getenv(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

// TestServerMemoryLimit: the classifier's heap bound applies, and lowers
// the server's soft memory limit to a quarter above it, only while the
// classifier runs and the heavy work runs in child processes.
func TestServerMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		name                string
		classify, processes bool
		memory, heap, want  int64
	}{
		{"lowered", true, true, 8 << 30, 1 << 30, 5 << 28},
		{"memory limit below the bound", true, true, 512 << 20, 1 << 30, 512 << 20},
		{"runtime's limit", true, true, 0, 1 << 30, 5 << 28},
		{"no bound", true, true, 8 << 30, 0, 8 << 30},
		{"no classifier", false, true, 8 << 30, 1 << 30, 8 << 30},
		{"comparisons in the server's process", true, false, 8 << 30, 1 << 30, 8 << 30},
	} {
		c := server.Config{Classify: tc.classify, WorkerProcess: tc.processes, MemoryLimit: tc.memory, ClassifyMaxHeap: tc.heap}
		if got := c.ServerMemoryLimit(); got != tc.want {
			t.Errorf("%s: ServerMemoryLimit() = %d, want %d", tc.name, got, tc.want)
		}
		wantBound := tc.heap
		if !tc.classify || !tc.processes {
			wantBound = 0
		}
		if got := c.ClassifierMaxHeap(); got != wantBound {
			t.Errorf("%s: ClassifierMaxHeap() = %d, want %d", tc.name, got, wantBound)
		}
	}
}
