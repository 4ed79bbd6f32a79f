// Command gamequiv decides whether General Game Playing games are the same
// game in disguise. See `gamequiv help` and INTERFACES.md.
//
// Exit status: 0 success (any verdict), 2 invalid input, 3 a limit was hit,
// 1 anything else.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// Exit statuses shared by every subcommand.
const (
	exitOK      = 0
	exitOther   = 1
	exitInvalid = 2
	exitLimit   = 3
)

// command is one subcommand: it parses its own arguments and returns the exit status.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, io stdio) int
}

// stdio is a subcommand's standard streams, replaceable in tests.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// commands is filled by the init functions of the subcommand files.
var commands = map[string]command{}

func register(name, summary string, run func(ctx context.Context, args []string, io stdio) int) {
	commands[name] = command{summary: summary, run: run}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr})
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, io stdio) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(io.out)
		if len(args) == 0 {
			return exitInvalid
		}
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(io.err, "gamequiv: unknown command %q\n", args[0])
		usage(io.err)
		return exitInvalid
	}
	return cmd.run(ctx, args[1:], io)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: gamequiv COMMAND [flags] ARGS  (gamequiv COMMAND -h for its flags)")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-11s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nexit status: 0 success (any verdict), 2 invalid input, 3 a limit was hit, 1 anything else")
}
