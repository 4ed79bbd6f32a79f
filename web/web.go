// Package web holds the browser interface of gamequiv: server-rendered HTML
// templates and the static files they use (a stylesheet and htmx), embedded
// in the binary. It renders views and serves files and nothing else: the
// api package routes the pages, fills the views (of the domain types of
// package gamequiv) from the same calls its JSON handlers make, and passes
// them to Render.
//
// Templates are html/template, so every value is escaped for its context.
// htmx (htmx.org 2.0.11, vendored in static/ with its license) polls a
// running comparison, loads symmetries on demand and narrows the game
// pickers of the compare form as one types; every page also works without
// JavaScript. Boards are SVG drawn on the server (NewBoard): the templates
// only place what it computes.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"math"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// HTMXVersion is the version of the vendored static/htmx.min.js.
const HTMXVersion = "2.0.11"

// StaticPrefix is the URL path under which Static serves the static files.
const StaticPrefix = "/static/"

// Names of the pages Render knows.
const (
	PageHome        = "home"
	PageClasses     = "classes"
	PageClass       = "class"
	PageGames       = "games"
	PageGame        = "game"
	PageComparisons = "comparisons"
	PageComparison  = "comparison"
	PageCompare     = "compare"
	PageError       = "error"
	PageLogin       = "login"
)

var pageNames = []string{PageHome, PageClasses, PageClass, PageGames, PageGame, PageComparisons, PageComparison, PageCompare, PageError, PageLogin}

// static maps a static file name to a URL carrying a digest of its content,
// so browsers can cache files for long and still see new versions.
var static = func() map[string]string {
	sub := staticFiles()
	urls := map[string]string{}
	err := fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		urls[p] = StaticPrefix + p + "?v=" + hex.EncodeToString(sum[:6])
		return nil
	})
	if err != nil {
		panic(err) // the files are embedded
	}
	return urls
}()

func staticFiles() fs.FS {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err) // the directory is embedded
	}
	return sub
}

var funcs = template.FuncMap{
	// static returns the versioned URL of a static file.
	"static": func(name string) (string, error) {
		u, ok := static[name]
		if !ok {
			return "", fmt.Errorf("no static file %q", name)
		}
		return u, nil
	},
	// percent turns a fraction in [0,1] into a whole percentage.
	"percent": func(f float64) int {
		if math.IsNaN(f) {
			return 0
		}
		return int(math.Round(min(max(f, 0), 1) * 100))
	},
	// when formats a time for people (UTC, to the second).
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04:05 UTC")
	},
	// iso formats a time for the datetime attribute.
	"iso": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	// ms formats milliseconds.
	"ms": func(f float64) string { return fmt.Sprintf("%.1f ms", f) },
	// searchForm is the data of the "search" template: a GET form of
	// action with one field q.
	"searchForm": func(action, label, query string) SearchForm {
		return SearchForm{Action: action, Label: label, Query: query}
	},
	// cycleText writes cycles in cycle notation.
	"cycleText": CycleText,
	// add adds integers (1-based numbering in templates).
	"add": func(a, b int) int { return a + b },
	// join joins strings with a comma.
	"join": func(s []string) string { return strings.Join(s, ", ") },
	// plural returns word with an "s" unless n is 1.
	"plural": func(n any, word string) (string, error) {
		var k int64
		switch n := n.(type) {
		case int:
			k = int64(n)
		case int64:
			k = n
		default:
			return "", fmt.Errorf("plural: want an integer, got %T", n)
		}
		if k == 1 {
			return "1 " + word, nil
		}
		return fmt.Sprintf("%d %ss", k, word), nil
	},
}

// pages holds one template set per page: the layout plus the page's file.
var pages = func() map[string]*template.Template {
	base := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/parts.html"))
	out := make(map[string]*template.Template, len(pageNames))
	for _, name := range pageNames {
		t := template.Must(base.Clone())
		out[name] = template.Must(t.ParseFS(templateFS, "templates/"+name+".html"))
	}
	return out
}()

// SearchForm is a search box of a list page.
type SearchForm struct {
	Action, Label, Query string
}

// View is what Render gives a page's template: the page's own data and
// what the layout shows around it.
type View struct {
	// Title is the page title, shown in the tab and as the heading.
	Title string
	// Section is the navigation entry to mark as current: "classes",
	// "games", "comparisons", "compare" or empty.
	Section string
	// RequestID identifies the request, shown in the footer of error pages.
	RequestID string
	// Data is the page's data: the view type named after the page.
	Data any
	// Viewer is who is signed in, for the layout; nil without access
	// control.
	Viewer *Viewer
}

// Viewer is the person a page is rendered for, with access control on.
type Viewer struct {
	// Name is the name of the token signed in with, empty for an
	// anonymous reader.
	Name  string
	Admin bool
}

// Render writes the page name with v. It writes nothing if the template
// fails, so the caller can still answer with an error.
func Render(w io.Writer, name string, v View) error {
	t, ok := pages[name]
	if !ok {
		return fmt.Errorf("web: no page %q", name)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", v); err != nil {
		return fmt.Errorf("web: render %s: %w", name, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Static returns a handler that serves the static files at StaticPrefix.
// Versioned URLs (those templates make) are cacheable for a year.
func Static() http.Handler {
	files := http.StripPrefix(StaticPrefix, http.FileServerFS(staticFiles()))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no directory listings
			return
		}
		if r.URL.Query().Get("v") != "" {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=300")
		}
		files.ServeHTTP(w, r)
	})
}

// StaticFiles lists the embedded static files by name, sorted.
func StaticFiles() []string {
	names := make([]string, 0, len(static))
	for n := range static {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// StaticURL returns the versioned URL of a static file, or "" if there is
// no such file.
func StaticURL(name string) string {
	return static[path.Clean(name)]
}
