package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/internal/testgames"
)

var (
	compareTicTacToe = filepath.Join(testgames.Root(), "ggp-base-repo", "ticTacToe.kif")
	compareSum15     = filepath.Join(testgames.Root(), "ggp-base", "sum15.kif")
)

func TestCompareJSON(t *testing.T) {
	if _, err := os.Stat(compareTicTacToe); err != nil {
		t.Skipf("game corpus not available: %v", err)
	}
	code, out, errOut := runCmd(t, "compare", "--json", compareTicTacToe, compareSum15)
	if code != exitOK {
		t.Fatalf("compare: status %d, stderr %s", code, errOut)
	}
	var rep struct {
		Verdict string `json:"verdict"`
		Mapping struct {
			Roles        map[string]string `json:"roles"`
			Propositions map[string]string `json:"propositions"`
		} `json:"mapping"`
		Stats struct {
			Candidates int `json:"candidates"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("compare --json: %v\n%s", err, out)
	}
	if rep.Verdict != "equivalent" || len(rep.Mapping.Propositions) != 29 || rep.Stats.Candidates < 1 {
		t.Fatalf("compare --json = %+v", rep)
	}
}

// TestCompareDumpCNF writes the miters of a verified mapping and, when
// minisat is installed, checks that every one is UNSAT (exit status 20).
func TestCompareDumpCNF(t *testing.T) {
	if _, err := os.Stat(compareTicTacToe); err != nil {
		t.Skipf("game corpus not available: %v", err)
	}
	dir := t.TempDir()
	code, _, errOut := runCmd(t, "compare", "--dump-cnf", dir, compareTicTacToe, compareSum15)
	if code != exitOK || !strings.Contains(errOut, "miters") {
		t.Fatalf("compare --dump-cnf: status %d, stderr %s", code, errOut)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(index)), "\n")
	if len(lines) < 29 {
		t.Fatalf("index.txt has %d lines, want one per function pair", len(lines))
	}
	minisat, err := exec.LookPath("minisat")
	if err != nil {
		t.Skip("minisat not on PATH: only the files were checked")
	}
	for _, line := range lines {
		file, pair, _ := strings.Cut(line, "\t")
		err := exec.Command(minisat, "-verb=0", filepath.Join(dir, file)).Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 20 {
			t.Errorf("minisat %s (%s) = %v, want UNSAT (exit status 20)", file, pair, err)
		}
	}
}
