package server_test

import (
	"errors"
	"flag"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/cmd/server/internal/server"
)

var parseConfigTests = []struct {
	name string
	args []string
	env  map[string]string
	want server.Config
}{
	{
		name: "Defaults",
		want: server.Config{Addr: "127.0.0.1:8080", DataDir: "./data", Workers: runtime.NumCPU()},
	},
	{
		name: "Flags",
		args: []string{"--addr", "0.0.0.0:9000", "--data=/srv/gq", "--database-url", "postgres://u@h/db", "--workers", "3"},
		want: server.Config{Addr: "0.0.0.0:9000", DataDir: "/srv/gq", DatabaseURL: "postgres://u@h/db", Workers: 3},
	},
	{
		name: "Env",
		env: map[string]string{
			"GAMEQUIV_ADDR":         "127.0.0.1:0",
			"GAMEQUIV_DATA":         "/tmp/x",
			"GAMEQUIV_DATABASE_URL": "postgresql://h/db",
			"GAMEQUIV_WORKERS":      "5",
		},
		want: server.Config{Addr: "127.0.0.1:0", DataDir: "/tmp/x", DatabaseURL: "postgresql://h/db", Workers: 5},
	},
	{
		name: "FlagWinsOverEnv",
		args: []string{"-addr", ":1", "-workers", "1"},
		env:  map[string]string{"GAMEQUIV_ADDR": ":2", "GAMEQUIV_WORKERS": "7", "GAMEQUIV_DATA": "d"},
		want: server.Config{Addr: ":1", DataDir: "d", Workers: 1},
	},
	{
		name: "EmptyEnvIgnored",
		env:  map[string]string{"GAMEQUIV_ADDR": "", "GAMEQUIV_WORKERS": ""},
		want: server.Config{Addr: "127.0.0.1:8080", DataDir: "./data", Workers: runtime.NumCPU()},
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
	{"ErrWorkersEnvNotNumber", nil, map[string]string{"GAMEQUIV_WORKERS": "many"}, "GAMEQUIV_WORKERS"},
	{"ErrWorkersFlagNotNumber", []string{"--workers", "many"}, nil, "invalid value"},
	{"ErrAddrEmpty", []string{"--addr", ""}, nil, "addr: must not be empty"},
	{"ErrDataEmpty", []string{"--data="}, nil, "data: must not be empty"},
	{"ErrDatabaseScheme", []string{"--database-url", "mysql://u:secret@h/db"}, nil, `unsupported scheme "mysql"`},
	{"ErrUnknownFlag", []string{"--port", "1"}, nil, "flag provided but not defined"},
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
	for _, want := range []string{
		"-addr", "GAMEQUIV_ADDR", "127.0.0.1:8080",
		"-data", "GAMEQUIV_DATA", "./data",
		"-database-url", "GAMEQUIV_DATABASE_URL",
		"-workers", "GAMEQUIV_WORKERS",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help output lacks %q:\n%s", want, out.String())
		}
	}
}

func getenv(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}
