package gamequiv_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// modulePath is the import path of this module.
const modulePath = "github.com/gamequiv/gamequiv"

// listedPackage is the part of `go list -json` output that the rules read.
type listedPackage struct {
	ImportPath string
	Name       string
	Standard   bool
	Imports    []string // direct imports of the non-test files
	Deps       []string // all transitive dependencies of the non-test files
}

// importRule constrains the packages of one top-level folder of the module
// and the folders below it.
type importRule struct {
	// Dir is the top-level folder, e.g. "grounding" or "cmd/server".
	Dir string
	// Except lists folders below Dir that the rule leaves alone.
	Except []string
	// Allow, if not nil, lists everything the package may import directly
	// besides the standard library and its own folder: module folders
	// ("grounding") and external import path prefixes ("github.com/x/y").
	Allow []string
	// DenyDirect lists prefixes the package must not import directly.
	DenyDirect []string
	// DenyDeps lists prefixes the package must not depend on at all, even
	// through other packages.
	DenyDeps []string
}

// Import path prefixes named by the rules. A module folder is written without
// the module path ("store"); an external or standard path is written in full.
const (
	gin       = "github.com/gin-gonic/gin"
	gorm      = "gorm.io"
	gophersat = "github.com/crillab/gophersat"
	prom      = "github.com/prometheus"
	// domain is the root package: the domain types and interfaces.
	domain = "."
)

// service lists what the algorithm packages and equiv never depend on.
var service = []string{gin, "github.com/gin-contrib", gorm, "net/http", "database/sql", "store", "api", "web", "migrations"}

// importRules is the dependency table of ARCHITECTURE.md and STYLE.md §2.
var importRules = []importRule{
	{Dir: "grounding", Allow: []string{}, DenyDeps: service},
	{Dir: "isomorph", Allow: []string{}, DenyDeps: service},
	// groundgraph needs satcheck's exact semantic supports for its dependency edges.
	{Dir: "groundgraph", Allow: []string{"grounding", "isomorph", "satcheck"}, DenyDeps: service},
	{Dir: "mutate", Allow: []string{"grounding"}, DenyDeps: service},
	{Dir: "gamegen", Allow: []string{}, DenyDeps: service},
	{Dir: "satcheck", Allow: []string{"grounding", gophersat}, DenyDeps: service},
	// board reads proposition names to draw boards; grounding splits them.
	{Dir: "board", Allow: []string{"grounding"}, DenyDeps: service},
	{Dir: "equiv", Allow: []string{"grounding", "groundgraph", "isomorph", "satcheck"}, DenyDeps: service},
	// The domain layer (doc.go): the root package holds types, errors and
	// interfaces and imports only the standard library; the service layer
	// implements the operations over the storage interfaces and the
	// algorithms, and knows no adapter (HTTP, SQL, metrics).
	{Dir: domain, Allow: []string{}},
	{Dir: "service", Allow: []string{domain, "equiv", "grounding"}, DenyDeps: append([]string{prom, "telemetry"}, service...)},
	{Dir: "telemetry", Allow: []string{domain, "equiv", prom}, DenyDeps: []string{gin, gorm, "store", "api", "web", "service"}},
	{Dir: "store", DenyDeps: []string{gin, "api", "equiv", "web", "net/http", "service", "telemetry"}},
	{Dir: "migrations", DenyDeps: []string{gin, "api", "equiv", "web", "store"}},
	// api reads through the domain's storage interfaces and changes data
	// through the service layer: it never names package store.
	{Dir: "api", DenyDirect: []string{gorm, "database/sql", "migrations", "store"}},
	// web renders views of domain types and serves embedded files: api
	// fills the views.
	{Dir: "web", Allow: []string{domain}, DenyDeps: []string{gin, gorm, "database/sql", "store", "api", "equiv", "migrations", "service"}},
	// The comparison workers (service/worker) and the classifier
	// (service/classes) are policy: they live in the service layer and fall
	// under its rule above. The server only wires adapters: it reads
	// configuration, opens the store and starts the service's loops, and
	// runs no algorithm of its own (equiv and grounding give it only
	// their Limits).
	{Dir: "cmd/server", Allow: []string{domain, "api", "store", "telemetry", "service", "equiv", "grounding", gin}},
	// Any other package below the server would be policy outside the
	// service layer.
	{Dir: "cmd/server/internal", Except: []string{"cmd/server/internal/server"}, DenyDeps: []string{domain, "equiv", "service", "api", "store", "web", gin, gorm}},
	// The command line is no HTTP client of its own server.
	{Dir: "cmd/gamequiv", DenyDeps: []string{"api", "web", gin}},
}

// ginAllowed lists the only module folders that may import gin directly.
var ginAllowed = []string{"api", "cmd/server"}

// forbiddenNames are package names that say nothing about what a package does.
var forbiddenNames = []string{"util", "utils", "common", "models", "helpers"}

// TestImportRules lists every package of the module with `go list` and fails
// on any import the rules forbid. Folders without Go files are not listed
// and so are skipped.
func TestImportRules(t *testing.T) {
	pkgs := goListDeps(t)
	var own int
	for _, p := range pkgs {
		if isOwn(p.ImportPath) {
			own++
		}
	}
	if own == 0 {
		t.Fatalf("go list found no package of %s", modulePath)
	}
	for _, v := range checkImports(pkgs) {
		t.Error(v)
	}
}

// goListDeps runs `go list -deps -json ./...` in the module root and returns
// every package it prints: the module's own and all their dependencies.
func goListDeps(t *testing.T) []listedPackage {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found on PATH")
	}
	// -e: a package that does not compile yet is still listed with its imports.
	cmd := exec.Command(goTool, "list", "-e", "-deps", "-json=ImportPath,Name,Standard,Imports,Deps", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// checkImports returns one message per forbidden import among pkgs, in the
// order of pkgs.
func checkImports(pkgs []listedPackage) []string {
	standard := make(map[string]bool)
	byPath := make(map[string]*listedPackage)
	for i, p := range pkgs {
		byPath[p.ImportPath] = &pkgs[i]
		if p.Standard {
			standard[p.ImportPath] = true
		}
	}
	var bad []string
	for _, p := range pkgs {
		if !isOwn(p.ImportPath) {
			continue
		}
		rel := relPath(p.ImportPath)
		name := p.Name
		if name == "" {
			name = rel[strings.LastIndex(rel, "/")+1:]
		}
		if slices.Contains(forbiddenNames, name) || slices.Contains(forbiddenNames, rel[strings.LastIndex(rel, "/")+1:]) {
			bad = append(bad, fmt.Sprintf("%s: package name %q says nothing; name it after what it provides", rel, name))
		}
		for _, imp := range p.Imports {
			if matches(imp, gin) && !slices.ContainsFunc(ginAllowed, func(dir string) bool { return inDir(rel, dir) }) {
				bad = append(bad, fmt.Sprintf("%s imports %s: only %s may import gin", rel, imp, strings.Join(ginAllowed, " and ")))
			}
		}
		for _, r := range importRules {
			if !inDir(rel, r.Dir) || slices.ContainsFunc(r.Except, func(e string) bool { return inDir(rel, e) }) {
				continue
			}
			for _, imp := range p.Imports {
				if r.Allow != nil && !standard[imp] && !inDir(relPath(imp), r.Dir) &&
					!slices.ContainsFunc(r.Allow, func(a string) bool { return matches(imp, a) }) {
					bad = append(bad, fmt.Sprintf("%s imports %s: %s may import only the standard library%s", rel, imp, r.Dir, listSuffix(r.Allow)))
				}
				for _, d := range r.DenyDirect {
					if matches(imp, d) {
						bad = append(bad, fmt.Sprintf("%s imports %s: %s must not import %s", rel, imp, r.Dir, d))
					}
				}
			}
			for _, d := range r.DenyDeps {
				i := slices.IndexFunc(p.Deps, func(dep string) bool { return matches(dep, d) })
				if i < 0 {
					continue
				}
				chain := ""
				if path := importChain(byPath, p.ImportPath, d); len(path) > 2 {
					chain = " (" + strings.Join(path, " -> ") + ")"
				}
				bad = append(bad, fmt.Sprintf("%s depends on %s%s: %s must not depend on %s, even indirectly", rel, p.Deps[i], chain, r.Dir, d))
			}
		}
	}
	return bad
}

// importChain returns the shortest chain of imports, as module-relative
// paths, that leads from the package from to a package that pattern names,
// or nil if the listed packages show none.
func importChain(byPath map[string]*listedPackage, from, pattern string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur != from && matches(cur, pattern) {
			var path []string
			for p := cur; p != ""; p = prev[p] {
				path = append(path, relPath(p))
			}
			slices.Reverse(path)
			return path
		}
		p := byPath[cur]
		if p == nil {
			continue
		}
		for _, imp := range p.Imports {
			if _, seen := prev[imp]; !seen {
				prev[imp] = cur
				queue = append(queue, imp)
			}
		}
	}
	return nil
}

// isOwn reports whether path is a package of this module.
func isOwn(path string) bool {
	return path == modulePath || strings.HasPrefix(path, modulePath+"/")
}

// relPath returns path relative to the module ("." for the root), or path
// itself if it is not in the module.
func relPath(path string) string {
	if path == modulePath {
		return "."
	}
	if rest, ok := strings.CutPrefix(path, modulePath+"/"); ok {
		return rest
	}
	return path
}

// inDir reports whether the module-relative path rel is dir or below it.
func inDir(rel, dir string) bool {
	return rel == dir || strings.HasPrefix(rel, dir+"/")
}

// matches reports whether the import path imp is named by pattern: a module
// folder (no dot in its first element, e.g. "store") or an import path prefix
// (e.g. "gorm.io", "net/http").
func matches(imp, pattern string) bool {
	if isOwn(imp) {
		return inDir(relPath(imp), pattern)
	}
	return imp == pattern || strings.HasPrefix(imp, pattern+"/")
}

func listSuffix(allow []string) string {
	if len(allow) == 0 {
		return ""
	}
	return " and " + strings.Join(allow, ", ")
}

// checkImportsTests feed checkImports made-up package lists, so the rules are
// known to bite even for packages that do not exist yet. Own packages are
// written relative to the module; deps are the transitive dependencies.
var checkImportsTests = []struct {
	name string
	pkgs []listedPackage
	want []string // one substring per expected message, in order
}{
	{
		name: "OK",
		pkgs: []listedPackage{
			own("grounding", []string{"fmt", "grounding/internal/lex"}, "fmt", "grounding/internal/lex"),
			own("grounding/internal/lex", []string{"fmt"}, "fmt"),
			own("isomorph", []string{"context", "iter"}, "context", "iter"),
			own("groundgraph", []string{"grounding", "isomorph"}, "grounding", "isomorph", "fmt"),
			own("satcheck", []string{"grounding", gophersat + "/solver"}, "grounding", gophersat+"/solver"),
			own("equiv", []string{"grounding", "groundgraph", "isomorph", "satcheck"}, "satcheck", gophersat+"/solver"),
			own("store", []string{"gorm.io/gorm", "migrations"}, "gorm.io/gorm", "database/sql"),
			own("api", []string{gin, domain, "service", "equiv", "web"}, gin, domain, "service"),
			own("web", []string{"fmt", domain}, "fmt", domain),
			own(domain, []string{"context"}, "context"),
			own("service", []string{domain, "equiv", "grounding"}, domain, "equiv", "grounding", gophersat+"/solver"),
			own("telemetry", []string{domain, prom + "/client_golang/prometheus"}, domain, prom+"/client_golang/prometheus", "net/http"),
			own("service/worker", []string{domain, "equiv"}, domain, "equiv", gophersat+"/solver"),
			own("service/classes", []string{domain, "equiv", "service"}, domain, "equiv", "service"),
			own("cmd/server/internal/server", []string{"api", "store", "telemetry", "service/worker", "service/classes", "equiv", "grounding"}, gin, "api", "store", "net/http"),
			own("cmd/server", []string{"cmd/server/internal/server", "service/worker"}, gin),
		},
	},
	{
		name: "ErrGroundingImportsIsomorph",
		pkgs: []listedPackage{own("grounding", []string{"isomorph"}, "isomorph")},
		want: []string{"grounding imports " + modulePath + "/isomorph"},
	},
	{
		name: "ErrIsomorphImportsExternal",
		pkgs: []listedPackage{own("isomorph", []string{"github.com/google/go-cmp/cmp"})},
		want: []string{"isomorph imports github.com/google/go-cmp/cmp: isomorph may import only the standard library"},
	},
	{
		name: "ErrGroundingUsesNetHTTP",
		pkgs: []listedPackage{own("grounding/internal/fetch", []string{"net/http"}, "net/http", "net/url")},
		want: []string{"grounding/internal/fetch depends on net/http"},
	},
	{
		name: "ErrIsomorphIndirectNetHTTP",
		pkgs: []listedPackage{
			own("isomorph", []string{"expvar"}, "expvar", "net/http"),
			{ImportPath: "expvar", Name: "expvar", Standard: true, Imports: []string{"net/http"}},
		},
		want: []string{"isomorph depends on net/http (isomorph -> expvar -> net/http)"},
	},
	{
		name: "ErrSatcheckIndirectDatabaseSQL",
		pkgs: []listedPackage{own("satcheck", []string{gophersat + "/solver"}, gophersat+"/solver", "database/sql/driver")},
		want: []string{"satcheck depends on database/sql/driver"},
	},
	{
		name: "ErrSatcheckImportsIsomorph",
		pkgs: []listedPackage{own("satcheck", []string{"isomorph"}, "isomorph")},
		want: []string{"satcheck imports " + modulePath + "/isomorph"},
	},
	{
		name: "ErrEquivImportsStore",
		pkgs: []listedPackage{own("equiv", []string{"store"}, "store", "gorm.io/gorm")},
		want: []string{"equiv imports " + modulePath + "/store", "depends on gorm.io/gorm", "depends on " + modulePath + "/store"},
	},
	{
		name: "ErrEquivImportsGophersatDirectly",
		pkgs: []listedPackage{own("equiv", []string{gophersat + "/solver"}, gophersat+"/solver")},
		want: []string{"equiv imports " + gophersat + "/solver"},
	},
	{
		name: "ErrStoreImportsGin",
		pkgs: []listedPackage{own("store", []string{gin}, gin)},
		want: []string{"only api and cmd/server may import gin", "store depends on " + gin},
	},
	{
		name: "ErrStoreDependsOnEquiv",
		pkgs: []listedPackage{own("store/storetest", []string{"equiv"}, "equiv")},
		want: []string{"store/storetest depends on " + modulePath + "/equiv"},
	},
	{
		name: "ErrAPIImportsGorm",
		pkgs: []listedPackage{own("api", []string{gin, "gorm.io/gorm"}, gin, "gorm.io/gorm")},
		want: []string{"api imports gorm.io/gorm: api must not import gorm.io"},
	},
	{
		name: "ErrGinOutsideAPI",
		pkgs: []listedPackage{own("web", []string{gin + "/render"}, gin)},
		want: []string{
			"web imports " + gin + "/render: only api and cmd/server may import gin",
			"web imports " + gin + "/render: web may import only the standard library",
			"web depends on " + gin,
		},
	},
	{
		name: "ErrDomainImportsStore",
		pkgs: []listedPackage{own(domain, []string{"store"}, "store", "gorm.io/gorm")},
		want: []string{". imports " + modulePath + "/store: . may import only the standard library"},
	},
	{
		name: "ErrServiceImportsStore",
		pkgs: []listedPackage{own("service", []string{domain, "store"}, domain, "store", "gorm.io/gorm")},
		want: []string{
			"service imports " + modulePath + "/store: service may import only the standard library and ., equiv, grounding",
			"service depends on gorm.io/gorm",
			"service depends on " + modulePath + "/store",
		},
	},
	{
		name: "ErrServiceUsesMetrics",
		pkgs: []listedPackage{own("service", []string{domain, "telemetry"}, domain, "telemetry", prom+"/client_golang/prometheus", "net/http")},
		want: []string{
			"service imports " + modulePath + "/telemetry",
			"service depends on " + prom,
			"service depends on " + modulePath + "/telemetry",
			"service depends on net/http",
		},
	},
	{
		name: "ErrAPIImportsStore",
		pkgs: []listedPackage{own("api", []string{gin, "store"}, gin, "store")},
		want: []string{"api imports " + modulePath + "/store: api must not import store"},
	},
	{
		name: "ErrWorkerUsesMetrics",
		pkgs: []listedPackage{own("service/worker", []string{domain, "equiv", "telemetry"}, domain, "equiv", "telemetry", prom+"/client_golang/prometheus", "net/http")},
		want: []string{
			"service/worker imports " + modulePath + "/telemetry: service may import only the standard library and ., equiv, grounding",
			"service/worker depends on " + prom,
			"service/worker depends on " + modulePath + "/telemetry",
			"service/worker depends on net/http",
		},
	},
	{
		name: "ErrClassesImportsStore",
		pkgs: []listedPackage{own("service/classes", []string{domain, "store"}, "store", "gorm.io/gorm", "database/sql")},
		want: []string{
			"service/classes imports " + modulePath + "/store: service may import only",
			"service/classes depends on gorm.io/gorm",
			"service/classes depends on database/sql",
			"service/classes depends on " + modulePath + "/store",
		},
	},
	{
		name: "ErrServerRunsAlgorithm",
		pkgs: []listedPackage{own("cmd/server/internal/server", []string{"api", "store", "satcheck"}, "api", "store", "satcheck")},
		want: []string{"cmd/server/internal/server imports " + modulePath + "/satcheck: cmd/server may import only the standard library and ., api, store"},
	},
	{
		name: "ErrServerMainImportsMutate",
		pkgs: []listedPackage{own("cmd/server", []string{"cmd/server/internal/server", "mutate"}, "mutate")},
		want: []string{"cmd/server imports " + modulePath + "/mutate: cmd/server may import only"},
	},
	{
		name: "ErrPolicyBackInServer",
		pkgs: []listedPackage{own("cmd/server/internal/worker", []string{domain, "equiv"}, domain, "equiv")},
		want: []string{
			"cmd/server/internal/worker depends on " + modulePath + ": cmd/server/internal must not depend on .",
			"cmd/server/internal/worker depends on " + modulePath + "/equiv",
		},
	},
	{
		name: "ErrNewInternalPackageImportsAPI",
		pkgs: []listedPackage{own("cmd/server/internal/sweeper", []string{"api"}, "api")},
		want: []string{"cmd/server/internal/sweeper depends on " + modulePath + "/api"},
	},
	{
		name: "ErrWebImportsService",
		pkgs: []listedPackage{own("web", []string{"service"}, "service", domain)},
		want: []string{"web imports " + modulePath + "/service: web may import only the standard library and .", "web depends on " + modulePath + "/service"},
	},
	{
		name: "ErrCgoInGrounding",
		pkgs: []listedPackage{own("grounding", []string{"C"})},
		want: []string{"grounding imports C"},
	},
	{
		name: "ErrNameUtil",
		pkgs: []listedPackage{own("equiv/util", nil), own("models", nil)},
		want: []string{`equiv/util: package name "util"`, `models: package name "models"`},
	},
}

func TestCheckImports(t *testing.T) {
	for _, tc := range checkImportsTests {
		t.Run(tc.name, func(t *testing.T) {
			got := checkImports(withStandard(tc.pkgs))
			if len(got) != len(tc.want) {
				t.Fatalf("checkImports = %d messages, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if !strings.Contains(got[i], tc.want[i]) {
					t.Errorf("checkImports message %d = %q, want it to contain %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// own returns a package of this module at the module-relative path rel.
// Module-relative imports and deps (no dot in the first element, not
// standard) are made absolute.
func own(rel string, imports []string, deps ...string) listedPackage {
	abs := func(paths []string) []string {
		var out []string
		for _, p := range paths {
			first, _, _ := strings.Cut(p, "/")
			switch {
			case p == domain:
				out = append(out, modulePath)
			case slices.Contains(fakeStandard, p) || strings.Contains(first, ".") || p == "C":
				out = append(out, p)
			default:
				out = append(out, modulePath+"/"+p)
			}
		}
		return out
	}
	if rel == domain {
		return listedPackage{ImportPath: modulePath, Name: "gamequiv", Imports: abs(imports), Deps: abs(deps)}
	}
	return listedPackage{
		ImportPath: modulePath + "/" + rel,
		Name:       rel[strings.LastIndex(rel, "/")+1:],
		Imports:    abs(imports),
		Deps:       abs(deps),
	}
}

// fakeStandard lists the standard packages the made-up lists use.
var fakeStandard = []string{"expvar", "fmt", "context", "iter", "net/http", "net/url", "database/sql", "database/sql/driver"}

// withStandard appends the standard packages of fakeStandard that pkgs lacks,
// as `go list -deps` would list them.
func withStandard(pkgs []listedPackage) []listedPackage {
	out := slices.Clone(pkgs)
	for _, p := range fakeStandard {
		if slices.ContainsFunc(pkgs, func(q listedPackage) bool { return q.ImportPath == p }) {
			continue
		}
		out = append(out, listedPackage{ImportPath: p, Name: p[strings.LastIndex(p, "/")+1:], Standard: true})
	}
	return out
}
