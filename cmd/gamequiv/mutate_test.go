package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/internal/testgames"
)

var mutateGame = filepath.Join(testgames.Root(), "ggp-base-repo", "ticTacToe.kif")

// runCmd runs the command line and returns its exit status and output.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, stdio{in: strings.NewReader(""), out: &out, err: &errb})
	return code, out.String(), errb.String()
}

var mutateTests = []struct {
	name     string
	args     []string
	wantCode int
	wantErr  string // substring of stderr
}{
	{name: "OK", args: []string{"mutate", mutateGame, "--seed", "3"}},
	{name: "OKOps", args: []string{"mutate", "--ops", "rename-symbols,fold", mutateGame}},
	{name: "OKDifferent", args: []string{"mutate", mutateGame, "--seed", "2", "--different"}, wantErr: "first difference"},
	{name: "ErrUnknownOp", args: []string{"mutate", mutateGame, "--ops", "bogus"}, wantCode: exitInvalid, wantErr: `unknown transformation "bogus"`},
	{name: "ErrNoGame", args: []string{"mutate"}, wantCode: exitInvalid},
	{name: "ErrNoFile", args: []string{"mutate", "does-not-exist.kif"}, wantCode: exitOther},
}

func TestMutate(t *testing.T) {
	for _, tc := range mutateTests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCmd(t, tc.args...)
			if code != tc.wantCode {
				t.Fatalf("gamequiv %v = exit %d, want %d; stderr %s", tc.args, code, tc.wantCode, errs)
			}
			if !strings.Contains(errs, tc.wantErr) {
				t.Errorf("stderr = %q, want it to contain %q", errs, tc.wantErr)
			}
			if code != exitOK {
				return
			}
			if _, err := grounding.Load(context.Background(), "variant", []byte(out), grounding.Limits{}); err != nil {
				t.Errorf("the printed variant does not ground: %v\n%s", err, out)
			}
		})
	}
}

func TestMutateSyntaxError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.kif")
	if err := os.WriteFile(path, []byte("(role x)\n(init (cell 1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCmd(t, "mutate", path)
	if code != exitInvalid || !strings.Contains(errs, "bad.kif:2:") {
		t.Errorf("gamequiv mutate bad.kif = exit %d, stderr %q; want %d and FILE:LINE:COL", code, errs, exitInvalid)
	}
}

func TestMutateJSONDeterministic(t *testing.T) {
	_, out1, _ := runCmd(t, "mutate", mutateGame, "--seed", "7", "--json")
	_, out2, _ := runCmd(t, "mutate", "--json", "--seed", "7", mutateGame)
	if out1 != out2 {
		t.Errorf("same seed, different output")
	}
	var rep mutateReport
	if err := json.Unmarshal([]byte(out1), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.GDL == "" || len(rep.Applied) == 0 || len(rep.Renaming) == 0 || rep.Seed != 7 {
		t.Errorf("report = %+v, want gdl, applied, renaming and seed 7", rep)
	}
}
