package grounding

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Pos is a position in a GDL source: 1-based line and column (in bytes).
type Pos struct {
	Line, Col int
}

// IsValid reports whether the position points into a source.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is a problem in a GDL source at a position.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.File != "" && e.Pos.IsValid():
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	case e.Pos.IsValid():
		return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
	case e.File != "":
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return e.Msg
}

// ErrorList is a list of source errors. The zero value is an empty list.
type ErrorList []*Error

// maxErrorsShown caps how many errors ErrorList.Error spells out.
const maxErrorsShown = 10

// Add appends an error.
func (l *ErrorList) Add(file string, pos Pos, format string, args ...any) {
	*l = append(*l, &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Sort orders the list by file and position, keeping one error per identical message and position.
func (l *ErrorList) Sort() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Pos.Col < b.Pos.Col
	})
	out := s[:0]
	for i, e := range s {
		if i > 0 && *e == *s[i-1] {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i == maxErrorsShown {
			fmt.Fprintf(&b, "\n(and %d more errors)", len(l)-maxErrorsShown)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// ErrLimit is matched (errors.Is) by every *LimitError.
var ErrLimit = errors.New("limit exceeded")

// LimitError reports that a configured limit was exceeded.
type LimitError struct {
	What  string // the limit's name, as in Limits (e.g. "MaxAtoms")
	Limit int64  // its configured value
	Got   int64  // what was reached when the work stopped (at least Limit+1 where countable)
	Where string // what grew past the limit, when known (e.g. "relation cell/3")
}

func (e *LimitError) Error() string {
	reached := fmt.Sprintf("reached %d", e.Got)
	if e.Got == math.MaxInt64 {
		// A count that saturated: a product of domains, measured before
		// its atoms are enumerated.
		reached = "reached more than 2^63"
	}
	if e.Where != "" {
		return fmt.Sprintf("limit %s=%d exceeded (%s; largest: %s)", e.What, e.Limit, reached, e.Where)
	}
	return fmt.Sprintf("limit %s=%d exceeded (%s)", e.What, e.Limit, reached)
}

// Is makes errors.Is(err, ErrLimit) true.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }
