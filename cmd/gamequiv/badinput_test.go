package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The bad-input corpus (issue #6): testdata/bad/*.kif at the module root,
// each declaring its expected error on its first line, plus the huge cases
// generateBadInputs builds (they are not kept in git). Every case must fail
// with its documented exit status and a precise message, within
// badMaxTime and badMaxRSS, and never panic.
const (
	badMaxTime = 2 * time.Second
	badMaxRSS  = 1 << 30 // bytes
)

// badSlack multiplies the wall-time bound on a loaded machine; the CPU time
// (user + system) must stay under badMaxTime regardless.
var badSlack = flag.Float64("badinput.slack", 1, "multiply the 2 s wall-time bound of TestBadInputCLI by this factor")

// goodGame is a valid game to compare the bad ones with.
const goodGame = `(role robot)
(button a)
(<= (legal robot (press ?x)) (button ?x))
(<= (next (on ?x)) (does robot (press ?x)))
(<= terminal (true (on a)))
(<= (goal robot 100) (true (on a)))
(<= (goal robot 0) (not (true (on a))))
`

// badCase is one bad input and the error it must get.
type badCase struct {
	name string
	src  []byte
	want badExpect
}

// badExpect is parsed from a first line such as
//
//	; expect: exit=2 status=422 code=invalid_gdl pos=8:5 msg~=goal takes 2 argument
//
// exit is the CLI status, status and code the API's, pos (optional) the
// LINE:COL of the error, limit (optional) the limit's name, and msg~= a
// regular expression (the rest of the line) one error message must match.
type badExpect struct {
	exit, status int
	code         string
	line, col    int
	limit        string
	msg          *regexp.Regexp
}

var expectRE = regexp.MustCompile(`^; expect: (.*?) msg~=(.*)$`)

func parseExpect(name string, src []byte) (badExpect, error) {
	first, _, _ := bytes.Cut(src, []byte("\n"))
	m := expectRE.FindSubmatch(first)
	if m == nil {
		return badExpect{}, fmt.Errorf("%s: first line %q is not '; expect: ... msg~=REGEXP'", name, first)
	}
	var e badExpect
	var err error
	if e.msg, err = regexp.Compile(string(m[2])); err != nil {
		return e, fmt.Errorf("%s: msg: %v", name, err)
	}
	for _, kv := range strings.Fields(string(m[1])) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "exit":
			e.exit, err = strconv.Atoi(v)
		case "status":
			e.status, err = strconv.Atoi(v)
		case "code":
			e.code = v
		case "limit":
			e.limit = v
		case "pos":
			l, c, _ := strings.Cut(v, ":")
			if e.line, err = strconv.Atoi(l); err == nil {
				e.col, err = strconv.Atoi(c)
			}
		default:
			err = fmt.Errorf("unknown key %q", k)
		}
		if err != nil {
			return e, fmt.Errorf("%s: %s: %v", name, kv, err)
		}
	}
	if e.exit != 2 && e.exit != 3 || e.status != 422 && e.status != 413 || e.code == "" {
		return e, fmt.Errorf("%s: want exit 2 or 3, status 422 or 413 and a code", name)
	}
	return e, nil
}

// generatedBadInputs are the cases too large (or too empty) for a file with
// an expect line.
func generatedBadInputs() []badCase {
	mustRE := regexp.MustCompile
	deep := strings.Repeat("(", 100_000) + strings.Repeat(")", 100_000)
	deepTerm := "(role x)\n(init (cell " + strings.Repeat("(f ", 100_000) + "a" + strings.Repeat(")", 100_000) + "))\n"
	var big bytes.Buffer
	big.WriteString("(role x)\n")
	for i := 0; big.Len() < 50<<20; i++ {
		fmt.Fprintf(&big, "(cell %d %d blank)\n", i%1000, i)
	}
	return []badCase{
		{"gen_empty_file", nil, badExpect{exit: 2, status: 422, code: "invalid_gdl", line: 1, col: 1, msg: mustRE(`no roles`)}},
		{"gen_nesting_1e5", []byte(deep), badExpect{exit: 2, status: 422, code: "invalid_gdl", line: 1, col: 201, msg: mustRE(`nesting deeper than 200 levels`)}},
		{"gen_nesting_1e5_unclosed", []byte(strings.Repeat("(", 100_000)), badExpect{exit: 2, status: 422, code: "invalid_gdl", line: 1, col: 201, msg: mustRE(`nesting deeper than 200 levels`)}},
		{"gen_nesting_1e5_term", []byte(deepTerm), badExpect{exit: 2, status: 422, code: "invalid_gdl", line: 2, col: 607, msg: mustRE(`nesting deeper than 200 levels`)}},
		// 50 MB: over the parser's MaxBytes (16 MiB) at the CLI, over the
		// request body cap at the API.
		{"gen_text_50mb", big.Bytes(), badExpect{exit: 3, status: 413, code: "too_large", limit: "MaxBytes", msg: mustRE(`limit MaxBytes=16777216 exceeded|exceeds`)}},
	}
}

// badInputs reads the corpus and adds the generated cases.
func badInputs(t testing.TB) []badCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "bad", "*.kif"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []badCase
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".kif")
		want, err := parseExpect(name, src)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, badCase{name: name, src: src, want: want})
	}
	cases = append(cases, generatedBadInputs()...)
	if len(cases) < 40 {
		t.Fatalf("%d bad-input cases, want at least 40", len(cases))
	}
	return cases
}

// binary builds the gamequiv command once per test run.
var binary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "gamequiv-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "gamequiv")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// rusageWrapEnv, when set, makes the test binary a wrapper: it runs the
// command in the variable (arguments separated by \x1f), passes its exit
// status on and writes its rusage to the file named by rusageOutEnv.
// Linux reports, as the Maxrss of a child, the high-water mark of the
// process that exec'd it, so a command started straight from this test
// (which holds the 50 MB case) would show at least the test's own RSS; the
// small wrapper in between keeps the figure the command's own.
const (
	rusageWrapEnv = "GAMEQUIV_TEST_RUSAGE_WRAP"
	rusageOutEnv  = "GAMEQUIV_TEST_RUSAGE_OUT"
)

func TestMain(m *testing.M) {
	if args := os.Getenv(rusageWrapEnv); args != "" {
		os.Exit(rusageWrap(strings.Split(args, "\x1f"), os.Getenv(rusageOutEnv)))
	}
	flag.Parse()
	code := m.Run()
	if bin, err := binary(); err == nil {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

func rusageWrap(args []string, out string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "wrapper:", err)
		return 125
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	data := fmt.Sprintf("%d %d %d\n", ru.Utime.Nano(), ru.Stime.Nano(), ru.Maxrss)
	if err := os.WriteFile(out, []byte(data), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wrapper:", err)
		return 125
	}
	return cmd.ProcessState.ExitCode()
}

// runMeasured runs args through the rusage wrapper and returns the exit
// status, the CPU time (user + system) and the peak RSS in bytes.
func runMeasured(t *testing.T, stdout, stderr *bytes.Buffer, args ...string) (exit int, cpu time.Duration, rss int64) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "rusage")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), rusageWrapEnv+"="+strings.Join(args, "\x1f"), rusageOutEnv+"="+out)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		t.Fatalf("run: %v", err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no rusage (exit %d): %v\n%s", cmd.ProcessState.ExitCode(), err, stderr)
	}
	var ut, st, maxrss int64
	if _, err := fmt.Sscan(string(data), &ut, &st, &maxrss); err != nil {
		t.Fatalf("rusage %q: %v", data, err)
	}
	return cmd.ProcessState.ExitCode(), time.Duration(ut + st), maxrss * 1024 // Maxrss is in KiB on Linux
}

// TestBadInputCLI runs `gamequiv ground` on every bad input as a
// subprocess and checks the exit status, the FILE:LINE:COL message, the
// time and the peak resident memory (rusage Maxrss).
func TestBadInputCLI(t *testing.T) {
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var maxWall, maxCPU time.Duration
	var maxRSS int64
	var worstTime, worstRSS string
	for _, tc := range badInputs(t) {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".kif")
			if err := os.WriteFile(path, tc.src, 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			start := time.Now()
			exit, cpu, rss := runMeasured(t, &stdout, &stderr, bin, "ground", path)
			wall := time.Since(start)
			t.Logf("exit %d, %v wall, %v cpu, %.1f MiB max RSS", exit, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(rss)/(1<<20))
			if wall > maxWall {
				maxWall, worstTime = wall, tc.name
			}
			maxCPU = max(maxCPU, cpu)
			if rss > maxRSS {
				maxRSS, worstRSS = rss, tc.name
			}

			msg := stderr.String()
			if strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine ") {
				t.Fatalf("gamequiv panics:\n%s", msg)
			}
			if got := exit; got != tc.want.exit {
				t.Errorf("exit status %d, want %d; stderr:\n%s", got, tc.want.exit, msg)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout = %q, want nothing", stdout.String())
			}
			checkCLIMessage(t, path, msg, tc.want)
			if cpu > badMaxTime {
				t.Errorf("took %v of CPU, want at most %v", cpu, badMaxTime)
			}
			if limit := time.Duration(float64(badMaxTime) * *badSlack); wall > limit {
				t.Errorf("took %v, want at most %v (-badinput.slack=%g)", wall, limit, *badSlack)
			}
			if rss > badMaxRSS {
				t.Errorf("max RSS %d MiB, want at most %d MiB", rss>>20, badMaxRSS>>20)
			}
		})
	}
	t.Run("compare", func(t *testing.T) {
		// compare grounds both games first: a bad one gets the same status,
		// and its message (on stderr, or as the reason of an unknown
		// verdict on stdout for a limit).
		good := filepath.Join(dir, "good.kif")
		if err := os.WriteFile(good, []byte(goodGame), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, tc := range badInputs(t) {
			path := filepath.Join(dir, tc.name+".kif")
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(bin, "compare", path, good)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if err != nil && cmd.ProcessState == nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			out := stdout.String() + stderr.String()
			if strings.Contains(out, "panic") || strings.Contains(out, "goroutine ") {
				t.Fatalf("%s: gamequiv compare panics:\n%s", tc.name, out)
			}
			if got := cmd.ProcessState.ExitCode(); got != tc.want.exit || !tc.want.msg.MatchString(out) || !strings.Contains(out, path+":") && tc.want.exit == exitInvalid {
				t.Errorf("%s: compare exits %d, want %d with a message matching %q:\n%s", tc.name, got, tc.want.exit, tc.want.msg, out)
			}
		}
	})
	t.Logf("slowest: %s (%v wall, max cpu %v); largest: %s (%.1f MiB max RSS)",
		worstTime, maxWall.Round(time.Millisecond), maxCPU.Round(time.Millisecond), worstRSS, float64(maxRSS)/(1<<20))
}

// checkCLIMessage checks that one line of stderr is the expected error:
// FILE:LINE:COL: message for invalid input, a message naming the limit for
// exit status 3.
func checkCLIMessage(t *testing.T, path, stderr string, want badExpect) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if strings.HasPrefix(line, "warning: ") {
			continue
		}
		if want.exit == exitLimit {
			if want.msg.MatchString(line) && strings.Contains(line, want.limit) {
				return
			}
			continue
		}
		rest, ok := strings.CutPrefix(line, path+":")
		if !ok {
			t.Errorf("error line %q does not start with %s:", line, path)
			continue
		}
		var l, c int
		if _, err := fmt.Sscanf(rest, "%d:%d:", &l, &c); err != nil {
			t.Errorf("error line %q has no LINE:COL", line)
			continue
		}
		if want.line != 0 && (l != want.line || c != want.col) {
			continue
		}
		if _, msg, _ := strings.Cut(strings.TrimPrefix(rest, fmt.Sprintf("%d:%d:", l, c)), " "); want.msg.MatchString(msg) {
			return
		}
	}
	pos := "any position"
	if want.line != 0 {
		pos = fmt.Sprintf("%d:%d", want.line, want.col)
	}
	t.Errorf("no error at %s matching %q (limit %q) in stderr:\n%s", pos, want.msg, want.limit, stderr)
}
