package main_test

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestMakeRunStops runs the Makefile's run target, with the e2e binary in
// place of the build, and checks that the server stops and frees its port
// and database when make gets SIGTERM (the server gets nothing from the
// sender) or when Ctrl-C sends SIGINT to the whole process group.
func TestMakeRunStops(t *testing.T) {
	makeTool, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make not found on PATH")
	}
	makefile, err := filepath.Abs("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	bin := serverBinary(t)
	for _, tc := range []struct {
		name  string
		group bool // signal the process group (Ctrl-C), not make alone
		sig   syscall.Signal
	}{
		{"SIGTERM", false, syscall.SIGTERM},
		{"CtrlC", true, syscall.SIGINT},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			// A go command that "builds" the server by copying the e2e binary.
			fakeGo := filepath.Join(dir, "go")
			script := "#!/bin/sh\nmkdir -p bin && cp '" + bin + "' bin/server\n"
			if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(makeTool, "-s", "-f", makefile, "-C", dir, "run", "GO="+fakeGo,
				"ARGS=--addr 127.0.0.1:0 --data "+filepath.Join(dir, "data")+" --classify=false --rate-limit 0")
			cmd.Env = append(os.Environ(), "GAMEQUIV_DATABASE_URL=")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pgid := cmd.Process.Pid
			t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
			addr := make(chan string, 1)
			go func() {
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					var l logLine
					if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "listening" {
						addr <- l.Addr
					}
				}
			}()
			var a string
			select {
			case a = <-addr:
			case <-time.After(60 * time.Second):
				t.Fatal("server not listening within 60s")
			}
			target := pgid
			if tc.group {
				target = -pgid
			}
			if err := syscall.Kill(target, tc.sig); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			select {
			case <-exited:
			case <-time.After(20 * time.Second):
				t.Fatal("make did not exit within 20s")
			}
			// make has exited; the server must be gone too.
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				c, err := net.Dial("tcp", a)
				if err != nil {
					break
				}
				c.Close()
				if time.Now().After(deadline) {
					t.Fatalf("the server still listens on %s after make exited", a)
				}
			}
		})
	}
}
