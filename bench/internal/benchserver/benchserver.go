// Package benchserver is what the bench harnesses (bench/load, bench/stress)
// share: building and starting the real server binary on a free loopback
// port, stopping it, refusing targets that are not on loopback, and
// latency percentiles.
package benchserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// Limits of Start and Stop.
const (
	// ListenTimeout bounds the wait for the server's "listening" log line.
	ListenTimeout = 60 * time.Second
	// StopTimeout is how long Stop waits after SIGTERM before SIGKILL.
	StopTimeout = 20 * time.Second
)

// Options configure Start.
type Options struct {
	// Root is the module root (ModuleRoot); cmd/server is built from it.
	Root string
	// Args are the server's flags after --addr and --data, which Start sets
	// (a free loopback port, a data directory in a temporary directory).
	Args []string
	// Env is added to the environment of the server.
	Env []string
	// Log receives the server's log lines; nil discards them.
	Log io.Writer
}

// Server is a running server process started by Start.
type Server struct {
	// Base is the server's base URL, http://127.0.0.1:PORT.
	Base   string
	cmd    *exec.Cmd
	dir    string
	exited chan struct{}
}

// Start builds cmd/server into a temporary directory and starts it on a
// free loopback port with a data directory there, and waits until it
// listens. The directory is removed by Stop, or by Start when it fails.
func Start(ctx context.Context, o Options) (s *Server, err error) {
	dir, err := os.MkdirTemp("", "gamequiv-bench-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	bin := filepath.Join(dir, "server")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/server")
	build.Dir = o.Root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./cmd/server: %v\n%s", err, out)
	}
	args := append([]string{"--addr", "127.0.0.1:0", "--data", filepath.Join(dir, "data")}, o.Args...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), o.Env...)
	logw := o.Log
	if logw == nil {
		logw = io.Discard
	}
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s = &Server{cmd: cmd, dir: dir, exited: make(chan struct{})}
	go func() {
		cmd.Wait()
		pw.Close()
		close(s.exited)
	}()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			fmt.Fprintln(logw, sc.Text())
			var l struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
			}
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "listening" {
				select {
				case addr <- l.Addr:
				default:
				}
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case a := <-addr:
		s.Base = "http://" + a
		return s, nil
	case <-s.exited:
		err = errors.New("server exited before listening (see its log)")
	case <-time.After(ListenTimeout):
		err = fmt.Errorf("server not listening within %v", ListenTimeout)
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.stop()
	return nil, err
}

// Pid is the server's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Exited is closed when the server process has exited.
func (s *Server) Exited() <-chan struct{} { return s.exited }

// ProcessState is the exited process's state (nil while it runs).
func (s *Server) ProcessState() *os.ProcessState {
	select {
	case <-s.exited:
		return s.cmd.ProcessState
	default:
		return nil
	}
}

// Stop ends the server (SIGTERM, then SIGKILL after StopTimeout) and
// removes its directory.
func (s *Server) Stop() {
	s.stop()
	os.RemoveAll(s.dir)
}

func (s *Server) stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(StopTimeout):
		s.cmd.Process.Kill()
		<-s.exited
	}
}

// ModuleRoot returns the directory of go.mod at or above the working
// directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory; run from the module")
		}
		dir = parent
	}
}

// CheckLoopback refuses a URL whose host is not a loopback address: the
// harnesses send their traffic to this machine only.
func CheckLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q: want scheme://HOST:PORT", raw)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q: only loopback addresses are targets", raw)
	}
	return nil
}

// Percentile is the p-th percentile of ds (nearest rank) in milliseconds;
// 0 for no durations.
func Percentile(ds []time.Duration, p int) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	i = min(max(i, 1), len(s)) - 1
	return float64(s[i].Microseconds()) / 1000
}
