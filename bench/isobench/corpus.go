package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gamequiv/gamequiv/groundgraph"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
)

// groundChildFlag makes the program ground one game and write its ground
// graph to a file, then exit: the parent runs every game in such a child
// process, so that a game that exceeds its timeout (or its memory) is simply
// killed and skipped, whether or not grounding notices its context.
const groundChildFlag = "-internal-ground"

// wireGraph is a ground graph as passed from the child to the parent.
type wireGraph struct {
	N      int
	Colors []int32
	Arcs   [][2]int32
	Build  time.Duration // grounding.Load + groundgraph.Build
	Err    string        // in the cache only: why the game was skipped
}

// groundChild is the child process: args are the game file and the output
// file.
func groundChild(args []string) error {
	if len(args) != 2 {
		return errors.New("usage: isobench -internal-ground GAME.kif OUT")
	}
	src, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	ctx := context.Background()
	start := time.Now()
	p, err := grounding.Load(ctx, filepath.Base(args[0]), src, grounding.Limits{})
	if err != nil {
		return fmt.Errorf("ground: %w", err)
	}
	g, err := groundgraph.Build(ctx, p, groundgraph.Options{})
	if err != nil {
		return fmt.Errorf("groundgraph: %w", err)
	}
	w := wireGraph{N: g.Order(), Colors: make([]int32, g.Order()), Build: time.Since(start)}
	for v := 0; v < g.Order(); v++ {
		w.Colors[v] = g.Color(v)
		for _, u := range g.Out(v) {
			w.Arcs = append(w.Arcs, [2]int32{int32(v), u})
		}
	}
	return writeWire(args[1], &w)
}

// groundResult is the outcome of grounding one game.
type groundResult struct {
	File  string
	G     *isomorph.Graph
	Build time.Duration
	Err   string
}

// groundCorpus grounds every *.kif file of dirs, each in a child process
// with the given timeout, and returns the results (failures included) in
// file order.
func groundCorpus(ctx context.Context, dirs []string, tmp, cache string, timeout time.Duration, logf func(string, ...any)) ([]groundResult, error) {
	var files []string
	for _, d := range dirs {
		m, err := filepath.Glob(filepath.Join(d, "*.kif"))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	return groundFiles(ctx, files, tmp, cache, timeout, logf)
}

// groundFiles grounds each file in a child process with the given timeout.
//
// With a non-empty cache directory (a development aid, off by default), a
// game's graph or failure is stored there under the hash of its source and
// the timeout, and read back on later runs instead of grounding again: such
// a graph is stale once grounding or groundgraph change.
func groundFiles(ctx context.Context, files []string, tmp, cache string, timeout time.Duration, logf func(string, ...any)) ([]groundResult, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if cache != "" {
		// The cache is written with renames and writes whose errors are
		// ignored (it is only an aid), so its directory must exist.
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
	}
	out := make([]groundResult, 0, len(files))
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res := groundResult{File: f}
		var cached string
		if cache != "" {
			src, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			sum := sha256.Sum256(append(src, timeout.String()...))
			cached = filepath.Join(cache, hex.EncodeToString(sum[:12])+".gob")
			if w, err := readWire(cached); err == nil {
				res.Build, res.Err = w.Build, w.Err
				if w.Err == "" {
					res.G, err = isomorph.New(w.N, w.Colors, w.Arcs)
					if err != nil {
						return nil, err
					}
				}
				logResult(logf, res, "cached")
				out = append(out, res)
				continue
			}
		}
		path := filepath.Join(tmp, fmt.Sprintf("ground-%03d-%d.gob", i, len(files)))
		cctx, cancel := context.WithTimeout(ctx, timeout)
		cmd := exec.CommandContext(cctx, exe, groundChildFlag, f, path)
		cmd.WaitDelay = time.Second
		dieWithParent(cmd)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		err := cmd.Run()
		timedOut := cctx.Err() != nil
		cancel()
		switch {
		case timedOut:
			res.Err = fmt.Sprintf("timeout after %v", timeout)
		case err != nil:
			res.Err = strings.TrimSpace(lastLine(stderr.String()))
			if res.Err == "" {
				res.Err = err.Error()
			}
		default:
			w, err := readWire(path)
			if err == nil {
				res.G, err = isomorph.New(w.N, w.Colors, w.Arcs)
				res.Build = w.Build
			}
			if err != nil {
				res.Err = err.Error()
			}
		}
		if cached != "" {
			if res.Err != "" {
				writeWire(cached, &wireGraph{Err: res.Err})
			} else {
				os.Rename(path, cached)
			}
		}
		os.Remove(path)
		logResult(logf, res, fmt.Sprintf("%.1fs", time.Since(start).Seconds()))
		out = append(out, res)
	}
	return out, nil
}

func logResult(logf func(string, ...any), res groundResult, note string) {
	if res.Err != "" {
		logf("ground %-40s FAIL %s (%s)", gameName(res.File), res.Err, note)
	} else {
		logf("ground %-40s %6d vertices %7d arcs (%s)", gameName(res.File), res.G.Order(), res.G.Arcs(), note)
	}
}

func readWire(path string) (*wireGraph, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var w wireGraph
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return nil, err
	}
	return &w, nil
}

func writeWire(path string, w *wireGraph) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(w); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// gameName names a corpus game by its directory and file: "ggp-base/chess".
func gameName(file string) string {
	return filepath.Base(filepath.Dir(file)) + "/" + strings.TrimSuffix(filepath.Base(file), ".kif")
}
